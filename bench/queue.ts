// Queue throughput and latency: svc's async queue (svc_*_async submitters, svc_worker_claim /
// svc_worker_complete through a test claimer) side by side with graphile-worker 0.17 (defaults), on
// one throwaway cluster in one run. svc lives in database `postgres`, graphile-worker in `gw`.
//
//   1. sequential single enqueue: one job per call, one call at a time, one connection, svc and
//      graphile-worker taking turns every 100 calls (jobs/s)
//   2. batch enqueue: 1,000 jobs per call (svc_generate_batch_async / graphile's addJobs) (jobs/s)
//   3. processing N no-op jobs at concurrency 4: the jobs are enqueued in one transaction while the
//      worker is idle; the rate is N / (last completion - first claim) (jobs/s)
//   4. idle-queue latency: one job at a time into an empty queue, the worker waiting on LISTEN;
//      time from just before the enqueue call to the claim returning it (graphile: to its task
//      starting) (p50/p95 ms)
//
// The svc "test claimer" is a process-local loop with CONCURRENCY slots, run as the worker runs
// (worker/worker.ts): it claims exactly the free slots (svc_worker_claim, max_jobs = free slots; a
// claim commits without waiting for the disk), frees a slot as soon as its job has run, and writes
// the results (empty) through the worker's CompletionBatcher (worker/completions.ts): results that
// finish while the write connection is busy go out together in the next call (durable). It sleeps on
// LISTEN svc_jobs when the queue is empty, and polls as a fallback.
//
// Queues are emptied (TRUNCATE) before every measured run. Each figure is the median of BENCH_RUNS
// runs, svc and graphile-worker alternating. Sizes (environment):
//   BENCH_SINGLE=2000  BENCH_BATCHES=10  BENCH_BATCH_SIZE=1000  BENCH_JOBS=5000
//   BENCH_LATENCY=200  BENCH_RUNS=3  BENCH_CONCURRENCY=4  BENCH_POLL_MS=1000
//   BENCH_DIAG=1 (0 to skip the diagnostics section: EXPLAIN ANALYZE and per-statement costs)
//   BENCH_LANES=1 (connections the results are written on)
//   BENCH_DURABLE=1 (0: the test cluster's settings, see DURABLE below)
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Logger, makeWorkerUtils, run as runGraphile, type Runner, type WorkerUtils } from 'graphile-worker';
import { startCluster, type Cluster } from '../scripts/cluster.js';
import { claim, WAKEUP_CHANNEL, type ClaimedJob } from '../worker/protocol.js';
import { CompletionBatcher } from '../worker/completions.js';
import { median, percentile } from './stats.js';

const env = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
};
const SINGLE = env('BENCH_SINGLE', 2000);
const SINGLE_BLOCK = 100; // svc and graphile-worker take turns every SINGLE_BLOCK single enqueues
const BATCHES = env('BENCH_BATCHES', 10);
const BATCH_SIZE = env('BENCH_BATCH_SIZE', 1000);
const JOBS = env('BENCH_JOBS', 5000);
const LATENCY = env('BENCH_LATENCY', 200);
const RUNS = Math.max(1, env('BENCH_RUNS', 3));
const CONCURRENCY = Math.max(1, env('BENCH_CONCURRENCY', 4));
const POLL_MS = env('BENCH_POLL_MS', 1000);
const DIAG = env('BENCH_DIAG', 1) !== 0;
const LANES = Math.max(1, env('BENCH_LANES', 1));
// By default the cluster runs PostgreSQL's defaults: every commit waits for its WAL to reach the disk
// (graphile-worker's figures in the issue, ~750 enqueues/s and ~2,400 jobs/s, are of that kind).
// BENCH_DURABLE=0 runs the test cluster's settings instead: no fsync, no wait for the WAL at commit.
const DURABLE = env('BENCH_DURABLE', 1) !== 0;

const SVC_DB = 'postgres';
const GW_DB = 'gw';
const CLIENT_ROLE = 'bench_client'; // an ordinary role: svc's submitters run under row-level security
const WORKER_ROLE = 'bench_worker'; // a member of svc_worker
const PROMPT = 'Summarise the plot of Hamlet in one sentence.';

const now = () => performance.now();
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const fmtMs = (x: number) => x.toFixed(2);

// --- svc: the test claimer ----------------------------------------------------------------------

const LEASE = { leaseSeconds: 60, maxRetries: 3 }; // the claimer's claims and completions

class TestClaimer {
  private inFlight = 0; // jobs holding a slot
  private writing = 0; // jobs run whose result is not stored yet
  private running = false;
  private mayHaveWork = true; // the last claim filled every free slot, or a poll/notification said so
  private notified = false;
  private wake: (() => void) | null = null;
  private loopDone: Promise<void> = Promise.resolve();
  /** Called with the claim's return time for every job claimed. */
  onClaim: (job: ClaimedJob, at: number) => void = () => undefined;
  /** Called once the job's result is stored. */
  onComplete: (job: ClaimedJob, at: number) => void = () => undefined;
  claims = 0;
  emptyClaims = 0;
  private readonly completions: CompletionBatcher;

  constructor(
    private readonly claimDb: pg.Client,
    private readonly listenDb: pg.Client,
    /** The connections results are written on (BENCH_LANES), one call at a time on each. */
    laneDbs: pg.Client[],
    private readonly workerId: string,
    private readonly slots: number,
  ) {
    this.completions = new CompletionBatcher(laneDbs);
    listenDb.on('notification', (msg) => {
      if (msg.channel !== WAKEUP_CHANNEL) return;
      this.notified = true;
      this.kick();
    });
  }

  /** Listens for the wakeup channel and starts claiming. */
  async start(): Promise<void> {
    await this.listenDb.query(`LISTEN ${WAKEUP_CHANNEL}`);
    this.running = true;
    this.mayHaveWork = true;
    this.loopDone = this.loop();
  }

  /**
   * Stops claiming once the jobs in flight are done, and stops listening, as a stopped worker does
   * (graphile-worker's runner releases its LISTEN connection too): a listener would be woken by every
   * enqueue measured while the workers are stopped.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.kick();
    await this.loopDone;
    await this.idle();
    await this.listenDb.query(`UNLISTEN ${WAKEUP_CHANNEL}`);
  }

  /** Resolves once no job is running and every result is stored. */
  async idle(): Promise<void> {
    while (this.inFlight > 0 || this.writing > 0) await sleep(1);
  }

  private kick(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const free = this.slots - this.inFlight;
      if (free > 0 && (this.mayHaveWork || this.notified)) {
        this.notified = false;
        const jobs = await claim(this.claimDb, { workerId: this.workerId, maxJobs: free, ...LEASE });
        const at = now();
        this.claims++;
        if (jobs.length === 0) this.emptyClaims++;
        this.mayHaveWork = jobs.length === free;
        for (const job of jobs) {
          this.onClaim(job, at);
          void this.runJob(job);
        }
        continue;
      }
      // Idle (or every slot busy): a freed slot, a notification, or the poll timer wakes us.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.mayHaveWork = true;
          this.kick();
        }, POLL_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Runs a job on a slot, frees the slot, and writes the result as the worker does (worker/worker.ts, worker/outcomes.ts). */
  private async runJob(job: ClaimedJob): Promise<void> {
    this.inFlight++;
    await Promise.resolve(); // the no-op job
    this.inFlight--;
    this.writing++;
    this.kick();
    try {
      if (!(await this.completions.complete(job, '')))
        throw new Error(`the completion of ${job.request_id} was refused`);
      this.onComplete(job, now());
    } finally {
      this.writing--;
    }
  }
}

// --- graphile-worker ----------------------------------------------------------------------------

const silentLogger = new Logger(() => () => undefined);

interface GraphileSide {
  utils: WorkerUtils;
  runner: Runner | null;
  pool: pg.Pool;
  onStart: (payload: { i?: number }, at: number) => void;
  onDone: () => void;
}

async function setUpGraphile(cluster: Cluster): Promise<GraphileSide> {
  const pool = new pg.Pool({ host: cluster.host, port: cluster.port, user: cluster.user, database: GW_DB });
  pool.on('error', () => undefined); // connections are torn down with the cluster
  pool.on('connect', (client) => client.on('error', () => undefined));
  const utils = await makeWorkerUtils({ pgPool: pool, logger: silentLogger });
  await utils.migrate();
  return { utils, pool, runner: null, onStart: () => undefined, onDone: () => undefined };
}

/** Starts graphile-worker's runner with its defaults, but for concurrency and a no-op task. */
async function startGraphileRunner(side: GraphileSide): Promise<void> {
  side.runner = await runGraphile({
    pgPool: side.pool,
    concurrency: CONCURRENCY,
    noHandleSignals: true,
    logger: silentLogger,
    taskList: {
      noop: async (payload) => {
        side.onStart(payload as { i?: number }, now());
      },
    },
  });
  side.runner.events.on('job:complete', () => side.onDone());
}

async function stopGraphileRunner(side: GraphileSide): Promise<void> {
  await side.runner?.stop();
  side.runner = null;
}

// --- the measurements ---------------------------------------------------------------------------

interface Sides {
  svcAdmin: pg.Client; // superuser, database postgres
  svcClient: pg.Client; // bench_client
  claimer: TestClaimer;
  gwAdmin: pg.Client; // superuser, database gw
  gw: GraphileSide;
}

async function reset(s: Sides): Promise<void> {
  await s.claimer.idle(); // a completion still in flight would find its row gone
  await s.svcAdmin.query('TRUNCATE svc_queue');
  await s.gwAdmin.query('TRUNCATE graphile_worker._private_jobs');
  await s.svcAdmin.query('VACUUM ANALYZE svc_queue');
  await s.gwAdmin.query('VACUUM ANALYZE graphile_worker._private_jobs');
}

/** Seconds for n sequential svc_generate_async calls. */
async function svcSingle(s: Sides, n: number): Promise<number> {
  const start = now();
  for (let i = 0; i < n; i++) await s.svcClient.query('SELECT svc_generate_async($1) AS id', [PROMPT]);
  return (now() - start) / 1000;
}

/** Seconds for n sequential addJob calls. */
async function gwSingle(s: Sides, n: number): Promise<number> {
  const start = now();
  for (let i = 0; i < n; i++) await s.gw.utils.addJob('noop', { prompt: PROMPT });
  return (now() - start) / 1000;
}

/**
 * Single enqueue rates [svc, gw] over n calls each, in blocks of SINGLE_BLOCK calls taking turns, so
 * that the machine's load drifting during the run weighs on both alike.
 */
async function singleRates(s: Sides, n: number): Promise<[number, number]> {
  let svcSeconds = 0;
  let gwSeconds = 0;
  for (let done = 0; done < n; done += SINGLE_BLOCK) {
    const block = Math.min(SINGLE_BLOCK, n - done);
    svcSeconds += await svcSingle(s, block);
    gwSeconds += await gwSingle(s, block);
  }
  return [n / svcSeconds, n / gwSeconds];
}

const prompts = (n: number) => Array.from({ length: n }, (_, i) => `${PROMPT} #${i}`);

async function svcBatch(s: Sides, batches: number, size: number): Promise<number> {
  const items = prompts(size);
  const start = now();
  for (let b = 0; b < batches; b++) {
    const { rows } = await s.svcClient.query('SELECT cardinality(svc_generate_batch_async($1::text[])) AS n', [items]);
    if (Number(rows[0].n) !== size) throw new Error('svc_generate_batch_async returned the wrong number of ids');
  }
  return (batches * size) / ((now() - start) / 1000);
}

async function gwBatch(s: Sides, batches: number, size: number): Promise<number> {
  const specs = prompts(size).map((prompt) => ({ identifier: 'noop', payload: { prompt } }));
  const start = now();
  for (let b = 0; b < batches; b++) {
    const jobs = await s.gw.utils.addJobs(specs);
    if (jobs.length !== size) throw new Error('addJobs returned the wrong number of jobs');
  }
  return (batches * size) / ((now() - start) / 1000);
}

/** Enqueues n jobs in one transaction (chunks of at most 10,000, svc's batch limit). */
async function svcEnqueueMany(s: Sides, n: number): Promise<void> {
  await s.svcClient.query('BEGIN');
  for (let done = 0; done < n; done += 10_000) {
    await s.svcClient.query('SELECT svc_generate_batch_async($1::text[])', [prompts(Math.min(10_000, n - done))]);
  }
  await s.svcClient.query('COMMIT');
}

async function svcProcess(s: Sides, n: number): Promise<number> {
  let first = 0;
  let last = 0;
  let done = 0;
  let finished!: () => void;
  const all = new Promise<void>((resolve) => (finished = resolve));
  s.claimer.onClaim = (_job, at) => {
    if (first === 0) first = at;
  };
  s.claimer.onComplete = (_job, at) => {
    last = at;
    if (++done === n) finished();
  };
  await svcEnqueueMany(s, n);
  await all;
  s.claimer.onClaim = () => undefined;
  s.claimer.onComplete = () => undefined;
  return n / ((last - first) / 1000);
}

async function gwProcess(s: Sides, n: number): Promise<number> {
  let first = 0;
  let done = 0;
  let finished!: () => void;
  const all = new Promise<void>((resolve) => (finished = resolve));
  s.gw.onStart = (_p, at) => {
    if (first === 0) first = at;
  };
  s.gw.onDone = () => {
    if (++done === n) finished();
  };
  // One statement, so one commit, like svc's single transaction.
  await s.gw.utils.addJobs(prompts(n).map((prompt) => ({ identifier: 'noop', payload: { prompt } })));
  await all;
  // graphile-worker completes jobs without awaiting the query: the work is done once the rows are gone.
  let last = now();
  for (;;) {
    const { rows } = await s.gwAdmin.query('SELECT count(*)::int AS n FROM graphile_worker._private_jobs');
    last = now();
    if (rows[0].n === 0) break;
    await sleep(1);
  }
  s.gw.onStart = () => undefined;
  s.gw.onDone = () => undefined;
  return n / ((last - first) / 1000);
}

const idleGap = () => sleep(5 + Math.random() * 5);

async function svcLatency(s: Sides, samples: number): Promise<number[]> {
  const out: number[] = [];
  const claimedAt = new Map<string, number>();
  let waiting: { id: string; resolve: () => void } | null = null;
  s.claimer.onClaim = (job, at) => {
    claimedAt.set(job.request_id, at);
    if (waiting && waiting.id === job.request_id) waiting.resolve();
  };
  for (let i = 0; i < samples; i++) {
    await idleGap();
    const t0 = now();
    const { rows } = await s.svcClient.query('SELECT svc_generate_async($1) AS id', [PROMPT]);
    const id: string = rows[0].id;
    if (!claimedAt.has(id)) await new Promise<void>((resolve) => (waiting = { id, resolve }));
    waiting = null;
    out.push(claimedAt.get(id)! - t0);
  }
  s.claimer.onClaim = () => undefined;
  return out;
}

async function gwLatency(s: Sides, samples: number): Promise<number[]> {
  const out: number[] = [];
  const startedAt = new Map<number, number>();
  let waiting: { i: number; resolve: () => void } | null = null;
  s.gw.onStart = (payload, at) => {
    if (payload.i === undefined) return;
    startedAt.set(payload.i, at);
    if (waiting && waiting.i === payload.i) waiting.resolve();
  };
  for (let i = 0; i < samples; i++) {
    await idleGap();
    const t0 = now();
    await s.gw.utils.addJob('noop', { i });
    if (!startedAt.has(i)) await new Promise<void>((resolve) => (waiting = { i, resolve }));
    waiting = null;
    out.push(startedAt.get(i)! - t0);
  }
  s.gw.onStart = () => undefined;
  return out;
}

// --- diagnostics: where svc's time goes ---------------------------------------------------------

async function timeQuery(db: pg.Client, sql: string, params: unknown[], n: number): Promise<number> {
  for (let i = 0; i < Math.min(50, n); i++) await db.query(sql, params);
  const start = now();
  for (let i = 0; i < n; i++) await db.query(sql, params);
  return ((now() - start) * 1000) / n; // µs per call
}

async function diagnostics(s: Sides, cluster: Cluster): Promise<void> {
  const n = Math.max(200, Math.min(2000, SINGLE));
  const lines: string[] = [];
  const us = (x: number) => `${Math.round(x)} µs`;
  await reset(s);
  const worker = await cluster.connect(SVC_DB, WORKER_ROLE);
  try {
    // Per-call costs, on an idle server, each statement alone (round trip included).
    lines.push('| statement (one call, round trip included) | mean |', '|---|---:|');
    const row = async (label: string, db: pg.Client, sql: string, params: unknown[] = []) =>
      lines.push(`| ${label} | ${us(await timeQuery(db, sql, params, n))} |`);
    await row('`SELECT 1`', s.svcClient, 'SELECT 1');
    await row('`svc_generate_async(prompt)`', s.svcClient, 'SELECT svc_generate_async($1)', [PROMPT]);
    await s.svcAdmin.query('TRUNCATE svc_queue');
    await row(
      'the same INSERT + pg_notify, plain SQL, one statement',
      s.svcClient,
      `WITH j AS (INSERT INTO svc_queue (function_name, parameters, grammar, priority)
         VALUES ('generate', jsonb_build_object('prompt', $1::text, 'max_tokens', 512, 'use_cache', true, 'seed', 42), NULL, 0) RETURNING request_id)
       SELECT request_id, pg_notify('svc_jobs', 'generate') FROM j`,
      [PROMPT],
    );
    await row(
      '`svc__queue_depth_bound` (read by every enqueue; queue holds ~' + (2 * n + 50) + ' pending)',
      s.svcClient,
      'SELECT depth FROM svc__queue_depth_bound',
    );
    await row(
      '`svc__queue_depth()` (the exact count, only when the bound says the queue may be full)',
      s.svcClient,
      'SELECT svc__queue_depth()',
    );
    await row(
      "`current_setting('svc.max_queue_size', true)`",
      s.svcClient,
      "SELECT current_setting('svc.max_queue_size', true)",
    );
    await row(
      '`svc_worker_claim(max_jobs => 1)`, queue with pending jobs',
      worker,
      `SELECT * FROM svc_worker_claim('diag', 1, 60, 3)`,
    );
    {
      const { rows: held } = await s.svcAdmin.query(
        `SELECT request_id, attempt FROM svc_queue WHERE status = 'processing'`,
      );
      const start = now();
      for (const job of held)
        await worker.query('SELECT svc_worker_complete($1, $2, $3)', [job.request_id, job.attempt, '']);
      lines.push(`| \`svc_worker_complete(id, attempt, '')\` | ${us(((now() - start) * 1000) / held.length)} |`);
    }
    await s.svcAdmin.query("UPDATE svc_queue SET status = 'completed' WHERE status = 'pending'");
    await row(
      '`svc_worker_claim(max_jobs => 4)` finding nothing',
      worker,
      `SELECT * FROM svc_worker_claim('diag', 4, 60, 3)`,
    );
    await row(
      'its claim statement alone, plain SQL (no function; as the owner)',
      s.svcAdmin,
      `WITH picked AS (SELECT request_id FROM svc_queue WHERE status = 'pending' AND run_after <= clock_timestamp()
         ORDER BY priority DESC, seq LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE svc_queue q SET status = 'processing', started_at = clock_timestamp(), attempt = q.attempt + 1,
         worker_id = $2, lease_expires_at = clock_timestamp() + make_interval(secs => 60)
       FROM picked WHERE q.request_id = picked.request_id
       RETURNING q.request_id, q.function_name, q.parameters, q.grammar, q.attempt, q.retry_count, q.priority`,
      [4, 'diag'],
    );

    // Batch enqueue: the plv8 function against the same rows inserted by one plain SQL statement.
    const batch = prompts(1000);
    const batchFn = await timeQuery(
      s.svcClient,
      'SELECT cardinality(svc_generate_batch_async($1::text[]))',
      [batch],
      20,
    );
    const batchSql = await timeQuery(
      s.svcClient,
      `WITH b AS (SELECT gen_random_uuid() AS id), ins AS (
         INSERT INTO svc_queue (function_name, parameters, grammar, priority, batch_id, batch_index)
         SELECT 'generate', jsonb_build_object('prompt', t.p, 'max_tokens', 512, 'use_cache', true, 'seed', 42), NULL, 0, b.id, t.ord
         FROM b, unnest($1::text[]) WITH ORDINALITY AS t(p, ord) RETURNING request_id)
       SELECT count(*), pg_notify('svc_jobs', 'generate') FROM ins`,
      [batch],
      20,
    );
    lines.push(`| \`svc_generate_batch_async\` of 1,000 | ${us(batchFn)} (${fmt(1e9 / batchFn)} jobs/s) |`);
    lines.push(
      `| the same 1,000 rows, plain SQL INSERT ... SELECT FROM unnest + pg_notify | ${us(batchSql)} (${fmt(1e9 / batchSql)} jobs/s) |`,
    );

    // Costs as finished rows pile up (svc keeps them until svc_cleanup, 7 days by default): none of
    // these may read the finished rows.
    lines.push(
      '',
      '| finished rows in svc_queue | `svc_generate_async` | `svc__queue_depth_bound` | `svc__queue_depth()` | `svc_worker_claim(max_jobs => 1)` |',
      '|---:|---:|---:|---:|---:|',
    );
    const m = Math.min(n, 300);
    for (const finished of [0, 10_000, 50_000, 100_000]) {
      await s.svcAdmin.query('TRUNCATE svc_queue');
      if (finished > 0) {
        await s.svcAdmin.query(
          `INSERT INTO svc_queue (function_name, parameters, status, completed_at, result)
          SELECT 'generate', '{"prompt":"x"}', 'completed', now(), '' FROM generate_series(1, $1)`,
          [finished],
        );
      }
      await s.svcAdmin.query('VACUUM ANALYZE svc_queue');
      const enqueue = await timeQuery(s.svcClient, 'SELECT svc_generate_async($1)', [PROMPT], m);
      const bound = await timeQuery(s.svcClient, 'SELECT depth FROM svc__queue_depth_bound', [], m);
      const depth = await timeQuery(s.svcClient, 'SELECT svc__queue_depth()', [], m);
      await s.svcClient.query('SELECT svc_generate_batch_async($1::text[])', [prompts(2 * m + 100)]);
      const claimNow = await timeQuery(worker, `SELECT * FROM svc_worker_claim('diag', 1, 60, 3)`, [], m);
      lines.push(
        `| ${finished.toLocaleString('en-US')} | ${us(enqueue)} | ${us(bound)} | ${us(depth)} | ${us(claimNow)} |`,
      );
    }
    const plan = await s.svcAdmin.query(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT depth FROM svc__queue_depth_bound`,
    );
    lines.push(
      '',
      'Plan of the depth bound (100,000 finished rows):',
      '```',
      ...plan.rows.map((r) => r['QUERY PLAN']),
      '```',
    );

    // The processing run's situation: the worker polled the queue while it was empty (truncated and
    // vacuumed, so zero pages), then 5,000 jobs arrived. Plans cached by the worker's session during
    // the idle polls would be made for an empty table (sequential scans); svc_worker_claim plans each
    // call for the table as it is, so the idle session must claim as fast as a fresh one.
    await s.svcAdmin.query('TRUNCATE svc_queue');
    await s.svcAdmin.query('VACUUM ANALYZE svc_queue');
    const idleWorker = await cluster.connect(SVC_DB, WORKER_ROLE);
    try {
      for (let i = 0; i < 10; i++) await idleWorker.query(`SELECT * FROM svc_worker_claim('diag-idle', 4, 60, 3)`);
      await s.svcClient.query('SELECT svc_generate_batch_async($1::text[])', [prompts(5000)]);
      const claimIdle = await timeQuery(idleWorker, `SELECT * FROM svc_worker_claim('diag-idle', 1, 60, 3)`, [], m);
      const fresh = await cluster.connect(SVC_DB, WORKER_ROLE);
      const claimFresh = await timeQuery(fresh, `SELECT * FROM svc_worker_claim('diag-fresh', 1, 60, 3)`, [], m);
      await fresh.end();
      lines.push(
        '',
        `\`svc_worker_claim(max_jobs => 1)\` with ~5,000 pending, no ANALYZE since the table was empty: ` +
          `${us(claimIdle)} in a session whose first 10 claims found it empty, ${us(claimFresh)} in a fresh session.`,
      );
    } finally {
      await idleWorker.end();
    }

    await s.svcAdmin.query('TRUNCATE svc_queue');
    await s.svcClient.query('SELECT svc_generate_batch_async($1::text[])', [prompts(5000)]);
    await s.svcAdmin.query('VACUUM ANALYZE svc_queue');
    await s.svcAdmin.query("LOAD 'auto_explain'");
    await s.svcAdmin.query(`SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on;
      SET auto_explain.log_nested_statements = on; SET auto_explain.log_timing = on`);
    const logBefore = cluster.log().length;
    await s.svcAdmin.query(`SELECT * FROM svc_worker_claim('diag', 4, 60, 3)`);
    await s.svcAdmin.query('RESET ALL');
    // The plans only: the statements' text is in src/extension/queries.ts.
    const logged = cluster
      .log()
      .slice(logBefore)
      .split('\n')
      .filter((l) => /duration:|CONTEXT:|\(actual|Filter:|Cond:|Sort Key|Sort Method|Rows Removed/.test(l))
      .map((l) => l.replace(/^\S+ \S+ \S+ \[\d+\] /, '').replace(/\t/g, '  '));
    lines.push(
      '',
      'auto_explain of one `svc_worker_claim(max_jobs => 4)` with 5,000 pending (plans only):',
      '```',
      ...logged,
      '```',
    );
  } finally {
    await worker.end();
  }
  console.log('\n### Diagnostics\n');
  console.log(lines.join('\n'));
}

// --- main ---------------------------------------------------------------------------------------

const cluster = await startCluster(
  DURABLE ? { settings: { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' } } : {},
);
const clients: pg.Client[] = [];
let gw: GraphileSide | undefined;
let claimer: TestClaimer | undefined;
try {
  const admin = await cluster.connect();
  clients.push(admin);
  await admin.query('CREATE EXTENSION svc CASCADE');
  await admin.query(`CREATE ROLE ${CLIENT_ROLE} LOGIN; CREATE ROLE ${WORKER_ROLE} LOGIN IN ROLE svc_worker`);
  // The queue's default ceiling (10,000) and a role's default quota (5,000) would refuse the bigger runs.
  await admin.query(
    `SELECT svc_set_queue_limits(100000000); SELECT svc_set_role_limits(NULL, 100000000, 1000000000000)`,
  );
  await admin.query(`CREATE DATABASE ${GW_DB}`);
  const svcAdmin = await cluster.connect(SVC_DB);
  const svcClient = await cluster.connect(SVC_DB, CLIENT_ROLE);
  const claimDb = await cluster.connect(SVC_DB, WORKER_ROLE);
  const listenDb = await cluster.connect(SVC_DB, WORKER_ROLE);
  const laneDbs = await Promise.all(Array.from({ length: LANES }, () => cluster.connect(SVC_DB, WORKER_ROLE)));
  const gwAdmin = await cluster.connect(GW_DB);
  clients.push(svcAdmin, svcClient, claimDb, listenDb, ...laneDbs, gwAdmin);

  claimer = new TestClaimer(claimDb, listenDb, laneDbs, 'bench-claimer', CONCURRENCY);
  gw = await setUpGraphile(cluster);
  const s: Sides = { svcAdmin, svcClient, claimer, gwAdmin, gw };
  // Workers run only for processing and latency; the enqueue figures are enqueue alone.
  const startWorkers = async () => {
    await s.claimer.start();
    await startGraphileRunner(s.gw);
  };
  const stopWorkers = async () => {
    await s.claimer.stop();
    await stopGraphileRunner(s.gw);
  };

  const {
    rows: [versions],
  } = await admin.query(
    `SELECT current_setting('server_version') AS pg, (SELECT extversion FROM pg_extension WHERE extname = 'plv8') AS plv8`,
  );
  console.log(
    `svc queue vs graphile-worker 0.17.3 (defaults), PostgreSQL ${versions.pg}, plv8 ${versions.plv8}, Node ${process.version}`,
  );
  console.log(
    DURABLE
      ? "cluster: durable commits (fsync, synchronous_commit and full_page_writes on: PostgreSQL's defaults)"
      : 'cluster: the test settings (fsync, synchronous_commit and full_page_writes off; BENCH_DURABLE=0)',
  );
  console.log(
    `single: ${SINGLE} calls; batch: ${BATCHES} x ${BATCH_SIZE}; processing: ${JOBS} no-op jobs at concurrency ${CONCURRENCY}; ` +
      `latency: ${LATENCY} samples; median of ${RUNS} runs\n`,
  );

  // Warm up: plv8 contexts, plans, graphile-worker's task ids and prepared statements.
  await reset(s);
  await singleRates(s, 200);
  await svcBatch(s, 2, BATCH_SIZE);
  await gwBatch(s, 2, BATCH_SIZE);
  await reset(s);
  await startWorkers();
  await svcProcess(s, 500);
  await reset(s);
  await gwProcess(s, 500);
  await reset(s);
  await svcLatency(s, 20);
  await gwLatency(s, 20);
  await stopWorkers();

  const results = { single: [[], []], batch: [[], []], process: [[], []] } as Record<string, [number[], number[]]>;
  const latency: [number[], number[]] = [[], []];
  for (let r = 0; r < RUNS; r++) {
    await reset(s);
    const [svcRate, gwRate] = await singleRates(s, SINGLE);
    results.single[0].push(svcRate);
    results.single[1].push(gwRate);
    await reset(s);
    results.batch[0].push(await svcBatch(s, BATCHES, BATCH_SIZE));
    results.batch[1].push(await gwBatch(s, BATCHES, BATCH_SIZE));
    await reset(s);
    await startWorkers();
    results.process[0].push(await svcProcess(s, JOBS));
    await reset(s);
    results.process[1].push(await gwProcess(s, JOBS));
    await reset(s);
    latency[0].push(...(await svcLatency(s, Math.ceil(LATENCY / RUNS))));
    latency[1].push(...(await gwLatency(s, Math.ceil(LATENCY / RUNS))));
    await stopWorkers();
  }

  const rate = (label: string, [a, b]: [number[], number[]], target: string) => {
    const x = median(a);
    const y = median(b);
    console.log(`| ${label} | ${fmt(x)} | ${fmt(y)} | ${(x / y).toFixed(2)} | ${target} |`);
  };
  console.log('| metric | svc | graphile-worker | ratio (svc / gw) | target |');
  console.log('|---|---:|---:|---:|---|');
  rate('sequential single enqueue (jobs/s)', results.single, '≥ 2× gw');
  rate(`batch enqueue of ${fmt(BATCH_SIZE)} (jobs/s; gw: addJobs)`, results.batch, '≥ 50,000 jobs/s');
  rate(`processing ${fmt(JOBS)} no-op jobs, concurrency ${CONCURRENCY} (jobs/s)`, results.process, '≥ 2× gw');
  for (const p of [50, 95]) {
    const x = percentile(latency[0], p);
    const y = percentile(latency[1], p);
    console.log(
      `| idle enqueue-to-claim latency p${p} (ms) | ${fmtMs(x)} | ${fmtMs(y)} | ${(x / y).toFixed(2)} | ${p === 50 ? '≤ 3 ms' : '—'} |`,
    );
  }
  console.log(
    `\nper-run figures (jobs/s): ` +
      Object.entries(results)
        .map(([k, [a, b]]) => `${k}: svc ${a.map(fmt).join('/')}, gw ${b.map(fmt).join('/')}`)
        .join('; '),
  );
  console.log(`test claimer: ${claimer.claims} claims, ${claimer.emptyClaims} empty`);

  claimer = undefined;
  if (DIAG) await diagnostics(s, cluster);
} finally {
  await claimer?.stop().catch(() => undefined);
  if (gw) {
    await stopGraphileRunner(gw).catch(() => undefined);
    await Promise.resolve()
      .then(() => gw!.utils.release())
      .catch(() => undefined);
    await gw.pool.end().catch(() => undefined);
  }
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await cluster.stop();
}
