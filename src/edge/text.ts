// How model text is made storable.
//
// Raw model output is bytes; a random-weight model emits NUL and invalid UTF-8. The policy:
// - bytes are decoded as UTF-8 with invalid sequences replaced by U+FFFD (never an exception);
// - strings are made well-formed (lone UTF-16 surrogates → U+FFFD) before they reach KV or D1;
// - NUL is kept: KV stores it as is, and D1 binds strings with their length, so SQLite TEXT keeps
//   it (test/edge covers the round trip).
// The wllama engine itself can only return valid UTF-8 without NUL (see engine/wllama.ts), but the
// storage path does not rely on that.

import { INPUT_MAX_BYTES } from './config.js';

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export function decodeModelBytes(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

export function storableText(s: string): string {
  const wf = (s as unknown as { toWellFormed?: () => string }).toWellFormed;
  if (wf) return wf.call(s);
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/**
 * Why `s` cannot go to the model or a cache key: a lone UTF-16 surrogate has no UTF-8 form (KV
 * cannot key it, llama.cpp's JSON parser rejects it). Null when well-formed.
 */
export function loneSurrogateProblem(name: string, s: string): string | null {
  const m = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(s);
  if (!m) return null;
  const code = m[0].charCodeAt(0).toString(16).toUpperCase();
  return `${name} must be well-formed Unicode: lone surrogate U+${code} at index ${m.index}`;
}

/**
 * Why `s` cannot be a prompt or embed text before any model sees it: over INPUT_MAX_BYTES, or not
 * well-formed Unicode. Null when it may go on (the model's own token limits are checked there).
 */
export function inputProblem(name: string, s: string): string | null {
  // A UTF-16 code unit is 1 to 3 UTF-8 bytes: encode only when the length leaves it open.
  if (
    s.length > INPUT_MAX_BYTES ||
    (s.length * 3 > INPUT_MAX_BYTES && new TextEncoder().encode(s).length > INPUT_MAX_BYTES)
  ) {
    const bytes = new TextEncoder().encode(s).length;
    return `${name} (${bytes} bytes) is over the limit of ${INPUT_MAX_BYTES} bytes`;
  }
  return loneSurrogateProblem(name, s);
}
