// Starts `svc-worker` as a child process against a throwaway cluster: used by the demo, the
// benchmarks and the tests, so they all run the worker the way a user would.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import type { Cluster } from './cluster.js';

export interface WorkerProcessOptions {
  /** A database role that is a member of svc_worker. */
  role: string;
  model: string;
  threads?: number;
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
  return spawn(process.execPath, args, { env: { ...process.env, ...o.env }, stdio: o.stdio ?? ['ignore', 'ignore', 'pipe'] });
}
