// The keyword policy: one table saying, for every JSON Schema keyword that constrains a value,
// whether the grammar compiles it, leaves it to the validator (listed in `approximations`), or
// refuses it. The compiler, the docs (docs/grammar.md's keyword tables are rendered from it and a
// test keeps them equal) and the tests read this table; every other keyword is an annotation.

export const TYPE_NAMES = ['null', 'boolean', 'object', 'array', 'string', 'number', 'integer'] as const;
export type TypeName = (typeof TYPE_NAMES)[number];

export type KeywordStatus = 'compiled' | 'validated' | 'refused';

export interface KeywordPolicy {
  readonly status: KeywordStatus;
  /** The types the keyword talks about: without `type`, a schema generates only these. */
  readonly types?: readonly TypeName[];
  /** What the grammar does with it (compiled), or why the validator checks it (validated). */
  readonly note: string;
}

const object = ['object'] as const;
const array = ['array'] as const;
const string = ['string'] as const;
const number = ['number'] as const;

export const KEYWORD_POLICY = {
  type: { status: 'compiled', note: 'single or array; `["x", "null"]` for nullable values' },
  enum: {
    status: 'compiled',
    note: 'any JSON value, written compactly; values the rest of the schema rejects (as the specification reads it) are dropped',
  },
  const: { status: 'compiled', note: 'as `enum` of one value' },
  properties: {
    status: 'compiled',
    types: object,
    note: 'in schema order; optional properties are truly optional (nested alternatives)',
  },
  required: {
    status: 'compiled',
    types: object,
    note: 'a required name not declared takes the patternProperties it matches, else additionalProperties',
  },
  additionalProperties: {
    status: 'compiled',
    types: object,
    note: '`false`, `true` or a schema; extra keys never spell a declared key; absent: none beside declared members (option `additionalProperties: true`: any)',
  },
  minProperties: {
    status: 'compiled',
    types: object,
    note: 'counted over optional and additional properties (at most 4000 counting states)',
  },
  maxProperties: { status: 'compiled', types: object, note: 'as minProperties' },
  items: { status: 'compiled', types: array, note: 'items beyond `prefixItems` default to none (a tuple)' },
  prefixItems: {
    status: 'compiled',
    types: array,
    note: 'a tuple; drafts 04-2019-09 array `items` and `additionalItems` are read as it',
  },
  additionalItems: { status: 'compiled', types: array, note: 'with array `items` (drafts 04 to 2019-09)' },
  minItems: { status: 'compiled', types: array, note: 'exact' },
  maxItems: { status: 'compiled', types: array, note: 'exact' },
  minLength: {
    status: 'compiled',
    types: string,
    note: 'in code points, as ajv counts; intersected with patterns and formats by automaton',
  },
  maxLength: { status: 'compiled', types: string, note: 'as minLength' },
  pattern: {
    status: 'compiled',
    types: string,
    note: 'searched (unanchored) as JSON Schema requires; several patterns and formats are intersected by automaton',
  },
  format: {
    status: 'compiled',
    types: string,
    note: 'date, time, date-time, uuid, email, uri, ipv4, ipv6, hostname; others are validated or annotations',
  },
  minimum: {
    status: 'compiled',
    types: number,
    note: 'exact on integers and decimals (no exponent written when bounded)',
  },
  maximum: { status: 'compiled', types: number, note: 'as minimum' },
  exclusiveMinimum: { status: 'compiled', types: number, note: 'as minimum; draft-04 booleans understood' },
  exclusiveMaximum: { status: 'compiled', types: number, note: 'as minimum' },
  multipleOf: {
    status: 'compiled',
    types: number,
    note: 'on integers and decimal steps: a remainder automaton intersected with the range (multiples of at most 15 digits); a larger automaton is validated',
  },
  allOf: { status: 'compiled', note: 'intersected keyword by keyword; never concatenated' },
  anyOf: { status: 'compiled', note: 'each branch intersected with its siblings' },
  oneOf: { status: 'validated', note: 'the grammar accepts any branch; the validator checks that exactly one matches' },
  $ref: { status: 'compiled', note: 'one rule per target; JSON pointers, `$defs`/`definitions`, `$anchor`' },
  uniqueItems: { status: 'validated', note: 'uniqueness is not context-free' },
  not: { status: 'validated', note: 'negation is not expressible as a grammar' },
  contains: { status: 'validated', note: 'checked by the validator' },
  minContains: { status: 'validated', note: 'checked by the validator' },
  maxContains: { status: 'validated', note: 'checked by the validator' },
  dependentRequired: { status: 'validated', note: 'checked by the validator' },
  dependentSchemas: { status: 'validated', note: 'checked by the validator' },
  dependencies: { status: 'validated', note: 'checked by the validator' },
  if: { status: 'validated', note: 'conditionals are checked by the validator' },
  then: { status: 'validated', note: 'conditionals are checked by the validator' },
  else: { status: 'validated', note: 'conditionals are checked by the validator' },
  propertyNames: { status: 'validated', note: 'checked by the validator' },
  patternProperties: {
    status: 'validated',
    note: 'keys are generated from the patterns; a key that matches several patterns or also fits additionalProperties, or that repeats or spells a declared property, is checked by the validator',
  },
  unevaluatedProperties: { status: 'validated', note: 'checked by the validator' },
  unevaluatedItems: { status: 'validated', note: 'checked by the validator' },
  $dynamicRef: { status: 'refused', note: 'unsupported-keyword: use $ref' },
  $recursiveRef: { status: 'refused', note: 'unsupported-keyword: use $ref' },
} as const satisfies Record<string, KeywordPolicy>;

export type Keyword = keyof typeof KEYWORD_POLICY;

// Looked up in Maps: `keyword in {…}` is also true for `toString`, `__proto__` and every other
// Object.prototype member, which were then silently taken for keywords.
const POLICY = new Map<string, KeywordPolicy>(Object.entries(KEYWORD_POLICY));

export function policyOf(keyword: string): KeywordPolicy | undefined {
  return POLICY.get(keyword);
}

/** Keywords that constrain a value; every other keyword (standard or not) is an annotation. */
export function isConstraining(keyword: string): boolean {
  return POLICY.has(keyword);
}

/** Whether a schema object has any keyword that constrains a value. */
export function hasConstraints(schema: object): boolean {
  for (const keyword of Object.keys(schema)) if (POLICY.has(keyword)) return true;
  return false;
}

/** The note the approximation of a validated keyword carries. */
export function validatedNote(keyword: string): string | undefined {
  const policy = POLICY.get(keyword);
  return policy?.status === 'validated' ? policy.note : undefined;
}

/** The keyword policy as the markdown table docs/grammar.md carries (a test keeps the two equal). */
export function renderPolicyTable(): string {
  const rows = Object.entries(KEYWORD_POLICY).map(
    ([keyword, policy]: [string, KeywordPolicy]) =>
      `| \`${keyword}\` | ${policy.status} | ${policy.types?.join(', ') ?? '—'} | ${policy.note} |`,
  );
  return ['| Keyword | Policy | Type it implies without `type` | Notes |', '|---|---|---|---|', ...rows].join('\n');
}
