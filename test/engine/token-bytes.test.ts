// Token bytes and the invalid-byte ban (src/engine/token-bytes.ts) on real vocabularies: llama.cpp's
// qwen2 (byte-level BPE, 151,936 tokens) and phi-3 (SentencePiece, 32,064), and the trained
// stories260K. Every token's bytes are checked against llama.cpp's own text of it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getLlama, readGgufFileInfo, type Llama, type Token } from 'node-llama-cpp';
import {
  GPT2_UNICODE_TO_BYTE,
  gpt2TokenBytes,
  invalidUtf8Tokens,
  isNeverUtf8Byte,
  llamaTokenText,
  pieceBytes,
} from '../../src/engine/token-bytes.js';
import { STORIES_MODEL, llamaVocabFile, realVocabModel } from '../helpers/real-models.js';

interface Vocab {
  model: string;
  tokens: string[];
  token_type: number[];
}

let dir: string;
let llama: Llama;
const vocabs: Record<string, Vocab> = {};

/** tokenizer.ggml.* of one of llama.cpp's vocab-only GGUFs, as node-llama-cpp reads it. */
async function vocabOf(file: string): Promise<Vocab> {
  const path = join(dir, file);
  writeFileSync(path, llamaVocabFile(file));
  const info = await readGgufFileInfo(path, { readTensorInfo: false });
  return (info.metadata as unknown as { tokenizer: { ggml: Vocab } }).tokenizer.ggml;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-token-bytes-'));
  vocabs.qwen2 = await vocabOf('ggml-vocab-qwen2.gguf');
  vocabs.phi3 = await vocabOf('ggml-vocab-phi-3.gguf');
  llama = await getLlama({ gpu: false, logLevel: 'error' as never });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("GPT-2's byte map", () => {
  test('is a bijection of 256 code points onto the bytes; printable Latin-1 stands for itself', () => {
    expect(GPT2_UNICODE_TO_BYTE.size).toBe(256);
    expect(new Set(GPT2_UNICODE_TO_BYTE.values()).size).toBe(256);
    expect(gpt2TokenBytes('Ġhello')).toEqual([0x20, ...Buffer.from('hello')]);
    expect(gpt2TokenBytes('ĊĉĀ')).toEqual([0x0a, 0x09, 0x00]);
    expect(gpt2TokenBytes('Ã©')).toEqual([0xc3, 0xa9]); // "é" as two bytes
    expect(gpt2TokenBytes('À')).toEqual([0xc0]);
    expect(gpt2TokenBytes('日')).toBeNull(); // not a byte-map character
  });

  test('bytes that never occur in UTF-8: C0, C1, F5-FF and no others', () => {
    const never = [...Array(256).keys()].filter(isNeverUtf8Byte);
    expect(never).toEqual([0xc0, 0xc1, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff]);
  });
});

describe('the invalid-byte ban', () => {
  test('qwen2 (gpt2 tokenizer model): exactly the 13 single-byte tokens C0, C1, F5-FF; no merged token holds such a byte', () => {
    const { model, tokens, token_type } = vocabs.qwen2;
    expect(model).toBe('gpt2');
    expect(tokens).toHaveLength(151_936);
    const banned = invalidUtf8Tokens(model, tokens, token_type);
    expect(banned).toEqual([124, 125, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187]);
    expect(banned.map((id) => tokens[id]).join('')).toBe('ÀÁõö÷øùúûüýþÿ');
    expect(banned.map((id) => gpt2TokenBytes(tokens[id]))).toEqual([
      [0xc0],
      [0xc1],
      ...[...Array(11).keys()].map((i) => [0xf5 + i]),
    ]);
  });

  test('phi-3 (SentencePiece): the <0xNN> byte tokens of the same 13 bytes', () => {
    const { model, tokens, token_type } = vocabs.phi3;
    expect(model).toBe('llama');
    const banned = invalidUtf8Tokens(model, tokens, token_type);
    expect(banned.map((id) => tokens[id])).toEqual([
      '<0xC0>',
      '<0xC1>',
      ...['F5', 'F6', 'F7', 'F8', 'F9', 'FA', 'FB', 'FC', 'FD', 'FE', 'FF'].map((h) => `<0x${h}>`),
    ]);
  });

  test('control and user-defined tokens of a byte-level vocabulary are literal text, never banned', () => {
    expect(invalidUtf8Tokens('gpt2', ['À', 'À', 'À', 'ÿ'], [1, 3, 4, 1])).toEqual([0, 3]);
    expect(invalidUtf8Tokens('gpt2', ['a', 'Àb'])).toEqual([1]);
    expect(invalidUtf8Tokens('llama', ['<0xC0>', '<0xC2>', 'À'])).toEqual([0]);
  });
});

describe("each token's bytes are llama.cpp's", () => {
  // llama.cpp's detokenize of [BOS, token]: the BOS prints nothing and takes the leading-space strip
  // that detokenize applies to a first token, so what remains is the token's own piece. qwen2 and
  // phi-3 do not clean spaces, so every token must agree, as UTF-8 text (what is not UTF-8 on
  // its own, like half a character, is U+FFFD on both sides).
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for (const [name, path] of [
    ['qwen2', () => realVocabModel('qwen2')],
    ['phi3', () => realVocabModel('phi3')],
    ['stories260K', async () => STORIES_MODEL],
  ] as const) {
    test(`${name}: every token`, async () => {
      const model = await llama.loadModel({ modelPath: await path(), vocabOnly: true });
      try {
        const tokens = (model.fileInfo.metadata as unknown as { tokenizer: { ggml: Vocab } }).tokenizer.ggml.tokens;
        const bos = model.tokens.bos;
        const differ: string[] = [];
        let partial = 0;
        for (let id = 0; id < tokens.length; id++) {
          const token = id as Token;
          const bytes = pieceBytes(
            model.vocabularyType,
            llamaTokenText(tokens[id], id),
            model.getTokenAttributes(token),
          );
          if (bytes === null) {
            differ.push(`${id} ${JSON.stringify(tokens[id])}: not modelled`);
            continue;
          }
          const ours = decoder.decode(bytes);
          if (ours.includes('\uFFFD')) partial++;
          const theirs = model.detokenize(bos !== null && bos !== token ? [bos, token] : [token]);
          if (ours !== theirs)
            differ.push(`${id} ${JSON.stringify(tokens[id])}: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`);
        }
        expect(differ).toEqual([]);
        // Tokens that are part of a multi-byte character: the reason output is decoded from bytes.
        expect(partial).toBeGreaterThan(100);
      } finally {
        await model.dispose();
      }
    }, 60_000);
  }

  test("a SentencePiece token's leading space is its own: llama.cpp's detokenize drops it only at the start of a text", async () => {
    const model = await llama.loadModel({ modelPath: STORIES_MODEL, vocabOnly: true });
    try {
      const tokens = (model.fileInfo.metadata as unknown as { tokenizer: { ggml: Vocab } }).tokenizer.ggml.tokens;
      const once = tokens.indexOf('▁Once') as Token;
      expect(once).toBeGreaterThan(0);
      expect(new TextDecoder().decode(pieceBytes('spm', tokens[once], model.getTokenAttributes(once))!)).toBe(' Once');
      expect(model.detokenize([once])).toBe('Once');
    } finally {
      await model.dispose();
    }
  });
});
