// Soundness, property-based: strings sampled from the emitted grammar always validate — with ajv
// against the schema, or as a full match of the regex. Seeded, so CI runs are reproducible.
import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import {
  ConstraintError,
  compileJsonSchema,
  compileRegex,
  recognizeGbnf,
  sampleGbnf,
  seededRandom,
} from '../../src/grammar/index.js';

const SAMPLES_PER_CASE = 8;

// ---- schemas (the fragment the grammar enforces exactly) --------------------------------------

const key = fc.constantFrom('a', 'b', 'name', 'ab', 'a"b', 'k\\', 'ü', 'x y', '', 'line\nbreak');
const safePattern = fc.constantFrom(
  '^[a-z]+$',
  '^\\d{2,4}$',
  'ab',
  '^(yes|no)$',
  '[^"]x',
  '^\\w*$',
  '^\\u00e9?.$',
  '^[A-Z][a-z]{0,3}$',
  'x|^y$',
);
const format = fc.constantFrom('date', 'time', 'date-time', 'uuid', 'email', 'uri', 'ipv4', 'ipv6', 'hostname');
const smallInt = fc.integer({ min: -1200, max: 1200 });

const integerSchema = fc
  .record({ lo: fc.option(smallInt), hi: fc.option(smallInt), exclusive: fc.boolean() })
  .map(({ lo, hi, exclusive }) => {
    const schema: Record<string, unknown> = { type: 'integer' };
    const [a, b] = lo !== null && hi !== null && lo > hi ? [hi, lo] : [lo, hi];
    if (a !== null) schema[exclusive ? 'exclusiveMinimum' : 'minimum'] = a;
    if (b !== null) schema[exclusive ? 'exclusiveMaximum' : 'maximum'] = b;
    return schema;
  });

const stringSchema = fc.oneof(
  fc.record({ min: fc.option(fc.nat(4)), extra: fc.option(fc.nat(4)) }).map(({ min, extra }) => ({
    type: 'string',
    ...(min !== null ? { minLength: min } : {}),
    ...(extra !== null ? { maxLength: (min ?? 0) + extra } : {}),
  })),
  safePattern.map((pattern) => ({ type: 'string', pattern })),
  format.map((f) => ({ type: 'string', format: f })),
);

const leaf = fc.oneof(
  fc.constant({ type: 'null' }),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: 'number' }),
  fc.constant({}),
  integerSchema,
  stringSchema,
  fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values })),
  fc.jsonValue({ maxDepth: 2 }).map((value) => ({ const: value })),
);

const { node } = fc.letrec<{ node: unknown; object: unknown; array: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    tie('object'),
    tie('array'),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
    fc.tuple(tie('object'), tie('object')).map((allOf) => ({ allOf })),
    leaf.map((schema) => ({ anyOf: [schema, { type: 'null' }] })),
    fc.constant({ anyOf: [{ $ref: '#/$defs/shared' }, { type: 'null' }] }),
  ),
  object: fc
    .record({
      properties: fc.dictionary(key, tie('node'), { maxKeys: 4 }),
      requiredMask: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      additional: fc.oneof(fc.constant(undefined), fc.constant(false), fc.constant(true), tie('node')),
      maxProperties: fc.option(fc.nat(3)),
      minProperties: fc.option(fc.nat(2)),
    })
    .map(({ properties, requiredMask, additional, maxProperties, minProperties }) => {
      const names = Object.keys(properties);
      const schema: Record<string, unknown> = {
        type: 'object',
        properties,
        required: names.filter((_, i) => requiredMask[i]),
      };
      if (additional !== undefined) schema.additionalProperties = additional;
      if (maxProperties !== null) schema.maxProperties = maxProperties;
      // minProperties with additional properties is validated, not exact (keys may repeat).
      if (minProperties !== null && (additional === undefined || additional === false))
        schema.minProperties = minProperties;
      return schema;
    }),
  array: fc.oneof(
    fc.record({ items: tie('node'), min: fc.nat(2), extra: fc.option(fc.nat(3)) }).map(({ items, min, extra }) => ({
      type: 'array',
      items,
      minItems: min,
      ...(extra !== null ? { maxItems: min + extra } : {}),
    })),
    fc
      .record({
        prefixItems: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
        items: fc.option(tie('node')),
        min: fc.nat(2),
      })
      .map(({ prefixItems, items, min }) => ({
        type: 'array',
        prefixItems,
        ...(items !== null ? { items } : {}),
        minItems: Math.min(min, prefixItems.length),
      })),
  ),
}));

// `$ref`s point at a shared definition at the root (where `#` refers).
const rootSchema = fc
  .tuple(node, leaf)
  .map(([schema, shared]) =>
    typeof schema === 'object' && schema !== null ? { ...schema, $defs: { shared } } : schema,
  );

test('JSON Schema: sampled outputs always validate with ajv', () => {
  let checked = 0;
  fc.assert(
    fc.property(rootSchema, fc.integer(), (schema, seed) => {
      let compiled;
      try {
        compiled = compileJsonSchema(schema);
      } catch (error) {
        // Random schemas can contradict themselves (e.g. maxProperties below the required count).
        if (error instanceof ConstraintError && error.code === 'unsatisfiable') return;
        throw error;
      }
      if (compiled.approximations.length > 0) return;
      checked++;
      const random = seededRandom(seed);
      for (let i = 0; i < SAMPLES_PER_CASE; i++) {
        const text = sampleGbnf(compiled.grammar, random);
        const result = compiled.validate(text);
        if (!result.ok)
          throw new Error(
            `sample ${JSON.stringify(text)} fails: ${result.error.message}\nschema: ${JSON.stringify(schema)}\n${compiled.gbnf}`,
          );
        expect(recognizeGbnf(compiled.grammar, text)).toBe(true);
      }
    }),
    { seed: 20260101, numRuns: 300 },
  );
  expect(checked).toBeGreaterThan(150);
});

// ---- regexes ----------------------------------------------------------------------------------

// The oracle is JS's own backtracking engine, which random nested quantifiers can send into
// exponential time; V8 then falls back to its linear engine, and samples stay short.
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
const MAX_CHECKED_LENGTH = 40;

// ----------------------------------------------------------------------------------

const LITERALS = [
  'a',
  'b',
  'x',
  'Z',
  '0',
  '-',
  ' ',
  '"',
  'é',
  '😀',
  '\\.',
  '\\*',
  '\\(',
  '\\\\',
  '\\/',
  '\\n',
  '\\t',
  '\\u0041',
  '\\x7e',
  '\\u{1F642}',
];
const CLASS_ITEMS = ['a-f', 'x', '0-9', '\\d', '\\s', '\\w', '"', '\\]', '\\-', 'é', '😀', '\\u0100-\\u017f', '\\\\'];
const atom = fc.oneof(
  fc.constantFrom(...LITERALS),
  fc.constantFrom('.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S'),
  fc
    .tuple(fc.boolean(), fc.array(fc.constantFrom(...CLASS_ITEMS), { minLength: 1, maxLength: 3 }))
    .map(([neg, items]) => `[${neg ? '^' : ''}${items.join('')}]`),
);
const quantifier = fc
  .tuple(fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,}', '{0,3}', '{2,4}'), fc.boolean())
  .map(([q, lazy]) => (q && lazy ? q + '?' : q));

const { regex } = fc.letrec<{ regex: string; term: string }>((tie) => ({
  regex: fc
    .array(
      fc.array(tie('term'), { minLength: 1, maxLength: 3 }).map((t) => t.join('')),
      { minLength: 1, maxLength: 2 },
    )
    .map((alts) => alts.join('|')),
  term: fc
    .tuple(
      fc.oneof(
        { depthSize: 'xsmall', maxDepth: 2 },
        atom,
        fc.tuple(fc.constantFrom('(', '(?:', '(?<g>'), tie('regex')).map(([open, inner]) => `${open}${inner})`),
      ),
      quantifier,
    )
    .map(([a, q]) => a + q),
}));

test('regex: sampled outputs always fully match', () => {
  let checked = 0;
  fc.assert(
    fc.property(regex, fc.constantFrom('', 'i', 's', 'is'), fc.integer(), (pattern, flags, seed) => {
      let compiled;
      try {
        new RegExp(pattern, 'u');
      } catch {
        return; // e.g. a duplicated group name
      }
      try {
        compiled = compileRegex(pattern, flags);
      } catch (error) {
        // Too ambiguous for llama.cpp's matcher, with too large an automaton (#54): refused, never unsound.
        if (error instanceof ConstraintError && error.code === 'too-large') return;
        throw error;
      }
      const full = new RegExp(`^(?:${pattern})$`, flags + 'u');
      const random = seededRandom(seed);
      for (let i = 0; i < SAMPLES_PER_CASE; i++) {
        const text = sampleGbnf(compiled.grammar, random, { maxExtraRepeats: 2 });
        if (text.length > MAX_CHECKED_LENGTH) continue;
        checked++;
        if (!full.test(text))
          throw new Error(`sample ${JSON.stringify(text)} does not match /${pattern}/${flags}\n${compiled.gbnf}`);
      }
    }),
    { seed: 42, numRuns: 400 },
  );
  expect(checked).toBeGreaterThan(1000);
});
