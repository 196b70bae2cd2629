// Waking a waiting call without polling (#47): a worker holds an advisory lock on each request it has
// claimed until the request's outcome has committed, and a call waiting for a running request waits on
// that lock, not in a loop of sleeps and reads. Seen from outside: while the request runs, the
// caller's backend waits on an advisory lock (pg_stat_activity), the worker's claim connection holds
// the request's lock (pg_locks), and the answer is the one the request produces. A lock of the same
// key held by another role, or a worker killed while it holds one, delays the answer, never changes it.
import type pg from 'pg';
import { REQUEST_LOCK } from '../../src/queue/locks.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, heardFrom, workerSet } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.retry_backoff': "'0'" } });
let su: pg.Client;
let alice: pg.Client;
let bob: pg.Client;
const workers = workerSet(() => svc().cluster, { SVC_WORKER_CONCURRENCY: '1' });
const start = workers.start;

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  bob = await svc().connect(ROLES.bob);
});
afterEach(async () => {
  await workers.killAll();
  await su.query('DELETE FROM svc_queue');
});

// Tokens the test model generates for a prompt it does not end early: a second or more on one thread.
const LONG = 1500;
const pidOf = async (client: pg.Client) => Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
const processing = async (prompt: string) =>
  eventually('the request to be claimed', async () => {
    const { rows } = await su.query(
      `SELECT request_id FROM svc_queue WHERE status = 'processing' AND parameters->>'prompt' = $1`,
      [prompt],
    );
    return rows[0]?.request_id as string | undefined;
  });
/** The backends holding request `id`'s lock (the worker's claim connection), by application_name. */
const lockHolders = async (id: string) =>
  (
    await su.query(
      `SELECT a.application_name, l.mode FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.classid::bigint = $1 AND l.objid::bigint = (hashtext($2::text)::bigint & 4294967295) AND l.objsubid = 2`,
      [REQUEST_LOCK, id],
    )
  ).rows;
/** What the caller's backend is waiting on, sampled while the request runs. */
async function waitEvents(pid: number, id: string): Promise<string[]> {
  const seen: string[] = [];
  for (;;) {
    const { rows } = await su.query(
      `SELECT (SELECT status FROM svc_queue WHERE request_id = $2) AS status, a.wait_event_type, a.wait_event FROM pg_stat_activity a WHERE a.pid = $1`,
      [pid, id],
    );
    if (rows[0]?.status !== 'processing') return seen;
    seen.push(`${rows[0].wait_event_type}/${rows[0].wait_event}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test("a sync call waits on the running request's lock, held by the worker until its result has committed", async () => {
  start();
  await heardFrom(su);
  const callerPid = await pidOf(alice);
  const call = alice.query(`SELECT svc_generate('wake me', max_tokens := $1, use_cache := false) AS text`, [LONG]);
  const id = await processing('wake me');
  expect(await lockHolders(id)).toEqual([expect.objectContaining({ mode: 'ExclusiveLock' })]);
  const events = await waitEvents(callerPid, id);
  const { text } = (await call).rows[0];
  // Some samples fall between two statements of the call, and the first may find it in the pause it
  // began before the claim; once it waits on the lock, it never sleeps again.
  expect(events.filter((e) => e === 'Lock/advisory').length).toBeGreaterThan(events.length / 2);
  expect(events.slice(events.indexOf('Lock/advisory'))).not.toContain('Timeout/PgSleep');
  // The lock is let go once the outcome has committed, and the answer is the request's own.
  await eventually('the worker to let the lock go', async () => (await lockHolders(id)).length === 0);
  expect(text).toBe((await su.query('SELECT result FROM svc_queue WHERE request_id = $1', [id])).rows[0].result);
}, 60_000);

test('svc_get_async_result waits on the lock of a running request too', async () => {
  start();
  const id = (
    await alice.query(`SELECT svc_generate_async('wake me', max_tokens := $1, use_cache := false) AS id`, [LONG])
  ).rows[0].id as string;
  await processing('wake me');
  const callerPid = await pidOf(alice);
  const call = alice.query('SELECT svc_get_async_result($1, 60) AS text', [id]);
  const events = await waitEvents(callerPid, id);
  expect(events.filter((e) => e === 'Lock/advisory').length).toBeGreaterThan(events.length / 2);
  expect((await call).rows[0].text).toBe(
    (await su.query('SELECT result FROM svc_queue WHERE request_id = $1', [id])).rows[0].result,
  );
}, 60_000);

test("another role holding a request's lock key delays the caller's answer, never changes or loses it", async () => {
  // Bob takes the key of alice's next request before any worker runs: the worker then cannot take it,
  // and alice's call, finding it held by a session that is not running her request, waits at most a
  // second at a time and reads again.
  const first = (await alice.query(`SELECT svc_generate_async('held key', max_tokens := 64, use_cache := false) AS id`))
    .rows[0].id as string;
  await bob.query(`SELECT pg_advisory_lock($1, hashtext($2::text))`, [REQUEST_LOCK, first]);
  try {
    start();
    const text = (await alice.query('SELECT svc_get_async_result($1, 30) AS text', [first])).rows[0].text as string;
    expect(text).toBe((await su.query('SELECT result FROM svc_queue WHERE request_id = $1', [first])).rows[0].result);
    expect(text.length).toBeGreaterThan(0);
  } finally {
    await bob.query('SELECT pg_advisory_unlock_all()');
  }
}, 60_000);

test('a worker killed while it holds a lock wakes the caller, whose request another worker then answers', async () => {
  const first = start({ SVC_WORKER_LEASE: '1' });
  await heardFrom(su);
  const call = alice.query(`SELECT svc_generate('killed under me', max_tokens := $1, use_cache := false) AS text`, [
    LONG,
  ]);
  const id = await processing('killed under me');
  await eventually('the worker to hold its lock', async () => (await lockHolders(id)).length === 1);
  first.child.kill('SIGKILL');
  await first.exited;
  start({ SVC_WORKER_LEASE: '1' });
  const { text } = (await call).rows[0];
  const done = (await su.query('SELECT status, attempt, result FROM svc_queue WHERE request_id = $1', [id])).rows[0];
  expect(done).toMatchObject({ status: 'completed', attempt: 2 });
  expect(text).toBe(done.result);
}, 90_000);

test('a set call waits on the lock of a request further on, so that it reads the states once for several answers', async () => {
  // Every request claimed at once (held ahead), one running at a time: the call waits for the 17th to
  // land (src/extension/sync.ts WAKE_AT), not for each answer.
  start({ SVC_WORKER_PREFETCH: '30' });
  await heardFrom(su);
  const prompts = Array.from({ length: 20 }, (_, i) => `wake me ${i}`);
  const callerPid = await pidOf(alice);
  const call = alice.query(
    `SELECT result FROM svc_generate($1::text[], max_tokens := 300, use_cache := false) ORDER BY ord`,
    [prompts],
  );
  // The requests' positions in the call, by the key of each one's lock.
  const position = new Map<string, number>();
  await eventually('the requests to be claimed', async () => {
    const { rows } = await su.query(
      `SELECT (hashtext(request_id::text)::bigint & 4294967295)::text AS key, parameters->>'prompt' AS prompt FROM svc_queue WHERE parameters->>'prompt' = ANY($1) AND status <> 'pending'`,
      [prompts],
    );
    for (const r of rows) position.set(r.key, prompts.indexOf(r.prompt));
    return rows.length === prompts.length;
  });
  // Sampled while the call runs: the request the caller waits on, and how many of the call's requests
  // before it are still to finish (with a wait on the first unfinished one, none ever would be).
  const awaited: Array<{ position: number; unfinishedBefore: number }> = [];
  for (;;) {
    const { rows } = await su.query(
      `SELECT l.objid::bigint::text AS key, ARRAY(SELECT parameters->>'prompt' FROM svc_queue WHERE parameters->>'prompt' = ANY($3) AND status IN ('pending', 'processing')) AS unfinished
       FROM (SELECT 1) one LEFT JOIN pg_locks l ON l.pid = $1 AND NOT l.granted AND l.locktype = 'advisory' AND l.classid::bigint = $2 AND l.objsubid = 2`,
      [callerPid, REQUEST_LOCK, prompts],
    );
    const unfinished = (rows[0].unfinished as string[]).map((p) => prompts.indexOf(p));
    if (unfinished.length === 0) break;
    if (rows[0].key !== null) {
      const at = position.get(rows[0].key)!;
      awaited.push({ position: at, unfinishedBefore: unfinished.filter((p) => p < at).length });
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  // Each row is its own request's answer.
  const answers = new Map(
    (
      await su.query(
        `SELECT parameters->>'prompt' AS prompt, result FROM svc_queue WHERE parameters->>'prompt' = ANY($1)`,
        [prompts],
      )
    ).rows.map((r) => [r.prompt, r.result]),
  );
  expect((await call).rows.map((r) => r.result)).toEqual(prompts.map((p) => answers.get(p)));
  // It waited for a request with many of the call's still to finish before it, and on few requests in all.
  expect(Math.max(...awaited.map((a) => a.unfinishedBefore))).toBeGreaterThanOrEqual(8);
  expect(new Set(awaited.map((a) => a.position)).size).toBeLessThan(prompts.length / 2);
}, 90_000);
