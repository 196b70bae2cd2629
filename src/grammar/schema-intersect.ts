// Intersect: the parts of a lazy intersection (allOf, a `$ref` or a union beside other keywords)
// forced into one schema, keyword by keyword, never concatenated. Top-level `$ref`s are followed,
// nested intersections flattened, a part met twice taken once (A and A is A), unions multiplied out
// (bounded), and Nodes merged in one pass into one accumulator, so n parts cost their total size,
// not n² (10,000 `{required: [k]}` parts copied every list on every merge: 6 s). Subschemas stay
// lazy: two parts' schemas of one property become an intersection of their own, forced when emitted.
// A contradiction is a value (Unsatisfiable, with its reason), never an exception.

import { ConstraintError } from './errors.js';
import type { TypeName } from './schema-policy.js';
import type { SchemaParser } from './schema-parse.js';
import type { Bound, Located, Node, PatternProperty, Schema, Unsatisfiable, UnionSchema } from './schema-types.js';
import { ANY, unsatisfiable } from './schema-types.js';
import type { WorkBudget } from './work.js';

export interface IntersectContext {
  readonly parser: SchemaParser;
  readonly work: WorkBudget;
  readonly maxBranches: number;
  readonly maxDepth: number;
  /** Whether a patternProperties pattern matches a name (undefined: the regex compiler cannot tell). */
  readonly patternMatches: (pattern: string, name: string, pointer: string) => boolean | undefined;
}

/** The parts as one schema: a Node, a union of intersections, Unsatisfiable, `any`, or a lone `$ref`. */
export function force(parts: readonly Schema[], pointer: string, depth: number, ctx: IntersectContext): Schema {
  const flat: Schema[] = [];
  const seen = new Set<number>();
  const unions: UnionSchema[] = [];
  let failure: Unsatisfiable | undefined;
  const walk = (part: Schema, hops: number): void => {
    if (failure) return;
    if (part.kind === 'any') return;
    if (part.kind === 'unsatisfiable') {
      failure = part;
      return;
    }
    if (seen.has(part.id)) return;
    seen.add(part.id);
    if (part.kind === 'ref') {
      if (depth + hops > ctx.maxDepth) {
        throw new ConstraintError(
          'too-deep',
          'recursive $ref inside allOf/anyOf cannot be merged within the depth limit',
          { pointer, keyword: '$ref' },
        );
      }
      walk(ctx.parser.target(part.ref, part.pointer).schema, hops + 1);
    } else if (part.kind === 'and') for (const inner of part.parts) walk(inner, hops);
    else if (part.kind === 'union') unions.push(part);
    else flat.push(part);
  };
  for (const part of parts) walk(part, 0);
  if (failure) return failure;
  let merged: Schema | undefined;
  if (flat.length === 1) merged = flat[0];
  else if (flat.length > 1) merged = mergeNodes(flat as Node[], pointer, ctx);
  if (merged?.kind === 'unsatisfiable') return merged;
  if (unions.length === 0) return merged ?? ANY;
  // (a1|a2) and (b1|b2) = a1b1 | a1b2 | a2b1 | a2b2 (for oneOf exact as well). The size is checked
  // before the product is built: allOf of 60 anyOf pairs built 2^60 before.
  if (!merged && unions.length === 1) return unions[0];
  let options: Schema[][] = [merged ? [merged] : []];
  for (const union of unions) {
    const size = options.length * union.options.length;
    if (size > ctx.maxBranches) {
      throw new ConstraintError(
        'too-large',
        `allOf multiplies ${union.keyword} out to ${size} alternatives, above the limit of ${ctx.maxBranches}`,
        {
          pointer,
          keyword: union.keyword,
        },
      );
    }
    ctx.work.spend(1 + Math.floor(size / 16), pointer);
    options = options.flatMap((option) => union.options.map((branch) => [...option, branch]));
  }
  const keyword = unions.every((u) => u.keyword === 'anyOf') ? 'anyOf' : 'oneOf';
  return {
    kind: 'union',
    id: ctx.parser.newId(),
    keyword,
    options: options.map((list) => ctx.parser.and(list, pointer)),
    pointer,
  };
}

function intersectTypes(a: readonly TypeName[], b: readonly TypeName[]): TypeName[] {
  const out = new Set<TypeName>();
  for (const t of a) {
    if (b.includes(t)) out.add(t);
    else if (t === 'integer' && b.includes('number')) out.add('integer');
    else if (t === 'number' && b.includes('integer')) out.add('integer');
  }
  return [...out];
}

const tighterLower = (a: Bound | undefined, b: Bound | undefined) =>
  !a ? b : !b ? a : a.value === b.value ? (a.exclusive ? a : b) : a.value > b.value ? a : b;
const tighterUpper = (a: Bound | undefined, b: Bound | undefined) =>
  !a ? b : !b ? a : a.value === b.value ? (a.exclusive ? a : b) : a.value < b.value ? a : b;
const larger = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);
const smaller = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);

/** Adds the values of `more` not already in `list` (by `key`), keeping order. */
function union<T>(list: T[], keys: Set<string>, more: readonly T[], key: (x: T) => string): void {
  for (const item of more) {
    const k = key(item);
    if (keys.has(k)) continue;
    keys.add(k);
    list.push(item);
  }
}

/**
 * Nodes merged left to right into one. Per keyword: types intersected, enum values kept where both
 * allow them, bounds tightened, patterns and formats all kept (intersected when emitted), lists of
 * required names joined, properties merged with the other part's schema for a name it does not
 * declare (its patterns' schemas, else its additionalProperties), array positions likewise.
 */
function mergeNodes(nodes: readonly Node[], pointer: string, ctx: IntersectContext): Node | Unsatisfiable {
  const first = nodes[0];
  let types = first.types;
  const mentions = new Set(first.mentions);
  let values = first.values;
  let min = first.number.min;
  let max = first.number.max;
  const multipleOf = [...first.number.multipleOf];
  const numberFormats = [...first.number.formats];
  let minLength = first.string.minLength;
  let maxLength = first.string.maxLength;
  const patterns: Located<string>[] = [];
  const patternKeys = new Set<string>();
  union(patterns, patternKeys, first.string.patterns, (p) => p.value);
  const formats: Located<string>[] = [];
  const formatKeys = new Set<string>();
  union(formats, formatKeys, first.string.formats, (f) => f.value);
  let array = first.array;
  let object = first.object;
  const required = [...first.object.required];
  const requiredKeys = new Set(required);
  let invalid = first.invalid;
  for (const node of nodes.slice(1)) {
    ctx.work.spend(
      1 + Math.floor((node.object.properties.size + node.object.required.length + (node.values?.length ?? 0)) / 16),
      pointer,
    );
    if (node.types) {
      if (types) {
        types = intersectTypes(types, node.types);
        if (types.length === 0) return unsatisfiable('allOf parts allow no common type', pointer, 'type');
      } else types = node.types;
    }
    for (const t of node.mentions) mentions.add(t);
    if (node.values) {
      const ours = values && new Set(values);
      values = ours ? node.values.filter((v) => ours.has(v)) : node.values;
    }
    min = tighterLower(min, node.number.min);
    max = tighterUpper(max, node.number.max);
    multipleOf.push(...node.number.multipleOf);
    numberFormats.push(...node.number.formats);
    minLength = larger(minLength, node.string.minLength);
    maxLength = smaller(maxLength, node.string.maxLength);
    union(patterns, patternKeys, node.string.patterns, (p) => p.value);
    union(formats, formatKeys, node.string.formats, (f) => f.value);
    array = mergeArrays(array, node.array, pointer, ctx);
    object = mergeObjects(object, node.object, pointer, ctx);
    union(required, requiredKeys, node.object.required, (r) => r);
    if (node.invalid) invalid = { ...node.invalid, ...invalid };
  }
  return {
    kind: 'node',
    id: ctx.parser.newId(),
    pointer,
    types,
    mentions,
    values,
    number: { min, max, multipleOf, formats: numberFormats },
    string: { minLength, maxLength, patterns, formats },
    array,
    object: { ...object, required },
    invalid,
  };
}

// `items` of one part applies to the prefix positions only the other part declares.
function mergeArrays(a: Node['array'], b: Node['array'], pointer: string, ctx: IntersectContext): Node['array'] {
  const both = (x: Schema | undefined, y: Schema | undefined): Schema | undefined =>
    x && y ? ctx.parser.and([x, y], pointer) : (x ?? y);
  let prefix = a.prefix;
  if (a.prefix?.length || b.prefix?.length) {
    const pa = a.prefix ?? [];
    const pb = b.prefix ?? [];
    prefix = Array.from({ length: Math.max(pa.length, pb.length) }, (_, i) => {
      // A part with prefixItems and no items allows anything beyond its prefix (JSON Schema), so
      // only an explicit schema restricts here.
      return both(i < pa.length ? pa[i] : a.items, i < pb.length ? pb[i] : b.items) ?? ANY;
    });
  } else prefix = a.prefix ?? b.prefix;
  return {
    prefix,
    items: both(a.items, b.items),
    minItems: larger(a.minItems, b.minItems),
    maxItems: smaller(a.maxItems, b.maxItems),
  };
}

/**
 * What one part says of a name it does not declare: the schemas of its patterns that match the
 * name, else its additionalProperties; undefined when it says nothing (no patterns match and no
 * additionalProperties).
 */
function undeclared(part: Node['object'], name: string, pointer: string, ctx: IntersectContext): Schema | undefined {
  const matching = part.patterns.filter((p) =>
    p.patterns.every((pattern) => ctx.patternMatches(pattern, name, pointer) === true),
  );
  if (matching.length === 1) return matching[0].schema;
  if (matching.length > 1)
    return ctx.parser.and(
      matching.map((p) => p.schema),
      pointer,
    );
  return part.additional;
}

/**
 * A part's patternProperties as they survive the other part: where the other is closed
 * (`additionalProperties: false`) a key must also match one of its patterns (the two patterns then
 * both write it, intersected); where the other has an additionalProperties schema, that schema
 * applies too. A key the other's patterns also match is left to the validator (listed with
 * patternProperties).
 */
function survivingPatterns(
  mine: Node['object'],
  other: Node['object'],
  pointer: string,
  ctx: IntersectContext,
): PatternProperty[] {
  if (other.additional === undefined) return [...mine.patterns];
  if (other.additional.kind === 'unsatisfiable') {
    return mine.patterns.flatMap((p) =>
      other.patterns.map((q) => ({
        patterns: [...new Set([...p.patterns, ...q.patterns])],
        schema: ctx.parser.and([p.schema, q.schema], pointer),
        pointer,
      })),
    );
  }
  const extra = other.additional;
  return mine.patterns.map((p) => ({ ...p, schema: ctx.parser.and([p.schema, extra], pointer) }));
}

// additionalProperties (and patternProperties) of one part apply to the properties only the other part declares.
function mergeObjects(a: Node['object'], b: Node['object'], pointer: string, ctx: IntersectContext): Node['object'] {
  if (a.properties.size === 0 && b.properties.size === 0 && a.patterns.length === 0 && b.patterns.length === 0) {
    return {
      properties: a.properties,
      required: a.required,
      patterns: [],
      additional:
        a.additional && b.additional
          ? ctx.parser.and([a.additional, b.additional], pointer)
          : (a.additional ?? b.additional),
      minProperties: larger(a.minProperties, b.minProperties),
      maxProperties: smaller(a.maxProperties, b.maxProperties),
    };
  }
  const properties = new Map<string, Schema>();
  const restrict = (sub: Schema, other: Node['object'], name: string) => {
    const theirs = undeclared(other, name, pointer, ctx);
    return theirs === undefined ? sub : ctx.parser.and([sub, theirs], pointer);
  };
  for (const [name, sub] of a.properties)
    properties.set(
      name,
      b.properties.has(name) ? ctx.parser.and([sub, b.properties.get(name)!], pointer) : restrict(sub, b, name),
    );
  for (const [name, sub] of b.properties) if (!a.properties.has(name)) properties.set(name, restrict(sub, a, name));
  return {
    properties,
    required: a.required,
    patterns: [...survivingPatterns(a, b, pointer, ctx), ...survivingPatterns(b, a, pointer, ctx)],
    additional:
      a.additional && b.additional
        ? ctx.parser.and([a.additional, b.additional], pointer)
        : (a.additional ?? b.additional),
    minProperties: larger(a.minProperties, b.minProperties),
    maxProperties: smaller(a.maxProperties, b.maxProperties),
  };
}
