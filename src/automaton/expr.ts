// The grammar intermediate representation shared by every front end (JSON Schema, regex, choices,
// types) and by the GBNF parser, sampler and recognizer. Characters are Unicode code points, as in
// llama.cpp, so astral characters count as one.

/** Sorted, disjoint, non-adjacent inclusive code point ranges. */
export type CharRanges = ReadonlyArray<readonly [number, number]>;

export type Expr =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'class'; readonly ranges: CharRanges; readonly negated: boolean }
  | { readonly kind: 'ref'; readonly name: string }
  | { readonly kind: 'seq'; readonly items: readonly Expr[] }
  | { readonly kind: 'alt'; readonly options: readonly Expr[] }
  | { readonly kind: 'repeat'; readonly body: Expr; readonly min: number; readonly max: number | null };

export interface Grammar {
  /** Rule definitions; iteration order is emission order. */
  readonly rules: ReadonlyMap<string, Expr>;
  readonly root: string;
}

export const MAX_CODE_POINT = 0x10ffff;

/**
 * What our front ends let a generated string contain: every code point except NUL (llama.cpp uses 0
 * as an end marker) and the UTF-16 surrogates (no UTF-8 token can produce them).
 */
export const GENERATABLE: CharRanges = [
  [1, 0xd7ff],
  [0xe000, MAX_CODE_POINT],
];

export const EMPTY: Expr = { kind: 'literal', text: '' };

export const literal = (text: string): Expr => ({ kind: 'literal', text });
export const ref = (name: string): Expr => ({ kind: 'ref', name });
export const charClass = (ranges: CharRanges, negated = false): Expr => ({ kind: 'class', ranges, negated });
export const repeat = (body: Expr, min: number, max: number | null): Expr =>
  min === 1 && max === 1 ? body : max === 0 ? EMPTY : { kind: 'repeat', body, min, max };
export const optional = (body: Expr): Expr => repeat(body, 0, 1);

/** A sequence, flattening nested sequences, joining adjacent literals and dropping empty ones. */
export function seq(...items: Expr[]): Expr {
  return seqOf(items);
}

// The array forms exist because a spread call puts every element on the stack: a regex of 100,000
// characters or a list of 100,000 choices overflowed it (RangeError) where a loop does not.
/** `seq` over an array of any length. */
export function seqOf(items: readonly Expr[]): Expr {
  const flat: Expr[] = [];
  const push = (item: Expr) => {
    const last = flat[flat.length - 1];
    if (item.kind === 'literal' && item.text === '') return;
    if (item.kind === 'literal' && last?.kind === 'literal') flat[flat.length - 1] = literal(last.text + item.text);
    else flat.push(item);
  };
  for (const item of items) {
    if (item.kind === 'seq') for (const inner of item.items) push(inner);
    else push(item);
  }
  if (flat.length === 0) return EMPTY;
  if (flat.length === 1) return flat[0];
  return { kind: 'seq', items: flat };
}

/** An alternation, flattening nested alternations. */
export function alt(...options: Expr[]): Expr {
  return altOf(options);
}

/** `alt` over an array of any length. */
export function altOf(options: readonly Expr[]): Expr {
  const flat: Expr[] = [];
  for (const option of options) {
    if (option.kind === 'alt') for (const inner of option.options) flat.push(inner);
    else flat.push(option);
  }
  if (flat.length === 1) return flat[0];
  return { kind: 'alt', options: flat };
}

// ---- character sets ---------------------------------------------------------------------------

export function normalizeRanges(input: Iterable<readonly [number, number]>): [number, number][] {
  const sorted = [...input].filter(([lo, hi]) => lo <= hi).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function complementRanges(ranges: CharRanges, universe: CharRanges = [[0, MAX_CODE_POINT]]): [number, number][] {
  const out: [number, number][] = [];
  for (const [ulo, uhi] of universe) {
    let next = ulo;
    for (const [lo, hi] of ranges) {
      if (hi < next || lo > uhi) continue;
      if (lo > next) out.push([next, Math.min(lo - 1, uhi)]);
      next = Math.max(next, hi + 1);
    }
    if (next <= uhi) out.push([next, uhi]);
  }
  return normalizeRanges(out);
}

export function intersectRanges(a: CharRanges, b: CharRanges): [number, number][] {
  const out: [number, number][] = [];
  for (const [alo, ahi] of a) {
    for (const [blo, bhi] of b) {
      const lo = Math.max(alo, blo);
      const hi = Math.min(ahi, bhi);
      if (lo <= hi) out.push([lo, hi]);
    }
  }
  return normalizeRanges(out);
}

export function rangesContain(ranges: CharRanges, codePoint: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [rlo, rhi] = ranges[mid];
    if (codePoint < rlo) hi = mid - 1;
    else if (codePoint > rhi) lo = mid + 1;
    else return true;
  }
  return false;
}

export function rangesSize(ranges: CharRanges): number {
  let total = 0;
  for (const [lo, hi] of ranges) total += hi - lo + 1;
  return total;
}

/** The code points a class expression matches, as positive ranges. */
export function classMembers(expr: { ranges: CharRanges; negated: boolean }): CharRanges {
  return expr.negated ? complementRanges(expr.ranges) : expr.ranges;
}

export function codePointsOf(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) out.push(ch.codePointAt(0)!);
  return out;
}

/** True when the expression can match the empty string, given which rules are nullable. */
export function isNullable(expr: Expr, nullableRules: ReadonlySet<string> = new Set()): boolean {
  switch (expr.kind) {
    case 'literal':
      return expr.text === '';
    case 'class':
      return false;
    case 'ref':
      return nullableRules.has(expr.name);
    case 'seq':
      return expr.items.every((item) => isNullable(item, nullableRules));
    case 'alt':
      return expr.options.some((option) => isNullable(option, nullableRules));
    case 'repeat':
      return expr.min === 0 || isNullable(expr.body, nullableRules);
  }
}

/** Fixpoint: the set of rules that can derive the empty string. */
export function nullableRules(grammar: Grammar): Set<string> {
  const nullable = new Set<string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const [name, body] of grammar.rules) {
      if (!nullable.has(name) && isNullable(body, nullable)) {
        nullable.add(name);
        changed = true;
      }
    }
  }
  return nullable;
}

// ---- nesting ----------------------------------------------------------------------------------

/**
 * Deepest expression nesting accepted in a rule body. Every pass over the IR (formatting, size,
 * nullability, recognition, sampling, the GBNF parser) recurses once per level, a few stack frames
 * each, so an unbounded depth is a stack overflow (RangeError). The deepest the compilers build on
 * purpose is an integer range of 309 digits, about 620 levels.
 */
export const MAX_EXPR_DEPTH = 1000;

const depths = new WeakMap<Expr, number>();

function children(expr: Expr): readonly Expr[] {
  switch (expr.kind) {
    case 'seq':
      return expr.items;
    case 'alt':
      return expr.options;
    case 'repeat':
      return [expr.body];
    default:
      return [];
  }
}

const isLeaf = (expr: Expr) => expr.kind !== 'seq' && expr.kind !== 'alt' && expr.kind !== 'repeat';

/**
 * Nesting depth of an expression (a leaf is 1), iteratively and once per inner node. Leaves, most of
 * a grammar's nodes, are not memoized: a large schema's grammar spent most of this walk in the map.
 */
export function exprDepth(root: Expr): number {
  if (isLeaf(root)) return 1;
  const stack: Expr[] = [root];
  while (stack.length) {
    const expr = stack[stack.length - 1];
    if (depths.has(expr)) {
      stack.pop();
      continue;
    }
    let deepest = 0;
    let pending = false;
    for (const child of children(expr)) {
      if (isLeaf(child)) {
        deepest = Math.max(deepest, 1);
        continue;
      }
      const depth = depths.get(child);
      if (depth === undefined) {
        stack.push(child);
        pending = true;
      } else if (depth > deepest) deepest = depth;
    }
    if (pending) continue;
    stack.pop();
    depths.set(expr, 1 + deepest);
  }
  return depths.get(root)!;
}

/** The fewest and most code points a string of the expression has (max null: no bound); a rule reference counts as any. */
export function lengthBounds(expr: Expr): [number, number | null] {
  switch (expr.kind) {
    case 'literal':
      return [codePointsOf(expr.text).length, codePointsOf(expr.text).length];
    case 'class':
      return [1, 1];
    case 'ref':
      return [0, null];
    case 'seq': {
      let min = 0;
      let max: number | null = 0;
      for (const item of expr.items) {
        const [a, b] = lengthBounds(item);
        min += a;
        max = max === null || b === null ? null : max + b;
      }
      return [min, max];
    }
    case 'alt': {
      let min = Infinity;
      let max: number | null = 0;
      for (const option of expr.options) {
        const [a, b] = lengthBounds(option);
        min = Math.min(min, a);
        max = max === null || b === null ? null : Math.max(max, b);
      }
      return [min === Infinity ? 0 : min, max];
    }
    case 'repeat': {
      const [a, b] = lengthBounds(expr.body);
      return [a * expr.min, expr.max === null ? (b === 0 ? 0 : null) : b === null ? null : b * expr.max];
    }
  }
}
