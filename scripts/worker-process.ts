// Starts `svc-worker` as a child process against a throwaway cluster: used by the demo, the
// benchmarks and the tests, so they all run the worker the way a user would.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import type { Cluster } from './cluster.js';

export interface WorkerProcessOptions {
  /** A database role that is a member of svc_worker. */
  role: string;
  model: string;
  threads?: number;
  /** --worker-id (default: the worker's host:pid:random), so that a caller can tell its workers apart in svc_workers and svc_queue. */
  workerId?: string;
  env?: Record<string, string>;
  stdio?: StdioOptions;
}

export function spawnWorker(cluster: Cluster, o: WorkerProcessOptions): ChildProcess {
  const args = [
    'bin/svc-worker.js',
    '--model',
    o.model,
    '--db-host',
    cluster.host,
    '--db-port',
    String(cluster.port),
    '--db-name',
    'postgres',
    '--db-user',
    o.role,
  ];
  if (o.threads !== undefined) args.push('--threads', String(o.threads));
  if (o.workerId !== undefined) args.push('--worker-id', o.workerId);
  return spawn(process.execPath, args, {
    env: { ...process.env, ...o.env },
    stdio: o.stdio ?? ['ignore', 'ignore', 'pipe'],
  });
}

/**
 * Resolves once a worker says it is `running` (its models loaded: svc_worker_status), so that the
 * first call finds one live; rejects if `worker` exits first. The extension must exist.
 */
export async function workerRunning(
  db: { query(sql: string): Promise<{ rows: unknown[] }> },
  worker?: ChildProcess,
): Promise<void> {
  let exited: number | null | undefined;
  const onExit = (code: number | null) => (exited = code);
  worker?.once('exit', onExit);
  try {
    while ((await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length === 0) {
      if (exited !== undefined) throw new Error(`svc-worker exited (${exited}) before it was running`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    worker?.off('exit', onExit);
  }
}
