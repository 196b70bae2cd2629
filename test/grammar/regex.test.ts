// Regex: each construct and each error (with the construct named and its position).
import fc from 'fast-check';
import { ConstraintError, compileRegex, recognizeGbnf, sampleGbnf, seededRandom } from '../../src/grammar/index.js';
import { BAD_REGEXES, REGEXES } from './samples.js';

test.each(REGEXES.map((r) => [r.pattern.slice(0, 40), r] as const))(
  '%s accepts its matches and agrees with RegExp',
  (_p, r) => {
    const { grammar } = compileRegex(r.pattern, r.flags);
    const full = new RegExp(`^(?:${r.pattern})$`, (r.flags ?? '') + 'u');
    for (const text of r.matches) {
      expect(full.test(text)).toBe(true);
      expect(recognizeGbnf(grammar, text)).toBe(true);
    }
  },
);

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
    for (const text of texts)
      expect([pattern, text.slice(0, 10), recognizeGbnf(grammar, text)]).toEqual([pattern, text.slice(0, 10), false]);
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

test.each(BAD_REGEXES.map((b) => [b.pattern + (b.flags ? '/' + b.flags : ''), b] as const))(
  'error: %s',
  (_name, bad) => {
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
  },
);

test('positions survive escaping of slashes and astral characters', () => {
  expect(() => compileRegex('😀/(?=x)')).toThrow(expect.objectContaining({ position: 3 }));
});

test('[\\d-z] is digits, a dash and z (Annex B), not a class that matches nothing', () => {
  const { grammar } = compileRegex('[\\d-z]+');
  for (const text of ['0', '9-z', 'z']) expect(recognizeGbnf(grammar, text)).toBe(true);
  for (const text of ['a', 'y', '']) expect(recognizeGbnf(grammar, text)).toBe(false);
  expect(recognizeGbnf(compileRegex('[a-\\s]').grammar, ' ')).toBe(true);
});

test('patterns valid only without the u flag read as JavaScript reads them (Annex B)', () => {
  // Each pattern is invalid with `u` (which JS then reads without it): legacy octal escapes, a lone
  // \c, \u{…} as a repeated u, \k without named groups, lone braces.
  const cases: [string, string[], string[]][] = [
    ['\\-\\12', ['-\n'], ['-\f']],
    ['\\-\\1', ['-\u0001'], []],
    ['\\-\\8', ['-8'], []],
    ['\\-a\\c', ['-a\\c'], ['-ac']],
    ['\\-[\\c1]', ['-\u0011'], ['-1']],
    ['\\-\\u{3}', ['-uuu'], ['-\u0003']],
    ['\\-\\k<n>', ['-k<n>'], []],
    ['\\-a{,2}}', ['-a{,2}}'], ['-aa']],
  ];
  for (const [pattern, yes, no] of cases) {
    expect(() => new RegExp(pattern, 'u')).toThrow();
    const native = new RegExp(`^(?:${pattern})$`);
    const { grammar } = compileRegex(pattern);
    for (const text of yes)
      expect([pattern, text, native.test(text), recognizeGbnf(grammar, text)]).toEqual([pattern, text, true, true]);
    for (const text of no)
      expect([pattern, text, native.test(text), recognizeGbnf(grammar, text)]).toEqual([pattern, text, false, false]);
  }
  // ... except \p{…}, which is surely meant as a property escape, not the text "p{L}".
  expect(() => compileRegex('\\-\\p{L}')).toThrow(
    expect.objectContaining({ code: 'unsupported-regex', keyword: 'Unicode property escape' }),
  );
});

test('nesting is bounded before anything recursive runs: 10,000 groups deep is too-deep, not a stack overflow', () => {
  const nested = (depth: number) => '('.repeat(depth) + 'a' + ')'.repeat(depth);
  expect(compileRegex(nested(64)).gbnf).toBe('root ::= "a"\n');
  expect(() => compileRegex(nested(65))).toThrow(expect.objectContaining({ code: 'too-deep', position: 64 }));
  expect(() => compileRegex(nested(10_000))).toThrow(expect.objectContaining({ code: 'too-deep' }));
  expect(() => compileRegex('(?:'.repeat(100_000))).toThrow(expect.objectContaining({ code: 'too-deep' }));
  // Brackets inside classes and escaped ones open nothing.
  expect(compileRegex('[(]'.repeat(100) + '\\('.repeat(100)).gbnf).toBe(`root ::= "${'('.repeat(200)}"\n`);
});

test('long sequences, classes and alternations parse in linear time', () => {
  // regexp-tree concatenated arrays: 'a' x 40,000 took 27 s; a left-nested alternation of 50,000
  // options overflowed the stack.
  expect(compileRegex('a'.repeat(100_000)).gbnf).toBe(`root ::= "${'a'.repeat(100_000)}"\n`);
  expect(compileRegex('[' + 'a-c'.repeat(30_000) + ']').gbnf).toBe('root ::= [a-c]\n');
  const { grammar } = compileRegex('ab|'.repeat(30_000) + 'x');
  expect(recognizeGbnf(grammar, 'x')).toBe(true);
  expect(recognizeGbnf(grammar, 'ab')).toBe(true);
  expect(() => compileRegex('(a)'.repeat(33_333))).toThrow(expect.objectContaining({ code: 'invalid-regex' })); // too many captures for V8
});

test('repetitions of many optional parts stay linear, or fail fast when bounded', () => {
  const { grammar } = compileRegex('(' + 'a?b?'.repeat(10_000) + ')*');
  expect(recognizeGbnf(grammar, 'abba')).toBe(true);
  expect(() => compileRegex('(' + 'a?b?'.repeat(10_000) + '){2}')).toThrow(
    expect.objectContaining({ code: 'too-large' }),
  );
  expect(() => compileRegex('a{99999999999999999999}')).toThrow(expect.objectContaining({ code: 'too-large' }));
});

// Syntax fuzzing: strings of regex tokens, valid or not. The engine (`new RegExp`) is the oracle
// for validity; whatever we compile must agree with it on sampled outputs; everything else is a
// ConstraintError, never a TypeError or a RangeError.
const TOKENS = [
  'a',
  'b',
  'z',
  '0',
  '1',
  '7',
  '8',
  '-',
  '^',
  '$',
  '.',
  '|',
  '*',
  '+',
  '?',
  '{',
  '}',
  '{2}',
  '{1,3}',
  '{2,}',
  ',',
  '(',
  ')',
  '(?:',
  '(?<n>',
  '(?=',
  '(?<!',
  '[',
  ']',
  '[^',
  '\\',
  '\\d',
  '\\w',
  '\\S',
  '\\b',
  '\\-',
  '\\1',
  '\\0',
  '\\01',
  '\\12',
  '\\8',
  '\\c',
  '\\cA',
  '\\x4',
  '\\x41',
  '\\u',
  '\\u0041',
  '\\u{41}',
  '\\uD83D\\uDE00',
  '\\k',
  '\\k<n>',
  '\\p{L}',
  '\\/',
  '/',
  '😀',
  'é',
  '\\t',
  '\\]',
  '[a-z]',
  '[\\d-z]',
  '[\\b]',
  '[\\c1]',
  '[]',
  '[^]',
  '[😀-😃]',
];

test('any string of regex tokens compiles as the engine reads it, or fails with a ConstraintError', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...TOKENS), { maxLength: 14 }),
      fc.constantFrom('', 's'),
      fc.integer(),
      (tokens, flags, seed) => {
        const pattern = tokens.join('');
        let unicode = true;
        let valid = true;
        try {
          new RegExp(pattern, 'u');
        } catch {
          unicode = false;
          try {
            new RegExp(pattern);
          } catch {
            valid = false;
          }
        }
        let compiled;
        try {
          compiled = compileRegex(pattern, flags);
        } catch (error) {
          if (!(error instanceof ConstraintError)) throw error;
          if (!valid) expect(error.code).toBe('invalid-regex');
          return;
        }
        expect(valid).toBe(true);
        if (!unicode) return; // Annex B's per-code-unit matching differs from ours on astral characters
        const full = new RegExp(`^(?:${pattern})$`, flags + 'u');
        const random = seededRandom(seed);
        for (let i = 0; i < 4; i++) {
          const text = sampleGbnf(compiled.grammar, random, { maxExtraRepeats: 2 });
          if (!full.test(text))
            throw new Error(`sample ${JSON.stringify(text)} does not match /${pattern}/${flags}\n${compiled.gbnf}`);
        }
      },
    ),
    { seed: 21, numRuns: 600 },
  );
});
