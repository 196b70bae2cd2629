// Many workers on one database, one model or two: W workers x C slots on no-op jobs, each worker a
// loop of svc_worker_complete_and_claim calls (the results of its last claim written and the next C
// jobs claimed in one round trip, as the worker does under load), on one throwaway cluster.
//
//   one model     every worker serves 'default'; all jobs are 'default''s
//   two models    half the workers serve 'a', half 'b'; the jobs are split between a and b
//   two, shared   every worker serves both 'a' and 'b' (each claim merges two index scans)
//
// Prints jobs/s (N / time from the first claim to the last completion) and the latency of the
// complete-and-claim call (p50/p95 ms), with the machine's load average. Sizes (environment):
//   BENCH_WORKERS=8  BENCH_CONCURRENCY=4  BENCH_JOBS=8000  BENCH_RUNS=3 (median of runs)
// Run: npx tsx bench/models.ts
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { startCluster } from '../scripts/cluster.js';
import { completeAndClaim, type ClaimedJob } from '../worker/protocol.js';
import { load, percentile } from './stats.js';

const env = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const WORKERS = env('BENCH_WORKERS', 8);
const CONCURRENCY = env('BENCH_CONCURRENCY', 4);
const JOBS = env('BENCH_JOBS', 8000);
const RUNS = env('BENCH_RUNS', 3);
const WORKER_ROLE = 'bench_worker';

const median = (xs: number[]) => percentile(xs, 50);

interface Scenario {
  name: string;
  /** The models of each worker. */
  workerModels: (i: number) => string[];
  /** The models the jobs are split between (evenly). */
  jobModels: string[];
}

const SCENARIOS: Scenario[] = [
  { name: 'one model', workerModels: () => ['default'], jobModels: ['default'] },
  { name: 'two models, a worker each', workerModels: (i) => [i % 2 === 0 ? 'a' : 'b'], jobModels: ['a', 'b'] },
  { name: 'two models, shared workers', workerModels: () => ['a', 'b'], jobModels: ['a', 'b'] },
];

const cluster = await startCluster({ settings: { max_connections: 100 } });
try {
  const admin = await cluster.connect();
  await admin.query('CREATE EXTENSION svc CASCADE');
  await admin.query(`CREATE ROLE ${WORKER_ROLE} LOGIN IN ROLE svc_worker`);
  await admin.query(`SELECT svc_model_declare('a'), svc_model_declare('b')`);
  const workerDbs = await Promise.all(Array.from({ length: WORKERS }, () => cluster.connect('postgres', WORKER_ROLE)));

  /** One run: enqueue JOBS, then every worker claims and completes until all are done. */
  async function run(s: Scenario): Promise<{ rate: number; latencies: number[] }> {
    await admin.query('TRUNCATE svc_queue');
    const share = Math.ceil(JOBS / s.jobModels.length);
    for (const model of s.jobModels) {
      await admin.query(`SET svc.model = '${model}'`);
      for (let done = 0; done < share; done += 1000) {
        await admin.query(`SELECT svc_generate_batch_async(array_fill('no-op'::text, ARRAY[$1::int]))`, [
          Math.min(1000, share - done),
        ]);
      }
    }
    await admin.query('RESET svc.model');
    await admin.query('VACUUM ANALYZE svc_queue');
    const total = share * s.jobModels.length;
    const latencies: number[] = [];
    let completed = 0;
    let first = Infinity;
    let last = 0;
    const worker = async (db: pg.Client, i: number) => {
      const options = {
        workerId: `w${i}`,
        leaseSeconds: 60,
        maxRetries: 3,
        claimJobs: CONCURRENCY,
        models: s.workerModels(i),
      };
      let held: ClaimedJob[] = [];
      // A worker whose models are drained stops; the last call writes its last results.
      for (;;) {
        const started = performance.now();
        const { jobs } = await completeAndClaim(
          db,
          held.map((job) => ({ job, result: '' })),
          options,
        );
        const ended = performance.now();
        latencies.push(ended - started);
        completed += held.length;
        if (held.length > 0) last = ended;
        if (jobs.length > 0) first = Math.min(first, started);
        held = jobs;
        if (held.length === 0) return;
      }
    };
    await Promise.all(workerDbs.map((db, i) => worker(db, i)));
    if (completed !== total) throw new Error(`${s.name}: ${completed} of ${total} jobs completed`);
    return { rate: total / ((last - first) / 1000), latencies };
  }

  const rows: string[] = [];
  for (const s of SCENARIOS) {
    const results = [];
    for (let r = 0; r < RUNS; r++) results.push(await run(s));
    const rate = median(results.map((x) => x.rate));
    const latencies = results.flatMap((x) => x.latencies);
    rows.push(
      `| ${s.name} | ${Math.round(rate).toLocaleString('en-US')} | ${percentile(latencies, 50).toFixed(2)} | ${percentile(latencies, 95).toFixed(2)} |`,
    );
  }
  console.log(
    `models bench: ${WORKERS} workers x ${CONCURRENCY} slots, ${JOBS} no-op jobs per run, median of ${RUNS} runs; node ${process.version}; ` +
      `load average ${load()}`,
  );
  console.log('| scenario | jobs/s | complete-and-claim p50 ms | p95 ms |');
  console.log('|---|---:|---:|---:|');
  for (const row of rows) console.log(row);
  await Promise.all(workerDbs.map((db) => db.end()));
  await admin.end();
} finally {
  await cluster.stop();
}
