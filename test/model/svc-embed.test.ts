// svc's offline default embedder, models/svc-embed.gguf (scripts/train-embedder.ts): what llama.cpp
// makes of it is the weighted mean of its tokens' word vectors, computed here from the file's own
// weights; it means something (the demo's stories, rerank); and the committed file is what the
// script writes (the recipe's sources hash on every run; the whole training with SVC_TRAIN_EMBEDDER=1).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { getLlama, type Llama, type LlamaModel } from 'node-llama-cpp';
import { configure, embed, rerank, unloadModels } from '../../src/client/index.js';
import { readGguf, type GgufMeta } from '../../src/model/gguf.js';
import { EMBED_MODEL } from '../helpers/real-models.js';
import { embedderSourcesHash, trainEmbedder } from '../../scripts/train-embedder.js';

const metaValue = (meta: GgufMeta[], key: string) => meta.find(([k]) => k === key)?.[2];
const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

let llama: Llama;
let model: LlamaModel;
let meta: GgufMeta[];
let tokenEmbd: Float32Array;
let gain: Float32Array;
let width: number;
beforeAll(async () => {
  configure({ threads: 1 });
  llama = await getLlama({ gpu: false, logLevel: 'error' as never });
  model = await llama.loadModel({ modelPath: EMBED_MODEL });
  const file = readGguf(readFileSync(EMBED_MODEL));
  meta = file.meta;
  tokenEmbd = file.tensors.find((t) => t.name === 'token_embd.weight')!.data!;
  gain = file.tensors.find((t) => t.name === 'blk.0.layer_output_norm.weight')!.data!;
  width = Number(metaValue(meta, 'bert.embedding_length'));
}, 60_000);
afterAll(async () => {
  await unloadModels();
  await model?.dispose();
  await llama?.dispose();
});

/** normalize(mean over [CLS] tokens [SEP] of LayerNorm(token embedding) × the last gain), from the file's weights. */
function expectedVector(text: string): number[] {
  const tokens = [Number(model.tokens.bos), ...model.tokenize(text).map(Number), Number(model.tokens.sep)];
  const sum = new Float64Array(width);
  for (const t of tokens) {
    const e = tokenEmbd.subarray(t * width, (t + 1) * width);
    const mean = e.reduce((a, b) => a + b, 0) / width;
    const sd = Math.sqrt(e.reduce((a, b) => a + (b - mean) ** 2, 0) / width);
    e.forEach((x, i) => (sum[i] += ((x - mean) / sd) * gain[i]));
  }
  const norm = Math.hypot(...sum);
  return Array.from(sum, (x) => x / norm);
}

test('a mean-pooled BERT of 128 dimensions with bge’s WordPiece vocabulary, a few MB', () => {
  expect(metaValue(meta, 'general.architecture')).toBe('bert');
  expect(metaValue(meta, 'bert.pooling_type')).toBe(1);
  expect(metaValue(meta, 'bert.block_count')).toBe(1);
  expect(width).toBe(128);
  expect(metaValue(meta, 'tokenizer.ggml.model')).toBe('bert');
  expect((metaValue(meta, 'tokenizer.ggml.tokens') as string[]).length).toBe(30522);
  expect(readFileSync(EMBED_MODEL).length).toBeLessThan(10_000_000);
});

test("llama.cpp's embedding is the weighted mean of the tokens' vectors, as the file's weights say", async () => {
  for (const text of ['Tom had a red ball.', 'The physician advised rest and fluids', 'naïve café, 日本語']) {
    const vector = await embed(text, { model: EMBED_MODEL });
    const expected = expectedVector(text);
    expect(vector).toHaveLength(128);
    expect(cosine(vector, expected)).toBeGreaterThan(0.9999);
    for (let i = 0; i < 128; i++) expect(Math.abs(vector[i] - expected[i])).toBeLessThan(1e-3);
  }
  // Frequent words weigh little: "the" adds almost nothing to a text's vector.
  expect(
    cosine(await embed('the ball', { model: EMBED_MODEL }), await embed('ball', { model: EMBED_MODEL })),
  ).toBeGreaterThan(0.98);
});

test('it means something: paraphrases are near, unrelated texts far; the demo’s "A red ball" finds the ball story', async () => {
  const e = (text: string) => embed(text, { model: EMBED_MODEL });
  const query = await e('A red ball');
  const stories = [
    'The cat: Once upon a time there was a cat. The cat liked to sleep in the sun.',
    'The ball: Tom had a red ball. He gave it to his friend Sue and they played all day.',
    'The fish: A big fish swam in the blue sea. It was looking for food.',
  ];
  const scores = await Promise.all(stories.map(async (s) => cosine(query, await e(s))));
  expect(scores.indexOf(Math.max(...scores))).toBe(1);
  // No word in common, near; words in common with another meaning, farther.
  const near = cosine(await e('the physician advised rest'), await e('the doctor told him to stay in bed'));
  const far = cosine(await e('the physician advised rest'), await e('the stock market fell sharply'));
  expect(near).toBeGreaterThan(far + 0.2);
});

test('rerank orders by meaning: "a cake" puts the cake first, with and without the default task', async () => {
  const docs = ['Tom read a book', 'The cake was sweet', 'The dog ran in the park'];
  for (const options of [{ task: '' }, {}]) {
    const ranked = await rerank('a cake', docs, { model: EMBED_MODEL, ...options });
    expect(ranked[0].document).toBe('The cake was sweet');
  }
  const ranked = await rerank(
    'a dog in the park',
    ['Max the dog ran in the park', 'The cake was sweet', 'Tom read a book'],
    { model: EMBED_MODEL },
  );
  expect(ranked[0].index).toBe(0);
});

test('the committed model was written by the sources as they are (the recipe hash it records)', () => {
  expect(metaValue(meta, 'svc.embedder.sources')).toBe(embedderSourcesHash());
});

// The whole training: minutes on 2 cores, so only on request (SVC_TRAIN_EMBEDDER=1).
(process.env.SVC_TRAIN_EMBEDDER === '1' ? test : test.skip)(
  'training again writes the committed bytes',
  () => {
    const bytes = trainEmbedder();
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(
      createHash('sha256').update(readFileSync(EMBED_MODEL)).digest('hex'),
    );
  },
  900_000,
);
