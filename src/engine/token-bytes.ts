// The bytes each token stands for, read from the vocabulary as llama.cpp's token_to_piece does, and
// the tokens whose bytes can never occur in UTF-8.
//
// Why our own: node-llama-cpp hands out text only (a JS string per call), so a token that is part
// of a multi-byte character comes back as U+FFFD and its bytes are lost. And llama.cpp's
// detokenize() of a whole output is not the tokens' bytes either: it drops the first token's
// leading space for SentencePiece vocabularies and, for some BPE ones (llama3, gpt-2), removes
// spaces before `?!.,` ("clean_up_tokenization_spaces") — while a grammar matches the pieces
// themselves. Generated output is the concatenation of these bytes, decoded once as UTF-8.
//
// Pure: no Node or node-llama-cpp APIs.

/** The vocabulary families llama.cpp's token_to_piece distinguishes (node-llama-cpp's LlamaVocabularyType values). */
export type VocabularyType = 'spm' | 'bpe' | 'wpm' | 'ugm' | 'rwkv' | 'plamo2' | 'none' | string;

/** The token attributes token_to_piece looks at (node-llama-cpp's TokenAttributes has these getters). */
export interface PieceAttributes {
  control: boolean;
  unknown: boolean;
  userDefined: boolean;
  normal: boolean;
  byte: boolean;
}

const SPACE_MARK = /\u2581/g; // SentencePiece's "▁", a space in the text

/**
 * GPT-2's bytes_to_unicode as a map from code point to byte: printable Latin-1 bytes stand for
 * themselves, the other 68 bytes (C0 controls, space, DEL, C1 controls, NBSP, soft hyphen) for
 * U+0100.. in byte order. Byte-level BPE vocabularies (gpt2 tokenizer model: GPT-2, Llama 3,
 * Qwen2) spell every token in these characters.
 */
export const GPT2_UNICODE_TO_BYTE: ReadonlyMap<number, number> = (() => {
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const map = new Map<number, number>();
  let next = 0x100;
  for (let b = 0; b < 256; b++) map.set(printable(b) ? b : next++, b);
  return map;
})();

/** A byte-level BPE token's bytes, or null when it holds a character outside the map (llama.cpp then writes "[UNK_BYTE_0x…]"). */
export function gpt2TokenBytes(text: string): number[] | null {
  const bytes: number[] = [];
  for (const ch of text) {
    const byte = GPT2_UNICODE_TO_BYTE.get(ch.codePointAt(0)!);
    if (byte === undefined) return null;
    bytes.push(byte);
  }
  return bytes;
}

/** llama_decode_text: GPT-2 characters to bytes; a character outside the map becomes "[UNK_BYTE_0x<its UTF-8 in hex><the token>]", as llama.cpp writes it. */
function gpt2DecodeText(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    const byte = GPT2_UNICODE_TO_BYTE.get(ch.codePointAt(0)!);
    if (byte !== undefined) out.push(byte);
    else {
      const hex = [...utf8.encode(ch)].map((b) => b.toString(16).padStart(2, '0')).join('');
      out.push(...utf8.encode(`[UNK_BYTE_0x${hex}${text}]`));
    }
  }
  return Uint8Array.from(out);
}

/** The byte of a `<0xNN>` byte token. */
export function hexByteToken(text: string): number | null {
  const m = /^<0x([0-9A-Fa-f]{2})>$/.exec(text);
  return m ? parseInt(m[1], 16) : null;
}

/** The text llama.cpp gives a token: its GGUF text, except that an empty one is renamed `[EMPTY_<id>]` when the vocabulary loads. */
export const llamaTokenText = (text: string, id: number) => (text === '' ? `[EMPTY_${id}]` : text);

/** Bytes that never occur in UTF-8: C0 and C1 (overlong leads) and F5-FF (beyond U+10FFFF, or no lead at all). */
export const isNeverUtf8Byte = (byte: number) => byte === 0xc0 || byte === 0xc1 || byte >= 0xf5;

const utf8 = new TextEncoder();

/**
 * The bytes llama.cpp's token_to_piece(token, lstrip 0, special false) writes, or null for a
 * vocabulary type this does not model (the caller then falls back to node-llama-cpp's text).
 * `escapeWhitespace`: a BPE vocabulary that spells spaces as "▁" (llama.cpp's gemma4/sarvam-moe
 * pre-tokenizers) rather than in GPT-2 bytes.
 */
export function pieceBytes(
  type: VocabularyType,
  text: string,
  attrs: PieceAttributes,
  escapeWhitespace = false,
): Uint8Array | null {
  if (type !== 'spm' && type !== 'ugm' && type !== 'wpm' && type !== 'bpe') return null;
  // Control and unknown tokens print nothing when special tokens are not rendered (as today's output).
  if (attrs.control || attrs.unknown) return new Uint8Array(0);
  if (attrs.userDefined) return utf8.encode(text);
  if (attrs.normal) {
    if (type !== 'bpe' || escapeWhitespace) return utf8.encode(text.replace(SPACE_MARK, ' '));
    return gpt2DecodeText(text);
  }
  if (attrs.byte && type !== 'wpm') {
    const byte = hexByteToken(text);
    return byte === null ? null : Uint8Array.of(byte);
  }
  // llama.cpp writes nothing for the other attribute kinds (undefined, unused).
  return new Uint8Array(0);
}

/**
 * Tokens whose bytes include a byte that never occurs in UTF-8, by the vocabulary's tokenizer model
 * (`tokenizer.ggml.model`): SentencePiece (`llama`) byte tokens `<0xNN>`, and byte-level BPE
 * (`gpt2`) tokens spelled in GPT-2's byte map, single bytes and merges alike. `types`
 * (`tokenizer.ggml.token_type`): control (3) and user-defined (4) tokens are literal text, not
 * bytes, and are skipped.
 */
export function invalidUtf8Tokens(
  tokenizerModel: unknown,
  tokens: readonly unknown[],
  types?: readonly unknown[],
): number[] {
  const out: number[] = [];
  tokens.forEach((piece, id) => {
    if (typeof piece !== 'string') return;
    if (tokenizerModel === 'gpt2') {
      const type = types?.[id];
      if (type === 3 || type === 4) return;
      const bytes = gpt2TokenBytes(piece);
      if (bytes?.some(isNeverUtf8Byte)) out.push(id);
    } else {
      // SentencePiece byte tokens (also what other vocabularies with byte fallback use).
      const byte = hexByteToken(piece);
      if (byte !== null && isNeverUtf8Byte(byte)) out.push(id);
    }
  });
  return out;
}
