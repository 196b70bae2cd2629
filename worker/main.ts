// `svc-worker`: serve svc's queue with a llama.cpp model. Run it as a system service (see
// scripts/svc-worker.service) or directly: svc-worker --model PATH --db-host ... --db-name ...
// Exit status: 0 after a stop signal, 1 when it crashed, 2 for bad configuration or a database that
// is not set up for it (the message says what to do).
import pg from 'pg';
import { Engine, ModelLoadError } from '../src/engine/engine.js';
import { ServerEngine } from '../src/engine/server-engine.js';
import type { InferenceEngine } from '../src/queue/inference-engine.js';
import type { FetchProgress } from '../src/model/fetch.js';
import { ConfigError, USAGE, loadConfig, parseArgs, type WorkerConfig } from './config.js';
import { versionLine } from '../src/version.js';
import { checkSetup, connectionConfigError, workerSession } from './setup.js';
import { errorFields, log } from './log.js';
import { Worker } from './worker.js';
import * as protocol from './protocol.js';
import { hostname } from 'node:os';

/** svc.worker_concurrency and svc.worker_poll_interval apply where the environment sets nothing. */
async function applyDatabaseSettings(
  pool: pg.Pool,
  config: WorkerConfig,
  env: NodeJS.ProcessEnv,
): Promise<WorkerConfig> {
  const { rows } = await pool.query(`SELECT current_setting('svc.worker_concurrency', true) AS concurrency,
    extract(epoch FROM nullif(current_setting('svc.worker_poll_interval', true), '')::interval) AS poll`);
  const next = { ...config };
  if (env.SVC_WORKER_CONCURRENCY === undefined && rows[0].concurrency && !process.argv.includes('--concurrency')) {
    const n = Number(rows[0].concurrency);
    if (!Number.isInteger(n) || n < 1)
      throw new ConfigError(
        `setting svc.worker_concurrency must be an integer of at least 1 (is "${rows[0].concurrency}")`,
      );
    next.concurrency = n;
  }
  if (env.SVC_WORKER_POLL_INTERVAL === undefined && rows[0].poll !== null)
    next.pollIntervalMs = Math.max(10, Number(rows[0].poll) * 1000);
  return next;
}

/** Settles with `promise`, or after `ms` with undefined: for goodbyes to a database that may be gone. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, elapsed]).finally(() => clearTimeout(timer));
}

/**
 * Checks that the database is set up for svc (checkSetup) and reads its worker settings. A database
 * that is not reachable yet (starting up, restarting) is waited for, a second at a time, up to 30
 * tries; one that is reachable but not set up, or refuses the connection for good, is a ConfigError.
 */
async function prepareDatabase(pool: pg.Pool, config: WorkerConfig): Promise<WorkerConfig> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { schema } = await checkSetup(pool);
      const prepared = await applyDatabaseSettings(pool, config, process.env);
      return { ...prepared, db: { ...prepared.db, options: workerSession(schema) } };
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      const fatal = connectionConfigError(error, config.db);
      if (fatal) throw fatal;
      if (attempt >= 30) throw error;
      log('warn', 'database not reachable yet', errorFields(error));
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const flags = parseArgs(argv);
  if (flags.help !== undefined) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (flags.version !== undefined) {
    process.stdout.write(`${versionLine('svc-worker')}\n`);
    return;
  }
  let config = loadConfig(argv, process.env);
  // Until the worker runs, nothing is claimed: a stop signal ends the process at once (also while
  // it waits for the database or loads the model). Then the worker stops (Worker.stop).
  let worker: Worker | undefined;
  let signals = 0;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (++signals > 1) process.exit(130);
      if (worker) return worker.stop();
      log('info', 'stopped before serving the queue', { signal });
      process.exit(0);
    });
  }
  // A connection attempt gives up after 10 s (a host that does not answer at all), so a stopping
  // worker is never held up by one. workerSession bounds every statement and lock wait, and pins the
  // search_path: pg_catalog alone for the check that finds svc's schema, then with it.
  const connect = (db: WorkerConfig['db']) => {
    const made = new pg.Pool({ ...db, max: 4, connectionTimeoutMillis: 10_000, keepAlive: true });
    made.on('error', (error) => log('warn', 'idle database connection lost', errorFields(error)));
    return made;
  };
  const setup = connect({ ...config.db, options: workerSession() });
  config = await prepareDatabase(setup, config).finally(() => setup.end());
  const pool = connect(config.db);
  // While the models load, the worker says it is starting: a sync call for its models waits for it then,
  // instead of being refused for want of a live worker (SV006).
  const starting = startingBeats(pool, config);
  // One engine per model, loaded one after another; each has `concurrency` sequences, as any may get
  // every job. A model served by an inference server is asked for its model list once (ServerEngine.connect).
  const engines = new Map<string, InferenceEngine>();
  try {
    for (const { name, path, server } of config.models) {
      engines.set(
        name,
        server
          ? await ServerEngine.connect({
              ...server,
              apiKey: process.env.SVC_SERVER_API_KEY || undefined,
              timeoutMs: config.timeoutMs,
            })
          : await Engine.load({
              model: path,
              threads: config.threads,
              sequences: config.concurrency,
              contextSize: config.contextSize,
              onFetchProgress: fetchLog(name),
            }).catch((error: unknown) => {
              // A model that cannot be loaded (no such file, not a GGUF) is bad configuration, not a crash.
              if (error instanceof ModelLoadError)
                throw new ConfigError(`--model ${name === 'default' ? '' : `${name}=`}${path}: ${error.message}`);
              throw error;
            }),
      );
    }
    await starting.stop();
    worker = new Worker(config, pool, engines);
    await worker.run();
    await within(pool.end(), 2000);
  } finally {
    for (const engine of engines.values()) await engine.dispose();
  }
}

/** Heartbeats of state 'starting' for the models the worker will serve, now and every SVC_WORKER_HEARTBEAT until stop(). */
function startingBeats(pool: pg.Pool, config: WorkerConfig): { stop(): Promise<void> } {
  const beat = () =>
    protocol
      .heartbeat(pool, {
        workerId: config.workerId,
        host: hostname(),
        pid: process.pid,
        state: 'starting',
        concurrency: config.concurrency,
        model: null,
        models: Object.fromEntries(config.models.map((m) => [m.name, null])),
        jobsDone: 0,
        jobsFailed: 0,
        jobsInFlight: 0,
      })
      .catch((error: unknown) => log('warn', 'heartbeat failed', errorFields(error)));
  let last = beat();
  const timer = setInterval(() => (last = beat()), config.heartbeatMs);
  return {
    async stop() {
      clearInterval(timer);
      await last;
    },
  };
}

/** A model fetched by URI into the cache (src/model/fetch.ts): its progress in the log, every tenth. */
function fetchLog(model: string): FetchProgress {
  let last = -1;
  return ({ uri, path, received, total, resumedFrom }) => {
    const tenth = total > 0 ? Math.floor((10 * received) / total) : -1;
    if (tenth === last) return;
    last = tenth;
    log('info', 'fetching model', { model, uri, path, received, total, ...(resumedFrom > 0 ? { resumedFrom } : {}) });
  };
}

main().then(
  () => process.exit(0),
  (error) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`svc-worker: ${error.message}\n`);
      process.exit(2);
    }
    log('error', 'worker crashed', errorFields(error));
    process.exit(1);
  },
);
