// Issue #52: a model call in flight holds nothing up. While a long job runs (a vectorize job of
// thousands of embeddings), the worker keeps heartbeating; on SIGTERM it stops within its grace
// (SVC_WORKER_STOP_GRACE), and the job it stopped runs again. Each wait is on a state: a heartbeat
// newer than the last, the job's status, the process's exit.
import type pg from 'pg';
import { useSvc } from '../helpers/svc.js';
import { eventually, startWorker } from '../helpers/worker.js';
import { STORIES_MODEL } from '../helpers/real-models.js';

const svc = useSvc();
let db: pg.Client;
beforeAll(async () => {
  db = await svc().connect();
});

const heartbeat = async (): Promise<Date | undefined> =>
  (await db.query(`SELECT max(last_heartbeat) AS t FROM svc_workers WHERE state = 'running'`)).rows[0].t;
const jobStatus = async () =>
  (await db.query(`SELECT status, error, retry_count FROM svc_queue WHERE function_name = 'vectorize'`)).rows[0];

test('heartbeats go on while a long job runs, and SIGTERM stops the worker within its grace; the job runs again', async () => {
  // 20 rows of 999 chunks each, in one job: about 20,000 embeddings, each of its chunk 40 times over
  // (the format), seconds of llama.cpp even through svc's embedding addon (the bare 2-character
  // chunks took ~1 s there, and the job could end before the stop grace).
  await db.query(
    `CREATE TABLE long (id integer PRIMARY KEY, body text); INSERT INTO long SELECT i, repeat('ab', 500) FROM generate_series(1, 20) i`,
  );
  await db.query(
    `SELECT svc_vectorize('long', 'body', 'long', chunk_by := 'characters', chunk_size := 2, chunk_overlap := 1, separators := ARRAY[''], batch_size := 20, format := repeat('$chunk ', 40))`,
  );
  const worker = startWorker(svc().cluster, { SVC_WORKER_STOP_GRACE: '1', SVC_WORKER_HEARTBEAT: '0.3' }, STORIES_MODEL);
  try {
    await eventually('the job to run', async () => (await jobStatus())?.status === 'processing');
    // Three heartbeats, each newer than the last, while the job is still running.
    for (let beat = 0; beat < 3; beat++) {
      const before = await heartbeat();
      await eventually(`heartbeat ${beat + 1}`, async () => {
        const now = await heartbeat();
        return now !== undefined && (before === undefined || now > before);
      });
    }
    expect((await jobStatus()).status).toBe('processing');
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.logs.join('\n')).toMatch(/stop grace passed/);
  } finally {
    await worker.stop('SIGKILL');
  }
  const after = await jobStatus();
  expect(after).toMatchObject({ status: 'pending', retry_count: 1 });
  expect(after.error).toMatch(/SVC_WORKER_STOP_GRACE \(1 s\) passed before this job finished/);
}, 180_000);
