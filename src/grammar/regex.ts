// Regex to grammar. The regex is parsed with regexp-tree and turned into the grammar IR construct by
// construct. Matching is per code point (as with the `u` flag, and as llama.cpp sees text), and a
// grammar always matches whole strings: anchors are accepted at the ends only.

import * as regexpTreeNamespace from 'regexp-tree';
import type { AstRegExp, Char, CharacterClass, ClassRange, Expression } from 'regexp-tree/ast';
import { ConstraintError } from './errors.js';
import type { CharRanges, Expr } from './expr.js';
import {
  EMPTY,
  GENERATABLE,
  alt,
  charClass,
  codePointsOf,
  complementRanges,
  intersectRanges,
  isNullable,
  literal,
  normalizeRanges,
  repeat,
  seq,
} from './expr.js';

// regexp-tree is CommonJS; depending on the loader its API sits on the namespace or on `default`.
const regexpTree: { parse(source: string, options?: { captureLocations?: boolean }): AstRegExp } =
  (regexpTreeNamespace as unknown as { default?: typeof regexpTreeNamespace }).default ?? regexpTreeNamespace;

export interface RegexToExprOptions {
  /** `search`: the regex may match anywhere (JSON Schema `pattern`); `full`: it must match the whole string. */
  semantics: 'full' | 'search';
}

const SUPPORTED_FLAGS = new Set(['i', 's', 'u', 'g', 'd', 'y']);

// ---- character sets ---------------------------------------------------------------------------

const DIGIT: CharRanges = [[0x30, 0x39]];
const WORD: CharRanges = normalizeRanges([[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]]);
const SPACE: CharRanges = normalizeRanges([
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a],
  [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
]);
const LINE_TERMINATORS: CharRanges = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];

const restrict = (ranges: CharRanges) => intersectRanges(ranges, GENERATABLE);
const complement = (ranges: CharRanges) => complementRanges(ranges, GENERATABLE);

let casedCodePoints: number[] | undefined;

/** Code points that have another case (the only ones case-insensitive matching can add or remove). */
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

function rangesAsRegexClass(ranges: CharRanges): string {
  const u = (cp: number) => `\\u{${cp.toString(16)}}`;
  return '[' + ranges.map(([lo, hi]) => (lo === hi ? u(lo) : `${u(lo)}-${u(hi)}`)).join('') + ']';
}

/**
 * The set of characters a case-insensitive regex matches for `ranges`. JS's own engine is the
 * oracle (simple case folding in `u` mode has surprises such as U+212A KELVIN SIGN matching `k`).
 */
function caseClose(ranges: CharRanges): CharRanges {
  if (ranges.length === 0) return ranges;
  const matcher = new RegExp(`^${rangesAsRegexClass(ranges)}$`, 'iu');
  const extra: [number, number][] = [];
  for (const cp of cased()) if (matcher.test(String.fromCodePoint(cp))) extra.push([cp, cp]);
  return normalizeRanges([...ranges, ...extra]);
}

// ---- conversion -------------------------------------------------------------------------------

interface Context {
  ignoreCase: boolean;
  dotAll: boolean;
  /** Maps an offset in the parsed source back to the caller's pattern. */
  position(node: { loc?: { start: { offset: number } } }): number | undefined;
}

function unsupported(construct: string, node: { loc?: { start: { offset: number } } }, ctx: Context): never {
  throw new ConstraintError('unsupported-regex', `${construct} cannot be expressed in a grammar`, {
    position: ctx.position(node),
    keyword: construct,
  });
}

function charCodePoint(node: Char, ctx: Context): number | null {
  if (node.kind === 'control') return node.value.charCodeAt(2) % 32;
  if (node.kind === 'meta' && node.value === '\\b') return 8; // only reached inside a class
  if (typeof node.codePoint === 'number') return node.codePoint;
  if (node.kind === 'meta') return null;
  return unsupported(`character ${node.value}`, node, ctx);
}

/** The (unfolded) set for a character escape such as `\d` or `.`; null for a single character. */
function metaSet(node: Char, ctx: Context): CharRanges | null {
  if (node.kind !== 'meta') return null;
  const fold = (ranges: CharRanges) => (ctx.ignoreCase ? caseClose(ranges) : ranges);
  switch (node.value) {
    case '.':
      return ctx.dotAll ? GENERATABLE : complement(LINE_TERMINATORS);
    case '\\d':
      return DIGIT;
    case '\\D':
      return complement(DIGIT);
    case '\\w':
      return fold(WORD);
    case '\\W':
      return complement(fold(WORD));
    case '\\s':
      return restrict(SPACE);
    case '\\S':
      return complement(SPACE);
    default:
      return null;
  }
}

function charSet(node: Char, ctx: Context): CharRanges {
  const meta = metaSet(node, ctx);
  if (meta) return meta;
  const cp = charCodePoint(node, ctx);
  if (cp === null) return unsupported(`escape ${node.value}`, node, ctx);
  return [[cp, cp]];
}

function classSet(node: CharacterClass, ctx: Context): CharRanges {
  const parts: (readonly [number, number])[] = [];
  for (const item of node.expressions) {
    if (item.type === 'ClassRange') {
      const range = item as ClassRange;
      const lo = charCodePoint(range.from, ctx);
      const hi = charCodePoint(range.to, ctx);
      if (lo === null || hi === null) return unsupported('class range of escapes', item, ctx);
      parts.push([lo, hi]);
    } else if ((item as { type: string }).type === 'Char') {
      parts.push(...charSet(item as Char, ctx));
    } else {
      unsupported(`${(item as { type: string }).type} in a class`, item, ctx);
    }
  }
  const members = ctx.ignoreCase ? caseClose(normalizeRanges(parts)) : normalizeRanges(parts);
  return node.negative ? complement(members) : restrict(members);
}

/** A set as an expression: single characters become literals so the GBNF stays readable. */
function setExpr(ranges: CharRanges): Expr {
  if (ranges.length === 1 && ranges[0][0] === ranges[0][1]) return literal(String.fromCodePoint(ranges[0][0]));
  return charClass(ranges);
}

function nonEmptySet(ranges: CharRanges, node: { loc?: { start: { offset: number } } }, ctx: Context): Expr {
  if (ranges.length === 0) {
    throw new ConstraintError(
      'unsatisfiable',
      'character set matches no character a model can produce (NUL and lone surrogates cannot be generated)',
      { position: ctx.position(node) },
    );
  }
  return setExpr(ranges);
}

function convert(node: Expression | null, ctx: Context): Expr {
  if (node === null) return EMPTY;
  switch (node.type) {
    case 'Alternative':
      return seq(...node.expressions.map((e) => convert(e, ctx)));
    case 'Disjunction':
      return alt(convert(node.left, ctx), convert(node.right, ctx));
    case 'Group':
      return convert(node.expression, ctx);
    case 'Char': {
      const set = charSet(node, ctx);
      return nonEmptySet(ctx.ignoreCase && node.kind !== 'meta' ? restrict(caseClose(set)) : restrict(set), node, ctx);
    }
    case 'CharacterClass':
      return nonEmptySet(classSet(node, ctx), node, ctx);
    case 'Repetition': {
      const q = node.quantifier;
      const body = convert(node.expression, ctx);
      if (q.kind === '*') return repeat(body, 0, null);
      if (q.kind === '+') return repeat(body, 1, null);
      if (q.kind === '?') return repeat(body, 0, 1);
      const range = q as { from: number; to?: number };
      return repeat(body, range.from, range.to === undefined ? null : range.to);
    }
    case 'Backreference':
      return unsupported('backreference', node, ctx);
    case 'Assertion': {
      const names: Record<string, string> = {
        '^': 'anchor ^ away from the start',
        $: 'anchor $ away from the end',
        '\\b': 'word boundary \\b',
        '\\B': 'non-word boundary \\B',
        Lookahead: node.kind === 'Lookahead' && 'negative' in node && node.negative ? 'negative lookahead' : 'lookahead',
        Lookbehind: node.kind === 'Lookbehind' && 'negative' in node && node.negative ? 'negative lookbehind' : 'lookbehind',
      };
      return unsupported(names[node.kind] ?? `assertion ${node.kind}`, node, ctx);
    }
    default: {
      const other = node as { type: string };
      const what = other.type === 'UnicodeProperty' ? 'Unicode property escape' : other.type;
      return unsupported(what, node as { loc?: { start: { offset: number } } }, ctx);
    }
  }
}

// ---- anchors ----------------------------------------------------------------------------------

function topLevelAlternatives(body: Expression | null): (Expression | null)[] {
  if (body && body.type === 'Disjunction') return [...topLevelAlternatives(body.left), ...topLevelAlternatives(body.right)];
  return [body];
}

interface Anchored {
  items: Expression[];
  start: boolean;
  end: boolean;
}

function stripAnchors(alternative: Expression | null): Anchored {
  const items = alternative === null ? [] : alternative.type === 'Alternative' ? [...alternative.expressions] : [alternative];
  let start = false;
  let end = false;
  while (items.length && items[0].type === 'Assertion' && items[0].kind === '^') {
    items.shift();
    start = true;
  }
  while (items.length && items[items.length - 1].type === 'Assertion' && (items[items.length - 1] as { kind: string }).kind === '$') {
    items.pop();
    end = true;
  }
  return { items, start, end };
}

// ---- nullable repetitions ---------------------------------------------------------------------

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
      return options.length ? alt(...options) : null;
    }
    case 'seq': {
      // (a b c) minus ε = a' b c | b' c | c' when a, b, c are all nullable.
      const options: Expr[] = [];
      expr.items.forEach((item, i) => {
        const head = nonEmpty(item);
        if (head) options.push(seq(head, ...expr.items.slice(i + 1)));
      });
      return options.length ? alt(...options) : null;
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
      return seq(...expr.items.map(withoutNullableRepetitions));
    case 'alt':
      return alt(...expr.options.map(withoutNullableRepetitions));
    case 'repeat': {
      const body = withoutNullableRepetitions(expr.body);
      if (!isNullable(body)) return repeat(body, expr.min, expr.max);
      const solid = nonEmpty(body);
      return solid && expr.max !== 0 ? repeat(solid, 0, expr.max) : EMPTY;
    }
    default:
      return expr;
  }
}

// ---- entry points -----------------------------------------------------------------------------

/**
 * Writes the pattern in regexp-tree's `/…/flags` syntax: `/` outside classes and line terminators
 * escaped, and (in Unicode mode) astral characters as `\u{…}`, because regexp-tree splits a raw
 * astral character into two surrogate halves. `offsets` maps source offsets back to the pattern.
 */
function toLiteralSyntax(pattern: string, unicode: boolean): { source: string; offsets: number[] } {
  let source = '/';
  const offsets: number[] = [0];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\' && i + 1 < pattern.length) {
      source += ch + pattern[i + 1];
      offsets.push(i, i + 1);
      i++;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    const codePoint = pattern.codePointAt(i)!;
    let written: string;
    if (ch === '/' && !inClass) written = '\\/';
    else if (ch === '\n' || ch === '\r' || ch === '\u2028' || ch === '\u2029') written = `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else if (codePoint > 0xffff && unicode) written = `\\u{${codePoint.toString(16)}}`;
    else written = codePoint > 0xffff ? String.fromCodePoint(codePoint) : ch;
    source += written;
    for (let k = 0; k < written.length; k++) offsets.push(i);
    if (codePoint > 0xffff) i++;
  }
  offsets.push(pattern.length);
  return { source, offsets };
}

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
  validateRegexFlags(flags);
  let parsed: { ast: AstRegExp; offsets: number[] };
  try {
    const { source, offsets } = toLiteralSyntax(pattern, true);
    parsed = { ast: regexpTree.parse(source + '/u', { captureLocations: true }), offsets };
  } catch (unicodeError) {
    // Some patterns are valid only without `u` (e.g. `\-` outside a class); accept those too.
    const { source, offsets } = toLiteralSyntax(pattern, false);
    try {
      parsed = { ast: regexpTree.parse(source + '/', { captureLocations: true }), offsets };
    } catch {
      const message = String((unicodeError as Error).message ?? unicodeError).trim().split('\n').pop();
      const at = /at (\d+):(\d+)/.exec(message ?? '');
      throw new ConstraintError('invalid-regex', `regex does not parse: ${message}`, {
        position: at ? offsets[Number(at[2])] ?? undefined : undefined,
      });
    }
  }
  const { ast, offsets } = parsed;
  const ctx: Context = {
    ignoreCase: flags.includes('i'),
    dotAll: flags.includes('s'),
    position: (node) => (node.loc ? offsets[node.loc.start.offset] : undefined),
  };
  const anyChar = charClass(GENERATABLE);
  const options_ = topLevelAlternatives(ast.body).map((alternative) => {
    const { items, start, end } = stripAnchors(alternative);
    const core = seq(...items.map((item) => convert(item, ctx)));
    if (options.semantics === 'full') return core;
    return seq(start ? EMPTY : repeat(anyChar, 0, null), core, end ? EMPTY : repeat(anyChar, 0, null));
  });
  return withoutNullableRepetitions(alt(...options_));
}

// ---- JSON string context ----------------------------------------------------------------------

/** Characters that JSON requires (or our string grammar chooses) to write escaped. */
const JSON_MUST_ESCAPE: CharRanges = [[0x00, 0x1f], [0x22, 0x22], [0x5c, 0x5c]];

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
    if (unicodeHigh.length) escapes.push(seq(literal('u001'), setExpr(normalizeRanges(unicodeHigh.map((c) => [c, c])))));
    options.push(seq(literal('\\'), alt(...escapes)));
  }
  return alt(...options);
}

/** Rewrites a code point expression so it matches the same strings written inside a JSON string. */
export function toJsonStringContent(expr: Expr): Expr {
  switch (expr.kind) {
    case 'literal':
      return literal(codePointsOf(expr.text).map(jsonEscapeOf).join(''));
    case 'class':
      return jsonClass(expr.negated ? complementRanges(expr.ranges, GENERATABLE) : expr.ranges);
    case 'seq':
      return seq(...expr.items.map(toJsonStringContent));
    case 'alt':
      return alt(...expr.options.map(toJsonStringContent));
    case 'repeat':
      return repeat(toJsonStringContent(expr.body), expr.min, expr.max);
    case 'ref':
      throw new Error('internal: regex expressions have no rule references');
  }
}

