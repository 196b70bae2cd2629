// Issue #48's defects of the constraint compiler, and issue #43's compile-time bounds (point 7): no
// false refusals, declared names keep their schema, recursion through allOf stays linear, merges and
// pattern tests are bounded, and the size of the input is bounded before it is walked. Time is
// bounded in hostile.test.ts (CPU per case, in a process of its own); here each case must finish
// (jest's timeout) with the outcome it should have.
import {
  ConstraintError,
  compileJsonSchema,
  recognizeGbnf,
  sampleGbnf,
  seededRandom,
} from '../../src/grammar/index.js';
import { jreleaserShape, sharedObjects, allOfChain } from './hostile-inputs.js';

function outcome<T>(fn: () => T): T | ConstraintError {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof ConstraintError)) throw error;
    return error;
  }
}

describe('the grammar character count counts only rules that reach the grammar (#48)', () => {
  test("jreleaser's shape compiles: parts merged with definitions that match nothing are dropped, and their rules do not count", () => {
    // 80 definitions of 60 properties; 80 more properties merge each definition with parts that make
    // it match nothing (optional: left out). The grammar is about 850,000 characters; counting the
    // rules of the dropped parts too refused it as "more than 1,000,000".
    const compiled = compileJsonSchema(jreleaserShape(80, 60));
    expect(compiled.gbnf.length).toBeGreaterThan(800_000);
    expect(compiled.gbnf.length).toBeLessThan(1_000_000);
    expect(recognizeGbnf(compiled.grammar, '{"def0":{"field0_0":"a"}}')).toBe(true);
  });

  test('a small limit shows it: the dropped parts alone are past it, the grammar is not', () => {
    const schema = {
      type: 'object',
      properties: {
        kept: { type: 'string', maxLength: 3 },
        // Optional and unsatisfiable (a required name nothing allows): left out after its members were built.
        dropped: {
          type: 'object',
          properties: { big: { type: 'integer', minimum: 1234567890123, maximum: 8765432109876 } },
          required: ['missing'],
          additionalProperties: false,
        },
        // An enum value checked against the rest of its schema: that rest's rules never reach the grammar.
        checked: { type: 'integer', minimum: 1234567, maximum: 8765432109, enum: [12345678] },
      },
    };
    const { gbnf } = compileJsonSchema(schema);
    expect(gbnf.length).toBeLessThan(400);
    expect(outcome(() => compileJsonSchema(schema, { limits: { maxGrammarChars: 400 } }))).toHaveProperty('gbnf', gbnf);
  });
});

describe('enum and const values are checked against the rest of the schema as the specification reads it (#48)', () => {
  test('nested patternProperties: a member no pattern names is allowed (objects are open to the specification)', () => {
    const schema = { patternProperties: { '^a$': { patternProperties: { '^x$': {} } } }, const: { a: { b: 1 } } };
    const compiled = compileJsonSchema(schema);
    expect(recognizeGbnf(compiled.grammar, '{"a":{"b":1}}')).toBe(true);
    expect(compiled.validate('{"a":{"b":1}}').ok).toBe(true);
  });

  test('a value of a type the keywords do not name, and an array past a tuple, are kept', () => {
    expect(recognizeGbnf(compileJsonSchema({ minimum: 0, const: 'x' }).grammar, '"x"')).toBe(true);
    expect(
      recognizeGbnf(
        compileJsonSchema({ prefixItems: [{ type: 'integer' }], enum: [[1, 'two'], ['one']] }).grammar,
        '[1,"two"]',
      ),
    ).toBe(true);
    // What the specification rejects is still dropped.
    expect(
      recognizeGbnf(
        compileJsonSchema({ prefixItems: [{ type: 'integer' }], enum: [[1, 'two'], ['one']] }).grammar,
        '["one"]',
      ),
    ).toBe(false);
    expect(
      outcome(() => compileJsonSchema({ type: 'object', properties: { a: { type: 'string' } }, const: { a: 1 } })),
    ).toMatchObject({
      code: 'unsatisfiable',
    });
  });

  test('the grammar a model writes is unchanged: objects stay closed by default', () => {
    const compiled = compileJsonSchema({
      type: 'object',
      properties: { a: { type: 'integer', enum: [1, 2] }, b: { type: 'object', properties: { c: {} } } },
    });
    expect(recognizeGbnf(compiled.grammar, '{"a":1,"b":{"c":true}}')).toBe(true);
    expect(recognizeGbnf(compiled.grammar, '{"a":1,"b":{"d":true}}')).toBe(false);
  });
});

describe('a declared name is written with its own schema, never by a pattern alone (#48)', () => {
  const schema = {
    type: 'object',
    properties: { id: { type: 'string', pattern: '^[0-9a-f]+$' }, ID: { type: 'string' } },
    patternProperties: { '^[a-z]+$': { type: 'integer' } },
  };

  test('the pattern writes no key a declared property takes', () => {
    const compiled = compileJsonSchema(schema);
    expect(recognizeGbnf(compiled.grammar, '{"id":12}')).toBe(false);
    expect(compiled.validate('{"id":12}').ok).toBe(false);
    expect(recognizeGbnf(compiled.grammar, '{"ID":"x","id":12}')).toBe(false);
    for (const text of ['{"i":1}', '{"idx":2}', '{"di":3}', '{"ID":"ff","name":4}', '{"abc":5,"xyz":6}']) {
      expect({ text, grammar: recognizeGbnf(compiled.grammar, text), validator: compiled.validate(text).ok }).toEqual({
        text,
        grammar: true,
        validator: true,
      });
    }
    // `id` also matches the pattern, whose schema the specification applies as well: a string that
    // is an integer matches nothing, so the optional `id` is never written.
    expect(compiled.validate('{"id":"0a"}').ok).toBe(false);
    expect(recognizeGbnf(compiled.grammar, '{"id":"0a"}')).toBe(false);
    // Nor does a sampled output ever spell a declared name with the pattern's schema.
    const random = seededRandom(48);
    for (let i = 0; i < 200; i++) {
      const text = sampleGbnf(compiled.grammar, random, { maxExtraRepeats: 3 });
      expect({ text, ok: compiled.validate(text).ok }).toEqual({ text, ok: true });
    }
  });

  test('also a required name only the patterns allow, and names of escapes and astral characters', () => {
    const compiled = compileJsonSchema({
      type: 'object',
      properties: { 'é"\\😀': { type: 'boolean' } },
      required: ['name'],
      patternProperties: { '^.+$': { type: ['integer', 'boolean'] } },
    });
    expect(recognizeGbnf(compiled.grammar, '{"é\\"\\\\😀":true,"name":1}')).toBe(true);
    expect(recognizeGbnf(compiled.grammar, '{"é\\"\\\\😀":true,"name":1,"é\\"\\\\😀":2}')).toBe(false);
    expect(recognizeGbnf(compiled.grammar, '{"name":1,"name":2}')).toBe(false);
    expect(recognizeGbnf(compiled.grammar, '{"name":1,"nam":2,"names":3,"é\\"\\\\":4}')).toBe(true);
  });

  test('names the pattern does not match leave its keys as they were', () => {
    const plain = compileJsonSchema({ type: 'object', patternProperties: { '^x-': {} } }).gbnf;
    const withDeclared = compileJsonSchema({
      type: 'object',
      properties: { name: {} },
      patternProperties: { '^x-': {} },
    }).gbnf;
    const key = (gbnf: string) =>
      gbnf
        .split('\n')
        .find((line) => line.includes('pattern-key ::='))!
        .replace(/^\S+/, '');
    expect(key(withDeclared)).toBe(key(plain));
  });
});

describe('recursion through a two-part allOf compiles linearly (#48)', () => {
  const list = (extra: object = {}) => ({
    $defs: {
      node: {
        type: 'object',
        properties: {
          value: { type: 'integer' },
          next: { allOf: [{ $ref: '#/$defs/node' }, { required: ['value'] }] },
        },
        ...extra,
      },
    },
    $ref: '#/$defs/node',
  });

  test('compiles, and the grammar follows the recursion', () => {
    const compiled = compileJsonSchema(list());
    expect(recognizeGbnf(compiled.grammar, '{"value":1,"next":{"value":2,"next":{"value":3}}}')).toBe(true);
    expect(recognizeGbnf(compiled.grammar, '{"value":1,"next":{"value":2,"next":{}}}')).toBe(false);
    expect(recognizeGbnf(compiled.grammar, '{}')).toBe(true);
  });

  test('its size does not grow with the depth limit', () => {
    const shallow = compileJsonSchema(list(), { maxDepth: 16 }).gbnf;
    const deep = compileJsonSchema(list(), { maxDepth: 64 }).gbnf;
    expect(deep).toBe(shallow);
    expect(deep.length).toBeLessThan(600);
  });

  test('so does recursion through a $ref with siblings, and mutual recursion', () => {
    const siblings = compileJsonSchema({
      $defs: {
        node: {
          type: 'object',
          properties: { next: { $ref: '#/$defs/node', required: ['id'] }, id: { type: 'string' } },
        },
      },
      $ref: '#/$defs/node',
    });
    expect(recognizeGbnf(siblings.grammar, '{"next":{"next":{"id":"a"},"id":"b"}}')).toBe(true);
    expect(recognizeGbnf(siblings.grammar, '{"next":{"next":{}}}')).toBe(false);
    const mutual = compileJsonSchema({
      $defs: {
        a: { type: 'object', properties: { b: { allOf: [{ $ref: '#/$defs/b' }, { minProperties: 1 }] } } },
        b: { type: 'object', properties: { a: { allOf: [{ $ref: '#/$defs/a' }, { type: 'object' }] } } },
      },
      $ref: '#/$defs/a',
    });
    expect(recognizeGbnf(mutual.grammar, '{"b":{"a":{"b":{"a":{}}}}}')).toBe(true);
  });
});

describe('compiling is bounded for every input (#43 point 7)', () => {
  test('definitions chained as {allOf: [{$ref: next}, {$ref: next}]}: 16 and 40 levels compile (a part met twice is merged once)', () => {
    for (const levels of [16, 40]) {
      const compiled = compileJsonSchema(allOfChain(levels, 'same'));
      expect(recognizeGbnf(compiled.grammar, '7')).toBe(true);
    }
  });

  test('chains whose parts differ are merged within the work bound: compiled or refused as too-large', () => {
    for (const levels of [16, 40]) {
      for (const kind of ['pair', 'properties'] as const) {
        const result = outcome(() => compileJsonSchema(allOfChain(levels, kind)));
        if (result instanceof ConstraintError) expect(result.code).toMatch(/too-large|too-deep/);
        else expect(result.gbnf.length).toBeGreaterThan(0);
      }
    }
  });

  test('a required name only patternProperties allow is tested by automaton, not a backtracking RegExp', () => {
    for (const n of [28, 30, 10_000]) {
      // ^(a+)+$ against a…a! : the name does not match, so it takes additionalProperties (absent: any value).
      const compiled = compileJsonSchema({
        type: 'object',
        patternProperties: { '^(a+)+$': { type: 'integer' } },
        required: ['a'.repeat(n) + '!'],
      });
      expect(recognizeGbnf(compiled.grammar, `{"${'a'.repeat(n)}!":"s"}`)).toBe(true);
    }
    // A name that matches takes the pattern's schema.
    const matching = compileJsonSchema({
      type: 'object',
      patternProperties: { '^(a+)+$': { type: 'integer' } },
      required: ['a'.repeat(30)],
    });
    expect(recognizeGbnf(matching.grammar, `{"${'a'.repeat(30)}":1}`)).toBe(true);
    expect(recognizeGbnf(matching.grammar, `{"${'a'.repeat(30)}":"s"}`)).toBe(false);
  });

  test('the automaton counts in the work bound: a pattern of thousands of parses per character is refused, not run for seconds', () => {
    expect(
      outcome(() =>
        compileJsonSchema({ type: 'object', patternProperties: { '.{0,5000}x': {} }, required: ['a'.repeat(3000)] }),
      ),
    ).toMatchObject({
      code: 'too-large',
    });
  });

  test('a required name tested against a pattern the regex compiler cannot express is refused, naming the pattern', () => {
    expect(
      outcome(() => compileJsonSchema({ type: 'object', patternProperties: { '^(?!x)': {} }, required: ['name'] })),
    ).toMatchObject({
      code: 'unsupported-regex',
      keyword: 'patternProperties',
      pointer: '/patternProperties/^(?!x)',
    });
  });
});

describe('the size of the input is bounded before it is walked (#48)', () => {
  test('a schema past 1,000,000 characters of JSON text is refused, naming the limit', () => {
    const annotations: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++) annotations[`x-annotation-${i}`] = i;
    expect(outcome(() => compileJsonSchema(annotations))).toMatchObject({
      code: 'too-large',
      message: expect.stringMatching(/1000000 characters as JSON text/),
    });
    const defs = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`d${i}`, { type: 'string' }]));
    expect(outcome(() => compileJsonSchema({ type: 'integer', $defs: defs }))).toMatchObject({ code: 'too-large' });
    // The limit is an option, and counts the compact JSON text.
    const small = { type: 'string', maxLength: 5 };
    expect(outcome(() => compileJsonSchema(small, { maxSchemaChars: JSON.stringify(small).length }))).toHaveProperty(
      'gbnf',
    );
    expect(outcome(() => compileJsonSchema(small, { maxSchemaChars: JSON.stringify(small).length - 1 }))).toMatchObject(
      { code: 'too-large' },
    );
  });

  test('an object used in many places counts at each place, as its JSON text would repeat it', () => {
    // 2^40 objects as a tree: refused after reading the limit's worth.
    expect(outcome(() => compileJsonSchema(sharedObjects(40)))).toMatchObject({ code: 'too-large' });
    // Small enough as text: compiles like the same schema as JSON text.
    const shared = sharedObjects(6);
    expect(compileJsonSchema(shared).gbnf).toBe(compileJsonSchema(JSON.parse(JSON.stringify(shared))).gbnf);
  });
});
