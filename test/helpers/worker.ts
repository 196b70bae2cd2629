// Real svc-worker processes for tests, on the tiny deterministic test model (its any-character
// vocabulary reaches every byte) unless a test names another model.
import type { ChildProcess } from 'node:child_process';
import { ensureTestModel } from '../../scripts/make-test-model.js';
import { spawnWorker } from '../../scripts/worker-process.js';
import type { Cluster } from '../../scripts/cluster.js';
import { ROLES } from './svc.js';

export interface WorkerProcess {
  child: ChildProcess;
  logs: string[];
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startWorker(
  cluster: Cluster,
  env: Record<string, string> = {},
  model = ensureTestModel(),
): WorkerProcess {
  const child = spawnWorker(cluster, {
    role: ROLES.worker,
    model,
    threads: 1,
    env: { SVC_WORKER_POLL_INTERVAL: '0.2', SVC_WORKER_HEARTBEAT: '0.5', ...env },
  });
  const logs: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => logs.push(...chunk.split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    logs,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * A real worker, stopped (SIGSTOP) once it has sent its first heartbeat: alive to svc (its heartbeat is
 * fresh for a minute) but claiming nothing, so a synchronous call waits for it until svc.sync_timeout,
 * as for a busy worker. kill() ends it.
 */
export async function frozenWorker(
  cluster: Cluster,
  db: { query(sql: string): Promise<{ rows: unknown[] }> },
): Promise<{ kill(): Promise<void> }> {
  const w = startWorker(cluster);
  await eventually(
    'the worker to heartbeat',
    async () => (await db.query(`SELECT 1 FROM svc_workers WHERE state = 'running'`)).rows.length > 0,
  );
  w.child.kill('SIGSTOP');
  return {
    async kill() {
      w.child.kill('SIGKILL');
      await w.exited;
    },
  };
}

/** Waits until a worker has sent a heartbeat as running: a sync call with no live worker is refused at once (SV006). */
export async function heardFrom(db: { query(sql: string): Promise<{ rows: unknown[] }> }): Promise<void> {
  await eventually(
    'a worker to heartbeat',
    async () => (await db.query(`SELECT 1 FROM svc_workers WHERE state = 'running'`)).rows.length > 0,
  );
}

/**
 * Waits until `probe` holds, polling: on a state, never on a time. Load stretches every wait, so
 * there is no deadline of its own; the test's timeout bounds it, and `what` says what never came.
 */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
  const started = Date.now();
  let said = started;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as T;
    const now = Date.now();
    // Past any test's timeout: a probe left running by a test that already failed.
    if (now - started > 3_600_000) throw new Error(`gave up waiting for ${what}`);
    if (now - said > 60_000) {
      said = now;
      console.warn(`still waiting for ${what} (${Math.round((now - started) / 1000)} s)`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Workers a test file starts, each with `defaults` under its own env, and kills together (`killAll`,
 * in the file's afterEach, before it clears the queue).
 */
export function workerSet(cluster: () => Cluster, defaults: Record<string, string> = {}) {
  const started: WorkerProcess[] = [];
  return {
    start(env: Record<string, string> = {}): WorkerProcess {
      const w = startWorker(cluster(), { ...defaults, ...env });
      started.push(w);
      return w;
    },
    async killAll(): Promise<void> {
      await Promise.all(started.splice(0).map((w) => w.stop('SIGKILL')));
    },
  };
}
