// What the limits across roles bound, measured (docs/security.md, "What each limit bounds"): one role
// fills its max_pending quota (5,000 by default) with generations at priority 100, the highest; then
// another role's synchronous call waits behind them. Printed: how long the quota took to submit, the
// bytes it stores, how long one worker (stories260K, 1 thread, concurrency 4) takes to drain it, and
// the other role's wait; then a vectorizer's backfill past its owner's quota (12,000 rows in jobs of
// one) refused, and how long that took.
//
//   npx tsx bench/quota-bounds.ts          (BENCH_TOKENS=16: max_tokens of each flooding request)
import { performance } from 'node:perf_hooks';
import { startCluster } from '../scripts/cluster.js';
import { spawnWorker } from '../scripts/worker-process.js';
import { STORIES_MODEL } from '../scripts/real-models.js';
import { load } from './stats.js';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 16);
const cluster = await startCluster({ settings: { 'svc.sync_timeout': "'600s'" } });
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
try {
  const su = await cluster.connect();
  await su.query(
    `CREATE EXTENSION svc CASCADE; CREATE ROLE bench_worker LOGIN IN ROLE svc_worker; CREATE ROLE flood LOGIN; CREATE ROLE other LOGIN`,
  );
  await su.query(`CREATE SCHEMA flood AUTHORIZATION flood`);
  const flood = await cluster.connect('postgres', 'flood');
  const other = await cluster.connect('postgres', 'other');
  console.log(
    `load ${load()}; stories260K, one worker of concurrency 4, 1 thread; flooding requests of max_tokens ${TOKENS}`,
  );

  let t = performance.now();
  const batch = `SELECT svc_generate_batch_async(ARRAY(SELECT 'flood ' || i FROM generate_series(1, 1000) i), max_tokens := ${TOKENS}, use_cache := false, priority := 100)`;
  for (let i = 0; i < 5; i++) await flood.query(batch);
  const submitted = seconds(t);
  const refused = await flood.query(batch).then(
    () => 'accepted (!)',
    (e: Error) => e.message,
  );
  const usage = (await flood.query(`SELECT pending, stored_bytes FROM svc_queue_limits()`)).rows[0];
  console.log(
    `- 5,000 requests at priority 100 submitted in ${submitted} s; pending ${usage.pending}, ${usage.stored_bytes} bytes stored; the next 1,000: ${refused}`,
  );

  const worker = spawnWorker(cluster, {
    role: 'bench_worker',
    model: STORIES_MODEL,
    threads: 1,
    env: { SVC_WORKER_CONCURRENCY: '4' },
  });
  try {
    t = performance.now();
    await other.query(`SELECT svc_generate('other asks', max_tokens := 4, use_cache := false)`);
    const waited = seconds(t);
    const drainedAt = (
      await su.query(
        `SELECT count(*) FILTER (WHERE status = 'completed') AS done FROM svc_queue WHERE owner = 'flood'::regrole`,
      )
    ).rows[0].done;
    console.log(
      `- the other role's synchronous call (priority 100, behind them) answered in ${waited} s, after ${drainedAt} of them`,
    );
    for (;;) {
      const left = Number(
        (await su.query(`SELECT count(*) AS n FROM svc_queue WHERE status IN ('pending', 'processing')`)).rows[0].n,
      );
      if (left === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log(`- all 5,000 drained ${seconds(t)} s after the worker started`);
  } finally {
    worker.kill('SIGTERM');
  }

  await flood.query(
    `CREATE TABLE flood.words (id integer PRIMARY KEY, body text); INSERT INTO flood.words SELECT i, 'word' || i FROM generate_series(1, 12000) i`,
  );
  t = performance.now();
  const vectorize = await flood.query(`SELECT svc_vectorize('flood.words', 'body', 'words', batch_size := 1)`).then(
    () => 'accepted (!)',
    (e: Error) => e.message,
  );
  console.log(`- a backfill of 12,000 rows in jobs of one: refused in ${seconds(t)} s: ${vectorize}`);
} finally {
  await cluster.stop();
}
