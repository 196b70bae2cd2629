import { readFileSync } from 'node:fs';
import { ConstraintError } from '../grammar/index.js';
import { nearestOption } from './suggest.js';
export interface Command {
  /** One line for `svc --help`. */
  summary: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(args: string[]): Promise<number>;
}

/** A usage problem (bad flags): exit code 2. */
export class UsageError extends Error {}

/**
 * Node's parseArgs error for an option the command does not take, as a UsageError that names the
 * nearest option it does take (by edit distance, when close); other errors are returned as they are.
 */
export function withSuggestion(error: unknown, options: readonly string[]): unknown {
  if ((error as { code?: string })?.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return error;
  const given = /'(-{1,2}[^']*)'/.exec((error as Error).message)?.[1];
  if (given === undefined) return error;
  const best = nearestOption(given.replace(/^-+/, '').replace(/=.*$/, ''), options);
  return new UsageError(`unknown option '${given}'${best !== undefined ? `; did you mean --${best}?` : ''}`);
}

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

/**
 * --choices of `svc grammar` and `svc generate` alike: comma-separated (`yes,no`), or a JSON array of
 * strings when it starts with '[' (for choices that contain commas). A '[' that does not parse is a
 * constraint error (exit 1), as a schema that is not JSON.
 */
export function parseChoicesFlag(text: string): string[] {
  if (text.trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new ConstraintError(
        'invalid-input',
        `--choices looks like a JSON array but does not parse: ${(error as Error).message}`,
      );
    }
    if (Array.isArray(parsed)) return parsed as string[];
  }
  return text.split(',');
}

/** A JSON Schema from a file, or from stdin for `-`: unreadable is a usage error, bad JSON a constraint error. */
export function readSchema(source: string): unknown {
  let text: string;
  try {
    text = source === '-' ? readFileSync(0, 'utf8') : readFileSync(source, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read schema ${source === '-' ? 'from stdin' : `file '${source}'`}: ${(error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConstraintError(
      'invalid-input',
      `schema ${source === '-' ? 'on stdin' : `file '${source}'`} is not valid JSON: ${(error as Error).message}`,
    );
  }
}
