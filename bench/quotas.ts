// What the limits across roles cost a submission (src/extension/quotas.ts): single async submissions
// of an ordinary role, one connection, one call at a time, (1) into an empty queue, (2) while the role
// already holds 4,000 requests (its usage read from its newest rows since its session last counted),
// (3) batches of 1,000; and (4) the exact count of a role's 4,000 requests that a submission falls
// back to only when the bound passes a limit. Run it on one build, then on another to compare:
// BENCH_EXTENSION names the extension to create (default svc; e.g. an older build installed beside it
// as svc_old, with its control file renamed). Sizes: BENCH_SINGLE=2000 BENCH_HELD=4000 BENCH_RUNS=3.
//
//   npx tsx bench/quotas.ts
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startCluster } from '../scripts/cluster.js';
import { load, median } from './stats.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SINGLE = env('BENCH_SINGLE', 2000);
const HELD = env('BENCH_HELD', 4000);
const RUNS = env('BENCH_RUNS', 3);
const EXTENSION = process.env.BENCH_EXTENSION ?? 'svc';

const cluster = await startCluster();
try {
  const su = await cluster.connect();
  await su.query(`CREATE EXTENSION ${EXTENSION} CASCADE; CREATE ROLE bench_alice LOGIN`);
  const withQuotas =
    (await su.query(`SELECT 1 FROM pg_attribute WHERE attrelid = 'svc_queue'::regclass AND attname = 'stored_bytes'`))
      .rows.length > 0;
  const alice = await cluster.connect('postgres', 'bench_alice');
  await alice.query(`SELECT svc_generate_async('warm')`);

  // The submitting backend's CPU time (user + system, from /proc): on a machine others load, wall
  // time measures the scheduler as much as svc.
  const backend = Number((await alice.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  const cpuMicros = () => {
    const fields = readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6; // utime, stime
  };
  const cpu: Record<string, number[]> = { empty: [], held: [], batch: [] };
  /** µs per call of `sql`, `n` calls in a row (wall), and the backend's CPU µs per call into `cpu[key]`. */
  async function perCall(n: number, sql: string, key: string): Promise<number> {
    const started = performance.now();
    const cpuStarted = cpuMicros();
    for (let i = 0; i < n; i++) await alice.query(sql);
    cpu[key].push((cpuMicros() - cpuStarted) / n);
    return ((performance.now() - started) * 1000) / n;
  }
  const holdRequests = async () =>
    su.query(
      `INSERT INTO svc_queue (function_name, parameters, owner${withQuotas ? ', stored_bytes' : ''})
       SELECT 'generate', jsonb_build_object('prompt', 'held ' || i, 'max_tokens', 512), 'bench_alice'${withQuotas ? ', 60' : ''} FROM generate_series(1, ${HELD}) AS i`,
    );

  const figures: Record<string, number[]> = { empty: [], held: [], batch: [], exact: [] };
  for (let run = 0; run < RUNS; run++) {
    await su.query('TRUNCATE svc_queue');
    figures.empty.push(
      await perCall(SINGLE, `SELECT svc_generate_async('a prompt of a few words', use_cache := false)`, 'empty'),
    );
    await su.query('TRUNCATE svc_queue');
    await holdRequests();
    await su.query('VACUUM ANALYZE svc_queue');
    figures.held.push(
      await perCall(
        Math.min(SINGLE, 900),
        `SELECT svc_generate_async('a prompt of a few words', use_cache := false)`,
        'held',
      ),
    );
    await su.query('TRUNCATE svc_queue');
    const batch = await perCall(
      4,
      `SELECT svc_generate_batch_async(array_fill('a prompt'::text, ARRAY[1000]))`,
      'batch',
    );
    figures.batch.push(1000 / (batch / 1e6));
    if (withQuotas) {
      await su.query('TRUNCATE svc_queue');
      await holdRequests();
      const started = performance.now();
      for (let i = 0; i < 50; i++) {
        await su.query(
          `SELECT count(*), coalesce(sum(q.stored_bytes), 0) FROM svc_queue q WHERE q.owner = 'bench_alice'::regrole AND q.seq > 0 AND q.status IN ('pending', 'processing') AND q.stored_bytes >= 0`,
        );
      }
      figures.exact.push(((performance.now() - started) * 1000) / 50);
    }
  }
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  console.log(
    `extension ${EXTENSION} (quotas: ${withQuotas ? 'yes' : 'no'}), tree at ${commit}, load ${load()}, median of ${RUNS}`,
  );
  console.log(
    `single svc_generate_async, empty queue:           ${median(figures.empty).toFixed(0)} µs/call wall, ${median(cpu.empty).toFixed(0)} µs CPU of the backend`,
  );
  console.log(
    `single svc_generate_async, the role holds ${HELD}: ${median(figures.held).toFixed(0)} µs/call wall, ${median(cpu.held).toFixed(0)} µs CPU`,
  );
  console.log(
    `svc_generate_batch_async of 1,000:                ${median(figures.batch).toFixed(0)} jobs/s wall, ${(median(cpu.batch) / 1000).toFixed(1)} µs CPU a job`,
  );
  if (withQuotas)
    console.log(`exact count of the role's ${HELD} (only past a bound): ${median(figures.exact).toFixed(0)} µs`);
  await alice.end();
  await su.end();
} finally {
  await cluster.stop();
}
