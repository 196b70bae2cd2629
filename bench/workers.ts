// Workers add up (#55): a table of BENCH_ROWS rows (10,000) run through set-based calls, served by
// one worker process and by two, each worker a one-core machine (SVC_WORKER_THREADS=1 and
// SVC_WORKER_CONCURRENCY=1: one sequence on one thread; at concurrency 4 a one-thread worker already
// decodes on a context per core, src/engine/threads.ts, and two of them on 2 cores only compete).
//
// The three workers run side by side for the whole bench, warm: one serves the model name `solo`, two
// serve `pair` (the same GGUF), and each call goes to one name or the other (SET svc.model). Rounds of
// BENCH_ROUND rows (1,000; 10,000: the whole table in one call) alternate between one worker and two,
// their order swapped each round, so that load from the rest of the machine falls on both alike.
// Beside rows/s, the CPU each side used per row (from /proc): the serving workers, the caller's backend
// and the rest of PostgreSQL, which share the cores with the workers here. After each round the
// queue's own rows say who ran what: every request completed, on its first attempt (claimed once),
// and how many each worker ran; the workers' warnings (a refused completion, a failed job) are
// printed at the end. BENCH_STATEMENTS=1 prints the first round's costliest statements
// (pg_stat_statements).
//
//   npx tsx bench/workers.ts                                  # 10,000 rows, embed and choice, stories260K
//   BENCH_ROWS=2000 BENCH_KINDS=embed npx tsx bench/workers.ts
//   BENCH_ROUND=10000 npx tsx bench/workers.ts                # the whole table in one call
//   BENCH_CONCURRENCY=4 npx tsx bench/workers.ts              # each worker at concurrency 4
//   BENCH_PIN=1 npx tsx bench/workers.ts                      # each worker pinned to a core of its own
//
// BENCH_PIN=1 pins each worker's threads to one core (taskset; `solo` and the first of `pair` to
// core 0, the second to core 1): a worker embeds on several contexts whatever its threads and
// concurrency (src/engine/embed-pool.ts), so unpinned one worker alone takes most of both cores for
// embeddings and is no one-core machine. PostgreSQL and the caller stay free to run on either core.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { startCluster, type Cluster } from '../scripts/cluster.js';
import { STORIES_MODEL } from '../scripts/real-models.js';
import { spawnWorker } from '../scripts/worker-process.js';
import { load } from './stats.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const ROUND = Math.min(ROWS, Number(process.env.BENCH_ROUND ?? 1000));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 1);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
/** SVC_WORKER_PREFETCH of each worker (unset: the worker's default, 4). */
const PREFETCH = process.env.BENCH_PREFETCH;
const MODEL = process.env.SVC_MODEL ?? STORIES_MODEL;
const KINDS = (process.env.BENCH_KINDS ?? 'embed,choice').split(',') as Kind[];
const PIN = process.env.BENCH_PIN === '1';

type Kind = 'embed' | 'choice' | 'generate';
const CHOICES = ['happy', 'sad', 'angry', 'scared'];
/** The set-based call over the round's rows ($1, an array of texts). */
const CALL: Record<Kind, string> = {
  embed: `svc_embed($1::text[], use_cache := false)`,
  choice: `svc_generate_choice($1::text[], ARRAY['${CHOICES.join("','")}'], max_tokens := 8, use_cache := false)`,
  generate: `svc_generate($1::text[], max_tokens := 16, use_cache := false)`,
};

/** CPU seconds a process has used (user + system, its threads included), from /proc; 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime (fields 14, 15), in ticks of 1/100 s
  } catch {
    return 0;
  }
}

/** The cluster's processes (the postmaster's children): its backends and background processes. */
function clusterPids(postmaster: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return (
          readFileSync(`/proc/${d}/stat`, 'utf8')
            .replace(/^.*\) /, '')
            .split(' ')[1] === String(postmaster)
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

interface WorkerRun {
  id: string;
  pid: number;
  stop(): Promise<void>;
}

/** A worker process serving `name` (a svc_models name) from MODEL; resolves once it heartbeats as running. */
async function startWorker(
  cluster: Cluster,
  db: pg.Client,
  name: string,
  id: string,
  core: number,
): Promise<WorkerRun> {
  const logFd = openSync(join(logs, `${id}.log`), 'w');
  const child = spawnWorker(cluster, {
    role: 'bench_worker',
    model: `${name}=${MODEL}`,
    threads: THREADS,
    workerId: id,
    // Its log goes to a file, read once at the end: read as it comes, each job's line would cost this
    // process CPU on the cores the workers share.
    stdio: ['ignore', 'ignore', logFd],
    env: {
      SVC_WORKER_CONCURRENCY: String(CONCURRENCY),
      SVC_WORKER_CONTEXT_SIZE: '512',
      ...(PREFETCH !== undefined ? { SVC_WORKER_PREFETCH: PREFETCH } : {}),
    },
  });
  // Before it loads the model: the threads it starts later inherit the affinity.
  if (PIN)
    execFileSync('taskset', ['-a', '-cp', String(core % availableParallelism()), String(child.pid)], {
      stdio: 'ignore',
    });
  for (;;) {
    const { rows } = await db.query(`SELECT 1 FROM svc_workers WHERE worker_id = $1 AND state = 'running'`, [id]);
    if (rows.length > 0) break;
    if (child.exitCode !== null) {
      const log = readFileSync(join(logs, `${id}.log`), 'utf8')
        .trim()
        .split('\n')
        .slice(-5)
        .join('\n');
      throw new Error(`worker ${id} exited (${child.exitCode}) before it was running:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    id,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          closeSync(logFd);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

const STATEMENTS = process.env.BENCH_STATEMENTS === '1';
/** The workers' logs; their warnings and errors are printed at the end (a job that failed or ran again is a finding). */
const logs = mkdtempSync(join(tmpdir(), 'svc-bench-workers-'));
const cluster = await startCluster(
  STATEMENTS ? { settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } } : {},
);
const db = await cluster.connect();
const bodies = Array.from({ length: ROWS }, (_, i) => `Row ${i}: the child felt ${CHOICES[i % 4]} on day ${i % 97}.`);
const workers: WorkerRun[] = [];
try {
  await db.query(`CREATE EXTENSION svc CASCADE; CREATE ROLE bench_worker LOGIN IN ROLE svc_worker; CREATE ROLE bench_user LOGIN;
    ALTER ROLE bench_user SET svc.prompt_format = 'raw'; SELECT svc_set_queue_limits(100000000); SELECT svc_set_role_limits(NULL, 100000000, 1000000000000);
    SELECT svc_model_declare('solo'); SELECT svc_model_declare('pair')`);
  if (STATEMENTS) await db.query('CREATE EXTENSION pg_stat_statements');
  const user = await cluster.connect('postgres', 'bench_user');
  const callerPid = Number((await user.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  for (const [name, id, core] of [
    ['solo', 'solo-1', 0],
    ['pair', 'pair-1', 0],
    ['pair', 'pair-2', 1],
  ] as const)
    workers.push(await startWorker(cluster, db, name, id, core));
  const workersOf = { solo: workers.slice(0, 1), pair: workers.slice(1) };
  console.log(
    `\n### ${ROWS} rows in set-based calls of ${ROUND}, one worker against two (each ${THREADS} thread(s), concurrency ${CONCURRENCY}, prefetch ${PREFETCH ?? 'default'}${PIN ? ', each pinned to a core of its own' : ''}), interleaved; load ${load()}\n`,
  );
  console.log(
    '| kind | one worker rows/s | two workers rows/s | two / one | rows each of the two ran | every request completed once | CPU ms a row, one: worker / caller / rest of PostgreSQL | two: workers / caller / rest | load after |',
  );
  console.log('|---|---:|---:|---:|---|---|---|---|---|');
  for (const kind of KINDS) {
    const seconds = { solo: 0, pair: 0 };
    // CPU seconds of the serving workers, the caller's backend and the cluster's other processes.
    const cpu = { solo: [0, 0, 0], pair: [0, 0, 0] };
    const ran = new Map<string, number>();
    let once = true;
    for (let start = 0, r = 0; start < ROWS; start += ROUND, r++) {
      const round = bodies.slice(start, start + ROUND);
      for (const name of r % 2 === 0 ? (['solo', 'pair'] as const) : (['pair', 'solo'] as const)) {
        await user.query(`SET svc.model = '${name}'`);
        const sample = () => {
          const pg = clusterPids(cluster.postmasterPid).filter((pid) => pid !== callerPid);
          return [
            workersOf[name].reduce((t, w) => t + cpuSeconds(w.pid), 0),
            cpuSeconds(callerPid),
            pg.reduce((t, pid) => t + cpuSeconds(pid), 0),
          ];
        };
        if (STATEMENTS) await db.query('SELECT pg_stat_statements_reset()');
        const before = sample();
        const started = process.hrtime.bigint();
        const { rows } = await user.query(`SELECT count(*) FILTER (WHERE error IS NULL) AS ok FROM ${CALL[kind]}`, [
          round,
        ]);
        seconds[name] += Number(process.hrtime.bigint() - started) / 1e9;
        sample().forEach((t, i) => (cpu[name][i] += t - before[i]));
        if (Number(rows[0].ok) !== round.length)
          throw new Error(`${kind}: ${rows[0].ok} of ${round.length} rows answered`);
        // Who ran what, from the queue's own rows: completed, claimed once (attempt 1), by which worker;
        // rows as inputs (a request of several texts or prompts counts them).
        const { rows: by } = await db.query(
          `SELECT worker_id, sum(inputs) AS n, bool_and(status = 'completed' AND attempt = 1) AS once FROM svc_queue GROUP BY worker_id`,
        );
        for (const w of by) {
          ran.set(w.worker_id, (ran.get(w.worker_id) ?? 0) + Number(w.n));
          once &&= w.once;
        }
        if (by.reduce((n, w) => n + Number(w.n), 0) !== round.length) once = false;
        const { rows: odd } = await db.query(
          `SELECT request_id, status, attempt, retry_count, worker_id, error, created_at, started_at, completed_at FROM svc_queue WHERE status <> 'completed' OR attempt <> 1 LIMIT 5`,
        );
        for (const o of odd) console.error(`${kind} ${name}: not completed once: ${JSON.stringify(o)}`);
        if (STATEMENTS && r === 0) {
          const { rows: top } = await db.query(
            `SELECT calls, round(total_exec_time::numeric, 1) AS ms, rows, toplevel, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS q FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 14`,
          );
          console.log(`${kind} ${name}, ${round.length} rows:`);
          for (const t of top)
            console.log(`  ${t.calls} calls ${t.ms} ms ${t.rows} rows ${t.toplevel ? 'top' : 'nested'}: ${t.q}`);
        }
        await db.query(`DELETE FROM svc_queue`);
      }
    }
    const solo = ROWS / seconds.solo;
    const pair = ROWS / seconds.pair;
    const perRow = (xs: number[]) => xs.map((x) => ((1000 * x) / ROWS).toFixed(2)).join(' / ');
    console.log(
      `| ${kind} | ${solo.toFixed(0)} | ${pair.toFixed(0)} | ${(pair / solo).toFixed(2)} | ${['pair-1', 'pair-2'].map((id) => ran.get(id) ?? 0).join(' / ')} | ${once ? 'yes' : 'NO'} | ${perRow(cpu.solo)} | ${perRow(cpu.pair)} | ${load()} |`,
    );
  }
  await user.end();
} finally {
  await Promise.all(workers.map((w) => w.stop()));
  await db.end();
  await cluster.stop();
  for (const w of workers) {
    for (const line of readFileSync(join(logs, `${w.id}.log`), 'utf8').split('\n'))
      if (/"level":"(warn|error)"/.test(line)) console.error(`${w.id}: ${line}`);
  }
  rmSync(logs, { recursive: true, force: true });
}
