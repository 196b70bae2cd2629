// Where the time of one synchronous call goes when it misses the cache: BENCH_CALLS (200) per-row
// `SELECT svc_embed(body, use_cache := false)` calls, one after another, each split by the request's
// own timestamps (svc_queue: created_at, started_at, completed_at; the server and this process read
// the same clock) into
//   call → submission   (the cache lookup, the settings, the autonomous session's insert),
//   submission → claim  (the notification reaching the worker, its claim),
//   claim → completion  (the embedding, the completion's statement),
//   completion → return (the waiting call seeing it: its wake-up, and the result back to the client),
// beside the library's own time for the same embedding in process. Medians and means in ms; the
// machine's load is printed beside them. Model: stories260K (SVC_MODEL for another GGUF).
//
//   npx tsx bench/queue-miss.ts
//   BENCH_CALLS=1000 npx tsx bench/queue-miss.ts
import type pg from 'pg';
import { startCluster } from '../scripts/cluster.js';
import { STORIES_MODEL } from '../scripts/real-models.js';
import { spawnWorker, workerRunning } from '../scripts/worker-process.js';
import { Engine } from '../src/engine/engine.js';
import { load, median } from './stats.js';

const MODEL = process.env.SVC_MODEL ?? STORIES_MODEL;
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);

/** Milliseconds since the epoch, to the microsecond: comparable with the server's timestamps. */
const nowMs = () => performance.timeOrigin + performance.now();

function summary(values: number[]): string {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return `| ${median(values).toFixed(2)} | ${mean.toFixed(2)} |`;
}

async function waitForWorker(db: pg.Client): Promise<void> {
  await workerRunning(db);
}

const cluster = await startCluster();
const db = await cluster.connect();
try {
  await db.query(
    `CREATE EXTENSION svc CASCADE; CREATE ROLE bench_worker LOGIN IN ROLE svc_worker; CREATE ROLE bench_user LOGIN`,
  );
  const user = await cluster.connect('postgres', 'bench_user');
  const child = spawnWorker(cluster, {
    role: 'bench_worker',
    model: MODEL,
    threads: THREADS,
    stdio: 'ignore',
    env: { SVC_WORKER_CONTEXT_SIZE: '512' },
  });
  await waitForWorker(db);
  const engine = await Engine.load({ model: MODEL, threads: THREADS, contextSize: 512 });
  const bodies = Array.from({ length: CALLS }, (_, i) => `Row ${i}: the child felt happy on day ${i % 97}.`);

  const library: number[] = [];
  const calls: Array<{ start: number; end: number }> = [];
  for (const body of bodies) {
    // Interleaved: the library's embedding of the row, then the call's.
    let start = nowMs();
    await engine.embed(`${body} (library)`);
    library.push(nowMs() - start);
    start = nowMs();
    await user.query(`SELECT svc_embed($1, use_cache := false)`, [body]);
    calls.push({ start, end: nowMs() });
  }
  const { rows } = await db.query<{ created: number; started: number; completed: number }>(
    `SELECT extract(epoch FROM created_at) * 1000 AS created, extract(epoch FROM started_at) * 1000 AS started, extract(epoch FROM completed_at) * 1000 AS completed
     FROM svc_queue WHERE function_name = 'embed' ORDER BY seq`,
  );
  if (rows.length !== CALLS) throw new Error(`expected ${CALLS} requests, found ${rows.length}`);
  const segments = {
    'call → submission': rows.map((r, i) => Number(r.created) - calls[i].start),
    'submission → claim': rows.map((r) => Number(r.started) - Number(r.created)),
    'claim → completion': rows.map((r) => Number(r.completed) - Number(r.started)),
    'completion → return': rows.map((r, i) => calls[i].end - Number(r.completed)),
    'whole call': calls.map((c) => c.end - c.start),
    'library embed (in process)': library,
  };
  console.log(
    `\n### A cache miss of per-row svc_embed: ${CALLS} calls, ${MODEL.split('/').pop()}, ${THREADS} thread(s); load ${load()}\n`,
  );
  console.log('| segment | median ms | mean ms |');
  console.log('|---|---:|---:|');
  for (const [name, values] of Object.entries(segments)) console.log(`| ${name} ${summary(values)}`);
  console.log(
    `\nper-row / library (medians): ${(median(library) / median(segments['whole call'])).toFixed(2)}; load ${load()}`,
  );
  await engine.dispose();
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  await user.end();
} finally {
  await db.end();
  await cluster.stop();
}
