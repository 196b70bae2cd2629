// Regex expressions made cheaper for llama.cpp's matcher without changing what they match: llama.cpp
// keeps one parse stack per way a prefix can be read, so `(a|a|…×2000)*` (4 KB) cost about 28 s per
// generated character and `((a?){50}){50}` nearly a minute. Here equal alternatives become one,
// alternatives of single characters one class, many alternatives of one first character one path
// that branches where they differ (factor.ts), adjacent repetitions of one character class one
// repetition, and a repetition of such a repetition one repetition where the counts it allows are
// contiguous: `(a{1,50}){0,50}` is `a{0,2500}`.

import type { Expr } from '../automaton/expr.js';
import { charClass, normalizeRanges, repeat, seqOf } from '../automaton/expr.js';
import { factorAlternatives } from './factor.js';

const keys = new WeakMap<Expr, string>();

/** A structural key: equal keys, equal languages. */
export function exprKey(e: Expr): string {
  let key = keys.get(e);
  if (key !== undefined) return key;
  switch (e.kind) {
    case 'literal':
      key = JSON.stringify(e.text);
      break;
    case 'class':
      key = `[${e.negated ? '^' : ''}${e.ranges.map(([lo, hi]) => `${lo}-${hi}`).join(',')}]`;
      break;
    case 'ref':
      key = `<${e.name}>`;
      break;
    case 'seq':
      key = `(${e.items.map(exprKey).join(' ')})`;
      break;
    case 'alt':
      key = `(${e.options.map(exprKey).join('|')})`;
      break;
    case 'repeat':
      key = `${exprKey(e.body)}{${e.min},${e.max ?? ''}}`;
      break;
  }
  keys.set(e, key);
  return key;
}

/** The code point ranges of a one-character expression (a literal of one code point, a positive class). */
function singleChar(e: Expr): readonly (readonly [number, number])[] | undefined {
  if (e.kind === 'class' && !e.negated) return e.ranges;
  if (e.kind === 'literal') {
    const cps = [...e.text];
    if (cps.length === 1) {
      const cp = cps[0].codePointAt(0)!;
      return [[cp, cp]];
    }
  }
  return undefined;
}

/** A one-character expression repeated: its unit, and the counts. */
function run(e: Expr): { unit: Expr; min: number; max: number | null } | undefined {
  if (e.kind === 'repeat' && singleChar(e.body)) return { unit: e.body, min: e.min, max: e.max };
  if (singleChar(e)) return { unit: e, min: 1, max: 1 };
  return undefined;
}

export function simplifyRegex(e: Expr): Expr {
  switch (e.kind) {
    case 'seq': {
      const out: Expr[] = [];
      for (const item of e.items.map(simplifyRegex)) {
        const last = out.length ? run(out[out.length - 1]) : undefined;
        const next = run(item);
        if (last && next && exprKey(last.unit) === exprKey(next.unit)) {
          out[out.length - 1] = repeat(
            last.unit,
            last.min + next.min,
            last.max === null || next.max === null ? null : last.max + next.max,
          );
        } else out.push(item);
      }
      return seqOf(out);
    }
    case 'alt': {
      const seen = new Set<string>();
      const chars: [number, number][] = [];
      const rest: Expr[] = [];
      let charsAt = -1;
      for (const option of e.options.map(simplifyRegex).flatMap((o) => (o.kind === 'alt' ? o.options : [o]))) {
        const key = exprKey(option);
        if (seen.has(key)) continue;
        seen.add(key);
        const ranges = singleChar(option);
        if (ranges) {
          if (charsAt < 0) charsAt = rest.length;
          chars.push(...ranges.map(([lo, hi]) => [lo, hi] as [number, number]));
        } else rest.push(option);
      }
      if (charsAt >= 0) {
        const merged = normalizeRanges(chars);
        rest.splice(
          charsAt,
          0,
          chars.length === 1 ? e.options.map(simplifyRegex).find((o) => singleChar(o))! : charClass(merged),
        );
      }
      // Every shared first character: a regex's alternation is searched with `.*` around it, and each
      // alternative begun would be a parse of its own.
      return factorAlternatives(rest, () => undefined, undefined, 1);
    }
    case 'repeat': {
      const body = simplifyRegex(e.body);
      const inner = body.kind === 'repeat' && singleChar(body.body) ? body : undefined;
      if (inner) {
        // (x{p,q}){r,s} = x{rp,sq} when the counts i·[p,q] for i in [r,s] leave no gap.
        const { min: p, max: q } = inner;
        const { min: r, max: s } = e;
        const gapless = (r >= 1 || p <= 1) && (q === null || Math.max(r, 1) * (q - p) >= p - 1);
        if (gapless) return repeat(inner.body, r * p, s === null || q === null ? null : s * q);
      }
      return repeat(body, e.min, e.max);
    }
    default:
      return e;
  }
}
