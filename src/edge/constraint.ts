// The constraint of a /generate request: `schema`, `regex` or `choices`, read and compiled exactly as
// the library reads and compiles them (src/client/constraint.ts, one compiler: src/grammar), so a
// request the library refuses the edge refuses with the same message, and the same grammar steers
// llama.cpp.
//
// What differs is the output check. The library validates JSON with ajv, which compiles each schema
// into JavaScript at run time; workerd refuses code generation from strings (`new Function` is an
// EvalError in a request). So the edge takes the schemas whose grammar is exact (the compiler lists
// no keyword it only approximates, such as uniqueItems or not: those the library checks with
// ajv after generation) and checks every JSON output with the grammar's own recognizer, which says
// exactly what the schema says for them. Regexes and choices are checked as the library checks them.
import {
  choicesConstraint,
  compile,
  preview,
  regexConstraint,
  schemaConstraint,
  type Constraint,
} from '../client/constraint.js';
import { ClientError } from '../client/errors.js';
import { ConstraintError, recognizeGbnf, type CompiledJsonSchema } from '../grammar/index.js';
import { HttpError } from './http.js';

export const CONSTRAINT_FIELDS = ['schema', 'regex', 'choices'] as const;

// Recognizing an output is polynomial in its length; a grammar that would take longer than this
// for a 512-token output is not one the edge serves (the output is then neither answered nor cached).
const RECOGNIZE_MAX_STEPS = 5_000_000;

export interface EdgeConstraint {
  kind: Constraint['kind'];
  /** The constraint as the library keys it (kind and input), for the cache key. */
  key: string;
  /** GBNF for llama.cpp (root rule `root`). */
  gbnf: string;
  /**
   * Why `text` does not satisfy the constraint (llama.cpp followed the grammar, so the output stopped
   * short of a complete one), or why it could not be checked (`unchecked`); undefined when it satisfies it.
   */
  problem(text: string): { message: string; unchecked?: true } | undefined;
}

/** The body's constraint, or null when it gives none. 400 naming the field and the rule when it is unusable. */
export function readConstraint(body: Record<string, unknown>): EdgeConstraint | null {
  const given = CONSTRAINT_FIELDS.filter((k) => body[k] !== undefined);
  if (given.length === 0) return null;
  if (given.length > 1)
    throw new HttpError(400, `give at most one of schema, regex or choices; got ${given.join(' and ')}`);
  const field = given[0];
  let constraint: Constraint;
  try {
    constraint =
      field === 'schema'
        ? schemaConstraint(body.schema)
        : field === 'regex'
          ? regexConstraint(body.regex)
          : choicesConstraint(body.choices);
    const compiled = compile(constraint);
    if (constraint.kind === 'json' && !constraint.type) {
      const approximated = (compiled.grammar as CompiledJsonSchema).approximations;
      if (approximated.length > 0) {
        const which = approximated.map((a) => `${a.keyword} at ${a.pointer || '/'}`).join(', ');
        throw new HttpError(
          400,
          `schema uses keywords the edge cannot check (${which}): they are checked after generation by a validator that workerd cannot run; the library and SQL take this schema`,
        );
      }
    }
    return {
      kind: constraint.kind,
      key: constraint.key,
      gbnf: compiled.grammar.gbnf,
      problem: problemOf(constraint, compiled),
    };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (error instanceof ConstraintError)
      throw new HttpError(400, `${field} is not a usable constraint: ${error.message}`);
    // The library's own refusals (invalid-options) name the option and the rule.
    if (error instanceof ClientError && error.code === 'invalid-options') throw new HttpError(400, error.message);
    throw error;
  }
}

function problemOf(constraint: Constraint, compiled: ReturnType<typeof compile>): EdgeConstraint['problem'] {
  if (constraint.kind !== 'json' || constraint.type) {
    return (text) => {
      const checked = compiled.check(text);
      return checked.ok ? undefined : { message: checked.error.message };
    };
  }
  const grammar = compiled.grammar.grammar;
  return (text) => {
    let accepted: boolean;
    try {
      accepted = recognizeGbnf(grammar, text, { maxSteps: RECOGNIZE_MAX_STEPS });
    } catch (error) {
      if (error instanceof ConstraintError)
        return {
          message: `output ${preview(text)} could not be checked against the schema: ${error.message}`,
          unchecked: true,
        };
      throw error;
    }
    return accepted ? undefined : { message: `output ${preview(text)} does not satisfy the schema` };
  };
}
