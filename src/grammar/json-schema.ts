// JSON Schema to grammar, as a compiler in phases: the input's size is bounded (schema-size.ts),
// every draft is read as 2020-12 (drafts.ts), each keyword gets its policy (schema-policy.ts) in a
// pre-walk, schema objects are parsed into a typed schema (schema-parse.ts), `$ref`s resolved
// (schema-refs.ts), intersections forced with unsatisfiability as a value (schema-intersect.ts), and
// the result emitted as grammar rules (schema-emit.ts, schema-objects.ts, schema-scalars.ts). One
// work bound (work.ts) counts every phase. Output is compact JSON: no whitespace, object properties
// in schema order. Every keyword is either compiled exactly, over-approximated and left to the
// validator (recorded in `approximations`), an annotation, or an error: never dropped.

import { ConstraintError } from './errors.js';
import type { Grammar } from '../automaton/expr.js';
import type { GrammarLimits } from './gbnf-format.js';
import { DEFAULT_LIMITS } from './gbnf-format.js';
import { GrammarBuilder } from './grammar-builder.js';
import { checkGrammar } from './gbnf-check.js';
import { JsonRules } from './json-primitives.js';
import { refuseOversizedSchema } from './schema-size.js';
import type { Draft } from './drafts.js';
import { normalizeSchema } from './drafts.js';
import { Emitter } from './schema-emit.js';
import { Approximations, SchemaParser, invalid, isObject } from './schema-parse.js';
import type { Approximation } from './schema-parse.js';
import { RefResolver } from './schema-refs.js';
import { isUnsatisfiable } from './schema-types.js';
import { WorkBudget } from './work.js';

export type { Approximation } from './schema-parse.js';

export interface JsonSchemaOptions {
  /**
   * What the grammar allows when a schema has no `additionalProperties`: `false` (default) allows
   * only the declared properties, which is what a model should produce; `true` allows any others.
   */
  additionalProperties?: boolean;
  /**
   * Largest schema, in characters of its compact JSON text (an object used in several places counts
   * at each): a larger one is refused before it is read further. Default 1,000,000.
   */
  maxSchemaChars?: number;
  /** Maximum nesting of inline subschemas (and of `$ref` inlining inside `allOf`). Default 64. */
  maxDepth?: number;
  /** Maximum alternatives produced when `anyOf`/`oneOf` are distributed over siblings. Default 256. */
  maxBranches?: number;
  /** Extra keywords to treat as annotations even when `strict` (e.g. vendor extensions such as `x-order`). */
  annotations?: string[];
  /**
   * Refuse what the JSON Schema specification says to ignore: keywords of no standard vocabulary
   * (by default annotations, as `id` after draft-04, `x-*`, `readonly`) and formats neither the
   * grammar nor the validator knows (by default plain strings). Default false.
   */
  strict?: boolean;
}

export interface JsonSchemaGrammar {
  grammar: Grammar;
  /** Keywords the grammar does not enforce exactly; the validator checks them on the output. */
  approximations: Approximation[];
  /** The draft the schema declares in `$schema`, else the one its spellings suggest, else `2020-12`. */
  draft: Draft;
  /** The schema in 2020-12 spellings (drafts.ts): what the grammar was compiled from and the validator checks. */
  normalized: unknown;
}

const DEFAULT_MAX_BRANCHES = 256;

export function compileJsonSchemaToGrammar(
  input: unknown,
  options: JsonSchemaOptions & { limits?: Partial<GrammarLimits> } = {},
): JsonSchemaGrammar {
  if (typeof input !== 'boolean' && !isObject(input)) invalid('a JSON Schema must be an object or a boolean', '');
  refuseOversizedSchema(input, options.maxSchemaChars);
  const maxDepth = options.maxDepth ?? 64;
  const { schema, draft } = normalizeSchema(input, {
    strict: options.strict,
    annotations: options.annotations,
    maxDepth,
  });
  const work = new WorkBudget();
  const approximations = new Approximations();
  const parser = new SchemaParser(new RefResolver(schema, maxDepth), work, approximations, maxDepth);
  parser.check(schema, '', 0);
  const builder = new GrammarBuilder({ ...DEFAULT_LIMITS, ...options.limits });
  builder.spend = (units) => work.spend(units, '');
  const emitter = new Emitter(builder, new JsonRules(builder), parser, work, approximations, {
    maxDepth,
    maxBranches: options.maxBranches ?? DEFAULT_MAX_BRANCHES,
    openObjects: options.additionalProperties ?? false,
    strict: options.strict ?? false,
  });
  const root = emitter.emit(parser.parse(schema, ''), '', 0);
  if (isUnsatisfiable(root))
    throw new ConstraintError('unsatisfiable', root.reason, { pointer: root.pointer, keyword: root.keyword });
  const grammar = builder.build(root);
  checkGrammar(grammar);
  return { grammar, approximations: approximations.list, draft, normalized: schema };
}
