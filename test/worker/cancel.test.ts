// Stopping work nobody wants, with a real worker on the tiny test model (#43): an owner cancels a
// request a worker is running (a streamed generation's stop button) and the worker stops it at its
// next token, writes nothing (no result, no cache entry) and its slot runs the next job; a forged
// svc_cancel notification stops nothing; a synchronous caller that gives up has its request released,
// running or claimed ahead, not run; and the job timeout holds for a job whose engine call does not
// watch it (a rerank).
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, workerSet, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.retry_backoff': "'0'" } });
let su: pg.Client;
let alice: pg.Client;
let bob: pg.Client;
const workers = workerSet(() => svc().cluster, {
  SVC_WORKER_CONCURRENCY: '1',
  SVC_WORKER_PROGRESS_INTERVAL: '0.05',
  SVC_WORKER_CONTEXT_SIZE: '8192',
});
const start = workers.start;

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  bob = await svc().connect(ROLES.bob);
});
afterEach(async () => {
  await workers.killAll();
  await su.query('DELETE FROM svc_queue');
  await su.query('SELECT svc_cache_clear()');
});

// A prompt the test model does not end early: it runs to max_tokens, seconds on one thread.
const LONG = 6000;
const row = async (id: string) => (await su.query('SELECT * FROM svc_queue WHERE request_id = $1', [id])).rows[0];
const tokensSoFar = async (id: string): Promise<number> =>
  Number((await su.query('SELECT tokens FROM svc_partial_results WHERE request_id = $1', [id])).rows[0]?.tokens ?? 0);
const cacheEntries = async () => Number((await su.query('SELECT count(*) AS n FROM svc_cache')).rows[0].n);
const logged = (w: WorkerProcess, msg: string, id: string) =>
  w.logs.some((l) => l.includes(`"msg":"${msg}`) && l.includes(id));

async function running(client: pg.Client, prompt: string, maxTokens = LONG): Promise<string> {
  const id = (await client.query(`SELECT svc_generate_async($1, max_tokens := $2) AS id`, [prompt, maxTokens])).rows[0]
    .id as string;
  await eventually('the generation to stream its first tokens', async () => (await tokensSoFar(id)) > 0);
  return id;
}

test("an owner's cancel stops a running generation at its next token: nothing written, not cached, and the slot runs the next job", async () => {
  const w = start();
  const id = await running(alice, 'stop me');
  // Only its owner may cancel it.
  expect((await bob.query('SELECT svc_cancel_async($1) AS ok', [id])).rows[0].ok).toBe(false);
  expect((await row(id)).status).toBe('processing');
  const next = (await alice.query(`SELECT svc_generate_async('next', max_tokens := 8) AS id`)).rows[0].id as string;
  expect((await alice.query('SELECT svc_cancel_async($1) AS ok', [id])).rows[0].ok).toBe(true);
  expect((await alice.query('SELECT svc_cancel_async($1) AS ok', [id])).rows[0].ok).toBe(false);
  await eventually('the worker to stop it', async () => logged(w, 'job stopped', id));
  const stoppedAt = await tokensSoFar(id);
  expect(stoppedAt).toBeLessThan(LONG);
  // The next job ran in the only slot, freed long before the cancelled generation's LONG tokens; the
  // cancelled one stays as it was cancelled.
  expect(
    await eventually('the next job', async () => ((await row(next)).status === 'completed' ? true : undefined)),
  ).toBe(true);
  expect(await row(id)).toMatchObject({ status: 'cancelled', result: null, error: null });
  await expect(alice.query('SELECT svc_get_async_result($1, 1)', [id])).rejects.toMatchObject({ code: 'SV002' });
  // Only the next job's answer is cached, not the cancelled generation's.
  expect(await cacheEntries()).toBe(1);
  expect(
    w.logs.some((l) => l.includes('"msg":"job failed"') || (l.includes('"msg":"job completed"') && l.includes(id))),
  ).toBe(false);
}, 90_000);

test('a forged svc_cancel notification from any role stops nothing', async () => {
  const w = start();
  const id = await running(alice, 'keep going', 1500);
  await bob.query(`SELECT pg_notify('svc_cancel', $1)`, [id]);
  await alice.query(`SELECT pg_notify('svc_cancel', $1)`, [id]);
  const done = await eventually('the job to finish', async () => {
    const r = await row(id);
    return r.status === 'processing' ? undefined : r;
  });
  expect(done.status).toBe('completed');
  expect(done.result.length).toBeGreaterThan(0);
  expect(logged(w, 'job stopped', id)).toBe(false);
}, 90_000);

test('a synchronous caller that gives up: its running request is stopped and the one claimed ahead is dropped, not run', async () => {
  const w = start({ SVC_WORKER_PREFETCH: '4', SVC_WORKER_DEBUG: '1' });
  // This worker's own heartbeat: the one a previous test killed may still look alive.
  await eventually(
    'the worker to run',
    async () =>
      (await su.query(`SELECT 1 FROM svc_worker_status() WHERE pid = $1 AND state = 'running'`, [w.child.pid])).rows
        .length > 0,
  );
  // bob gives up after 3 s (a statement timeout) while alice's call still runs; alice gives up only
  // after that (a cancel), so that her slot is never freed for bob's request before he stops waiting,
  // however slowly a loaded machine gets his request claimed.
  const alicePid = (await alice.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
  await alice.query(`SET statement_timeout = '60s'`);
  await bob.query(`SET statement_timeout = '3s'`);
  try {
    // alice's call runs in the only slot; bob's, submitted while it runs, is claimed ahead of a free slot.
    const aliceCall = alice.query(`SELECT svc_generate('a long sync call', max_tokens := ${LONG}, use_cache := false)`);
    const aliceId = await eventually(
      "alice's request to run",
      async () =>
        (await su.query(`SELECT request_id FROM svc_queue WHERE owner = 'alice'::regrole AND status = 'processing'`))
          .rows[0]?.request_id as string | undefined,
    );
    const bobCall = bob.query(`SELECT svc_generate('a sync call claimed ahead', max_tokens := 50, use_cache := false)`);
    const bobId = await eventually(
      "bob's request to be claimed ahead",
      async () =>
        (await su.query(`SELECT request_id FROM svc_queue WHERE owner = 'bob'::regrole AND status = 'processing'`))
          .rows[0]?.request_id as string | undefined,
    );
    await expect(bobCall).rejects.toMatchObject({ code: '57014' });
    expect((await row(aliceId)).status).toBe('processing');
    await su.query('SELECT pg_cancel_backend($1)', [alicePid]);
    await expect(aliceCall).rejects.toMatchObject({ code: '57014' });
    await eventually("alice's request to be stopped", async () => logged(w, 'job stopped', aliceId));
    await eventually("bob's request to be dropped", async () => logged(w, 'job dropped before it ran', bobId));
    for (const id of [aliceId, bobId]) {
      expect(await row(id)).toMatchObject({
        status: 'cancelled',
        result: null,
        error: 'cancelled: its synchronous caller stopped waiting',
        waiter: null,
      });
    }
    // bob's never started (the worker logs each start at debug level), and alice's ran.
    expect(logged(w, 'job started', bobId)).toBe(false);
    expect(logged(w, 'job started', aliceId)).toBe(true);
  } finally {
    await alice.query('RESET statement_timeout');
    await bob.query('RESET statement_timeout');
  }
}, 90_000);

test('callers that give up together: the running request is stopped and the one claimed ahead dropped, whichever notification comes first', async () => {
  // Claims every 50 ms: the next one cancels both requests and announces each in a notification of its
  // own, well before the worker's once-a-second check of all it holds.
  const w = start({ SVC_WORKER_PREFETCH: '4', SVC_WORKER_DEBUG: '1', SVC_WORKER_POLL_INTERVAL: '0.05' });
  await eventually(
    'the worker to run',
    async () =>
      (await su.query(`SELECT 1 FROM svc_worker_status() WHERE pid = $1 AND state = 'running'`, [w.child.pid])).rows
        .length > 0,
  );
  const pids = [];
  for (const client of [alice, bob])
    pids.push((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number);
  const aliceCall = alice.query(`SELECT svc_generate('a long sync call', max_tokens := ${LONG}, use_cache := false)`);
  const processing = (owner: string) =>
    eventually(`${owner}'s request to be claimed`, async () => {
      const { rows } = await su.query(
        `SELECT request_id FROM svc_queue WHERE owner = $1::regrole AND status = 'processing'`,
        [owner],
      );
      return rows[0]?.request_id as string | undefined;
    });
  const aliceId = await processing('alice');
  const bobCall = bob.query(`SELECT svc_generate('a sync call claimed ahead', max_tokens := 50, use_cache := false)`);
  const bobId = await processing('bob');
  await su.query('SELECT pg_cancel_backend(p) FROM unnest($1::int[]) p', [pids]);
  await expect(aliceCall).rejects.toMatchObject({ code: '57014' });
  await expect(bobCall).rejects.toMatchObject({ code: '57014' });
  await eventually("alice's request to be stopped", async () => logged(w, 'job stopped', aliceId));
  await eventually("bob's request to be dropped", async () => logged(w, 'job dropped before it ran', bobId));
  expect(logged(w, 'job started', bobId)).toBe(false);
}, 90_000);

test('a synchronous call that times out cancels its running request at once, even while its transaction sits aborted holding its lock', async () => {
  const w = start({ SVC_WORKER_CONTEXT_SIZE: '32768' });
  await eventually(
    'the worker to run',
    async () =>
      (await su.query(`SELECT 1 FROM svc_worker_status() WHERE pid = $1 AND state = 'running'`, [w.child.pid])).rows
        .length > 0,
  );
  await alice.query(`SET svc.sync_timeout = '8s'`);
  await alice.query('BEGIN');
  try {
    const call = alice.query(`SELECT svc_generate('a long sync call', max_tokens := 20000, use_cache := false)`);
    const id = await eventually(
      'the request to run',
      async () =>
        (await su.query(`SELECT request_id FROM svc_queue WHERE owner = 'alice'::regrole AND status = 'processing'`))
          .rows[0]?.request_id as string | undefined,
    );
    await expect(call).rejects.toMatchObject({
      code: 'SV003',
      // (the state it names is the call's last read of it, which a running request need not have changed)
      detail: expect.stringMatching(
        /^request \S+ was (pending|processing); it is cancelled \(a worker running it stops\)$/,
      ),
    });
    // The transaction is still open (aborted), so its waiter lock is held: the call's own cancel stopped it.
    await eventually('the worker to stop it', async () => logged(w, 'job stopped', id));
    expect(await row(id)).toMatchObject({ status: 'cancelled', result: null });
  } finally {
    await alice.query('ROLLBACK');
    await alice.query('RESET svc.sync_timeout');
  }
}, 90_000);

test('the job timeout holds for a job whose engine call does not watch it: a rerank fails at SVC_WORKER_TIMEOUT, not when it ends', async () => {
  start({ SVC_WORKER_TIMEOUT: '0.3', SVC_WORKER_MAX_RETRIES: '0' });
  const documents = Array.from({ length: 1000 }, (_, i) => `document ${i} `.repeat(40));
  const id = (await alice.query(`SELECT svc_rerank_async('which one', $1, use_cache := false) AS id`, [documents]))
    .rows[0].id as string;
  const done = await eventually('the rerank to finish', async () => {
    const r = await row(id);
    return ['pending', 'processing'].includes(r.status) ? undefined : r;
  });
  expect(done).toMatchObject({ status: 'failed', result: null, error: 'timed out after 0.3 s (SVC_WORKER_TIMEOUT)' });
  expect(await cacheEntries()).toBe(0);
}, 90_000);
