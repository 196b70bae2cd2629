// svc's embedding addon (src/native/embed, embed-native.ts): many texts per call into llama.cpp, a
// decoder's several texts in one llama_decode. Each vector must be the bytes node-llama-cpp's
// embedding context gives for the text alone (the engine without the addon, SVC_EMBED_NATIVE=0),
// on the trained svc-embed (a mean-pooled BERT: one decode per text) and the 512-wide model with
// qwen2's real vocabulary (a decoder, its last token's state: texts packed in one decode).
import { getLlama, type LlamaModel, type Token } from 'node-llama-cpp';
import { Engine } from '../../src/engine/engine.js';
import {
  embedAddon,
  embeddingTokens,
  NativeEmbedModel,
  type NativeEmbedContext,
} from '../../src/engine/embed-native.js';
import { EMBED_MODEL, realVocabModel } from '../helpers/real-models.js';

const TEXTS = [
  ...Array.from(
    { length: 14 },
    (_, i) =>
      `Row ${i}: the child felt ${['happy', 'sad', 'angry', 'scared'][i % 4]} on day ${i * 7}.${' more'.repeat(i % 5)}`,
  ),
  'a', // one token on qwen2: decoded alone (a 1-token batch takes other kernels)
  'Ünïcödé — 日本語のテキスト 🙂',
  '', // no tokens: null
  'The quick brown fox jumps over the lazy dog. '.repeat(12),
];

const bytes = (v: number[] | null) => (v === null ? null : Buffer.from(new Float64Array(v).buffer).toString('hex'));

const addon = embedAddon();
// The addon is optional (scripts/build-embed-addon.sh skips platforms without node-llama-cpp's
// prebuilt CPU binaries); where setup.sh runs on linux-x64 it is built, and these tests must run.
const linuxX64 = process.platform === 'linux' && process.arch === 'x64';
(linuxX64 ? test : test.skip)('the addon is built on linux-x64 (scripts/build-embed-addon.sh)', () => {
  expect(addon).not.toBeNull();
});

describe.each([
  ['svc-embed (BERT, mean pooling)', async () => EMBED_MODEL, false],
  ['qwen2-512 (decoder, last token)', async () => realVocabModel('qwen2-512'), true],
])('%s', (_name, model, packs) => {
  let path: string;
  let reference: Array<string | null>;
  beforeAll(async () => {
    path = await model();
    // node-llama-cpp alone, one text after another.
    process.env.SVC_EMBED_NATIVE = '0';
    const engine = await Engine.load({ model: path, threads: 1, contextSize: 512, embeddingContexts: 1 });
    delete process.env.SVC_EMBED_NATIVE;
    try {
      reference = [];
      for (const text of TEXTS) reference.push(bytes(await engine.embed(text).catch(() => null)));
    } finally {
      await engine.dispose();
    }
  }, 120_000);

  (addon ? test : test.skip)(
    'one call for all texts gives each one the bytes node-llama-cpp gives it alone',
    async () => {
      const engine = await Engine.load({ model: path, threads: 1, contextSize: 512, embeddingContexts: 2 });
      try {
        expect(reference.filter((r) => r === null)).toHaveLength(1);
        expect((await engine.embedEach(TEXTS)).map(bytes)).toEqual(reference);
        // Alone through the addon, and in another order (other neighbours in a decode).
        expect(bytes(await engine.embed(TEXTS[3]))).toBe(reference[3]);
        const order = TEXTS.map((_, i) => (i * 7) % TEXTS.length);
        expect((await engine.embedEach(order.map((i) => TEXTS[i]))).map(bytes)).toEqual(order.map((i) => reference[i]));
        expect(engine.embeddingContextsMade).toBe(2);
      } finally {
        await engine.dispose();
      }
    },
    120_000,
  );

  (addon ? test : test.skip)(
    packs ? 'a decoder packs texts in one llama_decode' : 'an encoder decodes each text alone',
    async () => {
      const llama = await getLlama({ gpu: false, logLevel: 'error' as never });
      const upstream: LlamaModel = await llama.loadModel({ modelPath: path });
      const native = NativeEmbedModel.load(addon!, path);
      let context: NativeEmbedContext | undefined;
      try {
        context = native.createContext({ threads: 1, contextSize: 512, sequences: 4 });
        expect(context.packs).toBe(packs);
        // Eight texts of one length and one longer: where the model packs, two decodes of four
        // (sequences of one length share a decode: batch.cc's execute) and one; else nine.
        const texts = [...Array.from({ length: 8 }, (_, i) => `Row ${i}: the child felt happy.`), TEXTS[4]];
        const lengths = texts.map((t) => embeddingTokens(upstream, t).length);
        expect(new Set(lengths.slice(0, 8)).size).toBe(1);
        expect(lengths[8]).toBeGreaterThan(lengths[0]);
        const vectors = await context.embed(texts.map((t) => embeddingTokens(upstream, t)));
        expect(context.decodes).toBe(packs ? 3 : 9);
        // The raw vectors, before svc normalizes them, as node-llama-cpp's context reads them.
        const upstreamContext = await upstream.createEmbeddingContext({ threads: 1, contextSize: 512 });
        for (const [i, text] of texts.entries())
          expect(Array.from(vectors[i])).toEqual([...(await upstreamContext.getEmbeddingFor(text)).vector]);
        await upstreamContext.dispose();
      } finally {
        await context?.dispose();
        native.dispose();
        await upstream.dispose();
      }
    },
    120_000,
  );
});

(addon ? describe : describe.skip)('the addon refuses what llama.cpp would abort on', () => {
  test('an engine disposed during a call ends the call first, then frees the context and the model', async () => {
    const engine = await Engine.load({ model: EMBED_MODEL, threads: 1, contextSize: 512, embeddingContexts: 1 });
    await engine.embed('warm up'); // the addon's model and context are made
    const texts = Array.from({ length: 200 }, (_, i) => `text number ${i} of a long call`);
    // 200 texts on one context: groups of 8, one call each. The first call is running when the
    // engine goes; it ends (llama.cpp's context freed only then), and the next group is refused.
    const outcome = engine.embedEach(texts).then(
      () => 'all embedded',
      (error: Error) => error.message,
    );
    await engine.dispose();
    expect(await outcome).toBe('the engine is disposed');
  }, 60_000);

  test('tokens outside the vocabulary, empty lists and lists over the context, naming the list', async () => {
    const native = NativeEmbedModel.load(addon!, EMBED_MODEL);
    const context = native.createContext({ threads: 1, contextSize: 64, sequences: 1 });
    const ids = (...t: number[]) => t as Token[];
    try {
      await expect(context.embed([ids(101, 102), ids(101, 1 << 30)])).rejects.toThrow(
        'tokens[1] holds 1073741824, outside the vocabulary',
      );
      await expect(context.embed([ids()])).rejects.toThrow('tokens[0] must hold 1 to 64 tokens, has 0');
      await expect(context.embed([ids(...new Array<number>(65).fill(101))])).rejects.toThrow(
        'tokens[0] must hold 1 to 64 tokens, has 65',
      );
      // And it still embeds after a refusal.
      expect((await context.embed([ids(101, 7592, 102)]))[0]).toHaveLength(128);
    } finally {
      await context.dispose();
      native.dispose();
    }
  }, 60_000);
});
