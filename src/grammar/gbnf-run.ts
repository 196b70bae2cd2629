// Executes GBNF grammars without llama.cpp: a recognizer (does the grammar accept this text?) and a
// seeded sampler (draw a random string from the grammar's language). Together with the parser they
// let the tests prove the compilers sound and complete, inside any JS runtime.

import { ConstraintError } from './errors.js';
import type { CharRanges, Expr, Grammar } from '../automaton/expr.js';
import { classMembers, codePointsOf, rangesContain } from '../automaton/expr.js';

// ---- recognizer -------------------------------------------------------------------------------

export interface RecognizeOptions {
  /**
   * Gives up with ConstraintError('too-large') after this many matching steps. Nested repetitions
   * are matched afresh from each offset, so the cost is polynomial with the nesting as exponent.
   */
  maxSteps?: number;
}

/**
 * True when `text` is in the grammar's language. Computes, for every rule and start offset, the set
 * of end offsets it can reach (memoised), so ambiguity costs polynomial time, never exponential.
 * Left-recursive grammars are rejected (llama.cpp rejects them too).
 */
export function recognizeGbnf(grammar: Grammar, text: string, options: RecognizeOptions = {}): boolean {
  const maxSteps = options.maxSteps ?? Infinity;
  const budget = { steps: maxSteps };
  const accepted = recognizeWithin(grammar, text, budget);
  if (accepted === null)
    throw new ConstraintError(
      'too-large',
      `recognizing a text of ${text.length} characters took more than ${maxSteps} steps`,
    );
  return accepted;
}

/** recognizeGbnf spending from `budget.steps`, shared by several calls; null once it runs out. */
export function recognizeWithin(grammar: Grammar, text: string, budget: { steps: number }): boolean | null {
  try {
    return recognize(grammar, text, budget);
  } catch (error) {
    if (error === OUT_OF_STEPS) return null;
    throw error;
  }
}

const OUT_OF_STEPS = new Error('out of steps');

function recognize(grammar: Grammar, text: string, budget: { steps: number }): boolean {
  const input = codePointsOf(text);
  const memo = new Map<string, Map<number, number[] | 'pending'>>();
  for (const name of grammar.rules.keys()) memo.set(name, new Map());

  const matchRule = (name: string, pos: number): number[] => {
    const table = memo.get(name);
    const body = grammar.rules.get(name);
    if (!table || !body) throw new ConstraintError('invalid-gbnf', `undefined rule '${name}'`);
    const cached = table.get(pos);
    if (cached === 'pending') throw new ConstraintError('invalid-gbnf', `rule '${name}' is left-recursive`);
    if (cached) return cached;
    table.set(pos, 'pending');
    const result = match(body, pos);
    table.set(pos, result);
    return result;
  };

  const match = (expr: Expr, pos: number): number[] => {
    if (--budget.steps < 0) throw OUT_OF_STEPS;
    switch (expr.kind) {
      case 'literal': {
        let p = pos;
        for (const ch of expr.text) {
          if (input[p] !== ch.codePointAt(0)) return [];
          p++;
        }
        return [p];
      }
      case 'class': {
        if (pos >= input.length) return [];
        const inRanges = rangesContain(expr.ranges, input[pos]);
        return inRanges !== expr.negated ? [pos + 1] : [];
      }
      case 'ref':
        return matchRule(expr.name, pos);
      case 'seq': {
        let frontier = [pos];
        for (const item of expr.items) {
          const next = new Set<number>();
          for (const p of frontier) for (const q of match(item, p)) next.add(q);
          if (next.size === 0) return [];
          frontier = [...next];
        }
        return frontier;
      }
      case 'alt': {
        const out = new Set<number>();
        for (const option of expr.options) for (const q of match(option, pos)) out.add(q);
        return [...out];
      }
      case 'repeat': {
        const results = new Set<number>();
        if (expr.min === 0) results.add(pos);
        let frontier = [pos];
        for (let count = 1; frontier.length > 0 && (expr.max === null || count <= expr.max); count++) {
          const next = new Set<number>();
          for (const p of frontier) for (const q of match(expr.body, p)) next.add(q);
          if (count < expr.min) {
            frontier = [...next];
            continue;
          }
          // An offset already reached with at least `min` repetitions has nothing new to offer:
          // its continuations are a superset of those from a later visit.
          frontier = [];
          for (const q of next) {
            if (!results.has(q)) {
              results.add(q);
              frontier.push(q);
            }
          }
        }
        return [...results];
      }
    }
  };

  return matchRule(grammar.root, 0).includes(input.length);
}

// ---- sampler ----------------------------------------------------------------------------------

/** A deterministic PRNG (mulberry32): same seed, same samples, in every runtime. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SampleOptions {
  /** Beyond this rule depth the sampler steers to the shortest derivations, so it terminates. */
  softDepth?: number;
  /** Extra repetitions drawn above a repetition's minimum (before `softDepth`). */
  maxExtraRepeats?: number;
}

// Characters worth drawing: printable ASCII, JSON specials, and a few non-ASCII, astral and
// line-separator code points that exercise escaping and code point (not UTF-16) counting.
const INTERESTING = [
  ...Array.from({ length: 95 }, (_, i) => 0x20 + i),
  0x09,
  0x0a,
  0x0d,
  0x01,
  0x1f,
  0x7f,
  0xa0,
  0xe9,
  0xf1,
  0xdf,
  0x3c9,
  0x2028,
  0x65e5,
  0x1f600,
  0x17f,
  0x212a,
];

function sampleChar(members: CharRanges, random: () => number): number {
  if (random() < 0.85) {
    const candidates = INTERESTING.filter((cp) => rangesContain(members, cp));
    if (candidates.length) return candidates[Math.floor(random() * candidates.length)];
  }
  const usable = members.filter(([lo, hi]) => !(lo >= 0xd800 && hi <= 0xdfff) && hi > 0);
  if (usable.length === 0) throw new ConstraintError('unsatisfiable', 'character class matches no character');
  for (let attempt = 0; attempt < 64; attempt++) {
    const [lo, hi] = usable[Math.floor(random() * usable.length)];
    const cp = lo + Math.floor(random() * (hi - lo + 1));
    if (cp !== 0 && (cp < 0xd800 || cp > 0xdfff)) return cp;
  }
  return usable.find(([lo]) => lo > 0 && (lo < 0xd800 || lo > 0xdfff))?.[0] ?? usable[0][1];
}

/** How many rule expansions the shortest derivation needs (Infinity: none terminates). */
export function derivationHeights(grammar: Grammar): Map<string, number> {
  const heights = new Map<string, number>();
  for (const name of grammar.rules.keys()) heights.set(name, Infinity);
  let changed = true;
  while (changed) {
    changed = false;
    for (const [name, body] of grammar.rules) {
      const h = 1 + exprHeight(body, heights);
      if (h < heights.get(name)!) {
        heights.set(name, h);
        changed = true;
      }
    }
  }
  return heights;
}

function exprHeight(expr: Expr, heights: Map<string, number>): number {
  switch (expr.kind) {
    case 'literal':
    case 'class':
      return 0;
    case 'ref':
      return heights.get(expr.name) ?? Infinity;
    case 'seq':
      return expr.items.reduce((h, item) => Math.max(h, exprHeight(item, heights)), 0);
    case 'alt':
      return expr.options.reduce((h, option) => Math.min(h, exprHeight(option, heights)), Infinity);
    case 'repeat':
      return expr.min === 0 ? 0 : exprHeight(expr.body, heights);
  }
}

/** Draws one string from the grammar's language, deterministically for a given `random`. */
export function sampleGbnf(grammar: Grammar, random: () => number, options: SampleOptions = {}): string {
  const softDepth = options.softDepth ?? 12;
  const maxExtra = options.maxExtraRepeats ?? 4;
  const heights = derivationHeights(grammar);
  if (heights.get(grammar.root) === Infinity) {
    throw new ConstraintError('unsatisfiable', 'the grammar has no finite derivation');
  }
  const out: string[] = [];

  const sample = (expr: Expr, depth: number): void => {
    switch (expr.kind) {
      case 'literal':
        out.push(expr.text);
        return;
      case 'class':
        out.push(String.fromCodePoint(sampleChar(classMembers(expr), random)));
        return;
      case 'ref':
        sample(grammar.rules.get(expr.name)!, depth + 1);
        return;
      case 'seq':
        for (const item of expr.items) sample(item, depth);
        return;
      case 'alt': {
        const finite = expr.options.filter((o) => exprHeight(o, heights) < Infinity);
        let pool = finite;
        if (depth > softDepth) {
          const best = finite.reduce((low, o) => Math.min(low, exprHeight(o, heights)), Infinity);
          pool = finite.filter((o) => exprHeight(o, heights) === best);
        }
        sample(pool[Math.floor(random() * pool.length)], depth);
        return;
      }
      case 'repeat': {
        let count = expr.min;
        if (depth <= softDepth && exprHeight(expr.body, heights) < Infinity) {
          const room = expr.max === null ? maxExtra : Math.min(expr.max - expr.min, maxExtra);
          // Sometimes go to the upper bound, which is where off-by-one errors live.
          if (expr.max !== null && expr.max - expr.min <= 64 && random() < 0.2) count = expr.max;
          else count += Math.floor(random() * (room + 1));
        }
        for (let i = 0; i < count; i++) sample(expr.body, depth);
        return;
      }
    }
  };

  sample({ kind: 'ref', name: grammar.root }, 0);
  return out.join('');
}
