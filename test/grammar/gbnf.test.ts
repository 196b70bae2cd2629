// The GBNF parser, recognizer and sampler (used to check grammars and to prove the compilers).
import {
  ConstraintError,
  checkGbnf,
  formatGbnf,
  parseGbnf,
  recognizeGbnf,
  sampleGbnf,
  seededRandom,
} from '../../src/grammar/index.js';

test('parses llama.cpp syntax: comments, groups, classes, repetitions, escapes', () => {
  const grammar = parseGbnf(`# a comment
root ::= greeting (" " name)? "!"{1,3}  # trailing comment
greeting ::= "hi" | "hello"
name ::= [A-Z] [a-z\\x2D]* | "\\u00E9\\U0001F600\\n\\t\\"\\\\"
`);
  expect(recognizeGbnf(grammar, 'hello Ann-e!!')).toBe(true);
  expect(recognizeGbnf(grammar, 'hi é😀\n\t"\\!')).toBe(true);
  expect(recognizeGbnf(grammar, 'hi!!!!')).toBe(false);
  expect(recognizeGbnf(grammar, 'hey!')).toBe(false);
});

test('multi-line alternatives inside parentheses and after |', () => {
  const grammar = parseGbnf('root ::= (\n  "a"\n  | "b"\n) |\n "c"\n');
  expect(['a', 'b', 'c'].map((t) => recognizeGbnf(grammar, t))).toEqual([true, true, true]);
});

test('format then parse round-trips', () => {
  const grammar = parseGbnf('root ::= [^"\\\\\\x00-\\x1F] "x"{2,5} ("a" | [b-d])* item\nitem ::= "-" | "^" | "]"');
  const again = parseGbnf(formatGbnf(grammar));
  expect(formatGbnf(again)).toBe(formatGbnf(grammar));
});

test('formatting formats each node once, whatever the nesting (it was 2^depth)', () => {
  // 60 nested optional sequences: the formatter used to format each level twice (to merge runs,
  // then to print), so this never finished.
  const text = 'root ::= ' + '("a" '.repeat(60) + '[xy]' + ' "b")?'.repeat(60) + '\n';
  const grammar = parseGbnf(text);
  expect(formatGbnf(grammar)).toBe(text);
  expect(recognizeGbnf(grammar, 'a'.repeat(60) + 'x' + 'b'.repeat(60))).toBe(true);
  expect(recognizeGbnf(grammar, 'aaxbb')).toBe(false);
});

test.each([
  ['root ::= undefined-rule', /undefined rule/],
  ['root ::= "unterminated', /unterminated/],
  ['root ::= "\\d"', /unknown escape/],
  ['root ::= [a-', /unterminated/],
  ['rule ::= "a"', /no 'root'/],
  ['root ::= "a"{3,2}', /max below min/],
  ['root ::= ("a"', /expecting '\)'/],
])('parse error: %s', (text, message) => {
  expect(() => parseGbnf(text)).toThrow(message);
  expect(() => parseGbnf(text)).toThrow(ConstraintError);
});

test('checkGbnf rejects left recursion and grammars with no finite output', () => {
  expect(() => checkGbnf('root ::= root "a" | "b"')).toThrow(/left recursion/);
  expect(() => checkGbnf('root ::= "a" root')).toThrow(/no finite output/);
  expect(() => checkGbnf('root ::= "a" root | "b"')).not.toThrow();
});

test('recognizer handles ambiguity and nullable loops in polynomial time', () => {
  const grammar = parseGbnf('root ::= ("a" | "aa" | "")* "b"');
  expect(recognizeGbnf(grammar, 'a'.repeat(2000) + 'b')).toBe(true);
  expect(recognizeGbnf(grammar, 'a'.repeat(2000))).toBe(false);
});

test('sampler is deterministic for a seed, terminates on recursive grammars, stays in the language', () => {
  const grammar = parseGbnf('root ::= "[" (root ("," root)*)? "]"');
  const a = Array.from({ length: 20 }, (_, i) => sampleGbnf(grammar, seededRandom(i)));
  const b = Array.from({ length: 20 }, (_, i) => sampleGbnf(grammar, seededRandom(i)));
  expect(a).toEqual(b);
  for (const text of a) expect(recognizeGbnf(grammar, text)).toBe(true);
  expect(new Set(a).size).toBeGreaterThan(3);
});
