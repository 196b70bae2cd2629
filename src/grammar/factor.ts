// Alternatives that begin with the same text, merged into one path that branches where they differ
// (left factoring). llama.cpp keeps a parse stack for every alternative a prefix matches and tests
// each candidate token against each: an enum of 463 license names (all starting with `"`) cost it
// 88 ms a token on a 151,936-token vocabulary, 200 object branches of one shared key 96 ms; merged,
// one stack. Only groups of more than FACTOR_GROUP alternatives are merged, so small alternations
// (and the golden grammars) read as written.

import type { Expr } from '../automaton/expr.js';
import { EMPTY, altOf, literal, seqOf } from '../automaton/expr.js';

/** Alternatives sharing a first character are merged when there are more than this many. */
export const FACTOR_GROUP = 8;

/** Levels of merging before the rest goes to a rule (`share`), so a long shared text never nests deep. */
const NESTING_PER_RULE = 64;

interface Option {
  /** The option's leading text (code points), and what follows it. */
  head: string[];
  rest: Expr[];
}

function split(option: Expr, deref: (name: string) => Expr | undefined): Option {
  let expr = option;
  // A rule of its own (a union's branch) is looked into.
  if (expr.kind === 'ref') expr = deref(expr.name) ?? expr;
  if (expr.kind === 'literal') return { head: [...expr.text], rest: [] };
  if (expr.kind === 'seq' && expr.items[0].kind === 'literal')
    return { head: [...expr.items[0].text], rest: expr.items.slice(1) };
  return { head: [], rest: [option] };
}

const join = (o: Option): Expr => seqOf([literal(o.head.join('')), ...o.rest]);

/**
 * The alternatives with every group of more than `group` that begins with one character merged
 * into its common text and the alternatives of what differs (recursively). `deref` looks into rule
 * references; `share` turns a body into a rule every NESTING_PER_RULE levels (without it, as in a
 * regex's expression, merging stops MAX_INLINE_DEPTH levels deep).
 */
export function factorAlternatives(
  options: readonly Expr[],
  deref: (name: string) => Expr | undefined,
  share: ((body: Expr) => Expr) | undefined,
  group = FACTOR_GROUP,
): Expr {
  const byFirst = new Map<string, number>();
  for (const option of options) {
    const first = split(option, deref).head[0];
    if (first !== undefined) byFirst.set(first, (byFirst.get(first) ?? 0) + 1);
  }
  if (![...byFirst.values()].some((n) => n > group)) return altOf(options);
  return merged(
    options.map((o) => split(o, deref)),
    0,
    share,
    group,
  );
}

/** Without rules to share (a regex's expression), merging stops at this depth. */
const MAX_INLINE_DEPTH = 200;

function merged(options: Option[], depth: number, share: ((body: Expr) => Expr) | undefined, size: number): Expr {
  const groups = new Map<string, Option[]>();
  const order: (Option | string)[] = [];
  for (const option of options) {
    const first = option.head[0];
    if (first === undefined) {
      order.push(option);
      continue;
    }
    let group = groups.get(first);
    if (!group) {
      groups.set(first, (group = []));
      order.push(first);
    }
    group.push(option);
  }
  const out: Expr[] = [];
  for (const entry of order) {
    if (typeof entry !== 'string') {
      out.push(join(entry));
      continue;
    }
    const group = groups.get(entry)!;
    if (group.length <= size || (!share && depth >= MAX_INLINE_DEPTH)) {
      for (const option of group) out.push(join(option));
      continue;
    }
    // The longest text every member begins with.
    let common = 1;
    while (group.every((o) => common < o.head.length && o.head[common] === group[0].head[common])) common++;
    const tails = group.map((o) => ({ head: o.head.slice(common), rest: o.rest }));
    const ends = tails.filter((t) => t.head.length === 0);
    const branches = tails.filter((t) => t.head.length > 0);
    const alternatives: Expr[] = [];
    if (branches.length) alternatives.push(merged(branches, depth + 1, share, size));
    for (const end of ends) alternatives.push(end.rest.length ? seqOf(end.rest) : EMPTY);
    let body = altOf(alternatives.flatMap((a) => (a.kind === 'alt' ? a.options : [a])));
    if (share && (depth + 1) % NESTING_PER_RULE === 0) body = share(body);
    out.push(seqOf([literal(group[0].head.slice(0, common).join('')), body]));
  }
  return altOf(out);
}
