// The edge serves a generator and an embedder side by side, as the worker does (#53): /generate runs
// GENERATE_MODEL, /embed EMBED_MODEL, each in an engine object of its own, named as everywhere else
// (stories260K, svc-embed, a name `svc models pull` knows). A request its model cannot serve is a 400
// naming the model and what it cannot do, never llama.cpp's 500.
import { readFileSync } from 'node:fs';
import { Engine } from '../../src/engine/engine.js';
import { EMBED_MODEL, STORIES_MODEL, bertEmbeddingModel } from '../helpers/real-models.js';
import { MODEL_VERSION, eventually, seedModel, startWorker, type Worker } from './helpers.js';

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

async function post(
  w: Worker,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await w.post(path, body);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('a generator and an embedder side by side (wrangler.jsonc: stories260K and svc-embed)', () => {
  let w: Worker;
  let stories: Engine;
  let embedder: Engine;
  beforeAll(async () => {
    [w, stories, embedder] = await Promise.all([
      startWorker({ vars: { EMBED_MODEL: 'svc-embed' } }),
      Engine.load({ model: STORIES_MODEL, threads: 1, sequences: 1 }),
      Engine.load({ model: EMBED_MODEL, threads: 1, sequences: 1 }),
    ]);
    await seedModel(w.kv, w.r2, MODEL_VERSION, new Uint8Array(readFileSync(EMBED_MODEL)), 'svc-embed');
  }, 120_000);
  afterAll(async () => {
    await w?.mf.dispose();
    await stories?.dispose();
    await embedder?.dispose();
  });

  test("/generate is the generator's bytes and /embed the embedder's vector, each from its own engine object", async () => {
    const [generated, embedded] = await Promise.all([
      post(w, '/generate', { prompt: 'Once upon a time', max_tokens: 40 }),
      post(w, '/embed', { text: 'A kitten napping in warm sunshine' }),
    ]);
    expect(generated).toEqual({
      status: 200,
      body: {
        text: (await stories.generate({ prompt: 'Once upon a time', maxTokens: 40, seed: 42 })).text,
        cached: false,
      },
    });
    const vector = embedded.body.embedding as number[];
    expect(vector).toHaveLength(embedder.dimension); // svc-embed's 128, not stories260K's 64
    expect(cosine(vector, await embedder.embed('A kitten napping in warm sunshine'))).toBeGreaterThan(0.99999);
    const stats = async (name: string) =>
      (await (await (await w.engine(name)).fetch('http://engine/stats')).json()) as Record<string, unknown>;
    expect(await stats('stories260K')).toMatchObject({
      generations: 1,
      embeddings: 0,
      model: { name: 'stories260K', serves: ['generate', 'embed', 'rerank'] },
    });
    expect(await stats('svc-embed')).toMatchObject({
      generations: 0,
      embeddings: 1,
      model: { name: 'svc-embed', serves: ['embed', 'rerank'] },
    });
  });

  test("each model's answers are cached under its own tag", async () => {
    await post(w, '/embed', { text: 'cached under svc-embed' });
    const { createHash } = await import('node:crypto');
    const key = `emb:${createHash('sha256')
      .update(`${await w.tag(MODEL_VERSION, 'svc-embed')}/cached under svc-embed`)
      .digest('hex')}`;
    await eventually(() => w.kv.get(key)); // written after the answer (waitUntil)
    expect(await w.tag(MODEL_VERSION, 'svc-embed')).toMatch(/^svc-embed-1@[0-9a-f]+:wllama-/);
  });
});

test('a generation on an embedding model is a 400 naming the model and the capability; /embed still answers; nothing cached', async () => {
  const w = await startWorker({ seedModel: false, vars: { GENERATE_MODEL: 'svc-embed' } });
  try {
    await seedModel(w.kv, w.r2, MODEL_VERSION, new Uint8Array(readFileSync(EMBED_MODEL)), 'svc-embed');
    const error =
      'the model svc-embed cannot generate: the model is an embedding model (architecture bert, pooling mean): it embeds and ranks, it does not ' +
      'generate text; use a text-generation (decoder) model for generation (GENERATE_MODEL names the model of /generate)';
    expect(await post(w, '/generate', { prompt: 'Once upon a time', max_tokens: 8 })).toEqual({
      status: 400,
      body: { error },
    });
    // Streamed and constrained: the same 400, before any event.
    const streamed = await w.post('/generate', { prompt: 'Once upon a time', stream: true });
    expect([streamed.status, streamed.headers.get('content-type'), await streamed.json()]).toEqual([
      400,
      'application/json',
      { error },
    ]);
    expect(await post(w, '/generate', { prompt: 'Pick', choices: ['a', 'b'] })).toEqual({
      status: 400,
      body: { error },
    });
    expect((await post(w, '/embed', { text: 'still embeds' })).body.embedding).toHaveLength(128);
    await new Promise((r) => setTimeout(r, 300)); // a cache write would have landed by now
    expect(((await w.db.prepare('SELECT COUNT(*) AS n FROM generation_cache').first()) as { n: number }).n).toBe(0);
  } finally {
    await w.mf.dispose();
  }
});

test('models are named as `svc models pull` names them: EMBED_MODEL=bge-small-en serves the file uploaded under that name', async () => {
  // A BERT embedder pooled by [CLS], as bge-small-en is (the hub is not reachable here).
  const path = await bertEmbeddingModel('cls');
  const w = await startWorker({ vars: { EMBED_MODEL: 'bge-small-en' } });
  const engine = await Engine.load({ model: path, threads: 1, sequences: 1 });
  try {
    expect(await post(w, '/embed', { text: 'no file yet' })).toEqual({
      status: 500,
      body: { error: 'Model version not found in KV: model_version:bge-small-en' },
    });
    await seedModel(w.kv, w.r2, MODEL_VERSION, new Uint8Array(readFileSync(path)), 'bge-small-en');
    const vector = (await post(w, '/embed', { text: 'a cat sat on the mat' })).body.embedding as number[];
    expect(cosine(vector, await engine.embed('a cat sat on the mat'))).toBeGreaterThan(0.99999);
    expect((await post(w, '/generate', { prompt: 'Once upon a time', max_tokens: 4 })).status).toBe(200); // stories260K
  } finally {
    await w.mf.dispose();
    await engine.dispose();
  }
}, 120_000);
