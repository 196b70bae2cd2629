// Numbers as grammars, after llguidance's numeric ranges (rx/numeric): integer ranges as exact digit
// ranges, decimal ranges digit by digit (no exponent is written where a bound applies), and
// multipleOf as an automaton of the remainder, intersected with the range (dfa.ts).
//
// Bounds are JavaScript numbers (doubles); the grammar reads each as its shortest decimal spelling
// (what JSON.stringify writes), exactly. What the validator then parses must compare the same way
// in doubles: an inclusive bound holds for every decimal on the right side of it (rounding is
// monotonic), and an exclusive bound becomes an inclusive one on a grid of 15 significant digits
// (the largest such decimal below it), since a decimal of at most 15 significant digits that is not
// the bound's own spelling never rounds to the bound's double.

import type { Expr } from '../automaton/expr.js';
import { EMPTY, altOf, charClass, literal, optional, repeat, seq } from '../automaton/expr.js';

/** The largest number of fraction digits a bounded number is written with. */
export const MAX_FRACTION_DIGITS = 16;

// ---- decimals ---------------------------------------------------------------------------------

/** coefficient × 10^-scale, exactly. */
export interface Decimal {
  readonly coefficient: bigint;
  readonly scale: number;
}

/** A finite double as the decimal its shortest spelling says (`0.1` is 1/10, not the double's binary value). */
export function decimalOf(value: number): Decimal {
  const [mantissa, exponentText] = String(value).toLowerCase().split('e');
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  const negative = mantissa.startsWith('-');
  const [whole, fraction = ''] = (negative ? mantissa.slice(1) : mantissa).split('.');
  let coefficient = BigInt(whole + fraction);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    coefficient *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return normalized({ coefficient: negative ? -coefficient : coefficient, scale });
}

function normalized(d: Decimal): Decimal {
  let { coefficient, scale } = d;
  while (scale > 0 && coefficient % 10n === 0n) {
    coefficient /= 10n;
    scale--;
  }
  return { coefficient, scale };
}

/** The coefficient of `d` at scale `s` (s >= d.scale). */
const at = (d: Decimal, s: number): bigint => d.coefficient * 10n ** BigInt(s - d.scale);

export function compareDecimals(a: Decimal, b: Decimal): number {
  const s = Math.max(a.scale, b.scale);
  const x = at(a, s);
  const y = at(b, s);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** floor(d × 10^s) or ceil(d × 10^s): `d` on a grid of 10^-s, rounded down or up. */
function onGrid(d: Decimal, s: number, up: boolean): bigint {
  if (s >= d.scale) return at(d, s);
  const unit = 10n ** BigInt(d.scale - s);
  let q = d.coefficient / unit;
  const r = d.coefficient % unit;
  if (r !== 0n && r > 0n === up) q += up ? 1n : -1n;
  return q;
}

/** Digits of the integer part of |d| (0 for |d| < 1). */
function integerDigits(d: Decimal): number {
  const whole = (d.coefficient < 0n ? -d.coefficient : d.coefficient) / 10n ** BigInt(d.scale);
  return whole === 0n ? 0 : String(whole).length;
}

/** The least common multiple of two positive decimals (a multiple of both is a multiple of it). */
export function decimalLcm(a: Decimal, b: Decimal): Decimal {
  const s = Math.max(a.scale, b.scale);
  const x = at(a, s);
  const y = at(b, s);
  let [p, q] = [x, y];
  while (q !== 0n) [p, q] = [q, p % q];
  return normalized({ coefficient: (x / p) * y, scale: s });
}

/**
 * The inclusive bound a (possibly exclusive) bound becomes, on the grid of numbers the grammar
 * writes: at most MAX_FRACTION_DIGITS fraction digits, and for an exclusive bound at most 15
 * significant digits (see the head of this file).
 */
export function inclusiveBound(value: number, exclusive: boolean, lower: boolean): Decimal {
  const d = decimalOf(value);
  const s = exclusive ? Math.min(MAX_FRACTION_DIGITS, 15 - integerDigits(d)) : MAX_FRACTION_DIGITS;
  let q = onGrid(d, s, lower);
  if (exclusive && compareDecimals({ coefficient: q, scale: Math.max(s, 0) }, d) === 0 && s >= 0) q += lower ? 1n : -1n;
  if (s >= 0) return normalized({ coefficient: q, scale: s });
  // A grid coarser than 1 (an exclusive bound of more than 15 integer digits).
  const exact = compareDecimals({ coefficient: q * 10n ** BigInt(-s), scale: 0 }, d) === 0;
  if (exclusive && exact) q += lower ? 1n : -1n;
  return { coefficient: q * 10n ** BigInt(-s), scale: 0 };
}

// ---- integer ranges ---------------------------------------------------------------------------

const DIGIT_CLASS = (lo: number, hi: number): Expr => charClass([[0x30 + lo, 0x30 + hi]]);
const ANY_DIGIT = DIGIT_CLASS(0, 9);

/** Digit strings of equal length between x and y (inclusive), as unambiguous alternatives. */
function sameLengthRange(x: string, y: string): Expr {
  if (x.length === 0) return EMPTY;
  if (x === y) return literal(x);
  const x0 = Number(x[0]);
  const y0 = Number(y[0]);
  const restLength = x.length - 1;
  const xRest = x.slice(1);
  const yRest = y.slice(1);
  if (x0 === y0) return seq(literal(x[0]), sameLengthRange(xRest, yRest));
  const anyDigits = repeat(ANY_DIGIT, restLength, restLength);
  const lowFull = /^0*$/.test(xRest);
  const highFull = /^9*$/.test(yRest);
  const options: Expr[] = [];
  if (!lowFull) options.push(seq(literal(x[0]), sameLengthRange(xRest, '9'.repeat(restLength))));
  const middleLo = lowFull ? x0 : x0 + 1;
  const middleHi = highFull ? y0 : y0 - 1;
  if (middleLo <= middleHi)
    options.push(seq(middleLo === middleHi ? literal(String(middleLo)) : DIGIT_CLASS(middleLo, middleHi), anyDigits));
  if (!highFull) options.push(seq(literal(y[0]), sameLengthRange('0'.repeat(restLength), yRest)));
  return altOf(options);
}

/** Natural numbers in [lo, hi] without leading zeros. */
export function naturalRange(lo: bigint, hi: bigint): Expr {
  const options: Expr[] = [];
  const loLength = String(lo).length;
  const hiLength = String(hi).length;
  for (let length = loLength; length <= hiLength; length++) {
    const floor = length === 1 ? 0n : 10n ** BigInt(length - 1);
    const ceiling = 10n ** BigInt(length) - 1n;
    const a = lo > floor ? lo : floor;
    const b = hi < ceiling ? hi : ceiling;
    if (a <= b) options.push(sameLengthRange(String(a), String(b)));
  }
  return altOf(options);
}

/** Exactly the integers in [lo, hi], written without leading zeros (and `0`, never `-0`). */
export function integerRangeExpr(lo: bigint, hi: bigint): Expr {
  const options: Expr[] = [];
  if (lo < 0n) {
    const negHi = hi < -1n ? hi : -1n;
    options.push(seq(literal('-'), naturalRange(-negHi, -lo)));
  }
  if (hi >= 0n) options.push(naturalRange(lo > 0n ? lo : 0n, hi));
  return altOf(options);
}

// ---- decimal ranges ---------------------------------------------------------------------------

/** Digit strings s of 0..n digits whose value as a fraction (0.s) lies in [0.x, 0.y]; x, y of n digits. */
interface Fraction {
  /** The non-empty ones, or null. */
  nonEmpty: Expr | null;
  /** Whether the empty string is one (0.x is 0). */
  empty: boolean;
}

const zeros = (x: string) => /^0*$/.test(x);
const nines = (x: string) => /^9*$/.test(x);

const anyOf = (f: Fraction): Expr => (f.nonEmpty === null ? EMPTY : f.empty ? optional(f.nonEmpty) : f.nonEmpty);

function fraction(x: string, y: string): Fraction {
  const n = x.length;
  if (n === 0) return { nonEmpty: null, empty: true };
  if (zeros(x) && nines(y)) return { nonEmpty: repeat(ANY_DIGIT, 1, n), empty: true };
  if (zeros(x) && zeros(y)) return { nonEmpty: repeat(literal('0'), 1, n), empty: true };
  const x0 = Number(x[0]);
  const y0 = Number(y[0]);
  const empty = zeros(x);
  if (x0 === y0) return { nonEmpty: seq(literal(x[0]), anyOf(fraction(x.slice(1), y.slice(1)))), empty };
  const rest = n - 1;
  const options: Expr[] = [];
  // The first digit x0 (then at least the rest of x), the digits between (then anything), y0 (then at most the rest of y).
  const lowFull = zeros(x.slice(1));
  const highFull = nines(y.slice(1));
  if (!lowFull) options.push(seq(literal(x[0]), anyOf(fraction(x.slice(1), '9'.repeat(rest)))));
  const middleLo = lowFull ? x0 : x0 + 1;
  const middleHi = highFull ? y0 : y0 - 1;
  if (middleLo <= middleHi)
    options.push(
      seq(
        middleLo === middleHi ? literal(String(middleLo)) : DIGIT_CLASS(middleLo, middleHi),
        repeat(ANY_DIGIT, 0, rest),
      ),
    );
  if (!highFull) options.push(seq(literal(y[0]), anyOf(fraction('0'.repeat(rest), y.slice(1)))));
  return { nonEmpty: altOf(options), empty };
}

/** `.` and the fraction's digits, or nothing where the fraction may be 0. */
function fractionPart(f: Fraction): Expr {
  if (f.nonEmpty === null) return EMPTY;
  const written = seq(literal('.'), f.nonEmpty);
  return f.empty ? optional(written) : written;
}

/** The integer part and the fraction digits (padded to `digits`) of a non-negative decimal. */
function split(d: Decimal, digits: number): [bigint, string] {
  const unit = 10n ** BigInt(d.scale);
  const whole = d.coefficient / unit;
  const fractionDigits = String(d.coefficient % unit).padStart(d.scale, '0');
  return [whole, fractionDigits.padEnd(digits, '0').slice(0, digits)];
}

/** Non-negative decimals in [lo, hi] with at most `digits` fraction digits (lo, hi on that grid). */
function nonNegativeRange(lo: Decimal, hi: Decimal, digits: number): Expr | null {
  if (compareDecimals(lo, hi) > 0) return null;
  const [li, lf] = split(lo, digits);
  const [hi_, hf] = split(hi, digits);
  const all = '9'.repeat(digits);
  const none = '0'.repeat(digits);
  if (li === hi_) return seq(naturalRange(li, li), fractionPart(fraction(lf, hf)));
  const options: Expr[] = [];
  let from = li;
  let to = hi_;
  if (!zeros(lf)) {
    options.push(seq(naturalRange(li, li), fractionPart(fraction(lf, all))));
    from = li + 1n;
  }
  const fullTop = nines(hf);
  if (!fullTop) to = hi_ - 1n;
  if (from <= to) options.push(seq(naturalRange(from, to), fractionPart(fraction(none, all))));
  if (!fullTop) options.push(seq(naturalRange(hi_, hi_), fractionPart(fraction(none, hf))));
  return altOf(options);
}

/**
 * Decimals in [lo, hi] (inclusive, on the grid of `digits` fraction digits), written without
 * exponent or leading zeros, `-0` never; null when there are none.
 */
export function decimalRangeExpr(lo: Decimal, hi: Decimal, digits: number): Expr | null {
  if (compareDecimals(lo, hi) > 0) return null;
  const neg = (d: Decimal): Decimal => ({ coefficient: -d.coefficient, scale: d.scale });
  const zero: Decimal = { coefficient: 0n, scale: 0 };
  const smallest: Decimal = { coefficient: 1n, scale: digits };
  const options: Expr[] = [];
  if (lo.coefficient < 0n) {
    // Magnitudes from |min(hi, -smallest)| to |lo|: never zero, so never `-0`.
    const top = compareDecimals(hi, neg(smallest)) < 0 ? hi : neg(smallest);
    const magnitudes = nonNegativeRange(neg(top), neg(lo), digits);
    if (magnitudes) options.push(seq(literal('-'), magnitudes));
  }
  if (hi.coefficient >= 0n) {
    const positive = nonNegativeRange(lo.coefficient > 0n ? lo : zero, hi, digits);
    if (positive) options.push(positive);
  }
  return options.length ? altOf(options) : null;
}

// ---- multipleOf ---------------------------------------------------------------------------------

/** The characters a number is written with: `-`, `.` and the ten digits, each a class of its own. */
export const NUMBER_CHARS: readonly number[] = [0x2d, 0x2e, ...Array.from({ length: 10 }, (_, d) => 0x30 + d)];

interface MultipleState {
  phase: 'start' | 'sign' | 'negative-zero' | 'zero' | 'integer' | 'dot' | 'fraction';
  remainder: bigint;
  fractionDigits: number;
}

/**
 * The numbers whose value is a multiple of step = coefficient × 10^-scale, as a character automaton
 * (start state, step function over NUMBER_CHARS, acceptance): the digits read so far as one integer
 * N, kept modulo the coefficient, and at most `scale` fraction digits; N × 10^(scale - fraction
 * digits) must be 0 modulo the coefficient at the end. No leading zeros, no `-0`.
 */
export function multipleAutomaton(step: Decimal): {
  start: MultipleState;
  key: (s: MultipleState) => string;
  next: (s: MultipleState, char: number) => MultipleState | null;
  accepts: (s: MultipleState) => boolean;
} {
  const c = step.coefficient;
  const e = step.scale;
  const pow = (k: number) => 10n ** BigInt(k);
  return {
    start: { phase: 'start', remainder: 0n, fractionDigits: 0 },
    key: (s) => `${s.phase}:${s.remainder}:${s.fractionDigits}`,
    next: (s, char) => {
      const digit = char >= 0x30 && char <= 0x39 ? BigInt(char - 0x30) : -1n;
      const grow = (phase: MultipleState['phase'], fractionDigits: number): MultipleState => ({
        phase,
        remainder: (s.remainder * 10n + digit) % c,
        fractionDigits,
      });
      switch (s.phase) {
        case 'start':
        case 'sign':
          if (char === 0x2d) return s.phase === 'start' ? { ...s, phase: 'sign' } : null;
          if (digit === 0n) return { ...s, phase: s.phase === 'sign' ? 'negative-zero' : 'zero' };
          return digit > 0n ? grow('integer', 0) : null;
        case 'zero':
        case 'negative-zero':
        case 'integer':
          if (char === 0x2e) return e > 0 ? { ...s, phase: 'dot' } : null;
          return s.phase === 'integer' && digit >= 0n ? grow('integer', 0) : null;
        case 'dot':
        case 'fraction':
          return digit >= 0n && s.fractionDigits < e ? grow('fraction', s.fractionDigits + 1) : null;
      }
    },
    accepts: (s) =>
      (s.phase === 'zero' || s.phase === 'integer' || s.phase === 'fraction') &&
      (s.remainder * pow(e - s.fractionDigits)) % c === 0n,
  };
}
