// Completeness: valid instances, serialized compactly in schema property order, are accepted by
// the grammar; and they validate (so the corpus itself is right).
import { compileJsonSchema, recognizeGbnf } from '../../src/grammar/index.js';
import { KEYWORD_POLICY } from '../../src/grammar/schema-policy.js';
import { CORPUS } from './corpus.js';

// Every keyword the grammar compiles (the keyword policy, the one list), oneOf (the grammar takes any
// branch), and the places definitions live.
const KEYWORDS = [
  ...Object.entries(KEYWORD_POLICY)
    .filter(([, policy]) => policy.status === 'compiled')
    .map(([keyword]) => keyword),
  'oneOf',
  '$defs',
  'definitions',
];

function keywordsIn(node: unknown, found: Set<string>): void {
  if (Array.isArray(node)) node.forEach((n) => keywordsIn(n, found));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      found.add(k);
      keywordsIn(v, found);
    }
  }
}

test('the corpus has at least 100 schemas and covers every keyword', () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(100);
  const found = new Set<string>();
  CORPUS.forEach((entry) => keywordsIn(entry.schema, found));
  expect(KEYWORDS.filter((k) => !found.has(k))).toEqual([]);
  const formats = new Set(CORPUS.map((e) => (e.schema as { format?: string }).format).filter(Boolean));
  for (const f of ['date', 'time', 'date-time', 'uuid', 'email', 'uri', 'ipv4', 'ipv6', 'hostname'])
    expect(formats).toContain(f);
});

describe.each(CORPUS.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
  const compiled = compileJsonSchema(entry.schema);
  test.each(entry.valid.map((value) => [JSON.stringify(value)]))('accepts %s', (text) => {
    expect(compiled.validate(text)).toMatchObject({ ok: true });
    expect(recognizeGbnf(compiled.grammar, text)).toBe(true);
  });
});
