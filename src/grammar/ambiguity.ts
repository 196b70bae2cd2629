// A regex whose grammar llama.cpp would read in many ways at once: llama.cpp keeps a parse stack
// per way and tests every candidate token against each, so `^([a-z]{0,20}[a-z0-9]{0,20}){0,20}$`
// (61 grammar characters) did not produce one token in 60 s on a 151,936-token vocabulary. The
// token masker's automaton (src/automaton/automaton.ts) counts llama.cpp's stacks; explored breadth
// first from the start over its first MAX_EXPLORED states, a regex that keeps more than
// MAX_PARSES alive is written as its deterministic automaton (dfa.ts, one stack) where that is small
// enough, and refused otherwise.

import { Automaton, AutomatonLimitError, DEAD } from '../automaton/automaton.js';
import { ConstraintError } from './errors.js';
import type { CharRanges, Expr, Grammar } from '../automaton/expr.js';
import type { DfaBudget } from './dfa.js';
import { dfaIsEmpty, dfaOfExpr, dfaRules } from './dfa.js';
import type { GrammarBuilder } from './grammar-builder.js';
import { expandedSize } from './gbnf-format.js';

/**
 * Parses alive at once past which a regex is rewritten: llama.cpp's grammar time per token on the
 * 151,936-token vocabulary (bench/llama-grammar.ts, wall clock at load 3) was 30 ms for one parse of `[a-z]*`, 36 ms for
 * 32, 63 ms for 64, 87 for 128 and 176 for 256.
 */
export const MAX_PARSES = 32;

/** Elements (once repetitions are unrolled) past which a regex is not analyzed here. */
const MAX_ANALYZED_SIZE = 200_000;

/** States explored when looking for ambiguity. */
const MAX_EXPLORED = 256;

/** Steps of the walk that follows, from each state, the next state with the most parses alive. */
const MAX_WALK = 512;

/**
 * The most parse stacks alive at one point among the states reached breadth first (the first
 * MAX_EXPLORED) and along a walk that keeps taking the character that leaves the most alive
 * (ambiguity that grows with the length, as `[a-z]{0,400}[a-y]{0,400}`'s); Infinity past the
 * automaton's own limit.
 */
export function parsesAlive(expr: Expr, spend: (units: number) => void): number {
  return parsesAliveIn({ rules: new Map([['root', expr]]), root: 'root' }, spend);
}

/** parsesAlive over a whole grammar. */
export function parsesAliveIn(grammar: Grammar, spend: (units: number) => void): number {
  try {
    const automaton = new Automaton(grammar);
    const alive = (state: number) => automaton.stacksOf(state).length;
    let most = alive(automaton.initial);
    const seen = new Set<number>([automaton.initial]);
    const queue = [automaton.initial];
    for (let i = 0; i < queue.length && seen.size < MAX_EXPLORED && most <= MAX_PARSES; i++) {
      if (i % 16 === 0) spend(1 + Math.floor(automaton.classes / 64));
      for (let c = 0; c < automaton.classes && seen.size < MAX_EXPLORED; c++) {
        const next = automaton.step(queue[i], c);
        if (next === DEAD || seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
        most = Math.max(most, alive(next));
      }
    }
    let state = automaton.initial;
    for (let k = 0; k < MAX_WALK && most <= MAX_PARSES; k++) {
      if (k % 16 === 0) spend(1 + Math.floor(automaton.classes / 64));
      let best = DEAD;
      for (let c = 0; c < automaton.classes; c++) {
        const next = automaton.step(state, c);
        if (next !== DEAD && (best === DEAD || alive(next) > alive(best))) best = next;
      }
      if (best === DEAD) break;
      state = best;
      most = Math.max(most, alive(state));
    }
    return most;
  } catch (error) {
    // Past the automaton's limit, or nullable parts nested past the stack (5,000 optional items in a row).
    if (error instanceof AutomatonLimitError || error instanceof RangeError) return Infinity;
    throw error;
  }
}

/**
 * The regex expression as written when llama.cpp reads it in few ways at once; else its
 * deterministic automaton as rules (each step written by `step`); else too-large, naming `what`.
 */
export function unambiguous(
  expr: Expr,
  what: string,
  builder: GrammarBuilder,
  hint: string,
  budget: DfaBudget,
  step: (ranges: CharRanges) => Expr,
  pointer?: string,
): Expr {
  // Without a choice (an alternation, a repetition of more than one count) there is one parse. The
  // automaton unrolls counted repetitions as llama.cpp does: past the size limit the caller refuses
  // the grammar anyway (gbnf-format.ts), and this analysis would be as large.
  if (!hasChoice(expr) || expandedSize(expr) > MAX_ANALYZED_SIZE) return expr;
  const alive = parsesAlive(expr, budget.spend);
  if (alive <= MAX_PARSES) return expr;
  const dfa = dfaOfExpr(expr, budget);
  const rules = dfa && !dfaIsEmpty(dfa) ? dfaRules(dfa, builder, hint, step) : undefined;
  if (rules) return rules;
  throw new ConstraintError(
    'too-large',
    `${what} is too ambiguous for llama.cpp's matcher (${alive === Infinity ? 'thousands of' : `${alive}`} parses alive at once, above ${MAX_PARSES}) and its deterministic automaton is too large`,
    { pointer },
  );
}

/** Whether an expression has an alternation or a repetition of more than one count anywhere. */
function hasChoice(expr: Expr): boolean {
  switch (expr.kind) {
    case 'alt':
      return true;
    case 'repeat':
      return expr.max !== expr.min || hasChoice(expr.body);
    case 'seq':
      return expr.items.some(hasChoice);
    default:
      return false;
  }
}
