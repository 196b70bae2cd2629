// Issue #54: numbers enforced by the grammar (decimal bounds, multipleOf), intersections computed
// or listed (never one of two patterns dropped), and compile work bounded whatever the input.
import fc from 'fast-check';
import {
  ConstraintError,
  compileJsonSchema,
  compileRegex,
  recognizeGbnf,
  sampleGbnf,
  seededRandom,
} from '../../src/grammar/index.js';
import type { Grammar } from '../../src/grammar/index.js';
import { MAX_PARSES, parsesAlive, parsesAliveIn } from '../../src/grammar/ambiguity.js';
import { FACTOR_GROUP } from '../../src/grammar/factor.js';
import { regexToExpr } from '../../src/grammar/regex.js';
import { isMultipleOf } from '../../src/grammar/validator.js';
import { shareRepeatedSubschemas } from '../../src/grammar/shared-subschemas.js';

const accepts = (schema: unknown, text: string) => recognizeGbnf(compileJsonSchema(schema).grammar, text);

function outcome<T>(fn: () => T): T | ConstraintError {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof ConstraintError)) throw error;
    return error;
  }
}

describe('numbers are enforced by the grammar (#54 point 1)', () => {
  test('a bounded decimal: 7.5 is never written for [0, 1], and nothing is left to the validator', () => {
    const schema = {
      type: 'object',
      properties: { confidence: { type: 'number', minimum: 0, maximum: 1 } },
      required: ['confidence'],
    };
    const compiled = compileJsonSchema(schema);
    expect(compiled.approximations).toEqual([]);
    for (const [text, ok] of [
      ['{"confidence":0}', true],
      ['{"confidence":0.5}', true],
      ['{"confidence":1}', true],
      ['{"confidence":1.0}', true],
      ['{"confidence":7.5}', false],
      ['{"confidence":1.01}', false],
      ['{"confidence":-0.5}', false],
      ['{"confidence":5e-1}', false],
    ] as const) {
      expect({ text, grammar: recognizeGbnf(compiled.grammar, text) }).toEqual({ text, grammar: ok });
    }
    const random = seededRandom(54);
    for (let i = 0; i < 200; i++) {
      const text = sampleGbnf(compiled.grammar, random);
      expect({ text, ok: compiled.validate(text).ok }).toEqual({ text, ok: true });
    }
  });

  test('exclusive bounds, on both sides of zero, never -0', () => {
    const s = { type: 'number', exclusiveMinimum: -2.5, exclusiveMaximum: 0 };
    for (const [text, ok] of [
      ['-2.5', false],
      ['-2.49', true],
      ['-1', true],
      ['-0.001', true],
      ['0', false],
      ['-0', false],
      ['0.1', false],
    ] as const) {
      expect({ text, grammar: accepts(s, text) }).toEqual({ text, grammar: ok });
    }
  });

  test('multipleOf on integers and decimals, with and without bounds', () => {
    expect(accepts({ type: 'integer', multipleOf: 7 }, '21')).toBe(true);
    expect(accepts({ type: 'integer', multipleOf: 7 }, '-14')).toBe(true);
    expect(accepts({ type: 'integer', multipleOf: 7 }, '22')).toBe(false);
    expect(accepts({ type: 'number', multipleOf: 0.01, minimum: 0, maximum: 100 }, '19.99')).toBe(true);
    expect(accepts({ type: 'number', multipleOf: 0.01, minimum: 0, maximum: 100 }, '19.999')).toBe(false);
    expect(accepts({ type: 'number', multipleOf: 1 }, '3')).toBe(true);
    expect(accepts({ type: 'number', multipleOf: 1 }, '2.5')).toBe(false);
    // An integer is a multiple of 0.5 already; of 2.5 when it is a multiple of 5.
    expect(accepts({ type: 'integer', multipleOf: 2.5 }, '10')).toBe(true);
    expect(accepts({ type: 'integer', multipleOf: 2.5 }, '12')).toBe(false);
    // Two steps: a multiple of both is a multiple of their least common multiple.
    expect(accepts({ allOf: [{ type: 'integer', multipleOf: 4 }, { multipleOf: 6 }] }, '12')).toBe(true);
    expect(accepts({ allOf: [{ type: 'integer', multipleOf: 4 }, { multipleOf: 6 }] }, '8')).toBe(false);
    expect(outcome(() => compileJsonSchema({ type: 'integer', multipleOf: 10, minimum: 1, maximum: 9 }))).toMatchObject(
      {
        code: 'unsatisfiable',
        keyword: 'multipleOf',
      },
    );
  });

  test('a step of too many digits stays with the validator, listed', () => {
    const compiled = compileJsonSchema({ type: 'number', multipleOf: 1 / 3 });
    expect(compiled.approximations).toContainEqual(expect.objectContaining({ keyword: 'multipleOf', pointer: '' }));
  });

  test('the validator checks multipleOf in decimal arithmetic, as the grammar writes numbers', () => {
    expect(isMultipleOf(0.07, 0.01)).toBe(true);
    expect(isMultipleOf(19.99, 0.01)).toBe(true);
    expect(isMultipleOf(1e21, 7)).toBe(false);
    expect(isMultipleOf(0.3, 0.1)).toBe(true);
    expect(isMultipleOf(0.35, 0.1)).toBe(false);
    const compiled = compileJsonSchema({ type: 'number', multipleOf: 0.01 });
    expect(compiled.validate('0.07').ok).toBe(true);
    expect(compiled.validate('0.075')).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/multiple of 0.01/) },
    });
  });

  const bound = fc.constantFrom(-1e6, -12.5, -1, -0.25, 0, 0.001, 0.5, 1, 3.75, 99.99, 1e6);
  const step = fc.constantFrom(undefined, 0.5, 0.25, 0.01, 0.1, 1, 3, 7);
  const numberSchema = fc.record({
    type: fc.constantFrom('number', 'integer'),
    lo: fc.option(bound),
    hi: fc.option(bound),
    exLo: fc.boolean(),
    exHi: fc.boolean(),
    step,
  });

  test('property: what the grammar writes validates; what validates (on a coarse grid) the grammar writes', () => {
    fc.assert(
      fc.property(numberSchema, fc.integer({ min: 0, max: 1_000_000 }), ({ type, lo, hi, exLo, exHi, step }, seed) => {
        const schema: Record<string, unknown> = { type };
        if (lo !== null) schema[exLo ? 'exclusiveMinimum' : 'minimum'] = lo;
        if (hi !== null) schema[exHi ? 'exclusiveMaximum' : 'maximum'] = hi;
        if (step !== undefined) schema.multipleOf = step;
        const compiled = outcome(() => compileJsonSchema(schema));
        if (compiled instanceof ConstraintError) {
          expect(compiled.code).toBe('unsatisfiable');
          return;
        }
        expect(compiled.approximations).toEqual([]);
        const random = seededRandom(seed);
        for (let i = 0; i < 20; i++) {
          const text = sampleGbnf(compiled.grammar, random, { maxExtraRepeats: 4 });
          expect({ schema, text, ok: compiled.validate(text).ok }).toEqual({ schema, text, ok: true });
        }
        for (let k = -2000; k <= 2000; k += 7) {
          const value = k / 8;
          const text = String(value);
          expect({ schema, text, grammar: recognizeGbnf(compiled.grammar, text) }).toEqual({
            schema,
            text,
            grammar: compiled.validate(text).ok,
          });
        }
      }),
      { seed: 54, numRuns: 150 },
    );
  });
});

describe('intersections are computed, or listed (#54 point 2)', () => {
  test("allOf's two patterns both hold: 'aa' is not written for ^[a-c]+$ and b", () => {
    const schema = { allOf: [{ pattern: '^[a-c]+$' }, { pattern: 'b' }] };
    const compiled = compileJsonSchema(schema);
    expect(compiled.approximations).toEqual([]);
    expect(recognizeGbnf(compiled.grammar, '"aa"')).toBe(false);
    expect(recognizeGbnf(compiled.grammar, '"ab"')).toBe(true);
    expect(recognizeGbnf(compiled.grammar, '"abd"')).toBe(false);
    const random = seededRandom(54);
    for (let i = 0; i < 100; i++) {
      const text = sampleGbnf(compiled.grammar, random);
      expect({ text, ok: compiled.validate(text).ok }).toEqual({ text, ok: true });
    }
  });

  test('a format, a pattern and a length together; contradictions are unsatisfiable', () => {
    const s = { type: 'string', format: 'date', pattern: '^2024-', maxLength: 10 };
    expect(accepts(s, '"2024-02-29"')).toBe(true);
    expect(accepts(s, '"2023-02-28"')).toBe(false);
    expect(compileJsonSchema(s).approximations).toEqual([]);
    expect(accepts({ type: 'string', pattern: '^[a-z]+$', minLength: 2, maxLength: 3 }, '"abcd"')).toBe(false);
    expect(accepts({ type: 'string', pattern: '^[a-z]+$', minLength: 2, maxLength: 3 }, '"ab"')).toBe(true);
    expect(outcome(() => compileJsonSchema({ allOf: [{ pattern: '^a+$' }, { pattern: '^b+$' }] }))).toMatchObject({
      code: 'unsatisfiable',
    });
    expect(outcome(() => compileJsonSchema({ type: 'string', format: 'uuid', maxLength: 10 }))).toMatchObject({
      code: 'unsatisfiable',
    });
  });

  test('a closed object merged with patternProperties stays closed', () => {
    const s = {
      allOf: [
        { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false },
        { patternProperties: { '^x': { type: 'integer' } } },
      ],
    };
    expect(accepts(s, '{"a":1}')).toBe(true);
    expect(accepts(s, '{"x1":1}')).toBe(false);
    // Closed to what its own patterns allow: the other part's keys must match both.
    const both = {
      allOf: [
        { type: 'object', patternProperties: { '^[a-c]': { type: 'integer' } }, additionalProperties: false },
        { patternProperties: { '[0-9]$': { minimum: 0 } } },
      ],
    };
    const compiled = compileJsonSchema(both);
    expect(recognizeGbnf(compiled.grammar, '{"a1":1}')).toBe(true);
    expect(recognizeGbnf(compiled.grammar, '{"x1":1}')).toBe(false);
    // A key two patterns match takes both schemas: the validator's, as in a single object (listed).
    expect(compiled.approximations).toContainEqual(expect.objectContaining({ keyword: 'patternProperties' }));
    expect(compiled.validate('{"a1":-1}').ok).toBe(false);
  });

  test("a name one part declares takes the other part's patterns", () => {
    const s = {
      allOf: [
        { type: 'object', properties: { x1: { type: 'number' } } },
        { patternProperties: { '^x': { type: 'integer' } }, additionalProperties: false },
      ],
    };
    expect(accepts(s, '{"x1":2}')).toBe(true);
    expect(accepts(s, '{"x1":2.5}')).toBe(false);
  });

  test('a pattern the regex compiler cannot express beside another is listed; alone it is refused', () => {
    const beside = compileJsonSchema({ type: 'string', allOf: [{ pattern: '^[a-z]+$' }, { pattern: '^(?!ab)' }] });
    expect(beside.approximations).toContainEqual(expect.objectContaining({ keyword: 'pattern', pointer: '/allOf/1' }));
    expect(outcome(() => compileJsonSchema({ type: 'string', pattern: '^(?!ab)' }))).toMatchObject({
      code: 'unsupported-regex',
    });
  });
});

describe("the validator compiles a subschema written many times once (cityjson's first validate() took 3-7 s) (#54 point 4)", () => {
  const point = {
    type: 'object',
    properties: {
      x: { type: 'number', minimum: 0 },
      y: { type: 'number' },
      label: { type: 'string', pattern: '^[a-z]+$' },
    },
    required: ['x', 'y'],
  };
  const schema = {
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `p${i}`,
        { type: 'array', items: point, description: 'a list of points, written out in full' },
      ]),
    ),
    $defs: { named: { $anchor: 'here', ...point }, target: { ...point } },
    patternProperties: { '^ref': { $ref: '#/$defs/target/properties/x' } },
  };

  test('shared: one $defs entry, $refs to it; anchors and the targets of $ref pointers stay in place', () => {
    const shared = shareRepeatedSubschemas(schema) as {
      $defs: Record<string, unknown>;
      properties: Record<string, unknown>;
    };
    expect(Object.keys(shared.$defs).filter((k) => k.startsWith('__svc_shared_')).length).toBeGreaterThan(0);
    expect(JSON.stringify(shared.properties.p7)).toMatch(/\$ref/);
    expect(shared.$defs.named).toEqual(schema.$defs.named);
    expect((shared.$defs.target as { properties: unknown }).properties).toEqual(point.properties);
    expect(shareRepeatedSubschemas({ type: 'string' })).toEqual({ type: 'string' });
  });

  test('validate() says the same', () => {
    const compiled = compileJsonSchema(schema, { additionalProperties: true });
    expect(compiled.validate('{"p1":[{"x":1,"y":2,"label":"ok"}],"p39":[]}').ok).toBe(true);
    expect(compiled.validate('{"p1":[{"x":-1,"y":2}]}')).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/\/p1\/0\/x must be >= 0/) },
    });
    expect(compiled.validate('{"p2":[{"x":1,"y":2,"label":"NO"}]}').ok).toBe(false);
    expect(compiled.validate('{"ref1":-3}').ok).toBe(false);
  });
});

describe('what llama.cpp receives is bounded: few parses alive at once (#54 point 3)', () => {
  const alive = (grammar: Grammar) => parsesAliveIn(grammar, () => {});

  test('equal alternatives are one, nested optionals one counted repetition', () => {
    expect(compileRegex('^(' + Array(2000).fill('a').join('|') + ')*$').gbnf).toBe('root ::= "a"*\n');
    for (const pattern of ['^(' + 'a?'.repeat(50) + '){50}$', '^((a?){50}){50}$', '^(a{0,400}){0,400}$']) {
      const compiled = compileRegex(pattern);
      expect({ pattern, alive: alive(compiled.grammar) <= MAX_PARSES }).toEqual({ pattern, alive: true });
      expect(recognizeGbnf(compiled.grammar, 'a'.repeat(2500))).toBe(true);
    }
    expect(recognizeGbnf(compileRegex('^(a{0,400}){0,400}$').grammar, 'a'.repeat(160_001))).toBe(false);
  });

  test('a regex read in many ways is written as its automaton, or refused when that is too large', () => {
    const ambiguous = '^(a|aa){0,40}$';
    expect(parsesAlive(regexToExpr(ambiguous, '', { semantics: 'full' }), () => {})).toBeGreaterThan(MAX_PARSES);
    const rewritten = compileRegex(ambiguous);
    expect(alive(rewritten.grammar)).toBeLessThanOrEqual(MAX_PARSES);
    for (let n = 0; n <= 82; n++) expect([n, recognizeGbnf(rewritten.grammar, 'a'.repeat(n))]).toEqual([n, n <= 80]);
    expect(outcome(() => compileRegex('^([a-z]{0,20}[a-z0-9]{0,20}){0,20}$'))).toMatchObject({
      code: 'too-large',
      message: expect.stringMatching(/too ambiguous/),
    });
    // A schema's pattern alike, with its pointer.
    expect(
      outcome(() =>
        compileJsonSchema({ properties: { p: { type: 'string', pattern: '^([a-z]{0,20}[a-z0-9]{0,20}){0,20}$' } } }),
      ),
    ).toMatchObject({
      code: 'too-large',
      pointer: '/properties/p',
    });
  });

  test('alternatives of one first character are merged: enums, unions of objects, searched alternations', () => {
    const zones = Array.from({ length: 400 }, (_, i) => `Area${i % 7}/City_${i}`);
    const enumGrammar = compileJsonSchema({ type: 'string', enum: zones }).grammar;
    expect(alive(enumGrammar)).toBeLessThanOrEqual(2 * (FACTOR_GROUP + 1));
    for (const zone of zones.slice(0, 50)) expect(recognizeGbnf(enumGrammar, JSON.stringify(zone))).toBe(true);
    expect(recognizeGbnf(enumGrammar, '"Area1/City_"')).toBe(false);
    const union = compileJsonSchema({
      anyOf: Array.from({ length: 200 }, (_, i) => ({
        type: 'object',
        properties: { kind: { const: `k${i}` }, v: { type: 'integer' } },
        required: ['kind'],
      })),
    });
    expect(alive(union.grammar)).toBeLessThanOrEqual(2 * (FACTOR_GROUP + 1));
    expect(recognizeGbnf(union.grammar, '{"kind":"k199","v":1}')).toBe(true);
    expect(recognizeGbnf(union.grammar, '{"kind":"k200"}')).toBe(false);
    const regions = Array.from({ length: 120 }, (_, i) => `region${i % 9}-az${i}`).join('|');
    const searched = compileJsonSchema({ type: 'string', pattern: `(${regions})` });
    expect(alive(searched.grammar)).toBeLessThanOrEqual(MAX_PARSES);
    expect(recognizeGbnf(searched.grammar, '"in region3-az12 now"')).toBe(true);
    expect(recognizeGbnf(searched.grammar, '"in region3-az9 now"')).toBe(false);
  });
});

describe('one work bound counts all work; every error a ConstraintError (#54 point 4)', () => {
  test('10,000 {required: [k]} allOf parts are merged in one pass and refused by the property limit', () => {
    const parts = { allOf: Array.from({ length: 10_000 }, (_, i) => ({ required: [`k${i}`] })) };
    expect(outcome(() => compileJsonSchema(parts))).toMatchObject({ code: 'too-large', keyword: 'properties' });
    const fewer = { type: 'object', allOf: Array.from({ length: 1_000 }, (_, i) => ({ required: [`k${i}`] })) };
    expect(
      recognizeGbnf(
        compileJsonSchema(fewer).grammar,
        `{${Array.from({ length: 1_000 }, (_, i) => `"k${i}":null`).join(',')}}`,
      ),
    ).toBe(true);
  });

  test('a BigInt or a function in a library schema is invalid-input, never a TypeError', () => {
    for (const schema of [
      { enum: ['a', 1n] },
      { const: { a: 1n } },
      { type: 'integer', minimum: 10n },
      { type: 'string', maxLength: 5n },
      { const: () => 1 },
    ]) {
      expect(outcome(() => compileJsonSchema(schema))).toMatchObject({ code: 'invalid-input' });
    }
  });
});
