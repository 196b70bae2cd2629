// Limits across roles with a real worker (#43): an ordinary role that floods the queue at the highest
// priority stops at its quota whatever its session sets, and another role's synchronous call still
// gets through, behind at most that quota's work.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'120s'" } });
let worker: WorkerProcess;

afterAll(async () => {
  await worker?.stop();
});

test("a role flooding at priority 100 stops at its quota, whatever its session sets; another role's sync call gets through", async () => {
  const su = await svc().connect();
  const eve = await svc().connect(ROLES.alice);
  const bob = await svc().connect(ROLES.bob);
  const admin = await svc().connect(ROLES.admin);
  await admin.query(`SELECT svc_set_role_limits('alice', 20)`);
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '1' });
  await eventually(
    'the worker to run',
    async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );

  await eve.query(`SET svc.max_queue_size = 100000000`);
  const flood = `SELECT svc_generate_batch_async(array_fill('flood'::text, ARRAY[20]), max_tokens := 300, use_cache := false, priority := 100)`;
  await eve.query(flood);
  // Her next batch, single calls and sync calls are refused, and nothing of them is written.
  for (const sql of [
    flood,
    `SELECT svc_generate_async('more', priority := 100)`,
    `SELECT svc_embed_batch_async(ARRAY['x', 'y'])`,
  ]) {
    await expect(eve.query(sql)).rejects.toMatchObject({
      code: '53400',
      message: expect.stringContaining('role "alice" has reached its quota of requests'),
    });
  }
  // Settings, SET ROLE and direct writes do not raise it.
  await expect(eve.query(`SELECT svc_set_role_limits('alice', 100000)`)).rejects.toMatchObject({ code: '42501' });
  await expect(eve.query(`UPDATE svc_role_limits SET max_pending = 100000`)).rejects.toMatchObject({ code: '42501' });
  await expect(eve.query(`SET ROLE bob`)).rejects.toMatchObject({ code: '42501' });
  expect(Number((await su.query(`SELECT count(*) AS n FROM svc_queue WHERE owner = 'alice'::regrole`)).rows[0].n)).toBe(
    20,
  );

  // bob's synchronous call is answered (it queues behind eve's 20 at the same priority, no more).
  const answer = (await bob.query(`SELECT svc_generate('bob asks', max_tokens := 4, use_cache := false) AS r`)).rows[0]
    .r as string;
  expect(answer.length).toBeGreaterThan(0);
  // Once her requests finish, eve may submit again.
  await eve.query(`SELECT svc_cancel_async(request_id) FROM svc_queue WHERE status IN ('pending', 'processing')`);
  await eve.query(`SELECT svc_generate_async('after', max_tokens := 4)`);
}, 180_000);

test("a vectorizer's jobs count against its owner's quotas: a backfill past them is refused, one within them leaves room for the others", async () => {
  const su = await svc().connect();
  const bob = await svc().connect(ROLES.bob);
  const alice = await svc().connect(ROLES.alice);
  await su.query(`CREATE SCHEMA bob AUTHORIZATION ${ROLES.bob}`);
  await (await svc().connect(ROLES.admin)).query(`SELECT svc_set_role_limits('alice', NULL, NULL)`); // the first test's
  worker ??= startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '1' });
  await eventually(
    'the worker to run',
    async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
  // 12,000 one-word rows, one job each: past bob's default quota (5,000), so the declaration is refused whole.
  await bob.query(
    `CREATE TABLE bob.words (id integer PRIMARY KEY, body text); INSERT INTO bob.words SELECT i, 'word' || i FROM generate_series(1, 12000) i`,
  );
  await expect(bob.query(`SELECT svc_vectorize('bob.words', 'body', 'words', batch_size := 1)`)).rejects.toMatchObject({
    code: '53400',
    // The backfill queues its rows 5,000 at a time: the second part finds the first's 5,000 jobs.
    message:
      'vectorizer words: role "bob" has reached its quota of requests (5000 pending or processing, max_pending = 5000; 5000 submitted, 0 would fit)',
  });
  expect(
    Number(
      (
        await su.query(
          `SELECT count(*) AS n FROM svc_queue WHERE owner = 'bob'::regrole AND function_name = 'vectorize'`,
        )
      ).rows[0].n,
    ),
  ).toBe(0);
  expect(Number((await su.query(`SELECT count(*) AS n FROM svc_vectorizers`)).rows[0].n)).toBe(0);
  // In jobs of 3 rows it fits (4,000 jobs), and what is left of the queue is the others': alice submits and is answered.
  expect((await bob.query(`SELECT svc_vectorize('bob.words', 'body', 'words', batch_size := 3) AS n`)).rows[0].n).toBe(
    '12000',
  );
  expect(
    Number(
      (
        await su.query(
          `SELECT count(*) AS n FROM svc_queue WHERE owner = 'bob'::regrole AND status IN ('pending', 'processing')`,
        )
      ).rows[0].n,
    ),
  ).toBeGreaterThan(3000);
  const ids = (
    await alice.query(`SELECT svc_generate_batch_async(array_fill('alice'::text, ARRAY[100]), max_tokens := 2) AS ids`)
  ).rows[0].ids;
  expect(ids).toHaveLength(100);
  expect(
    (await alice.query(`SELECT svc_generate('alice asks', max_tokens := 4, use_cache := false) AS r`)).rows[0].r.length,
  ).toBeGreaterThan(0);
  // Bob's next writes beyond his quota fail, naming the vectorizer; his writes within it go on.
  await expect(
    bob.query(`INSERT INTO bob.words SELECT i, 'more' || i FROM generate_series(20001, 26000) i`),
  ).rejects.toMatchObject({
    code: '53400',
    message: expect.stringContaining('vectorizer words: role "bob" has reached its quota of requests'),
  });
  await bob.query(`INSERT INTO bob.words VALUES (30000, 'one more')`);
  await bob.query(`SELECT svc_vectorize_drop('words')`);
}, 180_000);
