// Issue #53: one documented rule decides which model serves a request (docs/models.md, "Which model
// serves a request"), walked here with a worker serving the shipped generator as 'default' and the
// shipped embedder as 'embed', as the README's tour starts one: svc.model, else the function's own
// setting (for rerank, svc.embed_model next), else for embed and rerank the model named 'embed', else
// 'default'; a vectorizer declared without a model takes svc_embed's. Each request's model is read
// back from svc_queue, and its answer compared with the library's for that model.
import type pg from 'pg';
import { configure, embed, unloadModels } from '../../src/client/index.js';
import { EMBED_MODEL, STORIES_MODEL } from '../helpers/real-models.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let db: pg.Client;
let alice: pg.Client;
let worker: WorkerProcess;

beforeAll(async () => {
  configure({ threads: 1 });
  db = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2' }, `${STORIES_MODEL},embed=${EMBED_MODEL}`);
  await eventually(
    'the worker serving both',
    async () =>
      (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running' AND 'embed' = ANY (models)`)).rows
        .length > 0,
  );
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await unloadModels();
});

/** The model the last request of `fn` went to. */
const lastModel = async (fn: string) =>
  (await db.query(`SELECT model FROM svc_queue WHERE function_name = $1 ORDER BY seq DESC LIMIT 1`, [fn])).rows[0]
    .model;

test('unset: generation goes to default, embeddings and reranking to the model named embed', async () => {
  await alice.query(`SELECT svc_generate('Once upon a time', max_tokens := 4, use_cache := false)`);
  expect(await lastModel('generate')).toBe('default');
  const vector = (await alice.query(`SELECT svc_embed('a dog barked', use_cache := false) AS v`)).rows[0].v as number[];
  expect(await lastModel('embed')).toBe('embed');
  expect(vector.map(Math.fround)).toEqual((await embed('a dog barked', { model: EMBED_MODEL })).map(Math.fround));
  const ranked = (
    await alice.query(
      `SELECT document FROM svc_rerank('a dog', ARRAY['The cake was sweet', 'Max the dog barked'], use_cache := false)`,
    )
  ).rows;
  expect(ranked.map((r) => r.document)).toEqual(['Max the dog barked', 'The cake was sweet']);
  expect(await lastModel('rerank')).toBe('embed');
});

test('svc.embed_model moves svc_embed and svc_rerank; svc.rerank_model moves svc_rerank alone; svc.model moves everything', async () => {
  const steps: Array<[string, Record<string, string>]> = [
    [`SET svc.embed_model = 'default'`, { embed: 'default', rerank: 'default', generate: 'default' }],
    [`SET svc.rerank_model = 'embed'`, { embed: 'default', rerank: 'embed', generate: 'default' }],
    [`RESET svc.embed_model; RESET svc.rerank_model; SET svc.model = 'embed'`, { embed: 'embed', rerank: 'embed' }],
  ];
  for (const [set, expected] of steps) {
    await alice.query(set);
    await alice.query(`SELECT svc_embed('x', use_cache := false)`);
    await alice.query(`SELECT * FROM svc_rerank('q', ARRAY['d'], use_cache := false)`);
    if (expected.generate) await alice.query(`SELECT svc_generate('x', max_tokens := 2, use_cache := false)`);
    for (const [fn, model] of Object.entries(expected))
      expect([set, fn, await lastModel(fn)]).toEqual([set, fn, model]);
  }
  // svc.model names the embedder for generation too: refused, naming where the name came from.
  await expect(alice.query(`SELECT svc_generate('x', max_tokens := 2)`)).rejects.toMatchObject({
    code: '22023',
    message: 'svc_generate: model "embed" (svc.model) does not serve generate (it serves embed, rerank)',
  });
  await alice.query(`RESET svc.model`);
});

test('a vectorizer declared without a model takes the embedding model, as svc_embed would', async () => {
  await db.query(`CREATE SCHEMA a AUTHORIZATION ${ROLES.alice}`);
  await alice.query(`CREATE TABLE a.t (id integer PRIMARY KEY, body text); INSERT INTO a.t VALUES (1, 'a dog barked')`);
  await alice.query(`SELECT svc_vectorize('a.t', 'body', 't')`);
  expect((await alice.query(`SELECT model FROM svc_vectorizers WHERE name = 't'`)).rows[0].model).toBe('embed');
  await alice.query(`SET svc.embed_model = 'default'`);
  await alice.query(`CREATE TABLE a.u (id integer PRIMARY KEY, body text)`);
  await alice.query(`SELECT svc_vectorize('a.u', 'body', 'u')`);
  expect((await alice.query(`SELECT model FROM svc_vectorizers WHERE name = 'u'`)).rows[0].model).toBe('default');
  await alice.query(`RESET svc.embed_model`);
});
