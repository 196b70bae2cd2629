// `svc-worker`: serve svc's queue with a llama.cpp model. Run it as a system service (see
// scripts/svc-worker.service) or directly: svc-worker --model PATH --db-host ... --db-name ...
import pg from 'pg';
import { availableParallelism } from 'node:os';
import { Engine } from '../src/engine/engine.js';
import { ConfigError, loadConfig, type WorkerConfig } from './config.js';
import { errorFields, log } from './log.js';
import { Worker } from './worker.js';

/** svc.worker_concurrency and svc.worker_poll_interval apply where the environment sets nothing. */
async function applyDatabaseSettings(pool: pg.Pool, config: WorkerConfig, env: NodeJS.ProcessEnv): Promise<WorkerConfig> {
  const { rows } = await pool.query(`SELECT current_setting('svc.worker_concurrency', true) AS concurrency,
    extract(epoch FROM nullif(current_setting('svc.worker_poll_interval', true), '')::interval) AS poll`);
  const next = { ...config };
  if (env.SVC_WORKER_CONCURRENCY === undefined && rows[0].concurrency && !process.argv.includes('--concurrency')) {
    const n = Number(rows[0].concurrency);
    if (!Number.isInteger(n) || n < 1) throw new ConfigError(`setting svc.worker_concurrency must be an integer of at least 1 (is "${rows[0].concurrency}")`);
    next.concurrency = n;
  }
  if (env.SVC_WORKER_POLL_INTERVAL === undefined && rows[0].poll !== null) next.pollIntervalMs = Math.max(10, Number(rows[0].poll) * 1000);
  return next;
}

async function main(): Promise<void> {
  let config = loadConfig(process.argv.slice(2), process.env);
  const pool = new pg.Pool({ ...config.db, max: 4 });
  pool.on('error', (error) => log('warn', 'idle database connection lost', errorFields(error)));
  for (let attempt = 0; ; attempt++) {
    try {
      config = await applyDatabaseSettings(pool, config, process.env);
      break;
    } catch (error) {
      if (error instanceof ConfigError || attempt >= 30) throw error;
      log('warn', 'database not reachable yet', errorFields(error));
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  const engine = await Engine.load({ model: config.model, threads: config.threads ?? availableParallelism(), sequences: config.concurrency, contextSize: config.contextSize });
  const worker = new Worker(config, pool, engine);
  let signals = 0;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (++signals > 1) process.exit(130);
      worker.stop();
    });
  }
  await worker.run();
  await pool.end();
  await engine.dispose();
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
