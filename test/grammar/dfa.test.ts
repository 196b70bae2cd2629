// The explicit automata behind intersections (src/grammar/dfa.ts): built from regexes, intersected,
// minimized and written back as rules, they accept exactly what every regex accepts (JavaScript's
// RegExp is the oracle), on random strings over the patterns' own characters.
import fc from 'fast-check';
import { dfaIsEmpty, dfaOfExpr, dfaRules, intersectDfas, lengthDfa, minimizeDfa } from '../../src/grammar/dfa.js';
import type { Dfa } from '../../src/grammar/dfa.js';
import { GENERATABLE } from '../../src/automaton/expr.js';
import { GrammarBuilder } from '../../src/grammar/grammar-builder.js';
import { regexToExpr } from '../../src/grammar/regex.js';
import { recognizeGbnf } from '../../src/grammar/gbnf-run.js';
import { rangesExpr } from '../../src/grammar/dfa.js';

const budget = { maxStates: 5000, spend: () => {} };

function accepts(dfa: Dfa, text: string): boolean {
  let s = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    let c = 0;
    while (c + 1 < dfa.bounds.length && dfa.bounds[c + 1] <= cp) c++;
    s = dfa.next[s * dfa.bounds.length + c];
    if (s < 0) return false;
  }
  return dfa.accepting[s];
}

const patterns = ['^[a-c]+$', 'b', '^a*(ba)*c?$', 'ab|ca', '^(a|b){2,5}$', '^[^b]*$', 'c{2}', '^(aa|bb)*$', 'a.c'];
const dfaOf = (pattern: string) => dfaOfExpr(regexToExpr(pattern, '', { semantics: 'search' }), budget)!;

test.each(patterns.map((p) => [p]))(
  'the automaton of %s accepts what the RegExp matches, minimized or not',
  (pattern) => {
    const dfa = dfaOf(pattern);
    const minimal = minimizeDfa(dfa);
    expect(minimal.accepting.length).toBeLessThanOrEqual(dfa.accepting.length);
    const regex = new RegExp(pattern, 'u');
    fc.assert(
      fc.property(fc.stringMatching(/^[abcd]{0,8}$/), (text) => {
        expect([text, accepts(dfa, text), accepts(minimal, text)]).toEqual([text, regex.test(text), regex.test(text)]);
      }),
      { seed: 54, numRuns: 300 },
    );
  },
);

test('intersections of patterns and a length accept exactly the strings every one accepts; their rules too', () => {
  const pairs = patterns.flatMap((a) => patterns.map((b) => [a, b] as const));
  for (const [a, b] of pairs) {
    const both = intersectDfas([dfaOf(a), dfaOf(b), lengthDfa(GENERATABLE, 1, 6)], budget)!;
    const ra = new RegExp(a, 'u');
    const rb = new RegExp(b, 'u');
    const builder = new GrammarBuilder();
    const expr = dfaIsEmpty(both) ? undefined : dfaRules(both, builder, 'part', rangesExpr);
    const grammar = expr && builder.build(expr);
    fc.assert(
      fc.property(fc.stringMatching(/^[abcd]{0,7}$/), (text) => {
        const expected = ra.test(text) && rb.test(text) && text.length >= 1 && text.length <= 6;
        expect([a, b, text, accepts(both, text)]).toEqual([a, b, text, expected]);
        if (grammar) expect([a, b, text, recognizeGbnf(grammar, text)]).toEqual([a, b, text, expected]);
        else expect(expected).toBe(false);
      }),
      { seed: 54, numRuns: 60 },
    );
  }
});

test('an automaton past its state budget is undefined (the caller keeps an approximation, listed)', () => {
  expect(
    dfaOfExpr(regexToExpr('.{0,50}a.{50}', '', { semantics: 'full' }), { maxStates: 100, spend: () => {} }),
  ).toBeUndefined();
});
