// Seeded sampling and stop strings (#56) through SQL with a real worker, on the trained stories260K and
// on a qwen2-vocabulary model (byte-level BPE, 151,936 tokens, chat template): the default stays
// greedy; with a temperature the same request and seed give the same bytes sync and async, set-based,
// cached or not, next to other requests, after a worker restart, in the library and the CLI; another
// seed other bytes; under a constraint every draw stays inside it. Stop strings end the output before
// the first one wherever tokens split it, on every path, and under a grammar only where the output is
// complete.
import type pg from 'pg';
import { Engine } from '../../src/engine/engine.js';
import { compileJsonSchema } from '../../src/grammar/index.js';
import { runSvc } from '../helpers/cli.js';
import { STORIES_MODEL, realVocabModel } from '../helpers/real-models.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'120s'" } });
let su: pg.Client;
let alice: pg.Client;
let worker: WorkerProcess | undefined;
let qwenPath: string;
let stories: Engine;
let qwen: Engine;

async function startOne(): Promise<void> {
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '4' }, `default=${STORIES_MODEL},qwen=${qwenPath}`);
  await eventually(
    'the worker to heartbeat',
    async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
}

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  qwenPath = await realVocabModel('qwen2-512');
  await startOne();
  [stories, qwen] = await Promise.all([
    Engine.load({ model: STORIES_MODEL, threads: 1, sequences: 2 }),
    Engine.load({ model: qwenPath, threads: 1, sequences: 1 }),
  ]);
}, 180_000);
afterAll(async () => {
  await worker?.stop();
  await stories?.dispose();
  await qwen?.dispose();
});

const PROMPT = 'Once upon a time';
const one = async (sql: string, params: unknown[] = []): Promise<string> =>
  (await alice.query(`SELECT ${sql} AS r`, params)).rows[0].r as string;
const viaAsync = async (sql: string, params: unknown[] = []): Promise<string> => {
  const id = await one(sql, params);
  return one('svc_get_async_result($1, 120)', [id]);
};
const sampling = { temperature: 0.9, topK: 40, topP: 0.95, minP: 0.05 };

test('the default is greedy and unchanged: temperature 0 is the request (and cache entry) without it, whatever top_k, top_p, min_p say', async () => {
  const greedy = await one(`svc_generate($1, max_tokens := 40)`, [PROMPT]);
  expect(greedy).toBe((await stories.generate({ prompt: PROMPT, maxTokens: 40, seed: 42 })).text);
  expect(greedy).toMatch(/^, there was a little girl named Lily/);
  const { hits } = (await su.query('SELECT hits FROM svc_cache_stats()')).rows[0];
  // The cached request itself (a hit), though top_k, top_p and min_p are given.
  expect(
    await one(`svc_generate($1, max_tokens := 40, temperature := 0, top_k := 3, top_p := 0.5, min_p := 0.3)`, [PROMPT]),
  ).toBe(greedy);
  expect(Number((await su.query('SELECT hits FROM svc_cache_stats()')).rows[0].hits)).toBe(Number(hits) + 1);
}, 120_000);

test('stories260K: the same request and seed give the same bytes sync, async, set-based, cached, concurrent, in the library and the CLI; other seeds other bytes', async () => {
  const call = (seed: number, cache = false) =>
    `svc_generate($1, max_tokens := 48, seed := ${seed}, temperature := 0.9, use_cache := ${cache})`;
  const bySeed = new Map<number, string>();
  for (const seed of [1, 2, 3, 4]) bySeed.set(seed, await one(call(seed), [PROMPT]));
  // Another seed, other bytes; each still a story.
  expect(new Set(bySeed.values()).size).toBe(4);
  for (const text of bySeed.values()) expect(text).toMatch(/^, there/);
  // The library (the engine the worker runs), in process.
  for (const [seed, text] of bySeed)
    expect((await stories.generate({ prompt: PROMPT, maxTokens: 48, seed, sampling, promptFormat: 'chat' })).text).toBe(
      text,
    );
  // Sync again, async, cached (stored, then a hit), set-based.
  expect(await one(call(1), [PROMPT])).toBe(bySeed.get(1));
  expect(
    await viaAsync(`svc_generate_async($1, max_tokens := 48, seed := 2, temperature := 0.9, use_cache := false)`, [
      PROMPT,
    ]),
  ).toBe(bySeed.get(2));
  expect(await one(call(3, true), [PROMPT])).toBe(bySeed.get(3));
  expect(await one(call(3, true), [PROMPT])).toBe(bySeed.get(3));
  const set = (
    await alice.query(
      `SELECT result FROM svc_generate($1::text[], max_tokens := 48, seed := 4, temperature := 0.9, use_cache := false) ORDER BY ord`,
      [[PROMPT, PROMPT]],
    )
  ).rows;
  expect(set.map((r) => r.result)).toEqual([bySeed.get(4), bySeed.get(4)]);
  // Concurrent: eight requests on a worker running four at once, each seed twice.
  const ids = await Promise.all(
    [1, 2, 3, 4, 4, 3, 2, 1].map((seed) =>
      one(`svc_generate_async($1, max_tokens := 48, seed := ${seed}, temperature := 0.9, use_cache := false)`, [
        PROMPT,
      ]),
    ),
  );
  const results = (
    await alice.query(`SELECT ord, result FROM svc_get_async_results($1::uuid[], 120) ORDER BY ord`, [ids])
  ).rows.map((r) => r.result);
  expect(results).toEqual([1, 2, 3, 4, 4, 3, 2, 1].map((seed) => bySeed.get(seed)));
  // The CLI.
  const cli = await runSvc([
    'generate',
    PROMPT,
    '--model',
    STORIES_MODEL,
    '--max-tokens',
    '48',
    '--seed',
    '2',
    '--temperature',
    '0.9',
    '--threads',
    '1',
  ]);
  expect(cli).toMatchObject({ code: 0, stdout: `${bySeed.get(2)}\n` });
}, 300_000);

test('after a worker restart the same seed gives the same bytes', async () => {
  const call = `svc_generate($1, max_tokens := 32, seed := 11, temperature := 1.2, top_k := 0, top_p := 1, min_p := 0, use_cache := false)`;
  const before = await one(call, [PROMPT]);
  await worker!.stop();
  await startOne();
  expect(await one(call, [PROMPT])).toBe(before);
  expect(before).toBe(
    (
      await stories.generate({
        prompt: PROMPT,
        maxTokens: 32,
        seed: 11,
        sampling: { temperature: 1.2, topK: 0, topP: 1, minP: 0 },
      })
    ).text,
  );
}, 180_000);

test("qwen2 vocabulary: sampled bytes are the library's under the chat template; a JSON Schema holds at every draw, and the seeds differ", async () => {
  await alice.query(`SET svc.model = 'qwen'`);
  try {
    const text = await one(
      `svc_generate('Write a word', max_tokens := 24, seed := 5, temperature := 1, use_cache := false)`,
    );
    expect(text).toBe(
      (
        await qwen.generate({
          prompt: 'Write a word',
          maxTokens: 24,
          seed: 5,
          sampling: { ...sampling, temperature: 1 },
          promptFormat: 'chat',
        })
      ).text,
    );
    const schema = {
      type: 'object',
      properties: { name: { type: 'string', maxLength: 12 }, age: { type: 'integer', minimum: 0, maximum: 120 } },
      required: ['name', 'age'],
      additionalProperties: false,
    };
    const validate = compileJsonSchema(schema).validate;
    const outputs: string[] = [];
    // A random-weight model under full sampling (every token a candidate): only the grammar keeps it JSON.
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const out = await one(
        `svc_generate_json('A person', $1::jsonb, max_tokens := 60, seed := ${seed}, temperature := 2, top_k := 0, top_p := 1, min_p := 0, use_cache := false)`,
        [schema],
      );
      expect(validate(out)).toMatchObject({ ok: true });
      outputs.push(out);
    }
    expect(new Set(outputs).size).toBeGreaterThan(3);
    const again = await viaAsync(
      `svc_generate_json_async('A person', $1::jsonb, max_tokens := 60, seed := 3, temperature := 2, top_k := 0, top_p := 1, min_p := 0, use_cache := false)`,
      [schema],
    );
    expect(again).toBe(outputs[2]);
    const regex = await one(
      `svc_generate_regex('A code', '[a-f]{2}-[0-9]{3}', seed := 8, temperature := 2, top_k := 0, top_p := 1, min_p := 0, use_cache := false)`,
    );
    expect(regex).toMatch(/^[a-f]{2}-[0-9]{3}$/);
    const choices = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8])
      choices.add(
        await one(
          `svc_generate_choice('Pick', ARRAY['red', 'green', 'blue'], seed := ${seed}, temperature := 2, top_k := 0, top_p := 1, min_p := 0, use_cache := false)`,
        ),
      );
    for (const c of choices) expect(['red', 'green', 'blue']).toContain(c);
    expect(choices.size).toBeGreaterThan(1); // greedy gives one answer for every seed; sampling more than one
  } finally {
    await alice.query('RESET svc.model');
  }
}, 300_000);

describe('stop strings', () => {
  test('the output ends before the first stop string, also where tokens split it; sync, async, set-based and the library agree', async () => {
    const full = await one(`svc_generate($1, max_tokens := 60)`, [PROMPT]);
    // stories260K writes " g", "ir", "l": "girl" spans three tokens.
    const cut = full.slice(0, full.indexOf('girl'));
    expect(cut).toMatch(/little $/);
    expect(await one(`svc_generate($1, max_tokens := 60, stop := ARRAY['girl'])`, [PROMPT])).toBe(cut);
    expect(
      await viaAsync(`svc_generate_async($1, max_tokens := 60, stop := ARRAY['girl'], use_cache := false)`, [PROMPT]),
    ).toBe(cut);
    // The first of several, whichever is listed first; a stop string never met changes nothing.
    expect(await one(`svc_generate($1, max_tokens := 60, stop := ARRAY['Lily', 'named'])`, [PROMPT])).toBe(
      full.slice(0, full.indexOf('named')),
    );
    expect(await one(`svc_generate($1, max_tokens := 60, stop := ARRAY['zebra'])`, [PROMPT])).toBe(full);
    const set = (
      await alice.query(
        `SELECT result FROM svc_generate($1::text[], max_tokens := 60, stop := ARRAY['girl']) ORDER BY ord`,
        [[PROMPT]],
      )
    ).rows;
    expect(set[0].result).toBe(cut);
    expect((await stories.generate({ prompt: PROMPT, maxTokens: 60, seed: 42, stop: ['girl'] })).text).toBe(cut);
    // Part of the cache key: the request without stop strings keeps its own answer.
    expect(await one(`svc_generate($1, max_tokens := 60)`, [PROMPT])).toBe(full);
    // With sampling, the stop applies to the sampled text.
    const sampled = await one(`svc_generate($1, max_tokens := 48, seed := 1, temperature := 0.9, use_cache := false)`, [
      PROMPT,
    ]);
    const at = sampled.indexOf('.');
    expect(at).toBeGreaterThan(0);
    expect(
      await one(
        `svc_generate($1, max_tokens := 48, seed := 1, temperature := 0.9, stop := ARRAY['.'], use_cache := false)`,
        [PROMPT],
      ),
    ).toBe(sampled.slice(0, at));
  }, 120_000);

  test('qwen2: a stop string inside a multi-byte character split across tokens', async () => {
    await alice.query(`SET svc.model = 'qwen'`);
    try {
      const prompt = '日本語のテキスト';
      const full = await one(`svc_generate($1, max_tokens := 40, use_cache := false)`, [prompt]);
      const bytes = Buffer.from(full, 'utf8');
      // A character of 3 or more bytes somewhere past the start (U+FFFD stands for bytes that are not UTF-8: skipped).
      const chars = [...full];
      const k = chars.findIndex((c, i) => i > 0 && Buffer.byteLength(c) >= 3 && c !== '\uFFFD');
      expect(k).toBeGreaterThan(0);
      const stop = chars[k];
      const expected = full.slice(0, full.indexOf(stop));
      expect(bytes.length).toBeGreaterThan(Buffer.byteLength(expected));
      expect(
        await one(`svc_generate($1, max_tokens := 40, stop := ARRAY[$2], use_cache := false)`, [prompt, stop]),
      ).toBe(expected);
      expect((await qwen.generate({ prompt, maxTokens: 40, seed: 42, stop: [stop], promptFormat: 'chat' })).text).toBe(
        expected,
      );
    } finally {
      await alice.query('RESET svc.model');
    }
  }, 120_000);

  test('under a grammar a stop string ends the output only where the text before it is complete', async () => {
    // [a-z ]{10,40}: " there was" is the first text before a space that is long enough.
    const full = await one(`svc_generate_regex($1, '[a-z ]{10,40}', max_tokens := 40)`, [PROMPT]);
    expect(full.length).toBeGreaterThan(10);
    const out = await one(`svc_generate_regex($1, '[a-z ]{10,40}', max_tokens := 40, stop := ARRAY[' '])`, [PROMPT]);
    expect(out).toMatch(/^[a-z ]{10,40}$/);
    expect(full.startsWith(out + ' ')).toBe(true);
    const firstSpaceAfter10 = full.indexOf(' ', 10);
    expect(out).toBe(full.slice(0, firstSpaceAfter10));
    // A choice is never cut short: 'red wine' is complete, 'red' alone is not a choice.
    expect(await one(`svc_generate_choice('Pick', ARRAY['red wine', 'blue'], stop := ARRAY[' wine', 'wine'])`)).toMatch(
      /^(red wine|blue)$/,
    );
  }, 120_000);
});
