// The keyword policy is one table (src/grammar/schema-policy.ts): docs/grammar.md carries it as
// rendered from it, every standard keyword that changes what is valid is in it, and each entry does
// what it says: validated keywords are listed as approximations where they are written, refused ones
// are errors naming them, compiled ones leave nothing to the validator.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConstraintError, compileJsonSchema } from '../../src/grammar/index.js';
import { STANDARD_KEYWORDS } from '../../src/grammar/drafts.js';
import { KEYWORD_POLICY, renderPolicyTable } from '../../src/grammar/schema-policy.js';
import type { KeywordPolicy } from '../../src/grammar/schema-policy.js';

/** Standard keywords that change nothing about what is valid (annotations and identifiers). */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$recursiveAnchor',
  '$vocabulary',
  '$comment',
  '$defs',
  'definitions',
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);

/** A schema using the keyword (and what it needs beside it). */
const EXAMPLES: Record<string, Record<string, unknown>> = {
  uniqueItems: { type: 'array', uniqueItems: true },
  not: { type: 'integer', not: { const: 3 } },
  contains: { type: 'array', contains: { type: 'integer' } },
  minContains: { type: 'array', contains: { type: 'integer' }, minContains: 2 },
  maxContains: { type: 'array', contains: { type: 'integer' }, maxContains: 2 },
  dependentRequired: { type: 'object', properties: { a: {}, b: {} }, dependentRequired: { a: ['b'] } },
  dependentSchemas: { type: 'object', properties: { a: {} }, dependentSchemas: { a: { required: ['a'] } } },
  dependencies: { type: 'object', properties: { a: {}, b: {} }, dependencies: { a: ['b'] } },
  if: { type: 'integer', if: { minimum: 3 } },
  then: { type: 'integer', if: { minimum: 3 }, then: { maximum: 9 } },
  else: { type: 'integer', if: { minimum: 3 }, else: { maximum: 9 } },
  propertyNames: { type: 'object', propertyNames: { maxLength: 3 } },
  patternProperties: { type: 'object', patternProperties: { '^x': { type: 'integer' } } },
  unevaluatedProperties: { type: 'object', properties: { a: {} }, unevaluatedProperties: false },
  unevaluatedItems: { type: 'array', prefixItems: [{}], unevaluatedItems: false },
  oneOf: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
};

test('docs/grammar.md carries the table as rendered from it', () => {
  const docs = readFileSync(join(process.cwd(), 'docs/grammar.md'), 'utf8');
  const block = /<!-- keyword-policy[^>]*-->\n([\s\S]*?)\n<!-- \/keyword-policy -->/.exec(docs);
  expect(block?.[1]).toBe(renderPolicyTable());
});

test('every standard keyword that changes what is valid has a policy', () => {
  const missing = [...STANDARD_KEYWORDS].filter((k) => !ANNOTATIONS.has(k) && !(k in KEYWORD_POLICY));
  expect(missing).toEqual([]);
});

test.each(Object.entries(KEYWORD_POLICY).map(([k, p]) => [k, p as KeywordPolicy]))('%s: %p', (keyword, policy) => {
  if (policy.status === 'validated') {
    const compiled = compileJsonSchema(EXAMPLES[keyword], { additionalProperties: true });
    // draft-07's dependencies is read as its 2020-12 spelling (drafts.ts), and listed so.
    const listed = keyword === 'dependencies' ? 'dependentRequired' : keyword;
    expect(compiled.approximations).toContainEqual(expect.objectContaining({ keyword: listed, pointer: '' }));
  } else if (policy.status === 'refused') {
    let caught: unknown;
    try {
      compileJsonSchema({ [keyword]: '#x' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConstraintError);
    expect(caught).toMatchObject({ code: 'unsupported-keyword', keyword });
  } else {
    // Compiled: what the types it talks about generate is not left to the validator.
    expect(policy.status).toBe('compiled');
    expect(EXAMPLES[keyword]).toBeUndefined();
  }
});

test('compiled keywords, on their own, list nothing for the validator', () => {
  const schema = {
    type: 'object',
    properties: {
      n: { type: 'number', minimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 },
      i: { type: 'integer', maximum: 7, exclusiveMinimum: -3 },
      s: {
        allOf: [
          { type: 'string', pattern: '^[a-z]+$', minLength: 2 },
          { format: 'email', maxLength: 40 },
        ],
      },
      list: { type: 'array', prefixItems: [{ const: 1 }], items: { enum: ['a', 'b'] }, minItems: 1, maxItems: 3 },
      r: { $ref: '#/$defs/r' },
      u: { anyOf: [{ type: 'null' }, { type: 'boolean' }] },
    },
    required: ['n'],
    additionalProperties: { type: 'string' },
    minProperties: 1,
    maxProperties: 4,
    $defs: { r: { type: 'string', maxLength: 3 } },
  };
  expect(compileJsonSchema(schema).approximations).toEqual([]);
});
