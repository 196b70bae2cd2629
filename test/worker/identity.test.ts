// Issue #52: what a role owns in svc belongs to its oid, never its name. A role dropped and made again
// under the same name inherits none of the old one's requests, prompts, quotas or vectorizers; what
// the old one left is cancelled or deleted by the workers' cleanup, and its vectorizers are for an
// administrator to drop. svc_vectorize_drop never deadlocks with a worker completing the same
// vectorizer's jobs, and a role's vectorizers in two databases each drop cleanly.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';
import { STORIES_MODEL } from '../helpers/real-models.js';

const svc = useSvc();
let su: pg.Client;
let admin: pg.Client;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  su = await svc().connect();
  admin = await svc().connect(ROLES.admin);
});
afterAll(async () => {
  await worker?.stop();
});

const oidOf = async (role: string): Promise<string> =>
  (await su.query(`SELECT oid::text FROM pg_roles WHERE rolname = $1`, [role])).rows[0].oid;

test("a role made again under a dropped role's name inherits nothing; the cleanup cancels and deletes what the old one left", async () => {
  await su.query(`CREATE ROLE mallory LOGIN; CREATE SCHEMA mallory AUTHORIZATION mallory`);
  const first = await svc().connect('mallory');
  const firstOid = await oidOf('mallory');
  await first.query(
    `CREATE TABLE mallory.notes (id integer PRIMARY KEY, body text); INSERT INTO mallory.notes VALUES (1, 'a note')`,
  );
  await first.query(`SELECT svc_vectorize('mallory.notes', 'body', 'notes')`);
  const ids = (await first.query(`SELECT svc_generate_batch_async(ARRAY['one', 'two'], max_tokens := 4) AS ids`))
    .rows[0].ids as string[];
  await first.query(`SELECT svc_prompt_create('greeting', 'Hello {{name}}')`);
  await admin.query(`SELECT svc_set_role_limits('mallory', 7)`);
  // Refused while svc's destination is granted to it, naming the table.
  await expect(su.query(`DROP ROLE mallory`)).rejects.toMatchObject({
    code: '2BP01',
    detail: expect.stringContaining('mallory.notes_chunks'),
  });
  await first.end();
  await su.query(`REASSIGN OWNED BY mallory TO postgres; DROP OWNED BY mallory; DROP ROLE mallory`);

  await su.query(`CREATE ROLE mallory LOGIN`);
  expect(await oidOf('mallory')).not.toBe(firstOid);
  const again = await svc().connect('mallory');
  expect((await again.query(`SELECT count(*)::int AS n FROM svc_queue`)).rows[0].n).toBe(0);
  await expect(again.query(`SELECT svc_get_async_result($1, timeout_seconds := 1)`, [ids[0]])).rejects.toMatchObject({
    code: 'SV004',
  });
  expect(await again.query(`SELECT svc_cancel_async($1) AS c`, [ids[0]])).toMatchObject({ rows: [{ c: false }] });
  expect((await again.query(`SELECT * FROM svc_prompt_list()`)).rows).toEqual([]);
  expect((await again.query(`SELECT * FROM svc_vectorizer_status()`)).rows).toEqual([]);
  expect((await again.query(`SELECT max_pending FROM svc_queue_limits()`)).rows[0].max_pending).toBe('5000');
  await expect(again.query(`SELECT svc_vectorize_drop('notes')`)).rejects.toMatchObject({ code: '42704' });
  await expect(again.query(`SELECT * FROM svc_search('notes', 'a note')`)).rejects.toMatchObject({ code: '42704' });

  // The workers' cleanup: the old role's requests are cancelled, its prompts and quotas deleted.
  const w = await svc().connect(ROLES.worker);
  await w.query(`SELECT svc_worker_cleanup()`);
  expect((await su.query(`SELECT status, error FROM svc_queue WHERE request_id = ANY ($1)`, [ids])).rows).toEqual(
    ids.map(() => ({ status: 'cancelled', error: 'cancelled: the role that submitted it was dropped' })),
  );
  expect(
    (await su.query(`SELECT count(*)::int AS n FROM svc_prompts WHERE owner::oid = $1`, [firstOid])).rows[0].n,
  ).toBe(0);
  expect(
    (await su.query(`SELECT count(*)::int AS n FROM svc_role_limits WHERE role_name::oid = $1`, [firstOid])).rows[0].n,
  ).toBe(0);
  // Its vectorizer queues nothing any more, and an administrator drops it with its proxy.
  await su.query(`INSERT INTO mallory.notes VALUES (2, 'another')`);
  expect(
    (
      await su.query(
        `SELECT count(*)::int AS n FROM svc_queue WHERE function_name = 'vectorize' AND status = 'pending'`,
      )
    ).rows[0].n,
  ).toBe(0);
  expect((await admin.query(`SELECT name FROM svc_vectorizer_status()`)).rows).toEqual([{ name: 'notes' }]);
  await admin.query(`SELECT svc_vectorize_drop('notes')`);
  expect(
    (await su.query(`SELECT count(*)::int AS n FROM pg_roles WHERE rolname = $1`, [`svc_vectorizer_${firstOid}`]))
      .rows[0].n,
  ).toBe(0);
  expect(
    (
      await su.query(
        `SELECT count(*)::int AS n FROM pg_trigger WHERE tgrelid = 'mallory.notes'::regclass AND NOT tgisinternal`,
      )
    ).rows[0].n,
  ).toBe(0);
});

test("a role's vectorizers in two databases each drop cleanly; its proxy goes with the last", async () => {
  await su.query(`CREATE ROLE trent LOGIN`);
  await su.query(`CREATE DATABASE second`);
  const other = await svc().cluster.connect('second', svc().cluster.user);
  try {
    await other.query(`CREATE EXTENSION svc CASCADE; CREATE SCHEMA trent AUTHORIZATION trent`);
    await su.query(`CREATE SCHEMA trent AUTHORIZATION trent`);
    const here = await svc().connect('trent');
    const there = await svc().cluster.connect('second', 'trent');
    try {
      for (const c of [here, there]) {
        await c.query(`CREATE TABLE trent.t (id integer PRIMARY KEY, body text); INSERT INTO trent.t VALUES (1, 'x')`);
        await c.query(`SELECT svc_vectorize('trent.t', 'body', 't')`);
      }
      const proxy = `svc_vectorizer_${await oidOf('trent')}`;
      await here.query(`SELECT svc_vectorize_drop('t')`);
      expect((await su.query(`SELECT count(*)::int AS n FROM pg_roles WHERE rolname = $1`, [proxy])).rows[0].n).toBe(1);
      await there.query(`INSERT INTO trent.t VALUES (2, 'y')`); // its vectorizer there still works
      await there.query(`SELECT svc_vectorize_drop('t')`);
      expect((await su.query(`SELECT count(*)::int AS n FROM pg_roles WHERE rolname = $1`, [proxy])).rows[0].n).toBe(0);
    } finally {
      await there.end();
    }
  } finally {
    await other.end();
  }
});

test("svc_vectorize_drop never deadlocks with a worker completing the same vectorizer's jobs", async () => {
  await su.query(`CREATE ROLE victor LOGIN; CREATE SCHEMA victor AUTHORIZATION victor`);
  const victor = await svc().connect('victor');
  await victor.query(
    `CREATE TABLE victor.t (id integer PRIMARY KEY, body text); INSERT INTO victor.t SELECT i, 'row number ' || i FROM generate_series(1, 400) i`,
  );
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '4' }, STORIES_MODEL);
  await eventually(
    'the worker to heartbeat',
    async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
  for (let round = 0; round < 5; round++) {
    await victor.query(`SELECT svc_vectorize('victor.t', 'body', 'churn', batch_size := 2)`);
    // Some of its jobs done, others running or claimed ahead: drop it while the worker completes them.
    await eventually(
      'some rows embedded',
      async () => Number((await victor.query(`SELECT rows_done FROM svc_vectorizer_status()`)).rows[0].rows_done) > 10,
    );
    await victor.query(`SELECT svc_vectorize_drop('churn')`);
    expect((await victor.query(`SELECT count(*)::int AS n FROM svc_vectorizers`)).rows[0].n).toBe(0);
  }
  // The worker went on: what it completed after a drop wrote nothing.
  await eventually(
    'the queue to drain',
    async () =>
      (await su.query(`SELECT count(*)::int AS n FROM svc_queue WHERE status IN ('pending', 'processing')`)).rows[0]
        .n === 0,
  );
  expect((await su.query(`SELECT count(*)::int AS n FROM pg_class WHERE relname = 'churn_chunks'`)).rows[0].n).toBe(0);
}, 180_000);
