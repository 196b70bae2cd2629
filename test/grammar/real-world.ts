// Real-world-style schemas (issue #25): the shapes that broke svc on the ~10,000 schemas of the
// JSONSchemaBench collections (GitHub, Kubernetes, Snowplow, Washington Post, JSON Schema Store).
// Provenance: written for svc after the constructs seen there (draft-04 files with `id` and boolean
// exclusives, Snowplow's `self`, Kubernetes' `x-kubernetes-*`, `_format`/`_enum`/`readonly` vendor
// keywords, allOf chains of `$ref`s as in protocol definitions, long property names beside
// `additionalProperties`, deep `$ref` chains, unknown formats, non-`u` patterns); no schema is copied
// from those collections, whose files carry their authors' various licences. Shared by
// real-world.test.ts, llama.test.ts and bench/grammar.ts. Valid instances are written in the
// grammar's property order (schema order), so their compact text is what the grammar produces.
import type { CorpusEntry } from './corpus.js';

const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';
const DRAFT_06 = 'http://json-schema.org/draft-06/schema#';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** A chain of `$defs` each extending the previous one through allOf, `depth` long. */
function refChain(depth: number): unknown {
  const definitions: Record<string, unknown> = {
    Base: { type: 'object', properties: { seq: { type: 'integer', minimum: 0 } }, required: ['seq'] },
  };
  for (let i = 1; i <= depth; i++) {
    definitions[`Level${i}`] = {
      allOf: [
        { $ref: `#/definitions/${i === 1 ? 'Base' : `Level${i - 1}`}` },
        { properties: { [`f${i}`]: { type: 'string' } } },
      ],
    };
  }
  return { $schema: DRAFT_04, definitions, $ref: `#/definitions/Level${depth}` };
}

export const REAL_WORLD: CorpusEntry[] = [
  {
    name: 'draft-04 id, boolean exclusives, definitions',
    schema: {
      $schema: DRAFT_04,
      id: 'http://example.com/schemas/measurement.json#',
      title: 'Measurement',
      type: 'object',
      definitions: { unit: { id: '#unit', type: 'string', enum: ['cm', 'kg', 's'] } },
      properties: {
        value: { type: 'number', minimum: 0, exclusiveMinimum: true },
        percent: { type: 'integer', minimum: 0, maximum: 100, exclusiveMaximum: true },
        unit: { $ref: '#unit' },
      },
      required: ['value', 'unit'],
    },
    valid: [
      { value: 0.5, unit: 'cm' },
      { value: 3, percent: 99, unit: 's' },
    ],
  },
  {
    name: 'draft-04 dependencies and additionalItems',
    schema: {
      $schema: DRAFT_04,
      type: 'object',
      properties: {
        card: { type: 'string' },
        billing: { type: 'string' },
        tags: { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'integer' } },
      },
      dependencies: { card: ['billing'] },
    },
    valid: [{}, { card: 'x', billing: 'y' }, { tags: ['a', 1, 2] }],
  },
  {
    name: 'Snowplow self-describing schema',
    schema: {
      $schema: 'http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#',
      self: { vendor: 'com.example', name: 'page_view', format: 'jsonschema', version: '1-0-0' },
      description: 'A page view',
      type: 'object',
      properties: {
        url: { type: 'string', maxLength: 4096 },
        schema: {
          type: 'string',
          pattern: '^iglu:[a-zA-Z0-9-_.]+/[a-zA-Z0-9-_]+/[a-zA-Z0-9-_]+/[0-9]+-[0-9]+-[0-9]+$',
        },
        durationMs: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647 },
      },
      required: ['url'],
      additionalProperties: false,
    },
    valid: [
      { url: 'https://example.com' },
      { url: '/', schema: 'iglu:com.acme/view/jsonschema/1-0-0', durationMs: null },
    ],
  },
  {
    name: 'Kubernetes-style x-kubernetes vendor keywords',
    schema: {
      description: 'ObjectMeta is metadata that all persisted resources must have.',
      type: 'object',
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'ConfigMap', version: 'v1' }],
      properties: {
        apiVersion: { type: ['string', 'null'], description: 'APIVersion defines the versioned schema' },
        kind: { type: ['string', 'null'], enum: ['ConfigMap'] },
        data: { type: ['object', 'null'], additionalProperties: { type: ['string', 'null'] } },
        immutable: { type: ['boolean', 'null'] },
        labels: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'granular' },
        finalizers: {
          type: 'array',
          items: { type: 'string' },
          'x-kubernetes-patch-strategy': 'merge',
          'x-kubernetes-list-type': 'set',
        },
      },
      'x-kubernetes-preserve-unknown-fields': false,
    },
    valid: [
      {},
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        data: { a: 'b', c: null },
        immutable: false,
        labels: { app: 'web' },
        finalizers: ['x'],
      },
    ],
  },
  {
    name: 'vendor keywords _format, _enum, readonly, javaType',
    schema: {
      type: 'object',
      javaType: 'com.example.Order',
      properties: {
        id: { type: 'string', readonly: true, _format: 'uuid' },
        status: { type: 'string', _enum: ['new', 'paid'], description: 'free text in practice' },
        total: { type: 'number', _uniqueItems: true, 'x-precision': 2 },
      },
      required: ['id'],
    },
    valid: [{ id: 'o-1' }, { id: 'o-2', status: 'shipped', total: 9.5 }],
  },
  {
    name: 'Washington Post-style id and unknown formats',
    schema: {
      id: 'https://example.org/content/story.json',
      type: 'object',
      properties: {
        type: { type: 'string', enum: ['story'] },
        version: { type: 'string', enum: ['0.10.7'] },
        color: { type: 'string', format: 'color-hex' },
        body: { type: 'string', format: 'html' },
        canonical_url: { type: 'string', format: 'uri-reference' },
        last_updated_date: { type: 'string', format: 'date-time' },
      },
      required: ['type', 'version'],
    },
    valid: [
      { type: 'story', version: '0.10.7' },
      {
        type: 'story',
        version: '0.10.7',
        color: '#fff',
        body: '<p>x</p>',
        canonical_url: '/a/b',
        last_updated_date: '2024-01-02T03:04:05Z',
      },
    ],
  },
  {
    name: 'protocol definitions: allOf over a $ref base',
    schema: {
      $schema: DRAFT_04,
      definitions: {
        Message: {
          type: 'object',
          properties: { seq: { type: 'integer' }, type: { type: 'string', _enum: ['request', 'event'] } },
          required: ['seq', 'type'],
        },
        Event: {
          allOf: [
            { $ref: '#/definitions/Message' },
            {
              type: 'object',
              properties: {
                type: { type: 'string', enum: ['event'] },
                event: { type: 'string' },
                body: { type: ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] },
              },
              required: ['type', 'event'],
            },
          ],
        },
        StoppedEvent: {
          allOf: [
            { $ref: '#/definitions/Event' },
            {
              type: 'object',
              properties: {
                event: { type: 'string', enum: ['stopped'] },
                body: {
                  type: 'object',
                  properties: { reason: { type: 'string' }, threadId: { type: 'integer' } },
                  required: ['reason'],
                },
              },
              required: ['event', 'body'],
            },
          ],
        },
      },
      $ref: '#/definitions/StoppedEvent',
    },
    valid: [
      { seq: 1, type: 'event', event: 'stopped', body: { reason: 'step' } },
      { seq: 2, type: 'event', event: 'stopped', body: { reason: 'pause', threadId: 7 } },
    ],
  },
  { name: 'allOf chain of 12 $refs', schema: refChain(12), valid: [{ seq: 0 }, { seq: 3, f1: 'a', f12: 'z' }] },
  {
    name: 'long property names beside additionalProperties',
    schema: {
      type: 'object',
      properties: {
        created_at_datetime: { type: 'string' },
        updated_at_datetime_in_coordinated_universal_time: { type: 'string' },
        an_even_longer_property_name_that_some_api_generators_write_out_in_full: { type: 'boolean' },
      },
      additionalProperties: true,
    },
    valid: [
      {},
      { created_at_datetime: 'x', extra: 1 },
      { an_even_longer_property_name_that_some_api_generators_write_out_in_full: true, created_at: [1] },
    ],
  },
  {
    name: 'additionalProperties schema with patternProperties (OpenAPI map)',
    schema: {
      type: 'object',
      properties: { name: { type: 'string' } },
      patternProperties: { '^x-': {} },
      additionalProperties: {
        type: 'object',
        properties: { $ref: { type: 'string' }, description: { type: 'string' } },
      },
    },
    valid: [{ name: 'n' }, { name: 'n', User: { $ref: '#/components/User' } }],
  },
  {
    name: 'draft-06 const, contains, propertyNames, examples',
    schema: {
      $schema: DRAFT_06,
      $id: 'http://example.com/tags.json',
      type: 'object',
      propertyNames: { pattern: '^[a-z]+$' },
      properties: {
        kind: { const: 'tags' },
        tags: { type: 'array', items: { type: 'string', examples: ['a'] }, contains: { const: 'main' } },
      },
      required: ['kind'],
    },
    valid: [{ kind: 'tags' }, { kind: 'tags', tags: ['main', 'b'] }],
  },
  {
    name: 'draft-07 if/then/else and definitions $ref with siblings',
    schema: {
      $schema: DRAFT_07,
      definitions: { code: { type: 'string', pattern: '^[A-Z]{2}$' } },
      type: 'object',
      properties: { country: { $ref: '#/definitions/code', description: 'ISO 3166' }, postcode: { type: 'string' } },
      if: { properties: { country: { const: 'US' } } },
      then: { properties: { postcode: { pattern: '^[0-9]{5}$' } } },
      required: ['country'],
    },
    valid: [
      { country: 'DE', postcode: 'x' },
      { country: 'US', postcode: '12345' },
    ],
  },
  {
    name: '2019-09 $defs, dependentRequired, unevaluatedProperties',
    schema: {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      $defs: {
        money: {
          type: 'object',
          properties: { amount: { type: 'number' }, currency: { type: 'string', minLength: 3, maxLength: 3 } },
          required: ['amount', 'currency'],
        },
      },
      type: 'object',
      properties: { price: { $ref: '#/$defs/money' }, discount: { $ref: '#/$defs/money' } },
      dependentRequired: { discount: ['price'] },
      unevaluatedProperties: false,
    },
    valid: [
      {},
      { price: { amount: 1.5, currency: 'EUR' } },
      { price: { amount: 2, currency: 'USD' }, discount: { amount: 1, currency: 'USD' } },
    ],
  },
  {
    name: 'non-u patterns: escaped quote, hyphen and dash classes',
    schema: {
      type: 'object',
      properties: {
        name: { type: 'string', pattern: "^[a-zA-Z\\'\\- ]+$" },
        slug: { type: 'string', pattern: '^[\\w-.]+$' },
        code: { type: 'string', pattern: '^\\-?[0-9]+$' },
      },
    },
    valid: [{ name: "O'Neil-Smith" }, { slug: 'a.b-c_d', code: '-12' }],
  },
  {
    name: 'properties named like Object.prototype members',
    schema: {
      type: 'object',
      properties: {
        constructor: { type: 'string' },
        toString: { type: 'integer' },
        valueOf: { type: 'boolean' },
        ['__proto__']: { type: 'null' },
      },
    },
    valid: [{}, { constructor: 'c', toString: 1 }],
  },
  {
    name: 'optional parts that match nothing are left out',
    schema: {
      type: 'object',
      definitions: { impossible: { type: 'string', minLength: 5, maxLength: 2 } },
      properties: {
        ok: { type: 'integer' },
        never: { $ref: '#/definitions/impossible' },
        list: { type: 'array', items: { allOf: [{ type: 'string' }, { type: 'integer' }] } },
        either: { anyOf: [{ $ref: '#/definitions/impossible' }, { type: 'null' }] },
        other: { anyOf: [{ $ref: '#/definitions/impossible' }, { type: 'boolean' }] },
      },
      required: ['ok'],
    },
    valid: [{ ok: 1 }, { ok: 2, list: [], either: null, other: true }],
  },
  {
    name: 'long strings and repetitions past 2000',
    schema: {
      type: 'object',
      properties: {
        summary: { type: 'string', minLength: 100, maxLength: 2048 },
        digest: { type: 'string', pattern: '^[a-f0-9]{64}$' },
        blob: { type: 'string', pattern: '^[A-Za-z0-9+/]{0,3000}$' },
      },
    },
    valid: [{ summary: 'x'.repeat(100) }, { digest: 'a'.repeat(64), blob: 'QUJD' }],
  },
  {
    name: 'function call with nested objects and enums (GlaiveAI-style)',
    schema: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        price_range: {
          type: 'object',
          properties: { min_price: { type: 'number' }, max_price: { type: 'number' } },
          required: ['min_price', 'max_price'],
        },
      },
      required: ['location', 'price_range'],
    },
    valid: [
      { location: 'Paris', price_range: { min_price: 1, max_price: 2.5 } },
      { location: 'X', unit: 'celsius', price_range: { min_price: 0, max_price: 0 } },
    ],
  },
  {
    name: 'recursive menu with $id anchors (draft-07 #name ids)',
    schema: {
      $schema: DRAFT_07,
      definitions: {
        item: {
          $id: '#item',
          type: 'object',
          properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#item' } } },
          required: ['label'],
        },
      },
      type: 'array',
      items: { $ref: '#item' },
    },
    valid: [[], [{ label: 'a', children: [{ label: 'b' }] }]],
  },
  {
    name: 'number formats and integer formats from OpenAPI',
    schema: {
      type: 'object',
      properties: {
        id: { type: 'integer', format: 'int64' },
        ratio: { type: 'number', format: 'float' },
        cents: { type: 'integer', format: 'int32', minimum: 0 },
        score: { type: 'number', format: 'decimal' },
      },
    },
    valid: [{ id: 12, ratio: 0.5, cents: 3, score: 1.25 }],
  },
  {
    name: 'oneOf of typed variants with a discriminator (OpenAPI)',
    schema: {
      discriminator: { propertyName: 'kind' },
      oneOf: [
        {
          type: 'object',
          properties: { kind: { const: 'cat' }, meows: { type: 'boolean' } },
          required: ['kind'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { kind: { const: 'dog' }, barks: { type: 'integer', minimum: 0 } },
          required: ['kind'],
          additionalProperties: false,
        },
      ],
    },
    valid: [{ kind: 'cat' }, { kind: 'dog', barks: 3 }],
  },
  {
    // ESLint wraps a rule's list of options as a tuple; typescript-eslint's rules point into it.
    name: 'lint rule options: a draft-04 tuple whose $refs point into items/0/$defs',
    schema: {
      type: 'array',
      items: [
        {
          type: 'object',
          $defs: { style: { type: 'string', enum: ['array', 'generic', 'array-simple'] } },
          properties: {
            default: { $ref: '#/items/0/$defs/style', description: 'for mutable arrays' },
            readonly: { $ref: '#/items/0/$defs/style' },
            ignore: { type: 'array', items: { type: 'string' }, uniqueItems: true },
          },
          additionalProperties: false,
        },
        { enum: ['always', 'never'] },
      ],
      minItems: 0,
      maxItems: 2,
    },
    valid: [[], [{ default: 'generic' }], [{ default: 'array', readonly: 'array-simple', ignore: ['a'] }, 'never']],
  },
  {
    name: 'OpenAPI 3 document: $ref into components/schemas (an unknown keyword) with draft-04 spellings',
    schema: {
      openapi: '3.0.3',
      info: { title: 'Pets', version: '1' },
      components: {
        schemas: {
          Pet: {
            type: 'object',
            properties: {
              id: { type: 'integer', format: 'int64', minimum: 0, exclusiveMinimum: true },
              name: { type: 'string' },
              tag: { type: 'string', nullable: true },
            },
            required: ['id', 'name'],
          },
          Pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' }, maxItems: 100 },
        },
      },
      $ref: '#/components/schemas/Pets',
    },
    valid: [
      [],
      [
        { id: 1, name: 'a' },
        { id: 2, name: 'b', tag: 'c' },
      ],
    ],
  },
  {
    name: 'OpenAPI nullable and x-nullable (annotations), required beside a string type',
    schema: {
      type: 'object',
      nullable: true,
      properties: { a: { type: 'string', required: ['x'] }, b: { type: 'integer', 'x-nullable': true } },
    },
    valid: [{}, { a: 'x', b: 1 }],
  },
];
