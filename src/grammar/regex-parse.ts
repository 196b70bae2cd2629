// A regex parser in one linear pass. regexp-tree, used before, builds every sequence and class by
// array concatenation, so its time is quadratic in their length: 'a' repeated 20,000 times took
// 3.6 s, 40,000 times 27 s, and the 100,000 characters svc_generate_regex accepts over 60 s.
//
// Which patterns are valid is the JavaScript engine's decision (`new RegExp`, which ajv uses for
// `pattern` too): with the `u` flag if the pattern allows it, else with Annex B's web-compatible
// syntax, as before. This parser then only reads valid patterns, so it follows the ECMAScript
// grammar without re-checking what the engine checked; what it cannot express it rejects with the
// construct and its position. Before any of that a lexical pre-scan bounds the nesting, so neither
// the engine nor this recursive parser (nor the recursive passes after it) can exhaust the stack.

import { ConstraintError } from './errors.js';

/** Deepest group nesting accepted; like a schema's nesting limit, far beyond any real pattern. */
export const REGEX_MAX_NESTING = 64;

export type ClassEscape = 'd' | 'D' | 'w' | 'W' | 's' | 'S';

export type RegexNode =
  | { readonly type: 'sequence'; readonly items: readonly RegexNode[] }
  | { readonly type: 'disjunction'; readonly options: readonly RegexNode[] }
  | { readonly type: 'char'; readonly codePoint: number; readonly position: number }
  | { readonly type: 'escape'; readonly name: ClassEscape; readonly position: number }
  | { readonly type: 'dot'; readonly position: number }
  | {
      readonly type: 'class';
      readonly negated: boolean;
      readonly items: readonly ClassItem[];
      readonly position: number;
    }
  | { readonly type: 'repeat'; readonly body: RegexNode; readonly min: number; readonly max: number | null }
  | { readonly type: 'anchor'; readonly kind: '^' | '$'; readonly position: number };

export type ClassItem =
  | { readonly type: 'char'; readonly codePoint: number }
  | { readonly type: 'escape'; readonly name: ClassEscape }
  | { readonly type: 'range'; readonly from: number; readonly to: number };

export interface ParsedRegex {
  body: RegexNode;
  /** Whether the pattern is valid with the `u` flag (else it was read with Annex B syntax). */
  unicode: boolean;
}

// ---- pre-scan ---------------------------------------------------------------------------------

interface Shape {
  captures: number;
  named: boolean;
}

/**
 * Counts capturing groups and checks the nesting depth, lexically: escapes and class contents
 * never open a group. Linear, no recursion.
 */
export function scanRegex(pattern: string, maxNesting = REGEX_MAX_NESTING): Shape {
  let depth = 0;
  let captures = 0;
  let named = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') i++;
    else if (ch === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
    } else if (ch === '(') {
      if (++depth > maxNesting) {
        throw new ConstraintError('too-deep', `regex groups nest deeper than the limit of ${maxNesting}`, {
          position: i,
        });
      }
      if (pattern[i + 1] !== '?') captures++;
      else if (pattern[i + 2] === '<' && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') {
        captures++;
        named = true;
      }
    } else if (ch === ')') depth = Math.max(0, depth - 1);
  }
  return { captures, named };
}

/** The engine's verdict: which syntax the pattern is valid in, or its reason for rejecting it. */
function engineSyntax(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch (unicodeError) {
    try {
      new RegExp(pattern);
      return false;
    } catch {
      // "Invalid regular expression: /<the pattern>/u: Unterminated group": keep the reason only,
      // since the pattern may be 100,000 characters long.
      const message = String((unicodeError as Error).message ?? unicodeError);
      const reason = /\/[a-z]*: ([^/]*)$/.exec(message)?.[1] ?? message.slice(0, 200);
      throw new ConstraintError('invalid-regex', `regex does not parse: ${reason}`);
    }
  }
}

// ---- parser -----------------------------------------------------------------------------------

const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';
const isOctal = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '7';
const isHex = (ch: string | undefined) => ch !== undefined && /^[0-9a-fA-F]$/.test(ch);
const isAsciiLetter = (ch: string | undefined) => ch !== undefined && /^[a-zA-Z]$/.test(ch);
const CONTROL_ESCAPES = new Map([
  ['f', 12],
  ['n', 10],
  ['r', 13],
  ['t', 9],
  ['v', 11],
]);
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S']);

/** `{n}`, `{n,}` or `{n,m}` at `at`, with the offset after it; null when `{` starts no quantifier. */
function braceQuantifier(pattern: string, at: number): { min: number; max: number | null; end: number } | null {
  const sticky = /\{(\d+)(,(\d*))?\}/y;
  sticky.lastIndex = at;
  const match = sticky.exec(pattern);
  if (!match) return null;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : match[3] === '' ? null : Number(match[3]);
  return { min, max, end: at + match[0].length };
}

class Parser {
  private i = 0;

  constructor(
    private readonly pattern: string,
    private readonly unicode: boolean,
    private readonly shape: Shape,
  ) {}

  parse(): RegexNode {
    const body = this.disjunction();
    if (this.i < this.pattern.length) this.internal(`unexpected '${this.pattern[this.i]}'`);
    return body;
  }

  /** The engine accepted the pattern, so this is a parser bug; still a ConstraintError, with a position. */
  private internal(what: string): never {
    throw new ConstraintError('invalid-regex', `regex does not parse: ${what}`, { position: this.i });
  }

  private unsupported(construct: string, position: number): never {
    throw new ConstraintError('unsupported-regex', `${construct} cannot be expressed in a grammar`, {
      position,
      keyword: construct,
    });
  }

  private disjunction(): RegexNode {
    const options = [this.sequence()];
    while (this.pattern[this.i] === '|') {
      this.i++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0] : { type: 'disjunction', options };
  }

  private sequence(): RegexNode {
    let items: RegexNode[] = [];
    while (this.i < this.pattern.length && this.pattern[this.i] !== '|' && this.pattern[this.i] !== ')')
      items.push(this.term());
    if (!this.unicode) items = joinSurrogates(items);
    return items.length === 1 ? items[0] : { type: 'sequence', items };
  }

  private term(): RegexNode {
    const start = this.i;
    const ch = this.pattern[this.i];
    if (ch === '^' || ch === '$') {
      this.i++;
      return { type: 'anchor', kind: ch, position: start };
    }
    if (ch === '\\' && (this.pattern[this.i + 1] === 'b' || this.pattern[this.i + 1] === 'B')) {
      this.unsupported(this.pattern[this.i + 1] === 'b' ? 'word boundary \\b' : 'non-word boundary \\B', start);
    }
    return this.quantified(this.atom(), start);
  }

  private quantified(atom: RegexNode, start: number): RegexNode {
    const ch = this.pattern[this.i];
    let min: number;
    let max: number | null;
    if (ch === '*' || ch === '+' || ch === '?') {
      this.i++;
      [min, max] = ch === '*' ? [0, null] : ch === '+' ? [1, null] : [0, 1];
    } else if (ch === '{' && braceQuantifier(this.pattern, this.i)) {
      const q = braceQuantifier(this.pattern, this.i)!;
      this.i = q.end;
      [min, max] = [q.min, q.max];
    } else return atom;
    if (this.pattern[this.i] === '?') this.i++; // lazy: the same strings
    if (!Number.isSafeInteger(min) || (max !== null && !Number.isSafeInteger(max))) {
      throw new ConstraintError('too-large', 'repetition bound is too large', { position: start });
    }
    return { type: 'repeat', body: atom, min, max };
  }

  private atom(): RegexNode {
    const start = this.i;
    const ch = this.pattern[this.i];
    switch (ch) {
      case '.':
        this.i++;
        return { type: 'dot', position: start };
      case '(':
        return this.group();
      case '[':
        return this.characterClass();
      case '\\':
        return this.atomEscape();
      default:
        return { type: 'char', codePoint: this.sourceCharacter(), position: start };
    }
  }

  /**
   * The pattern's next character: a code point with the `u` flag; without it one UTF-16 unit, as
   * the engine reads it (`😀+` repeats only the second half; sequence() joins the halves again).
   */
  private sourceCharacter(): number {
    const codePoint = this.unicode ? this.pattern.codePointAt(this.i)! : this.pattern.charCodeAt(this.i);
    this.i += codePoint > 0xffff ? 2 : 1;
    return codePoint;
  }

  private group(): RegexNode {
    const start = this.i;
    const rest = this.pattern.slice(this.i, this.i + 4);
    let lookaround: string | undefined;
    if (rest.startsWith('(?=')) lookaround = 'lookahead';
    else if (rest.startsWith('(?!')) lookaround = 'negative lookahead';
    else if (rest.startsWith('(?<=')) lookaround = 'lookbehind';
    else if (rest.startsWith('(?<!')) lookaround = 'negative lookbehind';
    if (lookaround) this.unsupported(lookaround, start);
    if (rest.startsWith('(?:')) this.i += 3;
    else if (rest.startsWith('(?<')) {
      const close = this.pattern.indexOf('>', this.i);
      if (close < 0) this.internal('unterminated group name');
      this.i = close + 1;
    } else if (rest.startsWith('(?')) this.unsupported(`group modifier '${rest.slice(0, 3)}'`, start);
    else this.i += 1;
    const body = this.disjunction();
    if (this.pattern[this.i] !== ')') this.internal("missing ')'");
    this.i++;
    return body;
  }

  // -- escapes -----------------------------------------------------------------------------------

  private atomEscape(): RegexNode {
    const start = this.i;
    const next = this.pattern[this.i + 1];
    if (next === undefined) this.internal('\\ at the end');
    if (next >= '1' && next <= '9') {
      // A decimal escape: in Unicode mode always a backreference; with Annex B syntax only when
      // that many groups exist, else a legacy octal escape (or \8, \9 as themselves).
      let end = this.i + 1;
      while (isDigit(this.pattern[end])) end++;
      if (this.unicode || Number(this.pattern.slice(this.i + 1, end)) <= this.shape.captures)
        this.unsupported('backreference', start);
      this.i++;
      return { type: 'char', codePoint: this.legacyEscape(), position: start };
    }
    if (next === 'k' && (this.unicode || this.shape.named)) this.unsupported('backreference', start);
    if (this.propertyEscape(next)) this.unsupported('Unicode property escape', start);
    if (next === 'c' && !isAsciiLetter(this.pattern[this.i + 2])) {
      // Annex B: a backslash before a `c` that starts no control escape is itself.
      this.i++;
      return { type: 'char', codePoint: 0x5c, position: start };
    }
    if (CLASS_ESCAPES.has(next)) {
      this.i += 2;
      return { type: 'escape', name: next as ClassEscape, position: start };
    }
    this.i++;
    return { type: 'char', codePoint: this.characterEscape(false), position: start };
  }

  /**
   * `\p{…}`: a property escape in Unicode mode. Annex B reads `\p{L}` as the text "p{L}", which is
   * surely not what was meant, so that is rejected as well rather than matched silently.
   */
  private propertyEscape(next: string): boolean {
    return (
      (next === 'p' || next === 'P') &&
      (this.unicode || /^\{[A-Za-z_=]+\}/.test(this.pattern.slice(this.i + 2, this.i + 64)))
    );
  }

  /**
   * The escape after a backslash (at this.i, already past the backslash) that stands for one
   * character: control, hex, Unicode, NUL, legacy octal or identity escapes.
   */
  private characterEscape(inClass: boolean): number {
    const ch = this.pattern[this.i];
    const control = CONTROL_ESCAPES.get(ch);
    if (control !== undefined) {
      this.i++;
      return control;
    }
    if (ch === 'c') {
      const letter = this.pattern[this.i + 1];
      // Annex B also allows digits and `_` after \c inside a class.
      if (isAsciiLetter(letter) || (inClass && !this.unicode && (isDigit(letter) || letter === '_'))) {
        this.i += 2;
        return letter.charCodeAt(0) % 32;
      }
      // Only reached inside a class: a lone \c there is a backslash; `c` follows as itself.
      return 0x5c;
    }
    if (ch === 'x' && isHex(this.pattern[this.i + 1]) && isHex(this.pattern[this.i + 2])) {
      this.i += 3;
      return parseInt(this.pattern.slice(this.i - 2, this.i), 16);
    }
    if (ch === 'u') {
      const unicode = this.unicodeEscape();
      if (unicode !== null) return unicode;
    }
    if (ch === '0' && !isDigit(this.pattern[this.i + 1])) {
      this.i++;
      return 0;
    }
    if (isDigit(ch)) return this.legacyEscape();
    // Identity escape: the character itself.
    return this.sourceCharacter();
  }

  /** `\uHHHH` (a surrogate pair of them is one code point) or, in Unicode mode, `\u{H…}`; null if neither. */
  private unicodeEscape(): number | null {
    const p = this.pattern;
    const at = this.i; // at the `u`
    if (this.unicode && p[at + 1] === '{') {
      const close = p.indexOf('}', at);
      this.i = close + 1;
      return parseInt(p.slice(at + 2, close), 16);
    }
    const hex4 = (from: number) =>
      /^[0-9a-fA-F]{4}$/.test(p.slice(from, from + 4)) ? parseInt(p.slice(from, from + 4), 16) : null;
    const lead = hex4(at + 1);
    if (lead === null) return null;
    this.i = at + 5;
    // Without `u` the halves stay apart (a quantifier after them repeats the second only).
    if (this.unicode && lead >= 0xd800 && lead <= 0xdbff && p[this.i] === '\\' && p[this.i + 1] === 'u') {
      const trail = hex4(this.i + 2);
      if (trail !== null && trail >= 0xdc00 && trail <= 0xdfff) {
        this.i += 6;
        return 0x10000 + ((lead - 0xd800) << 10) + (trail - 0xdc00);
      }
    }
    return lead;
  }

  /** Annex B's legacy octal escape (up to \377), or \8 and \9 as themselves; this.i at the first digit. */
  private legacyEscape(): number {
    const p = this.pattern;
    if (!isOctal(p[this.i])) return p.charCodeAt(this.i++);
    let value = 0;
    const maxLength = p[this.i] <= '3' ? 3 : 2;
    for (let n = 0; n < maxLength && isOctal(p[this.i]); n++) value = value * 8 + Number(p[this.i++]);
    return value;
  }

  // -- classes -----------------------------------------------------------------------------------

  private characterClass(): RegexNode {
    const start = this.i;
    this.i++;
    const negated = this.pattern[this.i] === '^';
    if (negated) this.i++;
    const items: ClassItem[] = [];
    while (this.pattern[this.i] !== ']') {
      if (this.i >= this.pattern.length) this.internal('unterminated class');
      const from = this.classAtom();
      if (this.pattern[this.i] === '-' && this.pattern[this.i + 1] !== ']' && this.i + 1 < this.pattern.length) {
        this.i++;
        const to = this.classAtom();
        if (from.type === 'char' && to.type === 'char')
          items.push({ type: 'range', from: from.codePoint, to: to.codePoint });
        // Annex B: a class escape at either end makes no range: `[\d-z]` is digits, `-` and `z`.
        else items.push(from, { type: 'char', codePoint: 0x2d }, to);
      } else items.push(from);
    }
    this.i++;
    return { type: 'class', negated, items, position: start };
  }

  private classAtom(): ClassItem {
    const start = this.i;
    if (this.pattern[this.i] !== '\\') return { type: 'char', codePoint: this.sourceCharacter() };
    const next = this.pattern[this.i + 1];
    if (CLASS_ESCAPES.has(next)) {
      this.i += 2;
      return { type: 'escape', name: next as ClassEscape };
    }
    if (this.propertyEscape(next)) this.unsupported('Unicode property escape', start);
    this.i++;
    if (next === 'b') {
      this.i++;
      return { type: 'char', codePoint: 8 };
    }
    if (next === 'c') {
      const codePoint = this.characterEscape(true);
      // A lone `\c` is a backslash; leave the `c` to be read as the next atom.
      return { type: 'char', codePoint };
    }
    return { type: 'char', codePoint: this.characterEscape(true) };
  }
}

const isLead = (node: RegexNode | undefined) =>
  node?.type === 'char' && node.codePoint >= 0xd800 && node.codePoint <= 0xdbff;
const isTrail = (node: RegexNode | undefined) =>
  node?.type === 'char' && node.codePoint >= 0xdc00 && node.codePoint <= 0xdfff;

/**
 * Without `u`, an astral character is two units in sequence: joined back into one code point. A
 * quantifier on the second half (`😀+`, `😀{0,3}`) can only take it once, since a lone half is never
 * generated; where it cannot (`😀{2}`) the halves stay apart and match nothing (unsatisfiable).
 */
function joinSurrogates(items: RegexNode[]): RegexNode[] {
  const out: RegexNode[] = [];
  for (let k = 0; k < items.length; k++) {
    const lead = items[k];
    const next = items[k + 1];
    const trail = next?.type === 'repeat' && next.min <= 1 && (next.max === null || next.max >= 1) ? next.body : next;
    if (lead.type === 'char' && isLead(lead) && isTrail(trail)) {
      const low = (trail as { codePoint: number }).codePoint;
      out.push({
        type: 'char',
        codePoint: 0x10000 + ((lead.codePoint - 0xd800) << 10) + (low - 0xdc00),
        position: lead.position,
      });
      k++;
    } else out.push(lead);
  }
  return out;
}

/** Parses a pattern the engine accepts; invalid-regex, too-deep or unsupported-regex otherwise. */
export function parseRegex(pattern: string): ParsedRegex {
  const shape = scanRegex(pattern);
  const unicode = engineSyntax(pattern);
  return { body: new Parser(pattern, unicode, shape).parse(), unicode };
}
