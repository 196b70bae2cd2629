// How often the worker claims (#47): a claim costs the database about as much for one job as for
// several, and nothing when it is not made. A worker whose last claim found the queue empty claims
// again when a submission is announced (or at its poll), not each time one of its jobs ends; and one
// working through a backlog of short jobs claims several in a statement. Counted with
// pg_stat_statements, the worker's poll set far beyond the test's length.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';
import { startWorker, type WorkerProcess, heardFrom } from '../helpers/worker.js';

const svc = useSvc({ settings: { shared_preload_libraries: 'pg_stat_statements' } });
let su: pg.Client;
let alice: pg.Client;
let worker: WorkerProcess;

beforeAll(async () => {
  su = await svc().connect();
  await su.query('CREATE EXTENSION pg_stat_statements');
  alice = await svc().connect(ROLES.alice);
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '4', SVC_WORKER_POLL_INTERVAL: '600' });
  // Started, and past its first claims.
  await heardFrom(su);
  await alice.query(`SELECT svc_embed('warm up', use_cache := false)`);
}, 60_000);
afterAll(async () => {
  await worker.stop('SIGKILL');
});

/** The worker's claim statements (and the jobs they returned) since the last reset. */
async function claims(): Promise<{ calls: number; jobs: number }> {
  const { rows } = await su.query(
    `SELECT coalesce(sum(calls), 0) AS calls, coalesce(sum(rows), 0) AS jobs FROM pg_stat_statements WHERE query LIKE '%FROM svc_worker_claim(%' AND toplevel`,
  );
  return { calls: Number(rows[0].calls), jobs: Number(rows[0].jobs) };
}

test('per-row sync calls: one claim each, none as a job ends with the queue empty', async () => {
  await su.query('SELECT pg_stat_statements_reset()');
  const rows = 20;
  const { rows: out } = await alice.query(
    `SELECT svc_embed('row ' || i, use_cache := false) AS e FROM generate_series(1, $1) i`,
    [rows],
  );
  expect(out).toHaveLength(rows);
  const { calls, jobs } = await claims();
  expect(jobs).toBe(rows);
  // Each call's submission is announced and claimed; a claim after each job's end would double it.
  expect(calls).toBeLessThanOrEqual(rows + 2);
}, 60_000);

test('many short requests at once: several jobs a claim', async () => {
  await su.query('SELECT pg_stat_statements_reset()');
  const rows = 200;
  // A batch of async requests, a request a row (a set-based call puts short prompts several to a
  // request: src/queue/generate-many.ts), waited for together once committed.
  const { rows: batch } = await alice.query(
    `SELECT svc_generate_batch_async(ARRAY(SELECT 'text ' || i FROM generate_series(1, $1) i), max_tokens := 1, use_cache := false) AS ids`,
    [rows],
  );
  const { rows: out } = await alice.query(
    `SELECT count(*) FILTER (WHERE status = 'completed') AS n FROM svc_get_async_results($1::uuid[], 60)`,
    [batch[0].ids],
  );
  expect(Number(out[0].n)).toBe(rows);
  const { calls, jobs } = await claims();
  expect(jobs).toBe(rows);
  expect(jobs / calls).toBeGreaterThanOrEqual(2);
}, 60_000);
