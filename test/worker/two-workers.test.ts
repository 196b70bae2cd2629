// Two real worker processes against one database (#55): every request is run once and completed once,
// and each worker takes part. Each runs one job at a time (SVC_WORKER_CONCURRENCY=1, one thread),
// claiming a few ahead (SVC_WORKER_PREFETCH's default), so their claims race all through a batch.
//
// Who ran what is read from svc's own records: the queue row (completed, attempt 1: claimed once,
// retry_count 0: never requeued, worker_id: who completed it), the workers' heartbeats (jobs_done), and
// each worker's own log (`job started`, `job completed`: a request run or written by both, or twice by
// one, shows there). Each worker first runs a batch while the other is stopped (SIGSTOP), so that both
// take part whatever the scheduler does; then both run a set-based call together.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, workerSet, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
const workers = workerSet(() => svc().cluster, { SVC_WORKER_CONCURRENCY: '1', SVC_WORKER_DEBUG: '1' });
let su: pg.Client;
let alice: pg.Client;
let a: WorkerProcess;
let b: WorkerProcess;
/** svc_workers.worker_id of each, by its process id. */
const ids = new Map<WorkerProcess, string>();

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  a = workers.start();
  b = workers.start();
  for (const w of [a, b]) {
    ids.set(
      w,
      await eventually('the worker to heartbeat as running', async () => {
        const { rows } = await su.query(`SELECT worker_id FROM svc_workers WHERE pid = $1 AND state = 'running'`, [
          w.child.pid,
        ]);
        return rows[0]?.worker_id as string | undefined;
      }),
    );
  }
}, 120_000);
afterAll(async () => {
  await workers.killAll();
});

/** Submits `n` embeddings in one batch (async, as alice) and waits until all are finished; their ids. */
async function batch(tag: string, n: number): Promise<string[]> {
  const texts = Array.from({ length: n }, (_, i) => `${tag} ${i}`);
  const { rows } = await alice.query(`SELECT svc_embed_batch_async($1::text[], use_cache := false) AS ids`, [texts]);
  const requests: string[] = rows[0].ids;
  await eventually(
    `the ${tag} batch to finish`,
    async () =>
      (
        await su.query(
          `SELECT count(*) = 0 AS done FROM svc_queue WHERE request_id = ANY ($1) AND status IN ('pending', 'processing')`,
          [requests],
        )
      ).rows[0].done,
  );
  return requests;
}

/** The log lines `msg` of a worker, by request id. */
function logged(w: WorkerProcess, msg: string): string[] {
  return w.logs.flatMap((line) => {
    if (!line.startsWith('{')) return []; // (a line of Node's own, not the worker's log)
    const entry = JSON.parse(line) as { msg?: string; requestId?: string };
    return entry.msg === msg && entry.requestId !== undefined ? [entry.requestId] : [];
  });
}

test('each request is run and completed once, by one of the two workers, and both take part', async () => {
  // A alone (B stopped), then B alone (A stopped): each does some of the work whatever the scheduler does.
  b.child.kill('SIGSTOP');
  const first = await batch('a alone', 20);
  b.child.kill('SIGCONT');
  a.child.kill('SIGSTOP');
  const second = await batch('b alone', 20);
  a.child.kill('SIGCONT');
  // Both at once: one set-based call, whose requests either worker claims, a few at a time.
  const before = (await su.query(`SELECT coalesce(max(seq), 0) AS seq FROM svc_queue`)).rows[0].seq;
  const texts = Array.from({ length: 300 }, (_, i) => `together ${i}`);
  // Its short prompts go several to a request (src/queue/generate-many.ts): at least twice as many
  // requests as the two workers have slots.
  const { rows: answers } = await alice.query(
    `SELECT ord, error FROM svc_generate($1::text[], max_tokens := 1, use_cache := false)`,
    [texts],
  );
  expect(answers.filter((r) => r.error !== null)).toEqual([]);
  expect(answers).toHaveLength(texts.length);
  const made = (
    await su.query(`SELECT array_agg(request_id) AS ids, sum(inputs)::int AS inputs FROM svc_queue WHERE seq > $1`, [
      before,
    ])
  ).rows[0];
  const together: string[] = made.ids;
  expect(made.inputs).toBe(texts.length);
  expect(together.length).toBeGreaterThanOrEqual(4);

  const all = [...first, ...second, ...together];
  const { rows } = await su.query(
    `SELECT request_id, status, attempt, retry_count, worker_id FROM svc_queue WHERE request_id = ANY ($1)`,
    [all],
  );
  const row = new Map(rows.map((r) => [r.request_id as string, r]));
  // Every request completed, claimed once and never requeued.
  expect(rows.filter((r) => r.status !== 'completed' || r.attempt !== 1 || r.retry_count !== 0)).toEqual([]);
  expect(rows).toHaveLength(all.length);
  // Who completed each: the batches run alone by the worker that ran; the rest by one of the two.
  expect(new Set(first.map((id) => row.get(id)!.worker_id))).toEqual(new Set([ids.get(a)]));
  expect(new Set(second.map((id) => row.get(id)!.worker_id))).toEqual(new Set([ids.get(b)]));
  expect(
    together.filter((id) => row.get(id)!.worker_id !== ids.get(a) && row.get(id)!.worker_id !== ids.get(b)),
  ).toEqual([]);

  // The workers' own logs: each request started once and completed once, by the worker the queue names.
  for (const msg of ['job started', 'job completed']) {
    const byA = logged(a, msg).filter((id) => row.has(id));
    const byB = logged(b, msg).filter((id) => row.has(id));
    expect({ msg, twice: [...byA, ...byB].length - new Set([...byA, ...byB]).size }).toEqual({ msg, twice: 0 });
    expect(new Set([...byA, ...byB])).toEqual(new Set(all));
    expect(byA.filter((id) => row.get(id)!.worker_id !== ids.get(a))).toEqual([]);
    expect(byB.filter((id) => row.get(id)!.worker_id !== ids.get(b))).toEqual([]);
  }
  // And their heartbeats count the same jobs (the next heartbeat of each says so).
  const ranBy = (w: WorkerProcess) => all.filter((id) => row.get(id)!.worker_id === ids.get(w)).length;
  for (const w of [a, b]) {
    await eventually('the heartbeat to count its jobs', async () => {
      const { rows: beat } = await su.query(`SELECT jobs_done, jobs_failed FROM svc_workers WHERE worker_id = $1`, [
        ids.get(w),
      ]);
      return Number(beat[0].jobs_done) === ranBy(w) && Number(beat[0].jobs_failed) === 0;
    });
  }
  // What the together call's rows say of the share (printed: two workers on 2 cores each take a part,
  // but how much is the scheduler's doing).
  console.log(
    `together: ${together.filter((id) => row.get(id)!.worker_id === ids.get(a)).length} by one worker, ${together.filter((id) => row.get(id)!.worker_id === ids.get(b)).length} by the other`,
  );
}, 180_000);

test('a completion refused while another statement holds its row for a moment is written again: the request runs once', async () => {
  // What a lease renewal does to a row for a moment (svc_worker_renew locks the rows it renews), held
  // here until the worker has been refused: its completion never waits for a row lock.
  const locker = await svc().connect();
  let id: string | undefined;
  for (let tries = 0; id === undefined && tries < 10; tries++) {
    // A generation long enough to be caught running (the test model rarely ends one early).
    const { rows } = await alice.query(`SELECT svc_generate_async($1, max_tokens := 1500, use_cache := false) AS id`, [
      `held ${tries}`,
    ]);
    const candidate: string = rows[0].id;
    await eventually(
      'the request to be claimed',
      async () =>
        (await su.query(`SELECT status <> 'pending' AS claimed FROM svc_queue WHERE request_id = $1`, [candidate]))
          .rows[0].claimed,
    );
    await locker.query('BEGIN');
    const { rows: held } = await locker.query(`SELECT status FROM svc_queue WHERE request_id = $1 FOR UPDATE`, [
      candidate,
    ]);
    if (held[0].status === 'processing') id = candidate;
    else await locker.query('ROLLBACK'); // finished before it was caught: another
  }
  expect(id).toBeDefined();
  // Refused once (the worker then writes it again; before #55 it gave the request up to its lease).
  const refused = () =>
    [a, b].some((w) =>
      w.logs.some(
        (line) =>
          line.includes(id!) &&
          (line.includes('"completion refused; writing it again"') || line.includes('"completion refused: ')),
      ),
    );
  await eventually('the completion to be refused', async () => refused());
  await locker.query('COMMIT');
  // (Given up, it would run again once its lease of 30 s expired.)
  await eventually(
    'the request to complete',
    async () =>
      (await su.query(`SELECT status = 'completed' AS done FROM svc_queue WHERE request_id = $1`, [id])).rows[0].done,
  );
  const { rows } = await su.query(`SELECT attempt, retry_count FROM svc_queue WHERE request_id = $1`, [id]);
  expect(rows[0]).toEqual({ attempt: 1, retry_count: 0 });
  expect([...logged(a, 'job started'), ...logged(b, 'job started')].filter((r) => r === id)).toHaveLength(1);
  expect([...logged(a, 'job completed'), ...logged(b, 'job completed')].filter((r) => r === id)).toHaveLength(1);
}, 180_000);
