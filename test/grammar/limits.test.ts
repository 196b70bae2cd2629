// Limits and hostile inputs: fail fast with a clear error, or compile; never hang.
import { ConstraintError, compileChoices, compileJsonSchema, compileRegex, recognizeGbnf } from '../../src/grammar/index.js';

function fast<T>(fn: () => T, ms = 3000): T | ConstraintError {
  const start = Date.now();
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof ConstraintError)) throw error;
    return error;
  } finally {
    expect(Date.now() - start).toBeLessThan(ms);
  }
}

test('deeply nested schemas hit the depth limit', () => {
  let schema: unknown = { type: 'string' };
  for (let i = 0; i < 10000; i++) schema = { type: 'object', properties: { a: schema } };
  expect(fast(() => compileJsonSchema(schema))).toMatchObject({ code: 'too-deep' });
  expect(fast(() => compileJsonSchema({ type: 'array', items: { type: 'array', items: { type: 'string' } } }, { maxDepth: 1 }))).toMatchObject({ code: 'too-deep' });
});

test('huge enums and choice lists hit the size limit (or compile within it)', () => {
  const values = Array.from({ length: 100000 }, (_, i) => `value-${i}`);
  expect(fast(() => compileJsonSchema({ enum: values }))).toMatchObject({ code: 'too-large' });
  expect(fast(() => compileChoices(values))).toMatchObject({ code: 'too-large' });
  expect(fast(() => compileJsonSchema({ enum: values.slice(0, 5000) }))).toHaveProperty('gbnf');
  expect(fast(() => compileChoices(values.slice(0, 10), { limits: { maxGrammarChars: 50 } }))).toMatchObject({ code: 'too-large' });
});

test('10 KB regexes compile quickly', () => {
  expect(fast(() => compileRegex('(ab|cd)*[a-z]{2,5}'.repeat(500)))).toHaveProperty('gbnf');
  expect(fast(() => compileRegex('[^a-z\\d]+?x'.repeat(900)))).toHaveProperty('gbnf');
  expect(fast(() => compileRegex('a?b?'.repeat(2500)))).toHaveProperty('gbnf');
});

test('nested repetitions that llama.cpp would unroll past the limit are rejected', () => {
  expect(fast(() => compileRegex('((a{1000}){1000}){1000}'))).toMatchObject({ code: 'too-large' });
  expect(fast(() => compileRegex('a{1000000}'))).toHaveProperty('gbnf');
});

test('nested $ref/anyOf stays linear; distributed anyOf products are capped', () => {
  const defs: Record<string, unknown> = { d25: { type: 'integer' } };
  for (let i = 0; i < 25; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { type: 'object', properties: { x: { $ref: `#/$defs/d${i + 1}` } } }] };
  const compiled = fast(() => compileJsonSchema({ $defs: defs, $ref: '#/$defs/d0' }));
  expect(compiled).toHaveProperty('gbnf');
  expect((compiled as { gbnf: string }).gbnf.length).toBeLessThan(20000);
  const product = { allOf: Array.from({ length: 12 }, (_, i) => ({ anyOf: [{ properties: { [`a${i}`]: { type: 'integer' } } }, { properties: { [`b${i}`]: { type: 'integer' } } }] })) };
  expect(fast(() => compileJsonSchema(product))).toMatchObject({ code: 'too-large', keyword: 'anyOf' });
});

test('property counting over many optional properties is bounded', () => {
  const properties = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, { type: 'integer' }]));
  expect(fast(() => compileJsonSchema({ type: 'object', properties, maxProperties: 100 }))).toMatchObject({ code: 'too-large' });
  expect(fast(() => compileJsonSchema({ type: 'object', properties }))).toHaveProperty('gbnf');
});

test('recursion without a way out is an error, not a hang', () => {
  expect(fast(() => compileJsonSchema({ $ref: '#' }))).toBeInstanceOf(ConstraintError);
  expect(fast(() => compileJsonSchema({ $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' }))).toBeInstanceOf(ConstraintError);
  expect(fast(() => compileJsonSchema({ type: 'object', properties: { n: { $ref: '#' } }, required: ['n'] }))).toMatchObject({ code: 'unsatisfiable' });
  expect(fast(() => compileJsonSchema({ $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' }))).toMatchObject({ code: 'too-deep' });
});

test('huge string and integer bounds compile to small grammars', () => {
  expect((fast(() => compileJsonSchema({ type: 'string', maxLength: 1000000 })) as { gbnf: string }).gbnf.length).toBeLessThan(1000);
  expect((fast(() => compileJsonSchema({ type: 'integer', minimum: -1e20, maximum: 1e25 })) as { gbnf: string }).gbnf.length).toBeLessThan(5000);
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
  const { grammar } = compileJsonSchema({ type: 'object', properties: { created_at_datetime: { type: 'string' } }, additionalProperties: true });
  expect(recognizeGbnf(grammar, '{"created_at_datetime":"x","created_at":1}')).toBe(true);
  expect(recognizeGbnf(grammar, '{"created_at_datetime":"x","created_at_datetime":1}')).toBe(false);
});
