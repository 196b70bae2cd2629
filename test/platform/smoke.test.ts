// svc end to end on whichever PostgreSQL and plv8 handler pg_config names: the suite runs it on the
// system's PostgreSQL 15 with plv8-compat, and scripts/platform/legs.sh on the other legs (the
// genuine plv8 3.2.2, PostgreSQL 18), telling it which through SVC_EXPECT_PG and SVC_EXPECT_PLV8 so
// a leg that quietly ran on the wrong server or handler fails. With a real worker as an ordinary
// role: a sync and an async generation (the same text), an embedding, errors with their SQLSTATE
// (the one error shape both handlers read), and where pgvector is installed the documented ::vector
// casts and a vectorizer into a vector(n) destination searched through an HNSW index.
import type pg from 'pg';
import { STORIES_MODEL } from '../../scripts/real-models.js';
import { REQUEST_LOCK } from '../../src/queue/locks.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let db: pg.Client;
let alice: pg.Client;
let bob: pg.Client;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  db = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  bob = await svc().connect(ROLES.bob);
  worker = startWorker(svc().cluster, {}, STORIES_MODEL);
  await eventually(
    'the worker to heartbeat',
    async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
}, 60_000);
afterAll(async () => {
  await worker?.stop();
});

test('the server and the plv8 handler are the ones the leg names', async () => {
  const { rows } = await db.query(`SELECT current_setting('server_version_num')::int / 10000 AS major,
    (SELECT extversion FROM pg_extension WHERE extname = 'plv8') AS plv8`);
  // plv8-compat reports itself as 3.2.3; the genuine plv8 vendored for the tests is 3.2.2.
  const handler = rows[0].plv8 === '3.2.2' ? 'genuine' : 'compat';
  if (process.env.SVC_EXPECT_PG) expect(rows[0].major).toBe(Number(process.env.SVC_EXPECT_PG));
  if (process.env.SVC_EXPECT_PLV8) expect(handler).toBe(process.env.SVC_EXPECT_PLV8);
  expect(['3.2.2', '3.2.3']).toContain(rows[0].plv8);
});

test('an ordinary role generates (sync and async give the same text) and embeds through the worker', async () => {
  const sync = (await alice.query(`SELECT svc_generate('Once upon a time', max_tokens := 12, use_cache := false) AS t`))
    .rows[0].t;
  expect(typeof sync).toBe('string');
  expect(sync.length).toBeGreaterThan(0);
  const id = (
    await alice.query(`SELECT svc_generate_async('Once upon a time', max_tokens := 12, use_cache := false) AS id`)
  ).rows[0].id;
  const result = await eventually('the async result', async () => {
    const { rows } = await alice.query(`SELECT status, result FROM svc_check_async($1)`, [id]);
    return rows[0].status === 'completed' ? rows[0].result : undefined;
  });
  expect(result).toBe(sync);
  const embedding = (await alice.query(`SELECT svc_embed('a cat') AS e`)).rows[0].e as number[];
  expect(embedding.length).toBeGreaterThan(0);
  expect(embedding.every((x) => Number.isFinite(x))).toBe(true);
});

test("a waiting call whose wait on the worker's lock times out (lock_timeout, caught in the handler) reads again and answers", async () => {
  // bob holds the key of alice's request (any role may take advisory locks), so her call finds the lock
  // held and waits on it, a second at most a wait, then reads the state again; the worker is paused
  // until she has waited, so that only a wait's timeout can have let her read the answer.
  const child = worker!.child;
  child.kill('SIGSTOP');
  let id = '';
  try {
    id = (
      await alice.query(`SELECT svc_generate_async('Once upon a time', max_tokens := 12, use_cache := false) AS id`)
    ).rows[0].id;
    await bob.query('SELECT pg_advisory_lock($1, hashtext($2::text))', [REQUEST_LOCK, id]);
    const started = Date.now();
    const call = alice.query('SELECT svc_get_async_result($1, 30) AS text', [id]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    child.kill('SIGCONT');
    const { text } = (await call).rows[0];
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(text).toBe((await alice.query(`SELECT result FROM svc_check_async($1)`, [id])).rows[0].result);
    expect((await alice.query('SHOW lock_timeout')).rows[0].lock_timeout).toBe('0');
  } finally {
    child.kill('SIGCONT');
    await bob.query('SELECT pg_advisory_unlock_all()');
  }
});

test.each([
  [
    'svc_generate_async',
    `SELECT svc_generate_async('x', max_tokens := 0)`,
    '22023',
    /svc_generate_async: max_tokens must be/,
  ],
  [
    'svc_search',
    `SELECT * FROM svc_search('no such vectorizer', 'x')`,
    '42704',
    /svc_search: name "no such vectorizer" is no vectorizer of role alice/,
  ],
  [
    'svc_get_async_result',
    `SELECT svc_get_async_result('00000000-0000-0000-0000-000000000000', 1)`,
    'SV004',
    /does not exist or is not visible/,
  ],
])('%s: a bad call raises its SQLSTATE under either handler', async (_fn, sql, code, message) => {
  await expect(alice.query(sql)).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
});

test('with pgvector (where installed): a vector(n) destination searched through an HNSW index', async () => {
  const available = (await db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rows.length > 0;
  if (!available) {
    console.warn('pgvector is not installed in this PostgreSQL: its part of the smoke test is not run');
    return;
  }
  await db.query(`CREATE EXTENSION IF NOT EXISTS vector; CREATE SCHEMA smoke AUTHORIZATION ${ROLES.alice}`);
  // The casts docs/sql.md shows: an embedding's real[] to vector, an async embedding's text to vector.
  const cast = (await alice.query(`SELECT (svc_embed('a cat')::vector)::real[] AS v, svc_embed('a cat') AS r`)).rows[0];
  expect(cast.v).toEqual(cast.r);
  const id = (await alice.query(`SELECT svc_embed_async('a cat') AS id`)).rows[0].id;
  expect((await alice.query(`SELECT (svc_get_async_result($1, 30)::vector)::real[] AS v`, [id])).rows[0].v).toEqual(
    cast.r,
  );
  await alice.query(`CREATE TABLE smoke.notes (id integer PRIMARY KEY, body text);
    INSERT INTO smoke.notes SELECT i, 'A note about the number ' || i FROM generate_series(1, 8) i`);
  const dims = (await alice.query(`SELECT cardinality(svc_embed('x')) AS n`)).rows[0].n;
  await alice.query(`SELECT svc_vectorize('smoke.notes', 'body', 'notes', dimensions := ${dims})`);
  await eventually(
    'the backfill',
    async () =>
      (await alice.query(`SELECT rows_pending FROM svc_vectorizer_status() WHERE name = 'notes'`)).rows[0]
        .rows_pending === '0',
  );
  const type = (
    await alice.query(
      `SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = 'smoke.notes_chunks'::regclass AND attname = 'embedding'`,
    )
  ).rows[0].t;
  expect(type).toBe(`vector(${dims})`);
  // svc built the HNSW index the dimension allows (the destination is svc's: alice may not index it).
  expect(
    (
      await alice.query(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = 'smoke' AND tablename = 'notes_chunks' AND indexdef LIKE '%USING hnsw%'`,
      )
    ).rows,
  ).toHaveLength(1);
  const found = (await alice.query(`SELECT key, distance FROM svc_search('notes', 'A note about the number 5', 3)`))
    .rows;
  expect(found[0].key).toEqual({ id: 5 });
  expect(found[0].distance).toBeLessThan(1e-6);
  expect(
    (await alice.query(`SELECT (embedding::real[]) = svc_embed(chunk) AS same FROM smoke.notes_chunks WHERE id = 3`))
      .rows[0].same,
  ).toBe(true);
});
