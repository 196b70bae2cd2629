// JSON Schema: each construct and each error.
import { ConstraintError, compileJsonSchema, recognizeGbnf } from '../../src/grammar/index.js';

const accepts = (schema: unknown, text: string, options = {}) =>
  recognizeGbnf(compileJsonSchema(schema, options).grammar, text);

function expectError(schema: unknown, code: string, pointer?: string, keyword?: string, options = {}): ConstraintError {
  let caught: unknown;
  try {
    compileJsonSchema(schema, options);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ConstraintError);
  const error = caught as ConstraintError;
  expect(error.code).toBe(code);
  if (pointer !== undefined) expect(error.pointer).toBe(pointer);
  if (keyword !== undefined) expect(error.keyword).toBe(keyword);
  return error;
}

describe('types and values', () => {
  test('type arrays and nullable unions', () => {
    expect(accepts({ type: ['string', 'null'] }, 'null')).toBe(true);
    expect(accepts({ type: ['string', 'null'] }, '"x"')).toBe(true);
    expect(accepts({ type: ['string', 'null'] }, '1')).toBe(false);
  });
  test('integers never have leading zeros or -0; numbers stay finite', () => {
    expect(accepts({ type: 'integer' }, '007')).toBe(false);
    expect(accepts({ type: 'integer' }, '-0')).toBe(false);
    expect(accepts({ type: 'number' }, '1e999')).toBe(false);
    expect(accepts({ type: 'number' }, '-0.5e-10')).toBe(true);
  });
  test('enum and const of any JSON value, compact', () => {
    expect(accepts({ enum: [{ a: [1, null] }] }, '{"a":[1,null]}')).toBe(true);
    expect(accepts({ enum: [{ a: [1, null] }] }, '{"a": [1,null]}')).toBe(false);
    expect(accepts({ const: 'x' }, '"y"')).toBe(false);
  });
  test('{} and true accept any JSON; false is an error', () => {
    expect(accepts({}, '{"a":[true,{"b":null}]}')).toBe(true);
    expect(accepts(true, '"s"')).toBe(true);
    expectError(false, 'unsatisfiable', '');
    expectError({ type: 'object', properties: { a: false }, required: ['a'] }, 'unsatisfiable', '/properties/a');
  });
});

describe('objects', () => {
  const schema = {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'integer' } },
    required: ['b'],
  };
  test('optional properties are truly optional, in schema order', () => {
    expect(accepts(schema, '{"b":1}')).toBe(true);
    expect(accepts(schema, '{"a":1,"b":2,"c":3}')).toBe(true);
    expect(accepts(schema, '{"b":2,"a":1}')).toBe(false);
    expect(accepts(schema, '{"a":1}')).toBe(false);
  });
  test('optional properties are not written as chained optionals', () => {
    const { gbnf } = compileJsonSchema({
      type: 'object',
      properties: Object.fromEntries('abcdefgh'.split('').map((k) => [k, { type: 'integer' }])),
    });
    expect(gbnf).not.toMatch(/\)\? \(/);
  });
  test('additionalProperties: default none when properties are declared, option allows them', () => {
    expect(accepts(schema, '{"b":1,"z":2}')).toBe(false);
    expect(accepts(schema, '{"b":1,"z":2}', { additionalProperties: true })).toBe(true);
    expect(accepts({ type: 'object' }, '{"z":2}')).toBe(true);
  });
  test('additional keys never repeat a declared key', () => {
    const s = { type: 'object', properties: { ab: { type: 'string' } }, additionalProperties: { type: 'integer' } };
    expect(accepts(s, '{"ab":"x","a":1,"abc":2,"b":3}')).toBe(true);
    expect(accepts(s, '{"ab":"x","ab":1}')).toBe(false);
    expect(accepts(s, '{"ab":1}')).toBe(false);
  });
  test('minProperties/maxProperties count optional and additional properties', () => {
    const s = {
      type: 'object',
      properties: { a: { type: 'null' }, b: { type: 'null' } },
      additionalProperties: { type: 'null' },
      minProperties: 1,
      maxProperties: 2,
    };
    expect(accepts(s, '{}')).toBe(false);
    expect(accepts(s, '{"b":null}')).toBe(true);
    expect(accepts(s, '{"a":null,"x":null}')).toBe(true);
    expect(accepts(s, '{"a":null,"b":null,"x":null}')).toBe(false);
    expectError(
      { type: 'object', properties: { a: {} }, additionalProperties: false, minProperties: 2 },
      'unsatisfiable',
      '',
    );
  });
  test('required properties not declared take additionalProperties', () => {
    expect(accepts({ type: 'object', required: ['x'], additionalProperties: { type: 'integer' } }, '{"x":1}')).toBe(
      true,
    );
    expectError({ type: 'object', required: ['x'], additionalProperties: false }, 'unsatisfiable', '', 'required');
  });
});

describe('arrays', () => {
  test('items with bounds', () => {
    const s = { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 2 };
    expect(accepts(s, '[]')).toBe(false);
    expect(accepts(s, '[1,2]')).toBe(true);
    expect(accepts(s, '[1,2,3]')).toBe(false);
    expectError({ type: 'array', minItems: 3, maxItems: 2 }, 'unsatisfiable', '', 'minItems');
  });
  test('prefixItems and draft-07 items arrays are tuples; extra items only with items', () => {
    expect(accepts({ type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }] }, '[1,"a"]')).toBe(true);
    expect(accepts({ type: 'array', prefixItems: [{ type: 'integer' }] }, '[1,2]')).toBe(false);
    expect(
      accepts({ type: 'array', prefixItems: [{ type: 'integer' }], items: { type: 'null' } }, '[1,null,null]'),
    ).toBe(true);
    expect(
      accepts({ type: 'array', items: [{ type: 'integer' }], additionalItems: { type: 'string' } }, '[1,"a"]'),
    ).toBe(true);
  });
});

describe('strings', () => {
  test('lengths count code points and escapes as one character', () => {
    const s = { type: 'string', minLength: 2, maxLength: 2 };
    expect(accepts(s, '"ab"')).toBe(true);
    expect(accepts(s, '"😀😀"')).toBe(true);
    expect(accepts(s, '"\\n\\u00e9"')).toBe(true);
    expect(accepts(s, '"abc"')).toBe(false);
    expect(accepts(s, '"\\ud83d\\ude00"')).toBe(false); // surrogate escapes are never produced
  });
  test('pattern goes through the regex compiler, escaped for JSON', () => {
    expect(accepts({ type: 'string', pattern: '^a"b\\\\$' }, '"a\\"b\\\\"')).toBe(true);
    expect(accepts({ type: 'string', pattern: 'x' }, '"axb"')).toBe(true);
    expect(accepts({ type: 'string', pattern: '^x' }, '"ax"')).toBe(false);
  });
  test('pattern errors carry the pointer and the regex position', () => {
    const error = expectError(
      { properties: { p: { type: 'string', pattern: 'a(?=b)' } } },
      'unsupported-regex',
      '/properties/p/pattern',
    );
    expect(error.position).toBe(1);
  });
  test('formats', () => {
    expect(accepts({ format: 'date' }, '"2023-02-29"')).toBe(false);
    expect(accepts({ format: 'date' }, '"2024-02-29"')).toBe(true);
    expect(accepts({ format: 'date' }, '"1900-02-29"')).toBe(false);
    expect(accepts({ format: 'ipv4' }, '"256.1.1.1"')).toBe(false);
    expect(accepts({ format: 'uuid' }, '"123e4567-e89b-12d3-a456-426614174000"')).toBe(true);
    expectError({ type: 'string', format: 'no-such-format' }, 'unsupported-format', '/format', 'format', {
      strict: true,
    });
    expect(accepts({ type: 'string', format: 'no-such-format' }, '"any"')).toBe(true);
  });
});

describe('integer bounds are exact digit ranges', () => {
  test.each([
    [0, 9],
    [5, 123],
    [-50, -3],
    [-7, 7],
    [99, 1000],
    [1, 1],
  ])('[%i, %i]', (lo, hi) => {
    const { grammar } = compileJsonSchema({ type: 'integer', minimum: lo, maximum: hi });
    for (let v = lo - 30; v <= hi + 30; v++)
      expect([v, recognizeGbnf(grammar, String(v))]).toEqual([v, v >= lo && v <= hi]);
  });
  test('contradictory bounds are an error', () => {
    expectError({ type: 'integer', minimum: 5, maximum: 4 }, 'unsatisfiable');
  });
});

describe('combinators and refs', () => {
  test('allOf is merged, not concatenated', () => {
    const s = {
      allOf: [
        { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
        { properties: { b: { type: 'string' } }, required: ['b'] },
      ],
    };
    expect(accepts(s, '{"a":1,"b":"x"}')).toBe(true);
    expect(accepts(s, '{"a":1}{"b":"x"}')).toBe(false);
    expectError({ allOf: [{ type: 'string' }, { type: 'integer' }] }, 'unsatisfiable');
  });
  test('anyOf mixed with properties distributes the siblings', () => {
    const s = {
      type: 'object',
      properties: { t: { type: 'string' } },
      required: ['t'],
      anyOf: [{ properties: { t: { const: 'a' } } }, { properties: { t: { const: 'b' } } }],
    };
    expect(accepts(s, '{"t":"a"}')).toBe(true);
    expect(accepts(s, '{"t":"c"}')).toBe(false);
  });
  test('a required property that only patternProperties allows takes the schemas of the patterns it matches (#36)', () => {
    const s = {
      type: 'object',
      patternProperties: { '^line[1-3]$': { type: 'string' } },
      additionalProperties: false,
      required: ['line1'],
    };
    expect(accepts(s, '{"line1":"x"}')).toBe(true);
    expect(accepts(s, '{"line1":5}')).toBe(false);
    expect(compileJsonSchema(s).validate('{"line1":"x"}')).toMatchObject({ ok: true });
    const both = {
      type: 'object',
      patternProperties: { '^n': { type: 'integer' }, '1$': { minimum: 3 } },
      additionalProperties: { type: 'string' },
      required: ['n1'],
    };
    expect(accepts(both, '{"n1":4}')).toBe(true);
    expect(accepts(both, '{"n1":"x"}')).toBe(false);
    expectError({ ...s, required: ['line9'] }, 'unsatisfiable', '', 'required');
  });
  test('keys that only patternProperties allows are generated, with the schema of the pattern that writes them (#36)', () => {
    const lines = {
      type: 'object',
      patternProperties: { '^line[1-3]$': { type: 'string' } },
      additionalProperties: false,
      minProperties: 1,
    };
    const compiled = compileJsonSchema(lines);
    expect(accepts(lines, '{"line2":"x"}')).toBe(true);
    expect(accepts(lines, '{"line1":"a","line3":"b"}')).toBe(true);
    expect(accepts(lines, '{}')).toBe(false);
    expect(accepts(lines, '{"line4":"x"}')).toBe(false);
    expect(accepts(lines, '{"line2":5}')).toBe(false);
    expect(compiled.validate('{"line2":"x"}')).toMatchObject({ ok: true });
    // The grammar cannot keep keys apart: a repeated key is read as JSON.parse and jsonb read it (the last counts).
    expect(accepts(lines, '{"line1":"a","line1":"b"}')).toBe(true);
    expect(compiled.validate('{"line1":"a","line1":"b"}')).toMatchObject({ ok: true, value: { line1: 'b' } });
    const digit = {
      type: 'object',
      patternProperties: { '^[0-9]$': { type: 'integer' } },
      additionalProperties: false,
      const: { '1': 5 },
    };
    expect(accepts(digit, '{"1":5}')).toBe(true);
    expect(accepts(digit, '{"2":5}')).toBe(false);
    // Unanchored patterns match anywhere in the key; beside declared properties, without additionalProperties.
    const tagged = {
      type: 'object',
      properties: { id: { type: 'integer' } },
      required: ['id'],
      patternProperties: { 'x-': { type: 'boolean' } },
    };
    expect(accepts(tagged, '{"id":1,"my-x-tag":true}')).toBe(true);
    expect(accepts(tagged, '{"id":1,"other":true}')).toBe(false);
    // A pattern the regex compiler cannot express writes no keys (the grammar allows less, never more).
    const lookahead = {
      type: 'object',
      patternProperties: { '^(?!a)': { type: 'integer' } },
      additionalProperties: false,
    };
    expect(accepts(lookahead, '{}')).toBe(true);
    expect(accepts(lookahead, '{"b":1}')).toBe(false);
  });
  test.each(['allOf', 'anyOf', 'oneOf'])('recursion through a $ref wrapped in %s stays linear (#36)', (wrap) => {
    const s = {
      $defs: {
        n: { type: 'object', properties: { kids: { type: 'array', items: { [wrap]: [{ $ref: '#/$defs/n' }] } } } },
      },
      $ref: '#/$defs/n',
    };
    const compiled = compileJsonSchema(s);
    expect(compiled.gbnf.length).toBeLessThan(1000);
    expect(accepts(s, '{"kids":[{"kids":[{}]},{}]}')).toBe(true);
    expect(accepts(s, '{"kids":[{"kids":[1]}]}')).toBe(false);
    // With an annotation beside the $ref, and the part's errors at its own pointer.
    expect(
      compileJsonSchema({
        ...s,
        $defs: {
          n: {
            ...s.$defs.n,
            properties: {
              kids: { type: 'array', items: { allOf: [{ $ref: '#/$defs/n' }, { description: 'a child' }] } },
            },
          },
        },
      }).gbnf.length,
    ).toBeLessThan(1000);
    expectError({ allOf: [{ type: 'string', minLength: 3, maxLength: 2 }] }, 'unsatisfiable', '/allOf/0');
  });
  test('format uri takes every form ajv-formats does but IP literals; date-time any number of fraction digits (#36)', () => {
    const uri = { type: 'string', format: 'uri' };
    for (const v of [
      'mailto:a@b.c',
      'urn:isbn:0451450523',
      'file:///etc/passwd',
      'https://user:pw@x.org:8080/a/b?c=d#e',
      'a:/b',
      'tag:x.org,2024:%20y',
    ]) {
      expect({ v, grammar: accepts(uri, JSON.stringify(v)) }).toEqual({ v, grammar: true });
    }
    for (const v of ['no-scheme', '1a:b', 'a:', 'http://x y', 'http://[::1]/'])
      expect({ v, grammar: accepts(uri, JSON.stringify(v)) }).toEqual({ v, grammar: false });
    expect(accepts({ type: 'string', format: 'date-time' }, '"2020-01-01T00:00:00.1234567891234Z"')).toBe(true);
  });
  test('oneOf is recorded as validated', () => {
    expect(
      compileJsonSchema({ oneOf: [{ type: 'string' }, { type: 'integer' }] }).approximations.map((a) => a.keyword),
    ).toContain('oneOf');
  });
  test('recursive $ref compiles to a recursive rule', () => {
    const s = { $defs: { t: { type: 'array', items: { $ref: '#/$defs/t' } } }, $ref: '#/$defs/t' };
    expect(accepts(s, '[[[]],[]]')).toBe(true);
  });
  test('$ref errors', () => {
    expectError({ $ref: '#/$defs/missing' }, 'unresolved-ref', '', '$ref');
    expectError({ $ref: 'https://example.com/other.json' }, 'unresolved-ref');
    expectError({ $ref: '#' }, 'invalid-gbnf');
  });
  test('draft-07 definitions', () => {
    expect(accepts({ definitions: { x: { type: 'boolean' } }, $ref: '#/definitions/x' }, 'true')).toBe(true);
  });
});

describe('keyword policy', () => {
  test('validated keywords are listed with their pointer; number bounds and multipleOf are compiled (#54)', () => {
    const { approximations } = compileJsonSchema({
      type: 'object',
      properties: { n: { type: 'number', multipleOf: 0.5, minimum: 1 }, list: { type: 'array', uniqueItems: true } },
      not: { required: ['x'] },
    });
    expect(approximations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: '', keyword: 'not' }),
        expect.objectContaining({ pointer: '/properties/list', keyword: 'uniqueItems' }),
      ]),
    );
    expect(approximations.map((a) => a.keyword)).not.toContain('multipleOf');
    expect(approximations.map((a) => a.keyword)).not.toContain('minimum');
  });
  test('validation catches what the grammar over-approximates', () => {
    const compiled = compileJsonSchema({ type: 'integer', multipleOf: 5 });
    expect(compiled.validate('10')).toMatchObject({ ok: true, value: 10 });
    const result = compiled.validate('7');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('validation-failed');
      expect(result.error.message).toMatch(/multiple of 5/);
    }
    expect(() => compiled.parse('7')).toThrow(ConstraintError);
    expect(compiled.validate('not json')).toMatchObject({ ok: false });
  });
  test('unknown keywords are annotations; with strict, errors naming keyword and pointer', () => {
    const typo = { type: 'object', properties: { a: { type: 'string', maxLenght: 3 } } };
    expect(accepts(typo, '{"a":"long"}')).toBe(true);
    expectError(typo, 'unsupported-keyword', '/properties/a/maxLenght', 'maxLenght', { strict: true });
    expectError({ $dynamicRef: '#x' }, 'unsupported-keyword', '/$dynamicRef');
  });
  test('declared annotations are accepted', () => {
    expect(() =>
      compileJsonSchema({ 'x-order': 1, type: 'string' }, { annotations: ['x-order'], strict: true }),
    ).not.toThrow();
  });
  test('malformed schemas', () => {
    expectError('string', 'invalid-input');
    expectError({ type: 'strin' }, 'invalid-input', '/type');
    expectError({ required: 'a' }, 'invalid-input', '/required');
    expectError({ anyOf: [] }, 'invalid-input', '/anyOf');
    expectError({ type: 'string', minLength: -1 }, 'invalid-input', '/minLength');
  });
});
