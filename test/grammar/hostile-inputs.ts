// Hostile inputs for the compilers, within the limits the docs allow: the cases issue #21 and #25
// name, and generated ones (fast-check, seeded). hostile-runner.ts compiles them one by one in a
// child process and hostile.test.ts bounds each call's time and memory.
import fc from 'fast-check';
import { KEYWORD_POLICY } from '../../src/grammar/schema-policy.js';

export type HostileInput =
  | { kind: 'schema'; schema: unknown }
  | { kind: 'regex'; pattern: string; flags?: string }
  | { kind: 'choices'; choices: unknown }
  | { kind: 'type'; name: unknown }
  | { kind: 'gbnf'; text: string };

export interface HostileCase {
  name: string;
  input: HostileInput;
  /**
   * What one call costs here (a 2-core container, Node 20), in ms and MB of heap; the test allows
   * ten times as much. Generated cases share a default.
   */
  expectMs?: number;
  expectMB?: number;
}

/** The longest pattern svc_generate_regex accepts (src/extension/jobs.ts). */
export const MAX_PATTERN_CHARS = 100_000;
/** The most choices svc_generate_choice accepts (src/extension/limits.ts). */
export const MAX_CHOICES = 10_000;

const nested = (depth: number, inner = 'a') => '('.repeat(depth) + inner + ')'.repeat(depth);
const pairs = (n: number) => ({
  allOf: Array.from({ length: n }, (_, i) => ({
    anyOf: [{ properties: { [`a${i}`]: { type: 'integer' } } }, { properties: { [`b${i}`]: { type: 'integer' } } }],
  })),
});
const unions = (levels: number) => {
  let schema: unknown = { type: 'integer' };
  for (let i = 0; i < levels; i++)
    schema = {
      type: 'object',
      properties: { p: schema, q: { type: 'string' } },
      anyOf: [{ required: ['p'] }, { required: ['q'] }],
    };
  return schema;
};
const optionalNest = (depth: number) => {
  let pattern = 'x';
  for (let i = 0; i < depth; i++) pattern = `(a${pattern}b)?`;
  return pattern;
};
const refChain = (n: number) => {
  const $defs: Record<string, unknown> = { d0: { type: 'null' } };
  for (let i = 1; i <= n; i++) $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { type: 'integer' }] };
  return { $defs, type: 'array', prefixItems: Array.from({ length: n + 1 }, (_, i) => ({ $ref: `#/$defs/d${i}` })) };
};
/** An object of `groups` objects of 100 string properties each (2 units of compile work per property). */
const wideObject = (groups: number) => ({
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: groups }, (_, g) => [
      `g${g}`,
      {
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 100 }, (_, i) => [`f${g}_${i}`, { type: 'string', maxLength: 20 }]),
        ),
      },
    ]),
  ),
});
/**
 * jreleaser's shape (issue #48): `defs` definitions of `props` properties, and as many properties
 * that merge each definition with parts that make it match nothing (optional: left out).
 */
export const jreleaserShape = (defs: number, props: number) => {
  const $defs: Record<string, unknown> = {};
  const properties: Record<string, unknown> = {};
  for (let d = 0; d < defs; d++) {
    $defs[`Def${d}`] = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: props }, (_, p) => [`field${d}_${p}`, { type: 'string', maxLength: 1 + (p % 40) }]),
      ),
    };
    properties[`def${d}`] = { $ref: `#/$defs/Def${d}` };
    const bounds = Object.fromEntries(
      Array.from({ length: 4 }, (_, i) => [
        `n${i}`,
        { type: 'integer', minimum: 1234567890123 + 7919 * d + i, maximum: 8765432109876 - 7919 * d - i },
      ]),
    );
    properties[`def${d}Closed`] = {
      allOf: [
        { $ref: `#/$defs/Def${d}` },
        { properties: bounds, required: ['notDeclared'], additionalProperties: false },
      ],
    };
  }
  return { type: 'object', properties, $defs };
};
/**
 * Definitions chained through allOf (issue #43): each level's allOf holds two references to the next
 * ('same', as the issue's), references to two definitions of the next level ('pair'), or the next
 * and a property of its own ('properties').
 */
export const allOfChain = (levels: number, kind: 'same' | 'pair' | 'properties') => {
  const $defs: Record<string, unknown> = { a0: { type: 'integer' }, b0: { minimum: 0 } };
  for (let i = 1; i <= levels; i++) {
    const next = (name: string) => ({ $ref: `#/$defs/${name}${i - 1}` });
    if (kind === 'same') $defs[`a${i}`] = { allOf: [next('a'), next('a')] };
    else if (kind === 'pair') {
      $defs[`a${i}`] = { allOf: [next('a'), next('b')], maximum: 1000 + i };
      $defs[`b${i}`] = { allOf: [next('b'), next('a')], minimum: -i };
    } else {
      $defs[`a${i}`] = { allOf: [next('a'), { properties: { [`p${i}`]: { type: 'string' } } }] };
      $defs.a0 = { type: 'object' };
    }
  }
  return { $defs, $ref: `#/$defs/a${levels}` };
};
/** One JavaScript object used twice at each of `levels` levels (a library schema; 2^levels objects as JSON text). */
export const sharedObjects = (levels: number) => {
  let schema: unknown = { type: 'integer' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema, b: schema } };
  return schema;
};
const annotationKeys = (n: number) => {
  const schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < n; i++) schema[`x-a${String(i).padStart(7, '0')}`] = i;
  return schema;
};
/**
 * A case whose schema is built when it is read, not when this module loads: the largest inputs
 * (hundreds of MB of objects together) would otherwise stay in the heap that every case's collection
 * walks.
 */
const built = (name: string, make: () => unknown, expect: Omit<HostileCase, 'name' | 'input'>): HostileCase => ({
  name,
  get input(): HostileInput {
    return { kind: 'schema', schema: make() };
  },
  ...expect,
});
const oneOfTree = (depth: number): unknown =>
  depth === 0 ? { type: 'integer' } : { oneOf: [oneOfTree(depth - 1), oneOfTree(depth - 1)] };
/** A large schema with one expensive corner: a bound of 16 times its size let it run for 6 s before refusing (#36). */
const largeWithUnions = (groups: number) => ({
  type: 'object',
  properties: { big: wideObject(groups), hard: unions(24) },
});
const requiredParts = (n: number) => ({ allOf: Array.from({ length: n }, (_, i) => ({ required: [`k${i}`] })) });
/** The same parts as a balanced tree of two-part allOfs. */
const requiredTree = (lo: number, hi: number): unknown =>
  hi - lo === 1
    ? { required: [`k${lo}`] }
    : { allOf: [requiredTree(lo, (lo + hi) >> 1), requiredTree((lo + hi) >> 1, hi)] };
/** 24 unanchored one-letter patterns, and 30 required names each of which several match. */
const overlappingPatterns = () => {
  const letters = 'abcdefghijklmnopqrstuvwx';
  return {
    type: 'object',
    patternProperties: Object.fromEntries([...letters].map((l) => [l, { type: 'string' }])),
    required: Array.from({ length: 30 }, (_, i) => letters.slice(i % 20, (i % 20) + 4) + i),
  };
};
const fill = (unit: string, chars = MAX_PATTERN_CHARS) => unit.repeat(Math.floor(chars / unit.length));

/** The cases the issues name, and their neighbours at the documented limits. */
export const NAMED_CASES: HostileCase[] = [
  // #21: integer bounds with many digits (20 digits took 2.4 s, 28 digits > 40 s)
  {
    name: 'integer bounds ±1e308',
    input: { kind: 'schema', schema: { type: 'integer', minimum: -1e308, maximum: 1e308 } },
    expectMs: 150,
    expectMB: 40,
  },
  {
    name: 'integer bounds of 28 digits',
    input: {
      kind: 'schema',
      schema: { type: 'integer', minimum: -1234567890123456789012345678, maximum: 9876543210987654321098765432 },
    },
    expectMs: 30,
  },
  {
    name: 'number bounds ±1.7e308',
    input: {
      kind: 'schema',
      schema: { type: 'integer', exclusiveMinimum: -1.7976931348623157e308, exclusiveMaximum: 1.7976931348623157e308 },
    },
    expectMs: 150,
    expectMB: 40,
  },
  // #21: a regex at the 100,000-character limit (40,000 characters took 12.8 s in regexp-tree)
  { name: "regex 'a' x 100,000", input: { kind: 'regex', pattern: fill('a') }, expectMs: 300, expectMB: 60 },
  { name: "regex '(?:a)' x 20,000", input: { kind: 'regex', pattern: fill('(?:a)') }, expectMs: 200, expectMB: 60 },
  {
    name: "regex '(a)' x 33,333 (too many captures)",
    input: { kind: 'regex', pattern: fill('(a)') },
    expectMs: 150,
    expectMB: 40,
  },
  { name: "regex 'a*' x 50,000", input: { kind: 'regex', pattern: fill('a*') }, expectMs: 300, expectMB: 60 },
  { name: "regex '\\d' x 50,000", input: { kind: 'regex', pattern: fill('\\d') }, expectMs: 300, expectMB: 60 },
  {
    name: 'regex class of 33,000 ranges',
    input: { kind: 'regex', pattern: '[' + fill('a-c', MAX_PATTERN_CHARS - 2) + ']' },
    expectMs: 150,
    expectMB: 40,
  },
  { name: "regex 'ab|' x 33,333", input: { kind: 'regex', pattern: fill('ab|') + 'x' }, expectMs: 400, expectMB: 80 },
  {
    name: 'regex of 20,000 CJK alternatives',
    input: {
      kind: 'regex',
      pattern: Array.from({ length: 20_000 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('|'),
    },
    expectMs: 300,
    expectMB: 60,
  },
  {
    name: "regex '(a?b?' x 24,000 ')*'",
    input: { kind: 'regex', pattern: '(' + fill('a?b?', MAX_PATTERN_CHARS - 3) + ')*' },
    expectMs: 300,
    expectMB: 60,
  },
  {
    name: "regex '(a?b?' x 24,000 '){2}' (too large)",
    input: { kind: 'regex', pattern: '(' + fill('a?b?', MAX_PATTERN_CHARS - 5) + '){2}' },
    expectMs: 150,
    expectMB: 40,
  },
  { name: 'regex nested 64 deep', input: { kind: 'regex', pattern: nested(64) }, expectMs: 20 },
  { name: 'regex nested 10,000 deep', input: { kind: 'regex', pattern: nested(10_000) }, expectMs: 20 },
  { name: "regex '(' x 100,000", input: { kind: 'regex', pattern: fill('(') }, expectMs: 20 },
  {
    name: 'regex quantifiers nested 64 deep',
    input: { kind: 'regex', pattern: '(a'.repeat(64) + '){1000,2000}'.repeat(64) },
    expectMs: 50,
  },
  {
    name: "regex 'a' x 100,000 with flag i",
    input: { kind: 'regex', pattern: fill('a'), flags: 'i' },
    expectMs: 600,
    expectMB: 80,
  },
  {
    name: "regex '\\w' x 50,000 with flag i",
    input: { kind: 'regex', pattern: fill('\\w'), flags: 'i' },
    expectMs: 300,
    expectMB: 60,
  },
  {
    name: 'regex of 6,600 wide classes with flag i',
    input: {
      kind: 'regex',
      pattern: Array.from({ length: 6_600 }, (_, i) => `[\\0-\\u{${(0x1000 + i).toString(16)}}]`).join(''),
      flags: 'i',
    },
    expectMs: 1200,
    expectMB: 100,
  },
  { name: 'regex a{99999999999999999999}', input: { kind: 'regex', pattern: 'a{99999999999999999999}' }, expectMs: 10 },
  // #25: cost doubled per nesting level (43 s and 7 s)
  {
    name: 'created_at_datetime with additionalProperties',
    input: {
      kind: 'schema',
      schema: { type: 'object', properties: { created_at_datetime: { type: 'string' } }, additionalProperties: true },
    },
    expectMs: 30,
  },
  { name: '(a(a(…x…)b)?b)? nested 24 deep', input: { kind: 'regex', pattern: optionalNest(24) }, expectMs: 20 },
  { name: '(a(a(…x…)b)?b)? nested 64 deep', input: { kind: 'regex', pattern: optionalNest(64) }, expectMs: 30 },
  {
    name: 'property name of 1,000 characters with additionalProperties',
    input: {
      kind: 'schema',
      schema: { type: 'object', properties: { ['k'.repeat(1000)]: {} }, additionalProperties: true },
    },
    expectMs: 150,
    expectMB: 40,
  },
  {
    name: 'property name of 7,900 characters with additionalProperties',
    input: {
      kind: 'schema',
      schema: { type: 'object', properties: { ['k'.repeat(7_900)]: {} }, additionalProperties: true },
    },
    expectMs: 500,
    expectMB: 100,
  },
  {
    name: 'property name of 100,000 characters with additionalProperties (too large)',
    input: {
      kind: 'schema',
      schema: { type: 'object', properties: { ['k'.repeat(100_000)]: {} }, additionalProperties: true },
    },
    expectMs: 50,
  },
  // #25: bounds split around 2000 were merged back and split again (stack overflow); a shared unsatisfiable $ref was internal
  {
    name: 'string minLength 100 maxLength 2048',
    input: { kind: 'schema', schema: { type: 'string', minLength: 100, maxLength: 2048 } },
    expectMs: 20,
  },
  { name: 'regex a{1500,2500}', input: { kind: 'regex', pattern: 'a{1500,2500}' }, expectMs: 20 },
  { name: 'regex [a-z]{3000}', input: { kind: 'regex', pattern: '[a-z]{3000}' }, expectMs: 20 },
  {
    name: 'two anyOfs sharing an unsatisfiable $ref',
    input: {
      kind: 'schema',
      schema: {
        $defs: { u: { type: 'string', minLength: 5, maxLength: 2 } },
        properties: {
          a: { anyOf: [{ $ref: '#/$defs/u' }, { type: 'null' }] },
          b: { anyOf: [{ $ref: '#/$defs/u' }, { type: 'integer' }] },
        },
      },
    },
    expectMs: 20,
  },
  // #21: allOf of anyOf pairs built the product first (60 pairs: 4-7 s, then out of memory)
  { name: 'allOf of 60 anyOf pairs', input: { kind: 'schema', schema: pairs(60) }, expectMs: 20 },
  {
    name: 'allOf of 8 anyOf pairs (256 branches)',
    input: { kind: 'schema', schema: pairs(8) },
    expectMs: 150,
    expectMB: 40,
  },
  {
    name: 'anyOf beside properties nested 20 deep',
    input: { kind: 'schema', schema: unions(20) },
    expectMs: 300,
    expectMB: 60,
  },
  // #36: compile or refuse within 1 s whatever the size (a 16-times-the-size work bound took 6.5 s on the 20,000-property form)
  {
    name: '5,000 properties beside anyOf nested 24 deep',
    input: { kind: 'schema', schema: largeWithUnions(50) },
    expectMs: 800,
    expectMB: 150,
  },
  {
    name: '20,000 properties beside anyOf nested 24 deep',
    input: { kind: 'schema', schema: largeWithUnions(200) },
    expectMs: 800,
    expectMB: 200,
  },
  {
    name: '30,000 properties (a grammar past the character limit)',
    input: { kind: 'schema', schema: wideObject(300) },
    expectMs: 900,
    expectMB: 250,
  },
  {
    name: 'tuple of 2,000 chained $refs',
    input: { kind: 'schema', schema: refChain(2000) },
    expectMs: 500,
    expectMB: 100,
  },
  {
    name: 'enum of 3,000 characters against a nested repetition',
    input: { kind: 'schema', schema: { enum: ['a'.repeat(3000), 'b'], pattern: '^((a+)+)+$' } },
    expectMs: 400,
    expectMB: 60,
  },
  {
    name: 'enum of 100,000 values',
    input: { kind: 'schema', schema: { enum: Array.from({ length: 100_000 }, (_, i) => `value-${i}`) } },
    expectMs: 300,
    expectMB: 80,
  },
  {
    name: 'pattern of 100,000 characters',
    input: { kind: 'schema', schema: { type: 'string', pattern: fill('a') } },
    expectMs: 300,
    expectMB: 60,
  },
  {
    name: 'object of 1,500 optional $ref properties',
    input: {
      kind: 'schema',
      schema: {
        $defs: { x: { $anchor: 'a', type: 'integer' } },
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`p${i}`, { $ref: '#a' }])),
      },
    },
    expectMs: 300,
    expectMB: 60,
  },
  {
    name: 'schema nested 10,000 deep',
    input: {
      kind: 'schema',
      schema: Array.from({ length: 10_000 }).reduce<unknown>(
        (inner) => ({ type: 'object', properties: { a: inner } }),
        { type: 'string' },
      ),
    },
    expectMs: 20,
  },
  // #48: false refusals, and the size of the input (refused after reading about the limit's worth)
  {
    name: "jreleaser's shape (80 definitions of 60 properties, 80 dropped merges)",
    input: { kind: 'schema', schema: jreleaserShape(80, 60) },
    expectMs: 500,
    expectMB: 150,
  },
  built('1,000,000 annotation keys (18.8 MB)', () => annotationKeys(1_000_000), { expectMs: 300, expectMB: 40 }),
  built(
    '100,000 unused definitions',
    () => ({
      type: 'integer',
      $defs: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`d${i}`, { type: 'string' }])),
    }),
    {
      expectMs: 30,
    },
  ),
  built('a oneOf tree of 8.4 MB', () => oneOfTree(18), { expectMs: 30 }),
  {
    name: 'one object used twice at each of 40 levels',
    input: { kind: 'schema', schema: sharedObjects(40) },
    expectMs: 30,
  },
  {
    name: 'one object used twice at each of 12 levels (compiled)',
    input: { kind: 'schema', schema: sharedObjects(12) },
    expectMs: 500,
    expectMB: 100,
  },
  // #43: merges in the work bound, and no backtracking RegExp at compile time
  {
    name: 'allOf chain of 16 levels, two references to the next',
    input: { kind: 'schema', schema: allOfChain(16, 'same') },
    expectMs: 20,
  },
  {
    name: 'allOf chain of 60 levels, two references to the next',
    input: { kind: 'schema', schema: allOfChain(60, 'same') },
    expectMs: 50,
  },
  {
    name: 'allOf chain of 60 levels, references to two definitions',
    input: { kind: 'schema', schema: allOfChain(60, 'pair') },
    expectMs: 100,
  },
  {
    name: 'allOf chain of 60 levels, a property each',
    input: { kind: 'schema', schema: allOfChain(60, 'properties') },
    expectMs: 200,
    expectMB: 40,
  },
  ...[28, 30, 100_000].map((n): HostileCase => ({
    name: `required name of ${n} a's and '!' against patternProperties ^(a+)+$`,
    input: {
      kind: 'schema',
      schema: { type: 'object', patternProperties: { '^(a+)+$': {} }, required: ['a'.repeat(n) + '!'] },
    },
    expectMs: n > 1000 ? 150 : 20,
  })),
  {
    name: 'required name of 3,000 characters against patternProperties .{0,5000}x (thousands of parses per character)',
    input: {
      kind: 'schema',
      schema: { type: 'object', patternProperties: { '.{0,5000}x': {} }, required: ['a'.repeat(3000)] },
    },
    expectMs: 100,
    expectMB: 40,
  },
  {
    name: 'patternProperties .* beside 2,000 declared names',
    input: {
      kind: 'schema',
      schema: {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`name${i}`, { type: 'integer' }])),
        patternProperties: { '.*': {} },
      },
    },
    expectMs: 500,
    expectMB: 100,
  },
  // #21: errors that escaped as XX000
  { name: '$ref #/%zz', input: { kind: 'schema', schema: { $ref: '#/%zz' } }, expectMs: 10 },
  {
    name: 'a __proto__ property and keyword',
    input: {
      kind: 'schema',
      schema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"__proto__":{"x":1}}'),
    },
    expectMs: 10,
  },
  { name: 'keyword toString', input: { kind: 'schema', schema: { type: 'string', toString: 1 } }, expectMs: 10 },
  { name: 'keyword hasOwnProperty', input: { kind: 'schema', schema: { hasOwnProperty: true } }, expectMs: 10 },
  // point 6: duplicate choices; and lists at svc_generate_choice's limit
  { name: 'duplicate choices', input: { kind: 'choices', choices: ['yes', 'no', 'yes'] }, expectMs: 10 },
  {
    name: '10,000 choices of 90 characters',
    input: { kind: 'choices', choices: Array.from({ length: MAX_CHOICES }, (_, i) => `${i}`.padEnd(90, 'x')) },
    expectMs: 300,
    expectMB: 60,
  },
  {
    name: '10,000 choices of 1,000 characters (too large)',
    input: { kind: 'choices', choices: Array.from({ length: MAX_CHOICES }, (_, i) => `${i}`.padEnd(1000, 'x')) },
    expectMs: 20,
  },
  {
    name: 'GBNF nested 100,000 deep',
    input: { kind: 'gbnf', text: 'root ::= ' + nested(100_000, '"a"') },
    expectMs: 20,
  },
  // #54: work the bound did not count (6-60 s), a false refusal's shape, llama.cpp's cost, a BigInt
  built('10,000 {required: [k]} allOf parts (229 KB)', () => requiredParts(10_000), { expectMs: 500, expectMB: 100 }),
  built('20,000 {required: [k]} allOf parts', () => requiredParts(20_000), { expectMs: 900, expectMB: 150 }),
  built('10,000 {required: [k]} parts as an inline allOf tree', () => requiredTree(0, 10_000), {
    expectMs: 600,
    expectMB: 100,
  }),
  built('24 overlapping patternProperties beside 30 required names', overlappingPatterns, {
    expectMs: 800,
    expectMB: 100,
  }),
  {
    name: 'regex ^(a|a|…×2000)*$',
    input: { kind: 'regex', pattern: '^(' + Array(2000).fill('a').join('|') + ')*$' },
    expectMs: 60,
  },
  { name: 'regex ^(a?×50){50}$', input: { kind: 'regex', pattern: '^(' + 'a?'.repeat(50) + '){50}$' }, expectMs: 30 },
  {
    name: 'regex ^(a{0,400}){0,400}$',
    input: { kind: 'regex', pattern: '^(a{0,400}){0,400}$' },
    expectMs: 300,
    expectMB: 60,
  },
  {
    name: 'regex ^([a-z]{0,20}[a-z0-9]{0,20}){0,20}$ (too ambiguous)',
    input: { kind: 'regex', pattern: '^([a-z]{0,20}[a-z0-9]{0,20}){0,20}$' },
    expectMs: 300,
    expectMB: 60,
  },
  {
    name: 'a BigInt in a library schema',
    input: {
      kind: 'schema',
      schema: { type: 'object', properties: { n: { type: 'integer', minimum: 10n }, e: { enum: ['a', 1n] } } },
    },
    expectMs: 10,
  },
];

// ---- generated ----------------------------------------------------------------------------------

const REGEX_TOKENS = [
  'a',
  'b',
  'z',
  '0',
  '9',
  '-',
  '^',
  '$',
  '.',
  '|',
  '*',
  '+',
  '?',
  '*?',
  '{',
  '}',
  '{2}',
  '{0,3}',
  '{1,}',
  '{2000}',
  '{1000,3000}',
  ',',
  '(',
  ')',
  '(?:',
  '(?<n>',
  '(?=',
  '[',
  ']',
  '[^',
  '\\',
  '\\d',
  '\\w',
  '\\s',
  '\\W',
  '\\b',
  '\\-',
  '\\1',
  '\\0',
  '\\12',
  '\\c',
  '\\cJ',
  '\\x4',
  '\\x7f',
  '\\u',
  '\\u00e9',
  '\\u{1F600}',
  '\\uD83D\\uDE00',
  '\\k<n>',
  '\\p{L}',
  '/',
  '😀',
  'é',
  '\\t',
  '[a-z]',
  '[\\d-z]',
  '[^\\w\\s]',
  '[\\b]',
  '[\\0-\\u{10FFFF}]',
  '(a|)',
  '(a?)*',
  '(?:a|b)+',
  'x{0,2000}',
];

const fragment = fc
  .array(fc.constantFrom(...REGEX_TOKENS), { minLength: 1, maxLength: 16 })
  .map((tokens) => tokens.join(''));

/** Token soup, sometimes repeated up to the 100,000-character limit or wrapped in groups. */
export const hostilePattern = fc.oneof(
  { weight: 4, arbitrary: fragment },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fragment, fc.integer({ min: 2, max: MAX_PATTERN_CHARS }))
      .map(([f, length]) => f.repeat(Math.max(1, Math.floor(length / f.length)))),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fragment, fc.integer({ min: 1, max: 80 }))
      .map(([f, depth]) => '('.repeat(depth) + f + ')'.repeat(depth)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fragment, fc.integer({ min: 1, max: 70 }), fc.constantFrom('*', '?', '{2}', '{0,1000}', '{1000}'))
      .map(([f, depth, q]) => '(?:'.repeat(depth) + f + (')' + q).repeat(depth)),
  },
);

const hugeNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(Number),
  fc.constantFrom(
    1e308,
    -1e308,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    5e-324,
    2 ** 53,
    -(2 ** 53),
    0,
    -0,
    0.5,
  ),
);
const count = fc.oneof(fc.nat(5), fc.constantFrom(0, 1, 2, 2000, 2001, 4000, 10_000, 1e9, 2 ** 31, 2 ** 53 - 1));
const keyName = fc.oneof(
  fc.constantFrom(
    'a',
    'b',
    'name',
    '__proto__',
    'toString',
    'constructor',
    'hasOwnProperty',
    'valueOf',
    '',
    'a"b',
    'k\\',
    '\u0000',
    '😀',
    'é',
  ),
  fc.string({ maxLength: 8 }),
  fc.integer({ min: 1, max: 3000 }).map((n) => 'k'.repeat(n)),
);
const pointer = fc.oneof(
  fc.constantFrom(
    '#',
    '#/$defs/a',
    '#/$defs/b',
    '#/$defs/missing',
    '#/%zz',
    '#/%E0%A4%A',
    '#/properties/a',
    '#/not',
    '#/items/0',
    '#a',
    '#/$defs/a/anyOf/0',
    'http://x/y',
    '#/~2',
    '#/$defs/%7e',
  ),
  fc.string({ maxLength: 10 }).map((s) => '#/' + s),
);
// Every keyword of the policy (the one list), and names no vocabulary has: inherited object members,
// annotations, extensions, and where definitions live.
const keyword = fc.constantFrom(
  ...Object.keys(KEYWORD_POLICY),
  'toString',
  '__proto__',
  'valueOf',
  '$defs',
  'definitions',
  'title',
  'x-unknown',
);

const { schema: hostileSchemaTree } = fc.letrec<{ schema: unknown; value: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', maxDepth: 6 },
    fc.boolean(),
    fc.constantFrom(
      {},
      { type: 'integer' },
      { type: 'string' },
      { type: 'object' },
      { type: 'array' },
      { type: 'null' },
      { type: ['string', 'null'] },
    ),
    fc.dictionary(keyword, tie('value'), { maxKeys: 5 }),
  ),
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 6 },
    tie('schema'),
    hugeNumber,
    count,
    pointer,
    hostilePattern,
    fc.constantFrom(
      'integer',
      'number',
      'string',
      'object',
      'array',
      'boolean',
      'null',
      'date-time',
      'email',
      'toString',
      'uri',
      'regex',
    ),
    fc.array(tie('schema'), { maxLength: 4 }),
    fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }),
    fc.array(keyName, { maxLength: 4 }),
    fc.dictionary(keyName, tie('schema'), { maxKeys: 5 }),
  ),
}));

/** Random schemas of every keyword with hostile values, plus amplifiers (width, depth, unions). */
export const hostileSchema = fc.oneof(
  { weight: 6, arbitrary: hostileSchemaTree },
  // Trees, never shared subtrees: a schema arrives as JSON text, and a DAG's text is exponential.
  {
    weight: 1,
    arbitrary: fc
      .tuple(hostileSchemaTree, fc.integer({ min: 1, max: 90 }))
      .map(([leaf, depth]) =>
        Array.from({ length: depth }).reduce<unknown>(
          (inner) => ({ anyOf: [inner, { type: 'null' }], properties: { p: leaf } }),
          leaf,
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(hostileSchemaTree, fc.integer({ min: 1, max: 3000 }))
      .map(([item, n]) => ({ type: 'array', prefixItems: Array.from({ length: n }, () => item), items: false })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(hostileSchemaTree, fc.integer({ min: 1, max: 2500 })).map(([value, n]) => ({
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, value])),
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.array(hostileSchemaTree, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 40 }))
      .map(([parts, n]) => ({ allOf: Array.from({ length: n }, () => ({ anyOf: parts })) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 20_000 }),
        hostileSchemaTree,
      )
      .map(([values, n, rest]) => ({
        ...(typeof rest === 'object' && rest !== null ? rest : {}),
        enum: Array.from({ length: n }, (_, i) => values[i % values.length]),
      })),
  },
);

/** Lists with duplicates, empty and non-string entries, and long or many entries. */
export const hostileChoices = fc.oneof(
  fc.array(fc.string({ maxLength: 20 }), { maxLength: 30 }),
  fc.array(fc.oneof(fc.string({ minLength: 1 }), fc.constant(null), fc.integer()), { maxLength: 5 }),
  fc
    .tuple(fc.integer({ min: 1, max: MAX_CHOICES }), fc.integer({ min: 1, max: 2000 }))
    .map(([n, length]) => Array.from({ length: n }, (_, i) => `${i}`.padEnd(length, '\u00e9'))),
  fc.constant('not a list'),
);

export const hostileTypeName = fc.oneof(
  fc.constantFrom('int', 'Number', 'constructor', '__proto__', 'toString', '', ' int '),
  fc.string({ maxLength: 12 }),
  fc.integer(),
);

/** `runs` generated cases per kind, from `seed`. */
export function generatedCases(seed: number, runs: number): HostileCase[] {
  const sample = <T>(arbitrary: fc.Arbitrary<T>, offset: number) =>
    fc.sample(arbitrary, { seed: seed + offset, numRuns: runs });
  return [
    ...sample(hostilePattern, 0).map((pattern, i): HostileCase => ({
      name: `generated regex ${i}`,
      input: { kind: 'regex', pattern },
    })),
    ...sample(fc.tuple(hostilePattern, fc.constantFrom('i', 's', 'is')), 1).map(([pattern, flags], i): HostileCase => ({
      name: `generated regex with flags ${i}`,
      input: { kind: 'regex', pattern, flags },
    })),
    ...sample(hostileSchema, 2).map((schema, i): HostileCase => ({
      name: `generated schema ${i}`,
      input: { kind: 'schema', schema },
    })),
    ...sample(hostileChoices, 3).map((choices, i): HostileCase => ({
      name: `generated choices ${i}`,
      input: { kind: 'choices', choices },
    })),
    ...sample(hostileTypeName, 4).map((name, i): HostileCase => ({
      name: `generated type ${i}`,
      input: { kind: 'type', name },
    })),
  ];
}
