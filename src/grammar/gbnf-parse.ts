// A GBNF parser following llama.cpp's grammar-parser: used to check every grammar before it reaches
// llama.cpp, and to feed the sampler and recognizer that prove the compilers sound.

import { ConstraintError } from './errors.js';
import type { Expr, Grammar } from '../automaton/expr.js';
import { MAX_EXPR_DEPTH, altOf, charClass, literal, normalizeRanges, ref, repeat, seqOf } from '../automaton/expr.js';

const isWordChar = (ch: string) => /[a-zA-Z0-9-]/.test(ch);

class GbnfParser {
  private pos = 0;
  private depth = 0;
  private readonly rules = new Map<string, Expr>();
  private readonly references = new Map<string, number>();

  constructor(private readonly src: string) {}

  parse(): Grammar {
    this.skipSpace(true);
    while (this.pos < this.src.length) {
      this.parseRule();
      this.skipSpace(true);
    }
    for (const [name, position] of this.references) {
      if (!this.rules.has(name)) this.fail(`undefined rule '${name}'`, position);
    }
    if (!this.rules.has('root')) this.fail("grammar has no 'root' rule", 0);
    return { rules: this.rules, root: 'root' };
  }

  private fail(message: string, position = this.pos): never {
    throw new ConstraintError('invalid-gbnf', `GBNF: ${message}`, { position });
  }

  private skipSpace(newlineOk: boolean): void {
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos];
      if (ch === ' ' || ch === '\t' || (newlineOk && (ch === '\n' || ch === '\r'))) this.pos++;
      else if (ch === '#') {
        while (this.pos < this.src.length && this.src[this.pos] !== '\n' && this.src[this.pos] !== '\r') this.pos++;
      } else break;
    }
  }

  private parseName(): string {
    const start = this.pos;
    while (this.pos < this.src.length && isWordChar(this.src[this.pos])) this.pos++;
    if (start === this.pos) this.fail('expecting a rule name');
    return this.src.slice(start, this.pos);
  }

  private parseRule(): void {
    const namePos = this.pos;
    const name = this.parseName();
    this.skipSpace(false);
    if (!this.src.startsWith('::=', this.pos)) this.fail("expecting '::='");
    this.pos += 3;
    this.skipSpace(true);
    const body = this.parseAlternates(false);
    if (this.rules.has(name)) this.fail(`rule '${name}' defined twice`, namePos);
    this.rules.set(name, body);
    const ch = this.src[this.pos];
    if (ch === '\r') this.pos += this.src[this.pos + 1] === '\n' ? 2 : 1;
    else if (ch === '\n') this.pos++;
    else if (this.pos < this.src.length) this.fail('expecting a newline or the end');
  }

  private parseAlternates(nested: boolean): Expr {
    const options = [this.parseSequence(nested)];
    while (this.src[this.pos] === '|') {
      this.pos++;
      this.skipSpace(true);
      options.push(this.parseSequence(nested));
    }
    return altOf(options);
  }

  private parseSequence(nested: boolean): Expr {
    const items: Expr[] = [];
    for (;;) {
      const ch = this.src[this.pos];
      if (ch === undefined) break;
      if (ch === '"') {
        this.pos++;
        let text = '';
        while (this.src[this.pos] !== '"') {
          if (this.pos >= this.src.length) this.fail('unterminated literal');
          text += String.fromCodePoint(this.parseChar());
        }
        this.pos++;
        items.push(literal(text));
      } else if (ch === '[') {
        this.pos++;
        let negated = false;
        if (this.src[this.pos] === '^') {
          negated = true;
          this.pos++;
        }
        const ranges: [number, number][] = [];
        while (this.src[this.pos] !== ']') {
          if (this.pos >= this.src.length) this.fail('unterminated character class');
          const lo = this.parseChar();
          if (this.src[this.pos] === '-' && this.src[this.pos + 1] !== ']') {
            this.pos++;
            if (this.pos >= this.src.length) this.fail('unterminated character class');
            const hi = this.parseChar();
            if (hi < lo) this.fail('character range out of order');
            ranges.push([lo, hi]);
          } else ranges.push([lo, lo]);
        }
        this.pos++;
        items.push(charClass(normalizeRanges(ranges), negated));
      } else if (isWordChar(ch)) {
        const position = this.pos;
        const name = this.parseName();
        if (!this.references.has(name)) this.references.set(name, position);
        items.push(ref(name));
      } else if (ch === '(') {
        // Each group is a recursion here and in every pass after: bounded like compiled rules.
        if (++this.depth > MAX_EXPR_DEPTH) this.fail(`groups nest deeper than ${MAX_EXPR_DEPTH}`);
        this.pos++;
        this.skipSpace(true);
        const inner = this.parseAlternates(true);
        this.depth--;
        if (this.src[this.pos] !== ')') this.fail("expecting ')'");
        this.pos++;
        items.push(inner);
      } else if (ch === '.') {
        this.pos++;
        items.push(charClass([], true));
      } else if (ch === '*' || ch === '+' || ch === '?' || ch === '{') {
        const last = items.pop();
        if (!last) this.fail(`expecting an item before '${ch}'`);
        items.push(this.parseRepetition(last));
      } else break;
      this.skipSpace(nested);
    }
    // A repetition has already taken its group (or literal) whole, so flattening is harmless here.
    return items.length === 1 ? items[0] : seqOf(items);
  }

  private parseRepetition(body: Expr): Expr {
    const ch = this.src[this.pos++];
    if (ch === '*') return repeat(body, 0, null);
    if (ch === '+') return repeat(body, 1, null);
    if (ch === '?') return repeat(body, 0, 1);
    this.skipSpace(false);
    const min = this.parseInt();
    let max: number | null = min;
    this.skipSpace(false);
    if (this.src[this.pos] === ',') {
      this.pos++;
      this.skipSpace(false);
      max = /[0-9]/.test(this.src[this.pos] ?? '') ? this.parseInt() : null;
      this.skipSpace(false);
    }
    if (this.src[this.pos] !== '}') this.fail("expecting '}'");
    this.pos++;
    if (max !== null && max < min) this.fail(`repetition {${min},${max}} has max below min`);
    return repeat(body, min, max);
  }

  private parseInt(): number {
    const start = this.pos;
    while (/[0-9]/.test(this.src[this.pos] ?? '')) this.pos++;
    if (start === this.pos) this.fail('expecting a number');
    return Number(this.src.slice(start, this.pos));
  }

  private parseChar(): number {
    const ch = this.src[this.pos];
    if (ch === '\\') {
      const esc = this.src[this.pos + 1];
      const hexLength = esc === 'x' ? 2 : esc === 'u' ? 4 : esc === 'U' ? 8 : 0;
      if (hexLength) {
        const digits = this.src.slice(this.pos + 2, this.pos + 2 + hexLength);
        if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(digits)) this.fail('bad hex escape');
        this.pos += 2 + hexLength;
        const value = parseInt(digits, 16);
        if (value > 0x10ffff) this.fail('code point out of range');
        return value;
      }
      const simple: Record<string, number> = { t: 9, r: 13, n: 10, '\\': 92, '"': 34, '[': 91, ']': 93 };
      if (esc !== undefined && esc in simple) {
        this.pos += 2;
        return simple[esc];
      }
      this.fail(`unknown escape '\\${esc ?? ''}'`);
    }
    const codePoint = this.src.codePointAt(this.pos)!;
    this.pos += codePoint > 0xffff ? 2 : 1;
    return codePoint;
  }
}

/** Parses GBNF text into the grammar IR; throws ConstraintError('invalid-gbnf') with the offset. */
export function parseGbnf(text: string): Grammar {
  return new GbnfParser(text).parse();
}
