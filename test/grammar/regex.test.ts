// Regex: each construct and each error (with the construct named and its position).
import { ConstraintError, compileRegex, recognizeGbnf } from '../../src/grammar/index.js';
import { BAD_REGEXES, REGEXES } from './samples.js';

test.each(REGEXES.map((r) => [r.pattern.slice(0, 40), r] as const))('%s accepts its matches and agrees with RegExp', (_p, r) => {
  const { grammar } = compileRegex(r.pattern, r.flags);
  const full = new RegExp(`^(?:${r.pattern})$`, (r.flags ?? '') + 'u');
  for (const text of r.matches) {
    expect(full.test(text)).toBe(true);
    expect(recognizeGbnf(grammar, text)).toBe(true);
  }
});

test('rejects what the regex rejects', () => {
  const cases: [string, string, string[]][] = [
    ['[a-c]+', '', ['', 'd', 'A']],
    ['a.c', '', ['a\nc', 'ac']],
    ['\\d{2,3}', '', ['1', '1234', '१२']],
    ['hello', 'i', ['hallo']],
    ['[^k]', 'i', ['k', 'K', '\u212a']],
    ['x{2500}', '', ['x'.repeat(2499), 'x'.repeat(2501)]],
    ['y{0,4321}', '', ['y'.repeat(4322)]],
  ];
  for (const [pattern, flags, texts] of cases) {
    const { grammar } = compileRegex(pattern, flags);
    for (const text of texts) expect([pattern, text.slice(0, 10), recognizeGbnf(grammar, text)]).toEqual([pattern, text.slice(0, 10), false]);
  }
});

test('case-insensitive matching follows JS Unicode case folding', () => {
  const { grammar } = compileRegex('k', 'i');
  for (const text of ['k', 'K', '\u212a']) expect(recognizeGbnf(grammar, text)).toBe(true);
});

test('repetition bounds above 2000 are rewritten, never left for llama.cpp to ignore', () => {
  const { gbnf } = compileRegex('a{0,5000}b{2001}');
  const bounds = [...gbnf.matchAll(/\{(\d+)(?:,(\d*))?\}/g)].flatMap((m) => [Number(m[1]), m[2] ? Number(m[2]) : 0]);
  expect(Math.max(...bounds)).toBeLessThanOrEqual(2000);
});

test('chained optionals become one bounded repetition', () => {
  expect(compileRegex('a?a?a?a?').gbnf).toBe('root ::= "a"{0,4}\n');
});

test('repetitions of patterns that can be empty are rewritten', () => {
  expect(compileRegex('(a?)*').gbnf).toBe('root ::= "a"*\n');
  expect(compileRegex('(a|)+b').gbnf).toBe('root ::= "a"* "b"\n');
});

test.each(BAD_REGEXES.map((b) => [b.pattern + (b.flags ? '/' + b.flags : ''), b] as const))('error: %s', (_name, bad) => {
  let caught: unknown;
  try {
    compileRegex(bad.pattern, bad.flags);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ConstraintError);
  const error = caught as ConstraintError;
  expect(error.code).toBe(bad.code);
  if (bad.construct) {
    expect(error.keyword).toBe(bad.construct);
    expect(error.message).toContain(bad.construct);
  }
  if (bad.position !== undefined) expect(error.position).toBe(bad.position);
});

test('positions survive escaping of slashes and astral characters', () => {
  expect(() => compileRegex('😀/(?=x)')).toThrow(expect.objectContaining({ position: 3 }));
});
