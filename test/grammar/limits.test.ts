// Limits and hostile inputs: fail fast with a clear error, or compile; never hang.
import {
  ConstraintError,
  checkGbnf,
  compileChoices,
  compileJsonSchema,
  compileRegex,
  recognizeGbnf,
} from '../../src/grammar/index.js';

// Time and memory per call are bounded in hostile.test.ts, in a process of its own.
function outcome<T>(fn: () => T): T | ConstraintError {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof ConstraintError)) throw error;
    return error;
  }
}

test('deeply nested schemas hit the depth limit', () => {
  let schema: unknown = { type: 'string' };
  for (let i = 0; i < 10000; i++) schema = { type: 'object', properties: { a: schema } };
  expect(outcome(() => compileJsonSchema(schema))).toMatchObject({ code: 'too-deep' });
  expect(
    outcome(() =>
      compileJsonSchema({ type: 'array', items: { type: 'array', items: { type: 'string' } } }, { maxDepth: 1 }),
    ),
  ).toMatchObject({
    code: 'too-deep',
  });
});

test('huge enums and choice lists hit the size limit (or compile within it)', () => {
  const values = Array.from({ length: 100000 }, (_, i) => `value-${i}`);
  expect(outcome(() => compileJsonSchema({ enum: values }))).toMatchObject({ code: 'too-large' });
  expect(outcome(() => compileChoices(values))).toMatchObject({ code: 'too-large' });
  expect(outcome(() => compileJsonSchema({ enum: values.slice(0, 5000) }))).toHaveProperty('gbnf');
  expect(outcome(() => compileChoices(values.slice(0, 10), { limits: { maxGrammarChars: 50 } }))).toMatchObject({
    code: 'too-large',
  });
});

test('an object of more properties than the limit is refused before any is compiled, naming properties', () => {
  const many = (n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string', pattern: '^[a-z]+$' }]));
  // 100,000 of them are 4 MB of JSON text: refused by the size of the input, after reading about a
  // quarter of them once (#48).
  expect(outcome(() => compileJsonSchema({ type: 'object', properties: many(100_000) }))).toMatchObject({
    code: 'too-large',
    message: expect.stringMatching(/the schema is more than 1000000 characters as JSON text/),
  });
  // 10,000 fit in the size: each property's schema is read once (measured as text), none compiled.
  let reads = 0;
  const counted = Object.fromEntries(
    Object.entries(many(10_000)).map(([name, schema]) => [
      name,
      new Proxy(schema, { get: (target, key) => (reads++, Reflect.get(target, key)) }),
    ]),
  );
  expect(outcome(() => compileJsonSchema({ type: 'object', properties: counted }))).toMatchObject({
    code: 'too-large',
    keyword: 'properties',
    message: expect.stringMatching(
      /an object of 10000 properties \(properties and required\) is above the limit of 2000/,
    ),
  });
  expect(reads).toBe(2 * 10_000);
  expect(outcome(() => compileJsonSchema({ type: 'object', properties: many(2000) }))).toHaveProperty('gbnf');
  expect(outcome(() => compileJsonSchema({ type: 'object', properties: many(2001) }))).toMatchObject({
    code: 'too-large',
    keyword: 'properties',
  });
});

test('10 KB regexes compile quickly, or are refused quickly when llama.cpp would read them in too many ways (#54)', () => {
  expect(outcome(() => compileRegex('(ab|cd)*x[a-z]{2,5}'.repeat(500)))).toHaveProperty('gbnf');
  expect(outcome(() => compileRegex('(ab|cd)*[a-z]{2,5}'.repeat(500)))).toMatchObject({
    code: 'too-large',
    message: expect.stringMatching(/too ambiguous/),
  });
  expect(outcome(() => compileRegex('[^a-z\\d]+?x'.repeat(900)))).toHaveProperty('gbnf');
  // After 'a', every one of 2,500 `a?` could have read it: 2,500 parses for llama.cpp.
  expect(outcome(() => compileRegex('a?b?'.repeat(2500)))).toMatchObject({
    code: 'too-large',
    message: expect.stringMatching(/too ambiguous/),
  });
  expect(outcome(() => compileRegex('a?b?'.repeat(10)))).toHaveProperty('gbnf');
});

test('nested repetitions that llama.cpp would unroll past the limit are rejected', () => {
  expect(outcome(() => compileRegex('((a{1000}){1000}){1000}'))).toMatchObject({ code: 'too-large' });
  expect(outcome(() => compileRegex('a{1000000}'))).toHaveProperty('gbnf');
});

test('nested $ref/anyOf stays linear; distributed anyOf products are capped', () => {
  const defs: Record<string, unknown> = { d25: { type: 'integer' } };
  for (let i = 0; i < 25; i++)
    defs[`d${i}`] = {
      anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { type: 'object', properties: { x: { $ref: `#/$defs/d${i + 1}` } } }],
    };
  const compiled = outcome(() => compileJsonSchema({ $defs: defs, $ref: '#/$defs/d0' }));
  expect(compiled).toHaveProperty('gbnf');
  expect((compiled as { gbnf: string }).gbnf.length).toBeLessThan(20000);
  const product = {
    allOf: Array.from({ length: 12 }, (_, i) => ({
      anyOf: [{ properties: { [`a${i}`]: { type: 'integer' } } }, { properties: { [`b${i}`]: { type: 'integer' } } }],
    })),
  };
  expect(outcome(() => compileJsonSchema(product))).toMatchObject({ code: 'too-large', keyword: 'anyOf' });
});

test('property counting over many optional properties is bounded', () => {
  const properties = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, { type: 'integer' }]));
  expect(outcome(() => compileJsonSchema({ type: 'object', properties, maxProperties: 100 }))).toMatchObject({
    code: 'too-large',
  });
  expect(outcome(() => compileJsonSchema({ type: 'object', properties }))).toHaveProperty('gbnf');
});

test('recursion without a way out is an error, not a hang', () => {
  expect(outcome(() => compileJsonSchema({ $ref: '#' }))).toBeInstanceOf(ConstraintError);
  expect(
    outcome(() =>
      compileJsonSchema({ $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' }),
    ),
  ).toBeInstanceOf(ConstraintError);
  expect(
    outcome(() => compileJsonSchema({ type: 'object', properties: { n: { $ref: '#' } }, required: ['n'] })),
  ).toMatchObject({ code: 'unsatisfiable' });
  // A schema that is only itself: the reference is kept (not merged open), and refused as the left recursion it is.
  expect(
    outcome(() => compileJsonSchema({ $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' })),
  ).toMatchObject({
    code: 'invalid-gbnf',
    message: expect.stringMatching(/left recursion/),
  });
});

test('huge string and integer bounds compile to small grammars', () => {
  expect(
    (outcome(() => compileJsonSchema({ type: 'string', maxLength: 1000000 })) as { gbnf: string }).gbnf.length,
  ).toBeLessThan(1000);
  expect(
    (outcome(() => compileJsonSchema({ type: 'integer', minimum: -1e20, maximum: 1e25 })) as { gbnf: string }).gbnf
      .length,
  ).toBeLessThan(5000);
});

test('integer bounds of 308 digits compile to exact digit ranges', () => {
  // Compile time doubled per digit before (20 digits 2.6 s; 308 never finished).
  const { grammar } = compileJsonSchema({ type: 'integer', minimum: -1e308, maximum: 1e308 });
  const max = BigInt(1e308);
  expect(recognizeGbnf(grammar, String(max))).toBe(true);
  expect(recognizeGbnf(grammar, String(-max))).toBe(true);
  expect(recognizeGbnf(grammar, String(max + 1n))).toBe(false);
  expect(recognizeGbnf(grammar, '9'.repeat(308))).toBe(true);
  expect(recognizeGbnf(grammar, '0')).toBe(true);
});

test('long property names with additional properties compile (#25: 43 s, 2^length)', () => {
  const { grammar } = compileJsonSchema({
    type: 'object',
    properties: { created_at_datetime: { type: 'string' } },
    additionalProperties: true,
  });
  expect(recognizeGbnf(grammar, '{"created_at_datetime":"x","created_at":1}')).toBe(true);
  expect(recognizeGbnf(grammar, '{"created_at_datetime":"x","created_at_datetime":1}')).toBe(false);
});

describe('hostile schemas are ConstraintErrors (SQLSTATE 22023/54000), never TypeError, URIError or RangeError', () => {
  const caught = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (error) {
      return error;
    }
    return undefined;
  };

  test('a $ref with bad percent-encoding is unresolved-ref (was URIError)', () => {
    const error = caught(() => compileJsonSchema({ $ref: '#/%zz' }));
    expect(error).toBeInstanceOf(ConstraintError);
    expect(error).toMatchObject({
      code: 'unresolved-ref',
      keyword: '$ref',
      message: expect.stringMatching(/percent-encoding/),
    });
  });

  test.each(['toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'constructor', 'isPrototypeOf', '__proto__'])(
    'a keyword named %s is an unknown keyword, like any other (was dropped, or a TypeError)',
    (keyword) => {
      const schema = JSON.parse(`{"type":"string",${JSON.stringify(keyword)}:1}`);
      expect(Object.prototype.hasOwnProperty.call(schema, keyword)).toBe(true);
      expect(recognizeGbnf(compileJsonSchema(schema).grammar, '"x"')).toBe(true);
      const error = caught(() => compileJsonSchema(schema, { strict: true }));
      expect(error).toBeInstanceOf(ConstraintError);
      expect(error).toMatchObject({ code: 'unsupported-keyword', keyword, pointer: `/${keyword}` });
    },
  );

  test('properties named __proto__ or toString are ordinary properties, merged by allOf too', () => {
    const own = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}');
    expect(recognizeGbnf(compileJsonSchema(own).grammar, '{"__proto__":"x"}')).toBe(true);
    const merged = JSON.parse(
      '{"allOf":[{"properties":{"__proto__":{"type":"string"}}},{"properties":{"toString":{"type":"integer"},"a":{"type":"null"}}}]}',
    );
    const { grammar } = compileJsonSchema(merged);
    expect(recognizeGbnf(grammar, '{"__proto__":"x","toString":1,"a":null}')).toBe(true);
    expect(recognizeGbnf(grammar, '{"toString":"x"}')).toBe(false);
  });

  test('a format named like a prototype member is an unknown format', () => {
    expect(caught(() => compileJsonSchema({ type: 'string', format: 'constructor' }, { strict: true }))).toMatchObject({
      code: 'unsupported-format',
    });
    expect(compileJsonSchema({ type: 'string', format: 'constructor' }).approximations).toMatchObject([
      { keyword: 'format' },
    ]);
  });

  test('allOf of 60 anyOf pairs is too-large before the product is built (was out of memory)', () => {
    const pairs = {
      allOf: Array.from({ length: 60 }, (_, i) => ({
        anyOf: [{ properties: { [`a${i}`]: { type: 'integer' } } }, { properties: { [`b${i}`]: { type: 'integer' } } }],
      })),
    };
    expect(caught(() => compileJsonSchema(pairs))).toMatchObject({
      code: 'too-large',
      keyword: 'anyOf',
      message: expect.stringMatching(/512 alternatives/),
    });
  });

  test('a $ref into a part the grammar does not compile is keyword-checked too (was dropped silently)', () => {
    expect(caught(() => compileJsonSchema({ not: { foo: 1 }, $ref: '#/not' }, { strict: true }))).toMatchObject({
      code: 'unsupported-keyword',
      keyword: 'foo',
      pointer: '/not/foo',
    });
    expect(compileJsonSchema({ not: { type: 'null' }, properties: { a: { $ref: '#/not' } } }).gbnf).toMatch(/null/);
  });

  test('unions that recompile their siblings once per branch, nested, are too-large (20 levels took 58 s)', () => {
    let schema: unknown = { type: 'integer' };
    for (let i = 0; i < 20; i++)
      schema = {
        type: 'object',
        properties: { p: schema, q: { type: 'string' } },
        anyOf: [{ required: ['p'] }, { required: ['q'] }],
      };
    expect(caught(() => compileJsonSchema(schema))).toMatchObject({
      code: 'too-large',
      message: expect.stringMatching(/times its size/),
    });
    // Six levels are fine.
    let small: unknown = { type: 'integer' };
    for (let i = 0; i < 6; i++)
      small = {
        type: 'object',
        properties: { p: small, q: { type: 'string' } },
        anyOf: [{ required: ['p'] }, { required: ['q'] }],
      };
    expect(compileJsonSchema(small).gbnf).toMatch(/^root ::= /);
  });

  test('enum values too costly to check against the rest of the schema are left to the validator', () => {
    // Nested repetitions cost the recognizer a power of the value's length: 3,000 characters hung.
    const compiled = compileJsonSchema({ enum: ['a'.repeat(3000), 'b'], pattern: '^((ab|a)+)+$' });
    expect(compiled.approximations).toContainEqual(expect.objectContaining({ keyword: 'enum', pointer: '' }));
    expect(recognizeGbnf(compiled.grammar, JSON.stringify('a'.repeat(3000)))).toBe(true);
  });

  test('a tuple of 2,000 $refs and a 1,000-character property name compile (the tuple overflowed the stack, the name took 2^1000)', () => {
    const $defs: Record<string, unknown> = { d0: { type: 'null' } };
    for (let i = 1; i <= 2000; i++) $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { type: 'integer' }] };
    const chain = compileJsonSchema({
      $defs,
      type: 'array',
      prefixItems: Array.from({ length: 2001 }, (_, i) => ({ $ref: `#/$defs/d${i}` })),
    });
    expect(chain.grammar.rules.size).toBeGreaterThan(2000);
    // The recognizer (a test tool) recurses along the whole nesting, so it checks a shorter tuple.
    const tuple = compileJsonSchema({
      type: 'array',
      prefixItems: Array.from({ length: 300 }, () => ({ type: 'integer' })),
    });
    expect(recognizeGbnf(tuple.grammar, `[${'1,'.repeat(299)}1]`)).toBe(true);
    expect(recognizeGbnf(tuple.grammar, `[${'1,'.repeat(300)}1]`)).toBe(false);
    expect(recognizeGbnf(tuple.grammar, '[1,2]')).toBe(true);
    expect(tuple.gbnf).toMatch(/-from-256 ::= /);
    const objectWith = (name: string) =>
      compileJsonSchema({ type: 'object', properties: { [name]: { type: 'integer' } }, additionalProperties: true });
    // Compiled for the 1,000-character name; checked with a 200-character one: the recognizer recurses a
    // few frames per character of the name (the grammar of "any other key" nests one level a character),
    // and 1,000 overflowed the stack whenever its code had not been optimized yet (a loaded machine).
    const long = objectWith('k'.repeat(1_000));
    const name = 'k'.repeat(200);
    const { grammar, gbnf } = objectWith(name);
    // Linear in the name (about 100 characters of GBNF a character of it), not 2^length.
    expect(long.gbnf.length).toBeLessThan(6 * gbnf.length);
    expect(recognizeGbnf(grammar, `{"${name}":1,"${name.slice(1)}":2}`)).toBe(true);
    expect(recognizeGbnf(grammar, `{"${name}":1,"${name}":2}`)).toBe(false);
  });

  test('GBNF nested deeper than 1,000 groups is invalid-gbnf', () => {
    expect(caught(() => checkGbnf('root ::= ' + '('.repeat(5000) + '"a"' + ')'.repeat(5000)))).toMatchObject({
      code: 'invalid-gbnf',
    });
    expect(checkGbnf('root ::= ' + '('.repeat(500) + '"a"' + ')'.repeat(500)).rules.size).toBe(1);
  });
});
