// Group completion (worker/completions.ts) over the real worker protocol: results that finish together
// are written in one call (svc_worker_complete_and_claim, claiming nothing).
import type pg from 'pg';
import { CompletionBatcher } from '../../worker/completions.js';
import * as protocol from '../../worker/protocol.js';
import { ROLES, useSvc } from '../helpers/svc.js';

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
  const { rows } = await db.query('SELECT svc_generate_batch_async($1::text[]) AS ids', [Array.from({ length: n }, (_, i) => `p${i}`)]);
  return rows[0].ids;
}

const status = async (id: string) => (await db.query('SELECT status, result FROM svc_queue WHERE request_id = $1', [id])).rows[0];

test('results finishing in the same turn go out in one call, which claims nothing', async () => {
  const ids = await submitMany(6);
  const held = await protocol.claim(workers[0], { ...options, maxJobs: 3 });
  const { lane, calls } = counted(workers[0]);
  const batcher = new CompletionBatcher([lane], options);
  expect(await Promise.all(held.map((job, i) => batcher.complete(job, `r${i}`)))).toEqual([true, true, true]);
  expect(calls).toEqual([3]);
  for (let i = 0; i < 3; i++) expect(await status(ids[i])).toEqual({ status: 'completed', result: `r${i}` });
  for (let i = 3; i < 6; i++) expect((await status(ids[i])).status).toBe('pending');
});

test('a result finishing while the lane is busy waits for the next call; maxBatch spreads a group over lanes', async () => {
  const ids = await submitMany(5);
  const held = await protocol.claim(workers[0], { ...options, maxJobs: 5 });
  const a = counted(workers[0]);
  const single = new CompletionBatcher([a.lane], options);
  const first = single.complete(held[0], 'a');
  await new Promise((r) => setImmediate(r)); // the first call is out
  const later = [single.complete(held[1], 'b'), single.complete(held[2], 'c')];
  await Promise.all([first, ...later]);
  expect(a.calls).toEqual([1, 2]);

  const b = counted(workers[0]);
  const c = counted(workers[1]);
  const spread = new CompletionBatcher([b.lane, c.lane], options, 1);
  expect(await Promise.all([spread.complete(held[3], 'd'), spread.complete(held[4], 'e')])).toEqual([true, true]);
  expect([b.calls, c.calls]).toEqual([[1], [1]]);
  for (const id of ids) expect((await status(id)).status).toBe('completed');
});

test('a refused completion reports false to its own caller only; a failed call rejects every result of the batch', async () => {
  await submitMany(2);
  const held = await protocol.claim(workers[0], { ...options, maxJobs: 2 });
  expect(await protocol.complete(workers[0], held[0], 'first')).toBe(true);
  const batcher = new CompletionBatcher([workers[0]], options);
  expect(await Promise.all([batcher.complete(held[0], 'again'), batcher.complete(held[1], 'ok')])).toEqual([false, true]);
  expect(await status(held[0].request_id)).toEqual({ status: 'completed', result: 'first' });

  const broken = [batcher.complete({ request_id: 'not a uuid', attempt: 1 }, 'x'), batcher.complete(held[1], 'y')];
  for (const p of broken) await expect(p).rejects.toThrow(/invalid input syntax for type uuid/);
  expect(await status(held[1].request_id)).toEqual({ status: 'completed', result: 'ok' });
});

test('it needs a lane and a positive maxBatch', () => {
  expect(() => new CompletionBatcher([], options)).toThrow(/at least one lane/);
  expect(() => new CompletionBatcher([workers[0]], options, 0)).toThrow(/maxBatch must be at least 1/);
});
