// Queue semantics through the worker protocol (worker/protocol.ts, as a test claimer): claim order,
// leases, retries, single completion, cancellation, waiting for results and the notifications.
import type pg from 'pg';
import * as protocol from '../../worker/protocol.js';
import { ROLES, useSvc } from '../helpers/svc.js';

const svc = useSvc({ settings: { 'svc.retry_backoff': "'0'" } });
let db: pg.Client;
let worker: pg.Client;
const opts = (workerId: string, maxJobs = 10, leaseSeconds = 30): protocol.ClaimOptions => ({ workerId, maxJobs, leaseSeconds, maxRetries: 3 });

beforeAll(async () => {
  db = await svc().connect();
  worker = await svc().connect(ROLES.worker);
});
beforeEach(async () => {
  await db.query('DELETE FROM svc_queue');
});

async function submit(prompt: string, priority = 0): Promise<string> {
  return (await db.query(`SELECT svc_generate_async($1, priority := $2) AS id`, [prompt, priority])).rows[0].id;
}

/** A job claimed by w1 under a lease that expires, then claimed again by w2: both claims. */
async function leaseTakenOver(prompt: string) {
  const id = await submit(prompt);
  const [first] = await protocol.claim(worker, opts('w1', 1, 0.05));
  await new Promise((r) => setTimeout(r, 100));
  const [second] = await protocol.claim(worker, opts('w2', 1, 30));
  return { id, first, second };
}

async function row(id: string) {
  return (await db.query('SELECT * FROM svc_queue WHERE request_id = $1', [id])).rows[0];
}

test('claims take the highest priority first, then the oldest', async () => {
  const low1 = await submit('low 1', 0);
  const high = await submit('high', 10);
  const low2 = await submit('low 2', 0);
  const mid = await submit('mid', 5);
  const claimed = await protocol.claim(worker, opts('w1', 10));
  expect(claimed.map((j) => j.request_id)).toEqual([high, mid, low1, low2]);
  expect(claimed[0]).toMatchObject({ function_name: 'generate', parameters: { prompt: 'high' }, attempt: 1, retry_count: 0, priority: 10 });
  const r = await row(high);
  expect(r.status).toBe('processing');
  expect(r.started_at).toBeInstanceOf(Date);
  expect(r.worker_id).toBe('w1');
});

test('a claim takes at most max_jobs, and nothing already claimed', async () => {
  for (let i = 0; i < 5; i++) await submit(`p${i}`);
  expect(await protocol.claim(worker, opts('w1', 2))).toHaveLength(2);
  expect(await protocol.claim(worker, opts('w2', 10))).toHaveLength(3);
  expect(await protocol.claim(worker, opts('w3', 10))).toHaveLength(0);
});

test('complete stores the result once; a second completion is refused', async () => {
  const id = await submit('x');
  const [job] = await protocol.claim(worker, opts('w1'));
  expect(await protocol.complete(worker, job, 'the answer')).toBe(true);
  expect(await protocol.complete(worker, job, 'another answer')).toBe(false);
  const r = await row(id);
  expect(r).toMatchObject({ status: 'completed', result: 'the answer' });
  expect(r.completed_at).toBeInstanceOf(Date);
});

test('a completion records how a generation ended (stop_reason); a reason outside the four is refused, leaving the job as it was', async () => {
  const [a, b, c] = [await submit('a'), await submit('b'), await submit('c')];
  const [ja, jb, jc] = await protocol.claim(worker, opts('w1'));
  const refusal = await protocol.complete(worker, ja, 'the answer', 'cut' as 'context').catch((e: unknown) => e as { code: string; constraint: string });
  expect(refusal).toMatchObject({ code: '23514', constraint: 'svc_queue_stop_reason_check' });
  expect(await row(a)).toMatchObject({ status: 'processing', result: null, stop_reason: null });
  expect(await protocol.complete(worker, ja, 'the answer', 'context')).toBe(true);
  expect(await protocol.completeCached(worker, [{ job: jb, result: 'b', stopReason: 'stop' }, { job: jc, result: 'c' }])).toEqual(new Set());
  expect([await row(a), await row(b), await row(c)].map((r) => [r.status, r.stop_reason])).toEqual([
    ['completed', 'context'],
    ['completed', 'stop'],
    ['completed', null],
  ]);
  const mismatch = await worker
    .query(`SELECT svc_worker_complete_cached(ARRAY[$1::uuid], ARRAY[1], ARRAY['x'], ARRAY['end', 'end'], '{}', '{}', '{}', '{}', NULL)`, [a])
    .catch((e: unknown) => e as { code: string; message: string });
  expect(mismatch).toMatchObject({ code: '22023', message: expect.stringMatching(/stop_reasons \(unless NULL\) must be arrays of the same length/) });
});

test('an expired lease is taken again; the late completion of the first worker is refused', async () => {
  const { id, first, second } = await leaseTakenOver('slow job');
  expect(second.request_id).toBe(id);
  expect(second.attempt).toBe(first.attempt + 1);
  expect(second.retry_count).toBe(1);
  expect(await protocol.complete(worker, first, 'late')).toBe(false);
  expect(await protocol.complete(worker, second, 'on time')).toBe(true);
  expect(await row(id)).toMatchObject({ status: 'completed', result: 'on time', retry_count: 1, worker_id: 'w2' });
});

test('a claim commits without waiting for the disk, unless its transaction wrote before it or it failed a job for good', async () => {
  const session = await svc().connect(ROLES.worker);
  try {
    await session.query('SET synchronous_commit = on'); // the test cluster runs with it off
    const commitMode = async () => (await session.query('SHOW synchronous_commit')).rows[0].synchronous_commit;
    const inTransaction = async (before: string | null, maxRetries = 3) => {
      await session.query('BEGIN');
      if (before) await session.query(before);
      await protocol.claim(session, { ...opts('w1', 1, 30), maxRetries });
      const mode = await commitMode();
      await session.query('COMMIT');
      return mode;
    };
    await submit('a');
    await submit('b');
    expect(await inTransaction(null)).toBe('off');
    expect(await commitMode()).toBe('on'); // for that transaction only
    expect(await inTransaction(`SELECT svc_worker_heartbeat('w1', 'h', 1, 'running', 1, NULL, 0, 0, 0)`)).toBe('on');
    // Both leases expire (set here, not waited for: a loaded machine could let one expire before the
    // second claim, whose sweep would then requeue it); the sweep fails them (no retries left).
    await db.query(`UPDATE svc_queue SET lease_expires_at = clock_timestamp() - interval '1 second' WHERE status = 'processing'`);
    expect(await inTransaction(null, 0)).toBe('on');
    expect((await db.query(`SELECT count(*)::int AS n FROM svc_queue WHERE status = 'failed'`)).rows[0].n).toBe(2);
  } finally {
    await session.end();
  }
});

describe('svc_worker_complete_and_claim', () => {
  const cc = (workerId: string, claimJobs?: number, leaseSeconds = 30) => ({ workerId, leaseSeconds, maxRetries: 3, claimJobs });
  const one = (job: protocol.ClaimedJob, result: string) => [{ job, result }];
  const call = (ids: unknown, attempts: unknown, results: unknown, claimJobs: unknown = null) =>
    worker.query('SELECT * FROM svc_worker_complete_and_claim($1, $2, $3, $4, $5, claim_jobs => $6)', [ids, attempts, results, 'w1', 30, claimJobs]);

  test('completes the job and claims the next ones for the slot in one call, highest priority first', async () => {
    const first = await submit('first', 20);
    const low = await submit('low', 0);
    const high = await submit('high', 10);
    const mid = await submit('mid', 5);
    const [job] = await protocol.claim(worker, opts('w1', 1));
    expect(job.request_id).toBe(first);
    const { completed, jobs } = await protocol.completeAndClaim(worker, one(job, 'done'), cc('w1', 2));
    expect([...completed]).toEqual([first]);
    expect(jobs.map((j) => j.request_id)).toEqual([high, mid]);
    expect(jobs[0]).toMatchObject({ function_name: 'generate', parameters: { prompt: 'high' }, attempt: 1, retry_count: 0, priority: 10 });
    expect(await row(first)).toMatchObject({ status: 'completed', result: 'done' });
    expect(await row(high)).toMatchObject({ status: 'processing', worker_id: 'w1' });
    expect(await row(low)).toMatchObject({ status: 'pending' });
    // claim_jobs defaults to one per completion; with nothing left to claim there is one row, with NULL job columns.
    const { rows } = await worker.query('SELECT * FROM svc_worker_complete_and_claim($1, $2, $3, $4, $5)', [[jobs[0].request_id], [1], ['r'], 'w1', 30]);
    expect(rows.map((r) => r.request_id)).toEqual([low]);
    expect(rows[0].refused).toEqual([]);
    const last = (await call([low], [1], ['r'])).rows;
    expect(last).toEqual([{ refused: [], request_id: null, function_name: null, parameters: null, grammar: null, attempt: null, retry_count: null, priority: null, waited: null }]);
    // claim_jobs => 0 only completes.
    const { completed: c0, jobs: none } = await protocol.completeAndClaim(worker, one(jobs[1], 'r'), cc('w1', 0));
    expect([...c0]).toEqual([mid]);
    expect(none).toEqual([]);
    expect(await row(mid)).toMatchObject({ status: 'completed' });
  });

  test('completes several jobs in one call and claims one job per completion by default', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await submit(`job ${i}`));
    const held = await protocol.claim(worker, opts('w1', 3));
    expect(held.map((j) => j.request_id)).toEqual(ids.slice(0, 3));
    const { completed, jobs } = await protocol.completeAndClaim(worker, held.map((job, i) => ({ job, result: `r${i}` })), cc('w1'));
    expect([...completed].sort()).toEqual(ids.slice(0, 3).sort());
    expect(jobs.map((j) => j.request_id)).toEqual(ids.slice(3)); // three slots freed, two jobs left
    for (let i = 0; i < 3; i++) expect(await row(ids[i])).toMatchObject({ status: 'completed', result: `r${i}` });
    // An empty completion list frees no slot, so by default it claims nothing (nor with claim_jobs => 0).
    await submit('left pending');
    expect((await call([], [], [], 0)).rows).toEqual([expect.objectContaining({ refused: [], request_id: null })]);
    expect((await call([], [], [])).rows).toEqual([expect.objectContaining({ refused: [], request_id: null })]);
  });

  test('rejects arrays of different lengths, NULL arrays or ids, and a negative claim_jobs, changing nothing', async () => {
    const id = await submit('kept');
    const [job] = await protocol.claim(worker, opts('w1', 1));
    const lengths = /complete_request_ids, complete_attempts, results and stop_reasons \(unless NULL\) must be arrays of the same length/;
    await expect(call([id], [1, 2], ['r'])).rejects.toThrow(lengths);
    await expect(call([id], [1], [])).rejects.toThrow(lengths);
    await expect(call(null, [1], ['r'])).rejects.toThrow(lengths);
    await expect(call([id], [1], ['r'], -1)).rejects.toThrow(/claim_jobs must be at least 0/);
    await expect(call([id, null], [1, 1], ['r', 'r'])).rejects.toThrow(/complete_request_ids and complete_attempts must not contain NULL/);
    await expect(call([id], [null], ['r'])).rejects.toMatchObject({ code: '22004' });
    expect(await row(job.request_id)).toMatchObject({ status: 'processing', result: null });
  });

  test('a refused (stale) completion is left out of completed, changes nothing, and still claims for the freed slot only', async () => {
    const { id, first, second } = await leaseTakenOver('slow job');
    expect(second.request_id).toBe(id);
    const other1 = await submit('other 1');
    const other2 = await submit('other 2');
    const late = await protocol.completeAndClaim(worker, one(first, 'late'), cc('w1'));
    expect(late.completed.size).toBe(0);
    expect(late.jobs.map((j) => j.request_id)).toEqual([other1]); // one slot freed, one job: no more
    expect(await row(id)).toMatchObject({ status: 'processing', worker_id: 'w2', result: null });
    expect(await row(other2)).toMatchObject({ status: 'pending' });
    // The slot goes on: complete other 1 and take other 2; a second completion of other 1 is refused
    // (and claims nothing, the queue being empty), and in a mixed call only the live one is stored.
    const again = await protocol.completeAndClaim(worker, one(late.jobs[0], 'x'), cc('w1'));
    expect([...again.completed]).toEqual([other1]);
    expect(again.jobs.map((j) => j.request_id)).toEqual([other2]);
    const mixed = await protocol.completeAndClaim(worker, [{ job: late.jobs[0], result: 'y' }, { job: again.jobs[0], result: 'z' }], cc('w1'));
    expect(mixed).toEqual({ completed: new Set([other2]), jobs: [] });
    expect(await row(other1)).toMatchObject({ status: 'completed', result: 'x' });
    expect(await row(other2)).toMatchObject({ status: 'completed', result: 'z' });
    expect((await call([other1, second.request_id], [1, second.attempt], ['again', 'on time'])).rows)
      .toEqual([expect.objectContaining({ refused: [other1], request_id: null })]);
    expect(await row(id)).toMatchObject({ status: 'completed', result: 'on time' });
    // Every completion refused, in the order given.
    expect((await call([other2, other1], [1, 1], ['late', 'late'], 0)).rows)
      .toEqual([expect.objectContaining({ refused: [other2, other1], request_id: null })]);
  });

  test('it requeues expired leases before claiming, like svc_worker_claim', async () => {
    const stuck = await submit('stuck', 5);
    const mine = await submit('mine');
    const [a] = await protocol.claim(worker, opts('dead', 1, 0.05));
    expect(a.request_id).toBe(stuck);
    const [b] = await protocol.claim(worker, opts('w1', 1, 30));
    expect(b.request_id).toBe(mine);
    await new Promise((r) => setTimeout(r, 100));
    const { completed, jobs } = await protocol.completeAndClaim(worker, one(b, 'ok'), cc('w1'));
    expect([...completed]).toEqual([mine]);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ request_id: stuck, attempt: 2, retry_count: 1 });
  });

  test('announces each completion on svc_completed like svc_worker_complete', async () => {
    const conn = await svc().connect();
    const payloads: string[] = [];
    conn.on('notification', (n) => { if (n.channel === protocol.COMPLETED_CHANNEL) payloads.push(n.payload ?? ''); });
    await conn.query(`LISTEN ${protocol.COMPLETED_CHANNEL}`);
    const e = (await db.query(`SELECT svc_embed_async('e') AS id`)).rows[0].id;
    const g = await submit('g');
    const held = await protocol.claim(worker, opts('w1', 2));
    const both = held.map((job) => ({ job, result: '[1]' }));
    expect((await protocol.completeAndClaim(worker, both, cc('w1'))).completed.size).toBe(2);
    expect((await protocol.completeAndClaim(worker, both, cc('w1'))).completed.size).toBe(0);
    await new Promise((r) => setTimeout(r, 150));
    expect(payloads.map((p) => JSON.parse(p)).sort((x, y) => x.function.localeCompare(y.function))).toEqual([
      { request_id: e, function: 'embed', status: 'completed' },
      { request_id: g, function: 'generate', status: 'completed' },
    ]);
  });
});

test('renewing a lease keeps the job from being taken again', async () => {
  await submit('long job');
  const [job] = await protocol.claim(worker, opts('w1', 1, 0.2));
  for (let i = 0; i < 4; i++) {
    await new Promise((r) => setTimeout(r, 100));
    expect(await protocol.renew(worker, 'w1', [job.request_id], 0.2)).toBe(1);
  }
  expect(await protocol.claim(worker, opts('w2'))).toHaveLength(0);
  expect(await protocol.renew(worker, 'someone-else', [job.request_id], 30)).toBe(0);
});

test('failures retry up to max_retries, then the request fails with its error', async () => {
  const id = await submit('doomed');
  const statuses: Array<string | null> = [];
  for (let attempt = 0; attempt < 4; attempt++) {
    const [job] = await protocol.claim(worker, opts('w1'));
    expect(job.retry_count).toBe(attempt);
    statuses.push(await protocol.fail(worker, job, `boom ${attempt}`, 3));
  }
  expect(statuses).toEqual(['pending', 'pending', 'pending', 'failed']);
  const r = await row(id);
  expect(r).toMatchObject({ status: 'failed', error: 'boom 3', retry_count: 3 });
  expect(r.failed_at).toBeInstanceOf(Date);
  expect(await protocol.claim(worker, opts('w1'))).toHaveLength(0);
});

test('a failed attempt is not retried before its backoff', async () => {
  await db.query(`ALTER DATABASE postgres SET svc.retry_backoff = '1 hour'`);
  const w = await svc().connect(ROLES.worker);
  try {
    await submit('later');
    const [job] = await protocol.claim(w, opts('w1'));
    expect(await protocol.fail(w, job, 'transient', 3)).toBe('pending');
    expect(await protocol.claim(w, opts('w1'))).toHaveLength(0);
  } finally {
    await db.query(`ALTER DATABASE postgres RESET svc.retry_backoff`);
  }
});

/** The payloads of `channel` from now on, on a connection of its own. */
async function listenTo(channel: string): Promise<string[]> {
  const conn = await svc().connect();
  const payloads: string[] = [];
  conn.on('notification', (n) => {
    if (n.channel === channel) payloads.push(n.payload ?? '');
  });
  await conn.query(`LISTEN ${channel}`);
  return payloads;
}
const settled = () => new Promise((r) => setTimeout(r, 150));

test('cancel works while pending or processing, for its owner only; a processing one is announced on svc_cancel and its completion refused', async () => {
  const cancels = await listenTo(protocol.CANCEL_CHANNEL);
  const pending = await submit('a');
  const claimedId = await submit('b', -1);
  expect((await db.query('SELECT svc_cancel_async($1) AS ok', [pending])).rows[0].ok).toBe(true);
  expect((await db.query('SELECT svc_cancel_async($1) AS ok', [pending])).rows[0].ok).toBe(false);
  const [job] = await protocol.claim(worker, opts('w1'));
  expect(job.request_id).toBe(claimedId); // the cancelled one is never claimed
  const alice = await svc().connect(ROLES.alice);
  expect((await alice.query('SELECT svc_cancel_async($1) AS ok', [claimedId])).rows[0].ok).toBe(false); // not hers
  expect((await db.query('SELECT svc_cancel_async($1) AS ok', [claimedId])).rows[0].ok).toBe(true);
  expect((await db.query(`SELECT svc_cancel_async('00000000-0000-0000-0000-000000000000') AS ok`)).rows[0].ok).toBe(false);
  expect(await row(pending)).toMatchObject({ status: 'cancelled' });
  expect(await row(claimedId)).toMatchObject({ status: 'cancelled', lease_expires_at: null });
  // The worker still running it is told; its completion, renewal and progress are refused.
  await settled();
  expect(cancels).toEqual([claimedId]);
  expect(await protocol.released(worker, 'w1', [claimedId])).toEqual([claimedId]);
  expect(await protocol.complete(worker, job, 'too late')).toBe(false);
  expect(await protocol.renew(worker, 'w1', [claimedId], 30)).toBe(0);
  expect(await protocol.progress(worker, job, 'too', 1)).toBe(false);
  expect(await row(claimedId)).toMatchObject({ status: 'cancelled', result: null });
  // A finished request is not cancelled.
  const done = await submit('c');
  const [doneJob] = await protocol.claim(worker, opts('w1'));
  await protocol.complete(worker, doneJob, 'answer');
  expect((await db.query('SELECT svc_cancel_async($1) AS ok', [done])).rows[0].ok).toBe(false);
  expect(await row(done)).toMatchObject({ status: 'completed', result: 'answer' });
});

test('cancel racing claims: each request is claimed at most once, never after its cancel, and the worker is told of each claimed one cancelled', async () => {
  const cancels = await listenTo(protocol.CANCEL_CHANNEL);
  const ids = (await db.query(`SELECT svc_generate_batch_async(array_fill('p'::text, ARRAY[300])) AS ids`)).rows[0].ids as string[];
  const canceller = await svc().connect();
  const claimedIds: string[] = [];
  const cancelled: string[] = [];
  await Promise.all([
    (async () => {
      for (;;) {
        const jobs = await protocol.claim(worker, opts('w1', 7));
        if (jobs.length === 0) break;
        claimedIds.push(...jobs.map((j) => j.request_id));
      }
    })(),
    (async () => {
      for (const id of [...ids].reverse()) {
        if ((await canceller.query('SELECT svc_cancel_async($1) AS ok', [id])).rows[0].ok) cancelled.push(id);
      }
    })(),
  ]);
  await settled();
  expect(new Set(claimedIds).size).toBe(claimedIds.length);
  // Every request was pending or processing when its cancel came, so every cancel took.
  expect(new Set(cancelled)).toEqual(new Set(ids));
  const { rows } = await db.query(`SELECT status, count(*)::int AS n FROM svc_queue GROUP BY status`);
  expect(rows).toEqual([{ status: 'cancelled', n: 300 }]);
  // Exactly the claimed ones were processing when cancelled: each announced, once, and no other.
  expect([...cancels].sort()).toEqual([...claimedIds].sort());
});

describe('svc_worker_released: what a worker must let go of the jobs it holds', () => {
  const WAITER_LOCK = 1937138551;

  test("cancelled jobs and another worker's come back, its own processing ones do not; a sync job whose caller left is cancelled and comes back, one whose caller waits stays", async () => {
    const mine = await submit('mine');
    const cancelled = await submit('cancelled');
    const gone = await submit('caller gone');
    const waits = await submit('caller waits');
    expect(await protocol.claim(worker, opts('w1', 4))).toHaveLength(4);
    const elsewhere = await submit('elsewhere');
    expect(await protocol.claim(worker, opts('w2', 1))).toHaveLength(1);
    await db.query('SELECT svc_cancel_async($1)', [cancelled]);
    await db.query(`UPDATE svc_queue SET waiter = 4242 WHERE request_id = $1`, [gone]);
    await db.query(`UPDATE svc_queue SET waiter = 4343 WHERE request_id = $1`, [waits]);
    const caller = await svc().connect();
    await caller.query('BEGIN');
    await caller.query(`SELECT pg_advisory_xact_lock(${WAITER_LOCK}, 4343)`);
    try {
      const released = await protocol.released(worker, 'w1', [mine, cancelled, gone, waits, elsewhere]);
      expect(released).toEqual([cancelled, gone, elsewhere]);
      expect(await row(gone)).toMatchObject({ status: 'cancelled', error: 'cancelled: its synchronous caller stopped waiting', waiter: null });
      expect(await row(waits)).toMatchObject({ status: 'processing', waiter: 4343 });
      expect(await row(mine)).toMatchObject({ status: 'processing' });
    } finally {
      await caller.query('ROLLBACK');
    }
  });

  test('the next claim cancels a processing sync job whose caller left, announced on svc_cancel for its worker', async () => {
    const cancels = await listenTo(protocol.CANCEL_CHANNEL);
    const id = await submit('claimed, then its caller leaves');
    await protocol.claim(worker, opts('w1', 1));
    await db.query(`UPDATE svc_queue SET waiter = 4444 WHERE request_id = $1`, [id]);
    expect(await protocol.claim(worker, opts('w2', 1))).toEqual([]);
    expect(await row(id)).toMatchObject({ status: 'cancelled', error: 'cancelled: its synchronous caller stopped waiting', waiter: null });
    await settled();
    expect(cancels).toEqual([id]);
    expect(await protocol.released(worker, 'w1', [id])).toEqual([id]);
  });

  test('only svc_worker members call it; NULLs are refused naming them', async () => {
    const alice = await svc().connect(ROLES.alice);
    await expect(protocol.released(alice, 'w1', [])).rejects.toMatchObject({ code: '42501' });
    await expect(worker.query('SELECT svc_worker_released(NULL, ARRAY[]::uuid[])')).rejects.toMatchObject({
      code: '22004', message: 'svc_worker_released: worker_id and request_ids must not be NULL',
    });
    expect(await protocol.released(worker, 'w1', [])).toEqual([]);
  });
});

test('two concurrent claimers over 10,000 jobs: each claimed exactly once, in priority order', async () => {
  await db.query(`INSERT INTO svc_queue (function_name, parameters, priority)
    SELECT 'generate', jsonb_build_object('prompt', 'p' || i), (i * 7919) % 4 FROM generate_series(1, 10000) AS i`);
  const claimer = async (name: string) => {
    const conn = await svc().connect(ROLES.worker);
    const seen: protocol.ClaimedJob[] = [];
    for (;;) {
      const jobs = await protocol.claim(conn, opts(name, 50));
      if (jobs.length === 0) return seen;
      seen.push(...jobs);
    }
  };
  const [a, b] = await Promise.all([claimer('a'), claimer('b')]);
  const all = [...a, ...b].map((j) => j.request_id);
  expect(all).toHaveLength(10000);
  expect(new Set(all).size).toBe(10000);
  expect(a.length).toBeGreaterThan(0);
  expect(b.length).toBeGreaterThan(0);
  // Nothing new arrives while they drain, so each claimer's priorities can only go down.
  for (const seen of [a, b]) {
    for (let i = 1; i < seen.length; i++) expect(seen[i].priority).toBeLessThanOrEqual(seen[i - 1].priority);
  }
}, 120_000);

describe('svc_get_async_result', () => {
  test('returns the result once a worker completes the request', async () => {
    const id = await submit('wait for me');
    const waiting = db.query('SELECT svc_get_async_result($1, timeout_seconds := 10) AS r', [id]);
    await new Promise((r) => setTimeout(r, 200));
    const [job] = await protocol.claim(worker, opts('w1'));
    await protocol.complete(worker, job, 'done!');
    expect((await waiting).rows[0].r).toBe('done!');
  });

  test('a failed request is an error with its error text, at once', async () => {
    const id = await submit('x');
    await db.query(`UPDATE svc_queue SET status = 'failed', error = 'model exploded', failed_at = now() WHERE request_id = $1`, [id]);
    const started = Date.now();
    await expect(db.query('SELECT svc_get_async_result($1, timeout_seconds := 20)', [id])).rejects.toThrow(/request .* failed: model exploded/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('a cancelled request is an error, at once', async () => {
    const id = await submit('x');
    await db.query('SELECT svc_cancel_async($1)', [id]);
    await expect(db.query('SELECT svc_get_async_result($1, timeout_seconds := 20)', [id])).rejects.toThrow(/was cancelled/);
  });

  test('an unknown request is an error', async () => {
    await expect(db.query(`SELECT svc_get_async_result('00000000-0000-0000-0000-000000000001')`)).rejects.toThrow(/does not exist or is not visible/);
  });

  test('the timeout ends the wait with an error naming the status', async () => {
    const id = await submit('nobody works');
    await expect(db.query('SELECT svc_get_async_result($1, timeout_seconds := 1)', [id])).rejects.toMatchObject({ code: 'SV003', message: expect.stringMatching(/timed out after 1 s: request .* is still pending/) });
  });

  test('bad arguments are rejected', async () => {
    await expect(db.query(`SELECT svc_get_async_result(NULL)`)).rejects.toThrow(/request_id must not be NULL/);
    const id = await submit('x');
    await expect(db.query('SELECT svc_get_async_result($1, timeout_seconds := -1)', [id])).rejects.toThrow(/timeout_seconds must be between 0 and 300/);
  });
});

test('svc_check_async and svc_check_async_batch report records, the batch in input order', async () => {
  const a = await submit('a', 3);
  const b = await submit('b');
  const [job] = await protocol.claim(worker, opts('w1', 1));
  await protocol.complete(worker, job, 'result a');
  const one = (await db.query('SELECT * FROM svc_check_async($1)', [a])).rows;
  expect(one).toHaveLength(1);
  expect(one[0]).toMatchObject({ status: 'completed', result: 'result a', error: null, priority: 3 });
  for (const k of ['created_at', 'started_at', 'completed_at']) expect(one[0][k]).toBeInstanceOf(Date);
  const batch = (await db.query('SELECT * FROM svc_check_async_batch($1::uuid[])', [[b, a]])).rows;
  expect(batch.map((r) => [r.request_id, r.status])).toEqual([[b, 'pending'], [a, 'completed']]);
  expect(Object.keys(batch[0])).toEqual(['request_id', 'status', 'result', 'error', 'created_at', 'completed_at']);
  expect((await db.query(`SELECT * FROM svc_check_async('00000000-0000-0000-0000-000000000002')`)).rows).toHaveLength(0);
});

describe('notifications', () => {
  async function listen(channel: string) {
    const conn = await svc().connect();
    const payloads: string[] = [];
    conn.on('notification', (n) => { if (n.channel === channel) payloads.push(n.payload ?? ''); });
    await conn.query(`LISTEN ${channel}`);
    return payloads;
  }
  const settle = () => new Promise((r) => setTimeout(r, 150));

  test('workers are woken on enqueue, at commit and not before', async () => {
    const wakeups = await listen(protocol.WAKEUP_CHANNEL);
    await db.query('BEGIN');
    await db.query(`SELECT svc_generate_async('x')`);
    await settle();
    expect(wakeups).toHaveLength(0);
    await db.query('COMMIT');
    await settle();
    expect(wakeups).toEqual(['generate']);
  });

  test('svc_completed carries request_id, function and status on completion and on final failure', async () => {
    const completed = await listen(protocol.COMPLETED_CHANNEL);
    const ok = await submit('fine');
    const json = (await db.query(`SELECT svc_generate_json_async('j', '{"type":"boolean"}') AS id`)).rows[0].id;
    const embed = (await db.query(`SELECT svc_embed_async('e') AS id`)).rows[0].id;
    const rerank = (await db.query(`SELECT svc_rerank_async('q', ARRAY['d']) AS id`)).rows[0].id;
    for (const job of await protocol.claim(worker, opts('w1'))) await protocol.complete(worker, job, 'r');
    const doomed = await submit('doomed');
    for (let i = 0; i < 2; i++) {
      const [job] = await protocol.claim(worker, opts('w1'));
      await protocol.fail(worker, job, 'no', 1);
    }
    await settle();
    const parsed = completed.map((p) => JSON.parse(p));
    expect(parsed).toEqual(expect.arrayContaining([
      { request_id: ok, function: 'generate', status: 'completed' },
      { request_id: json, function: 'generate', status: 'completed' },
      { request_id: embed, function: 'embed', status: 'completed' },
      { request_id: rerank, function: 'rerank', status: 'completed' },
      { request_id: doomed, function: 'generate', status: 'failed' },
    ]));
    expect(parsed).toHaveLength(5); // the retry itself is not announced
  });
});

test('svc_worker_status shows heartbeats; svc_queue_stats counts per function and status', async () => {
  await protocol.heartbeat(worker, { workerId: 'w-status', host: 'h', pid: 42, state: 'running', concurrency: 4, model: 'tiny', jobsDone: 3, jobsFailed: 1, jobsInFlight: 2 });
  const status = (await db.query(`SELECT * FROM svc_worker_status() WHERE worker_id = 'w-status'`)).rows[0];
  expect(status).toMatchObject({ host: 'h', pid: 42, state: 'running', concurrency: 4, model: 'tiny', jobs_in_flight: 2 });
  expect(Number(status.jobs_done)).toBe(3);
  await submit('a');
  await submit('b');
  await db.query(`SELECT svc_embed_async('c')`);
  const stats = (await db.query('SELECT function_name, status, requests::int AS n FROM svc_queue_stats()')).rows;
  expect(stats).toEqual([{ function_name: 'embed', status: 'pending', n: 1 }, { function_name: 'generate', status: 'pending', n: 2 }]);
});

test('svc_cleanup removes finished requests past the retention period only', async () => {
  const old = await submit('old');
  const recent = await submit('recent');
  const pending = await submit('pending');
  await db.query(`UPDATE svc_queue SET status = 'completed', completed_at = now() - interval '30 days' WHERE request_id = $1`, [old]);
  await db.query(`UPDATE svc_queue SET status = 'completed', completed_at = now() WHERE request_id = $1`, [recent]);
  expect(Number((await db.query(`SELECT svc_cleanup(retention := '7 days') AS n`)).rows[0].n)).toBe(1);
  const left = (await db.query('SELECT request_id FROM svc_queue ORDER BY seq')).rows.map((r) => r.request_id);
  expect(left).toEqual([recent, pending]);
});

/**
 * The worst case for generic plans: statistics from a queue of 20,000 finished requests (ANALYZE of an
 * empty table keeps them), the table vacuumed to zero pages, and a session whose plans were all made
 * on it (`warm` runs eight times; plans turn generic at the sixth). Then 500 requests arrive and the
 * session runs `measured`: returns the plan of each statement that ran (auto_explain).
 */
async function plansMadeOnAnEmptyQueue(warm: (session: pg.Client) => Promise<unknown>, measured: (session: pg.Client) => Promise<unknown>): Promise<string> {
  await db.query(`INSERT INTO svc_queue (function_name, parameters, status, completed_at, result)
    SELECT 'generate', '{"prompt":"x"}', 'completed', now(), '' FROM generate_series(1, 20000)`);
  await db.query('ANALYZE svc_queue');
  await db.query('TRUNCATE svc_queue');
  await db.query('VACUUM ANALYZE svc_queue');
  const session = await svc().connect(); // superuser: may LOAD auto_explain; the worker functions run as their owner anyway
  for (let i = 0; i < 8; i++) await warm(session);
  await db.query(`SELECT svc_generate_batch_async(array(SELECT 'p' || i FROM generate_series(1, 500) i))`);
  await session.query(`LOAD 'auto_explain'`);
  await session.query(`SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on`);
  const logBefore = svc().cluster.log().length;
  await measured(session);
  await session.query('RESET ALL');
  await new Promise((r) => setTimeout(r, 200)); // the log is written by the server process
  return svc().cluster.log().slice(logBefore);
}

// A lookup by id that filters the rows of another index instead of seeking the primary key.
const BY_ID_AS_FILTER = /Filter: [^\n]*\(request_id = (ANY|\$)/;

test('the worker protocol keeps index plans made while the queue was empty, stale statistics and all', async () => {
  // Its calls must still run on the claim, lease and primary-key indexes, not filter and sort every active row.
  const plans = await plansMadeOnAnEmptyQueue(async (idle) => {
    await idle.query(`SELECT * FROM svc_worker_claim('idle', 4, 30)`);
    await idle.query(`SELECT * FROM svc_worker_complete_and_claim('{}', '{}', '{}', 'idle', 30, 3, 4)`);
    await idle.query(`SELECT svc_worker_fail(gen_random_uuid(), 1, 'no such job')`);
    await idle.query(`SELECT svc_worker_released('idle', ARRAY[gen_random_uuid()])`);
  }, async (idle) => {
    const [job] = await protocol.claim(idle, opts('idle', 1));
    const { jobs: [next] } = await protocol.completeAndClaim(idle, [{ job, result: 'r' }], { workerId: 'idle', leaseSeconds: 30, maxRetries: 3 });
    expect(await protocol.fail(idle, next, 'failed on purpose', 3)).toBe('pending');
    expect(await protocol.released(idle, 'idle', [job.request_id, next.request_id])).toEqual([job.request_id, next.request_id]);
  });
  expect(plans).toMatch(/Index Scan using svc_queue_claim_idx/);
  expect(plans).toMatch(/Index Only Scan using svc_queue_lease_idx/);
  expect(plans).toMatch(/Index Scan using svc_queue_pkey/);
  expect(plans).not.toMatch(/svc_queue_active_idx|Seq Scan|Bitmap|Sort Key: p\./);
  expect(plans).not.toMatch(BY_ID_AS_FILTER);
});

test('a claim for several models keeps index plans too: one scan of the claim index per model, merged', async () => {
  const models = ['default', 'other'];
  const plans = await plansMadeOnAnEmptyQueue(
    async (idle) => idle.query(`SELECT * FROM svc_worker_claim('idle', 4, 30, 3, $1)`, [models]),
    async (idle) => expect(await protocol.claim(idle, { ...opts('idle', 4), models })).toHaveLength(4),
  );
  expect(plans).toMatch(/Index Scan using svc_queue_claim_idx/);
  expect(plans).toMatch(/Index Scan using svc_queue_pkey/);
  expect(plans).not.toMatch(/svc_queue_active_idx|Seq Scan|Bitmap/);
  expect(plans).not.toMatch(BY_ID_AS_FILTER);
});

test('submitters and svc_cancel_async keep index plans made while the queue was empty, and never JIT-compile', async () => {
  // The plv8 functions prepare their statements once per session: the capacity bound must stay two
  // index reads and a cancel a primary-key lookup once the queue fills, not scan every row; and the
  // bound's sequence read (its only plan has a disabled cost of 1e10) must not pass jit_above_cost
  // (that compiled it on every call, 115 ms).
  const plans = await plansMadeOnAnEmptyQueue(async (submitter) => {
    await submitter.query(`SELECT svc_generate_async('warm')`);
    await submitter.query(`SELECT svc_cancel_async(gen_random_uuid())`);
  }, async (submitter) => {
    const id = (await submitter.query(`SELECT svc_generate_async('after the burst') AS id`)).rows[0].id;
    expect((await submitter.query(`SELECT svc_cancel_async($1) AS ok`, [id])).rows[0].ok).toBe(true);
  });
  expect(plans).toMatch(/Index Only Scan using svc_queue_active_idx/);
  expect(plans).toMatch(/Index Scan using svc_queue_pkey/);
  // The role's usage since its last count (quotas.ts): a range of its own index, whatever was planned on an empty queue.
  expect(plans).toMatch(/Index (Only )?Scan using svc_queue_owner_active_idx/);
  expect(plans).not.toMatch(/Seq Scan on svc_queue |Bitmap|JIT/);
  expect(plans).not.toMatch(BY_ID_AS_FILTER);
});
