// llama.cpp's grammar decoder of token bytes (decode_utf8 in llama-grammar.cpp), reproduced so that
// our mask allows exactly the tokens llama.cpp's grammar would: a token may end inside a character
// (a partial sequence the next token completes), a continuation byte with nothing to continue
// aborts, and inside one sequence the continuation bytes are not checked (llama.cpp is lenient).
//
// Pure: no Node or node-llama-cpp APIs.

/** A character begun and not finished: its value so far and how many continuation bytes remain (0: none). */
export interface Partial {
  readonly value: number;
  readonly remain: number;
}

export interface Decoded {
  /** Complete code points, in order. */
  codePoints: number[];
  /** The character left unfinished at the end (remain 0: none). */
  value: number;
  remain: number;
  /** The bytes are not UTF-8 llama.cpp can follow: the token is refused. */
  aborted: boolean;
}

const LEAD_LENGTH = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 2, 3, 4];

/** decode_utf8(bytes, partial): the bytes end at the first NUL, as llama.cpp reads a C string. */
export function decodeLlama(bytes: Uint8Array, value = 0, remain = 0): Decoded {
  const codePoints: number[] = [];
  let pos = 0;
  const n = bytes.length;
  const startRemain = remain;
  while (pos < n && bytes[pos] !== 0 && remain > 0) {
    const byte = bytes[pos];
    if (byte >> 6 !== 2) return { codePoints: [], value: 0, remain: -1, aborted: true };
    value = value * 64 + (byte & 0x3f);
    pos++;
    remain--;
  }
  if (startRemain > 0 && remain === 0) codePoints.push(value);
  while (pos < n && bytes[pos] !== 0) {
    const first = bytes[pos];
    remain = LEAD_LENGTH[first >> 4] - 1;
    if (remain < 0) return { codePoints: [], value: 0, remain: -1, aborted: true };
    value = first & ((1 << (7 - remain)) - 1);
    pos++;
    while (pos < n && bytes[pos] !== 0 && remain > 0) {
      value = value * 64 + (bytes[pos] & 0x3f);
      pos++;
      remain--;
    }
    if (remain === 0) codePoints.push(value);
  }
  return { codePoints, value: remain > 0 ? value : 0, remain, aborted: false };
}
