// The queue worker end to end, on the trained stories260K committed in models/ (SVC_MODEL for another GGUF):
// (a) what a synchronous SQL call adds over the raw engine for the same request, cache miss and
//     cache hit, p50/p95, for a superuser, an ordinary role (both keep their autonomous session) and
//     a role granted dblink (a session per statement: docs/security.md); (b) worker throughput at
//     concurrency 1, 2 and 4.
import { loadavg } from 'node:os';
import type pg from 'pg';
import { startCluster } from '../scripts/cluster.js';
import { STORIES_MODEL } from '../scripts/real-models.js';
import { spawnWorker, workerRunning } from '../scripts/worker-process.js';
import { Engine } from '../src/engine/engine.js';

const MODEL = process.env.SVC_MODEL ?? STORIES_MODEL;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const DBLINK_SAMPLES = Number(process.env.BENCH_DBLINK_SAMPLES ?? 10);
const JOBS = Number(process.env.BENCH_JOBS ?? 40);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 16);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x: number) => x.toFixed(2);
const time = async (fn: () => Promise<unknown>) => {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

const cluster = await startCluster();
const db = await cluster.connect();
await db.query(`CREATE EXTENSION svc CASCADE; CREATE ROLE bench_worker LOGIN IN ROLE svc_worker; CREATE ROLE bench_user LOGIN;
  CREATE ROLE bench_dblink_user LOGIN; GRANT EXECUTE ON FUNCTION dblink(text, text) TO bench_dblink_user`);
const callers: Array<[string, pg.Client, number]> = [
  ['superuser', db, SAMPLES],
  ['ordinary role', await cluster.connect('postgres', 'bench_user'), SAMPLES],
  ['role granted dblink', await cluster.connect('postgres', 'bench_dblink_user'), DBLINK_SAMPLES],
];

function startWorker(concurrency: number) {
  const child = spawnWorker(cluster, {
    role: 'bench_worker',
    model: MODEL,
    threads: THREADS,
    stdio: 'ignore',
    env: { SVC_WORKER_CONCURRENCY: String(concurrency), SVC_WORKER_CONTEXT_SIZE: '512' },
  });
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}
async function waitForWorker() {
  await workerRunning(db);
}

try {
  // (a) the same request through the raw engine, svc_generate missing the cache, and hitting it.
  const engine = await Engine.load({ model: MODEL, threads: THREADS, contextSize: 512 });
  let worker = startWorker(1);
  await waitForWorker();
  const raw: number[] = [];
  const rows: string[] = [];
  for (const [who, client, samples] of callers) {
    const miss: number[] = [];
    const hit: number[] = [];
    for (let i = 0; i < samples; i++) {
      const prompt = `${who} sample ${i}:`;
      raw.push(await time(() => engine.generate({ prompt, maxTokens: TOKENS, seed: 42 })));
      miss.push(await time(() => client.query('SELECT svc_generate($1, max_tokens := $2)', [prompt, TOKENS])));
      hit.push(await time(() => client.query('SELECT svc_generate($1, max_tokens := $2)', [prompt, TOKENS])));
    }
    rows.push(
      `| svc_generate as ${who}, cache miss (enqueue, worker, wait) | ${ms(pct(miss, 0.5))} | ${ms(pct(miss, 0.95))} | +${ms(pct(miss, 0.5) - pct(raw, 0.5))} ms |`,
    );
    rows.push(`| svc_generate as ${who}, cache hit | ${ms(pct(hit, 0.5))} | ${ms(pct(hit, 0.95))} | |`);
  }
  await engine.dispose();
  console.log(
    `model ${MODEL}, ${THREADS} thread(s) per engine, ${TOKENS} tokens per request, ${SAMPLES} samples (${DBLINK_SAMPLES} for the dblink role); load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}\n`,
  );
  console.log('| path | p50 ms | p95 ms | p50 over raw engine |');
  console.log('|---|---:|---:|---:|');
  console.log(`| raw engine (in process) | ${ms(pct(raw, 0.5))} | ${ms(pct(raw, 0.95))} | |`);
  for (const row of rows) console.log(row);

  // (b) a batch of distinct jobs, uncached, at each concurrency.
  console.log(`\n| worker concurrency | jobs/s (${JOBS} jobs of ${TOKENS} tokens) |`);
  console.log('|---:|---:|');
  for (const concurrency of [1, 2, 4]) {
    await worker.stop();
    worker = startWorker(concurrency);
    await waitForWorker();
    const prompts = Array.from({ length: JOBS }, (_, i) => `job ${concurrency}-${i}:`);
    const started = process.hrtime.bigint();
    const { rows } = await db.query(
      'SELECT svc_generate_batch_async($1::text[], max_tokens := $2, use_cache := false) AS ids',
      [prompts, TOKENS],
    );
    for (const id of rows[0].ids) await db.query('SELECT svc_get_async_result($1, 300)', [id]);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(`| ${concurrency} | ${(JOBS / seconds).toFixed(1)} |`);
  }
  await worker.stop();
} finally {
  for (const [, client] of callers.slice(1)) await client.end();
  await db.end();
  await cluster.stop();
}
