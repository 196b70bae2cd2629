// The set-based forms of the synchronous functions and svc_get_async_results, with a real worker on
// the test model: one row per input in input order, the same bytes as the one-input calls and the async
// path, served from the cache where it can, each input's error in its own row.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';
import { fencedBlocks } from '../helpers/docs.js';
import { eventually, frozenWorker, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let db: pg.Client;
let alice: pg.Client;
let worker: WorkerProcess | undefined;

async function startOne(): Promise<void> {
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '4' });
  await eventually(
    'the worker to heartbeat',
    async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
}

beforeAll(async () => {
  db = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  await startOne();
}, 60_000);
afterAll(async () => {
  await worker?.stop();
});

const PROMPTS = ['Colour of the sky?', 'Colour of grass?', 'Colour of snow?', 'Colour of coal?', 'Colour of blood?'];
const CHOICES = ['blue', 'green', 'white', 'black', 'red'];

test('svc_generate_choice(prompts[]): a row per prompt in order, the bytes of the one-prompt call and of the async path', async () => {
  const set = (
    await alice.query(
      `SELECT ord, result, error FROM svc_generate_choice($1::text[], $2::text[], use_cache := false)`,
      [PROMPTS, CHOICES],
    )
  ).rows;
  expect(set.map((r) => r.ord)).toEqual([1, 2, 3, 4, 5]);
  expect(set.every((r) => r.error === null && CHOICES.includes(r.result))).toBe(true);
  for (const [i, prompt] of PROMPTS.entries()) {
    const one = (
      await alice.query(`SELECT svc_generate_choice($1, $2::text[], use_cache := false) AS out`, [prompt, CHOICES])
    ).rows[0].out;
    const id = (
      await alice.query(`SELECT svc_generate_choice_async($1, $2::text[], use_cache := false) AS id`, [prompt, CHOICES])
    ).rows[0].id;
    const viaAsync = (await alice.query(`SELECT svc_get_async_result($1) AS out`, [id])).rows[0].out;
    expect({ prompt, set: set[i].result }).toEqual({ prompt, set: one });
    expect(viaAsync).toBe(one);
  }
});

test('every set-based form gives what its one-input form gives, in input order', async () => {
  const schema = {
    type: 'object',
    properties: { n: { type: 'integer', minimum: 0, maximum: 9 } },
    required: ['n'],
    additionalProperties: false,
  };
  const forms: Array<[string, string, unknown[]]> = [
    ['svc_generate($1::text[], max_tokens := 12)', 'svc_generate($1, max_tokens := 12, use_cache := false)', []],
    [
      'svc_generate_json($1::text[], $2::jsonb, max_tokens := 40)',
      'svc_generate_json($1, $2::jsonb, max_tokens := 40, use_cache := false)',
      [schema],
    ],
    [
      'svc_generate_regex($1::text[], $2, max_tokens := 20)',
      'svc_generate_regex($1, $2, max_tokens := 20, use_cache := false)',
      ['[a-z]{3}-[0-9]{2}'],
    ],
  ];
  for (const [setCall, oneCall, extra] of forms) {
    const set = (await alice.query(`SELECT ord, result, error FROM ${setCall}`, [PROMPTS, ...extra])).rows;
    expect(set.map((r) => [r.ord, r.error])).toEqual(PROMPTS.map((_, i) => [i + 1, null]));
    for (const [i, prompt] of PROMPTS.entries()) {
      expect((await alice.query(`SELECT ${oneCall} AS out`, [prompt, ...extra])).rows[0].out).toBe(set[i].result);
    }
  }
  const embeddings = (await alice.query(`SELECT ord, embedding, error FROM svc_embed($1::text[])`, [PROMPTS])).rows;
  for (const [i, text] of PROMPTS.entries()) {
    expect((await alice.query(`SELECT svc_embed($1, use_cache := false) AS e`, [text])).rows[0].e).toEqual(
      embeddings[i].embedding,
    );
  }
  const docs = ['Paris is in France', 'Bananas are yellow', 'The sky is blue'];
  const ranked = (
    await alice.query(`SELECT ord, document, score, error FROM svc_rerank($1::text[], $2::text[])`, [
      ['capital of France', 'fruit'],
      docs,
    ])
  ).rows;
  for (const [q, query] of ['capital of France', 'fruit'].entries()) {
    const single = (
      await alice.query(`SELECT document, score FROM svc_rerank($1, $2::text[], use_cache := false)`, [query, docs])
    ).rows;
    expect(ranked.filter((r) => r.ord === q + 1).map(({ document, score }) => ({ document, score }))).toEqual(single);
  }
});

test("an input's error is reported in its row; the others get their results; arguments shared by all are the call's errors", async () => {
  const rows = (
    await alice.query(
      `SELECT ord, result, error FROM svc_generate_choice(ARRAY['Sky?', NULL, '  ', 'Grass?'], $1::text[])`,
      [CHOICES],
    )
  ).rows;
  expect(rows.map((r) => r.ord)).toEqual([1, 2, 3, 4]);
  expect(CHOICES).toContain(rows[0].result);
  expect(rows[1]).toMatchObject({ result: null, error: 'svc_generate_choice: prompts[2] must not be NULL' });
  expect(rows[2]).toMatchObject({ result: null, error: 'svc_generate_choice: prompts[3] must not be empty' });
  expect(CHOICES).toContain(rows[3].result);
  await expect(alice.query(`SELECT * FROM svc_generate_choice(ARRAY['a'], ARRAY['x', 'x'])`)).rejects.toMatchObject({
    code: '22023',
    message: expect.stringMatching(/choices/),
  });
  await expect(alice.query(`SELECT * FROM svc_generate(ARRAY['a'], max_tokens := 0)`)).rejects.toMatchObject({
    code: '22023',
  });
  await expect(alice.query(`SELECT * FROM svc_embed(ARRAY[]::text[])`)).rejects.toMatchObject({
    code: '22023',
    message: 'svc_embed: texts must not be empty',
  });
  await expect(alice.query(`SELECT * FROM svc_embed(array_fill('a'::text, ARRAY[100001]))`)).rejects.toMatchObject({
    code: '54000',
  });
});

test('served from the cache where it can: a second call is all hits, the same bytes; only misses are enqueued', async () => {
  const texts = Array.from({ length: 40 }, (_, i) => `cached text ${i}`);
  const first = (await alice.query(`SELECT embedding FROM svc_embed($1::text[]) ORDER BY ord`, [texts])).rows;
  // Texts in the queue, alone ('embed') or together ('embed_many').
  const queued = async () =>
    Number(
      (
        await db.query(
          `SELECT count(*) AS n FROM svc_queue q, jsonb_array_elements_text(coalesce(q.parameters->'texts', jsonb_build_array(q.parameters->'text_input'))) t
           WHERE t LIKE 'cached text %'`,
        )
      ).rows[0].n,
    );
  const before = await queued();
  const hits = async () => Number((await db.query(`SELECT hits FROM svc_cache_stats()`)).rows[0].hits);
  const hitsBefore = await hits();
  const second = (
    await alice.query(`SELECT embedding FROM svc_embed($1::text[]) ORDER BY ord`, [[...texts, 'one new text']])
  ).rows;
  expect(second.slice(0, 40)).toEqual(first);
  expect((await hits()) - hitsBefore).toBe(40);
  expect((await queued()) - before).toBe(0);
  expect(await queued()).toBe(40);
});

test("svc_embed(texts[]) submits its texts together, up to 64 a request; each text's answer, error and cache entry are its own request's", async () => {
  const texts = Array.from({ length: 70 }, (_, i) => `together ${i}`);
  // Over the worker's context: its request alone fails, its group's others do not.
  texts[5] = 'x'.repeat(10_000);
  const set = (await alice.query(`SELECT ord, embedding, error FROM svc_embed($1::text[])`, [texts])).rows;
  const groups = (
    await db.query(
      `SELECT function_name, inputs, jsonb_array_length(parameters->'texts') AS texts FROM svc_queue
       WHERE parameters->'texts'->>0 = 'together 0' OR parameters->'texts'->>0 = 'together 35' ORDER BY seq`,
    )
  ).rows;
  expect(groups).toEqual([
    // 70 texts: two requests of 35.
    { function_name: 'embed_many', inputs: 35, texts: 35 },
    { function_name: 'embed_many', inputs: 35, texts: 35 },
  ]);
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  const alone = await alice
    .query(`SELECT svc_embed($1, use_cache := false)`, [texts[5]])
    .catch((e: unknown) => e as Error);
  expect(set[5].embedding).toBeNull();
  expect(set[5].error.replace(uuid, 'ID')).toBe((alone as Error).message.replace(uuid, 'ID'));
  expect(set[5].error).toMatch(/^svc_embed: request [0-9a-f-]{36} failed: .*context/);
  // Every other text: its own request's bytes, cached as that request: the per-row call is a hit.
  const hits = async () => Number((await db.query(`SELECT hits FROM svc_cache_stats()`)).rows[0].hits);
  const before = await hits();
  for (const i of [0, 6, 34, 35, 69]) {
    const one = (await alice.query(`SELECT svc_embed($1) AS v`, [texts[i]])).rows[0].v;
    expect({ i, v: set[i].embedding, error: set[i].error }).toEqual({ i, v: one, error: null });
  }
  expect((await hits()) - before).toBe(5);
  const fresh = (await alice.query(`SELECT svc_embed($1, use_cache := false) AS v`, [texts[35]])).rows[0].v;
  expect(fresh).toEqual(set[35].embedding);
  // Its completions are announced as embeddings (svc_completed's function).
  const payload = await db.query(
    `SELECT svc__completed_payload(gen_random_uuid(), 'embed_many', 'completed')::json->>'function' AS f`,
  );
  expect(payload.rows[0].f).toBe('embed');
});

test("a set-based generation submits its prompts together where outputs are short; each prompt's answer, error and cache entry are its own request's", async () => {
  const prompts = Array.from({ length: 100 }, (_, i) => `Prompt together ${i}: the colour is`);
  // Over the worker's context (2,048 tokens): its request alone fails, its group's others do not.
  prompts[3] = `Prompt together 3: ${'x '.repeat(5_000)}`;
  const set = (
    await alice.query(`SELECT ord, result, error FROM svc_generate_choice($1::text[], $2::text[])`, [prompts, CHOICES])
  ).rows;
  const groups = (
    await db.query(
      `SELECT function_name, inputs, parameters->>'function' AS function, grammar IS NOT NULL AS constrained FROM svc_queue
       WHERE parameters->'prompts'->>0 LIKE 'Prompt together %' ORDER BY seq`,
    )
  ).rows;
  // Choices of at most 5 bytes decode at most 6 tokens: up to 64 prompts a request, but at least twice
  // as many requests as the worker's 4 slots: 8 requests, of one size give or take one (docs/sql.md).
  expect(groups).toEqual(
    [13, 13, 13, 13, 12, 12, 12, 12].map((inputs) => ({
      function_name: 'generate_many',
      inputs,
      function: 'generate_choice',
      constrained: true,
    })),
  );
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  const alone = await alice
    .query(`SELECT svc_generate_choice($1, $2::text[], use_cache := false)`, [prompts[3], CHOICES])
    .catch((e: unknown) => e as Error);
  expect(set[3].result).toBeNull();
  expect(set[3].error.replace(uuid, 'ID')).toBe((alone as Error).message.replace(uuid, 'ID'));
  expect(set[3].error).toMatch(/^svc_generate_choice: request [0-9a-f-]{36} failed: .*context/);
  // Every other prompt: its own request's bytes, cached as that request: the per-row call is a hit.
  const hits = async () => Number((await db.query(`SELECT hits FROM svc_cache_stats()`)).rows[0].hits);
  const before = await hits();
  for (const i of [0, 4, 12, 13, 21, 99]) {
    const one = (await alice.query(`SELECT svc_generate_choice($1, $2::text[]) AS out`, [prompts[i], CHOICES])).rows[0]
      .out;
    expect({ i, out: set[i].result, error: set[i].error }).toEqual({ i, out: one, error: null });
  }
  expect((await hits()) - before).toBe(6);
  const fresh = (
    await alice.query(`SELECT svc_generate_choice($1, $2::text[], use_cache := false) AS out`, [prompts[21], CHOICES])
  ).rows[0].out;
  expect(fresh).toBe(set[21].result);
  // The cache entries record how each generation ended, as its own request's would.
  const ends = (
    await db.query(
      `SELECT DISTINCT stop_reason FROM svc_cache WHERE function_name = 'generate_choice' AND result = ANY ($1)`,
      [CHOICES],
    )
  ).rows.map((r) => r.stop_reason);
  expect(ends).toEqual(['end']);
  const payload = await db.query(
    `SELECT svc__completed_payload(gen_random_uuid(), 'generate_many', 'completed')::json->>'function' AS f`,
  );
  expect(payload.rows[0].f).toBe('generate');
});

test('prompts whose outputs may be long go a request each: JSON at the default max_tokens (512)', async () => {
  const prompts = ['Long json a', 'Long json b', 'Long json c'];
  const rows = (
    await alice.query(
      `SELECT ord, error FROM svc_generate_json($1::text[], '{"type":"boolean"}'::jsonb, use_cache := false)`,
      [prompts],
    )
  ).rows;
  expect(rows.map((r) => r.error)).toEqual([null, null, null]);
  const kinds = (
    await db.query(
      `SELECT function_name, count(*)::int AS n FROM svc_queue
       WHERE coalesce(parameters->>'prompt', parameters->'prompts'->>0) LIKE 'Long json %' GROUP BY 1`,
    )
  ).rows;
  expect(kinds).toEqual([{ function_name: 'generate_json', n: 3 }]);
});

test('a request of several texts holds at most 16,384 characters: long texts go fewer to a request', async () => {
  // 1,908 characters each (under the test worker's context of 2,048): 8 to a request.
  const texts = Array.from({ length: 12 }, (_, i) => `long ${String(i).padStart(2, '0')} ${'y'.repeat(1_899)}`);
  const rows = (await alice.query(`SELECT ord, error FROM svc_embed($1::text[], use_cache := false)`, [texts])).rows;
  expect(rows.map((r) => [r.ord, r.error])).toEqual(texts.map((_, i) => [i + 1, null]));
  const sizes = (
    await db.query(
      `SELECT inputs FROM svc_queue WHERE function_name = 'embed_many' AND parameters->'texts'->>0 LIKE 'long %' ORDER BY seq`,
    )
  ).rows.map((r) => r.inputs as number);
  expect(sizes).toEqual([8, 4]);
});

test("a role's quota counts each text of a request of many: a set call under a small quota goes in requests that fit it", async () => {
  await db.query(`SELECT svc_set_role_limits('${ROLES.alice}', 10, NULL)`);
  try {
    const texts = Array.from({ length: 30 }, (_, i) => `quota text ${i}`);
    const rows = (await alice.query(`SELECT ord, error FROM svc_embed($1::text[], use_cache := false)`, [texts])).rows;
    expect(rows.map((r) => [r.ord, r.error])).toEqual(texts.map((_, i) => [i + 1, null]));
    const sizes = (
      await db.query(
        `SELECT inputs FROM svc_queue WHERE function_name = 'embed_many' AND parameters->'texts'->>0 LIKE 'quota text %'`,
      )
    ).rows.map((r) => r.inputs as number);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(30);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
  } finally {
    await db.query(`SELECT svc_set_role_limits('${ROLES.alice}', NULL, NULL)`);
  }
});

test('more inputs than the window (1,000 in the queue at once) in one statement, under REPEATABLE READ too', async () => {
  const texts = Array.from({ length: 1100 }, (_, i) => `window ${i}`);
  const rows = (
    await alice.query(
      `SELECT ord, error, array_length(embedding, 1) AS n FROM svc_embed($1::text[], use_cache := false)`,
      [texts],
    )
  ).rows;
  expect(rows).toHaveLength(1100);
  expect(rows.every((r, i) => r.ord === i + 1 && r.error === null && r.n === 64)).toBe(true);
  await alice.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
  const rr = (
    await alice.query(`SELECT ord, result FROM svc_generate_choice($1::text[], $2::text[], use_cache := false)`, [
      PROMPTS,
      CHOICES,
    ])
  ).rows;
  await alice.query('COMMIT');
  expect(rr.every((r) => CHOICES.includes(r.result))).toBe(true);
}, 120_000);

test('a set call larger than the room in the queue goes through in smaller windows; one that cannot start fails as a one-input call', async () => {
  await alice.query('SET svc.max_queue_size = 3');
  try {
    const rows = (
      await alice.query(`SELECT ord, error FROM svc_embed($1::text[], use_cache := false)`, [
        Array.from({ length: 12 }, (_, i) => `room ${i}`),
      ])
    ).rows;
    expect(rows.map((r) => [r.ord, r.error])).toEqual(Array.from({ length: 12 }, (_, i) => [i + 1, null]));
    // Three requests for a model no worker serves fill the queue (3 of 3) for good.
    await db.query(`SELECT svc_model_declare('unserved')`);
    await db.query(`SET svc.model = 'unserved'`);
    const ids = (await db.query(`SELECT svc_generate_batch_async(ARRAY['x', 'y', 'z']) AS ids`)).rows[0]
      .ids as string[];
    await db.query('RESET svc.model');
    try {
      await expect(alice.query(`SELECT * FROM svc_embed(ARRAY['no room'], use_cache := false)`)).rejects.toMatchObject({
        code: '53400',
      });
    } finally {
      for (const id of ids) await db.query('SELECT svc_cancel_async($1)', [id]);
    }
  } finally {
    await alice.query('RESET svc.max_queue_size');
  }
});

test('svc_get_async_results: one row per id in input order, results and errors in their rows, at once when all are settled', async () => {
  const ids = (await alice.query(`SELECT svc_generate_batch_async($1::text[], max_tokens := 8) AS ids`, [PROMPTS]))
    .rows[0].ids as string[];
  const unknown = '00000000-0000-0000-0000-000000000000';
  const rows = (
    await alice.query(`SELECT ord, request_id, status, result, error FROM svc_get_async_results($1::uuid[], 60)`, [
      [...ids, unknown, ids[0]],
    ])
  ).rows;
  expect(rows.map((r) => [r.ord, r.request_id])).toEqual([...ids, unknown, ids[0]].map((id, i) => [i + 1, id]));
  for (const [i, id] of ids.entries()) {
    expect(rows[i]).toMatchObject({ status: 'completed', error: null });
    expect(rows[i].result).toBe((await alice.query('SELECT svc_get_async_result($1) AS r', [id])).rows[0].r);
  }
  expect(rows[5]).toMatchObject({
    status: null,
    result: null,
    error: `svc_get_async_results: request ${unknown} does not exist or is not visible to the current role`,
  });
  expect(rows[6].result).toBe(rows[0].result);
  // Another role's ids are unknown to bob.
  const bob = await svc().connect(ROLES.bob);
  expect(
    (await bob.query(`SELECT status, error FROM svc_get_async_results($1::uuid[], 0)`, [ids.slice(0, 1)])).rows[0],
  ).toMatchObject({
    status: null,
    error: expect.stringMatching(/does not exist or is not visible/),
  });
});

test("the SQL reference's set-based example labels a table in one statement", async () => {
  const [block] = fencedBlocks('docs/sql.md', 'Set-based calls', 'sql');
  await db.query(`CREATE TABLE tickets (id int PRIMARY KEY, body text, label text);
    INSERT INTO tickets (id, body) VALUES (1, 'The app crashes'), (2, 'How do I log in?'), (3, 'Love it')`);
  for (const statement of block
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean))
    await db.query(statement);
  const labels = (await db.query('SELECT label FROM tickets ORDER BY id')).rows.map((r) => r.label);
  expect(labels.every((l) => ['bug', 'question', 'praise'].includes(l))).toBe(true);
});

describe('with no worker answering', () => {
  // A worker alive to svc but claiming nothing (with none alive, a set call is refused at once: SV006).
  let frozen: { kill(): Promise<void> } | undefined;
  beforeAll(async () => {
    await worker?.stop();
    worker = undefined;
    await db.query(`DELETE FROM svc_workers`);
    frozen = await frozenWorker(svc().cluster, db);
  }, 60_000);
  afterAll(async () => {
    await frozen?.kill();
    await db.query(`DELETE FROM svc_workers`);
    await startOne();
  }, 60_000);

  test('a set call that times out reports it in each row and cancels what it submitted; svc_get_async_results reports the still pending', async () => {
    await alice.query(`SET svc.sync_timeout = '1s'`);
    const rows = (
      await alice.query(
        `SELECT ord, result, error FROM svc_generate_choice($1::text[], $2::text[], use_cache := false)`,
        [['late 1', 'late 2'], CHOICES],
      )
    ).rows;
    await alice.query('RESET svc.sync_timeout');
    expect(rows.map((r) => r.ord)).toEqual([1, 2]);
    for (const r of rows)
      expect(r.error).toMatch(/svc_generate_choice: timed out: no result within 1 s \(svc.sync_timeout\)/);
    expect(
      (
        await db.query(
          `SELECT DISTINCT status FROM svc_queue WHERE coalesce(parameters->>'prompt', parameters->'prompts'->>0) LIKE 'late %'`,
        )
      ).rows,
    ).toEqual([{ status: 'cancelled' }]);
    const id = (await alice.query(`SELECT svc_generate_async('pending one') AS id`)).rows[0].id;
    const pending = (await alice.query(`SELECT status, error FROM svc_get_async_results(ARRAY[$1]::uuid[], 0)`, [id]))
      .rows[0];
    expect(pending).toEqual({
      status: 'pending',
      error: `svc_get_async_results: timed out after 0 s: request ${id} is still pending`,
    });
    await alice.query('SELECT svc_cancel_async($1)', [id]);
  });
});
