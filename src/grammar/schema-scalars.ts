// Emit: integers, numbers and strings of a typed schema (schema-types.ts) as grammar rules. Bounds
// and multipleOf through numeric.ts; several patterns, formats and a length through their
// automata's intersection (dfa.ts), since JSON Schema applies them all. Where an automaton would be
// too large, one of them is kept exactly and the others are listed for the validator.

import { ConstraintError, pointerChild } from './errors.js';
import type { CharRanges, Expr } from '../automaton/expr.js';
import { unambiguous } from './ambiguity.js';
import { GENERATABLE, lengthBounds, literal, repeat, seq } from '../automaton/expr.js';
import type { Dfa, DfaBudget } from './dfa.js';
import { dfaIsEmpty, dfaOfExpr, dfaOfSteps, dfaRules, intersectDfas, lengthDfa, rangesExpr } from './dfa.js';
import { FORMAT_PATTERNS, NUMBER_FORMATS, VALIDATED_FORMATS } from './formats.js';
import type { GrammarBuilder } from './grammar-builder.js';
import type { JsonRules } from './json-primitives.js';
import { DEFAULT_INTEGER_DIGITS } from './json-primitives.js';
import type { Decimal } from './numeric.js';
import {
  MAX_FRACTION_DIGITS,
  NUMBER_CHARS,
  compareDecimals,
  decimalLcm,
  decimalOf,
  decimalRangeExpr,
  inclusiveBound,
  integerRangeExpr,
  multipleAutomaton,
} from './numeric.js';
import { regexToExpr, toJsonStringContent } from './regex.js';
import type { NumberPart, StringPart, Unsatisfiable } from './schema-types.js';
import { unsatisfiable } from './schema-types.js';

export interface ScalarContext {
  readonly builder: GrammarBuilder;
  readonly json: JsonRules;
  readonly strict: boolean;
  /** Patterns as JSON string content, per compile (see content). */
  readonly patternContents: Map<string, Expr>;
  approximate(pointer: string, keyword: string, note: string): void;
  /** The automaton budget for work at `pointer`. */
  dfaBudget(pointer: string): DfaBudget;
}

// ---- numbers ------------------------------------------------------------------------------------

const isStep = (d: Decimal) => d.coefficient > 0n;

/** The least common multiple of the steps (of 1 too, for integers). */
function stepOf(part: NumberPart, integer: boolean): Decimal | undefined {
  if (part.multipleOf.length === 0) return undefined;
  let step: Decimal | undefined = integer ? { coefficient: 1n, scale: 0 } : undefined;
  for (const m of part.multipleOf) step = step ? decimalLcm(step, decimalOf(m.value)) : decimalOf(m.value);
  // An integer is a multiple of 1 already; a number is not.
  return step && isStep(step) && !(integer && step.coefficient === 1n && step.scale === 0) ? step : undefined;
}

/** Why a multipleOf stays with the validator. */
function multipleLeftToValidator(part: NumberPart, why: string, ctx: ScalarContext): void {
  for (const m of part.multipleOf) ctx.approximate(m.pointer, 'multipleOf', why);
}

/** The numbers of a range expression that are multiples of the step, or the reason there are none; undefined when the automaton is too large. */
function multiplesIn(
  range: Expr,
  step: Decimal,
  pointer: string,
  hint: string,
  ctx: ScalarContext,
): Expr | Unsatisfiable | undefined {
  const budget = ctx.dfaBudget(pointer);
  const rangeDfa = dfaOfExpr(range, budget);
  const automaton = multipleAutomaton(step);
  const multiples = dfaOfSteps(NUMBER_CHARS, automaton.start, automaton.key, automaton.next, automaton.accepts, budget);
  const both = rangeDfa && multiples && intersectDfas([rangeDfa, multiples], budget);
  if (!both) return undefined;
  if (dfaIsEmpty(both))
    return unsatisfiable('no multiple of multipleOf lies between the bounds', pointer, 'multipleOf');
  return dfaRules(both, ctx.builder, `${hint}-multiple`, rangesExpr);
}

export function integerExpr(part: NumberPart, pointer: string, hint: string, ctx: ScalarContext): Expr | Unsatisfiable {
  for (const f of part.formats)
    ctx.approximate(f.pointer, 'format', `number format '${f.value}' is checked by the validator`);
  const { min, max } = part;
  const lower = min && (min.exclusive ? BigInt(Math.floor(min.value)) + 1n : BigInt(Math.ceil(min.value)));
  const upper = max && (max.exclusive ? BigInt(Math.ceil(max.value)) - 1n : BigInt(Math.floor(max.value)));
  const step = stepOf(part, true);
  if (lower === undefined && upper === undefined && !step) return ctx.json.integer();
  // An open side keeps the default digit limit (or the other bound's length, if longer).
  const digits = Math.max(
    DEFAULT_INTEGER_DIGITS,
    String(lower ?? 0n).replace('-', '').length,
    String(upper ?? 0n).replace('-', '').length,
  );
  const cap = 10n ** BigInt(digits) - 1n;
  const lo = lower ?? -cap;
  const hi = upper ?? cap;
  if (lo > hi) return unsatisfiable(`no integer lies between ${lo} and ${hi}`, pointer, 'minimum');
  const range = integerRangeExpr(lo, hi);
  if (step) {
    // Multiples are written with at most 15 digits, which JavaScript and the validator read exactly.
    if (digits > DEFAULT_INTEGER_DIGITS)
      multipleLeftToValidator(part, 'multiples beyond 15 digits are checked by the validator', ctx);
    else {
      const multiples = multiplesIn(range, step, pointer, hint, ctx);
      if (multiples) return multiples;
      multipleLeftToValidator(
        part,
        'the automaton of multiples in this range is too large; the validator checks multipleOf',
        ctx,
      );
    }
  }
  if (lower === undefined && upper === undefined) return ctx.json.integer();
  return ctx.builder.rule(`${hint}-int`, range);
}

export function numberExpr(part: NumberPart, pointer: string, hint: string, ctx: ScalarContext): Expr | Unsatisfiable {
  for (const f of part.formats) {
    if (NUMBER_FORMATS.has(f.value))
      ctx.approximate(f.pointer, 'format', `number format '${f.value}' is checked by the validator`);
    else unknownFormat(f.value, f.pointer, 'a number', ctx);
  }
  const { min, max } = part;
  const step = stepOf(part, false);
  if (!min && !max && !step) return ctx.json.number();
  const lo = min && inclusiveBound(min.value, min.exclusive, true);
  const hi = max && inclusiveBound(max.value, max.exclusive, false);
  const whole = Math.max(DEFAULT_INTEGER_DIGITS, wholeDigits(lo), wholeDigits(hi));
  const from = lo ?? largest(whole, MAX_FRACTION_DIGITS, -1n);
  const to = hi ?? largest(whole, MAX_FRACTION_DIGITS, 1n);
  const range = decimalRangeExpr(from, to, MAX_FRACTION_DIGITS);
  if (!range)
    return unsatisfiable('no number with at most 16 fraction digits lies between the bounds', pointer, 'minimum');
  if (step) {
    // Multiples are written with at most 15 digits in all, which the validator reads exactly.
    const digits = step.scale;
    const wholeCap = DEFAULT_INTEGER_DIGITS - digits;
    const low = largest(wholeCap, digits, -1n);
    const high = largest(wholeCap, digits, 1n);
    const a = lo ? onGrid(lo, digits, true) : low;
    const b = hi ? onGrid(hi, digits, false) : high;
    if (wholeCap < 1 || compareDecimals(a, high) > 0 || compareDecimals(b, low) < 0) {
      multipleLeftToValidator(part, 'multiples of more than 15 digits are checked by the validator', ctx);
    } else {
      const multiplesRange = decimalRangeExpr(
        compareDecimals(a, low) < 0 ? low : a,
        compareDecimals(b, high) > 0 ? high : b,
        digits,
      );
      if (!multiplesRange)
        return unsatisfiable('no multiple of multipleOf lies between the bounds', pointer, 'multipleOf');
      const multiples = multiplesIn(multiplesRange, step, pointer, hint, ctx);
      if (multiples) return multiples;
      multipleLeftToValidator(
        part,
        'the automaton of multiples in this range is too large; the validator checks multipleOf',
        ctx,
      );
    }
  }
  return ctx.builder.rule(`${hint}-number`, range);
}

const wholeDigits = (d: Decimal | undefined): number => {
  if (!d) return 0;
  const whole = (d.coefficient < 0n ? -d.coefficient : d.coefficient) / 10n ** BigInt(d.scale);
  return whole === 0n ? 0 : String(whole).length;
};

/** ±(10^whole - 10^-fraction): the largest magnitude of `whole` integer and `fraction` fraction digits. */
const largest = (whole: number, fraction: number, sign: bigint): Decimal => ({
  coefficient: sign * (10n ** BigInt(whole + fraction) - 1n),
  scale: fraction,
});

/** A decimal on the grid of `digits` fraction digits, rounded up or down. */
function onGrid(d: Decimal, digits: number, up: boolean): Decimal {
  if (d.scale <= digits) return d;
  const unit = 10n ** BigInt(d.scale - digits);
  let q = d.coefficient / unit;
  const r = d.coefficient % unit;
  if (r !== 0n && r > 0n === up) q += up ? 1n : -1n;
  return { coefficient: q, scale: digits };
}

// ---- strings ------------------------------------------------------------------------------------

/** A format nobody here knows: an annotation (2020-12's default), or with `strict` an error. */
export function unknownFormat(format: string, pointer: string, what: string, ctx: ScalarContext): void {
  if (ctx.strict) {
    throw new ConstraintError('unsupported-format', `unknown format '${format}' for ${what}`, {
      pointer: pointerChild(pointer, 'format'),
      keyword: 'format',
    });
  }
  ctx.approximate(
    pointer,
    'format',
    `unknown format '${format}' is an annotation: generated and validated as ${what} of any form`,
  );
}

// Format expressions are the same for every schema: built once per process.
const formatExprs = new Map<string, Expr>();
function formatExpr(format: string): Expr {
  let expr = formatExprs.get(format);
  if (!expr) {
    const known = FORMAT_PATTERNS[format];
    expr = regexToExpr(known.pattern, known.flags, { semantics: 'full' });
    formatExprs.set(format, expr);
  }
  return expr;
}

/** A pattern's code point expression, searched as JSON Schema reads patterns; errors name the pattern. */
function patternExpr(pattern: string, pointer: string): Expr {
  try {
    return regexToExpr(pattern, '', { semantics: 'search' });
  } catch (error) {
    if (error instanceof ConstraintError) {
      throw new ConstraintError(error.code, `pattern: ${error.message}`, {
        pointer: pointerChild(pointer, 'pattern'),
        position: error.position,
        keyword: error.keyword ?? 'pattern',
      });
    }
    throw error;
  }
}

interface Regex {
  keyword: 'format' | 'pattern';
  value: string;
  pointer: string;
  expr: Expr;
}

/** `[class]{m,n}` (a whole pattern of one repeated character class) with a length: one repetition. */
function singleClassWithin(expr: Expr, min: number, max: number | null): Expr | undefined {
  if (expr.kind !== 'repeat' || expr.body.kind !== 'class') return undefined;
  const lo = Math.max(expr.min, min);
  const hi = expr.max === null ? max : max === null ? expr.max : Math.min(expr.max, max);
  return hi !== null && lo > hi ? undefined : repeat(expr.body, lo, hi);
}

export function stringExpr(part: StringPart, pointer: string, hint: string, ctx: ScalarContext): Expr | Unsatisfiable {
  const { minLength, maxLength } = part;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
    return unsatisfiable(`minLength ${minLength} exceeds maxLength ${maxLength}`, pointer, 'minLength');
  }
  const quoted = (content: Expr) => ctx.builder.rule(`${hint}-string`, seq(literal('"'), content, literal('"')));
  const regexes: Regex[] = [];
  for (const f of part.formats) {
    if (Object.prototype.hasOwnProperty.call(FORMAT_PATTERNS, f.value))
      regexes.push({ keyword: 'format', value: f.value, pointer: f.pointer, expr: formatExpr(f.value) });
    else if (VALIDATED_FORMATS.has(f.value))
      ctx.approximate(
        f.pointer,
        'format',
        `format '${f.value}' is generated as a plain string and checked by the validator`,
      );
    else unknownFormat(f.value, f.pointer, 'a string', ctx);
  }
  const inexpressible: ConstraintError[] = [];
  for (const p of part.patterns) {
    try {
      regexes.push({ keyword: 'pattern', value: p.value, pointer: p.pointer, expr: patternExpr(p.value, p.pointer) });
    } catch (error) {
      if (!(error instanceof ConstraintError) || (error.code !== 'unsupported-regex' && error.code !== 'unsatisfiable'))
        throw error;
      inexpressible.push(error);
      // Beside a format or another pattern the string is still constrained: this one is the validator's.
      if (part.formats.length + part.patterns.length > 1) {
        ctx.approximate(
          p.pointer,
          'pattern',
          `the regex compiler cannot express this pattern (${error.message}); beside the string's other pattern or format, the validator checks it`,
        );
      }
    }
  }
  if (inexpressible.length && part.formats.length + part.patterns.length === 1) throw inexpressible[0];
  // A length every string of some pattern or format has anyway needs no intersection.
  const lengths =
    (minLength !== undefined || maxLength !== undefined) &&
    !regexes.some((r) => {
      const [least, most] = lengthBounds(r.expr);
      return least >= (minLength ?? 0) && (maxLength === undefined || (most !== null && most <= maxLength));
    });
  if (regexes.length === 0) {
    if (minLength === undefined && maxLength === undefined) return ctx.json.string();
    return quoted(repeat(ctx.json.char(), minLength ?? 0, maxLength ?? null));
  }
  if (regexes.length === 1 && !lengths) return quoted(content(regexes[0], pointer, hint, ctx));
  if (regexes.length === 1) {
    const within = singleClassWithin(regexes[0].expr, minLength ?? 0, maxLength ?? null);
    if (within) return quoted(toJsonStringContent(within));
  }
  // JSON Schema applies every pattern, format and length: their automata's intersection.
  const budget = ctx.dfaBudget(pointer);
  const dfas: (Dfa | undefined)[] = regexes.map((r) => dfaOfExpr(r.expr, budget));
  if (lengths) dfas.push(lengthDfa(GENERATABLE, minLength ?? 0, maxLength ?? null));
  const product = dfas.every((d) => d !== undefined) ? intersectDfas(dfas as Dfa[], budget) : undefined;
  if (product) {
    if (dfaIsEmpty(product)) {
      const what = regexes.map((r) => `${r.keyword} '${r.value}'`).join(' and ');
      return unsatisfiable(
        `no string satisfies ${what}${lengths ? ' within minLength/maxLength' : ''}`,
        pointer,
        regexes[0].keyword,
      );
    }
    const content = dfaRules(product, ctx.builder, `${hint}-string-part`, (ranges) =>
      toJsonStringContent(rangesExpr(ranges)),
    );
    if (content) return quoted(content);
  }
  // Too large to intersect: the first (a format before a pattern) exactly, the others for the validator.
  const [kept, ...left] = regexes;
  const combined = `combined with ${kept.keyword} '${kept.value}'`;
  for (const r of left)
    ctx.approximate(
      r.pointer,
      r.keyword,
      `${combined}, the ${r.keyword} is checked by the validator (their intersection is too large)`,
    );
  if (lengths && minLength !== undefined)
    ctx.approximate(pointer, 'minLength', `${combined}, length is checked by the validator`);
  if (lengths && maxLength !== undefined)
    ctx.approximate(pointer, 'maxLength', `${combined}, length is checked by the validator`);
  return quoted(content(kept, pointer, hint, ctx));
}

/** A regex as JSON string content; a pattern llama.cpp would read in too many ways at once as its automaton (ambiguity.ts). */
/** Formats as JSON string content, built once and kept (a `uri` is a large expression, asked at every use). */
const formatContents = new Map<string, Expr>();

function content(regex: Regex, pointer: string, hint: string, ctx: ScalarContext): Expr {
  if (regex.keyword === 'format') {
    let written = formatContents.get(regex.value);
    if (!written) formatContents.set(regex.value, (written = toJsonStringContent(regex.expr)));
    return written;
  }
  // Once per pattern and compile: a pattern written at 2,000 properties is explored once.
  const known = ctx.patternContents.get(regex.value);
  if (known) return known;
  const step = (ranges: CharRanges) => toJsonStringContent(rangesExpr(ranges));
  const expr = unambiguous(
    regex.expr,
    `pattern '${regex.value}'`,
    ctx.builder,
    `${hint}-string-part`,
    ctx.dfaBudget(pointer),
    step,
    regex.pointer,
  );
  const written = expr === regex.expr ? toJsonStringContent(expr) : expr;
  ctx.patternContents.set(regex.value, written);
  return written;
}
