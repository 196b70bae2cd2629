// How svc-worker starts and stops when things are not right: --help, a database without the svc
// extension, a role outside svc_worker, no such database or role (each exits 2 at once, saying what
// to do), a database not reachable yet (waited for, and SIGTERM still stops it), a role losing
// svc_worker while it runs, and SIGTERM while its database is gone. Real processes throughout.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type Cluster } from '../../scripts/cluster.js';
import { ensureTestModel } from '../../scripts/make-test-model.js';
import { ROLES, createSvcRoles, useSvc } from '../helpers/svc.js';
import { eventually, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc();
const workers: WorkerProcess[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop('SIGKILL')));
});

interface Target {
  host: string;
  port: number;
  database?: string;
  role?: string;
}

/** svc-worker with the given arguments (after the connection options, when `target` is given). */
function worker(
  target: Target | undefined,
  args: string[] = [],
  env: Record<string, string> = {},
): WorkerProcess & { stdout: string[] } {
  const connection =
    target === undefined
      ? []
      : [
          '--model',
          ensureTestModel(),
          '--threads',
          '1',
          '--db-host',
          target.host,
          '--db-port',
          String(target.port),
          '--db-name',
          target.database ?? 'postgres',
          '--db-user',
          target.role ?? ROLES.worker,
        ];
  const child = spawn(process.execPath, ['bin/svc-worker.js', ...connection, ...args], {
    env: { ...process.env, SVC_WORKER_POLL_INTERVAL: '0.2', SVC_WORKER_HEARTBEAT: '0.5', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const stdout: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => logs.push(...chunk.split('\n').filter(Boolean)));
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const w = {
    child,
    logs,
    stdout,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  workers.push(w);
  return w;
}

const here = (): Target => ({ host: svc().cluster.host, port: svc().cluster.port });

/** The exit code, or 'still running' after `ms`. */
const exitWithin = (w: WorkerProcess, ms: number) =>
  Promise.race([w.exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms))]);

const logged = (w: WorkerProcess, msg: string | RegExp) =>
  eventually(`the worker to log ${msg}`, async () =>
    w.logs.some((l) => (typeof msg === 'string' ? l.includes(msg) : msg.test(l))),
  );

test('--help and -h print the usage and exit 0, without a model or a database', async () => {
  for (const flag of ['--help', '-h']) {
    const w = worker(undefined, [flag], { SVC_MODEL: '', PGHOST: '/nonexistent' });
    expect(await w.exited).toBe(0);
    const out = w.stdout.join('');
    expect(out).toMatch(/^usage: svc-worker --model \[NAME=\]PATH/);
    expect(out).toMatch(/CREATE EXTENSION svc/);
    expect(out).toMatch(/GRANT svc_worker TO <role>/);
  }
});

describe('a database not set up for svc: exit 2 at once, saying what to do', () => {
  test('no svc extension in the database', async () => {
    const admin = await svc().connect();
    await admin.query('CREATE DATABASE plain');
    const w = worker({ ...here(), database: 'plain' });
    expect(await w.exited).toBe(2);
    expect(w.logs.join('\n')).toMatch(
      /^svc-worker: the database plain has no svc extension: run CREATE EXTENSION svc CASCADE in it/m,
    );
  });

  test('an svc extension of a version this worker does not speak', async () => {
    const admin = await svc().connect();
    await admin.query('CREATE DATABASE older');
    const older = await svc().cluster.connect('older');
    try {
      await older.query(`CREATE EXTENSION svc VERSION '0.1.0' CASCADE`);
    } finally {
      await older.end();
    }
    const w = worker({ ...here(), database: 'older' });
    expect(await w.exited).toBe(2);
    expect(w.logs.join('\n')).toMatch(
      /^svc-worker: the database older has svc extension 0\.1\.0, and this worker \(svc 0\.2\.0\) speaks 0\.2\.0: run ALTER EXTENSION svc UPDATE in it/m,
    );
  });

  test('a role that is not a member of svc_worker', async () => {
    const admin = await svc().connect();
    await admin.query('CREATE ROLE outsider LOGIN');
    const w = worker({ ...here(), role: 'outsider' });
    expect(await w.exited).toBe(2);
    expect(w.logs.join('\n')).toMatch(
      /^svc-worker: the role outsider is not a member of svc_worker, so it may not serve the queue: run GRANT svc_worker TO outsider/m,
    );
  });

  test('a model file that is not there', async () => {
    const { host, port } = here();
    const w = worker(undefined, [
      '--model',
      '/nope.gguf',
      '--threads',
      '1',
      '--db-host',
      host,
      '--db-port',
      String(port),
      '--db-name',
      'postgres',
      '--db-user',
      ROLES.worker,
    ]);
    expect(await w.exited).toBe(2);
    expect(w.logs.join('\n')).toMatch(/^svc-worker: --model \/nope\.gguf: model file not found: \/nope\.gguf/m);
  });

  test('no such database, no such role', async () => {
    const noDb = worker({ ...here(), database: 'nowhere' });
    const noRole = worker({ ...here(), role: 'nobody' });
    expect(await noDb.exited).toBe(2);
    expect(noDb.logs.join('\n')).toMatch(
      /^svc-worker: database "nowhere" does not exist: point the worker at the database that has the svc extension/m,
    );
    expect(await noRole.exited).toBe(2);
    expect(noRole.logs.join('\n')).toMatch(
      /^svc-worker: cannot connect as role "nobody": role "nobody" does not exist\. .*CREATE ROLE <role> LOGIN IN ROLE svc_worker/m,
    );
  });
});

test('a database not reachable yet is waited for, and SIGTERM stops the wait at once with exit 0', async () => {
  const nowhere = mkdtempSync(join(tmpdir(), 'svc-no-server-'));
  try {
    const w = worker({ host: nowhere, port: 5432 });
    await logged(w, '"msg":"database not reachable yet"');
    expect(await exitWithin(w, 1500)).toBe('still running');
    // Exit 0 at once: left to wait, it would give up after 30 tries with an error.
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
  } finally {
    rmSync(nowhere, { recursive: true, force: true });
  }
}, 60_000);

test('a role losing svc_worker while the worker runs: it says what to do, keeps trying, and resumes once granted again', async () => {
  const admin = await svc().connect();
  await admin.query('CREATE ROLE fickle LOGIN IN ROLE svc_worker');
  const w = worker({ ...here(), role: 'fickle' });
  await eventually(
    'the worker to run',
    async () =>
      (await admin.query(`SELECT 1 FROM svc_worker_status() WHERE pid = $1 AND state = 'running'`, [w.child.pid])).rows
        .length > 0,
  );
  await admin.query('REVOKE svc_worker FROM fickle');
  await logged(w, /claim failed: the role fickle is not a member of svc_worker.*run GRANT svc_worker TO fickle/);
  expect(w.child.exitCode).toBeNull();
  await admin.query('GRANT svc_worker TO fickle');
  const id = (await admin.query(`SELECT svc_generate_async('back again', max_tokens := 4, use_cache := false) AS id`))
    .rows[0].id;
  const done = await eventually('the job to complete', async () => {
    const r = (await admin.query('SELECT status, worker_id FROM svc_queue WHERE request_id = $1', [id])).rows[0];
    return r.status === 'completed' ? r : undefined;
  });
  expect(done.status).toBe('completed');
  expect(await w.stop('SIGTERM')).toBe(0);
}, 60_000);

describe('the database goes away', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster();
    const admin = await cluster.connect();
    await admin.query('CREATE EXTENSION svc CASCADE');
    await createSvcRoles(admin);
    await admin.end();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  test('SIGTERM stops a busy worker and an idle one promptly, exit 0; the job in flight is given up to its lease', async () => {
    const target = { host: cluster.host, port: cluster.port };
    const db = await cluster.connect();
    // A context beyond the test model's training one (2048 tokens, the default since #45), so that the job runs long.
    const busy = worker(target, [], { SVC_WORKER_CONCURRENCY: '1', SVC_WORKER_CONTEXT_SIZE: '16384' });
    // A prompt the test model does not end early: it runs to max_tokens, many seconds on one thread.
    const id = (
      await db.query(`SELECT svc_generate_async('keep going', max_tokens := 16000, use_cache := false) AS id`)
    ).rows[0].id;
    await eventually(
      'the job to be claimed',
      async () =>
        (await db.query('SELECT status FROM svc_queue WHERE request_id = $1', [id])).rows[0].status === 'processing',
    );
    const idle = worker(target);
    await eventually(
      'the idle worker to run',
      async () =>
        (await db.query(`SELECT 1 FROM svc_worker_status() WHERE pid = $1 AND state = 'running'`, [idle.child.pid]))
          .rows.length > 0,
    );
    await db.end();
    await cluster.stop();
    await Promise.all([busy, idle].map((w) => logged(w, /"msg":"(claim failed; retrying|heartbeat failed)"/)));
    // The busy one does not wait for its job (16,000 tokens): it gives it up (the logs below).
    busy.child.kill('SIGTERM');
    idle.child.kill('SIGTERM');
    expect(await busy.exited).toBe(0);
    expect(await idle.exited).toBe(0);
    for (const w of [busy, idle]) expect(w.logs.some((l) => JSON.parse(l).msg === 'worker stopped')).toBe(true);
    expect(busy.logs.join('\n')).toMatch(/stopping while the database is unreachable: giving up the jobs in flight/);
    expect(busy.logs.join('\n')).toMatch(/job given up; its lease will expire and it will run again/);
  }, 90_000);
});
