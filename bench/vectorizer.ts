// A vectorizer's backfill end to end: svc_vectorize declared on a table that already holds
// BENCH_ROWS short rows (100,000) queues them all in jobs of BENCH_BATCH rows (64), and one worker
// (BENCH_CONCURRENCY sequences, 1; BENCH_THREADS threads, 1) embeds them and writes the destination.
// Side by side, on the same machine and model: the library in process embedding the same texts one
// after another and BENCH_BATCH at a time as the worker does (on a sample of BENCH_SAMPLE rows,
// min(rows, 10,000)), and the backfill from the call to the last row done; rows/s of each, the
// ratios (the goal: >= 0.8), and the declaration's own time (the enqueue). Progress goes to stderr every ~10%; the machine's load is printed beside
// the figures. Model: the trained stories260K in models/ (SVC_MODEL for another GGUF). Embeddings
// go through svc's embedding addon where it is built (embed-native.ts); SVC_EMBED_NATIVE=0 gives
// node-llama-cpp alone, for a before/after on the same machine:
//
//   for mode in 0 1 0 1; do SVC_EMBED_NATIVE=$mode SVC_MODEL=models/svc-embed.gguf npx tsx bench/vectorizer.ts; done
//
//   npx tsx bench/vectorizer.ts
//   BENCH_ROWS=30000 BENCH_BATCH=256 npx tsx bench/vectorizer.ts
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type pg from 'pg';
import { startCluster } from '../scripts/cluster.js';
import { STORIES_MODEL } from '../scripts/real-models.js';
import { spawnWorker, workerRunning } from '../scripts/worker-process.js';
import { Engine } from '../src/engine/engine.js';
import { embedAddon } from '../src/engine/embed-native.js';

const MODEL = process.env.SVC_MODEL ?? STORIES_MODEL;
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SAMPLE = Math.min(ROWS, Number(process.env.BENCH_SAMPLE ?? 10_000));
const BATCH = Number(process.env.BENCH_BATCH ?? 64);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 1);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const EMBEDDING = embedAddon() ? 'addon' : 'node-llama-cpp';
// How often svc_vectorizer_status() is read during the backfill. Each read aggregates every row of
// the vectorizer, so on a small machine a short interval takes CPU from the worker (BENCH_POLL_MS).
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 1000);
// The backfill is given up (with what it reached) when no row finishes for this long.
const STALL_S = Number(process.env.BENCH_STALL_S ?? 120);

const WORDS = ['cat', 'dog', 'bird', 'tree', 'boat', 'ball', 'sun', 'rain', 'cake', 'park', 'fish', 'star'];
const MOODS = ['happy', 'sad', 'sleepy', 'brave', 'small', 'big', 'kind'];
// Short distinct texts, a few varied words each (the row number makes each one unique).
const body = (i: number) =>
  `Once upon a time there was a ${MOODS[i % MOODS.length]} ${WORDS[(i * 7) % WORDS.length]} number ${i}.`;

const seconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

// CPU seconds, from /proc (Linux; 0 elsewhere): on a machine shared with other work the rows/s move
// with its load, the CPU a row costs much less. [utime, stime, cutime, cstime] of a process.
const USER_HZ = 100;
function cpuTicks(pid: number): number[] {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [11, 12, 13, 14].map((i) => Number(fields[i]));
  } catch {
    return [0, 0, 0, 0];
  }
}
/** The worker's CPU, and PostgreSQL's: the postmaster, the backends it reaped and those still running. */
function cpuSeconds(workerPid: number, postmasterPid: number): { worker: number; postgres: number } {
  const [wu, ws] = cpuTicks(workerPid);
  let postgres = cpuTicks(postmasterPid).reduce((a, b) => a + b, 0);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== postmasterPid) continue;
    } catch {
      continue;
    }
    const [u, s] = cpuTicks(Number(entry));
    postgres += u + s;
  }
  return { worker: (wu + ws) / USER_HZ, postgres: postgres / USER_HZ };
}

async function waitForWorker(db: pg.Client): Promise<void> {
  await workerRunning(db);
}

interface Status {
  rows_pending: string;
  rows_done: string;
  rows_failed: string;
  chunks: string;
  last_error: string | null;
}
async function status(db: pg.Client): Promise<Status> {
  const { rows } = await db.query<Status>(
    `SELECT rows_pending, rows_done, rows_failed, chunks, last_error FROM svc_vectorizer_status() WHERE name = 'docs'`,
  );
  if (rows.length === 0) throw new Error('svc_vectorizer_status() has no vectorizer named docs');
  return rows[0];
}

const cluster = await startCluster();
const db = await cluster.connect();
let stopWorker: (() => Promise<void>) | undefined;
try {
  await db.query(`CREATE EXTENSION svc CASCADE; CREATE ROLE bench_worker LOGIN IN ROLE svc_worker;
    CREATE TABLE docs (id integer PRIMARY KEY, body text NOT NULL)`);
  await db.query(`INSERT INTO docs SELECT i - 1, b FROM unnest($1::text[]) WITH ORDINALITY AS t(b, i)`, [
    Array.from({ length: ROWS }, (_, i) => body(i)),
  ]);
  await db.query('ANALYZE docs');

  // In process: the same texts one after another (one sequence of one context), and as the worker
  // embeds a job's texts (Engine.embedEach of BENCH_BATCH at a time, over every embedding context: the
  // library at the worker's concurrency); measured before and again after the backfill (the machine's
  // load moves them by 10-20%), the ratios to their means.
  const inProcessRates = async () => {
    const engine = await Engine.load({ model: MODEL, threads: THREADS, contextSize: 512 });
    let began = process.hrtime.bigint();
    for (let i = 0; i < SAMPLE; i++) await engine.embed(body(i));
    const sequential = SAMPLE / seconds(began);
    began = process.hrtime.bigint();
    for (let i = 0; i < SAMPLE; i += BATCH)
      await engine.embedEach(Array.from({ length: Math.min(BATCH, SAMPLE - i) }, (_, k) => body(i + k)));
    const batched = SAMPLE / seconds(began);
    await engine.dispose();
    return { sequential, batched };
  };
  const before = await inProcessRates();

  // Through svc: the worker, then the declaration on the full table, then its backfill to the end.
  const child = spawnWorker(cluster, {
    role: 'bench_worker',
    model: MODEL,
    threads: THREADS,
    stdio: 'ignore',
    env: { SVC_WORKER_CONCURRENCY: String(CONCURRENCY), SVC_WORKER_CONTEXT_SIZE: '512' },
  });
  stopWorker = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  await waitForWorker(db);

  const cpuBefore = cpuSeconds(child.pid!, cluster.postmasterPid);
  let started = process.hrtime.bigint();
  const { rows: declared } = await db.query<{ queued: string }>(
    `SELECT svc_vectorize('docs', 'body', 'docs', batch_size := $1) AS queued`,
    [BATCH],
  );
  const declareMs = seconds(started) * 1000;
  const queued = Number(declared[0].queued);
  console.error(`declared: ${queued} rows queued in ${declareMs.toFixed(0)} ms`);
  let last = await status(db);
  let reported = 0;
  let progressed = { done: 0, at: process.hrtime.bigint() };
  while (Number(last.rows_pending) > 0) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    last = await status(db);
    const done = Number(last.rows_done) + Number(last.rows_failed);
    if (done > progressed.done) progressed = { done, at: process.hrtime.bigint() };
    else if (seconds(progressed.at) > STALL_S)
      throw new Error(
        `the backfill stalled: ${done}/${ROWS} rows done, ${last.rows_pending} pending, no progress for ${STALL_S} s (last error: ${last.last_error})`,
      );
    if (done >= reported + ROWS / 10) {
      reported = done;
      console.error(
        `${done}/${ROWS} rows done (${last.rows_failed} failed) after ${seconds(started).toFixed(1)} s; load ${load()}`,
      );
    }
  }
  const backfillS = seconds(started);
  const throughSvc = ROWS / backfillS;
  const cpuAfter = cpuSeconds(child.pid!, cluster.postmasterPid);
  // CPU ms a row: the worker's, PostgreSQL's (the enqueue, claims, completions, the destination's writes).
  const workerMs = ((cpuAfter.worker - cpuBefore.worker) / ROWS) * 1000;
  const postgresMs = ((cpuAfter.postgres - cpuBefore.postgres) / ROWS) * 1000;
  await stopWorker();
  const after = await inProcessRates();
  const sequential = (before.sequential + after.sequential) / 2;
  const batched = (before.batched + after.batched) / 2;

  console.log(
    `\nmodel ${MODEL}, ${ROWS} rows (in process on ${SAMPLE}), batch ${BATCH}, status read every ${POLL_MS} ms, worker concurrency ${CONCURRENCY}, ${THREADS} thread(s); load ${load()}\n`,
  );
  console.log(
    '| model | embedding | rows | library sequential rows/s (before / after) | library as the worker batches rows/s (before / after) | svc backfill rows/s (end to end) | backfill / library sequential | backfill / library batched | backfill s | CPU ms a row: worker / PostgreSQL | svc_vectorize call ms | batch | concurrency | threads | load |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|');
  console.log(
    `| ${MODEL.split('/').pop()} | ${EMBEDDING} | ${ROWS} | ${before.sequential.toFixed(0)} / ${after.sequential.toFixed(0)} | ${before.batched.toFixed(0)} / ${after.batched.toFixed(0)} | ${throughSvc.toFixed(0)} | ${(throughSvc / sequential).toFixed(2)} | ${(throughSvc / batched).toFixed(2)} | ${backfillS.toFixed(1)} | ${workerMs.toFixed(3)} / ${postgresMs.toFixed(3)} | ${declareMs.toFixed(0)} | ${BATCH} | ${CONCURRENCY} | ${THREADS} | ${load()} |`,
  );

  const { rows: dest } = await db.query<{ n: string }>('SELECT count(*) AS n FROM docs_chunks');
  const problems = [
    queued !== ROWS && `svc_vectorize queued ${queued} rows, not ${ROWS}`,
    Number(last.rows_done) !== ROWS && `rows_done is ${last.rows_done}, not ${ROWS}`,
    Number(last.rows_failed) !== 0 && `rows_failed is ${last.rows_failed} (last error: ${last.last_error})`,
    Number(dest[0].n) !== ROWS && `docs_chunks holds ${dest[0].n} rows, not ${ROWS}`,
  ].filter(Boolean);
  for (const p of problems) console.log(`\nCHECK FAILED: ${p}`);
  if (problems.length > 0) process.exitCode = 1;
} finally {
  await stopWorker?.();
  await db.end();
  await cluster.stop();
}
