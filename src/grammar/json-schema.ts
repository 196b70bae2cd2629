// JSON Schema to grammar, one rule per construct (in the spirit of llama.cpp's
// json-schema-to-grammar, without its silent gaps). Output is compact JSON: no whitespace, object
// properties in schema order. Every keyword is either compiled exactly, over-approximated and left
// to the validator (recorded in `approximations`), an annotation, or an error: never dropped.

import { ConstraintError, pointerChild } from './errors.js';
import type { Expr, Grammar } from './expr.js';
import { EMPTY, alt, altOf, charClass, literal, normalizeRanges, optional, ref, repeat, seq } from './expr.js';
import { FORMAT_PATTERNS, NUMBER_FORMATS, VALIDATED_FORMATS } from './formats.js';
import type { GrammarLimits } from './gbnf-format.js';
import { DEFAULT_LIMITS, GrammarBuilder } from './gbnf-format.js';
import { checkGrammar } from './gbnf-check.js';
import { DEFAULT_INTEGER_DIGITS, JsonRules } from './json-primitives.js';
import { recognizeWithin } from './gbnf-run.js';
import { regexToExpr, toJsonStringContent } from './regex.js';
import { PatternMatcher, patternExpr, patternKeyExcluding } from './pattern-keys.js';
import { refuseOversizedSchema } from './schema-size.js';
import type { Draft } from './drafts.js';
import { normalizeSchema, refuseTooManyProperties } from './drafts.js';

type Schema = boolean | SchemaObject;
type SchemaObject = { [keyword: string]: unknown };

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

export interface Approximation {
  pointer: string;
  keyword: string;
  note: string;
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

// ---- keyword policy ---------------------------------------------------------------------------

const COMPILED = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'allOf',
  'anyOf',
  'oneOf',
  '$ref',
]);

/** Keywords the grammar ignores (over-approximates) and the validator checks afterwards. */
const VALIDATED_NOTES: Record<string, string> = {
  multipleOf: 'divisibility is not expressible as a grammar',
  uniqueItems: 'uniqueness is not context-free',
  not: 'negation is not expressible as a grammar',
  contains: 'checked by the validator',
  minContains: 'checked by the validator',
  maxContains: 'checked by the validator',
  dependentRequired: 'checked by the validator',
  dependentSchemas: 'checked by the validator',
  dependencies: 'checked by the validator',
  if: 'conditionals are checked by the validator',
  then: 'conditionals are checked by the validator',
  else: 'conditionals are checked by the validator',
  propertyNames: 'checked by the validator',
  patternProperties:
    'keys are generated from the patterns; a key that matches several patterns or also fits additionalProperties, or that repeats or spells a declared property, is checked by the validator',
  unevaluatedProperties: 'checked by the validator',
  unevaluatedItems: 'checked by the validator',
};
// Looked up in a Map: `keyword in {…}` is also true for `toString`, `__proto__` and every other
// Object.prototype member, which were then silently taken for validated keywords.
const VALIDATED = new Map(Object.entries(VALIDATED_NOTES));

/** Standard keywords that change what is valid and that svc cannot handle. */
const REFUSED = new Set(['$dynamicRef', '$recursiveRef']);

/** Keywords that constrain a value; every other keyword (standard or not) is an annotation. */
const CONSTRAINING = new Set([...COMPILED, ...VALIDATED.keys(), ...REFUSED]);

const TYPE_NAMES = ['null', 'boolean', 'object', 'array', 'string', 'number', 'integer'] as const;
type TypeName = (typeof TYPE_NAMES)[number];

const KEYWORD_TYPES = new Map<string, TypeName[]>(
  Object.entries({
    properties: ['object'],
    required: ['object'],
    additionalProperties: ['object'],
    minProperties: ['object'],
    maxProperties: ['object'],
    items: ['array'],
    prefixItems: ['array'],
    additionalItems: ['array'],
    minItems: ['array'],
    maxItems: ['array'],
    minLength: ['string'],
    maxLength: ['string'],
    pattern: ['string'],
    minimum: ['number'],
    maximum: ['number'],
    exclusiveMinimum: ['number'],
    exclusiveMaximum: ['number'],
  } satisfies Record<string, TypeName[]>),
);

const DEFAULT_MAX_BRANCHES = 256;

/** Levels of nesting an array tail or an extra-key trie builds before continuing in a new rule. */
const NESTING_PER_RULE = 64;

/**
 * Compile work allowed: BASE_WORK plus WORK_PER_INPUT_UNIT times the input's size, in the units of
 * inputSize (about 15 µs each here). Compiling each subschema once costs its size; the corpus
 * spends at most 11, 256 merged branches about 4,100.
 */
const BASE_WORK = 20_000;
const WORK_PER_INPUT_UNIT = 16;
/**
 * Compile work allowed whatever the input's size (0.5-1 s here): a large schema with one
 * expensive corner was allowed 16 times its size, and was refused only after 6 s (issue #36).
 * Counted in steps, not time, so what is refused is the same on every machine.
 */
const MAX_WORK = 30_000;

/**
 * Matching steps (well under 1 µs each) for checking enum values against the rest of their schema:
 * nested repetitions cost a power of the value's length, so values past this are left to the
 * validator rather than hang the compiler.
 */
const MAX_ENUM_RECOGNITION_STEPS = 2_000_000;

/** Bound on the (property, count) states an object with min/maxProperties may need. */
const MAX_OBJECT_STATES = 4000;

// ---- helpers ----------------------------------------------------------------------------------

const isObject = (value: unknown): value is SchemaObject => typeof value === 'object' && value !== null && !Array.isArray(value);

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** Sets an own property, also for `__proto__`, which assignment would take as the prototype. */
function setOwn(object: SchemaObject, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

function jsonTypeOf(value: unknown): TypeName {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as TypeName;
}

/** recognizeWithin, or null also when the recognizer's recursion (along a long $ref chain) runs out of stack. */
function recognizeBounded(grammar: Grammar, text: string, budget: { steps: number }): boolean | null {
  try {
    return recognizeWithin(grammar, text, budget);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/** Compile work of one schema object: one, plus its enum values and about one per 16 pattern characters. */
function inputSize(schema: SchemaObject): number {
  const enumSize = Array.isArray(schema.enum) ? schema.enum.length : 0;
  const patternSize = typeof schema.pattern === 'string' ? Math.ceil(schema.pattern.length / 16) : 0;
  const propertiesSize = isObject(schema.properties) ? Object.keys(schema.properties).length : 0;
  return 1 + enumSize + patternSize + propertiesSize;
}

function invalid(message: string, pointer: string, keyword?: string): never {
  throw new ConstraintError('invalid-input', message, { pointer, keyword });
}

function nonNegativeInteger(schema: SchemaObject, keyword: string, pointer: string): number | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    invalid(`${keyword} must be a non-negative integer`, pointerChild(pointer, keyword), keyword);
  }
  return value;
}

/** Rewrites draft-07 (and draft-04) spellings into 2020-12 ones, shallowly. */
function normalizeDraft(schema: SchemaObject): SchemaObject {
  let out = schema;
  const edit = () => (out === schema ? (out = { ...schema }) : out);
  if (Array.isArray(schema.items)) {
    edit().prefixItems = schema.items;
    if ('additionalItems' in schema) out.items = schema.additionalItems;
    else delete out.items;
    delete out.additionalItems;
  } else if ('additionalItems' in schema) {
    // additionalItems without array items has no effect.
    delete edit().additionalItems;
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[exclusive] === 'boolean') {
      edit();
      if (schema[exclusive] === true && typeof schema[bound] === 'number') {
        out[exclusive] = schema[bound];
        delete out[bound];
      } else delete out[exclusive];
    }
  }
  return out;
}

function hintFromPointer(pointer: string): string {
  const structural = new Set(['properties', '$defs', 'definitions', 'allOf', 'anyOf', 'oneOf', 'prefixItems']);
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .filter((t) => !structural.has(t));
  return tokens.slice(-2).join('-') || 'schema';
}

// ---- the compiler -----------------------------------------------------------------------------

class SchemaCompiler {
  readonly builder: GrammarBuilder;
  readonly json: JsonRules;
  readonly approximations: Approximation[] = [];
  private readonly approximationKeys = new Set<string>();
  private readonly refRules = new Map<string, string>();
  /** Referenced locations that matched nothing: every later reference fails the same way. */
  private readonly refFailures = new Map<string, ConstraintError>();
  private readonly resolved = new Map<string, { schema: Schema; pointer: string }>();
  /** Merged schemas being compiled (compileMerged), per mode (see specMode). */
  private readonly merging = new Map<object, { name?: string; failure?: ConstraintError }>();
  private readonly mergingSpec = new Map<object, { name?: string; failure?: ConstraintError }>();
  /**
   * Compiling the rest of a schema that enum/const values are checked against (compileEnum): read
   * as the specification reads it, not as the grammar narrows it for a model to write (objects
   * closed by default, tuples without `items` closed, types inferred from keywords), or valid
   * values are dropped: `{"a": {"b": 1}}` under nested patternProperties was refused (issue #48).
   */
  private specMode = false;
  /** Names against patternProperties patterns, by automaton (never a backtracking RegExp). */
  private readonly patternMatcher = new PatternMatcher();
  /** Schema objects the keyword check has seen. */
  private readonly checked = new Set<object>();
  /** Size of the input, and the compile work spent so far (see spend). */
  private inputSize = 0;
  private work = 0;
  /** Steps left for recognizing enum values (see compileEnum). */
  private readonly recognition = { steps: MAX_ENUM_RECOGNITION_STEPS };
  private readonly maxDepth: number;
  private readonly maxBranches: number;
  private readonly allowExtraProperties: boolean;
  private readonly strict: boolean;

  constructor(
    private readonly root: Schema,
    options: JsonSchemaOptions & { limits?: Partial<GrammarLimits> },
  ) {
    this.builder = new GrammarBuilder({ ...DEFAULT_LIMITS, ...options.limits });
    this.json = new JsonRules(this.builder);
    this.maxDepth = options.maxDepth ?? 64;
    this.maxBranches = options.maxBranches ?? DEFAULT_MAX_BRANCHES;
    this.allowExtraProperties = options.additionalProperties ?? false;
    this.strict = options.strict ?? false;
  }

  approximate(pointer: string, keyword: string, note: string): void {
    const key = `${pointer}\u0000${keyword}`;
    if (this.approximationKeys.has(key)) return;
    this.approximationKeys.add(key);
    this.approximations.push({ pointer, keyword, note });
  }

  // -- pre-walk: every keyword everywhere the grammar looks gets a policy, or an error ----------

  checkKeywords(schema: unknown, pointer: string, depth: number): void {
    if (depth > this.maxDepth) {
      throw new ConstraintError('too-deep', `schema nesting exceeds the limit of ${this.maxDepth}`, { pointer });
    }
    if (typeof schema === 'boolean') return;
    if (!isObject(schema)) invalid('a schema must be an object or a boolean', pointer);
    this.checked.add(schema);
    this.inputSize += inputSize(schema);
    // Unknown keywords were refused (strict) or kept as annotations by normalizeSchema.
    for (const keyword of Object.keys(schema)) {
      const note = VALIDATED.get(keyword);
      if (note !== undefined) this.approximate(pointer, keyword, note);
      else if (REFUSED.has(keyword)) {
        throw new ConstraintError('unsupported-keyword', `${keyword} is not supported; use $ref`, { pointer: pointerChild(pointer, keyword), keyword });
      }
    }
    const child = (value: unknown, path: string) => this.checkKeywords(value, path, depth + 1);
    for (const keyword of ['properties', '$defs', 'definitions']) {
      const map = schema[keyword];
      if (map === undefined) continue;
      if (!isObject(map)) invalid(`${keyword} must be an object`, pointerChild(pointer, keyword), keyword);
      for (const [name, sub] of Object.entries(map)) child(sub, pointerChild(pointerChild(pointer, keyword), name));
    }
    for (const keyword of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
      const list = schema[keyword];
      if (list === undefined) continue;
      if (!Array.isArray(list) || (list.length === 0 && keyword !== 'prefixItems')) {
        invalid(`${keyword} must be a non-empty array`, pointerChild(pointer, keyword), keyword);
      }
      list.forEach((sub, i) => child(sub, pointerChild(pointerChild(pointer, keyword), i)));
    }
    if (Array.isArray(schema.items)) schema.items.forEach((sub, i) => child(sub, pointerChild(pointerChild(pointer, 'items'), i)));
    else if (schema.items !== undefined) child(schema.items, pointerChild(pointer, 'items'));
    for (const keyword of ['additionalProperties', 'additionalItems']) {
      if (schema[keyword] !== undefined) child(schema[keyword], pointerChild(pointer, keyword));
    }
    if (schema.required !== undefined && (!Array.isArray(schema.required) || schema.required.some((r) => typeof r !== 'string'))) {
      invalid('required must be an array of strings', pointerChild(pointer, 'required'), 'required');
    }
    if (schema.enum !== undefined && !Array.isArray(schema.enum)) invalid('enum must be an array', pointerChild(pointer, 'enum'), 'enum');
    if (schema.pattern !== undefined && typeof schema.pattern !== 'string') invalid('pattern must be a string', pointerChild(pointer, 'pattern'), 'pattern');
    if (schema.$ref !== undefined && typeof schema.$ref !== 'string') invalid('$ref must be a string', pointerChild(pointer, '$ref'), '$ref');
  }

  // -- $ref ------------------------------------------------------------------------------------

  /**
   * The schema a `$ref` points to, keyword-checked like the rest: a reference may point anywhere,
   * also under `not` or `if`, which the pre-walk does not enter. Resolved once per reference.
   */
  resolvePointer(reference: string, pointer: string): { schema: Schema; pointer: string } {
    let target = this.resolved.get(reference);
    if (!target) {
      target = this.locate(reference, pointer);
      this.resolved.set(reference, target);
    }
    if (isObject(target.schema) && !this.checked.has(target.schema)) this.checkKeywords(target.schema, target.pointer, 0);
    return target;
  }

  private locate(reference: string, pointer: string): { schema: Schema; pointer: string } {
    let fragment = reference;
    const rootId = isObject(this.root) && typeof this.root.$id === 'string' ? this.root.$id.replace(/#$/, '') : undefined;
    if (rootId && fragment.startsWith(rootId)) fragment = fragment.slice(rootId.length);
    if (!fragment.startsWith('#')) {
      throw new ConstraintError('unresolved-ref', `$ref '${reference}' is not local to this schema`, { pointer, keyword: '$ref' });
    }
    let body: string;
    try {
      body = decodeURIComponent(fragment.slice(1));
    } catch {
      // URIError: a `%` not followed by two hex digits, or bytes that are not UTF-8.
      throw new ConstraintError('unresolved-ref', `$ref '${reference}' is not a valid URI fragment (bad percent-encoding)`, { pointer, keyword: '$ref' });
    }
    if (body !== '' && !body.startsWith('/')) return this.resolveAnchor(body, reference, pointer);
    let target: unknown = this.root;
    const tokens =
      body === ''
        ? []
        : body
            .split('/')
            .slice(1)
            .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    for (const token of tokens) {
      if (Array.isArray(target) && /^(0|[1-9][0-9]*)$/.test(token)) target = target[Number(token)];
      else if (isObject(target) && Object.prototype.hasOwnProperty.call(target, token)) target = target[token];
      else target = undefined;
      if (target === undefined) break;
    }
    if (target === undefined || !(typeof target === 'boolean' || isObject(target))) {
      throw new ConstraintError('unresolved-ref', `$ref '${reference}' points to nothing`, { pointer, keyword: '$ref' });
    }
    return { schema: target as Schema, pointer: body };
  }

  private resolveAnchor(anchor: string, reference: string, pointer: string): { schema: Schema; pointer: string } {
    const seen = new Set<unknown>();
    const search = (node: unknown, at: string, depth: number): { schema: Schema; pointer: string } | undefined => {
      if (depth > this.maxDepth || !isObject(node) || seen.has(node)) return undefined;
      seen.add(node);
      if (node.$anchor === anchor || node.$id === '#' + anchor) return { schema: node, pointer: at };
      for (const [key, value] of Object.entries(node)) {
        if (isObject(value) || Array.isArray(value)) {
          const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
          if (isObject(value) && (key === 'enum' || key === 'const' || key === 'default' || key === 'examples')) continue;
          const direct = search(value, pointerChild(at, key), depth + 1);
          if (direct) return direct;
          for (const [k, v] of entries) {
            const found = search(v, pointerChild(pointerChild(at, key), k), depth + 2);
            if (found) return found;
          }
        }
      }
      return undefined;
    };
    const found = search(this.root, '', 0);
    if (!found) throw new ConstraintError('unresolved-ref', `$ref '${reference}' names no $anchor`, { pointer, keyword: '$ref' });
    return found;
  }

  /** A rule per referenced location, so recursion and repeated references cost one rule. */
  refExpr(reference: string, pointer: string, depth: number): Expr {
    const target = this.resolvePointer(reference, pointer);
    // A rule compiled in spec mode reads objects open: never the one a model writes through.
    const key = this.specMode ? `spec:${target.pointer}` : target.pointer;
    const failure = this.refFailures.get(key);
    if (failure) throw failure;
    const existing = this.refRules.get(key);
    if (existing) return ref(existing);
    const name = this.builder.reserve(hintFromPointer(target.pointer));
    this.refRules.set(key, name);
    try {
      this.builder.define(name, this.compile(target.schema, target.pointer, depth + 1));
    } catch (error) {
      // A second reference to an unsatisfiable target (two anyOfs sharing it) got the rule's name
      // though it was never defined: "internal: a reachable rule was reserved but never defined".
      if (error instanceof ConstraintError) this.refFailures.set(key, error);
      throw error;
    }
    return ref(name);
  }

  /** Follows a top-level `$ref` (merging its siblings) so the schema can take part in a merge. */
  dereference(schema: Schema, pointer: string, depth: number): Schema {
    for (let hops = 0; isObject(schema) && typeof schema.$ref === 'string'; hops++) {
      if (depth + hops > this.maxDepth) {
        throw new ConstraintError('too-deep', 'recursive $ref inside allOf/anyOf cannot be merged within the depth limit', { pointer, keyword: '$ref' });
      }
      const { $ref, ...siblings } = schema;
      const target = this.resolvePointer($ref as string, pointer).schema;
      schema = hasConstraints(siblings) ? this.merge(target, siblings, pointer) : target;
    }
    return schema;
  }

  /** mergeSchemas, its work counted in the compile work. */
  private merge(left: Schema, right: Schema, pointer: string): Schema {
    return mergeSchemas(left, right, pointer, this.maxBranches, (units) => this.spend(units, pointer));
  }

  /**
   * Compiles a schema that is merged before it is compiled (allOf, a $ref with siblings). Met again
   * while it is being compiled (a definition that refers to itself through a two-part allOf:
   * `allOf: [{$ref: "#/$defs/n"}, {required: [...]}]`), it becomes a rule the inner use refers to,
   * so recursion stays linear instead of being merged open level after level until too deep. A
   * schema that does not recur compiles as before, inline.
   */
  private compileMerged(input: SchemaObject, pointer: string, build: () => Expr): Expr {
    const open = this.specMode ? this.mergingSpec : this.merging;
    const entry = open.get(input);
    if (entry) {
      if (entry.failure) throw entry.failure;
      entry.name ??= this.builder.reserve(hintFromPointer(pointer));
      return ref(entry.name);
    }
    const mine: { name?: string; failure?: ConstraintError } = {};
    open.set(input, mine);
    try {
      const expr = build();
      if (mine.name === undefined) return expr;
      this.builder.define(mine.name, expr);
      return ref(mine.name);
    } catch (error) {
      // As refExpr: a reference reserved inside cannot be defined; later uses fail the same way.
      if (error instanceof ConstraintError) mine.failure = error;
      throw error;
    } finally {
      if (mine.failure === undefined) open.delete(input);
    }
  }

  // -- work bound ------------------------------------------------------------------------------

  /**
   * Counts compile work and stops it once it is far beyond what the input's size needs. Merging
   * compiles a schema once per use: `anyOf` next to `properties` compiles the properties once per
   * branch, and nested that multiplies (20 levels of two-branch unions: 58 s). A schema compiled
   * once costs about its input size, so the bound never stops a schema that is merely large.
   */
  private spend(units: number, pointer: string): void {
    this.work += units;
    const limit = Math.min(BASE_WORK + WORK_PER_INPUT_UNIT * this.inputSize, MAX_WORK);
    if (this.work > limit) {
      const bound = limit === MAX_WORK ? `the limit of ${MAX_WORK}` : `${WORK_PER_INPUT_UNIT} times its size`;
      throw new ConstraintError(
        'too-large',
        `compiling the schema takes more than ${limit} steps, ${bound}: anyOf/oneOf beside other keywords and allOf compile those keywords again for every branch, and nested unions multiply that`,
        { pointer },
      );
    }
  }

  /**
   * A part the value may leave out (an optional property, the items of an array that may be empty,
   * extra properties): compiled, or undefined when it matches nothing, so the rest stays usable.
   */
  private optionalPart(schema: Schema, pointer: string, depth: number): Expr | undefined {
    if (schema === false) return undefined;
    return this.tentative(() => {
      try {
        return this.compile(schema, pointer, depth);
      } catch (error) {
        // Leaving it out narrows what the grammar allows (never widens it): nothing for the validator.
        if (error instanceof ConstraintError && error.code === 'unsatisfiable') return undefined;
        throw error;
      }
    });
  }

  /**
   * Work whose rules count toward the grammar's characters only if it is kept: `work` returns
   * undefined (or throws) where its result is dropped (GrammarBuilder.open/close).
   */
  private tentative<T>(work: () => T | undefined): T | undefined {
    const mark = this.builder.open();
    let result: T | undefined;
    try {
      result = work();
      return result;
    } finally {
      this.builder.close(mark, result !== undefined);
    }
  }

  // -- main dispatch ---------------------------------------------------------------------------

  compile(input: Schema, pointer: string, depth: number): Expr {
    if (depth > this.maxDepth) {
      throw new ConstraintError('too-deep', `schema nesting exceeds the limit of ${this.maxDepth}`, { pointer });
    }
    this.spend(isObject(input) ? inputSize(input) : 1, pointer);
    if (input === true) return this.json.value();
    if (input === false) throw new ConstraintError('unsatisfiable', 'schema `false` matches nothing', { pointer });
    if (!isObject(input)) invalid('a schema must be an object or a boolean', pointer);
    const schema = normalizeDraft(input);
    if (!hasConstraints(schema)) return this.json.value();

    if (typeof schema.$ref === 'string') {
      const { $ref, ...siblings } = schema;
      if (!hasConstraints(siblings)) return this.refExpr($ref, pointer, depth);
      return this.compileMerged(input, pointer, () =>
        this.compile(this.merge(this.dereference({ $ref }, pointer, depth), siblings, pointer), pointer, depth + 1),
      );
    }
    if (schema.anyOf !== undefined || schema.oneOf !== undefined) return this.compileUnion(schema, pointer, depth);
    if (schema.allOf !== undefined) {
      const { allOf, ...base } = schema;
      // One constraining part and nothing beside it is that part: compiled as it is, a `$ref` stays a
      // reference (a rule), so recursion through `allOf: [{$ref}]` stays linear instead of being
      // merged open level after level.
      const parts = (allOf as Schema[]).flatMap((part, i) => (part === false || (isObject(part) && hasConstraints(part)) ? [i] : []));
      if (parts.length === 1 && !hasConstraints(base)) {
        return this.compile((allOf as Schema[])[parts[0]], pointerChild(pointerChild(pointer, 'allOf'), String(parts[0])), depth + 1);
      }
      // Parts first, in order, then the siblings: `allOf: [{$ref: Base}, {extension}]` lists Base's
      // properties first, as the instances of such protocol schemas do (conjunction is unordered).
      return this.compileMerged(input, pointer, () => {
        let merged: Schema = true;
        // A part met twice (two references to one definition) is merged once: A and A is A.
        const seen = new Set<Schema>();
        for (const part of allOf as Schema[]) {
          const target = this.dereference(part, pointer, depth);
          if (seen.has(target)) continue;
          seen.add(target);
          merged = this.merge(merged, target, pointer);
        }
        if (hasConstraints(base)) merged = this.merge(merged, base, pointer);
        return this.compile(merged, pointer, depth + 1);
      });
    }
    if (schema.const !== undefined || schema.enum !== undefined) return this.compileEnum(schema, pointer, depth);

    const types = this.allowedTypes(schema, pointer);
    const options: Expr[] = [];
    for (const type of types) {
      if (type === 'integer' && types.includes('number')) continue;
      options.push(this.compileType(type, schema, pointer, depth));
    }
    return altOf(options);
  }

  private compileUnion(schema: SchemaObject, pointer: string, depth: number): Expr {
    const keyword = schema.anyOf !== undefined ? 'anyOf' : 'oneOf';
    const { [keyword]: branches, ...base } = schema;
    if (keyword === 'oneOf') this.approximate(pointer, 'oneOf', 'the grammar accepts any branch; the validator checks that exactly one matches');
    const list = branches as Schema[];
    if (list.length > this.maxBranches) {
      throw new ConstraintError('too-large', `${keyword} has ${list.length} branches, above the limit of ${this.maxBranches}`, { pointer, keyword });
    }
    const options: Expr[] = [];
    let lastError: unknown;
    list.forEach((branch, i) => {
      const branchPointer = pointerChild(pointerChild(pointer, keyword), i);
      const expr = this.tentative(() => {
        try {
          // Without siblings a branch compiles on its own, so `$ref` branches stay shared rules;
          // with siblings (`properties` next to `anyOf`) each branch is merged with them.
          return hasConstraints(base)
            ? this.compile(this.merge(base, this.dereference(branch, branchPointer, depth), branchPointer), branchPointer, depth + 1)
            : this.compile(branch, branchPointer, depth + 1);
        } catch (error) {
          // A branch that cannot match (e.g. contradicts its siblings) just drops out of the union.
          if (error instanceof ConstraintError && error.code === 'unsatisfiable') lastError = error;
          else throw error;
          return undefined;
        }
      });
      if (expr) options.push(expr);
    });
    if (options.length === 0) throw lastError ?? new ConstraintError('unsatisfiable', `no ${keyword} branch can match`, { pointer });
    if (options.length > this.maxBranches) {
      throw new ConstraintError('too-large', `${keyword} expands to ${options.length} alternatives, above the limit of ${this.maxBranches}`, {
        pointer,
        keyword,
      });
    }
    return altOf(options);
  }

  private compileEnum(schema: SchemaObject, pointer: string, depth: number): Expr {
    const { enum: enumValues, const: constValue, ...rest } = schema;
    let values: unknown[] = constValue !== undefined ? [constValue] : (enumValues as unknown[]);
    if (constValue !== undefined && enumValues !== undefined) {
      const key = JSON.stringify(constValue);
      values = (enumValues as unknown[]).some((v) => JSON.stringify(v) === key) ? [constValue] : [];
    }
    const seen = new Set<string>();
    const texts: string[] = [];
    for (const value of values) {
      const text = JSON.stringify(value);
      if (text === undefined) invalid('enum/const values must be JSON values', pointer, 'enum');
      if (!seen.has(text)) {
        seen.add(text);
        texts.push(text);
      }
    }
    let allowed = texts;
    if (hasConstraints(rest)) {
      // Keep the values the rest of the schema accepts, judged by a grammar for that rest as the
      // specification reads it (specMode); its rules are dropped after (they never reach the grammar).
      let restExpr: Expr | undefined;
      let snapshot: Grammar | undefined;
      this.tentative(() => {
        const outer = this.specMode;
        this.specMode = true;
        try {
          restExpr = this.compile(rest, pointer, depth + 1);
        } catch (error) {
          // Too large to judge by (open objects' extra keys): the values are kept for the validator.
          if (!(error instanceof ConstraintError) || error.code !== 'too-large') throw error;
        } finally {
          this.specMode = outer;
        }
        snapshot = restExpr && this.builder.snapshot(restExpr);
        return undefined;
      });
      const judge = snapshot as Grammar | undefined;
      if (!restExpr) this.approximate(pointer, 'enum', 'values too costly to check against the rest of the schema are kept; the validator checks them');
      else if (judge) {
        let unchecked = false;
        allowed = texts.filter((text) => {
          const accepted = this.recognition.steps > 0 ? recognizeBounded(judge, text, this.recognition) : null;
          if (accepted === null) unchecked = true;
          return accepted !== false;
        });
        if (unchecked) this.approximate(pointer, 'enum', 'values too costly to check against the rest of the schema are kept; the validator checks them');
      } else this.approximate(pointer, 'enum', 'values are not filtered by the recursive rest of the schema; the validator checks them');
    }
    if (allowed.length === 0) throw new ConstraintError('unsatisfiable', 'no enum/const value satisfies the rest of the schema', { pointer, keyword: 'enum' });
    return altOf(allowed.map(literal));
  }

  private allowedTypes(schema: SchemaObject, pointer: string): TypeName[] {
    const declared = schema.type;
    if (declared !== undefined) {
      const list = Array.isArray(declared) ? declared : [declared];
      if (list.length === 0) invalid('type must not be empty', pointerChild(pointer, 'type'), 'type');
      for (const type of list) {
        if (!TYPE_NAMES.includes(type as TypeName)) invalid(`unknown type '${String(type)}'`, pointerChild(pointer, 'type'), 'type');
      }
      return [...new Set(list as TypeName[])];
    }
    // Without `type`, generate only the types the keywords talk about (a subset of what the schema
    // allows, so still sound); with no such keyword, any JSON value. In specMode, any JSON value.
    if (this.specMode) return [...TYPE_NAMES].filter((t) => t !== 'integer');
    const inferred = new Set<TypeName>();
    for (const keyword of Object.keys(schema)) for (const type of KEYWORD_TYPES.get(keyword) ?? []) inferred.add(type);
    if (schema.format !== undefined) inferred.add(NUMBER_FORMATS.has(String(schema.format)) ? 'number' : 'string');
    if (inferred.size === 0) return [...TYPE_NAMES].filter((t) => t !== 'integer');
    return [...inferred];
  }

  private compileType(type: TypeName, schema: SchemaObject, pointer: string, depth: number): Expr {
    switch (type) {
      case 'null':
        return literal('null');
      case 'boolean':
        return this.json.boolean();
      case 'integer':
        return this.compileInteger(schema, pointer);
      case 'number':
        return this.compileNumber(schema, pointer);
      case 'string':
        return this.compileString(schema, pointer);
      case 'array':
        return this.compileArray(schema, pointer, depth);
      case 'object':
        return this.compileObject(schema, pointer, depth);
    }
  }

  // -- numbers ---------------------------------------------------------------------------------

  private numericBound(schema: SchemaObject, keyword: string, pointer: string): number | undefined {
    const value = schema[keyword];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) invalid(`${keyword} must be a number`, pointerChild(pointer, keyword), keyword);
    return value;
  }

  private compileInteger(schema: SchemaObject, pointer: string): Expr {
    if (schema.multipleOf !== undefined) this.approximate(pointer, 'multipleOf', VALIDATED_NOTES.multipleOf);
    if (schema.format !== undefined) this.approximate(pointer, 'format', `number format '${String(schema.format)}' is checked by the validator`);
    const lowerCandidates: bigint[] = [];
    const upperCandidates: bigint[] = [];
    const min = this.numericBound(schema, 'minimum', pointer);
    const max = this.numericBound(schema, 'maximum', pointer);
    const exMin = this.numericBound(schema, 'exclusiveMinimum', pointer);
    const exMax = this.numericBound(schema, 'exclusiveMaximum', pointer);
    if (min !== undefined) lowerCandidates.push(BigInt(Math.ceil(min)));
    if (exMin !== undefined) lowerCandidates.push(BigInt(Math.floor(exMin)) + 1n);
    if (max !== undefined) upperCandidates.push(BigInt(Math.floor(max)));
    if (exMax !== undefined) upperCandidates.push(BigInt(Math.ceil(exMax)) - 1n);
    if (lowerCandidates.length === 0 && upperCandidates.length === 0) return this.json.integer();
    const lower = lowerCandidates.length ? lowerCandidates.reduce((a, b) => (a > b ? a : b)) : undefined;
    const upper = upperCandidates.length ? upperCandidates.reduce((a, b) => (a < b ? a : b)) : undefined;
    // An open side keeps the default digit limit (or the other bound's length, if longer).
    const digits = Math.max(DEFAULT_INTEGER_DIGITS, String(lower ?? 0n).replace('-', '').length, String(upper ?? 0n).replace('-', '').length);
    const cap = 10n ** BigInt(digits) - 1n;
    const lo = lower ?? -cap;
    const hi = upper ?? cap;
    if (lo > hi) throw new ConstraintError('unsatisfiable', `no integer lies between ${lo} and ${hi}`, { pointer, keyword: 'minimum' });
    return this.builder.rule(`${hintFromPointer(pointer)}-int`, integerRangeExpr(lo, hi));
  }

  private compileNumber(schema: SchemaObject, pointer: string): Expr {
    if (schema.multipleOf !== undefined) this.approximate(pointer, 'multipleOf', VALIDATED_NOTES.multipleOf);
    if (schema.format !== undefined) {
      if (NUMBER_FORMATS.has(String(schema.format)))
        this.approximate(pointer, 'format', `number format '${String(schema.format)}' is checked by the validator`);
      else this.unknownFormat(schema.format, pointer, 'a number');
    }
    const bounds = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].filter((k) => this.numericBound(schema, k, pointer) !== undefined);
    if (bounds.length === 0) return this.json.number();
    for (const keyword of bounds)
      this.approximate(pointer, keyword, 'non-integer bounds are checked by the validator (the grammar only drops the sign when the lower bound is >= 0)');
    const lower = Math.max(this.numericBound(schema, 'minimum', pointer) ?? -Infinity, this.numericBound(schema, 'exclusiveMinimum', pointer) ?? -Infinity);
    return lower >= 0 ? this.json.nonNegativeNumber() : this.json.number();
  }

  /** A format nobody here knows: an annotation (2020-12's default), or with `strict` an error. */
  private unknownFormat(format: unknown, pointer: string, what: string): void {
    if (this.strict) {
      throw new ConstraintError('unsupported-format', `unknown format '${String(format)}' for ${what}`, {
        pointer: pointerChild(pointer, 'format'),
        keyword: 'format',
      });
    }
    this.approximate(pointer, 'format', `unknown format '${String(format)}' is an annotation: generated and validated as ${what} of any form`);
  }

  // -- strings ---------------------------------------------------------------------------------

  private compileString(schema: SchemaObject, pointer: string): Expr {
    const minLength = nonNegativeInteger(schema, 'minLength', pointer);
    const maxLength = nonNegativeInteger(schema, 'maxLength', pointer);
    if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
      throw new ConstraintError('unsatisfiable', `minLength ${minLength} exceeds maxLength ${maxLength}`, { pointer, keyword: 'minLength' });
    }
    const quoted = (content: Expr) => this.builder.rule(`${hintFromPointer(pointer)}-string`, seq(literal('"'), content, literal('"')));
    const lengthIsLeftToValidator = (why: string) => {
      if (minLength !== undefined) this.approximate(pointer, 'minLength', why);
      if (maxLength !== undefined) this.approximate(pointer, 'maxLength', why);
    };

    if (schema.format !== undefined) {
      const format = String(schema.format);
      const known = hasOwn(FORMAT_PATTERNS, format) ? FORMAT_PATTERNS[format] : undefined;
      if (known) {
        lengthIsLeftToValidator(`combined with format '${format}', length is checked by the validator`);
        if (schema.pattern !== undefined) this.approximate(pointer, 'pattern', `combined with format '${format}', the pattern is checked by the validator`);
        return quoted(formatContent(format, known));
      }
      if (VALIDATED_FORMATS.has(format)) this.approximate(pointer, 'format', `format '${format}' is generated as a plain string and checked by the validator`);
      else this.unknownFormat(format, pointer, 'a string');
    }
    if (typeof schema.pattern === 'string' && schema.format === undefined) {
      lengthIsLeftToValidator('combined with pattern, length is checked by the validator');
      let content: Expr;
      try {
        content = patternContent(schema.pattern);
      } catch (error) {
        if (error instanceof ConstraintError) {
          throw new ConstraintError(error.code, `pattern: ${error.message}`, {
            pointer: pointerChild(pointer, 'pattern'),
            position: error.position,
            keyword: error.keyword ?? 'pattern',
          });
        }
        throw error;
      }
      return quoted(content);
    }
    if (minLength === undefined && maxLength === undefined) return this.json.string();
    return quoted(repeat(this.json.char(), minLength ?? 0, maxLength ?? null));
  }

  // -- arrays ----------------------------------------------------------------------------------

  private compileArray(schema: SchemaObject, pointer: string, depth: number): Expr {
    const minItems = nonNegativeInteger(schema, 'minItems', pointer) ?? 0;
    const maxItems = nonNegativeInteger(schema, 'maxItems', pointer) ?? null;
    if (maxItems !== null && minItems > maxItems) {
      throw new ConstraintError('unsatisfiable', `minItems ${minItems} exceeds maxItems ${maxItems}`, { pointer, keyword: 'minItems' });
    }
    if (schema.uniqueItems === true) this.approximate(pointer, 'uniqueItems', VALIDATED_NOTES.uniqueItems);
    const prefix = (schema.prefixItems as Schema[] | undefined) ?? [];
    // Positions whose schema matches nothing (`false`, or unsatisfiable) end the array there; an
    // array that must reach them is unsatisfiable below.
    // Items beyond `prefixItems` default to none (a tuple); a plain array defaults to any values.
    const restSchema: Schema = schema.items !== undefined ? (schema.items as Schema) : prefix.length && !this.specMode ? false : true;
    let restExpr = prefix.includes(false) ? undefined : this.optionalPart(restSchema, pointerChild(pointer, 'items'), depth + 1);
    const prefixExprs: Expr[] = [];
    for (const [i, p] of prefix.entries()) {
      const expr = this.optionalPart(p, pointerChild(pointerChild(pointer, 'prefixItems'), i), depth + 1);
      if (!expr) break;
      prefixExprs.push(expr);
    }
    if (prefixExprs.length < prefix.length) restExpr = undefined;

    const k = prefixExprs.length;
    const sep = (i: number) => (i > 0 ? literal(',') : EMPTY);
    let tail: Expr | null;
    // Elements from index k on: the `items` schema, as many as the bounds allow.
    if (restExpr) {
      const needed = Math.max(0, minItems - k);
      const room = maxItems === null ? null : maxItems - k;
      if (room !== null && room < 0) tail = minItems <= k ? EMPTY : null;
      else if (k > 0) tail = repeat(seq(literal(','), restExpr), needed, room);
      else tail = listExpr(restExpr, needed, room);
    } else {
      tail = minItems <= k ? EMPTY : null;
    }
    // Prefix elements, nested from the end: the array may stop after any index >= minItems.
    for (let i = k - 1; i >= 0; i--) {
      const take = maxItems !== null && i + 1 > maxItems ? null : tail === null ? null : seq(sep(i), prefixExprs[i], tail);
      if (i >= minItems) tail = take ? optional(take) : EMPTY;
      else tail = take;
      // Optional positions nest one level each; a rule every NESTING_PER_RULE keeps a long tuple
      // shallow (a tuple of 2,000 $refs overflowed the stack).
      if (tail !== null && tail !== EMPTY && i > 0 && i % NESTING_PER_RULE === 0) tail = this.builder.rule(`${hintFromPointer(pointer)}-from-${i}`, tail);
    }
    if (tail === null) {
      throw new ConstraintError('unsatisfiable', 'no array satisfies prefixItems/items with minItems/maxItems', { pointer, keyword: 'minItems' });
    }
    return this.builder.rule(`${hintFromPointer(pointer)}-array`, seq(literal('['), tail, literal(']')));
  }

  // -- objects ---------------------------------------------------------------------------------

  /** Whether a patternProperties pattern matches a property name, decided by automaton; a pattern the regex compiler cannot express cannot be decided: refused. */
  private patternMatches(pattern: string, name: string, pointer: string): boolean {
    this.spend(1 + Math.floor(name.length / 16), pointer);
    const matches = this.patternMatch(pattern, name, pointer);
    if (matches === undefined) {
      throw new ConstraintError(
        'unsupported-regex',
        `required property '${name}' is declared only by patternProperties, and the regex compiler cannot express the pattern '${pattern}' to tell whether it applies`,
        { pointer: pointerChild(pointerChild(pointer, 'patternProperties'), pattern), keyword: 'patternProperties' },
      );
    }
    return matches;
  }

  /** PatternMatcher.matches, its automaton's work counted in the compile work. */
  private patternMatch(pattern: string, name: string, pointer: string): boolean | undefined {
    return this.patternMatcher.matches(pattern, name, pointer, (units) => this.spend(units, pointer));
  }

  /**
   * The keys a patternProperties pattern writes: the JSON strings its regex matches, except the
   * names the object's members take (a declared name is written with its own schema only). Undefined
   * where the regex compiler cannot express the pattern, or the exclusion would be too large: the
   * pattern then writes no keys (the grammar allows less, never more).
   */
  private patternKey(pattern: string, names: string[], pointer: string, hint: string): Expr | undefined {
    const expr = patternExpr(pattern);
    if (!expr) return undefined;
    const taken = names.filter((name) => this.patternMatch(pattern, name, pointer) === true);
    this.spend(1 + names.length, pointer);
    if (taken.length === 0) return seq(literal('"'), toJsonStringContent(expr), literal('"'));
    return patternKeyExcluding(
      expr,
      taken,
      NESTING_PER_RULE,
      (body) => this.builder.rule(`${hint}-pattern-key-rest`, body),
      (units) => this.spend(units, pointer),
    );
  }

  private compileObject(schema: SchemaObject, pointer: string, depth: number): Expr {
    const hint = hintFromPointer(pointer);
    const minProperties = nonNegativeInteger(schema, 'minProperties', pointer) ?? 0;
    const maxProperties = nonNegativeInteger(schema, 'maxProperties', pointer) ?? null;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
    const additional = schema.additionalProperties as Schema | undefined;
    // Without additionalProperties: only the declared properties when there are any (what a model
    // should produce); a free-form object when the schema declares none.
    const patterns = Object.entries((schema.patternProperties as Record<string, Schema> | undefined) ?? {});
    const declaresMembers = Object.keys(properties).length > 0 || required.size > 0 || patterns.length > 0;
    const extrasSchema: Schema = additional !== undefined ? additional : declaresMembers && !this.specMode ? this.allowExtraProperties : true;
    // Each member needs at least two counting states (below): refused before any member is compiled.
    refuseTooManyProperties(new Set([...Object.keys(properties), ...required]).size, pointer);

    interface Member {
      key: string;
      value: Expr;
      required: boolean;
    }
    const members: Member[] = [];
    for (const [key, declaredSchema] of Object.entries(properties)) {
      const propertyPointer = pointerChild(pointerChild(pointer, 'properties'), key);
      if (declaredSchema === false && required.has(key))
        throw new ConstraintError('unsatisfiable', `required property '${key}' has schema false`, { pointer: propertyPointer });
      // The specification applies every patternProperties pattern the name matches as well: the
      // value is written with all those schemas (and the patterns write no key a member takes).
      const matching = patterns.filter(([pattern]) => this.patternMatch(pattern, key, pointer) === true);
      const sub: Schema = matching.length === 0 ? declaredSchema : { allOf: [declaredSchema, ...matching.map(([, schema]) => schema)] };
      // An optional property that matches nothing is left out (its key stays excluded from extras).
      const value = required.has(key) ? this.compile(sub, propertyPointer, depth + 1) : this.optionalPart(sub, propertyPointer, depth + 1);
      if (value) members.push({ key, value, required: required.has(key) });
    }
    const declared = new Set(Object.keys(properties));
    for (const key of required) {
      if (declared.has(key)) continue;
      // A required property that is not declared takes the schemas of the patternProperties its name
      // matches (all of them), or else the additionalProperties schema.
      const matching = patterns.filter(([pattern]) => this.patternMatches(pattern, key, pointer));
      if (matching.length > 0) {
        const valueSchema: Schema = matching.length === 1 ? matching[0][1] : { allOf: matching.map(([, sub]) => sub) };
        const at = matching.length === 1 ? pointerChild(pointerChild(pointer, 'patternProperties'), matching[0][0]) : pointer;
        members.push({ key, value: this.compile(valueSchema, at, depth + 1), required: true });
        continue;
      }
      if (additional === false) {
        throw new ConstraintError('unsatisfiable', `required property '${key}' is not allowed by additionalProperties: false (nor by patternProperties)`, {
          pointer,
          keyword: 'required',
        });
      }
      const valueSchema: Schema = additional === undefined ? true : additional;
      members.push({ key, value: this.compile(valueSchema, pointerChild(pointer, 'additionalProperties'), depth + 1), required: true });
    }

    // Extra properties: keys each pattern writes, with that pattern's schema, and the keys no
    // property declares, with additionalProperties' schema. A key that matches several patterns or
    // also fits additionalProperties, or that repeats or spells a declared property, is the
    // validator's (the grammar cannot keep keys apart from a regex or from each other).
    const extraOptions: Expr[] = [];
    const memberNames = [...new Set([...members.map((m) => m.key), ...declared])];
    for (const [pattern, sub] of patterns) {
      const at = pointerChild(pointerChild(pointer, 'patternProperties'), pattern);
      const option = this.tentative(() => {
        const value = this.optionalPart(sub, at, depth + 1);
        const key = value && this.patternKey(pattern, memberNames, at, hint);
        return key && seq(this.builder.rule(`${hint}-pattern-key`, key), literal(':'), value);
      });
      if (option) extraOptions.push(option);
    }
    if (extrasSchema !== false) {
      const option = this.tentative(() => {
        const extraKey = this.builder.rule(
          `${hint}-extra-key`,
          extraKeyExpr(members.map((m) => m.key).concat([...declared]), pointer, (name, body) => this.builder.rule(`${hint}-extra-key-${name}`, body)),
        );
        // Extra properties whose schema matches nothing are no extra properties.
        const extraValue = this.optionalPart(extrasSchema, pointerChild(pointer, 'additionalProperties'), depth + 1);
        return extraValue && seq(extraKey, literal(':'), extraValue);
      });
      if (option) extraOptions.push(option);
    }
    const extraMember =
      extraOptions.length === 0 ? undefined : extraOptions.length === 1 ? extraOptions[0] : this.builder.rule(`${hint}-extra`, altOf(extraOptions));

    if (extraMember && minProperties > members.length) {
      this.approximate(pointer, 'minProperties', 'additional keys could repeat (a grammar cannot keep keys distinct); the validator checks the count');
    }
    const n = members.length;
    // Counting states: one per (member, count) pair when maxProperties bounds the count.
    const counts = maxProperties !== null ? maxProperties + 1 : Math.max(minProperties, 1) + 1;
    if (n * counts > MAX_OBJECT_STATES) {
      throw new ConstraintError(
        'too-large',
        `minProperties/maxProperties over ${n} properties needs ${n * counts} counting rules, above the limit of ${MAX_OBJECT_STATES}`,
        { pointer, keyword: maxProperties !== null ? 'maxProperties' : 'minProperties' },
      );
    }
    const memo = new Map<string, Expr | null>();
    // Properties after `count` have been written: the extras, bounded by min/maxProperties.
    const extras = (count: number): Expr | null => {
      const needed = Math.max(0, minProperties - count);
      const room = maxProperties === null ? null : maxProperties - count;
      if (room !== null && room < needed) return null;
      if (!extraMember) return needed > 0 ? null : EMPTY;
      if (count > 0) return repeat(seq(literal(','), extraMember), needed, room);
      return listExpr(extraMember, needed, room);
    };
    // `state(i, count)`: members i.. given `count` written so far. Only count's relation to the
    // bounds matters, so without maxProperties counts above minProperties share one state.
    const state = (i: number, count: number): Expr | null => {
      const key = maxProperties === null ? Math.min(count, Math.max(minProperties, 1)) : count;
      const memoKey = `${i}:${key}`;
      if (memo.has(memoKey)) return memo.get(memoKey)!;
      let result: Expr | null;
      if (i === n) result = extras(count);
      else {
        const member = members[i];
        const next = maxProperties !== null && count + 1 > maxProperties ? null : state(i + 1, count + 1);
        const take = next === null ? null : seq(count > 0 ? literal(',') : EMPTY, literal(JSON.stringify(member.key) + ':'), member.value, next);
        if (member.required) result = take;
        else {
          const skip = state(i + 1, count);
          const options = [take, skip].filter((o): o is Expr => o !== null);
          // A choice is shared by the states that reach it: a rule keeps the grammar linear.
          result = options.length === 0 ? null : options.length === 1 ? options[0] : this.builder.rule(`${hint}-rest`, altOf(options));
        }
      }
      memo.set(memoKey, result);
      return result;
    };
    const body = state(0, 0);
    if (body === null) {
      throw new ConstraintError('unsatisfiable', 'no object satisfies properties/required/additionalProperties with minProperties/maxProperties', { pointer });
    }
    return this.builder.rule(`${hint}-object`, seq(literal('{'), body, literal('}')));
  }
}

/** The content of a JSON string (escaped as JSON writes it) whose text a schema `pattern` matches anywhere, as JSON Schema reads patterns. */
function patternContent(pattern: string): Expr {
  return toJsonStringContent(regexToExpr(pattern, '', { semantics: 'search' }));
}

/** `item ("," item){...}` with a total count in [min, max]; the empty list allowed when min = 0. */
function listExpr(item: Expr, min: number, max: number | null): Expr {
  if (max === 0) return EMPTY;
  const list = seq(item, repeat(seq(literal(','), item), Math.max(0, min - 1), max === null ? null : max - 1));
  return min === 0 ? optional(list) : list;
}

// Format grammars are the same for every schema: build each once per process.
const formatContentCache = new Map<string, Expr>();
function formatContent(format: string, known: { pattern: string; flags: string }): Expr {
  let expr = formatContentCache.get(format);
  if (!expr) {
    expr = toJsonStringContent(regexToExpr(known.pattern, known.flags, { semantics: 'full' }));
    formatContentCache.set(format, expr);
  }
  return expr;
}

// ---- integer ranges ---------------------------------------------------------------------------

const DIGIT_CLASS = (lo: number, hi: number): Expr => charClass([[0x30 + lo, 0x30 + hi]]);

/** Digit strings of equal length between x and y (inclusive), as unambiguous alternatives. */
function sameLengthRange(x: string, y: string): Expr {
  if (x.length === 0) return EMPTY;
  if (x === y) return literal(x);
  const x0 = Number(x[0]);
  const y0 = Number(y[0]);
  const restLength = x.length - 1;
  const xRest = x.slice(1);
  const yRest = y.slice(1);
  if (x0 === y0) return seq(literal(x[0]), sameLengthRange(xRest, yRest));
  const anyDigits = repeat(DIGIT_CLASS(0, 9), restLength, restLength);
  const lowFull = /^0*$/.test(xRest);
  const highFull = /^9*$/.test(yRest);
  const options: Expr[] = [];
  if (!lowFull) options.push(seq(literal(x[0]), sameLengthRange(xRest, '9'.repeat(restLength))));
  const middleLo = lowFull ? x0 : x0 + 1;
  const middleHi = highFull ? y0 : y0 - 1;
  if (middleLo <= middleHi) options.push(seq(middleLo === middleHi ? literal(String(middleLo)) : DIGIT_CLASS(middleLo, middleHi), anyDigits));
  if (!highFull) options.push(seq(literal(y[0]), sameLengthRange('0'.repeat(restLength), yRest)));
  return altOf(options);
}

/** Natural numbers in [lo, hi] without leading zeros. */
function naturalRange(lo: bigint, hi: bigint): Expr {
  const options: Expr[] = [];
  const loLength = String(lo).length;
  const hiLength = String(hi).length;
  for (let length = loLength; length <= hiLength; length++) {
    const floor = length === 1 ? 0n : 10n ** BigInt(length - 1);
    const ceiling = 10n ** BigInt(length) - 1n;
    const a = lo > floor ? lo : floor;
    const b = hi < ceiling ? hi : ceiling;
    if (a <= b) options.push(sameLengthRange(String(a), String(b)));
  }
  return altOf(options);
}

/** Exactly the integers in [lo, hi], written without leading zeros (and `0`, never `-0`). */
export function integerRangeExpr(lo: bigint, hi: bigint): Expr {
  const options: Expr[] = [];
  if (lo < 0n) {
    const negHi = hi < -1n ? hi : -1n;
    options.push(seq(literal('-'), naturalRange(-negHi, -lo)));
  }
  if (hi >= 0n) options.push(naturalRange(lo > 0n ? lo : 0n, hi));
  return altOf(options);
}

// ---- keys that are not declared ---------------------------------------------------------------

interface TrieNode {
  terminal: boolean;
  children: Map<string, TrieNode>;
}

// Extra keys use raw characters and the short escapes only (no `\u`, no `\/`), so each key has one
// spelling and "not a declared key" is decidable character by character.
const KEY_RAW = normalizeRanges([
  [0x00, 0x1f],
  [0x22, 0x22],
  [0x5c, 0x5c],
  [0x7f, 0x7f],
]);
const KEY_ESCAPES = ['"', '\\', 'b', 'f', 'n', 'r', 't'];

function keyTokens(key: string): string[] {
  const tokens: string[] = [];
  for (const ch of key) tokens.push(JSON.stringify(ch).slice(1, -1));
  return tokens;
}

/**
 * A JSON string (quotes included) that is not any of `names`: the complement of their trie. Built
 * bottom-up without recursion, one nesting level per character: every NESTING_PER_RULE levels the
 * rest goes to a rule (`share`), so a long name never nests deep (10,000 characters overflowed).
 */
// Each node of the excluded-key trie becomes about 100 grammar characters; past this many nodes the
// grammar would pass maxGrammarChars anyway, so say so before building it (a 100,000-character
// property name took 5 s to reach the same error).
const MAX_EXCLUDED_KEY_CHARS = 8_000;

function extraKeyExpr(names: string[], pointer: string, share: (name: 'rest' | 'tail', body: Expr) => Expr): Expr {
  const root: TrieNode = { terminal: false, children: new Map() };
  let nodes = 0;
  for (const name of names) {
    let node = root;
    for (const token of keyTokens(name)) {
      let child = node.children.get(token);
      if (!child) {
        node.children.set(token, (child = { terminal: false, children: new Map() }));
        if (++nodes > MAX_EXCLUDED_KEY_CHARS) {
          throw new ConstraintError(
            'too-large',
            `additionalProperties beside property names of more than ${MAX_EXCLUDED_KEY_CHARS} characters in all (shared prefixes counted once): the grammar keeping extra keys apart from them would be too large`,
            { pointer, keyword: 'additionalProperties' },
          );
        }
      }
      node = child;
    }
    node.terminal = true;
  }
  const rawChar = (excluded: number[]) => charClass(normalizeRanges([...KEY_RAW, ...excluded.map((c) => [c, c] as [number, number])]), true);
  const escapeChar = (excluded: string[]) => {
    const letters = KEY_ESCAPES.filter((e) => !excluded.includes(e));
    return letters.length ? seq(literal('\\'), charClass(normalizeRanges(letters.map((e) => [e.charCodeAt(0), e.charCodeAt(0)])))) : undefined;
  };
  const anyKeyChar = alt(rawChar([]), escapeChar([])!);
  const anyRest = share('tail', seq(repeat(anyKeyChar, 0, null), literal('"')));

  // Pre-order with depths; walked backwards, every child is built before its parent.
  const order: { node: TrieNode; depth: number }[] = [];
  const pending = [{ node: root, depth: 0 }];
  while (pending.length) {
    const entry = pending.pop()!;
    order.push(entry);
    for (const child of entry.node.children.values()) pending.push({ node: child, depth: entry.depth + 1 });
  }
  const built = new Map<TrieNode, Expr>();
  for (let k = order.length - 1; k >= 0; k--) {
    const { node, depth } = order[k];
    const options: Expr[] = [];
    if (!node.terminal) options.push(literal('"'));
    const rawChildren: number[] = [];
    const escapeChildren: string[] = [];
    for (const [token, child] of node.children) {
      if (token.length === 1) rawChildren.push(token.codePointAt(0)!);
      else if (token.length === 2) escapeChildren.push(token[1]);
      else continue; // a `\u00XX` spelling: extra keys cannot produce it anyway
      options.push(seq(literal(token), built.get(child)!));
    }
    options.push(seq(rawChar(rawChildren), anyRest));
    const escape = escapeChar(escapeChildren);
    if (escape) options.push(seq(escape, anyRest));
    const expr = altOf(options);
    built.set(node, depth > 0 && depth % NESTING_PER_RULE === 0 ? share('rest', expr) : expr);
  }
  return seq(literal('"'), built.get(root)!);
}

// ---- merging (allOf) --------------------------------------------------------------------------

function hasConstraints(schema: SchemaObject): boolean {
  return Object.keys(schema).some((k) => CONSTRAINING.has(k));
}

function typeSet(schema: SchemaObject): Set<TypeName> | undefined {
  if (schema.type === undefined) return undefined;
  return new Set((Array.isArray(schema.type) ? schema.type : [schema.type]) as TypeName[]);
}

function intersectTypes(a: Set<TypeName>, b: Set<TypeName>): TypeName[] {
  const out = new Set<TypeName>();
  for (const t of a) {
    if (b.has(t)) out.add(t);
    else if (t === 'integer' && b.has('number')) out.add('integer');
    else if (t === 'number' && b.has('integer')) out.add('integer');
  }
  return [...out];
}

/**
 * The schema matching exactly what both match, keyword by keyword (allOf is merged, never
 * concatenated). Where two keywords cannot be combined in one schema the result keeps both under a
 * nested `allOf`, or keeps one and the validator checks the other (the validator always checks the
 * original schema).
 */
export function mergeSchemas(left: Schema, right: Schema, pointer: string, maxBranches = DEFAULT_MAX_BRANCHES, spend?: (units: number) => void): Schema {
  if (left === false || right === false) return false;
  if (left === true) return right;
  if (right === true) return left;
  const a = normalizeDraft(left);
  const b = normalizeDraft(right);
  // A merge copies both parts' keywords and properties: counted in the compile work, since merges
  // nest (definitions chained as {allOf: [{$ref: next}, {$ref: other}]} double the work per level:
  // 16 levels held a backend past 20 s, issue #43).
  // A unit (about 15 µs) per merge and per 16 keywords or properties it copies.
  const sizeOf = (x: SchemaObject) => Object.keys(x).length + (isObject(x.properties) ? Object.keys(x.properties).length : 0);
  spend?.(1 + Math.floor((sizeOf(a) + sizeOf(b)) / 16));
  const out: SchemaObject = { ...a };
  const conjoin = (x: unknown, y: unknown): Schema => ({ allOf: [x as Schema, y as Schema] });

  for (const [keyword, value] of Object.entries(b)) {
    if (!hasOwn(out, keyword)) {
      setOwn(out, keyword, value);
      continue;
    }
    const mine = out[keyword];
    switch (keyword) {
      case 'type': {
        const types = intersectTypes(typeSet(a)!, typeSet(b)!);
        if (types.length === 0) throw new ConstraintError('unsatisfiable', 'allOf parts allow no common type', { pointer, keyword: 'type' });
        out.type = types;
        break;
      }
      case 'enum':
      case 'const': {
        const theirs = keyword === 'const' ? [value] : (value as unknown[]);
        const ours = new Set((keyword === 'const' ? [mine] : (mine as unknown[])).map((v) => JSON.stringify(v)));
        delete out[keyword];
        out.enum = theirs.filter((v) => ours.has(JSON.stringify(v)));
        break;
      }
      case 'required':
        out.required = [...new Set([...(mine as string[]), ...(value as string[])])];
        break;
      case 'minimum':
      case 'exclusiveMinimum':
      case 'minLength':
      case 'minItems':
      case 'minProperties':
        out[keyword] = Math.max(mine as number, value as number);
        break;
      case 'maximum':
      case 'exclusiveMaximum':
      case 'maxLength':
      case 'maxItems':
      case 'maxProperties':
        out[keyword] = Math.min(mine as number, value as number);
        break;
      case 'anyOf':
      case 'oneOf': {
        // (a1|a2) and (b1|b2) = a1b1 | a1b2 | a2b1 | a2b2; for oneOf this is exact as well. The
        // size is checked before the product is built: allOf of 60 anyOf pairs built 2^60 before.
        const size = (mine as Schema[]).length * (value as Schema[]).length;
        if (size > maxBranches) {
          throw new ConstraintError('too-large', `allOf multiplies ${keyword} out to ${size} alternatives, above the limit of ${maxBranches}`, {
            pointer,
            keyword,
          });
        }
        const pairs: Schema[] = [];
        for (const x of mine as Schema[]) for (const y of value as Schema[]) pairs.push(conjoin(x, y));
        out[keyword] = pairs;
        break;
      }
      case 'allOf':
        out.allOf = [...(mine as Schema[]), ...(value as Schema[])];
        break;
      case 'properties':
      case 'additionalProperties':
      case 'items':
        // handled below, with their interplay
        break;
      case 'prefixItems':
        break;
      case '$ref':
        out.allOf = [...((out.allOf as Schema[]) ?? []), { $ref: value }];
        break;
      default:
        // pattern, format, multipleOf, not, ...: keep ours. The grammar enforces one of two
        // different patterns or formats; the validator checks the original schema, so both hold.
        break;
    }
  }
  mergeObjectKeywords(a, b, out);
  mergeArrayKeywords(a, b, out);
  return out;
}

// additionalProperties of one part applies to the properties only the other part declares.
function mergeObjectKeywords(a: SchemaObject, b: SchemaObject, out: SchemaObject): void {
  const pa = (a.properties as Record<string, Schema> | undefined) ?? {};
  const pb = (b.properties as Record<string, Schema> | undefined) ?? {};
  if (a.properties === undefined && b.properties === undefined && (a.additionalProperties === undefined || b.additionalProperties === undefined)) return;
  const properties: Record<string, Schema> = {};
  const restrict = (sub: Schema, other: SchemaObject): Schema =>
    other.additionalProperties === undefined ? sub : { allOf: [sub, other.additionalProperties as Schema] };
  for (const [key, sub] of Object.entries(pa)) setOwn(properties, key, hasOwn(pb, key) ? { allOf: [sub, pb[key]] } : restrict(sub, b));
  for (const [key, sub] of Object.entries(pb)) if (!hasOwn(pa, key)) setOwn(properties, key, restrict(sub, a));
  if (a.properties !== undefined || b.properties !== undefined) out.properties = properties;
  if (a.additionalProperties !== undefined && b.additionalProperties !== undefined) {
    out.additionalProperties = { allOf: [a.additionalProperties as Schema, b.additionalProperties as Schema] };
  }
}

// `items` of one part applies to the prefix positions only the other part declares.
function mergeArrayKeywords(a: SchemaObject, b: SchemaObject, out: SchemaObject): void {
  const pa = (a.prefixItems as Schema[] | undefined) ?? [];
  const pb = (b.prefixItems as Schema[] | undefined) ?? [];
  if (pa.length || pb.length) {
    const length = Math.max(pa.length, pb.length);
    const prefix: Schema[] = [];
    for (let i = 0; i < length; i++) {
      const x = i < pa.length ? pa[i] : a.items;
      const y = i < pb.length ? pb[i] : b.items;
      const parts = [x, y].filter((s) => s !== undefined) as Schema[];
      // A part with prefixItems and no items allows anything beyond its prefix (JSON Schema), so
      // only an explicit schema restricts here.
      prefix.push(parts.length === 2 ? { allOf: parts } : (parts[0] ?? true));
    }
    out.prefixItems = prefix;
  }
  if (a.items !== undefined && b.items !== undefined) out.items = { allOf: [a.items as Schema, b.items as Schema] };
}

// ---- entry point ------------------------------------------------------------------------------

export function compileJsonSchemaToGrammar(input: unknown, options: JsonSchemaOptions & { limits?: Partial<GrammarLimits> } = {}): JsonSchemaGrammar {
  if (typeof input !== 'boolean' && !isObject(input)) invalid('a JSON Schema must be an object or a boolean', '');
  refuseOversizedSchema(input, options.maxSchemaChars);
  const { schema, draft } = normalizeSchema(input, { strict: options.strict, annotations: options.annotations, maxDepth: options.maxDepth });
  const compiler = new SchemaCompiler(schema as Schema, options);
  compiler.checkKeywords(schema, '', 0);
  const rootExpr = compiler.compile(schema as Schema, '', 0);
  const grammar = compiler.builder.build(rootExpr);
  checkGrammar(grammar);
  return { grammar, approximations: compiler.approximations, draft, normalized: schema };
}
