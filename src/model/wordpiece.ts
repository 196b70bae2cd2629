// BERT's WordPiece tokenization as llama.cpp does it (llm_tokenizer_wpm_session in
// src/llama-vocab.cpp), for the embedder's training (scripts/train-embedder.ts): the corpus must be
// cut into the same tokens the model later reads, or the trained vectors sit on other tokens.
//
// llama.cpp's BERT vocabularies mark a word's first piece with a phantom space ("▁the") and keep
// continuation pieces bare ("ing"), where Hugging Face writes "the" and "##ing". Pure.

const PHANTOM = '\u2581';

/** The words llama.cpp's WordPiece preprocessing makes of `text`: lower-cased, accents stripped, punctuation alone. */
export function wordpieceWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  const flush = () => {
    if (word) words.push(word);
    word = '';
  };
  for (const ch of text.normalize('NFD')) {
    if (/\s/u.test(ch)) {
      flush();
      continue;
    }
    if (ch === '\0' || ch === '\uFFFD' || /\p{Cc}|\p{Cf}/u.test(ch) || /\p{Mn}/u.test(ch)) continue;
    const lower = ch.toLowerCase();
    const code = ch.codePointAt(0)!;
    if (/\p{P}/u.test(ch) || (code < 0x7f && /\p{S}/u.test(ch)) || isChinese(code)) {
      flush();
      words.push(lower);
    } else {
      word += lower;
    }
  }
  flush();
  return words;
}

function isChinese(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x20000 && c <= 0x2a6df) ||
    (c >= 0x2a700 && c <= 0x2b73f) ||
    (c >= 0x2b740 && c <= 0x2b81f) ||
    (c >= 0x2b820 && c <= 0x2ceaf) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0x2f800 && c <= 0x2fa1f)
  );
}

/** A WordPiece tokenizer over llama.cpp's form of a BERT vocabulary (`tokenizer.ggml.tokens`). */
export class WordPiece {
  private readonly ids = new Map<string, number>();
  private readonly maxLength: number;
  private readonly cache = new Map<string, number[]>();

  constructor(
    readonly tokens: readonly string[],
    readonly unknown: number,
  ) {
    tokens.forEach((t, i) => {
      if (!this.ids.has(t)) this.ids.set(t, i);
    });
    this.maxLength = Math.max(...tokens.map((t) => t.length));
  }

  /** The id of a vocabulary entry, or undefined. */
  id(token: string): number | undefined {
    return this.ids.get(token);
  }

  /** The tokens of one preprocessed word: longest match first; a word that does not split fully is [UNK]. */
  word(word: string): number[] {
    let out = this.cache.get(word);
    if (out) return out;
    out = [];
    const w = PHANTOM + word;
    for (let i = 0; i < w.length;) {
      let j = Math.min(w.length, i + this.maxLength);
      for (; j > i; j--) {
        const id = this.ids.get(w.slice(i, j));
        if (id !== undefined) {
          out.push(id);
          break;
        }
      }
      if (j === i) {
        out = [this.unknown];
        break;
      }
      i = j;
    }
    if (this.cache.size < 1 << 20) this.cache.set(word, out);
    return out;
  }

  /** The tokens of `text`, without [CLS] and [SEP]. */
  encode(text: string): number[] {
    return wordpieceWords(text).flatMap((w) => this.word(w));
  }
}
