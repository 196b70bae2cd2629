// Seeded sampling and stop strings at the edge (#56): /generate takes seed, temperature, top_k, top_p,
// min_p and stop. Greedy stays the default and the library's bytes (stop strings cut them where the
// library cuts them); a sampled request gives the same bytes again, cached or not, streamed or not,
// after the engine is replaced; another seed other bytes; a constraint holds at every draw. The draws
// are llama.cpp's server's (inside wasm), whose sampler differs from node-llama-cpp's: the edge's
// sampled bytes are its own (docs/edge.md, Sampling).
import { Engine } from '../../src/engine/engine.js';
import { STORIES_MODEL } from '../helpers/real-models.js';
import { startWorker, type Worker } from './helpers.js';

let w: Worker;
let stories: Engine;
beforeAll(async () => {
  [w, stories] = await Promise.all([startWorker(), Engine.load({ model: STORIES_MODEL, threads: 1, sequences: 1 })]);
}, 120_000);
afterAll(async () => {
  await w?.mf.dispose();
  await stories?.dispose();
});

const PROMPT = 'Once upon a time';
async function post(
  worker: Worker,
  body: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await worker.post('/generate', body);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
async function streamed(
  worker: Worker,
  body: Record<string, unknown>,
): Promise<{ pieces: string[]; done: Record<string, unknown> }> {
  const text = await (await worker.post('/generate', { ...body, stream: true })).text();
  const pieces = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]) as Record<string, unknown>);
  const done = JSON.parse(/event: done\ndata: (.*)\n/.exec(text)![1]) as Record<string, unknown>;
  return { pieces: pieces.slice(0, -1).map((p) => String(p.text)), done };
}

test("greedy is the default and the library's bytes; stop strings cut them where the library does, streamed too", async () => {
  const library = await stories.generate({ prompt: PROMPT, maxTokens: 60, seed: 42 });
  expect((await post(w, { prompt: PROMPT, max_tokens: 60 })).body.text).toBe(library.text);
  // temperature 0 is greedy whatever the rest says: the same answer (from the cache now).
  expect((await post(w, { prompt: PROMPT, max_tokens: 60, temperature: 0, seed: 7, top_k: 3 })).body).toEqual({
    text: library.text,
    cached: true,
  });
  const cut = await stories.generate({ prompt: PROMPT, maxTokens: 60, seed: 42, stop: ['girl', 'park'] });
  expect(cut).toMatchObject({ stopReason: 'stopString' });
  expect((await post(w, { prompt: PROMPT, max_tokens: 60, stop: ['girl', 'park'] })).body).toEqual({
    text: cut.text,
    cached: false,
  });
  const s = await streamed(w, { prompt: PROMPT, max_tokens: 59, stop: ['girl', 'park'] });
  expect(s.pieces.join('')).toBe(cut.text);
  expect(s.done).toMatchObject({ text: cut.text, cached: false, stop_reason: 'stop' });
}, 120_000);

test('a sampled request gives the same bytes again: cached, streamed, on a fresh engine; other seeds other bytes; each a story', async () => {
  const body = (seed: number) => ({ prompt: PROMPT, max_tokens: 48, seed, temperature: 0.9 });
  const first = new Map<number, string>();
  for (const seed of [1, 2, 3]) {
    const r = await post(w, body(seed));
    expect(r).toMatchObject({ status: 200, body: { cached: false } });
    first.set(seed, String(r.body.text));
  }
  expect(new Set(first.values()).size).toBe(3);
  for (const text of first.values()) expect(text).toMatch(/^, there/);
  expect((await post(w, body(1))).body).toEqual({ text: first.get(1), cached: true });
  // Streamed, not cached (another max_tokens whose output ends the same way is another request): the same text.
  const s = await streamed(w, { ...body(2), max_tokens: 47 });
  expect(first.get(2)!.startsWith(String(s.done.text))).toBe(true);
  expect(s.pieces.join('')).toBe(s.done.text);
  // A fresh worker (engine, isolate and caches all new): the same bytes.
  const again = await startWorker();
  try {
    expect((await post(again, body(3))).body).toEqual({ text: first.get(3), cached: false });
  } finally {
    await again.mf.dispose();
  }
}, 180_000);

test('sampling under a constraint stays inside it; a stop string under it ends the output only where it is complete', async () => {
  const texts = new Set<string>();
  for (const seed of [1, 2, 3, 4, 5]) {
    const r = await post(w, {
      prompt: PROMPT,
      max_tokens: 30,
      regex: '[a-z ]{5,20}',
      seed,
      temperature: 2,
      top_k: 0,
      top_p: 1,
      min_p: 0,
    });
    expect(r.status).toBe(200);
    expect(r.body.text).toMatch(/^[a-z ]{5,20}$/);
    texts.add(String(r.body.text));
  }
  expect(texts.size).toBeGreaterThan(1);
  const greedy = String((await post(w, { prompt: PROMPT, max_tokens: 30, regex: '[a-z ]{8,30}' })).body.text);
  const stopped = String(
    (await post(w, { prompt: PROMPT, max_tokens: 30, regex: '[a-z ]{8,30}', stop: [' '] })).body.text,
  );
  expect(stopped).toMatch(/^[a-z ]{8,30}$/);
  expect(stopped).toBe(greedy.indexOf(' ', 8) >= 0 ? greedy.slice(0, greedy.indexOf(' ', 8)) : greedy);
}, 120_000);

test('each option is checked with its rule, a 400 naming it', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ temperature: 3 }, 'temperature must be a number from 0 to 2 (got 3)'],
    [{ temperature: '0.5' }, 'temperature must be a number from 0 to 2 (got "0.5")'],
    [{ top_k: -1 }, 'top_k must be an integer from 0 (every token) to 2147483647 (got -1)'],
    [{ top_p: 0 }, 'top_p must be a number above 0 and at most 1 (got 0)'],
    [{ min_p: 1 }, 'min_p must be a number from 0 to below 1 (got 1)'],
    [{ seed: -1 }, 'seed must be an integer from 0 to 4294967295 (got -1)'],
    [{ stop: 'x' }, 'stop must be an array of strings'],
    [{ stop: ['a', ''] }, 'stop[1] must not be empty'],
    [{ stop: Array(17).fill('s') }, 'stop must have at most 16 strings (got 17)'],
  ];
  for (const [options, error] of cases)
    expect(await post(w, { prompt: 'x', ...options })).toEqual({ status: 400, body: { error } });
});
