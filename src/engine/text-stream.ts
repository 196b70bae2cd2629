// Streaming a generation's text as its tokens come: each token's bytes go through one streaming
// UTF-8 decoder, so text is handed on only at whole characters (a character split across tokens
// waits for its last byte), and the pieces handed on, joined, are exactly the final text: the
// engine's output is the same bytes decoded once (token-text.ts decode), and WHATWG's streaming decode
// of a byte sequence in parts equals its decode in one go, U+FFFD for bytes that are not UTF-8
// included (test/engine/stream.test.ts checks it on byte-level BPE and SentencePiece vocabularies).

/** Receives each piece of text (never empty) and the tokens generated so far. */
export type OnText = (text: string, tokens: number) => void;

export class TextStream {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private tokens = 0;

  /**
   * `bytes`: a token's bytes, or null where the vocabulary's bytes are not modelled (token-bytes.ts):
   * then nothing is streamed before the end, which hands on the whole text at once.
   */
  constructor(
    private readonly onText: OnText,
    private readonly bytes: ((token: number) => Uint8Array) | null,
  ) {}

  push(tokens: readonly number[]): void {
    this.tokens += tokens.length;
    if (!this.bytes) return;
    let text = '';
    for (const token of tokens) text += this.decoder.decode(this.bytes(token), { stream: true });
    if (text !== '') this.onText(text, this.tokens);
  }

  /**
   * `tokens` more generated, and the output's next `bytes` (which need not be theirs: a stop string's
   * scanner hands on what it no longer holds back, src/decode/stop.ts).
   */
  pushBytes(tokens: number, bytes: Uint8Array): void {
    this.tokens += tokens;
    if (!this.bytes || bytes.length === 0) return;
    const text = this.decoder.decode(bytes, { stream: true });
    if (text !== '') this.onText(text, this.tokens);
  }

  /** The end of the output: what the decoder still holds (a cut character becomes U+FFFD), or the whole text where nothing was streamed. */
  end(finalText: string): void {
    const rest = this.bytes ? this.decoder.decode() : finalText;
    if (rest !== '') this.onText(rest, this.tokens);
  }
}
