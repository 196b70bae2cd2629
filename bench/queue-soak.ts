// The queue under a steady load for a long time: BENCH_TOTAL (1,000,000) requests submitted in
// batches (svc_generate_batch_async, BENCH_BATCH at a time, keeping at most BENCH_BACKLOG waiting) and
// processed by a no-op claimer (BENCH_CONCURRENCY connections claiming and completing through
// svc_worker_complete_and_claim), while retention runs as the workers run it (svc_worker_cleanup in
// batches of 1,000 while they come back full, here every 100 ms, svc.retention = BENCH_RETENTION). Per
// tenth of the requests processed: the submit and processing rates, svc_queue's size (table, indexes,
// toast), its live and dead tuples and the autovacuum runs so far. The rates of the last tenth should be
// at least 0.8x the first's, and the table's size bounded.
//
// First, single submissions (svc_generate_async, one per call, BENCH_SINGLE of them) while no one
// processes, and then while the claimers work through a backlog: what processing costs a submitter.
//
//   npx tsx bench/queue-soak.ts              # BENCH_TOTAL=200000 for a shorter run
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { startCluster } from '../scripts/cluster.js';
import { completeAndClaim, type ClaimedJob } from '../worker/protocol.js';
import { load } from './stats.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const TOTAL = env('BENCH_TOTAL', 1_000_000);
const BATCH = env('BENCH_BATCH', 1000);
const BACKLOG = env('BENCH_BACKLOG', 20_000);
const CONCURRENCY = env('BENCH_CONCURRENCY', 2);
const CLAIM = env('BENCH_CLAIM', 64);
const RETENTION = process.env.BENCH_RETENTION ?? '2 seconds';
const SLICES = 10;
const SINGLE = env('BENCH_SINGLE', 3000);
// The claimers' pace while the single submissions run (requests/s; 0: as fast as they can, which on a
// small machine takes the CPU the submitter would use).
const BUSY_RATES = (process.env.BENCH_BUSY_RATES ?? '0,2000').split(',').map(Number);
// How often autovacuum visits each database. PostgreSQL's default (1 min) lets a queue turning over
// ~12,000 requests a second pile up ~2 million dead rows between visits; the svc_queue table's own
// settings (schema.sql) make each visit quick.
const NAPTIME = process.env.BENCH_NAPTIME ?? '10s';

const cluster = await startCluster({ settings: { 'svc.max_queue_size': "'1000000'", autovacuum_naptime: NAPTIME } });
const admin = await cluster.connect();
await admin.query(`CREATE EXTENSION svc CASCADE; CREATE ROLE soak_client LOGIN; CREATE ROLE soak_worker LOGIN IN ROLE svc_worker;
  ALTER ROLE soak_worker SET svc.retention = '${RETENTION}'`);
// The queue's default ceiling (10,000) and a role's quota (5,000) would refuse the backlog a soak builds.
await admin.query(`SELECT svc_set_queue_limits(100000000); SELECT svc_set_role_limits(NULL, 100000000, 1000000000000)`);
const submitter = await cluster.connect('postgres', 'soak_client');
const claimers = await Promise.all(
  Array.from({ length: CONCURRENCY }, () => cluster.connect('postgres', 'soak_worker')),
);
const cleaner = await cluster.connect('postgres', 'soak_worker');

let submitted = 0;
let processed = 0;
let submitMs = 0; // time spent in submission calls
let done = false;

async function submit(): Promise<void> {
  const prompts = Array.from({ length: BATCH }, (_, i) => `soak ${i}`);
  while (submitted < TOTAL) {
    if (submitted - processed >= BACKLOG) {
      await sleep(5);
      continue;
    }
    const n = Math.min(BATCH, TOTAL - submitted);
    const started = performance.now();
    await submitter.query('SELECT svc_generate_batch_async($1::text[], max_tokens := 1, use_cache := false)', [
      prompts.slice(0, n),
    ]);
    submitMs += performance.now() - started;
    submitted += n;
  }
}

async function claimLoop(db: pg.Client, id: number): Promise<void> {
  let held: ClaimedJob[] = [];
  while (!done) {
    const { completed: _, jobs } = await completeAndClaim(
      db,
      held.map((job) => ({ job, result: 'x' })),
      {
        workerId: `soak-${id}`,
        leaseSeconds: 60,
        maxRetries: 3,
        claimJobs: CLAIM,
      },
    );
    processed += held.length;
    held = jobs;
    if (held.length === 0) await sleep(2);
  }
}

async function cleanLoop(): Promise<void> {
  while (!done) {
    while ((await cleaner.query('SELECT svc_worker_cleanup(1000) AS n')).rows[0].n === 1000);
    await sleep(100);
  }
}

async function sizes(): Promise<string> {
  const { rows } =
    await admin.query(`SELECT pg_total_relation_size('svc_queue') AS total, n_live_tup, n_dead_tup, autovacuum_count
    FROM pg_stat_user_tables WHERE relname = 'svc_queue'`);
  const r = rows[0];
  return `${(Number(r.total) / 2 ** 20).toFixed(1)} | ${r.n_live_tup} | ${r.n_dead_tup} | ${r.autovacuum_count}`;
}

/** Single submissions per second over SINGLE calls. */
async function singleRate(): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < SINGLE; i++)
    await submitter.query(`SELECT svc_generate_async('single ' || $1, max_tokens := 1, use_cache := false)`, [i]);
  return SINGLE / ((performance.now() - started) / 1000);
}

{
  const idle = await singleRate();
  await admin.query(`TRUNCATE svc_queue`);
  console.log(`single submissions: idle ${idle.toFixed(0)}/s`);
  for (const pace of BUSY_RATES) {
    // A backlog for the claimers to work through while the same submissions run.
    for (let i = 0; i < 10; i++) {
      await submitter.query(
        'SELECT svc_generate_batch_async(array_fill($1::text, ARRAY[10000]), max_tokens := 1, use_cache := false)',
        ['backlog'],
      );
    }
    let stop = false;
    let handled = 0;
    const started = performance.now();
    const busy = claimers.map(async (db, id) => {
      let held: ClaimedJob[] = [];
      const options = { workerId: `busy-${id}`, leaseSeconds: 60, maxRetries: 3 };
      while (!stop) {
        const { jobs } = await completeAndClaim(
          db,
          held.map((job) => ({ job, result: 'x' })),
          { ...options, claimJobs: CLAIM },
        );
        handled += held.length;
        held = jobs;
        // Paced: no faster than `pace` requests a second over all claimers.
        if (pace > 0) while (!stop && handled > (pace * (performance.now() - started)) / 1000) await sleep(1);
      }
      await completeAndClaim(
        db,
        held.map((job) => ({ job, result: 'x' })),
        { ...options, claimJobs: 0 },
      );
    });
    const whileBusy = await singleRate();
    const processing = handled / ((performance.now() - started) / 1000);
    stop = true;
    await Promise.all(busy);
    await admin.query(`TRUNCATE svc_queue`);
    console.log(
      `  while ${CONCURRENCY} claimers process ${processing.toFixed(0)} requests/s${pace > 0 ? ` (paced at ${pace})` : ' (flat out)'}: ${whileBusy.toFixed(0)}/s (${(whileBusy / idle).toFixed(2)}x)`,
    );
  }
  console.log('');
}

console.log(
  `${TOTAL} requests, batches of ${BATCH}, at most ${BACKLOG} waiting, ${CONCURRENCY} no-op claimers (claim ${CLAIM}), retention ${RETENTION}, autovacuum_naptime ${NAPTIME}; load ${load()}\n`,
);
console.log(
  '| processed | submit rate (requests/s in submission calls) | processing rate (requests/s) | svc_queue size (MiB) | live tuples | dead tuples | autovacuums |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|');
const work = Promise.all([submit(), ...claimers.map((c, i) => claimLoop(c, i)), cleanLoop()]);
const rates: Array<{ submit: number; process: number }> = [];
let last = { at: performance.now(), processed: 0, submitted: 0, submitMs: 0 };
for (let slice = 1; slice <= SLICES; slice++) {
  while (processed < (TOTAL * slice) / SLICES) await sleep(20);
  const now = { at: performance.now(), processed, submitted, submitMs };
  const rate = {
    submit: (now.submitted - last.submitted) / Math.max(1e-9, (now.submitMs - last.submitMs) / 1000),
    process: (now.processed - last.processed) / ((now.at - last.at) / 1000),
  };
  rates.push(rate);
  console.log(`| ${now.processed} | ${rate.submit.toFixed(0)} | ${rate.process.toFixed(0)} | ${await sizes()} |`);
  last = now;
}
done = true;
await work.catch(() => undefined);
console.log(
  `\nlast tenth / first tenth: submit ${(rates[SLICES - 1].submit / rates[0].submit).toFixed(2)}, processing ${(rates[SLICES - 1].process / rates[0].process).toFixed(2)}`,
);
for (const c of [submitter, cleaner, ...claimers, admin]) await c.end();
await cluster.stop();
