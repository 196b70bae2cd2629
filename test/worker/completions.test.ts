// Group completion (worker/completions.ts) over the real worker protocol: results that finish together
// are written in one call, with their cache entries (svc_worker_complete_cached).
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { CompletionBatcher } from '../../worker/completions.js';
import * as protocol from '../../worker/protocol.js';
import { RequestLocks } from '../../worker/request-locks.js';
import { workerSession } from '../../worker/setup.js';
import { requestLockKeys } from '../../src/queue/locks.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually } from '../helpers/worker.js';

const svc = useSvc();
let db: pg.Client;
const workers: pg.Client[] = [];
const options = { workerId: 'w1', leaseSeconds: 30, maxRetries: 3 };

beforeAll(async () => {
  db = await svc().connect();
  for (let i = 0; i < 2; i++) workers.push(await svc().connect(ROLES.worker));
});
beforeEach(async () => {
  await db.query('DELETE FROM svc_queue');
});

/** A lane that counts the calls made on it (and the completions each carried). */
function counted(client: pg.Client) {
  const calls: number[] = [];
  const lane = {
    query: ((config: { values: unknown[][] }) => {
      calls.push(config.values[0].length);
      return client.query(config as never);
    }) as unknown as pg.Client['query'],
  };
  return { lane, calls };
}

async function submitMany(n: number): Promise<string[]> {
  const { rows } = await db.query('SELECT svc_generate_batch_async($1::text[]) AS ids', [
    Array.from({ length: n }, (_, i) => `p${i}`),
  ]);
  return rows[0].ids;
}

const status = async (id: string) =>
  (await db.query('SELECT status, result FROM svc_queue WHERE request_id = $1', [id])).rows[0];

test('results finishing in the same turn go out in one call', async () => {
  const ids = await submitMany(6);
  const held = await protocol.claim(workers[0], { ...options, maxJobs: 3 });
  const { lane, calls } = counted(workers[0]);
  const batcher = new CompletionBatcher([lane]);
  expect(await Promise.all(held.map((job, i) => batcher.complete(job, `r${i}`)))).toEqual([true, true, true]);
  expect(calls).toEqual([3]);
  for (let i = 0; i < 3; i++) expect(await status(ids[i])).toEqual({ status: 'completed', result: `r${i}` });
  for (let i = 3; i < 6; i++) expect((await status(ids[i])).status).toBe('pending');
});

test('a result finishing while the lane is busy waits for the next call; maxBatch spreads a group over lanes', async () => {
  const ids = await submitMany(5);
  const held = await protocol.claim(workers[0], { ...options, maxJobs: 5 });
  const a = counted(workers[0]);
  const single = new CompletionBatcher([a.lane]);
  const first = single.complete(held[0], 'a');
  await new Promise((r) => setImmediate(r)); // the first call is out
  const later = [single.complete(held[1], 'b'), single.complete(held[2], 'c')];
  await Promise.all([first, ...later]);
  expect(a.calls).toEqual([1, 2]);

  const b = counted(workers[0]);
  const c = counted(workers[1]);
  const spread = new CompletionBatcher([b.lane, c.lane], 1);
  expect(await Promise.all([spread.complete(held[3], 'd'), spread.complete(held[4], 'e')])).toEqual([true, true]);
  expect([b.calls, c.calls]).toEqual([[1], [1]]);
  for (const id of ids) expect((await status(id)).status).toBe('completed');
});

test('a refused completion reports false to its own caller only; a failed call rejects every result of the batch', async () => {
  await submitMany(2);
  const held = await protocol.claim(workers[0], { ...options, maxJobs: 2 });
  expect(await protocol.complete(workers[0], held[0], 'first')).toBe(true);
  const batcher = new CompletionBatcher([workers[0]]);
  expect(await Promise.all([batcher.complete(held[0], 'again'), batcher.complete(held[1], 'ok')])).toEqual([
    false,
    true,
  ]);
  expect(await status(held[0].request_id)).toEqual({ status: 'completed', result: 'first' });

  const broken = [batcher.complete({ request_id: 'not a uuid', attempt: 1 }, 'x'), batcher.complete(held[1], 'y')];
  for (const p of broken) await expect(p).rejects.toThrow(/invalid input syntax for type uuid/);
  expect(await status(held[1].request_id)).toEqual({ status: 'completed', result: 'ok' });
});

test('it needs a lane and a positive maxBatch', () => {
  expect(() => new CompletionBatcher([])).toThrow(/at least one lane/);
  expect(() => new CompletionBatcher([workers[0]], 0)).toThrow(/maxBatch must be at least 1/);
});

test('cache entries go out in the same call as their completions, stored even where the completion is refused', async () => {
  await submitMany(3);
  const held = await protocol.claim(workers[0], { ...options, maxJobs: 3 });
  expect(await protocol.complete(workers[0], held[2], 'earlier')).toBe(true);
  await db.query('SELECT svc_cache_clear()');
  const { lane, calls } = counted(workers[0]);
  const batcher = new CompletionBatcher([lane]);
  const entry = (i: number) => [{ identity: `identity ${i}`, model: 'm.gguf:1:ab', functionName: 'generate' }];
  expect(
    await Promise.all([
      batcher.complete(held[0], 'r0', entry(0)),
      batcher.complete(held[1], 'r1'),
      batcher.complete(held[2], 'r2', entry(2)),
    ]),
  ).toEqual([true, true, false]);
  expect(calls).toEqual([3]);
  const { rows } = await db.query(`SELECT cache_key, model, function_name, result FROM svc_cache ORDER BY result`);
  const key = (identity: string) => createHash('sha256').update(identity).digest('hex');
  expect(rows).toEqual([
    { cache_key: key('identity 0'), model: 'm.gguf:1:ab', function_name: 'generate', result: 'r0' },
    { cache_key: key('identity 2'), model: 'm.gguf:1:ab', function_name: 'generate', result: 'r2' },
  ]);
  // The same key again (a cached answer stays as first stored), and the cache's size holds.
  await workers[1].query(`SET svc.cache_size = 1`);
  await submitMany(1);
  const [job] = await protocol.claim(workers[1], { ...options, maxJobs: 1 });
  expect(await protocol.completeCached(workers[1], [{ job, result: 'other', cache: entry(0) }])).toEqual(new Set());
  await workers[1].query(`RESET svc.cache_size`);
  expect((await db.query(`SELECT result FROM svc_cache`)).rows).toHaveLength(1);
});

test("svc_worker_complete_cached: arrays of one length without NULL ids, and svc_worker's only", async () => {
  const call = (client: pg.Client, args: string) => client.query(`SELECT svc_worker_complete_cached(${args})`);
  const u = `'{00000000-0000-0000-0000-000000000001}'::uuid[]`;
  const noCache = `'{}', '{}', '{}', '{}', NULL`;
  await expect(call(workers[0], `${u}, '{1}', '{a}', '{x,y}', ${noCache}`)).rejects.toThrow(
    /request_ids, attempts, results and stop_reasons \(unless NULL\) must be arrays of the same length/,
  );
  await expect(call(workers[0], `${u}, NULL, '{a}', NULL, ${noCache}`)).rejects.toThrow(
    /must be arrays of the same length/,
  );
  await expect(call(workers[0], `${u}, '{1}', '{a}', NULL, '{x}', '{m}', '{f}', '{}', NULL`)).rejects.toThrow(
    /cache_identities, cache_models, cache_functions, cache_results and cache_stop_reasons \(unless NULL\) must be arrays of the same length/,
  );
  await expect(call(workers[0], `${u}, '{1}', '{a}', NULL, NULL, '{}', '{}', '{}', NULL`)).rejects.toThrow(
    /cache_identities.*must be arrays of the same length/,
  );
  await expect(call(workers[0], `'{NULL}'::uuid[], '{1}', '{a}', NULL, ${noCache}`)).rejects.toThrow(
    /must not contain NULL/,
  );
  expect(
    (await call(workers[0], `${u}, '{1}', '{a}', '{NULL}', ${noCache}`)).rows[0].svc_worker_complete_cached,
  ).toEqual(['00000000-0000-0000-0000-000000000001']);
  const user = await svc().connect(ROLES.alice);
  try {
    await expect(call(user, `${u}, '{1}', '{a}', NULL, ${noCache}`)).rejects.toThrow(/permission denied/);
    await expect(user.query('SELECT svc__cache_trim()')).rejects.toThrow(/permission denied/);
  } finally {
    await user.end();
  }
});

test('with a hold, a result waits for others still running to share its call; alone, or past the hold, it goes out', async () => {
  const ids = await submitMany(5);
  const held = await protocol.claim(workers[0], { ...options, maxJobs: 5 });
  let running = true;
  const { lane, calls } = counted(workers[0]);
  const batcher = new CompletionBatcher([lane], Infinity, { more: () => running, ms: 60_000, upTo: 3 });
  // Others running: held until three wait (upTo).
  const first = batcher.complete(held[0], 'a');
  await new Promise((r) => setTimeout(r, 50));
  expect(calls).toEqual([]);
  await Promise.all([first, batcher.complete(held[1], 'b'), batcher.complete(held[2], 'c')]);
  expect(calls).toEqual([3]);
  // Nothing else running: at once.
  running = false;
  await batcher.complete(held[3], 'd');
  expect(calls).toEqual([3, 1]);
  // Past the hold's time: out, though others still run.
  running = true;
  const short = new CompletionBatcher([lane], Infinity, { more: () => running, ms: 20, upTo: 16 });
  await short.complete(held[4], 'e');
  expect(calls).toEqual([3, 1, 1]);
  for (const id of ids) expect((await status(id)).status).toBe('completed');
});

/** Whether no session holds request `id`'s lock (worker/request-locks.ts), asked without keeping it. */
const lockFree = async (id: string) =>
  (
    await db.query(
      `SELECT CASE WHEN pg_try_advisory_lock_shared(${requestLockKeys('$1')}) THEN pg_advisory_unlock_shared(${requestLockKeys('$1')}) ELSE false END AS free`,
      [id],
    )
  ).rows[0].free as boolean;

test("completeCached lets the claim's locks go in its own transaction: held until the outcomes commit, then free", async () => {
  const [id, other] = await submitMany(2);
  const held = await protocol.claim(workers[0], { ...options, maxJobs: 2 }, true);
  expect(held.map((j) => j.locked)).toEqual([true, true]);
  await workers[0].query('BEGIN');
  expect(await protocol.completeCached(workers[0], [{ job: held[0], result: 'done' }], [id])).toEqual(new Set());
  // Let go by the session, held by the transaction: a caller waiting on it reads the outcome once it has committed.
  expect(await lockFree(id)).toBe(false);
  expect((await status(id)).status).toBe('processing');
  await workers[0].query('COMMIT');
  expect(await lockFree(id)).toBe(true);
  expect(await status(id)).toEqual({ status: 'completed', result: 'done' });
  // The request not named keeps its lock.
  expect(await lockFree(other)).toBe(false);
  await protocol.unlockRequests(workers[0], [other]);
  expect(await lockFree(other)).toBe(true);
});

test("the claims' connection writes results and lets their locks go; a failed write keeps them for unlock()", async () => {
  const { host, port } = svc().cluster;
  const locks = new RequestLocks({
    host,
    port,
    user: ROLES.worker,
    database: 'postgres',
    options: workerSession('public'),
  });
  try {
    const [id, next] = await submitMany(2);
    const [job] = await locks.claim({ ...options, maxJobs: 1 });
    expect(await lockFree(id)).toBe(false);
    // PostgreSQL text cannot hold NUL: the statement fails, writing nothing and letting nothing go.
    await expect(locks.complete([{ job, result: 'a\u0000b' }])).rejects.toThrow();
    expect(await lockFree(id)).toBe(false);
    locks.unlock(id);
    await eventually('unlock() to let it go', () => lockFree(id));
    const [second] = await locks.claim({ ...options, maxJobs: 1 });
    expect(second.request_id).toBe(next);
    expect(await locks.complete([{ job: second, result: 'ok' }])).toEqual(new Set());
    expect(await lockFree(next)).toBe(true);
    expect(await status(next)).toEqual({ status: 'completed', result: 'ok' });
    locks.unlock(next); // already let go: nothing left to unlock, and no error
  } finally {
    await locks.close();
  }
});
