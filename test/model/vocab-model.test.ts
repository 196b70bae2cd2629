// The GGUF reader/writer and the real-vocabulary synthesizer: metadata copied with its exact types,
// the same bytes every time, cached once, and real tokenizers that llama.cpp loads.
import { readFileSync, statSync } from 'node:fs';
import { getLlama, type Llama } from 'node-llama-cpp';
import { GGML_F32, readGguf, readGgufMeta } from '../../src/model/gguf.js';
import { makeTestModel, testModelVocab } from '../../src/model/test-model.js';
import { makeVocabModel, tokenizerMeta } from '../../src/model/vocab-model.js';
import { llamaVocabFile, realVocabModel } from '../helpers/real-models.js';

test('readGguf reads back what writeGguf wrote: metadata with its types, f32 tensors', () => {
  const { meta, tensors } = readGguf(makeTestModel());
  expect(meta.find(([k]) => k === 'general.architecture')).toEqual(['general.architecture', 'str', 'llama']);
  expect(meta.find(([k]) => k === 'tokenizer.ggml.tokens')).toEqual([
    'tokenizer.ggml.tokens',
    'strs',
    testModelVocab().tokens,
  ]);
  expect(meta.find(([k]) => k === 'tokenizer.ggml.add_bos_token')).toEqual([
    'tokenizer.ggml.add_bos_token',
    'bool',
    true,
  ]);
  const norm = tensors.find((t) => t.name === 'output_norm.weight')!;
  expect(norm).toMatchObject({ dims: [64], type: GGML_F32 });
  expect([...norm.data!]).toEqual(new Array(64).fill(1));
});

test('a real vocabulary is copied key by key, with its value types, into the same bytes every time', () => {
  const vocab = readGgufMeta(llamaVocabFile('ggml-vocab-phi-3.gguf'));
  const tokenizer = tokenizerMeta(vocab);
  expect(tokenizer.map(([k]) => k)).toEqual(
    expect.arrayContaining([
      'tokenizer.ggml.model',
      'tokenizer.ggml.tokens',
      'tokenizer.ggml.scores',
      'tokenizer.ggml.token_type',
      'tokenizer.chat_template',
    ]),
  );
  const a = makeVocabModel(tokenizer, { arch: 'llama', dtype: 'f32' });
  expect(Buffer.from(makeVocabModel(tokenizer, { arch: 'llama', dtype: 'f32' })).equals(Buffer.from(a))).toBe(true);
  const written = readGgufMeta(a);
  expect(tokenizerMeta(written)).toEqual(tokenizer);
  expect(written.find(([k]) => k === 'llama.vocab_size')?.[2]).toBe(32064);
  // phi-3's token 30143 is U+FEFF alone: a decoder that drops a leading BOM would read it as ''.
  const tokens = tokenizer.find(([k]) => k === 'tokenizer.ggml.tokens')![2] as string[];
  expect(tokens[30143]).toBe('\uFEFF');
  expect(tokens).not.toContain('');
});

describe('the qwen2-vocabulary model', () => {
  let llama: Llama;
  let path: string;
  beforeAll(async () => {
    path = await realVocabModel('qwen2');
    llama = await getLlama({ gpu: false, logLevel: 'error' as never });
  }, 60_000);
  afterAll(async () => {
    await llama?.dispose();
  });

  test('is made once: a second call returns the same file, untouched', async () => {
    const before = statSync(path).mtimeMs;
    expect(await realVocabModel('qwen2')).toBe(path);
    expect(statSync(path).mtimeMs).toBe(before);
  });

  test('llama.cpp loads it: byte-level BPE, multi-character tokens, pieces that are partial UTF-8, ChatML template', async () => {
    const model = await llama.loadModel({ modelPath: path });
    try {
      const meta = readGgufMeta(readFileSync(path));
      expect(meta.find(([k]) => k === 'general.architecture')?.[2]).toBe('qwen2');
      expect(model.fileInfo.metadata.tokenizer.ggml.model).toBe('gpt2');
      expect(String(model.fileInfo.metadata.tokenizer.chat_template)).toContain('<|im_start|>');
      const text = 'Hello world, café 日本語 🎉';
      const tokens = model.tokenize(text);
      expect(tokens.length).toBeLessThan([...text].length); // multi-character tokens
      expect(model.detokenize(tokens)).toBe(text);
      // A common emoji is one token; a rarer one's four bytes are spread over tokens that alone are
      // not whole characters.
      expect(model.tokenize('🎉')).toHaveLength(1);
      const emoji = model.tokenize('🦩');
      expect(emoji.length).toBeGreaterThan(1);
      expect(emoji.some((t) => model.detokenize([t]).includes('\uFFFD'))).toBe(true);
    } finally {
      await model.dispose();
    }
  });
});
