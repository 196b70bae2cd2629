// Several models in one deployment, end to end: real workers serving two real-architecture models
// (the trained stories260K, a Llama, for generation; a BERT encoder with bge's vocabulary for
// embeddings), in one worker and in two. Each function goes to its model, with the bytes the library
// gives for that model; killing the worker of one model stops only that model's requests, which
// complete once a worker for it is back; nothing is lost and nothing runs twice.
import type pg from 'pg';
import { configure, embed, generate, unloadModels } from '../../src/client/index.js';
import { STORIES_MODEL, bertEmbeddingModel } from '../helpers/real-models.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let db: pg.Client;
let alice: pg.Client;
let embedder: string;
const workers: WorkerProcess[] = [];
const start = (models: string) => {
  const w = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2' }, models);
  workers.push(w);
  return w;
};
const serving = (name: string) =>
  eventually(`a running worker serving ${name}`, async () => {
    const { rows } = await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running' AND $1 = ANY (models)`, [
      name,
    ]);
    return rows.length > 0;
  });
const PROMPT = 'Once upon a time';

beforeAll(async () => {
  configure({ threads: 1 });
  embedder = await bertEmbeddingModel('mean');
  db = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  const admin = await svc().connect(ROLES.admin);
  await admin.query(
    `SELECT svc_model_declare('writer', ARRAY['generate']), svc_model_declare('embedder', ARRAY['embed'])`,
  );
  await alice.query(`SET svc.generate_model = 'writer'; SET svc.embed_model = 'embedder'`);
}, 120_000);
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await unloadModels();
});

test("one worker serving two models: each function goes to its model, with the library's bytes for that model", async () => {
  const worker = start(`writer=${STORIES_MODEL},embedder=${embedder}`);
  try {
    await serving('embedder');
    expect((await db.query(`SELECT models FROM svc_worker_status()`)).rows).toEqual([
      { models: ['embedder', 'writer'] },
    ]);
    const identities = (
      await db.query(`SELECT name, identity FROM svc_models WHERE name IN ('writer', 'embedder') ORDER BY name`)
    ).rows;
    expect(identities.map((r) => [r.name, r.identity.split(':')[0]])).toEqual([
      ['embedder', expect.stringContaining('svc-bert-bge-mean')],
      ['writer', expect.stringContaining('stories260K')],
    ]);

    const text = (await alice.query(`SELECT svc_generate($1, 24) AS t`, [PROMPT])).rows[0].t as string;
    expect(text).toBe(await generate(PROMPT, { model: STORIES_MODEL, maxTokens: 24, seed: 42 }));
    expect(text).toMatch(/\b(was|the|a|she|he)\b/); // stories260K writes English
    const json = (
      await alice.query(
        `SELECT svc_generate_json($1, '{"type":"object","properties":{"name":{"type":"string","maxLength":12}},"required":["name"]}', 40) AS t`,
        [PROMPT],
      )
    ).rows[0].t;
    expect(JSON.parse(json)).toEqual({ name: expect.any(String) });

    const vector = (await alice.query(`SELECT svc_embed('a cat sat on the mat') AS v`)).rows[0].v as number[];
    expect(vector.map(Math.fround)).toEqual(
      (await embed('a cat sat on the mat', { model: embedder })).map(Math.fround),
    );

    // The queue recorded each request's model.
    const models = (
      await db.query(`SELECT function_name, model, parameters->>'model' AS recorded FROM svc_queue ORDER BY seq`)
    ).rows;
    expect(models).toEqual([
      { function_name: 'generate', model: 'writer', recorded: 'writer' },
      { function_name: 'generate_json', model: 'writer', recorded: 'writer' },
      { function_name: 'embed', model: 'embedder', recorded: 'embedder' },
    ]);
  } finally {
    expect(await worker.stop()).toBe(0);
  }
}, 180_000);

test('two workers, one per model: killing one stops only its model; its requests complete when a worker for it returns, once each', async () => {
  await db.query('DELETE FROM svc_queue');
  await db.query('DELETE FROM svc_workers');
  const writerWorker = start(`writer=${STORIES_MODEL}`);
  let embedWorker = start(`embedder=${embedder}`);
  await Promise.all([serving('writer'), serving('embedder')]);
  expect(await embedWorker.stop('SIGKILL')).toBeNull(); // killed: no heartbeat 'stopped', no cleanup

  const texts = Array.from({ length: 6 }, (_, i) => `item ${i}`);
  const submit = async (sql: string) =>
    (await alice.query(`SELECT unnest(${sql}) AS id`, [texts])).rows.map((r) => r.id as string);
  const generated = await submit(`svc_generate_batch_async($1::text[], max_tokens := 8, use_cache := false)`);
  const embedded = await submit(`svc_embed_batch_async($1::text[], use_cache := false)`);
  const statusOf = async (list: string[]) =>
    (await alice.query(`SELECT status FROM svc_check_async_batch($1::uuid[])`, [list])).rows.map(
      (r) => r.status as string,
    );

  await eventually('the writer to finish its requests', async () =>
    (await statusOf(generated)).every((s) => s === 'completed'),
  );
  expect(await statusOf(embedded)).toEqual(Array(6).fill('pending'));
  const stats = (
    await alice.query(`SELECT model, function_name, status, requests FROM svc_queue_stats() ORDER BY model`)
  ).rows;
  expect(stats).toEqual([
    { model: 'embedder', function_name: 'embed', status: 'pending', requests: '6' },
    { model: 'writer', function_name: 'generate', status: 'completed', requests: '6' },
  ]);

  embedWorker = start(`embedder=${embedder}`);
  await eventually('the embedder to finish its requests once back', async () =>
    (await statusOf(embedded)).every((s) => s === 'completed'),
  );
  // Once each: every request was claimed by one attempt of one worker and never retried.
  const runs = (
    await db.query(
      `SELECT model, count(*)::int AS n, max(attempt) AS attempts, max(retry_count) AS retries FROM svc_queue GROUP BY model ORDER BY model`,
    )
  ).rows;
  expect(runs).toEqual([
    { model: 'embedder', n: 6, attempts: 1, retries: 0 },
    { model: 'writer', n: 6, attempts: 1, retries: 0 },
  ]);
  const results = (
    await db.query(`SELECT result FROM svc_queue WHERE model = 'embedder' ORDER BY batch_index`)
  ).rows.map((r) => r.result as string);
  for (const [i, text] of texts.entries()) {
    const expected = await embed(text, { model: embedder });
    expect(JSON.parse(results[i]).map(Math.fround)).toEqual(expected.map(Math.fround));
  }
  expect(await writerWorker.stop()).toBe(0);
  expect(await embedWorker.stop()).toBe(0);
}, 300_000);
