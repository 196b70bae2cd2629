// A loaded model's tokens as bytes (token-bytes.ts read through node-llama-cpp): what a generation's
// output is made of, what the grammar maskers match, and which tokens a grammar bans. Kept apart from
// the engine so that generation, the maskers and the stream all read one cache of each token's bytes.
import { TokenBias, type LlamaModel, type Token } from 'node-llama-cpp';
import { invalidUtf8Tokens, llamaTokenText, pieceBytes } from './token-bytes.js';
import { DecodedVocabulary } from '../decode/vocabulary.js';

export const UTF8_ENCODER = new TextEncoder();
// ignoreBOM: a U+FEFF the model writes is part of the output (TextDecoder would drop a leading one).
export const UTF8_DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

export class TokenText {
  /** Tokens banned under a grammar: their bytes never occur in UTF-8 (SentencePiece `<0xNN>` and byte-level BPE tokens alike; token-bytes.ts). */
  readonly invalidByteTokens: readonly Token[];
  /** Built on first use: the ban of invalidByteTokens under a grammar. */
  private invalidByteBias?: TokenBias;
  /** Each token's bytes, computed on first use; absent where the vocabulary type is not modelled (then node-llama-cpp's text is used). */
  private readonly pieces?: Array<Uint8Array | undefined>;
  private readonly tokenTexts?: readonly unknown[];
  /** Grammar-independent token facts for the maskers, computed on first use. */
  private decodedVocabulary?: DecodedVocabulary;

  constructor(private readonly model: LlamaModel) {
    const tokenizer = (
      model.fileInfo.metadata as { tokenizer?: { ggml?: { model?: unknown; tokens?: unknown; token_type?: unknown } } }
    ).tokenizer?.ggml;
    const tokens = Array.isArray(tokenizer?.tokens) ? (tokenizer.tokens as unknown[]) : undefined;
    const types = Array.isArray(tokenizer?.token_type) ? (tokenizer.token_type as unknown[]) : undefined;
    this.invalidByteTokens = tokens ? (invalidUtf8Tokens(tokenizer?.model, tokens, types) as Token[]) : [];
    if (tokens && ['spm', 'ugm', 'wpm', 'bpe'].includes(model.vocabularyType)) {
      this.tokenTexts = tokens;
      this.pieces = new Array(tokens.length);
    }
  }

  /** Grammar-independent token facts for the maskers (computed once); undefined where the vocabulary's bytes are not modelled. */
  vocabulary(): DecodedVocabulary | undefined {
    if (!this.pieces || !this.tokenTexts) return undefined;
    return (this.decodedVocabulary ??= new DecodedVocabulary({
      size: this.tokenTexts.length,
      bytes: (token) => this.piece(token as Token),
      isEog: (token) => this.model.isEogToken(token as Token),
    }));
  }

  /** A token's bytes as token_to_piece writes them (computed once per token). */
  private piece(token: Token): Uint8Array {
    let piece = this.pieces![token];
    if (piece === undefined) {
      const text = this.tokenTexts![token];
      const bytes =
        typeof text === 'string'
          ? pieceBytes(
              this.model.vocabularyType,
              llamaTokenText(text, token),
              this.model.getTokenAttributes(token),
              this.escapesWhitespace,
            )
          : null;
      // A token this does not model (a byte token not spelled <0xNN>): node-llama-cpp's text of it.
      piece = bytes ?? UTF8_ENCODER.encode(this.model.detokenize([token]));
      this.pieces![token] = piece;
    }
    return piece;
  }

  /** A token's bytes: as token_to_piece writes them where the vocabulary is modelled, else node-llama-cpp's text of it. */
  bytes(token: Token): Uint8Array {
    return this.pieces && this.tokenTexts ? this.piece(token) : UTF8_ENCODER.encode(this.model.detokenize([token]));
  }

  /** The text of generated tokens: their bytes, concatenated, decoded as UTF-8 once (what is not UTF-8 becomes U+FFFD). */
  decode(tokens: readonly Token[]): string {
    if (!this.pieces || !this.tokenTexts) return this.model.detokenize(tokens);
    const parts: Uint8Array[] = [];
    let length = 0;
    for (const token of tokens) {
      const piece = this.piece(token);
      parts.push(piece);
      length += piece.length;
    }
    const bytes = new Uint8Array(length);
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    return UTF8_DECODER.decode(bytes);
  }

  /** A BPE vocabulary that spells spaces "▁" as SentencePiece does (llama.cpp's gemma4, granite-embed-multi and sarvam-moe pre-tokenizers). */
  private get escapesWhitespace(): boolean {
    const pre = (this.model.fileInfo.metadata as { tokenizer?: { ggml?: { pre?: unknown } } }).tokenizer?.ggml?.pre;
    return pre === 'gemma4' || pre === 'granite-embed-multi-311m' || pre === 'sarvam-moe';
  }

  /**
   * Bytes that can never occur in UTF-8 are banned under a grammar: llama.cpp's grammar decoder
   * reads them as (invalid) code points, so a negated character class would otherwise let the model
   * spell out text that is not UTF-8.
   */
  invalidByteBan(): TokenBias | undefined {
    if (this.invalidByteTokens.length === 0) return undefined;
    if (!this.invalidByteBias) {
      this.invalidByteBias = new TokenBias(this.model.tokenizer);
      for (const token of this.invalidByteTokens) this.invalidByteBias.set(token, 'never');
    }
    return this.invalidByteBias;
  }
}
