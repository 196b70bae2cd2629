// Constraints compiled to GBNF at submission, with errors reported against the SQL parameter that
// carried the constraint. The compiler itself is src/grammar/, shared with the library and the edge.
import { compileChoices, compileJsonSchema, compileRegex, ConstraintError } from '../grammar/index.js';
import { parameterError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';

// The last grammars compiled in this session, by constraint: a table labelled row by row, or a set
// call checked again in the autonomous session, compiles each constraint once. Errors are not kept.
const compiled = new Map<string, string>();
const COMPILED_KEPT = 32;

function memoized(key: string, compile: () => string): string {
  const hit = compiled.get(key);
  if (hit !== undefined) {
    compiled.delete(key); // most recent last
    compiled.set(key, hit);
    return hit;
  }
  const gbnf = compile();
  if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, gbnf);
  return gbnf;
}

function asParameterError(fn: string, parameter: string, error: unknown): never {
  if (error instanceof ConstraintError) {
    throw parameterError(fn, parameter, `is not a usable constraint: ${error.message}`, { detail: `constraint error code: ${error.code}` });
  }
  throw error;
}

/** How a request's schema is compiled: svc.strict_schema and svc.open_objects, as the request records them. */
export interface SchemaCompile {
  /** Unknown keywords and formats are errors. */
  strict: boolean;
  /** Objects without additionalProperties take any further members. */
  openObjects: boolean;
}

export function schemaGrammar(fn: string, schema: unknown, how: SchemaCompile): string {
  if (schema === null || schema === undefined) throw parameterError(fn, 'schema', 'must not be NULL', {}, SQLSTATE.null_value_not_allowed);
  try {
    return memoized(`schema\u0000${how.strict}\u0000${how.openObjects}\u0000${JSON.stringify(schema)}`, () =>
      compileJsonSchema(schema, { strict: how.strict, additionalProperties: how.openObjects }).gbnf,
    );
  } catch (error) {
    return asParameterError(fn, 'schema', error);
  }
}

export function regexGrammar(fn: string, pattern: string): string {
  try {
    return memoized(`regex\u0000${pattern}`, () => compileRegex(pattern).gbnf);
  } catch (error) {
    return asParameterError(fn, 'pattern', error);
  }
}

export function choicesGrammar(fn: string, choices: string[]): string {
  try {
    return memoized(`choices\u0000${JSON.stringify(choices)}`, () => compileChoices(choices).gbnf);
  } catch (error) {
    return asParameterError(fn, 'choices', error);
  }
}
