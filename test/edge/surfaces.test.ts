// The edge answers as the library and the worker do (#45): one context rule (an output that reaches
// the end of the context stops there, the same bytes; a prompt or a text over it refused in the same
// words) and one embedding per (model, text): the edge pools as the GGUF says, as node-llama-cpp
// does (a decoder: its last token's vector; a BERT embedder: its [CLS] vector), not by its own mean.
import { readFileSync } from 'node:fs';
import { Engine } from '../../src/engine/engine.js';
import { ContextExceededError } from '../../src/engine/outcomes.js';
import { edgePooling } from '../../src/edge/engine/pooling.js';
import { STORIES_MODEL, bertEmbeddingModel } from '../helpers/real-models.js';
import { MODEL_VERSION, seedModel, startWorker, type Worker } from './helpers.js';

let w: Worker;
let stories: Engine;

beforeAll(async () => {
  [w, stories] = await Promise.all([startWorker(), Engine.load({ model: STORIES_MODEL, threads: 1, sequences: 1 })]);
}, 120_000);
afterAll(async () => {
  await w?.mf.dispose();
  await stories?.dispose();
});

const refusal = (error: unknown) => {
  expect(error).toBeInstanceOf(ContextExceededError);
  return (error as Error).message;
};

async function post(
  worker: Worker,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await worker.post(path, body);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test("the edge's context is the engine's: an output reaching its end stops there with the same bytes; a longer prompt is refused in the same words", async () => {
  expect(stories.contextSize).toBe(512);
  const prompt = 'hello world '.repeat(40); // 242 tokens: 270 left of 512
  const engine = await stories.generate({ prompt, maxTokens: 512, seed: 42 });
  expect(engine).toMatchObject({ tokens: 270, stopReason: 'context' }); // cut where the context is full, before maxTokens
  const edge = await post(w, '/generate', { prompt, max_tokens: 512 });
  expect(edge.status).toBe(200);
  expect(edge.body.text).toBe(engine.text);
  // Streamed: the same text, and the stop reason the engine gives: context, unless max_tokens was the room left exactly.
  const done = async (maxTokens: number) => {
    const streamed = await (await w.post('/generate', { prompt, max_tokens: maxTokens, stream: true })).text(); // not the cached max_tokens 512
    return JSON.parse(/event: done\ndata: (.*)\n/.exec(streamed)![1]) as Record<string, unknown>;
  };
  expect(await done(400)).toMatchObject({ text: engine.text, tokens: 270, stop_reason: 'context' });
  expect(await stories.generate({ prompt, maxTokens: 270, seed: 42 })).toMatchObject({
    text: engine.text,
    stopReason: 'maxTokens',
  });
  expect(await done(270)).toMatchObject({ text: engine.text, tokens: 270, stop_reason: 'max_tokens' });
  const long = 'hello world '.repeat(100);
  const words = refusal(await stories.generate({ prompt: long, maxTokens: 5, seed: 42 }).catch((e: unknown) => e));
  expect(await post(w, '/generate', { prompt: long, max_tokens: 5 })).toEqual({ status: 400, body: { error: words } });
});

test("a prompt is fed to the model as the library feeds it: a SentencePiece model's prompt has no space prefix (#53)", async () => {
  // llama.cpp's server tokenized 'The dog' as BOS ▁The ▁dog, the library as BOS T he ▁dog: the outputs
  // parted at the first token. A prompt that starts with a newline keeps the prefix in the library.
  for (const prompt of ['The dog', 'Lily and Tom', '\nafter a newline', ' a leading space']) {
    const engine = await stories.generate({ prompt, maxTokens: 48, seed: 42, promptFormat: 'raw' });
    expect([prompt, (await post(w, '/generate', { prompt, max_tokens: 48 })).body.text]).toEqual([prompt, engine.text]);
  }
});

test('one embedding per (model, text): the edge and the engine give the same vector for a decoder (its last token)', async () => {
  const engine = await stories.embed('Once upon a time, there was a cat.');
  const edge = (await post(w, '/embed', { text: 'Once upon a time, there was a cat.' })).body.embedding as number[];
  expect(edge).toHaveLength(engine.length);
  const cosine = edge.reduce((s, x, i) => s + x * engine[i], 0);
  expect(cosine).toBeGreaterThan(0.99999);
  for (const [i, x] of edge.entries()) expect(Math.abs(x - engine[i])).toBeLessThan(1e-4);
  const long = 'hello world '.repeat(100);
  const words = refusal(await stories.embed(long).catch((e: unknown) => e));
  expect(await post(w, '/embed', { text: long })).toEqual({ status: 400, body: { error: words } });
});

test("a BERT embedder pooled by [CLS]: the edge uses the GGUF's pooling and gives the engine's vector", async () => {
  const path = await bertEmbeddingModel('cls');
  const bytes = new Uint8Array(readFileSync(path));
  expect(edgePooling(bytes)).toBe('cls');
  expect(edgePooling(new Uint8Array(readFileSync(STORIES_MODEL)))).toBe('last');
  const bert = await startWorker({ seedModel: false });
  const engine = await Engine.load({ model: path, threads: 1, sequences: 1 });
  try {
    await seedModel(bert.kv, bert.r2, MODEL_VERSION, bytes);
    for (const text of ['a cat sat on the mat', 'Stocks fell sharply today.']) {
      const expected = await engine.embed(text);
      const edge = (await post(bert, '/embed', { text })).body.embedding as number[];
      expect(edge.reduce((s, x, i) => s + x * expected[i], 0)).toBeGreaterThan(0.99999);
    }
  } finally {
    await bert.mf.dispose();
    await engine.dispose();
  }
}, 120_000);
