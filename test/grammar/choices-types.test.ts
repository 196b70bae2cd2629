import {
  ConstraintError,
  compileChoices,
  compileType,
  parseTypedOutput,
  recognizeGbnf,
} from '../../src/grammar/index.js';
import { CHOICES, TYPE_NAMES } from './samples.js';

describe('choices', () => {
  test.each(CHOICES.map((c) => [JSON.stringify(c)]))('%s matches exactly one entry', (json) => {
    const choices = JSON.parse(json) as string[];
    const { grammar, gbnf } = compileChoices(choices);
    expect(gbnf).toMatch(/^[\x20-\x7e\n]*$/); // non-ASCII, newlines and quotes are escaped
    for (const choice of choices) expect(recognizeGbnf(grammar, choice)).toBe(true);
    expect(recognizeGbnf(grammar, choices[0] + choices[0])).toBe(choices.includes(choices[0] + choices[0]));
    expect(recognizeGbnf(grammar, '')).toBe(false);
  });
  test('a duplicate is an error naming it and where it repeats', () => {
    expect(() => compileChoices(['yes', 'no', 'yes'])).toThrow(
      expect.objectContaining({
        code: 'invalid-input',
        pointer: '/2',
        message: 'choice 2 repeats choice 0: "yes" (at #/2)',
      }),
    );
    expect(() => compileChoices(['a\n"b', 'a\n"b'])).toThrow('choice 1 repeats choice 0: "a\\n\\"b"');
    expect(() => compileChoices(['x'.repeat(1000), 'x'.repeat(1000)])).toThrow(/: "x{200}"…/);
  });
  test('a list longer than the grammar limit is too-large before it is formatted', () => {
    const list = Array.from({ length: 10_000 }, (_, i) => `${i}`.padEnd(200, '.'));
    expect(() => compileChoices(list)).toThrow(
      expect.objectContaining({ code: 'too-large', message: expect.stringMatching(/^choices take at least/) }),
    );
  });
  test.each([
    [[], /must not be empty/],
    [['a', 3], /choice 1 is number/],
    [['a', ''], /choice 1 is empty/],
    [['a', null], /choice 1 is null/],
    ['abc', /must be an array/],
  ])('error: %j', (input, message) => {
    expect(() => compileChoices(input as string[])).toThrow(message);
    expect(() => compileChoices(input as string[])).toThrow(ConstraintError);
  });
});

describe('types', () => {
  test.each(TYPE_NAMES.map((t) => [t]))('%s compiles', (name) => {
    expect(compileType(name).gbnf).toMatch(/^root ::= /);
  });
  test('grammar and parser agree', () => {
    const int = compileType('int');
    expect(recognizeGbnf(int.grammar, '-42')).toBe(true);
    expect(recognizeGbnf(int.grammar, '4.2')).toBe(false);
    expect(int.parse('-42')).toBe(-42);
    const float = compileType('Number');
    expect(recognizeGbnf(float.grammar, '-4.25e-3')).toBe(true);
    expect(float.parse('-4.25e-3')).toBe(-0.00425);
    const bool = compileType('Boolean');
    expect(bool.parse('false')).toBe(false);
    const str = compileType('str');
    expect(recognizeGbnf(str.grammar, '"a\\n\\"b"')).toBe(true);
    expect(str.parse('"a\\n\\"b"')).toBe('a\n"b');
  });
  test('parse errors', () => {
    expect(() => parseTypedOutput('integer', '1.5')).toThrow(expect.objectContaining({ code: 'parse-failed' }));
    expect(() => parseTypedOutput('integer', '99999999999999999999')).toThrow(/exactly representable/);
    expect(() => parseTypedOutput('boolean', 'True')).toThrow(ConstraintError);
    expect(() => parseTypedOutput('string', 'bare')).toThrow(ConstraintError);
    expect(() => parseTypedOutput('number', 'NaN')).toThrow(ConstraintError);
  });
  test('unknown type names', () => {
    expect(() => compileType('date')).toThrow(/unknown type 'date'/);
    // Names of Object.prototype members are unknown names too, not a lookup that finds a function.
    for (const name of ['constructor', '__proto__', 'hasOwnProperty'])
      expect(() => compileType(name)).toThrow(`unknown type '${name}'`);
  });
});
