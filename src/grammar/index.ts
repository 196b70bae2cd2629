// Public API of the constraint compiler. Pure TypeScript, synchronous and deterministic: the same
// module runs in PostgreSQL (plv8 bundle), the Node library and the edge worker.

import { ConstraintError } from './errors.js';
import type { Grammar } from '../automaton/expr.js';
import type { GrammarLimits } from './gbnf-format.js';
import { DEFAULT_LIMITS, checkExpandedSize, checkGrammarChars, formatGrammar } from './gbnf-format.js';
import { GrammarBuilder } from './grammar-builder.js';
import { checkGrammar } from './gbnf-check.js';
import { parseGbnf } from './gbnf-parse.js';
import { choicesToGrammar, checkChoices } from './choices.js';
import type { Approximation, JsonSchemaOptions } from './json-schema.js';
import type { Draft } from './drafts.js';
import { compileJsonSchemaToGrammar } from './json-schema.js';
import { regexToExpr } from './regex.js';
import { unambiguous } from './ambiguity.js';
import { rangesExpr } from './dfa.js';

/** A regex constraint's automaton, should it need one (ambiguity.ts): states, and no work bound (the input is at most 100,000 characters). */
const REGEX_DFA_BUDGET = { maxStates: 2_000, spend: () => {} };
import type { BasicType } from './types.js';
import { parseTypedOutput, resolveTypeName, typeToGrammar } from './types.js';
import type { ValidationResult } from './validator.js';
import { createSchemaValidator } from './validator.js';

export { ConstraintError, pointerChild } from './errors.js';
export type { ConstraintErrorCode, ConstraintErrorContext } from './errors.js';
export type { Expr, Grammar, CharRanges } from '../automaton/expr.js';
export type { GrammarLimits } from './gbnf-format.js';
export { DEFAULT_LIMITS, LLAMA_MAX_REPETITION, formatGrammar as formatGbnf } from './gbnf-format.js';
export { parseGbnf } from './gbnf-parse.js';
export { recognizeGbnf, sampleGbnf, seededRandom } from './gbnf-run.js';
export type { RecognizeOptions, SampleOptions } from './gbnf-run.js';
export { checkGrammar } from './gbnf-check.js';
export { parseTypedOutput, resolveTypeName } from './types.js';
export type { BasicType } from './types.js';
export type { Approximation, JsonSchemaOptions } from './json-schema.js';
export type { Draft } from './drafts.js';
export type { ValidationResult } from './validator.js';

export interface CompileOptions {
  limits?: Partial<GrammarLimits>;
}

export interface CompiledGrammar {
  /** GBNF text for llama.cpp; the root rule is `root`. */
  gbnf: string;
  /** The same grammar as IR, for sampleGbnf/recognizeGbnf. */
  grammar: Grammar;
}

export interface CompiledJsonSchema extends CompiledGrammar {
  /** Keywords the grammar over-approximates; `validate` checks them on the output. */
  approximations: Approximation[];
  /** The draft the schema declares, else the one its spellings suggest, else 2020-12. */
  draft: Draft;
  /** Parses the output and validates it against the schema (ajv, on its 2020-12 spelling: drafts.ts). */
  validate(text: string): ValidationResult;
  /** Like validate, but returns the value or throws ConstraintError('validation-failed'). */
  parse(text: string): unknown;
}

export interface CompiledType extends CompiledGrammar {
  type: BasicType;
  parse(text: string): number | boolean | string;
}

/**
 * The compilers bound nesting and size before they recurse or allocate, so this is a last resort:
 * should an input still exhaust the stack or a string's maximum length, the caller gets a
 * ConstraintError (SQLSTATE 22023/54000 in PostgreSQL) instead of an internal error.
 */
function guarded<T>(compile: () => T): T {
  try {
    return compile();
  } catch (error) {
    if (error instanceof RangeError) {
      if (/call stack/i.test(error.message))
        throw new ConstraintError('too-deep', 'the constraint nests too deeply to compile (the stack ran out)');
      if (/invalid (string|array|typed array) length/i.test(error.message))
        throw new ConstraintError('too-large', 'the constraint is too large to compile');
    }
    throw error;
  }
}

/** Formats, size-checks and re-parses a grammar, so what leaves here is known to be well formed. */
function finish(grammar: Grammar, options: CompileOptions = {}): CompiledGrammar {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  checkGrammar(grammar);
  checkExpandedSize(grammar, limits);
  const gbnf = formatGrammar(grammar);
  checkGrammarChars(gbnf, limits);
  return { gbnf, grammar: parseGbnf(gbnf) };
}

export function compileJsonSchema(
  schema: unknown,
  options: JsonSchemaOptions & CompileOptions = {},
): CompiledJsonSchema {
  const { compiled, approximations, draft, normalized } = guarded(() => {
    const { grammar, approximations, draft, normalized } = compileJsonSchemaToGrammar(schema, options);
    return { compiled: finish(grammar, options), approximations, draft, normalized };
  });
  const validate = createSchemaValidator(normalized);
  return {
    ...compiled,
    approximations,
    draft,
    validate,
    parse(text: string) {
      const result = validate(text);
      if (!result.ok) throw result.error;
      return result.value;
    },
  };
}

/** A regex that the whole output must match (anchors at the ends are optional). Flags: i, s (u is implied). */
export function compileRegex(pattern: string, flags = '', options: CompileOptions = {}): CompiledGrammar {
  return guarded(() => {
    const builder = new GrammarBuilder();
    const expr = unambiguous(
      regexToExpr(pattern, flags, { semantics: 'full' }),
      'the regex',
      builder,
      'regex',
      REGEX_DFA_BUDGET,
      rangesExpr,
    );
    return finish(builder.build(expr), options);
  });
}

/** Exactly one of the strings; a duplicate is an error naming it. */
export function compileChoices(
  choices: readonly string[],
  options: CompileOptions = {},
): CompiledGrammar & { choices: string[] } {
  const maxGrammarChars = options.limits?.maxGrammarChars ?? DEFAULT_LIMITS.maxGrammarChars;
  return guarded(() => ({
    ...finish(choicesToGrammar(choices, maxGrammarChars), options),
    choices: [...checkChoices(choices)],
  }));
}

/** integer/int, number/float/Number, boolean/bool/Boolean, string/str/String. */
export function compileType(name: string, options: CompileOptions = {}): CompiledType {
  const type = resolveTypeName(name);
  return {
    ...guarded(() => finish(typeToGrammar(type), options)),
    type,
    parse: (text: string) => parseTypedOutput(type, text),
  };
}

/** Throws unless `gbnf` parses and is usable (rules defined, no left recursion, finite output). */
export function checkGbnf(gbnf: string): Grammar {
  return guarded(() => {
    const grammar = parseGbnf(gbnf);
    checkGrammar(grammar);
    return grammar;
  });
}

export function isConstraintError(error: unknown): error is ConstraintError {
  return error instanceof ConstraintError;
}
