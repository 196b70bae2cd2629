// A vocabulary as grammars see it, computed once per model: every token's bytes decoded as
// llama.cpp's grammar decodes them (utf8.ts), which tokens can ever be allowed, and their code
// points for the token trie (trie.ts). Pure: no Node or node-llama-cpp APIs.

import { VocabularyTrie } from './trie.js';
import { decodeLlama } from './utf8.js';

/** The vocabulary as the masker needs it: each token's bytes as the engine outputs them, and the end-of-generation tokens. */
export interface VocabularyInput {
  readonly size: number;
  bytes(token: number): Uint8Array;
  isEog(token: number): boolean;
}

const isNeverUtf8Byte = (byte: number) => byte === 0xc0 || byte === 0xc1 || byte >= 0xf5;

/** Grammar-independent facts about a vocabulary, computed once per model. */
export class DecodedVocabulary {
  readonly size: number;
  readonly bytes: Uint8Array[];
  readonly eog: Uint8Array;
  /** The end-of-generation tokens, listed. */
  readonly eogTokens: Int32Array;
  /** Tokens that can start a character sequence (decode from no partial without aborting), not EOG. */
  readonly startable: Int32Array;
  /** Per token: its complete code points (offset/length into codePoints) and the partial at its end. */
  readonly cpStart: Int32Array;
  readonly cpLength: Int32Array;
  readonly codePoints: Int32Array;
  readonly tailValue: Int32Array;
  readonly tailRemain: Int8Array;
  /** Tokens whose first byte is a continuation byte: the only ones that can finish a pending character. */
  readonly continuing: Int32Array;
  /** Bytes (as a latin1 string) to a token, for spelling a completion; tokens of at most MAX_SPELL_BYTES. */
  readonly spelling = new Map<string, number>();
  readonly maxSpell: number;
  /** The most bytes of a token a grammar can allow, so the most characters one token writes. */
  readonly maxBytes: number;
  private builtTrie?: VocabularyTrie;

  /** The tokens in a trie over their code points, shared by the maskers of every grammar (built on first use; an engine builds it at load). */
  get trie(): VocabularyTrie {
    return (this.builtTrie ??= new VocabularyTrie(this));
  }

  constructor(input: VocabularyInput) {
    this.size = input.size;
    this.bytes = [];
    this.eog = new Uint8Array(input.size);
    const startable: number[] = [];
    const continuing: number[] = [];
    const cps: number[] = [];
    this.cpStart = new Int32Array(input.size);
    this.cpLength = new Int32Array(input.size);
    this.tailValue = new Int32Array(input.size);
    this.tailRemain = new Int8Array(input.size);
    let maxSpell = 0;
    let maxBytes = 0;
    for (let t = 0; t < input.size; t++) {
      const bytes = input.bytes(t);
      this.bytes.push(bytes);
      if (input.isEog(t)) {
        this.eog[t] = 1;
        continue;
      }
      if (!usable(bytes)) continue;
      maxBytes = Math.max(maxBytes, bytes.length);
      if (bytes.length <= MAX_SPELL_BYTES) {
        const key = latin1(bytes);
        // The lowest id for the same bytes (deterministic).
        if (!this.spelling.has(key)) this.spelling.set(key, t);
        maxSpell = Math.max(maxSpell, bytes.length);
      }
      if (bytes[0] >> 6 === 2) continuing.push(t);
      const decoded = decodeLlama(bytes);
      if (decoded.aborted || decoded.codePoints.includes(0)) continue;
      this.cpStart[t] = cps.length;
      this.cpLength[t] = decoded.codePoints.length;
      for (const cp of decoded.codePoints) cps.push(cp);
      this.tailValue[t] = decoded.value;
      this.tailRemain[t] = decoded.remain;
      startable.push(t);
    }
    this.startable = Int32Array.from(startable);
    this.eogTokens = Int32Array.from(this.eog.keys()).filter((t) => this.eog[t] === 1);
    this.continuing = Int32Array.from(continuing);
    this.codePoints = Int32Array.from(cps);
    this.maxSpell = maxSpell;
    this.maxBytes = maxBytes;
  }
}

const MAX_SPELL_BYTES = 48;

/** Bytes a grammar can ever accept as a token: not empty, no NUL first (llama.cpp refuses those), no byte that never occurs in UTF-8. */
export function usable(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || bytes[0] === 0) return false;
  for (const b of bytes) if (isNeverUtf8Byte(b)) return false;
  return true;
}

/** Bytes as a string of code points 0-255 (in chunks: a spread of a long completion's bytes would overflow the call stack). */
export function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
}
