export interface Command {
  /** One line for `svc --help`. */
  summary: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(args: string[]): Promise<number>;
}

/** A usage problem (bad flags): exit code 2. */
export class UsageError extends Error {}
