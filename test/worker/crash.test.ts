// Crash safety with real processes: a worker killed mid-job, a database restart, jobs that always
// fail or run past SVC_WORKER_TIMEOUT, a result whose write is held up, and a graceful stop. Nothing
// lost, nothing completed twice.
import type pg from 'pg';
import { useSvc } from '../helpers/svc.js';
import { eventually, workerSet, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.retry_backoff': "'0'" } });
let db: pg.Client;
const completions: Array<{ request_id: string; status: string }> = [];
const workers = workerSet(() => svc().cluster);
const start = workers.start;

async function listen(): Promise<void> {
  const listener = await svc().connect();
  listener.on('notification', (n) => completions.push(JSON.parse(n.payload!)));
  await listener.query('LISTEN svc_completed');
}

beforeAll(async () => {
  db = await svc().connect();
  await listen();
});
afterEach(async () => {
  await workers.killAll();
  await db.query('DELETE FROM svc_queue');
});

const LONG = 2500; // tokens: a few seconds of the tiny model on one thread

async function submit(prompt: string, maxTokens = LONG): Promise<string> {
  return (
    await db.query(`SELECT svc_generate_async($1, max_tokens := $2, use_cache := false) AS id`, [prompt, maxTokens])
  ).rows[0].id;
}
const row = async (id: string) => (await db.query('SELECT * FROM svc_queue WHERE request_id = $1', [id])).rows[0];
const finished = (id: string) => async () => {
  const r = await row(id);
  return ['completed', 'failed'].includes(r.status) ? r : undefined;
};
const announced = (id: string) => completions.filter((c) => c.request_id === id);

test('kill -9 mid-job: another worker completes it exactly once after the lease expires', async () => {
  const id = await submit('interrupted');
  const first = start({ SVC_WORKER_LEASE: '1', SVC_WORKER_CONCURRENCY: '1' });
  const claimed = await eventually('the job to be claimed', async () => {
    const r = await row(id);
    return r.status === 'processing' ? r : undefined;
  });
  first.child.kill('SIGKILL');
  await first.exited;
  start({ SVC_WORKER_LEASE: '1', SVC_WORKER_CONCURRENCY: '1' });
  const done = await eventually('the job to finish', finished(id));
  expect(done.status).toBe('completed');
  expect(done.attempt).toBe(claimed.attempt + 1);
  expect(done.retry_count).toBe(1);
  expect(done.worker_id).not.toBe(claimed.worker_id);
  await new Promise((r) => setTimeout(r, 300));
  expect(announced(id)).toEqual([{ request_id: id, function: 'generate', status: 'completed' }]);
}, 120_000);

test('a PostgreSQL restart: the worker reconnects and drains the queue', async () => {
  start({ SVC_WORKER_CONCURRENCY: '2' });
  const before = [await submit('before 1', 400), await submit('before 2', 400), await submit('before 3', 400)];
  await eventually(
    'work to start',
    async () => (await db.query(`SELECT 1 FROM svc_queue WHERE status = 'processing'`)).rows.length > 0,
  );
  await svc().cluster.restart();
  db = await svc().connect();
  await listen();
  const after = [await submit('after 1', 16), await submit('after 2', 16)];
  for (const id of [...before, ...after]) {
    expect((await eventually(`request ${id} to finish`, finished(id))).status).toBe('completed');
  }
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM svc_queue WHERE status = 'completed'`);
  expect(rows[0].n).toBe(5);
}, 150_000);

test('a job past SVC_WORKER_TIMEOUT is aborted and retried, then fails with its error after the retries', async () => {
  start({ SVC_WORKER_TIMEOUT: '0.3', SVC_WORKER_MAX_RETRIES: '2', SVC_WORKER_CONCURRENCY: '1' });
  const id = await submit('never finishes in time', 3000);
  const done = await eventually('the job to fail', finished(id));
  expect(done.status).toBe('failed');
  expect(done.retry_count).toBe(2);
  expect(done.attempt).toBe(3);
  expect(done.error).toBe('timed out after 0.3 s (SVC_WORKER_TIMEOUT)');
  expect(done.failed_at).toBeInstanceOf(Date);
  await new Promise((r) => setTimeout(r, 300));
  expect(announced(id)).toEqual([{ request_id: id, function: 'generate', status: 'failed' }]);
}, 90_000);

test('output that cannot satisfy its constraint fails at once, without useless retries', async () => {
  start({ SVC_WORKER_CONCURRENCY: '1' });
  const schema = { type: 'object', properties: { text: { type: 'string', minLength: 40 } }, required: ['text'] };
  const id = (await db.query(`SELECT svc_generate_json_async('x', $1::jsonb, max_tokens := 6) AS id`, [schema])).rows[0]
    .id;
  const done = await eventually('the job to fail', finished(id));
  expect(done).toMatchObject({ status: 'failed', retry_count: 0 });
  // The decoder knows the grammar's shortest output on this vocabulary: 6 tokens cannot hold it (#23).
  expect(done.error).toMatch(
    /^max_tokens 6 is below the \d+ tokens the shortest output of this constraint takes on this model$/,
  );
});

test('SIGTERM: the worker finishes the job in flight, then exits 0', async () => {
  const w = start({ SVC_WORKER_CONCURRENCY: '1' });
  // A prompt the test model does not end early: 'finish me' ended after 104 tokens (~40 ms), which the
  // 50 ms poll below sometimes missed. This one runs to max_tokens, about a second on one thread.
  const id = await submit('keep going', 1200);
  await eventually('the job to be claimed', async () => (await row(id)).status === 'processing').catch((e) => {
    throw new Error(`${e.message}; worker log:\n${w.logs.join('\n')}`);
  });
  const code = await w.stop('SIGTERM');
  expect(code).toBe(0);
  expect((await row(id)).status).toBe('completed');
  expect(w.logs.some((l) => JSON.parse(l).msg === 'worker stopped')).toBe(true);
  const status = (await db.query(`SELECT state FROM svc_worker_status() WHERE pid = $1`, [w.child.pid])).rows[0];
  expect(status.state).toBe('stopped');
}, 60_000);

test('a slot is free once its job has run: a result held up in writing does not hold it, and SIGTERM waits for the write', async () => {
  const w = start({ SVC_WORKER_CONCURRENCY: '1' });
  const first = await submit('keep going');
  await eventually('the first job to be claimed', async () => (await row(first)).status === 'processing');
  // Lock the first job's row while it runs: its result cannot be written until this transaction ends.
  const blocker = await svc().connect();
  try {
    await blocker.query('BEGIN');
    await blocker.query('SELECT 1 FROM svc_queue WHERE request_id = $1 FOR UPDATE', [first]);
    const second = await submit('next', 16);
    await eventually(
      'the second job to be claimed while the first result waits',
      async () => (await row(second)).status === 'processing',
    );
    expect((await row(first)).status).toBe('processing');
    w.child.kill('SIGTERM');
    const early = await Promise.race([
      w.exited.then(() => 'exited'),
      new Promise((r) => setTimeout(() => r('still writing'), 500)),
    ]);
    expect(early).toBe('still writing');
    await blocker.query('COMMIT');
    expect(await w.exited).toBe(0);
    expect((await row(first)).status).toBe('completed');
    expect((await row(second)).status).toBe('completed');
  } finally {
    await blocker.end();
  }
}, 90_000);

test('bad worker configuration is a clear error with exit code 2', async () => {
  const w = start({ SVC_WORKER_CONCURRENCY: 'lots' });
  expect(await w.exited).toBe(2);
  expect(w.logs.join('\n')).toMatch(/SVC_WORKER_CONCURRENCY must be an integer of at least 1 \(got "lots"\)/);
});

describe('waking up', () => {
  test('the enqueue notification wakes an idle worker, whose poll would come an hour later', async () => {
    start({ SVC_WORKER_POLL_INTERVAL: '3600' });
    await eventually(
      'the worker to start',
      async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
    );
    await new Promise((r) => setTimeout(r, 300)); // idle now, waiting on LISTEN
    const id = await submit('wake up', 4);
    expect((await eventually('the job to finish', finished(id))).status).toBe('completed');
  }, 60_000);

  test('polling finds work that arrived without a notification', async () => {
    start({ SVC_WORKER_POLL_INTERVAL: '0.3' });
    const { rows } = await db.query(`INSERT INTO svc_queue (function_name, parameters)
      VALUES ('generate', '{"prompt": "silent", "max_tokens": 4, "use_cache": false, "seed": 42}') RETURNING request_id`);
    expect((await eventually('the job to finish', finished(rows[0].request_id))).status).toBe('completed');
  }, 60_000);

  test('svc.worker_concurrency applies when SVC_WORKER_CONCURRENCY is unset', async () => {
    await db.query(`ALTER DATABASE postgres SET svc.worker_concurrency = 3`);
    try {
      const w = start();
      const row = await eventually(
        'a heartbeat',
        async () =>
          (await db.query(`SELECT concurrency FROM svc_worker_status() WHERE pid = $1`, [w.child.pid])).rows[0],
      );
      expect(row.concurrency).toBe(3);
    } finally {
      await db.query(`ALTER DATABASE postgres RESET svc.worker_concurrency`);
    }
  }, 60_000);
});
