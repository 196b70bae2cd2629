// Constraints compiled to GBNF at submission, with errors reported against the SQL parameter that
// carried the constraint. The compiler itself is src/grammar/, shared with the library and the edge.
import { compileChoices, compileJsonSchema, compileRegex, ConstraintError } from '../grammar/index.js';
import { parameterError, SQLSTATE } from './errors.js';

function asParameterError(fn: string, parameter: string, error: unknown): never {
  if (error instanceof ConstraintError) {
    throw parameterError(fn, parameter, `is not a usable constraint: ${error.message}`, { detail: `constraint error code: ${error.code}` });
  }
  throw error;
}

/** `strict`: svc.strict_schema as the request records it (unknown keywords and formats are errors). */
export function schemaGrammar(fn: string, schema: unknown, strict: boolean): string {
  if (schema === null || schema === undefined) throw parameterError(fn, 'schema', 'must not be NULL', {}, SQLSTATE.nullValueNotAllowed);
  try {
    return compileJsonSchema(schema, { strict }).gbnf;
  } catch (error) {
    return asParameterError(fn, 'schema', error);
  }
}

export function regexGrammar(fn: string, pattern: string): string {
  try {
    return compileRegex(pattern).gbnf;
  } catch (error) {
    return asParameterError(fn, 'pattern', error);
  }
}

export function choicesGrammar(fn: string, choices: string[]): string {
  try {
    return compileChoices(choices).gbnf;
  } catch (error) {
    return asParameterError(fn, 'choices', error);
  }
}
