// Retention: workers delete finished requests older than svc.retention by themselves, in small
// batches, oldest first; pending, processing and recent requests stay; a malformed setting is an error
// naming it, logged by the worker, which goes on working.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';
import * as protocol from '../../worker/protocol.js';

const svc = useSvc();
let db: pg.Client;
let workerDb: pg.Client;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  db = await svc().connect();
  workerDb = await svc().connect(ROLES.worker);
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  await db.query(`ALTER ROLE ${ROLES.worker} RESET svc.retention`);
});

const count = async (where: string) =>
  Number((await db.query(`SELECT count(*) AS n FROM svc_queue WHERE ${where}`)).rows[0].n);

test('svc_worker_cleanup deletes finished requests older than svc.retention, oldest first, at most max_rows', async () => {
  await db.query(`INSERT INTO svc_queue (function_name, parameters, status, completed_at, failed_at, cancelled_at)
    SELECT 'generate', jsonb_build_object('prompt', 'old ' || i), s, CASE s WHEN 'completed' THEN t END, CASE s WHEN 'failed' THEN t END, CASE s WHEN 'cancelled' THEN t END
    FROM generate_series(1, 30) i, LATERAL (SELECT (ARRAY['completed', 'failed', 'cancelled'])[1 + i % 3] AS s, now() - interval '2 days' - i * interval '1 minute' AS t) x`);
  await db.query(
    `INSERT INTO svc_queue (function_name, parameters, status, completed_at) VALUES ('generate', '{"prompt":"recent"}', 'completed', now() - interval '1 hour')`,
  );
  await db.query(
    `INSERT INTO svc_queue (function_name, parameters, created_at) VALUES ('generate', '{"prompt":"old pending"}', now() - interval '3 days')`,
  );
  expect(await protocol.cleanup(workerDb, 10)).toBe(10);
  // The oldest went first: old 30 .. old 21.
  expect(await count(`parameters->>'prompt' IN ('old 30', 'old 21')`)).toBe(0);
  expect(await count(`parameters->>'prompt' = 'old 20'`)).toBe(1);
  expect(await protocol.cleanup(workerDb, 1000)).toBe(20);
  expect(await protocol.cleanup(workerDb, 1000)).toBe(0);
  expect((await db.query(`SELECT parameters->>'prompt' AS p FROM svc_queue ORDER BY 1`)).rows.map((r) => r.p)).toEqual([
    'old pending',
    'recent',
  ]);
  await expect(workerDb.query('SELECT svc_worker_cleanup(0)')).rejects.toMatchObject({ code: '22023' });
  await expect(
    svc()
      .connect(ROLES.alice)
      .then((alice) => alice.query('SELECT svc_worker_cleanup()')),
  ).rejects.toThrow(/permission denied/);
  await workerDb.query(`SET svc.retention = 'a while'`);
  await expect(workerDb.query('SELECT svc_worker_cleanup()')).rejects.toMatchObject({
    code: '22023',
    message: expect.stringMatching(/setting svc.retention must be an interval/),
  });
  await workerDb.query('RESET svc.retention');
});

test('a running worker removes what it finished once svc.retention has passed, with no admin call', async () => {
  await db.query(`ALTER ROLE ${ROLES.worker} SET svc.retention = '1 second'`);
  worker = startWorker(svc().cluster);
  const ids = (await db.query(`SELECT svc_generate_batch_async(ARRAY['r1', 'r2', 'r3'], max_tokens := 4) AS ids`))
    .rows[0].ids as string[];
  for (const id of ids) await db.query('SELECT svc_get_async_result($1) AS r', [id]);
  await eventually(
    'the finished requests to be deleted',
    async () => (await count(`request_id = ANY ('{${ids.join(',')}}')`)) === 0,
  );
  expect(worker.logs.filter((l) => l.includes('retention cleanup failed'))).toEqual([]);
});

test('a malformed svc.retention is logged by the worker, which goes on serving', async () => {
  await db.query(`ALTER ROLE ${ROLES.worker} SET svc.retention = 'forever and a day'`);
  worker = startWorker(svc().cluster);
  await eventually('the error to be logged', async () =>
    worker!.logs.some((l) => l.includes('retention cleanup failed') && l.includes('svc.retention')),
  );
  const id = (await db.query(`SELECT svc_generate_async('still served', max_tokens := 4) AS id`)).rows[0].id;
  expect(typeof (await db.query('SELECT svc_get_async_result($1) AS r', [id])).rows[0].r).toBe('string');
});
