// Several models in one deployment (svc_models): which model a request goes to (svc.model, the
// per-function settings, SET LOCAL), errors at the call for an undeclared model or one that does not
// serve the function, the model recorded in the request and its cache key, claims per model, and
// what svc_worker_status / svc_queue_stats / the sync functions say about models.
import type pg from 'pg';
import * as protocol from '../../worker/protocol.js';
import { cacheIdentity } from '../../src/queue/cache-key.js';
import { ROLES, useSvc } from '../helpers/svc.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'2s'" } });
let db: pg.Client;
let alice: pg.Client;
let admin: pg.Client;
let worker: pg.Client;
const claim = (models: string[], maxJobs = 10) => protocol.claim(worker, { workerId: 'w1', maxJobs, leaseSeconds: 30, maxRetries: 3, models });
const beat = (workerId: string, models: Record<string, string> | null, model: string | null = null) =>
  protocol.heartbeat(worker, { workerId, host: 'h', pid: 1, state: 'running', concurrency: 1, model, models: models ?? undefined, jobsDone: 0, jobsFailed: 0, jobsInFlight: 0 });
const queued = async () => (await db.query(`SELECT model, function_name, parameters->'model' AS recorded FROM svc_queue ORDER BY seq`)).rows;
const failure = (client: pg.Client, sql: string, values: unknown[] = []) =>
  client.query(sql, values).then(
    () => undefined,
    (e: { code?: string; message: string; hint?: string }) => e,
  );

beforeAll(async () => {
  db = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  admin = await svc().connect(ROLES.admin);
  worker = await svc().connect(ROLES.worker);
  await admin.query(`SELECT svc_model_declare('embedder', ARRAY['embed', 'rerank'])`);
  await admin.query(`SELECT svc_model_declare('writer', ARRAY['generate'])`);
});
beforeEach(async () => {
  await db.query('DELETE FROM svc_queue');
  await db.query('DELETE FROM svc_workers');
  for (const client of [db, alice]) await client.query('RESET svc.model; RESET svc.generate_model; RESET svc.embed_model; RESET svc.rerank_model');
});

test("the registry starts with 'default', serving every function; everyone reads it", async () => {
  const { rows } = await alice.query(`SELECT name, serves FROM svc_models WHERE name = 'default'`);
  expect(rows).toEqual([{ name: 'default', serves: ['generate', 'embed', 'rerank'] }]);
});

test("without settings a request goes to 'default', recorded nowhere in its parameters (its cache key is unchanged)", async () => {
  await alice.query(`SELECT svc_generate_async('x'), svc_embed_async('x'), svc_rerank_async('q', ARRAY['a'])`);
  expect(await queued()).toEqual([
    { model: 'default', function_name: 'generate', recorded: null },
    { model: 'default', function_name: 'embed', recorded: null },
    { model: 'default', function_name: 'rerank', recorded: null },
  ]);
});

test('SET svc.model sends every function to that model, recorded in the parameters', async () => {
  await admin.query(`SELECT svc_model_declare('both')`);
  await alice.query(`SET svc.model = 'both'`);
  await alice.query(`SELECT svc_generate_json_async('x', '{"type":"string"}'), svc_embed_batch_async(ARRAY['a', 'b']), svc_generate_batch_async(ARRAY['p'])`);
  expect((await queued()).map((r) => [r.model, r.recorded])).toEqual([
    ['both', 'both'],
    ['both', 'both'],
    ['both', 'both'],
    ['both', 'both'],
  ]);
});

test('the per-function settings choose a model per function; svc.model overrides them', async () => {
  await alice.query(`SET svc.generate_model = 'writer'; SET svc.embed_model = 'embedder'; SET svc.rerank_model = 'embedder'`);
  await alice.query(`SELECT svc_generate_regex_async('x', '[a-z]+'), svc_embed_async('x'), svc_rerank_async('q', ARRAY['a'])`);
  expect((await queued()).map((r) => r.model)).toEqual(['writer', 'embedder', 'embedder']);
  await alice.query(`SET svc.model = 'default'`);
  await alice.query(`SELECT svc_generate_async('x')`);
  expect((await queued()).at(-1)).toEqual({ model: 'default', function_name: 'generate', recorded: null });
});

test('SET LOCAL svc.model lasts for its transaction', async () => {
  await alice.query('BEGIN');
  await alice.query(`SET LOCAL svc.model = 'writer'`);
  await alice.query(`SELECT svc_generate_async('inside')`);
  await alice.query('COMMIT');
  await alice.query(`SELECT svc_generate_async('after')`);
  expect((await queued()).map((r) => r.model)).toEqual(['writer', 'default']);
});

test.each([
  ['svc.model', `SET svc.model = 'nope'`, `SELECT svc_generate_async('x')`, /^svc_generate_async: model "nope" \(svc.model\) is not declared in svc_models$/],
  ['svc.embed_model', `SET svc.embed_model = 'nope'`, `SELECT svc_embed_async('x')`, /^svc_embed_async: model "nope" \(svc.embed_model\) is not declared in svc_models$/],
  ['a model that does not serve the function', `SET svc.model = 'embedder'`, `SELECT svc_generate_async('x')`, /^svc_generate_async: model "embedder" \(svc.model\) does not serve generate \(it serves embed, rerank\)$/],
  ['the same in a batch', `SET svc.model = 'writer'`, `SELECT svc_embed_batch_async(ARRAY['a'])`, /^svc_embed_batch_async: model "writer" \(svc.model\) does not serve embed \(it serves generate\)$/],
  ['the same for a sync call', `SET svc.model = 'writer'`, `SELECT svc_rerank('q', ARRAY['a'])`, /^svc_rerank: model "writer" \(svc.model\) does not serve rerank \(it serves generate\)$/],
])('%s: a 22023 error at the call naming the model, nothing enqueued', async (_what, set, call, message) => {
  await alice.query(set);
  const error = await failure(alice, call);
  expect(error?.code).toBe('22023');
  expect(error?.message).toMatch(message);
  expect(await queued()).toEqual([]);
});

test('an undeclared model is named with how to declare it', async () => {
  await alice.query(`SET svc.model = 'nope'`);
  expect((await failure(alice, `SELECT svc_generate_async('x')`))?.hint).toMatch(/--model nope=PATH.*svc_model_declare\('nope'\)/);
});

describe('svc_model_declare', () => {
  test('only svc_admin declares models; nobody writes svc_models directly', async () => {
    expect((await failure(alice, `SELECT svc_model_declare('mine')`))?.code).toBe('42501');
    for (const sql of [`INSERT INTO svc_models (name) VALUES ('mine')`, `UPDATE svc_models SET serves = ARRAY['embed']`, `DELETE FROM svc_models`]) {
      expect((await failure(alice, sql))?.code).toBe('42501');
      expect((await failure(admin, sql))?.code).toBe('42501');
    }
  });

  test('changes what a declared model serves; requests already queued keep their model', async () => {
    await admin.query(`SELECT svc_model_declare('shifting', ARRAY['generate'])`);
    await alice.query(`SET svc.model = 'shifting'`);
    await alice.query(`SELECT svc_generate_async('x')`);
    await admin.query(`SELECT svc_model_declare('shifting', ARRAY['embed', 'embed'])`);
    expect((await db.query(`SELECT serves FROM svc_models WHERE name = 'shifting'`)).rows[0].serves).toEqual(['embed']);
    expect((await failure(alice, `SELECT svc_generate_async('y')`))?.message).toMatch(/does not serve generate/);
    expect((await queued()).map((r) => r.model)).toEqual(['shifting']);
  });

  test.each([
    [`SELECT svc_model_declare('')`, /name must be 1 to 63 letters/],
    [`SELECT svc_model_declare('has space')`, /name must be 1 to 63 letters/],

    [`SELECT svc_model_declare('m', ARRAY[]::text[])`, /serves must be a non-empty array of generate, embed and rerank/],
    [`SELECT svc_model_declare('m', ARRAY['chat'])`, /serves must be a non-empty array.*\(got \{chat\}\)/],
    [`SELECT svc_model_declare('m', ARRAY['embed', NULL])`, /serves must be a non-empty array/],
  ])('%s is a 22023 error, nothing declared', async (sql, message) => {
    const error = await failure(admin, sql);
    expect(error?.code).toBe('22023');
    expect(error?.message).toMatch(message);
    expect((await db.query(`SELECT count(*)::int AS n FROM svc_models WHERE name = 'm'`)).rows[0].n).toBe(0);
  });
});

describe('claims', () => {
  test("a worker claims only its models' requests, in priority then age order across them", async () => {
    await alice.query(`SELECT svc_generate_async('d0', priority := 0)`);
    await alice.query(`SET svc.model = 'writer'`);
    await alice.query(`SELECT svc_generate_async('w0', priority := 0)`);
    await alice.query(`SELECT svc_generate_async('w5', priority := 5)`);
    await alice.query(`SET svc.model = 'embedder'`);
    await alice.query(`SELECT svc_embed_async('e9', priority := 9)`);
    const prompts = (jobs: protocol.ClaimedJob[]) => jobs.map((j) => j.parameters.prompt ?? j.parameters.text_input);
    expect(prompts(await claim(['writer'], 1))).toEqual(['w5']);
    expect(prompts(await claim(['default', 'writer', 'embedder']))).toEqual(['e9', 'd0', 'w0']);
    expect(await claim(['default', 'writer', 'embedder'])).toEqual([]);
  });

  test('a claim for a model nobody asked for claims nothing; no models at all is an error', async () => {
    await alice.query(`SELECT svc_generate_async('x')`);
    expect(await claim(['writer'])).toEqual([]);
    expect((await failure(worker, `SELECT * FROM svc_worker_claim('w', 1, 30, 3, ARRAY[]::text[])`))?.message).toMatch(
      /models must be a non-empty array of model names/,
    );
    expect(await claim(['default'])).toHaveLength(1);
  });
  // Their plans: queue.test.ts (one model, several models).
});

describe('workers and their models', () => {
  test('a heartbeat declares the names a worker serves and records the identity of their files', async () => {
    await beat('w-two', { default: 'stories.gguf:1', 'new-one': 'bert.gguf:2' }, 'stories.gguf:1');
    const models = (await db.query(`SELECT name, serves, identity FROM svc_models WHERE name IN ('default', 'new-one') ORDER BY name`)).rows;
    expect(models).toEqual([
      { name: 'default', serves: ['generate', 'embed', 'rerank'], identity: 'stories.gguf:1' },
      { name: 'new-one', serves: ['generate', 'embed', 'rerank'], identity: 'bert.gguf:2' },
    ]);
    const status = (await alice.query(`SELECT worker_id, model, models FROM svc_worker_status()`)).rows;
    expect(status).toEqual([{ worker_id: 'w-two', model: 'stories.gguf:1', models: ['default', 'new-one'] }]);
  });

  test('a heartbeat without models serves default under its model; one without a model leaves the identity alone', async () => {
    await beat('w-one', null, 'file-a');
    expect((await db.query(`SELECT identity FROM svc_models WHERE name = 'default'`)).rows[0].identity).toBe('file-a');
    await beat('w-one', null, null);
    expect((await db.query(`SELECT identity FROM svc_models WHERE name = 'default'`)).rows[0].identity).toBe('file-a');
    expect((await alice.query(`SELECT models FROM svc_worker_status()`)).rows).toEqual([{ models: ['default'] }]);
  });

  test('svc_queue_stats counts per model', async () => {
    await alice.query(`SELECT svc_generate_async('a'), svc_generate_async('b')`);
    await alice.query(`SET svc.model = 'writer'`);
    await alice.query(`SELECT svc_generate_async('c')`);
    const stats = (await alice.query(`SELECT model, function_name, status, requests FROM svc_queue_stats()`)).rows;
    expect(stats).toEqual([
      { model: 'default', function_name: 'generate', status: 'pending', requests: '2' },
      { model: 'writer', function_name: 'generate', status: 'pending', requests: '1' },
    ]);
  });

  test('a sync call for a model no running worker serves fails at once saying so (SV006), nothing left queued', async () => {
    await beat('w-default', { default: 'file-a' }, 'file-a');
    await alice.query(`SET svc.model = 'writer'`);
    const started = Date.now();
    const error = await failure(alice, `SELECT svc_generate('x')`);
    expect(Date.now() - started).toBeLessThan(1500); // svc.sync_timeout is 2 s: it did not wait
    expect(error?.code).toBe('SV006');
    expect(error?.message).toBe('svc_generate: none of the 1 running worker(s) serves model "writer"');
    expect(error?.hint).toMatch(/--model writer=PATH/);
    expect(await queued()).toEqual([]);
  });

  test('async requests for a model no worker serves wait, and svc_queue_stats shows them', async () => {
    await beat('w-default', { default: 'file-a' }, 'file-a');
    await alice.query(`SET svc.model = 'writer'`);
    const id = (await alice.query(`SELECT svc_generate_async('x') AS id`)).rows[0].id;
    expect(await claim(['default'])).toEqual([]);
    expect((await alice.query(`SELECT status FROM svc_check_async($1)`, [id])).rows[0].status).toBe('pending');
    expect((await alice.query(`SELECT model, requests FROM svc_queue_stats() WHERE status = 'pending'`)).rows).toEqual([{ model: 'writer', requests: '1' }]);
  });
});

describe('the cache', () => {
  test("a request's model is part of its cache key, and answers are kept per identity of the model's file", async () => {
    const base = { prompt: 'p', max_tokens: 8, use_cache: true, seed: 42, prompt_format: 'chat' };
    expect(cacheIdentity('generate', { ...base, model: 'writer' })).not.toBe(cacheIdentity('generate', base));
    await beat('w', { default: 'file-a', writer: 'file-w' }, 'file-a');
    // An answer stored by the default model's worker is not one of writer's, even for equal parameters.
    await protocol.cachePut(worker, cacheIdentity('generate', base), 'file-a', 'generate', 'from default');
    const lookup = (model: string) => db.query(`SELECT result FROM svc_worker_cache_get($1, svc__model_identity($2))`, [cacheIdentity('generate', base), model]);
    expect((await lookup('default')).rows[0].result).toBe('from default');
    expect((await lookup('writer')).rows[0].result).toBeNull();
    // A new file under the name 'default' does not serve the old file's answers.
    await beat('w', { default: 'file-b', writer: 'file-w' }, 'file-b');
    expect((await lookup('default')).rows[0].result).toBeNull();
  });
});
