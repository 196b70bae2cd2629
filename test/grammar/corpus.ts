// A corpus of JSON Schemas with valid instances, written in the grammar's property order (schema
// order) so their compact serialization is what the grammar produces. Shared by the completeness
// test, the llama.cpp parse test and bench/grammar.ts.

export interface CorpusEntry {
  name: string;
  schema: unknown;
  /** Valid instances; JSON.stringify of each must be accepted by the grammar. */
  valid: unknown[];
}

const hand: CorpusEntry[] = [
  // type
  { name: 'type null', schema: { type: 'null' }, valid: [null] },
  { name: 'type boolean', schema: { type: 'boolean' }, valid: [true, false] },
  { name: 'type integer', schema: { type: 'integer' }, valid: [0, -7, 123456789012345] },
  { name: 'type number', schema: { type: 'number' }, valid: [0, -1.5, 3.25e-7, 1e21, 42] },
  { name: 'type string', schema: { type: 'string' }, valid: ['', 'hi', 'quote " and \\ and \n', 'é日本😀', '\u2028'] },
  { name: 'type object', schema: { type: 'object' }, valid: [{}, { a: 1, b: [null] }] },
  { name: 'type array', schema: { type: 'array' }, valid: [[], [1, 'a', null, [true], { x: 1 }]] },
  { name: 'type list', schema: { type: ['string', 'integer'] }, valid: ['a', 3] },
  {
    name: 'type list nullable',
    schema: { type: ['object', 'null'], properties: { a: { type: 'integer' } } },
    valid: [null, {}, { a: 1 }],
  },
  { name: 'integer and number', schema: { type: ['integer', 'number'] }, valid: [1, 1.5] },
  // enum / const
  { name: 'enum strings', schema: { enum: ['red', 'green', 'blue'] }, valid: ['red', 'blue'] },
  {
    name: 'enum mixed',
    schema: { enum: [1, 'one', null, true, 2.5, [1, 2], { a: 'b' }] },
    valid: [1, 'one', null, true, 2.5, [1, 2], { a: 'b' }],
  },
  { name: 'enum with type filter', schema: { type: 'string', enum: ['a', 1, 'b'] }, valid: ['a', 'b'] },
  {
    name: 'enum escapes',
    schema: { enum: ['say "hi"', 'back\\slash', 'new\nline', 'ünï'] },
    valid: ['say "hi"', 'back\\slash', 'new\nline', 'ünï'],
  },
  { name: 'const string', schema: { const: 'fixed' }, valid: ['fixed'] },
  { name: 'const object', schema: { const: { a: [1, { b: null }] } }, valid: [{ a: [1, { b: null }] }] },
  { name: 'const null', schema: { const: null }, valid: [null] },
  { name: 'enum and const', schema: { enum: ['a', 'b'], const: 'b' }, valid: ['b'] },
  { name: 'enum with minLength', schema: { enum: ['a', 'bb', 'ccc'], minLength: 2 }, valid: ['bb', 'ccc'] },
  // objects
  {
    name: 'properties required',
    schema: {
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
      required: ['id', 'name'],
    },
    valid: [{ id: 1, name: 'x' }],
  },
  {
    name: 'optional properties',
    schema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' }, c: { type: 'boolean' } } },
    valid: [{}, { a: 1 }, { b: 'x' }, { c: true }, { a: 1, c: false }, { a: 1, b: 'y', c: true }],
  },
  {
    name: 'mixed required optional',
    schema: {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'string' }, c: { type: 'null' } },
      required: ['b'],
    },
    valid: [{ b: '' }, { a: 1, b: 'x' }, { b: 'x', c: null }, { a: 2, b: 'y', c: null }],
  },
  {
    name: 'properties without type',
    schema: { properties: { a: { type: 'integer' } }, required: ['a'] },
    valid: [{ a: 5 }],
  },
  { name: 'required undeclared', schema: { type: 'object', required: ['x'] }, valid: [{ x: 'anything' }, { x: [1] }] },
  {
    name: 'additionalProperties false',
    schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
    valid: [{}, { a: 'z' }],
  },
  {
    name: 'additionalProperties true',
    schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
    valid: [{}, { a: 'z' }, { a: 'z', b: 1, c: [null] }, { other: {} }, { ab: 1 }, { '': 2 }],
  },
  {
    name: 'additionalProperties schema',
    schema: {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
      additionalProperties: { type: 'integer' },
    },
    valid: [{ name: 'n' }, { name: 'n', x: 1, names: 2 }],
  },
  {
    name: 'map of strings',
    schema: { type: 'object', additionalProperties: { type: 'string' } },
    valid: [{}, { a: 'b', 'key with "quote"': 'v' }],
  },
  {
    name: 'minProperties maxProperties',
    schema: {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'integer' } },
      minProperties: 1,
      maxProperties: 2,
    },
    valid: [{ a: 1 }, { b: 2 }, { a: 1, c: 3 }, { b: 1, c: 2 }],
  },
  {
    name: 'maxProperties with extras',
    schema: { type: 'object', additionalProperties: { type: 'boolean' }, maxProperties: 2 },
    valid: [{}, { x: true }, { x: true, y: false }],
  },
  {
    name: 'minProperties zero extras',
    schema: { type: 'object', properties: { a: { type: 'null' } }, minProperties: 1 },
    valid: [{ a: null }],
  },
  {
    name: 'nested objects',
    schema: {
      type: 'object',
      properties: {
        user: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
          required: ['name'],
        },
      },
      required: ['user'],
    },
    valid: [{ user: { name: 'a' } }, { user: { name: 'a', address: { city: 'b' } } }],
  },
  {
    name: 'property named with specials',
    schema: {
      type: 'object',
      properties: { 'a"b': { type: 'integer' }, 'c\\d': { type: 'integer' }, ключ: { type: 'integer' } },
    },
    valid: [{ 'a"b': 1, 'c\\d': 2, ключ: 3 }],
  },
  {
    name: 'property false',
    schema: { type: 'object', properties: { a: false, b: { type: 'integer' } } },
    valid: [{}, { b: 1 }],
  },
  {
    name: 'boolean property schemas',
    schema: { type: 'object', properties: { a: true }, required: ['a'] },
    valid: [{ a: 1 }, { a: 'x' }, { a: { b: [] } }],
  },
  // arrays
  { name: 'items', schema: { type: 'array', items: { type: 'integer' } }, valid: [[], [1], [1, 2, 3]] },
  {
    name: 'minItems maxItems',
    schema: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
    valid: [['a'], ['a', 'b', 'c']],
  },
  {
    name: 'exact items',
    schema: { type: 'array', items: { type: 'boolean' }, minItems: 2, maxItems: 2 },
    valid: [[true, false]],
  },
  {
    name: 'prefixItems',
    schema: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }] },
    valid: [[], [1], [1, 'a']],
  },
  {
    name: 'prefixItems with items',
    schema: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' } },
    valid: [[], ['a'], ['a', 1, 2]],
  },
  {
    name: 'prefixItems minItems',
    schema: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'integer' }], minItems: 2 },
    valid: [[1, 2]],
  },
  {
    name: 'prefixItems items false',
    schema: { type: 'array', prefixItems: [{ const: 'x' }], items: false },
    valid: [[], ['x']],
  },
  {
    name: 'draft-07 array items',
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'integer' }, { type: 'boolean' }],
    },
    valid: [[1, true], [1]],
  },
  {
    name: 'draft-07 additionalItems',
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'integer' }],
      additionalItems: { type: 'string' },
      maxItems: 3,
    },
    valid: [[1], [1, 'a', 'b']],
  },
  { name: 'items without type', schema: { items: { type: 'null' }, maxItems: 2 }, valid: [[], [null, null]] },
  {
    name: 'array of objects',
    schema: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } }, required: ['k'] } },
    valid: [[{ k: 'a' }, { k: 'b' }]],
  },
  {
    name: 'nested arrays',
    schema: { type: 'array', items: { type: 'array', items: { type: 'number' }, maxItems: 2 } },
    valid: [[[1, 2.5], [], [3]]],
  },
  // strings
  { name: 'minLength', schema: { type: 'string', minLength: 3 }, valid: ['abc', 'abcdef', '日本語'] },
  { name: 'maxLength', schema: { type: 'string', maxLength: 2 }, valid: ['', 'a', 'ab', '😀😀'] },
  { name: 'min max length', schema: { type: 'string', minLength: 2, maxLength: 4 }, valid: ['ab', 'a"\\b'] },
  { name: 'long maxLength', schema: { type: 'string', maxLength: 5000 }, valid: ['x'.repeat(4999), ''] },
  { name: 'pattern anchored', schema: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' }, valid: ['ABC-1234'] },
  { name: 'pattern unanchored', schema: { type: 'string', pattern: 'cat' }, valid: ['cat', 'concatenate', 'a cat!'] },
  { name: 'pattern alternation', schema: { type: 'string', pattern: '^(yes|no|maybe)$' }, valid: ['yes', 'maybe'] },
  { name: 'pattern quote', schema: { type: 'string', pattern: '^"[a-z]*"$' }, valid: ['"abc"', '""'] },
  { name: 'pattern negated class', schema: { type: 'string', pattern: '^[^,]+$' }, valid: ['abc', 'a"b', 'tab\there'] },
  { name: 'pattern newline', schema: { type: 'string', pattern: '^a\\nb$' }, valid: ['a\nb'] },
  { name: 'pattern unicode', schema: { type: 'string', pattern: '^\\u00e9+\\u{1F600}?$' }, valid: ['é', 'éé😀'] },
  // formats
  {
    name: 'format date',
    schema: { type: 'string', format: 'date' },
    valid: ['2024-02-29', '2023-12-31', '2000-02-29', '1999-01-01'],
  },
  {
    name: 'format time',
    schema: { type: 'string', format: 'time' },
    valid: ['12:34:56Z', '23:59:59.123+05:30', '00:00:00-08:00'],
  },
  {
    name: 'format date-time',
    schema: { type: 'string', format: 'date-time' },
    valid: ['2024-01-15T10:20:30Z', '2024-01-15T10:20:30.5+01:00'],
  },
  {
    name: 'format uuid',
    schema: { type: 'string', format: 'uuid' },
    valid: ['123e4567-e89b-12d3-a456-426614174000', 'ABCDEF01-2345-6789-ABCD-EF0123456789'],
  },
  {
    name: 'format email',
    schema: { type: 'string', format: 'email' },
    valid: ['john.doe@example.com', 'a+b@sub.domain.org'],
  },
  {
    name: 'format uri',
    schema: { type: 'string', format: 'uri' },
    valid: ['https://example.com', 'http://example.com:8080/a/b?q=1&r=2#frag', 'ftp://files.example.org/pub/file.txt'],
  },
  {
    name: 'format ipv4',
    schema: { type: 'string', format: 'ipv4' },
    valid: ['192.168.0.1', '255.255.255.255', '0.0.0.0'],
  },
  {
    name: 'format ipv6',
    schema: { type: 'string', format: 'ipv6' },
    valid: ['::1', '2001:db8::ff00:42:8329', 'fe80:0:0:0:200:f8ff:fe21:67cf', '::ffff:192.0.2.128'],
  },
  {
    name: 'format hostname',
    schema: { type: 'string', format: 'hostname' },
    valid: ['example.com', 'localhost', 'a-b.c.d'],
  },
  { name: 'format validated', schema: { type: 'string', format: 'duration' }, valid: ['P3D'] },
  // integer ranges
  { name: 'minimum', schema: { type: 'integer', minimum: 5 }, valid: [5, 6, 100, 999999999999999] },
  { name: 'maximum', schema: { type: 'integer', maximum: -5 }, valid: [-5, -6, -100] },
  {
    name: 'min max',
    schema: { type: 'integer', minimum: -12, maximum: 305 },
    valid: [-12, -1, 0, 9, 10, 99, 100, 299, 305],
  },
  {
    name: 'exclusive bounds',
    schema: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 },
    valid: [1, 5, 9],
  },
  { name: 'exclusiveMinimum only', schema: { type: 'integer', exclusiveMinimum: 5 }, valid: [6, 100, 999999999999999] },
  { name: 'fractional integer bounds', schema: { type: 'integer', minimum: 1.5, maximum: 4.5 }, valid: [2, 3, 4] },
  {
    name: 'big bounds',
    schema: { type: 'integer', minimum: 1000000, maximum: 123456789012 },
    valid: [1000000, 99999999, 123456789012, 123456789011],
  },
  { name: 'single integer', schema: { type: 'integer', minimum: 7, maximum: 7 }, valid: [7] },
  // number bounds (over-approximated, validated)
  { name: 'number bounds', schema: { type: 'number', minimum: 0, maximum: 1 }, valid: [0, 0.5, 1] },
  { name: 'number exclusive', schema: { type: 'number', exclusiveMinimum: -1.5 }, valid: [-1, 0, 2.75] },
  { name: 'multipleOf', schema: { type: 'integer', multipleOf: 5 }, valid: [0, 10, -15] },
  // combinators
  {
    name: 'allOf merged',
    schema: {
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: { type: 'integer' } }, required: ['b'] },
      ],
    },
    valid: [{ a: 'x', b: 1 }],
  },
  {
    name: 'allOf bounds',
    schema: { allOf: [{ type: 'integer', minimum: 0 }, { maximum: 10 }, { minimum: 3 }] },
    valid: [3, 10],
  },
  {
    name: 'allOf types',
    schema: { allOf: [{ type: ['string', 'integer'] }, { type: ['integer', 'null'] }] },
    valid: [5],
  },
  {
    name: 'allOf with ref',
    schema: {
      $defs: { base: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
      allOf: [{ $ref: '#/$defs/base' }, { properties: { tag: { type: 'string' } } }],
    },
    valid: [{ id: 1 }, { id: 1, tag: 't' }],
  },
  {
    name: 'allOf additionalProperties interplay',
    schema: {
      allOf: [
        { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: { type: 'integer' } },
        { properties: { b: { type: 'integer' } } },
      ],
    },
    valid: [{}, { a: 1, b: 2 }],
  },
  {
    name: 'allOf items',
    schema: { allOf: [{ type: 'array', items: { type: 'integer' } }, { maxItems: 2 }] },
    valid: [[], [1, 2]],
  },
  {
    name: 'anyOf',
    schema: {
      anyOf: [
        { type: 'string', maxLength: 3 },
        { type: 'integer', minimum: 0, maximum: 9 },
      ],
    },
    valid: ['abc', 7],
  },
  { name: 'oneOf', schema: { oneOf: [{ type: 'boolean' }, { type: 'null' }] }, valid: [true, null] },
  {
    name: 'anyOf with properties',
    schema: {
      type: 'object',
      properties: { kind: { type: 'string' }, size: { type: 'integer' } },
      required: ['kind'],
      anyOf: [
        { properties: { kind: { const: 'box' } }, required: ['size'] },
        { properties: { kind: { const: 'dot' } } },
      ],
    },
    valid: [{ kind: 'box', size: 3 }, { kind: 'dot' }, { kind: 'dot', size: 1 }],
  },
  {
    name: 'oneOf discriminated union',
    schema: {
      oneOf: [
        {
          type: 'object',
          properties: { type: { const: 'cat' }, meows: { type: 'boolean' } },
          required: ['type', 'meows'],
        },
        { type: 'object', properties: { type: { const: 'dog' }, barks: { type: 'integer' } }, required: ['type'] },
      ],
    },
    valid: [{ type: 'cat', meows: true }, { type: 'dog' }, { type: 'dog', barks: 2 }],
  },
  {
    name: 'nullable anyOf',
    schema: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
    valid: ['2020-01-01', null],
  },
  {
    name: 'anyOf and allOf',
    schema: {
      allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { anyOf: [{ type: 'string' }, { type: 'null' }] }],
    },
    valid: ['s'],
  },
  // refs
  {
    name: '$ref $defs',
    schema: { $defs: { pos: { type: 'integer', minimum: 1 } }, type: 'array', items: { $ref: '#/$defs/pos' } },
    valid: [[1, 2]],
  },
  {
    name: '$ref definitions',
    schema: {
      definitions: { name: { type: 'string', minLength: 1 } },
      type: 'object',
      properties: { first: { $ref: '#/definitions/name' }, last: { $ref: '#/definitions/name' } },
      required: ['first'],
    },
    valid: [{ first: 'a' }, { first: 'a', last: 'b' }],
  },
  {
    name: 'recursive tree',
    schema: {
      $defs: {
        tree: {
          type: 'object',
          properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/$defs/tree' } } },
          required: ['value'],
        },
      },
      $ref: '#/$defs/tree',
    },
    valid: [{ value: 1 }, { value: 1, children: [{ value: 2 }, { value: 3, children: [] }] }],
  },
  {
    name: 'recursive linked list',
    schema: {
      $defs: {
        node: {
          type: 'object',
          properties: { v: { type: 'string' }, next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] } },
          required: ['v', 'next'],
        },
      },
      $ref: '#/$defs/node',
    },
    valid: [
      { v: 'a', next: null },
      { v: 'a', next: { v: 'b', next: null } },
    ],
  },
  {
    name: 'recursive root ref',
    schema: { type: 'array', items: { anyOf: [{ type: 'integer' }, { $ref: '#' }] } },
    valid: [[], [1, [2, [3]], []]],
  },
  {
    name: '$ref with siblings',
    schema: { $defs: { s: { type: 'string' } }, $ref: '#/$defs/s', maxLength: 2 },
    valid: ['', 'ab'],
  },
  {
    name: '$anchor ref',
    schema: { $defs: { a: { $anchor: 'thing', type: 'boolean' } }, $ref: '#thing' },
    valid: [true],
  },
  {
    name: 'ref to properties',
    schema: { type: 'object', properties: { a: { type: 'integer' }, b: { $ref: '#/properties/a' } } },
    valid: [{ a: 1, b: 2 }],
  },
  // any / annotations
  { name: 'empty schema', schema: {}, valid: [null, 1, 'x', [], {}, { a: [1, { b: 'c' }] }, true, -2.5e10] },
  { name: 'true schema', schema: true, valid: [null, { a: 1 }] },
  {
    name: 'annotations only',
    schema: { title: 'T', description: 'D', examples: [1], default: 1, $comment: 'c' },
    valid: [1, 'x'],
  },
  {
    name: 'annotated object',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/s',
      title: 'Person',
      type: 'object',
      properties: { n: { type: 'string', description: 'name', deprecated: false } },
    },
    valid: [{ n: 'x' }],
  },
  // validated keywords (grammar over-approximates)
  { name: 'uniqueItems', schema: { type: 'array', items: { type: 'integer' }, uniqueItems: true }, valid: [[1, 2, 3]] },
  { name: 'not', schema: { type: 'string', not: { const: 'forbidden' } }, valid: ['allowed'] },
  { name: 'contains', schema: { type: 'array', items: { type: 'integer' }, contains: { const: 3 } }, valid: [[1, 3]] },
  {
    name: 'dependentRequired',
    schema: {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
      dependentRequired: { a: ['b'] },
    },
    valid: [{}, { a: 1, b: 2 }, { b: 2 }],
  },
  {
    name: 'if then else',
    schema: {
      type: 'object',
      properties: { a: { type: 'integer' } },
      if: { required: ['a'] },
      then: { properties: { a: { minimum: 1 } } },
    },
    valid: [{}, { a: 3 }],
  },
];

// Generated families: each entry still a distinct schema with its own instances.
const integerRanges: [number, number][] = [
  [0, 9],
  [0, 10],
  [1, 99],
  [10, 19],
  [15, 25],
  [-9, 9],
  [-100, -50],
  [99, 101],
  [123, 4567],
  [-1000, 1000],
  [0, 255],
  [1900, 2100],
  [-2147483648, 2147483647],
];
const generated: CorpusEntry[] = [
  ...integerRanges.map(([lo, hi]): CorpusEntry => ({
    name: `integer range ${lo}..${hi}`,
    schema: { type: 'integer', minimum: lo, maximum: hi },
    valid: [
      ...new Set([
        lo,
        hi,
        Math.trunc((lo + hi) / 2),
        Math.min(hi, lo + 1),
        Math.max(lo, hi - 1),
        ...(lo <= 0 && hi >= 0 ? [0] : []),
      ]),
    ],
  })),
  ...[0, 1, 2, 5].flatMap((min) =>
    [min, min + 3].map((max): CorpusEntry => ({
      name: `string length ${min}..${max}`,
      schema: { type: 'string', minLength: min, maxLength: max },
      valid: [
        ...new Set([
          'a'.repeat(min),
          'b'.repeat(max),
          '\\"'
            .repeat(Math.ceil(min / 2))
            .slice(0, Math.max(min, 0))
            .padEnd(min, 'x'),
        ]),
      ],
    })),
  ),
  ...[0, 1, 3].map((min): CorpusEntry => ({
    name: `array minItems ${min}`,
    schema: { type: 'array', items: { type: 'integer' }, minItems: min, maxItems: min + 2 },
    valid: [Array.from({ length: min }, (_, i) => i), Array.from({ length: min + 2 }, (_, i) => -i)],
  })),
];

export const CORPUS: CorpusEntry[] = [...hand, ...generated];
