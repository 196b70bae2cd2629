import { readFileSync } from 'node:fs';
import { ConstraintError } from '../grammar/index.js';
export interface Command {
  /** One line for `svc --help`. */
  summary: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(args: string[]): Promise<number>;
}

/** A usage problem (bad flags): exit code 2. */
export class UsageError extends Error {}

/** The constraint flags of `svc grammar` and `svc generate` (each takes one of them). */
export const CONSTRAINT_OPTIONS = {
  schema: { type: 'string' },
  regex: { type: 'string' },
  choices: { type: 'string' },
  type: { type: 'string' },
} as const;

type ConstraintFlag = keyof typeof CONSTRAINT_OPTIONS;

/** Which constraint flags were given, in the order of CONSTRAINT_OPTIONS. */
export function givenConstraints(values: Partial<Record<ConstraintFlag, unknown>>): ConstraintFlag[] {
  return (Object.keys(CONSTRAINT_OPTIONS) as ConstraintFlag[]).filter((k) => values[k] !== undefined);
}

/** A JSON Schema from a file, or from stdin for `-`: unreadable is a usage error, bad JSON a constraint error. */
export function readSchema(source: string): unknown {
  let text: string;
  try {
    text = source === '-' ? readFileSync(0, 'utf8') : readFileSync(source, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read schema ${source === '-' ? 'from stdin' : `file '${source}'`}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConstraintError('invalid-input', `schema ${source === '-' ? 'on stdin' : `file '${source}'`} is not valid JSON: ${(error as Error).message}`);
  }
}
