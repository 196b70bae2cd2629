// Turns the grammar IR into GBNF text that llama.cpp's parser accepts, applying the rewrites that
// keep llama.cpp fast and correct:
//  * repetition bounds above LLAMA_MAX_REPETITION are split into nested bounded repetitions,
//    because llama.cpp silently treats larger bounds as unbounded;
//  * adjacent copies of the same item are merged into one bounded repetition (`x? x? x?` becomes
//    `x{0,3}`), because chained optionals multiply llama.cpp's parse stacks;
//  * every non-ASCII or special character is escaped, so the text is plain ASCII.

import { ConstraintError } from './errors.js';
import type { CharRanges, Expr, Grammar } from '../automaton/expr.js';
import { EMPTY, alt, repeat, seq } from '../automaton/expr.js';

/** Largest repetition bound llama.cpp honours; larger ones silently become unbounded. */
export const LLAMA_MAX_REPETITION = 2000;
/** Chunk used when splitting a large bound: x{5000} = (x{1000}){5}. */
const REPETITION_CHUNK = 1000;

export interface GrammarLimits {
  /** Maximum length of the GBNF text, in characters. */
  maxGrammarChars: number;
  /** Maximum size after llama.cpp expands repetitions into copies (elements, roughly). */
  maxExpandedSize: number;
}

export const DEFAULT_LIMITS: GrammarLimits = { maxGrammarChars: 1_000_000, maxExpandedSize: 2_000_000 };

// ---- escaping ---------------------------------------------------------------------------------

function hex(codePoint: number, width: number): string {
  return codePoint.toString(16).toUpperCase().padStart(width, '0');
}

function escapeCodePoint(codePoint: number, specials: string): string {
  const ch = String.fromCodePoint(codePoint);
  if (codePoint >= 0x20 && codePoint < 0x7f) return specials.includes(ch) ? '\\' + ch : ch;
  if (codePoint === 0x0a) return '\\n';
  if (codePoint === 0x0d) return '\\r';
  if (codePoint === 0x09) return '\\t';
  if (codePoint < 0x80) return '\\x' + hex(codePoint, 2);
  if (codePoint <= 0xffff) return '\\u' + hex(codePoint, 4);
  return '\\U' + hex(codePoint, 8);
}

export function formatLiteral(text: string): string {
  let out = '"';
  for (const ch of text) out += escapeCodePoint(ch.codePointAt(0)!, '"\\');
  return out + '"';
}

// Inside a class `-`, `^`, `[` and `]` are written as hex escapes: llama.cpp only knows `\[` and
// `\]` among them, and a hex escape is never mistaken for a range or a negation.
function classChar(codePoint: number): string {
  if (codePoint === 0x2d || codePoint === 0x5e) return '\\x' + hex(codePoint, 2);
  return escapeCodePoint(codePoint, '\\]["');
}

export function formatClass(ranges: CharRanges, negated: boolean): string {
  let out = negated ? '[^' : '[';
  for (const [lo, hi] of ranges) {
    if (lo === hi) out += classChar(lo);
    else if (hi === lo + 1) out += classChar(lo) + classChar(hi);
    else out += classChar(lo) + '-' + classChar(hi);
  }
  return out + ']';
}

// ---- rewrites ---------------------------------------------------------------------------------

function exactly(body: Expr, count: number): Expr {
  if (count === 0) return EMPTY;
  if (count <= LLAMA_MAX_REPETITION) return repeat(body, count, count);
  const chunk = repeat(body, REPETITION_CHUNK, REPETITION_CHUNK);
  return seq(exactly(chunk, Math.floor(count / REPETITION_CHUNK)), exactly(body, count % REPETITION_CHUNK));
}

// Counts 0..max. With max = q*1000 + r, a count c = i*1000 + j (j < 1000) is either j <= r with
// i <= q, or j > r with i < q: two disjoint alternatives, each with small bounds.
function upTo(body: Expr, max: number): Expr {
  if (max <= LLAMA_MAX_REPETITION) return repeat(body, 0, max);
  const chunk = repeat(body, REPETITION_CHUNK, REPETITION_CHUNK);
  const q = Math.floor(max / REPETITION_CHUNK);
  const r = max % REPETITION_CHUNK;
  const low = seq(upTo(chunk, q), repeat(body, 0, r));
  if (r === REPETITION_CHUNK - 1) return low;
  return alt(low, seq(upTo(chunk, q - 1), repeat(body, r + 1, REPETITION_CHUNK - 1)));
}

function boundedRepeat(body: Expr, min: number, max: number | null): Expr {
  if (min <= LLAMA_MAX_REPETITION && (max === null || max <= LLAMA_MAX_REPETITION)) return repeat(body, min, max);
  if (max === null) return seq(exactly(body, min), repeat(body, 0, null));
  return seq(exactly(body, min), upTo(body, max - min));
}

// ---- formatting -------------------------------------------------------------------------------

const enum Precedence {
  Alt = 0,
  Seq = 1,
  Atom = 2,
}

function wrap(text: string, inner: Precedence, outer: Precedence): string {
  return inner < outer ? `(${text})` : text;
}

function formatRepeatSuffix(min: number, max: number | null): string {
  if (min === 0 && max === 1) return '?';
  if (min === 0 && max === null) return '*';
  if (min === 1 && max === null) return '+';
  if (max === null) return `{${min},}`;
  if (min === max) return `{${min}}`;
  return `{${min},${max}}`;
}

interface Run {
  body: Expr;
  text: string;
  min: number;
  max: number | null;
}

interface Formatted {
  text: string;
  precedence: Precedence;
}

// Each node is formatted once per occurrence, bottom-up: runs are merged by comparing their items'
// texts, and that text is what gets printed. Formatting an item a second time to print it doubled
// the work per nesting level (2^depth: integer bounds of 20 digits 2.6 s, 308 digits never
// finished; the extra-key rule of a 19-character property name 25 s; a regex nested 24 deep 7 s).
// Nothing is cached across nodes, so memory stays proportional to the text being built.
function formatExpr(expr: Expr, outer: Precedence, merge = true): string {
  const own = formatNode(expr, merge);
  return wrap(own.text, own.precedence, outer);
}

// `merge` is false inside a rewritten bound: merging its pieces `x{m} x{0,n-m}` back into
// `x{m,n}` rewrote them again, forever (a stack overflow for 1 <= m <= 2000 < n <= m+2000).
function formatNode(expr: Expr, merge: boolean): Formatted {
  switch (expr.kind) {
    case 'literal':
      return { text: formatLiteral(expr.text), precedence: Precedence.Atom };
    case 'class':
      return { text: formatClass(expr.ranges, expr.negated), precedence: Precedence.Atom };
    case 'ref':
      return { text: expr.name, precedence: Precedence.Atom };
    case 'alt': {
      if (expr.options.length === 0) throw new ConstraintError('unsatisfiable', 'an empty alternation matches nothing');
      // Each alternative once: llama.cpp keeps a parse stack per alternative that matches, so
      // `(a|a|…×2000)*` cost it about 28 s per generated character.
      const options = [...new Set(expr.options.map((o) => formatExpr(o, Precedence.Seq, merge)))];
      return { text: options.join(' | '), precedence: options.length > 1 ? Precedence.Alt : Precedence.Seq };
    }
    case 'seq': {
      const parts = mergeRuns(expr.items, merge).map((run) => formatRepeat(run.body, run.text, run.min, run.max));
      if (parts.length === 0) return { text: '""', precedence: Precedence.Atom };
      return { text: parts.join(' '), precedence: parts.length > 1 ? Precedence.Seq : Precedence.Atom };
    }
    case 'repeat': {
      const bodyText = expr.max === 0 ? '""' : formatExpr(expr.body, Precedence.Atom, merge);
      return { text: formatRepeat(expr.body, bodyText, expr.min, expr.max), precedence: Precedence.Atom };
    }
  }
}

/** `body` (already formatted as `bodyText`) repeated min..max times. */
function formatRepeat(body: Expr, bodyText: string, min: number, max: number | null): string {
  if (max !== null && max < min)
    throw new ConstraintError('unsatisfiable', `repetition {${min},${max}} matches nothing`);
  if (max === 0) return '""';
  if (min === 1 && max === 1) return bodyText;
  let text = body.kind === 'repeat' ? `(${bodyText})` : bodyText;
  // llama.cpp refuses to repeat an item that already stands for n rules (a group's own rules, or a
  // repetition's) more than 2000 / n times: such an item becomes a rule of its own, which counts as one.
  // (A bound past 2000 is split below into pieces of at most 2000, counted here as 2000.)
  if (
    hoisting &&
    repeatedRules(text) * repetitionRules(min, max === null ? Infinity : Math.min(max, LLAMA_MAX_REPETITION)) >
      LLAMA_MAX_REPETITION
  ) {
    text = hoisting.ruleFor(text);
  }
  // Bounds past llama.cpp's are rewritten into nested chunks that each repeat the body; a
  // reference named by the body's text stands for it, so the body is not formatted again per chunk.
  // (A rewritten exact bound may itself be one repetition, `(x{1000}){3}`: test the bounds, not its shape.)
  if (min > LLAMA_MAX_REPETITION || (max !== null && max > LLAMA_MAX_REPETITION)) {
    return formatExpr(boundedRepeat({ kind: 'ref', name: text }, min, max), Precedence.Atom, false);
  }
  return text + formatRepeatSuffix(min, max);
}

/** Merges adjacent items with the same body: x{a,b} x{c,d} = x{a+c,b+d}. */
function mergeRuns(items: readonly Expr[], merge: boolean): Run[] {
  const runs: Run[] = [];
  for (const item of items) {
    const body = item.kind === 'repeat' ? item.body : item;
    const min = item.kind === 'repeat' ? item.min : 1;
    const max = item.kind === 'repeat' ? item.max : 1;
    const text = formatExpr(body, Precedence.Atom, merge);
    const last = runs[runs.length - 1];
    if (merge && last && last.text === text) {
      last.min += min;
      last.max = last.max === null || max === null ? null : last.max + max;
    } else {
      runs.push({ body, text, min, max });
    }
  }
  return runs;
}

export function formatRuleBody(expr: Expr): string {
  return formatExpr(expr, Precedence.Alt);
}

// ---- llama.cpp's count of repeated rules --------------------------------------------------------
//
// llama.cpp's parser (llama-grammar.cpp, parse_sequence) expands `S{m,n}` into copies and n-m new
// rules, and refuses a repetition when the rules its item already stands for (n_prev_rules: the rules
// a group created while it was parsed, times any repetition already applied to it) times the new
// bound's count (max, else min, else 1) exceeds 2000. These functions count the same way on the text
// this module writes: literals, classes, names, groups and suffixes.

/** Rules llama.cpp creates for one suffix: `{m,n}` n-m of them, an open or optional one 1, `{m}` none. */
function suffixRules(min: number, max: number | null): number {
  return max === null ? 1 : max - min;
}

/** What llama.cpp multiplies by for a repetition: max when there is one, else min, else 1. */
function repetitionRules(min: number, max: number): number {
  if (Number.isFinite(max) && max > 0) return max;
  return min > 0 ? min : 1;
}

/** The end (exclusive) of the literal, class or name starting at `at`. */
function endOfAtom(text: string, at: number): number {
  const close = text[at] === '"' ? '"' : text[at] === '[' ? ']' : null;
  if (close === null) {
    let end = at;
    while (end < text.length && /[A-Za-z0-9-]/.test(text[end])) end++;
    return end;
  }
  let end = at + 1;
  while (end < text.length && text[end] !== close) end += text[end] === '\\' ? 2 : 1;
  return end + 1;
}

/** The suffix at `at`, if any: its bounds and where it ends. */
function suffixAt(text: string, at: number): { min: number; max: number | null; end: number } | null {
  const ch = text[at];
  if (ch === '?') return { min: 0, max: 1, end: at + 1 };
  if (ch === '*') return { min: 0, max: null, end: at + 1 };
  if (ch === '+') return { min: 1, max: null, end: at + 1 };
  if (ch !== '{') return null;
  const close = text.indexOf('}', at);
  const [lo, hi] = text.slice(at + 1, close).split(',');
  const min = Number(lo);
  // A bound above 2000 is read by llama.cpp as no bound at all.
  const max = hi === undefined ? min : hi === '' || Number(hi) > LLAMA_MAX_REPETITION ? null : Number(hi);
  return { min, max, end: close + 1 };
}

/** Rules llama.cpp creates while parsing `text`: a rule per group, per name (counted as new), and per suffix's copies. */
function rulesCreated(text: string): number {
  let rules = 0;
  for (let at = 0; at < text.length;) {
    const ch = text[at];
    const suffix = suffixAt(text, at);
    if (suffix) {
      rules += suffixRules(suffix.min, suffix.max);
      at = suffix.end;
    } else if (ch === '(') {
      rules++;
      at++;
    } else if (ch === '"' || ch === '[' || /[A-Za-z0-9-]/.test(ch)) {
      if (ch !== '"' && ch !== '[') rules++;
      at = endOfAtom(text, at);
    } else {
      at++;
    }
  }
  return rules;
}

/** n_prev_rules of one item (a primary and its suffixes) as llama.cpp reaches its end. */
function repeatedRules(item: string): number {
  let end: number;
  let rules: number;
  if (item[0] === '(') {
    let depth = 0;
    end = 0;
    for (; end < item.length; end++) {
      const ch = item[end];
      if (ch === '"' || ch === '[') end = endOfAtom(item, end) - 1;
      else if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) break;
    }
    end++;
    rules = Math.max(1, rulesCreated(item.slice(0, end)));
  } else {
    end = endOfAtom(item, 0);
    rules = 1;
  }
  for (let suffix = suffixAt(item, end); suffix; suffix = suffixAt(item, suffix.end)) {
    rules *= repetitionRules(suffix.min, suffix.max ?? Infinity);
  }
  return rules;
}

/** The rules an item repeated too often is moved into while a grammar is formatted (one per distinct item). */
class Hoister {
  readonly lines: string[] = [];
  private readonly byText = new Map<string, string>();
  private next = 1;

  constructor(private readonly taken: ReadonlyMap<string, unknown>) {}

  ruleFor(text: string): string {
    let name = this.byText.get(text);
    if (name === undefined) {
      do name = `repeated-${this.next++}`;
      while (this.taken.has(name));
      this.byText.set(text, name);
      this.lines.push(`${name} ::= ${text}`);
    }
    return name;
  }
}

let hoisting: Hoister | null = null;

export function formatGrammar(grammar: Grammar): string {
  const lines: string[] = [];
  const outer = hoisting;
  const hoister = new Hoister(grammar.rules);
  hoisting = hoister;
  try {
    const root = grammar.rules.get(grammar.root);
    if (root) lines.push(`${grammar.root} ::= ${formatRuleBody(root)}`);
    for (const [name, body] of grammar.rules) {
      if (name !== grammar.root) lines.push(`${name} ::= ${formatRuleBody(body)}`);
    }
  } finally {
    hoisting = outer;
  }
  return [...lines, ...hoister.lines].join('\n') + '\n';
}

// ---- size accounting --------------------------------------------------------------------------

// Memoized like the text: a shared body is counted once per node, in time linear in the IR.
const expandedSizes = new WeakMap<Expr, number>();

/** Roughly how many grammar elements llama.cpp holds once it has expanded repetitions. */
export function expandedSize(expr: Expr): number {
  let size = expandedSizes.get(expr);
  if (size === undefined) {
    size = Math.min(Number.MAX_SAFE_INTEGER, nodeExpandedSize(expr));
    expandedSizes.set(expr, size);
  }
  return size;
}

/** `[...text].length` without the array: a large grammar has hundreds of thousands of literals. */
function codePointCount(text: string): number {
  let count = text.length;
  for (let i = 1; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff) {
      const before = text.charCodeAt(i - 1);
      if (before >= 0xd800 && before <= 0xdbff) count--;
    }
  }
  return count;
}

function nodeExpandedSize(expr: Expr): number {
  switch (expr.kind) {
    case 'literal':
      return Math.max(1, codePointCount(expr.text));
    case 'class':
      return 1 + expr.ranges.length;
    case 'ref':
      return 1;
    case 'seq':
      return expr.items.reduce((sum, item) => sum + expandedSize(item), 0);
    case 'alt':
      return expr.options.reduce((sum, option) => sum + expandedSize(option), 1);
    case 'repeat': {
      const copies = Math.max(1, expr.max ?? expr.min + 1);
      return expandedSize(expr.body) * copies + 1;
    }
  }
}

/**
 * Throws too-large when llama.cpp would unroll the grammar past the limit. Checked before the text
 * is formatted: the text is at most a small multiple of this size, so formatting stays bounded too.
 */
export function checkExpandedSize(grammar: Grammar, limits: GrammarLimits): void {
  let total = 0;
  for (const body of grammar.rules.values()) total += expandedSize(body);
  if (total > limits.maxExpandedSize) {
    throw new ConstraintError(
      'too-large',
      `grammar expands to about ${total} elements once repetitions are unrolled, above the limit of ${limits.maxExpandedSize}`,
    );
  }
}

export function checkBodySize(body: Expr, limits: GrammarLimits): void {
  const size = expandedSize(body);
  if (size > limits.maxExpandedSize) {
    throw new ConstraintError(
      'too-large',
      `a grammar rule expands to about ${size} elements once repetitions are unrolled, above the limit of ${limits.maxExpandedSize}`,
    );
  }
}

export function checkGrammarChars(text: string, limits: GrammarLimits): void {
  if (text.length > limits.maxGrammarChars) {
    throw new ConstraintError(
      'too-large',
      `grammar is ${text.length} characters, above the limit of ${limits.maxGrammarChars}`,
    );
  }
}

export function checkLimits(grammar: Grammar, text: string, limits: GrammarLimits): void {
  checkGrammarChars(text, limits);
  checkExpandedSize(grammar, limits);
}
