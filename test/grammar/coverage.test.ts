// Issue #25: real-world schemas compile, validate and never hang. Each repro the issue names, as it
// was written there; the corpus of real-world-style schemas is checked in real-world.test.ts.
import { ConstraintError, compileJsonSchema, compileRegex, recognizeGbnf } from '../../src/grammar/index.js';
import { compile, schemaConstraint } from '../../src/client/constraint.js';
import { generateJson } from '../../src/client/index.js';

function errorOf(compile: () => unknown): ConstraintError {
  try {
    compile();
  } catch (error) {
    expect(error).toBeInstanceOf(ConstraintError);
    return error as ConstraintError;
  }
  throw new Error('expected a ConstraintError, but it compiled');
}

const accepts = (schema: unknown, text: string) => recognizeGbnf(compileJsonSchema(schema).grammar, text);

describe('1. unknown keywords are annotations; drafts 04 to 2020-12 are recognized', () => {
  const vendor = {
    id: 'http://example.com/a.json',
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
    _format: 'x',
    readonly: true,
    self: { href: 'x' },
    properties: { a: { type: 'string', _uniqueItems: true } },
    required: ['a'],
  };

  test('id, x-*, _format, readonly, self compile and validate; strict refuses them naming keyword and pointer', () => {
    const compiled = compileJsonSchema(vendor);
    expect(accepts(vendor, '{"a":"x"}')).toBe(true);
    expect(compiled.validate('{"a":"x"}')).toMatchObject({ ok: true });
    expect(compiled.validate('{"a":1}')).toMatchObject({ ok: false });
    const error = errorOf(() => compileJsonSchema(vendor, { strict: true }));
    expect(error).toMatchObject({
      code: 'unsupported-keyword',
      keyword: 'x-kubernetes-preserve-unknown-fields',
      pointer: '/x-kubernetes-preserve-unknown-fields',
    });
    // Without a declared draft `id` is draft-04's; after draft-04 it is unknown.
    const d07 = { $schema: 'http://json-schema.org/draft-07/schema#', id: 'x', type: 'string' };
    expect(errorOf(() => compileJsonSchema(d07, { strict: true }))).toMatchObject({ keyword: 'id', pointer: '/id' });
    expect(compileJsonSchema(d07).validate('"s"')).toMatchObject({ ok: true });
    expect(errorOf(() => compileJsonSchema({ type: 'string', readonly: true }, { strict: true }))).toMatchObject({
      keyword: 'readonly',
      pointer: '/readonly',
    });
  });

  test('the library: option strictSchema (a constraint of its own), checked before any model is loaded', async () => {
    const schema = { type: 'integer', 'x-unit': 'cm' };
    expect(compile(schemaConstraint(schema)).check('3')).toMatchObject({ ok: true });
    expect(() => compile(schemaConstraint(schema, true))).toThrow(/unknown keyword 'x-unit'/);
    await expect(generateJson('x', schema, { strictSchema: 'yes' as unknown as boolean })).rejects.toThrow(
      /generateJson: strictSchema must be a boolean/,
    );
  });

  test('standard keywords svc cannot handle stay errors naming keyword and pointer', () => {
    const error = errorOf(() => compileJsonSchema({ type: 'object', properties: { a: { $dynamicRef: '#node' } } }));
    expect(error).toMatchObject({
      code: 'unsupported-keyword',
      keyword: '$dynamicRef',
      pointer: '/properties/a/$dynamicRef',
    });
  });

  test('an unknown format is an annotation (a plain string); strict refuses it', () => {
    const schema = { type: 'string', format: 'color-hex' };
    expect(compileJsonSchema(schema).validate('"red"')).toMatchObject({ ok: true });
    expect(errorOf(() => compileJsonSchema(schema, { strict: true }))).toMatchObject({ code: 'unsupported-format' });
  });

  test('draft-04: id anchors, boolean exclusives, $schema; the validator is exact', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      definitions: { positive: { id: '#positive', type: 'number', minimum: 0, exclusiveMinimum: true } },
      type: 'object',
      properties: { n: { $ref: '#positive' }, k: { type: 'integer', maximum: 10, exclusiveMaximum: true } },
      required: ['n'],
    };
    const compiled = compileJsonSchema(schema);
    expect(compiled.draft).toBe('draft-04');
    expect(compiled.validate('{"n":0.5,"k":9}')).toMatchObject({ ok: true });
    expect(compiled.validate('{"n":0}')).toMatchObject({ ok: false });
    expect(compiled.validate('{"n":1,"k":10}')).toMatchObject({ ok: false });
    expect(accepts(schema, '{"n":1,"k":10}')).toBe(false);
    expect(accepts(schema, '{"n":1,"k":9}')).toBe(true);
  });

  test('draft-06/07 and 2019-09 spellings: dependencies, array items, $recursiveRef refused', () => {
    const d06 = {
      $schema: 'http://json-schema.org/draft-06/schema#',
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
      dependencies: { a: ['b'] },
    };
    expect(compileJsonSchema(d06).draft).toBe('draft-06');
    expect(compileJsonSchema(d06).validate('{"a":1}')).toMatchObject({ ok: false });
    expect(compileJsonSchema(d06).validate('{"a":1,"b":2}')).toMatchObject({ ok: true });
    const d19 = {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'array',
      items: [{ type: 'string' }],
      additionalItems: { type: 'integer' },
      dependentRequired: {},
    };
    expect(compileJsonSchema(d19).draft).toBe('2019-09');
    expect(compileJsonSchema(d19).validate('["a",1]')).toMatchObject({ ok: true });
    expect(compileJsonSchema(d19).validate('["a","b"]')).toMatchObject({ ok: false });
    expect(errorOf(() => compileJsonSchema({ $recursiveRef: '#' }))).toMatchObject({
      code: 'unsupported-keyword',
      keyword: '$recursiveRef',
    });
  });

  test('a $ref into what the rewrite moves (array items, additionalItems, dependencies) still resolves', () => {
    // typescript-eslint's rule options, as ESLint wraps a list of options: "#/items/0/$defs/…" was unresolved-ref.
    const rule = {
      type: 'array',
      items: [
        {
          type: 'object',
          $defs: { kind: { enum: ['array', 'generic'] } },
          properties: { default: { $ref: '#/items/0/$defs/kind' } },
        },
      ],
      minItems: 0,
      maxItems: 1,
    };
    const compiled = compileJsonSchema(rule);
    expect(accepts(rule, '[{"default":"generic"}]')).toBe(true);
    expect(accepts(rule, '[{"default":"x"}]')).toBe(false);
    expect(compiled.validate('[{"default":"array"}]')).toMatchObject({ ok: true });
    expect(compiled.validate('[{"default":"x"}]')).toMatchObject({ ok: false });
    const moved = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: {
        // a property named like a keyword is not a keyword: '#/properties/dependencies' stays as it is
        dependencies: { type: 'boolean' },
        a: { $ref: '#/dependencies/x/properties/y' },
        b: { $ref: '#/properties/list/additionalItems' },
        c: { $ref: '#/properties/dependencies' },
        list: { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'integer' } },
      },
      dependencies: { x: { properties: { y: { type: 'null' } } } },
      required: ['a', 'b', 'c'],
    };
    expect(accepts(moved, '{"a":null,"b":1,"c":true}')).toBe(true);
    expect(accepts(moved, '{"a":null,"b":"s","c":true}')).toBe(false);
    expect(compileJsonSchema(moved).validate('{"a":null,"b":1,"c":true}')).toMatchObject({ ok: true });
    expect(compileJsonSchema(moved).validate('{"a":null,"b":1,"c":1}')).toMatchObject({ ok: false });
  });
});

describe('2. the validator never throws on a schema that compiled, and is exact', () => {
  test('draft-04 $schema', () => {
    const compiled = compileJsonSchema({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' });
    expect(compiled.validate('"x"')).toMatchObject({ ok: true });
  });
  test('boolean exclusiveMinimum on a number', () => {
    const compiled = compileJsonSchema({ type: 'number', minimum: 0, exclusiveMinimum: true });
    expect(compiled.validate('0')).toMatchObject({ ok: false });
    expect(compiled.validate('0.1')).toMatchObject({ ok: true });
  });
  test('a pattern compiled through the non-u fallback', () => {
    const compiled = compileJsonSchema({ type: 'string', pattern: "^[a\\'b]+$" });
    expect(compiled.validate(`"a'b"`)).toMatchObject({ ok: true });
    expect(compiled.validate('"c"')).toMatchObject({ ok: false });
  });
  test('a $ref into an unknown keyword (OpenAPI components/schemas) reaches a schema rewritten like the rest', () => {
    // The walk left components/ as it is, so ajv saw draft-04 spellings there and every output failed
    // ("the schema cannot be checked by the validator: exclusiveMinimum value must be number").
    const schema = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      components: {
        schemas: {
          A: {
            id: 'a',
            type: 'object',
            properties: {
              n: { type: 'number', minimum: 0, exclusiveMinimum: true },
              t: { type: 'array', items: [{ type: 'string' }], additionalItems: false },
              b: { $ref: '#/components/schemas/B' },
            },
            required: ['n'],
          },
          B: { type: 'integer', 'x-unit': 'cm' },
        },
      },
      $ref: '#/components/schemas/A',
    };
    const before = JSON.stringify(schema);
    const compiled = compileJsonSchema(schema);
    expect(compiled.validate('{"n":1,"t":["a"],"b":2}')).toMatchObject({ ok: true });
    expect(compiled.validate('{"n":0}')).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/\/n must be >/) },
    });
    expect(compiled.validate('{"n":1,"t":["a","b"]}')).toMatchObject({ ok: false });
    expect(compiled.validate('{"n":1,"b":"x"}')).toMatchObject({ ok: false });
    expect(accepts(schema, '{"n":1,"t":["a"],"b":2}')).toBe(true);
    expect(accepts(schema, '{"n":1,"t":["a",1]}')).toBe(false);
    expect(JSON.stringify(schema)).toBe(before); // the input is not changed
  });
  test('a malformed keyword left to the validator is invalid-input naming it, not a validator that fails every output', () => {
    // Each compiled before, and ajv then refused the schema ("the schema cannot be checked by the validator").
    const cases: [unknown, string, string][] = [
      [{ type: 'array', uniqueItems: 'true' }, 'uniqueItems', '/uniqueItems'],
      [{ allOf: [{ type: 'array' }, { uniqueItems: 1 }] }, 'uniqueItems', '/allOf/1/uniqueItems'],
      [{ type: 'integer', multipleOf: '2' }, 'multipleOf', '/multipleOf'],
      [{ type: 'array', contains: 5 }, 'contains', '/contains'],
      [{ type: 'array', contains: {}, minContains: '1' }, 'minContains', '/minContains'],
      [{ anyOf: [{ type: 'string', not: 'x' }, { type: 'null' }] }, 'not', '/anyOf/0/not'],
      [{ if: 5, then: { type: 'string' } }, 'if', '/if'],
      [{ type: 'object', propertyNames: 5 }, 'propertyNames', '/propertyNames'],
      [{ type: 'object', unevaluatedProperties: 5 }, 'unevaluatedProperties', '/unevaluatedProperties'],
      [{ type: 'object', dependentRequired: { a: 'b' } }, 'dependentRequired', '/dependentRequired/a'],
      [{ type: 'object', dependencies: { a: 5 } }, 'dependencies', '/dependencies/a'],
      [{ type: 'object', patternProperties: { '^a': 5 } }, 'patternProperties', '/patternProperties/^a'],
      [{ type: 'string', format: 5 }, 'format', '/format'],
      [{ $defs: { x: { $anchor: 'bad anchor!' } } }, '$anchor', '/$defs/x/$anchor'],
    ];
    for (const [schema, keyword, pointer] of cases) {
      expect({ schema, error: errorOf(() => compileJsonSchema(schema)) }).toMatchObject({
        schema,
        error: { code: 'invalid-input', keyword, pointer },
      });
    }
    expect(errorOf(() => compileJsonSchema({ type: 'object', patternProperties: { '[': {} } }))).toMatchObject({
      code: 'invalid-regex',
      pointer: '/patternProperties/[',
    });
  });
  test('in a subschema only the validator reads (not, if, contains, ...), what ajv cannot compile is an error naming it', () => {
    // The compiler never looks there; ajv refused these schemas, or (a $dynamicRef under not) overflowed the stack in validate().
    const cases: [unknown, string, string][] = [
      [{ type: 'string', not: { minLength: '5' } }, 'invalid-input', '/not/minLength'],
      [{ if: { properties: { a: { minimum: 'x' } } }, then: {} }, 'invalid-input', '/if/properties/a/minimum'],
      [{ type: 'array', contains: { enum: 'a' } }, 'invalid-input', '/contains/enum'],
      [{ not: { type: 'any' } }, 'invalid-input', '/not/type'],
      [{ type: 'object', propertyNames: { pattern: '[' } }, 'invalid-regex', '/propertyNames/pattern'],
      [{ not: { $ref: '#/nowhere' } }, 'unresolved-ref', '/not/$ref'],
      [
        { type: 'object', dependentSchemas: { a: { $ref: 'http://example.com/s.json' } } },
        'unresolved-ref',
        '/dependentSchemas/a/$ref',
      ],
      [{ not: { $dynamicRef: '#x' } }, 'unsupported-keyword', '/not/$dynamicRef'],
    ];
    for (const [schema, code, pointer] of cases) {
      expect({ schema, error: errorOf(() => compileJsonSchema(schema)) }).toMatchObject({
        schema,
        error: { code, pointer },
      });
    }
    const fine = compileJsonSchema({
      $defs: { s: { type: 'string' } },
      not: { $ref: '#/$defs/s' },
      if: { required: ['a'] },
      then: { minProperties: 2 },
    });
    expect(fine.validate('1')).toMatchObject({ ok: true });
    expect(fine.validate('"s"')).toMatchObject({ ok: false });
  });
  test('an output nested thousands deep fails validation instead of throwing (ajv ran out of stack)', () => {
    const compiled = compileJsonSchema({
      $defs: { n: { type: 'array', items: { $ref: '#/$defs/n' } } },
      $ref: '#/$defs/n',
    });
    expect(compiled.validate('['.repeat(100) + ']'.repeat(100))).toMatchObject({ ok: true });
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(compiled.validate(deep)).toMatchObject({
      ok: false,
      error: { code: 'validation-failed', message: expect.stringMatching(/nests too deeply/) },
    });
  });
  test('two equal anchors (draft-04 ids copied between definitions): the first is the one, for grammar and validator', () => {
    const schema = {
      definitions: { a: { id: '#foo', type: 'string' }, b: { id: '#foo', type: 'integer' } },
      properties: { x: { $ref: '#foo' } },
    };
    const compiled = compileJsonSchema(schema);
    expect(compiled.validate('{"x":"s"}')).toMatchObject({ ok: true }); // ajv: 'reference "#foo" resolves to more than one schema'
    expect(compiled.validate('{"x":1}')).toMatchObject({ ok: false });
    expect(accepts(schema, '{"x":"s"}')).toBe(true);
    expect(accepts(schema, '{"x":1}')).toBe(false);
  });
  test("draft-03's required: true on a property and string dependencies", () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-03/schema#',
      type: 'object',
      properties: { a: { type: 'string', required: true }, b: { type: 'integer', required: false } },
      dependencies: { b: 'a' },
    };
    const compiled = compileJsonSchema(schema);
    expect(compiled.validate('{"a":"x","b":1}')).toMatchObject({ ok: true });
    expect(compiled.validate('{"b":1}')).toMatchObject({ ok: false });
    expect(accepts(schema, '{"a":"x"}')).toBe(true);
    expect(accepts(schema, '{"b":1}')).toBe(false);
    expect(schema.properties.a.required).toBe(true); // the input is not changed
  });
  test('properties named like Object.prototype members', () => {
    const compiled = compileJsonSchema({
      properties: { constructor: { type: 'string' }, toString: { type: 'integer' } },
    });
    expect(compiled.validate('{}')).toMatchObject({ ok: true });
    expect(compiled.validate('{"constructor":1}')).toMatchObject({ ok: false });
  });
});

describe('4. no crash or internal error', () => {
  test('lengths and repetitions split around 2000 compile (they overflowed the stack)', () => {
    const string = compileJsonSchema({ type: 'string', minLength: 100, maxLength: 2048 });
    expect(recognizeGbnf(string.grammar, JSON.stringify('x'.repeat(2048)))).toBe(true);
    expect(recognizeGbnf(string.grammar, JSON.stringify('x'.repeat(2049)))).toBe(false);
    expect(recognizeGbnf(string.grammar, JSON.stringify('x'.repeat(99)))).toBe(false);
    const regex = compileRegex('a{1500,2500}');
    expect(recognizeGbnf(regex.grammar, 'a'.repeat(2500))).toBe(true);
    expect(recognizeGbnf(regex.grammar, 'a'.repeat(1499))).toBe(false);
  });
  test('no repetition bound in the GBNF exceeds 2000 (`[a-z]{3000}` was left whole)', () => {
    for (const pattern of ['[a-z]{3000}', 'a{4000}', 'a{2000,6000}', 'b{0,3000}']) {
      const bounds = [...compileRegex(pattern).gbnf.matchAll(/\{(\d+)(?:,(\d*))?\}/g)].flatMap((m) => [
        Number(m[1]),
        Number(m[2] ?? 0),
      ]);
      expect(Math.max(...bounds)).toBeLessThanOrEqual(2000);
    }
    expect(recognizeGbnf(compileRegex('[a-z]{3000}').grammar, 'q'.repeat(3000))).toBe(true);
    expect(recognizeGbnf(compileRegex('[a-z]{3000}').grammar, 'q'.repeat(2999))).toBe(false);
  });
  test('two anyOfs referencing one unsatisfiable $ref', () => {
    const schema = {
      $defs: { never: { type: 'string', minLength: 5, maxLength: 2 } },
      type: 'object',
      properties: {
        a: { anyOf: [{ $ref: '#/$defs/never' }, { type: 'null' }] },
        b: { anyOf: [{ $ref: '#/$defs/never' }, { type: 'integer' }] },
      },
      required: ['a', 'b'],
    };
    expect(accepts(schema, '{"a":null,"b":1}')).toBe(true);
  });
});

describe('5. unsatisfiable optional parts are dropped', () => {
  const never = { type: 'string', minLength: 3, maxLength: 1 };
  test('an optional property', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: never } };
    expect(accepts(schema, '{"a":"x"}')).toBe(true);
    expect(accepts(schema, '{}')).toBe(true);
    expect(errorOf(() => compileJsonSchema({ ...schema, required: ['b'] }))).toMatchObject({ code: 'unsatisfiable' });
  });
  test('items of an array whose minItems is 0', () => {
    expect(accepts({ type: 'array', items: never }, '[]')).toBe(true);
    expect(errorOf(() => compileJsonSchema({ type: 'array', items: never, minItems: 1 }))).toMatchObject({
      code: 'unsatisfiable',
    });
  });
  test('an optional allOf extension', () => {
    const schema = {
      allOf: [
        { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
        { properties: { b: never } },
      ],
    };
    expect(accepts(schema, '{"a":1}')).toBe(true);
  });
  test('an additionalProperties schema that matches nothing allows no extra keys', () => {
    expect(
      accepts({ type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: never }, '{"a":1}'),
    ).toBe(true);
  });
});

describe('6. regex fallback (patterns that are valid only without the u flag)', () => {
  test("/\\-./ does not take an astral character for one '.'", () => {
    const { grammar } = compileRegex('\\-.');
    expect(recognizeGbnf(grammar, '-x')).toBe(true);
    expect(recognizeGbnf(grammar, '-😀')).toBe(false);
    expect(new RegExp('^(?:\\-.)$').test('-😀')).toBe(false);
  });
  test('[\\w-.] is a class', () => {
    const compiled = compileJsonSchema({ type: 'string', pattern: '^[\\w-.]+$' });
    expect(recognizeGbnf(compiled.grammar, '"a-b.c_9"')).toBe(true);
    expect(compiled.validate('"a-b.c_9"')).toMatchObject({ ok: true });
  });
  test('an astral literal with a quantifier repeats only its second half without u', () => {
    // /^😀+$/ without u is \uD83D\uDE00+: one 😀, since a lone \uDE00 cannot be generated.
    const { grammar } = compileRegex('\\-😀+');
    expect(recognizeGbnf(grammar, '-😀')).toBe(true);
    expect(recognizeGbnf(grammar, '-😀😀')).toBe(false);
  });
});
