// Regex to grammar. The regex is parsed (regex-parse.ts) and turned into the grammar IR construct by
// construct. Matching is per code point (as with the `u` flag, and as llama.cpp sees text), and a
// grammar always matches whole strings: anchors are accepted at the ends only.

import { ConstraintError } from './errors.js';
import type { CharRanges, Expr } from '../automaton/expr.js';
import {
  EMPTY,
  GENERATABLE,
  altOf,
  charClass,
  codePointsOf,
  complementRanges,
  intersectRanges,
  isNullable,
  literal,
  normalizeRanges,
  rangesContain,
  repeat,
  seq,
  seqOf,
} from '../automaton/expr.js';
import type { ClassEscape, ClassItem, RegexNode } from './regex-parse.js';
import { parseRegex } from './regex-parse.js';
import { simplifyRegex } from './regex-simplify.js';

export interface RegexToExprOptions {
  /** `search`: the regex may match anywhere (JSON Schema `pattern`); `full`: it must match the whole string. */
  semantics: 'full' | 'search';
}

const SUPPORTED_FLAGS = new Set(['i', 's', 'u', 'g', 'd', 'y']);

// ---- character sets ---------------------------------------------------------------------------

const DIGIT: CharRanges = [[0x30, 0x39]];
const WORD: CharRanges = normalizeRanges([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
const SPACE: CharRanges = normalizeRanges([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
const LINE_TERMINATORS: CharRanges = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

const restrict = (ranges: CharRanges) => intersectRanges(ranges, GENERATABLE);
const complement = (ranges: CharRanges) => complementRanges(ranges, GENERATABLE);

let casedCodePoints: number[] | undefined;

/** Code points that have another case (the only ones case-insensitive matching can add or remove), ascending. */
function cased(): number[] {
  if (!casedCodePoints) {
    casedCodePoints = [];
    for (let cp = 1; cp <= 0x1ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (ch.toLowerCase() !== ch || ch.toUpperCase() !== ch) casedCodePoints.push(cp);
    }
  }
  return casedCodePoints;
}

let casedText: string | undefined;
const caseEquivalents = new Map<number, number[]>();

/**
 * The cased code points a case-insensitive regex matches for `codePoint`. JS's own engine is the
 * oracle (simple case folding in `u` mode has surprises such as U+212A KELVIN SIGN matching `k`):
 * one global search through all ~3,000 cased code points, about 20 µs, once per code point.
 */
function equivalents(codePoint: number): number[] {
  let found = caseEquivalents.get(codePoint);
  if (!found) {
    casedText ??= cased()
      .map((cp) => String.fromCodePoint(cp))
      .join('');
    const matcher = new RegExp(`\\u{${codePoint.toString(16)}}`, 'giu');
    found = [...casedText.matchAll(matcher)].map((m) => m[0].codePointAt(0)!);
    caseEquivalents.set(codePoint, found);
  }
  return found;
}

/**
 * The set of characters a case-insensitive regex matches for `ranges`: each cased member adds its
 * equivalents. Only cased members can have any (checked over every code point: no character
 * without a case mapping folds together with one that has one). Walks whichever side of `ranges`
 * holds fewer cased code points: for a wide class, the few outside that fold into it. Before, every
 * call tested all 3,000 cased code points against a new RegExp: 'a' repeated 100,000 times with
 * flag i never finished.
 */
function caseClose(ranges: CharRanges): CharRanges {
  if (ranges.length === 0) return ranges;
  const list = cased();
  let inside = 0;
  for (const [lo, hi] of ranges) inside += firstAtLeast(list, hi + 1) - firstAtLeast(list, lo);
  const extra: [number, number][] = [];
  if (inside <= list.length - inside) {
    for (const [lo, hi] of ranges) {
      for (let k = firstAtLeast(list, lo); k < list.length && list[k] <= hi; k++) {
        for (const cp of equivalents(list[k])) if (!rangesContain(ranges, cp)) extra.push([cp, cp]);
      }
    }
  } else {
    for (const [lo, hi] of complementRanges(ranges)) {
      for (let k = firstAtLeast(list, lo); k < list.length && list[k] <= hi; k++) {
        if (equivalents(list[k]).some((cp) => rangesContain(ranges, cp))) extra.push([list[k], list[k]]);
      }
    }
  }
  return extra.length ? normalizeRanges([...ranges, ...extra]) : ranges;
}

let foldedWord: CharRanges | undefined;

/** Index of the first element >= value in an ascending list. */
function firstAtLeast(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// ---- conversion -------------------------------------------------------------------------------

interface Context {
  ignoreCase: boolean;
  dotAll: boolean;
  /**
   * The pattern is valid only without `u`, so `.`, negated classes and `\D \W \S` match one UTF-16
   * unit: never an astral character (two units), which the grammar would otherwise take as one.
   */
  unitsOnly: boolean;
}

const BMP: CharRanges = [[0, 0xffff]];

function unsupported(construct: string, position: number): never {
  throw new ConstraintError('unsupported-regex', `${construct} cannot be expressed in a grammar`, {
    position,
    keyword: construct,
  });
}

/** The (unfolded) set of a class escape such as `\d`; `\w` is folded under `i` as JS does. */
function escapeSet(name: ClassEscape, ctx: Context): CharRanges {
  const set = escapeSetAnyWidth(name, ctx);
  return ctx.unitsOnly && (name === 'D' || name === 'W' || name === 'S') ? intersectRanges(set, BMP) : set;
}

function escapeSetAnyWidth(name: ClassEscape, ctx: Context): CharRanges {
  switch (name) {
    case 'd':
      return DIGIT;
    case 'D':
      return complement(DIGIT);
    case 'w':
      return ctx.ignoreCase ? (foldedWord ??= caseClose(WORD)) : WORD;
    case 'W':
      return complement(ctx.ignoreCase ? (foldedWord ??= caseClose(WORD)) : WORD);
    case 's':
      return restrict(SPACE);
    case 'S':
      return complement(SPACE);
  }
}

function classSet(node: { negated: boolean; items: readonly ClassItem[] }, ctx: Context): CharRanges {
  const parts: (readonly [number, number])[] = [];
  for (const item of node.items) {
    if (item.type === 'range') parts.push([item.from, item.to]);
    else if (item.type === 'char') parts.push([item.codePoint, item.codePoint]);
    else for (const range of escapeSet(item.name, ctx)) parts.push(range);
  }
  const members = ctx.ignoreCase ? caseClose(normalizeRanges(parts)) : normalizeRanges(parts);
  if (!node.negated) return restrict(members);
  return ctx.unitsOnly ? intersectRanges(complement(members), BMP) : complement(members);
}

/** A set as an expression: single characters become literals so the GBNF stays readable. */
function setExpr(ranges: CharRanges): Expr {
  if (ranges.length === 1 && ranges[0][0] === ranges[0][1]) return literal(String.fromCodePoint(ranges[0][0]));
  return charClass(ranges);
}

function nonEmptySet(ranges: CharRanges, position: number): Expr {
  if (ranges.length === 0) {
    throw new ConstraintError(
      'unsatisfiable',
      'character set matches no character a model can produce (NUL and lone surrogates cannot be generated)',
      {
        position,
      },
    );
  }
  return setExpr(ranges);
}

function convert(node: RegexNode, ctx: Context): Expr {
  switch (node.type) {
    case 'sequence':
      return seqOf(node.items.map((item) => convert(item, ctx)));
    case 'disjunction':
      return altOf(node.options.map((option) => convert(option, ctx)));
    case 'char': {
      const set: CharRanges = [[node.codePoint, node.codePoint]];
      return nonEmptySet(restrict(ctx.ignoreCase ? caseClose(set) : set), node.position);
    }
    case 'escape':
      return nonEmptySet(escapeSet(node.name, ctx), node.position);
    case 'dot': {
      const set = ctx.dotAll ? GENERATABLE : complement(LINE_TERMINATORS);
      return setExpr(ctx.unitsOnly ? intersectRanges(set, BMP) : set);
    }
    case 'class':
      return nonEmptySet(classSet(node, ctx), node.position);
    case 'repeat':
      return repeat(convert(node.body, ctx), node.min, node.max);
    case 'anchor':
      return unsupported(
        node.kind === '^' ? 'anchor ^ away from the start' : 'anchor $ away from the end',
        node.position,
      );
  }
}

// ---- anchors ----------------------------------------------------------------------------------

interface Anchored {
  items: RegexNode[];
  start: boolean;
  end: boolean;
}

function stripAnchors(alternative: RegexNode): Anchored {
  const items = alternative.type === 'sequence' ? [...alternative.items] : [alternative];
  let start = 0;
  let end = items.length;
  while (start < end && items[start].type === 'anchor' && (items[start] as { kind: string }).kind === '^') start++;
  while (end > start && items[end - 1].type === 'anchor' && (items[end - 1] as { kind: string }).kind === '$') end--;
  return { items: items.slice(start, end), start: start > 0, end: end < items.length };
}

// ---- nullable repetitions ---------------------------------------------------------------------

/** Most items `(a? b? …){0,n}` may expand into: (a b c) minus ε is quadratic in the items. */
const MAX_NON_EMPTY_ITEMS = 100_000;

/** The expression's language without the empty string; null when nothing is left. */
function nonEmpty(expr: Expr): Expr | null {
  if (!isNullable(expr)) return expr;
  switch (expr.kind) {
    case 'literal':
    case 'class':
    case 'ref':
      return null;
    case 'alt': {
      const options = expr.options.map(nonEmpty).filter((o): o is Expr => o !== null);
      return options.length ? altOf(options) : null;
    }
    case 'seq': {
      // (a b c) minus ε = a' b c | b' c | c' when a, b, c are all nullable: n²/2 items, so a
      // pattern of 100,000 characters could ask for billions. Bounded, it fails fast instead.
      const n = expr.items.length;
      if ((n * (n + 1)) / 2 > MAX_NON_EMPTY_ITEMS) {
        throw new ConstraintError(
          'too-large',
          `a bounded repetition of ${n} optional parts would expand to about ${Math.round((n * (n + 1)) / 2)} items; use * or fewer parts`,
        );
      }
      const options: Expr[] = [];
      expr.items.forEach((item, i) => {
        const head = nonEmpty(item);
        if (head) options.push(seqOf([head, ...expr.items.slice(i + 1)]));
      });
      return options.length ? altOf(options) : null;
    }
    case 'repeat': {
      if (expr.max === 0) return null;
      const body = nonEmpty(expr.body);
      return body ? repeat(body, 1, expr.max) : null;
    }
  }
}

/**
 * Rewrites repetitions of nullable bodies (`(a?)*`, `(a|)+`): llama.cpp rejects or loops on an
 * unbounded repetition that can match nothing, and a bounded one makes parses ambiguous.
 * x{m,n} with x nullable equals (x minus ε){0,n}.
 */
function withoutNullableRepetitions(expr: Expr): Expr {
  switch (expr.kind) {
    case 'seq':
      return seqOf(expr.items.map(withoutNullableRepetitions));
    case 'alt':
      return altOf(expr.options.map(withoutNullableRepetitions));
    case 'repeat': {
      const body = withoutNullableRepetitions(expr.body);
      if (!isNullable(body)) return repeat(body, expr.min, expr.max);
      if (expr.max === null && body.kind === 'seq') {
        // (a b c)* with every item nullable is (a|b|c)*: each item alone is a word of the body, and
        // each word of the body is a sequence of items. Linear, where minus-ε is quadratic.
        const solid = nonEmpty(altOf(body.items));
        return solid ? repeat(solid, 0, null) : EMPTY;
      }
      const solid = nonEmpty(body);
      return solid && expr.max !== 0 ? repeat(solid, 0, expr.max) : EMPTY;
    }
    default:
      return expr;
  }
}

// ---- entry points -----------------------------------------------------------------------------

export function validateRegexFlags(flags: string): void {
  for (const flag of flags) {
    if (!SUPPORTED_FLAGS.has(flag)) {
      throw new ConstraintError(
        'unsupported-regex',
        flag === 'm'
          ? 'flag m (multiline anchors) cannot be expressed: a grammar matches the whole output'
          : `unsupported regex flag '${flag}'`,
        { keyword: `flag ${flag}` },
      );
    }
  }
}

/** Parses a regex into the grammar IR over code points (not JSON-escaped). */
export function regexToExpr(pattern: string, flags: string, options: RegexToExprOptions): Expr {
  if (typeof pattern !== 'string') throw new ConstraintError('invalid-input', 'a regex must be a string');
  if (typeof flags !== 'string') throw new ConstraintError('invalid-input', 'regex flags must be a string');
  validateRegexFlags(flags);
  const { body, unicode } = parseRegex(pattern);
  const ctx: Context = { ignoreCase: flags.includes('i'), dotAll: flags.includes('s'), unitsOnly: !unicode };
  const anyChar = charClass(GENERATABLE);
  const alternatives = body.type === 'disjunction' ? body.options : [body];
  // Searched, alternatives with the same anchors share one `.*` on each open side: `.*(a|b|…).*`, not
  // `.*a.*|.*b.*|…`, whose every `.*` llama.cpp would follow at once (a time-zone pattern of 30
  // unanchored alternatives kept 60 parses alive).
  const groups = new Map<string, { start: boolean; end: boolean; cores: Expr[] }>();
  for (const alternative of alternatives) {
    const { items, start, end } = stripAnchors(alternative);
    const core = seqOf(items.map((item) => convert(item, ctx)));
    const key = options.semantics === 'full' ? 'full' : `${start}:${end}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { start, end, cores: [] }));
    group.cores.push(core);
  }
  const converted = [...groups.values()].map(({ start, end, cores }) => {
    if (options.semantics === 'full') return altOf(cores);
    return seq(start ? EMPTY : repeat(anyChar, 0, null), altOf(cores), end ? EMPTY : repeat(anyChar, 0, null));
  });
  return simplifyRegex(withoutNullableRepetitions(simplifyRegex(altOf(converted))));
}

// ---- JSON string context ----------------------------------------------------------------------

/** Characters that JSON requires (or our string grammar chooses) to write escaped. */
const JSON_MUST_ESCAPE: CharRanges = [
  [0x00, 0x1f],
  [0x22, 0x22],
  [0x5c, 0x5c],
];

function jsonEscapeOf(codePoint: number): string {
  return JSON.stringify(String.fromCodePoint(codePoint)).slice(1, -1);
}

/** A class in a JSON string: the plain members, or an escape sequence for the special ones. */
function jsonClass(ranges: CharRanges): Expr {
  const plain = intersectRanges(ranges, complementRanges(JSON_MUST_ESCAPE));
  const special = intersectRanges(ranges, JSON_MUST_ESCAPE);
  const options: Expr[] = [];
  if (plain.length) options.push(setExpr(plain));
  if (special.length) {
    const letters: number[] = [];
    const unicodeLow: number[] = []; // \u000X
    const unicodeHigh: number[] = []; // \u001X
    for (const [lo, hi] of special) {
      for (let cp = lo; cp <= hi; cp++) {
        const escape = jsonEscapeOf(cp);
        if (escape.length === 2) letters.push(escape.codePointAt(1)!);
        else (cp < 0x10 ? unicodeLow : unicodeHigh).push(escape.codePointAt(5)!);
      }
    }
    const escapes: Expr[] = [];
    if (letters.length) escapes.push(setExpr(normalizeRanges(letters.map((c) => [c, c]))));
    if (unicodeLow.length) escapes.push(seq(literal('u000'), setExpr(normalizeRanges(unicodeLow.map((c) => [c, c])))));
    if (unicodeHigh.length)
      escapes.push(seq(literal('u001'), setExpr(normalizeRanges(unicodeHigh.map((c) => [c, c])))));
    options.push(seq(literal('\\'), altOf(escapes)));
  }
  return altOf(options);
}

/** Rewrites a code point expression so it matches the same strings written inside a JSON string. */
export function toJsonStringContent(expr: Expr): Expr {
  switch (expr.kind) {
    case 'literal':
      return literal(codePointsOf(expr.text).map(jsonEscapeOf).join(''));
    case 'class':
      return jsonClass(expr.negated ? complementRanges(expr.ranges, GENERATABLE) : expr.ranges);
    case 'seq':
      return seqOf(expr.items.map(toJsonStringContent));
    case 'alt':
      return altOf(expr.options.map(toJsonStringContent));
    case 'repeat':
      return repeat(toJsonStringContent(expr.body), expr.min, expr.max);
    case 'ref':
      throw new Error('internal: regex expressions have no rule references');
  }
}
