// Issue #52: no role's objects or open transactions stall svc for anyone else. An ordinary role `eve`
// holds, in transactions she leaves open, everything she can: her vectorizer's destination (she owns
// its schema, so she may drop it), rows her write to the source queued, a processing request of hers
// she cancelled, a cache entry her hit bumped; she puts a sleeping trigger on her source and tries one
// on her destination. Meanwhile alice's calls are answered and the worker keeps heartbeating; eve's
// own rows fail with the message. Every wait here is on a state (a call returned, a row changed),
// never on a time.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, heardFrom, startWorker, type WorkerProcess } from '../helpers/worker.js';
import { STORIES_MODEL } from '../helpers/real-models.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let db: pg.Client;
let eve: pg.Client;
let eveHolds: pg.Client;
let alice: pg.Client;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  db = await svc().connect();
  await db.query(`CREATE ROLE eve LOGIN; CREATE SCHEMA eve AUTHORIZATION eve`);
  eve = await svc().connect('eve');
  eveHolds = await svc().connect('eve');
  alice = await svc().connect(ROLES.alice);
  // No retries: a job that fails fails for good, and its rows say why.
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2', SVC_WORKER_MAX_RETRIES: '0' }, STORIES_MODEL);
  await eventually(
    'the worker to heartbeat',
    async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
}, 60_000);
afterAll(async () => {
  await worker?.stop();
});

const lastHeartbeat = async (): Promise<Date> =>
  (await db.query(`SELECT max(last_heartbeat) AS t FROM svc_workers`)).rows[0].t;

/** While `hold` is in force: alice's uncached call is answered, and the worker heartbeats after it. */
async function othersServed(what: string): Promise<void> {
  const before = await lastHeartbeat();
  const answer = (
    await alice.query(`SELECT svc_generate($1, max_tokens := 8, use_cache := false) AS r`, [`Once upon a time ${what}`])
  ).rows[0].r;
  expect(typeof answer).toBe('string');
  await eventually(`a heartbeat while ${what}`, async () => (await lastHeartbeat()) > before);
}

const status = async (name: string) =>
  (
    await eve.query<{ rows_pending: string; rows_done: string; rows_failed: string; last_error: string | null }>(
      `SELECT * FROM svc_vectorizer_status() WHERE name = $1`,
      [name],
    )
  ).rows[0];

test("eve's destination locked by her open transaction: her rows fail with the lock's message, everyone else is served", async () => {
  await eve.query(
    `CREATE TABLE eve.locked (id integer PRIMARY KEY, body text); INSERT INTO eve.locked VALUES (1, 'first')`,
  );
  await eve.query(`SELECT svc_vectorize('eve.locked', 'body', 'locked')`);
  await eventually('the backfill', async () => Number((await status('locked')).rows_done) === 1);
  // She owns the schema, so she may drop svc's table: in a transaction she leaves open, it stays locked.
  await eveHolds.query(`BEGIN; DROP TABLE eve.locked_chunks`);
  try {
    await eve.query(`UPDATE eve.locked SET body = 'second'`);
    await othersServed('the destination is locked');
    const failed = await eventually('her row to fail', async () => {
      const s = await status('locked');
      return Number(s.rows_failed) === 1 ? s : undefined;
    });
    expect(failed.last_error).toMatch(/lock timeout/);
  } finally {
    await eveHolds.query('ROLLBACK');
  }
  // Let go, her next write is embedded as ever.
  await eve.query(`UPDATE eve.locked SET body = 'third'`);
  await eventually('her row to be embedded', async () => Number((await status('locked')).rows_done) === 1);
  expect((await eve.query(`SELECT chunk FROM eve.locked_chunks`)).rows).toEqual([{ chunk: 'third' }]);
}, 180_000);

test('rows of her source held by her open write: the job that embeds their older version fails after the lock timeout, not the worker', async () => {
  await eve.query(`CREATE TABLE eve.held (id integer PRIMARY KEY, body text)`);
  await eve.query(`SELECT svc_vectorize('eve.held', 'body', 'held')`);
  await worker!.stop();
  await eve.query(`INSERT INTO eve.held VALUES (1, 'held first')`);
  // Her second write, left open, holds the row's svc_vectorizer_rows entry (its upsert) while the first job completes.
  await eveHolds.query(`BEGIN; UPDATE eve.held SET body = 'held second'`);
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2', SVC_WORKER_MAX_RETRIES: '0' }, STORIES_MODEL);
  try {
    await heardFrom(db);
    await othersServed('a source row is held');
    const job = await eventually('the first job to fail', async () => {
      const r = (
        await db.query(
          `SELECT status, error FROM svc_queue WHERE function_name = 'vectorize' AND parameters->'items'->0->>'text' = 'held first'`,
        )
      ).rows[0];
      return r?.status === 'failed' ? r : undefined;
    });
    expect(job.error).toMatch(/could not write the chunks within the vectorizer's timeouts .*lock timeout/);
  } finally {
    await eveHolds.query('COMMIT');
  }
  // Her committed write queued the second version, which is embedded.
  await eventually(
    'the second version',
    async () => (await eve.query(`SELECT chunk FROM eve.held_chunks`)).rows[0]?.chunk === 'held second',
  );
  expect(await status('held')).toMatchObject({ rows_done: '1', rows_failed: '0' });
}, 180_000);

test('her cancel of a running request, left uncommitted, holds up no completion, renewal or claim of anyone else', async () => {
  const id = (
    await eve.query(`SELECT svc_generate_async('Once upon a time', max_tokens := 400, use_cache := false) AS id`)
  ).rows[0].id;
  await eventually(
    'her request to run',
    async () =>
      (await eve.query(`SELECT status FROM svc_queue WHERE request_id = $1`, [id])).rows[0].status === 'processing',
  );
  await eveHolds.query('BEGIN');
  await eveHolds.query(`SELECT svc_cancel_async($1)`, [id]);
  try {
    // Its completion does not wait for her: refused at once, while her transaction is still open.
    await eventually('her completion refused', async () =>
      worker!.logs.some((l) => l.includes('completion refused') && l.includes(id)),
    );
    for (let i = 0; i < 3; i++) await othersServed(`her cancel is open (${i})`);
  } finally {
    await eveHolds.query('COMMIT');
  }
  await eventually(
    'her request cancelled',
    async () =>
      (await eve.query(`SELECT status FROM svc_queue WHERE request_id = $1`, [id])).rows[0].status === 'cancelled',
  );
}, 180_000);

test("her cache hit, left uncommitted, holds up nobody's call of the same request", async () => {
  const prompt = 'Once upon a time there was a cat';
  const first = (await alice.query(`SELECT svc_generate($1, max_tokens := 8) AS r`, [prompt])).rows[0].r;
  // Her hit bumps the entry's row in her transaction, which she leaves open.
  await eveHolds.query('BEGIN');
  await eveHolds.query(`SELECT svc_generate($1, max_tokens := 8)`, [prompt]);
  try {
    expect((await alice.query(`SELECT svc_generate($1, max_tokens := 8) AS r`, [prompt])).rows[0].r).toBe(first);
    await othersServed('her hit is open');
  } finally {
    await eveHolds.query('COMMIT');
  }
}, 120_000);

test('a sleeping trigger of hers slows only her own writes; she cannot put one where svc writes', async () => {
  await eve.query(`CREATE TABLE eve.slow (id integer PRIMARY KEY, body text);
    CREATE FUNCTION eve.nap() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(3600); RETURN NEW; END $$`);
  await eve.query(`SELECT svc_vectorize('eve.slow', 'body', 'slow')`);
  await expect(
    eve.query(`CREATE TRIGGER nap BEFORE INSERT ON eve.slow_chunks FOR EACH ROW EXECUTE FUNCTION eve.nap()`),
  ).rejects.toMatchObject({
    code: '42501',
  });
  await expect(
    eve.query(
      `CREATE CONSTRAINT TRIGGER nap AFTER INSERT ON eve.slow_chunks DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION eve.nap()`,
    ),
  ).rejects.toMatchObject({ code: '42501' });
  await eve.query(`CREATE TRIGGER nap BEFORE INSERT ON eve.slow FOR EACH ROW EXECUTE FUNCTION eve.nap()`);
  const pid = (await eveHolds.query(`SELECT pg_backend_pid() AS pid`)).rows[0].pid;
  const sleeping = eveHolds.query(`INSERT INTO eve.slow VALUES (1, 'zzz')`).catch((error: unknown) => error);
  try {
    await eventually(
      'her insert to sleep',
      async () =>
        (await db.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event = 'PgSleep'`, [pid])).rows
          .length > 0,
    );
    await othersServed('her trigger sleeps');
  } finally {
    await db.query(`SELECT pg_cancel_backend($1)`, [pid]);
    expect(await sleeping).toMatchObject({ code: '57014' });
  }
}, 120_000);
