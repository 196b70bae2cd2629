// Explicit deterministic automata over code points, for what a grammar of nested rules cannot say
// directly: the intersection of several patterns, formats and a length (JSON Schema applies them
// all), and a number's range together with its multipleOf. A regex's automaton is read off the
// token masker's lazily built one (src/automaton/automaton.ts), products are explored breadth first
// from the start, and the result is written back as rules: one per state that several states lead
// to, the others inline. Such a grammar is deterministic, so llama.cpp keeps one parse stack.
// Every state built counts in the compile's work bound, and past `maxStates` the caller is told
// (undefined) and keeps an approximation, listed, for the validator.

import { Automaton, AutomatonLimitError, DEAD } from '../automaton/automaton.js';
import type { CharRanges, Expr } from '../automaton/expr.js';
import type { GrammarBuilder } from './grammar-builder.js';
import { EMPTY, altOf, charClass, literal, normalizeRanges, optional, seqOf } from '../automaton/expr.js';

export interface Dfa {
  /** Class boundaries: class c holds [bounds[c], bounds[c + 1] - 1] (the last up to U+10FFFF). */
  readonly bounds: readonly number[];
  /** next[state * classes + c]: the next state, or -1. State 0 is the start. */
  readonly next: Int32Array;
  readonly accepting: readonly boolean[];
}

const MAX_CODE_POINT = 0x10ffff;

/** Counts states as they are made; `spend` is the compile's work bound. */
export interface DfaBudget {
  maxStates: number;
  spend: (units: number) => void;
}

class TooManyStates extends Error {}

/** Breadth-first construction from the start, `step(key, class)` giving the next state's key or null. */
function explore<K>(
  bounds: readonly number[],
  start: K,
  id: (key: K) => string,
  step: (key: K, cls: number) => K | null,
  accept: (key: K) => boolean,
  budget: DfaBudget,
): Dfa {
  const classes = bounds.length;
  const ids = new Map<string, number>([[id(start), 0]]);
  const keys: K[] = [start];
  let next = new Int32Array(Math.max(16, classes * 16)).fill(-1);
  const accepting: boolean[] = [];
  for (let s = 0; s < keys.length; s++) {
    if (keys.length > budget.maxStates) throw new TooManyStates();
    if (s % 8 === 0) budget.spend(1 + Math.floor(classes / 64));
    accepting.push(accept(keys[s]));
    for (let c = 0; c < classes; c++) {
      const target = step(keys[s], c);
      if (target === null) continue;
      const key = id(target);
      let t = ids.get(key);
      if (t === undefined) {
        t = keys.length;
        ids.set(key, t);
        keys.push(target);
      }
      if (next.length < (s + 1) * classes) {
        const grown = new Int32Array(next.length * 2).fill(-1);
        grown.set(next);
        next = grown;
      }
      next[s * classes + c] = t;
    }
  }
  const table = new Int32Array(keys.length * classes).fill(-1);
  table.set(next.subarray(0, Math.min(next.length, table.length)));
  return { bounds, next: table, accepting };
}

/** The automaton of a regex expression (over code points, no rule references), or undefined past the budget. */
export function dfaOfExpr(expr: Expr, budget: DfaBudget): Dfa | undefined {
  try {
    const automaton = new Automaton({ rules: new Map([['root', expr]]), root: 'root' });
    return explore(
      [...automaton.bounds],
      automaton.initial,
      String,
      (state, cls) => {
        const next = automaton.step(state, cls);
        return next === DEAD ? null : next;
      },
      (state) => automaton.isAccepting(state),
      budget,
    );
  } catch (error) {
    if (error instanceof TooManyStates || error instanceof AutomatonLimitError || error instanceof RangeError)
      return undefined;
    throw error;
  }
}

/**
 * An automaton given as a start state, a step over single code points (`chars`, each a class of its
 * own; every other code point leads nowhere) and acceptance, or undefined past the budget.
 */
export function dfaOfSteps<K>(
  chars: readonly number[],
  start: K,
  key: (state: K) => string,
  step: (state: K, char: number) => K | null,
  accept: (state: K) => boolean,
  budget: DfaBudget,
): Dfa | undefined {
  const bounds = classBoundsOf([chars.map((c) => [c, c] as [number, number])]);
  const member = new Set(chars);
  try {
    return explore(
      bounds,
      start,
      key,
      (state, cls) => (member.has(bounds[cls]) ? step(state, bounds[cls]) : null),
      accept,
      budget,
    );
  } catch (error) {
    if (error instanceof TooManyStates) return undefined;
    throw error;
  }
}

/** Any string of code points in `chars` of min..max characters (max null: no bound). */
export function lengthDfa(chars: CharRanges, min: number, max: number | null): Dfa {
  const bounds = classBoundsOf([chars]);
  const inside = bounds.map((lo) => chars.some(([a, b]) => a <= lo && lo <= b));
  const last = max ?? min;
  const states = last + 1;
  const next = new Int32Array(states * bounds.length).fill(-1);
  const accepting: boolean[] = [];
  for (let s = 0; s < states; s++) {
    accepting.push(s >= min);
    const to = s < last ? s + 1 : max === null ? s : -1;
    if (to < 0) continue;
    for (let c = 0; c < bounds.length; c++) if (inside[c]) next[s * bounds.length + c] = to;
  }
  return { bounds, next, accepting };
}

/** Class boundaries that separate every range of every set. */
export function classBoundsOf(sets: readonly CharRanges[]): number[] {
  const cuts = new Set<number>([0]);
  for (const ranges of sets) {
    for (const [lo, hi] of ranges) {
      cuts.add(lo);
      if (hi < MAX_CODE_POINT) cuts.add(hi + 1);
    }
  }
  return [...cuts].sort((a, b) => a - b);
}

function classOf(bounds: readonly number[], codePoint: number): number {
  let lo = 0;
  let hi = bounds.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (bounds[mid] <= codePoint) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The strings every automaton accepts, or undefined past the budget. */
export function intersectDfas(dfas: readonly Dfa[], budget: DfaBudget): Dfa | undefined {
  if (dfas.length === 1) return dfas[0];
  const cuts = new Set<number>();
  for (const dfa of dfas) for (const b of dfa.bounds) cuts.add(b);
  const bounds = [...cuts].sort((a, b) => a - b);
  const maps = dfas.map((dfa) => bounds.map((lo) => classOf(dfa.bounds, lo)));
  try {
    return explore(
      bounds,
      dfas.map(() => 0),
      (key) => key.join(','),
      (key, cls) => {
        const out: number[] = [];
        for (let i = 0; i < dfas.length; i++) {
          const dfa = dfas[i];
          const t = dfa.next[key[i] * dfa.bounds.length + maps[i][cls]];
          if (t < 0) return null;
          out.push(t);
        }
        return out;
      },
      (key) => key.every((s, i) => dfas[i].accepting[s]),
      budget,
    );
  } catch (error) {
    if (error instanceof TooManyStates) return undefined;
    throw error;
  }
}

/** States from which an accepting state can be reached. */
function liveStates(dfa: Dfa): boolean[] {
  const classes = dfa.bounds.length;
  const n = dfa.accepting.length;
  const back: number[][] = Array.from({ length: n }, () => []);
  for (let s = 0; s < n; s++)
    for (let c = 0; c < classes; c++) if (dfa.next[s * classes + c] >= 0) back[dfa.next[s * classes + c]].push(s);
  const live = dfa.accepting.slice();
  const pending = live.flatMap((a, s) => (a ? [s] : []));
  while (pending.length) for (const p of back[pending.pop()!]) if (!live[p]) ((live[p] = true), pending.push(p));
  return live;
}

/** Whether the automaton accepts some string. */
export const dfaIsEmpty = (dfa: Dfa): boolean => !liveStates(dfa)[0];

/**
 * The automaton with equivalent states merged (Hopcroft's partition refinement, O(k n log n)),
 * dead ends dropped, renumbered from the start breadth first.
 */
export function minimizeDfa(dfa: Dfa): Dfa {
  const classes = dfa.bounds.length;
  const live = liveStates(dfa);
  const target = (s: number, c: number) => {
    const t = dfa.next[s * classes + c];
    return t >= 0 && live[t] ? t : -1;
  };
  const block = refine(dfa, live);
  const order = new Map<number, number>([[block[0], 0]]);
  const representative: number[] = [0];
  for (let i = 0; i < representative.length; i++) {
    const s = representative[i];
    for (let c = 0; c < classes; c++) {
      const t = target(s, c);
      if (t < 0 || order.has(block[t])) continue;
      order.set(block[t], order.size);
      representative.push(t);
    }
  }
  const next = new Int32Array(representative.length * classes).fill(-1);
  representative.forEach((s, i) => {
    for (let c = 0; c < classes; c++) {
      const t = target(s, c);
      if (t >= 0) next[i * classes + c] = order.get(block[t])!;
    }
  });
  return { bounds: dfa.bounds, next, accepting: representative.map((s) => dfa.accepting[s]) };
}

/**
 * Each state's block of equivalent states (Hopcroft): the automaton made complete with a sink
 * (state n, where every missing or dead transition goes), states split by acceptance, then by each
 * block's predecessors under each class until nothing splits. Blocks are ranges of `elems`.
 */
function refine(dfa: Dfa, live: readonly boolean[]): Int32Array {
  const classes = dfa.bounds.length;
  const n = dfa.accepting.length;
  const size = n + 1;
  const step = (s: number, c: number) => {
    if (s === n) return n;
    const t = dfa.next[s * classes + c];
    return t >= 0 && live[t] ? t : n;
  };
  // Predecessors per (class, state), in one array (CSR).
  const start = new Int32Array(classes * size + 1);
  for (let c = 0; c < classes; c++) for (let s = 0; s < size; s++) start[c * size + step(s, c) + 1]++;
  for (let i = 0; i < classes * size; i++) start[i + 1] += start[i];
  const fill = start.slice(0, classes * size);
  const preds = new Int32Array(classes * size);
  for (let c = 0; c < classes; c++) for (let s = 0; s < size; s++) preds[fill[c * size + step(s, c)]++] = s;

  const elems = new Int32Array(size);
  const loc = new Int32Array(size);
  const block = new Int32Array(size);
  const first: number[] = [];
  const end: number[] = [];
  let k = 0;
  for (const accepting of [true, false]) {
    const from = k;
    for (let s = 0; s < size; s++) {
      if ((s < n && dfa.accepting[s]) !== accepting) continue;
      elems[k] = s;
      loc[s] = k;
      block[s] = first.length;
      k++;
    }
    if (k > from) {
      first.push(from);
      end.push(k);
    }
  }
  const pending: number[] = first.map((_, b) => b);
  const waiting: boolean[] = first.map(() => true);
  const marked: number[] = [];
  const touched: number[] = [];
  const isMarked = new Uint8Array(size);
  while (pending.length) {
    const a = pending.pop()!;
    waiting[a] = false;
    const splitter = Array.from(elems.subarray(first[a], end[a]));
    for (let c = 0; c < classes; c++) {
      for (const t of splitter) {
        for (let i = start[c * size + t]; i < start[c * size + t + 1]; i++) {
          const s = preds[i];
          if (isMarked[s]) continue;
          isMarked[s] = 1;
          const b = block[s];
          if (marked[b] === undefined || marked[b] === 0) touched.push(b);
          // Move s to the front part of its block's range.
          const at = first[b] + (marked[b] ?? 0);
          const other = elems[at];
          elems[loc[s]] = other;
          loc[other] = loc[s];
          elems[at] = s;
          loc[s] = at;
          marked[b] = (marked[b] ?? 0) + 1;
        }
      }
      for (const b of touched) {
        const count = marked[b];
        marked[b] = 0;
        for (let i = first[b]; i < first[b] + count; i++) isMarked[elems[i]] = 0;
        if (count === end[b] - first[b]) continue;
        // The marked states become a block of their own.
        const nb = first.length;
        first.push(first[b]);
        end.push(first[b] + count);
        first[b] += count;
        for (let i = first[nb]; i < end[nb]; i++) block[elems[i]] = nb;
        if (waiting[b]) {
          pending.push(nb);
          waiting.push(true);
        } else {
          const smaller = end[nb] - first[nb] <= end[b] - first[b] ? nb : b;
          waiting.push(smaller === nb);
          if (smaller === b) waiting[b] = true;
          pending.push(smaller);
        }
      }
      touched.length = 0;
    }
  }
  return block;
}

export interface DfaEmit {
  /** An expression for one step over these code points (JSON-escaped for string content). */
  step: (ranges: CharRanges) => Expr;
  /** A reserved rule name for a state several states lead to. */
  reserve: () => string;
  define: (name: string, body: Expr) => void;
  /** Inline states nest one level each; past this many the rest goes to a rule. */
  nesting: number;
  /** The most edges and ranges (a measure of the grammar's size) the rules may have: past it, undefined. */
  maxCost: number;
}

/**
 * The automaton (minimized, live states only) as rules: the start and every state with more than
 * one way in get a rule, the others are written inline where they are reached; undefined when the
 * rules would be larger than `maxCost`. A state's body is
 * one alternative per next state (the characters that lead there), and the empty string where it
 * accepts (written as an optional).
 */
export function dfaToExpr(input: Dfa, out: DfaEmit): Expr | undefined {
  const dfa = minimizeDfa(input);
  const classes = dfa.bounds.length;
  const n = dfa.accepting.length;
  const edges: { target: number; ranges: [number, number][] }[][] = [];
  const indegree = new Array<number>(n).fill(0);
  for (let s = 0; s < n; s++) {
    const byTarget = new Map<number, [number, number][]>();
    for (let c = 0; c < classes; c++) {
      const t = dfa.next[s * classes + c];
      if (t < 0) continue;
      let ranges = byTarget.get(t);
      if (!ranges) byTarget.set(t, (ranges = []));
      ranges.push([dfa.bounds[c], c + 1 < classes ? dfa.bounds[c + 1] - 1 : MAX_CODE_POINT]);
    }
    edges.push([...byTarget].map(([target, ranges]) => ({ target, ranges: normalizeRanges(ranges) })));
    for (const t of byTarget.keys()) indegree[t]++;
  }
  // The grammar's size: a rule and its alternatives per state, a class per edge.
  let cost = 0;
  for (const list of edges) for (const e of list) cost += 1 + e.ranges.length;
  if (cost > out.maxCost) return undefined;
  const names = new Map<number, string>();
  // A state with nowhere to go is the empty string wherever it is reached: never a rule of its own.
  const named = (s: number) => s === 0 || (indegree[s] > 1 && edges[s].length > 0);
  for (let s = 0; s < n; s++) if (named(s)) names.set(s, out.reserve());
  // Bodies bottom-up without recursion: an inline state's body is built before the one that uses it.
  const bodies = new Map<number, Expr>();
  const depthOf = new Map<number, number>();
  const body = (root: number): Expr => {
    const stack = [root];
    while (stack.length) {
      const s = stack[stack.length - 1];
      const missing = edges[s].filter((e) => !named(e.target) && !bodies.has(e.target)).map((e) => e.target);
      if (missing.length) {
        stack.push(...missing);
        continue;
      }
      stack.pop();
      if (bodies.has(s)) continue;
      let depth = 0;
      const options = edges[s].map((e) => {
        if (named(e.target)) return seqOf([out.step(e.ranges), { kind: 'ref', name: names.get(e.target)! } as Expr]);
        depth = Math.max(depth, depthOf.get(e.target)! + 1);
        return seqOf([out.step(e.ranges), bodies.get(e.target)!]);
      });
      let expr: Expr = options.length === 0 ? EMPTY : dfa.accepting[s] ? optional(altOf(options)) : altOf(options);
      if (s !== root && depth >= out.nesting) {
        const name = out.reserve();
        out.define(name, expr);
        expr = { kind: 'ref', name };
        depth = 0;
      }
      bodies.set(s, expr);
      depthOf.set(s, depth);
    }
    return bodies.get(root)!;
  };
  for (const [s, name] of names) if (s !== 0) out.define(name, body(s));
  const start = body(0);
  out.define(names.get(0)!, start);
  return { kind: 'ref', name: names.get(0)! };
}

/** Edges and ranges (dfaToExpr's measure of size) an automaton's rules may have: about 60,000 grammar characters of string content. */
export const MAX_EMIT_COST = 3_000;

/** The automaton as rules named after `hint` in the builder, each step written by `step`; undefined past MAX_EMIT_COST. */
export function dfaRules(
  dfa: Dfa,
  builder: GrammarBuilder,
  hint: string,
  step: (ranges: CharRanges) => Expr,
): Expr | undefined {
  return dfaToExpr(dfa, {
    step,
    reserve: () => builder.reserve(hint),
    define: (name, body) => builder.define(name, body),
    nesting: 64,
    maxCost: MAX_EMIT_COST,
  });
}

/** A single code point or a class, as the regex compiler writes them. */
export const rangesExpr = (ranges: CharRanges): Expr =>
  ranges.length === 1 && ranges[0][0] === ranges[0][1]
    ? literal(String.fromCodePoint(ranges[0][0]))
    : charClass(ranges);
