// The JSON building blocks every front end shares: compact (no whitespace) numbers, strings,
// literals and the "any JSON value" rules.

import type { Expr } from '../automaton/expr.js';
import { alt, charClass, literal, normalizeRanges, optional, ref, repeat, seq } from '../automaton/expr.js';
import type { GrammarBuilder } from './grammar-builder.js';

/** Integers without explicit bounds have at most this many digits, so they stay exact in JS. */
export const DEFAULT_INTEGER_DIGITS = 15;

const digit = charClass([[0x30, 0x39]]);
const nonZeroDigit = charClass([[0x31, 0x39]]);
const hexDigit = charClass(
  normalizeRanges([
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ]),
);

export const DIGIT = digit;

/** `0` or a natural number without leading zeros, at most `maxDigits` digits. */
export function naturalExpr(maxDigits = DEFAULT_INTEGER_DIGITS): Expr {
  return alt(literal('0'), seq(nonZeroDigit, repeat(digit, 0, maxDigits - 1)));
}

/** An integer without leading zeros; `-0` is not produced. */
export function integerExpr(): Expr {
  return alt(literal('0'), seq(optional(literal('-')), nonZeroDigit, repeat(digit, 0, DEFAULT_INTEGER_DIGITS - 1)));
}

/** A JSON number: at most 15 integer digits, 16 fraction digits and a two-digit exponent, so it stays finite. */
export function numberExpr(allowNegative = true): Expr {
  return seq(
    allowNegative ? optional(literal('-')) : literal(''),
    naturalExpr(),
    optional(seq(literal('.'), repeat(digit, 1, 16))),
    optional(
      seq(
        charClass([
          [0x45, 0x45],
          [0x65, 0x65],
        ]),
        optional(
          charClass([
            [0x2b, 0x2b],
            [0x2d, 0x2d],
          ]),
        ),
        repeat(digit, 1, 2),
      ),
    ),
  );
}

/**
 * One character of a JSON string: a raw character other than `"`, `\`, controls and DEL (as
 * llama.cpp's own JSON grammar), or an escape. `\u` escapes exclude surrogates so every string
 * character is exactly one code point, which keeps minLength/maxLength exact.
 */
export function stringCharExpr(): Expr {
  const raw = charClass(
    normalizeRanges([
      [0x00, 0x1f],
      [0x22, 0x22],
      [0x5c, 0x5c],
      [0x7f, 0x7f],
    ]),
    true,
  );
  const nonSurrogateHex4 = alt(
    seq(
      charClass(
        normalizeRanges([
          [0x30, 0x39],
          [0x41, 0x43],
          [0x61, 0x63],
          [0x45, 0x46],
          [0x65, 0x66],
        ]),
      ),
      repeat(hexDigit, 3, 3),
    ),
    seq(
      charClass([
        [0x44, 0x44],
        [0x64, 0x64],
      ]),
      charClass([[0x30, 0x37]]),
      repeat(hexDigit, 2, 2),
    ),
  );
  const escape = seq(
    literal('\\'),
    alt(
      charClass(
        normalizeRanges(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'].map((c) => [c.charCodeAt(0), c.charCodeAt(0)])),
      ),
      seq(literal('u'), nonSurrogateHex4),
    ),
  );
  return alt(raw, escape);
}

/** Shared rules, created on first use so grammars only contain what they reference. */
export class JsonRules {
  private readonly cache = new Map<string, Expr>();
  constructor(private readonly builder: GrammarBuilder) {}

  private once(name: string, make: () => Expr): Expr {
    let expr = this.cache.get(name);
    if (!expr) {
      expr = this.builder.rule(name, make());
      this.cache.set(name, expr);
    }
    return expr;
  }

  char(): Expr {
    return this.once('char', stringCharExpr);
  }
  string(): Expr {
    return this.once('string', () => seq(literal('"'), repeat(this.char(), 0, null), literal('"')));
  }
  integer(): Expr {
    return this.once('integer', integerExpr);
  }
  number(): Expr {
    return this.once('number', () => numberExpr(true));
  }
  boolean(): Expr {
    return this.once('boolean', () => alt(literal('true'), literal('false')));
  }

  /** Any JSON value: the rules are mutually recursive, so they are reserved first. */
  value(): Expr {
    const cached = this.cache.get('value');
    if (cached) return cached;
    const value = this.builder.reserve('value');
    this.cache.set('value', ref(value));
    const object = this.builder.reserve('object');
    const array = this.builder.reserve('array');
    const member = seq(this.string(), literal(':'), ref(value));
    this.builder.define(
      object,
      seq(literal('{'), optional(seq(member, repeat(seq(literal(','), member), 0, null))), literal('}')),
    );
    this.builder.define(
      array,
      seq(literal('['), optional(seq(ref(value), repeat(seq(literal(','), ref(value)), 0, null))), literal(']')),
    );
    this.builder.define(
      value,
      alt(ref(object), ref(array), this.string(), this.number(), this.boolean(), literal('null')),
    );
    return ref(value);
  }
}
