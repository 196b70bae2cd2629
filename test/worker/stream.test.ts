// Streaming from SQL (#37) with a real worker: while an async generation runs, svc_get_partial_result
// shows its text so far (a prefix of the result, growing) and svc_progress announces each write with
// {"request_id","tokens"} only; once completed it gives the result, byte for byte the sync call's. On
// the trained stories260K and on a qwen2-vocabulary model (byte-level BPE: characters split across
// tokens, and bytes that are not UTF-8). Another role sees nothing of it, and the error paths are named.
import { execFileSync } from 'node:child_process';
import type pg from 'pg';
import { fencedBlocks } from '../helpers/docs.js';
import { STORIES_MODEL, realVocabModel } from '../helpers/real-models.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let alice: pg.Client;
let listener: pg.Client;
let bob: pg.Client;
let su: pg.Client;
let workerRole: pg.Client;
let worker: WorkerProcess;
const notices: Array<{ payload: string; at: number }> = [];
const INTERVAL_MS = 10;

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  listener = await svc().connect(ROLES.alice);
  bob = await svc().connect(ROLES.bob);
  workerRole = await svc().connect(ROLES.worker);
  worker = startWorker(
    svc().cluster,
    { SVC_WORKER_CONCURRENCY: '1', SVC_WORKER_PROGRESS_INTERVAL: String(INTERVAL_MS / 1000) },
    `default=${STORIES_MODEL},qwen=${await realVocabModel('qwen2')}`,
  );
  await eventually(
    'the worker to heartbeat',
    async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
  listener.on('notification', (n) => {
    if (n.channel === 'svc_progress') notices.push({ payload: n.payload!, at: Date.now() });
  });
  await listener.query('LISTEN svc_progress');
}, 120_000);
afterAll(async () => {
  await worker?.stop();
});

interface Partial {
  status: string;
  partial_result: string | null;
  tokens: number | null;
  error: string | null;
}
const partial = async (client: pg.Client, id: string): Promise<Partial | undefined> =>
  (await client.query<Partial>('SELECT status, partial_result, tokens, error FROM svc_get_partial_result($1)', [id]))
    .rows[0];

/** Reads a request as a streaming reader would, until it is finished: the states seen, and the text built from each new end of partial_result. */
async function follow(id: string) {
  const seen: Partial[] = [];
  let text = '';
  for (;;) {
    const state = (await partial(alice, id))!;
    seen.push(state);
    if (state.partial_result !== null) {
      expect(state.partial_result.startsWith(text)).toBe(true); // never takes back what it showed
      text = state.partial_result;
    }
    if (!['pending', 'processing'].includes(state.status)) return { seen, text, final: state };
  }
}

/** An async request followed while it runs, and the same request's sync answer. */
async function streamed(submit: string, sync: string, params: unknown[], model = 'default') {
  await alice.query(`SET svc.model = '${model}'`);
  try {
    const id = (await alice.query(submit, params)).rows[0].id as string;
    const run = await follow(id);
    const notified = notices
      .filter((n) => JSON.parse(n.payload).request_id === id)
      .map((n) => JSON.parse(n.payload) as { request_id: string; tokens: number });
    const byAsync = (await alice.query('SELECT svc_get_async_result($1) AS r', [id])).rows[0].r as string;
    const bySync = (await alice.query(sync, params)).rows[0].r as string;
    const ran = (
      await alice.query(
        `SELECT extract(epoch FROM completed_at - started_at) * 1000 AS ms FROM svc_queue WHERE request_id = $1`,
        [id],
      )
    ).rows[0].ms;
    return { id, ...run, notified, byAsync, bySync, ranMs: Number(ran) };
  } finally {
    await alice.query('RESET svc.model');
  }
}

function expectStreamed(run: Awaited<ReturnType<typeof streamed>>) {
  expect(run.final).toMatchObject({ status: 'completed', tokens: null, error: null });
  expect(run.text).toBe(run.byAsync);
  expect(run.byAsync).toBe(run.bySync);
  const processing = run.seen.filter((s) => s.status === 'processing');
  const texts = [...new Set(processing.map((s) => s.partial_result))].filter((t) => t !== '');
  expect(texts.length).toBeGreaterThanOrEqual(3); // it was read while it ran, more than once
  for (const t of texts) expect(run.byAsync.startsWith(t!)).toBe(true);
  expect(texts.some((t) => t!.length < run.byAsync.length)).toBe(true);
  const tokens = processing.map((s) => s.tokens!);
  expect(tokens).toEqual([...tokens].sort((a, b) => a - b));
  // The notifications: only the request and its count, counts growing.
  expect(run.notified.length).toBeGreaterThanOrEqual(3);
  // Bounded by time: at most one write per SVC_WORKER_PROGRESS_INTERVAL (10 ms here) while the job ran.
  expect(run.notified.length).toBeLessThanOrEqual(run.ranMs / INTERVAL_MS + 1);
  for (const n of run.notified) expect(Object.keys(n).sort()).toEqual(['request_id', 'tokens']);
  const counts = run.notified.map((n) => n.tokens);
  expect(counts).toEqual([...counts].sort((a, b) => a - b));
}

const GENERATE = [
  'SELECT svc_generate_async($1, max_tokens := $2, use_cache := false) AS id',
  'SELECT svc_generate($1, max_tokens := $2, use_cache := false) AS r',
] as const;

test('stories260K: the text so far while it runs, growing; then the result, byte for byte the sync call', async () => {
  const run = await streamed(...GENERATE, ['Once upon a time', 600]);
  expectStreamed(run);
  expect(run.byAsync).toMatch(/^, there was a little girl/);
}, 60_000);

test('qwen2 vocabulary: characters split across tokens and bytes that are not UTF-8 stream as whole characters, the result unchanged', async () => {
  for (const prompt of ['日本語のテキスト', 'Ελλάδα']) {
    const run = await streamed(...GENERATE, [prompt, 400], 'qwen');
    expectStreamed(run);
    expect(run.byAsync).toMatch(/[^\x00-\x7f]/); // multi-byte characters (and U+FFFD for bytes that are not UTF-8)
  }
}, 120_000);

test('constrained generation streams too: a regex on stories260K', async () => {
  const run = await streamed(
    'SELECT svc_generate_regex_async($1, $2, max_tokens := $3, use_cache := false) AS id',
    'SELECT svc_generate_regex($1, $2, max_tokens := $3, use_cache := false) AS r',
    ['Once upon a time', '[a-z ,.]{300,400}', 600],
  );
  expectStreamed(run);
  expect(run.byAsync).toMatch(/^[a-z ,.]{300,400}$/);
}, 60_000);

test("another role sees nothing of a request's partial text: not through the function, not in the table, not by writing it; svc_admin sees it", async () => {
  await alice.query(`SET svc.model = 'qwen'`);
  const id = (await alice.query(`SELECT svc_generate_async('日本語', max_tokens := 400, use_cache := false) AS id`))
    .rows[0].id as string;
  await alice.query('RESET svc.model');
  // Caught while it runs, with text: alice reads her row of the table too.
  const mine = await eventually('partial text', async () => {
    const state = await partial(alice, id);
    return state?.status === 'processing' && state.partial_result !== '' ? state : undefined;
  });
  expect(mine.tokens).toBeGreaterThan(0);
  expect(
    (await alice.query('SELECT count(*)::int AS n FROM svc_partial_results WHERE request_id = $1', [id])).rows[0].n,
  ).toBe(1);
  expect(await partial(bob, id)).toBeUndefined();
  expect((await bob.query('SELECT count(*)::int AS n FROM svc_partial_results')).rows[0].n).toBe(0);
  // svc_admin members see every request, as in svc_check_async.
  const admin = await svc().connect(ROLES.admin);
  expect((await partial(admin, id))?.status).toMatch(/^(processing|completed)$/);
  await admin.end();
  await expect(bob.query(`SELECT svc_worker_progress($1, 1, 'forged', 1)`, [id])).rejects.toMatchObject({
    code: '42501',
  });
  await expect(
    bob.query(`INSERT INTO svc_partial_results VALUES ($1, 1, 'bob', 'forged', 1, now())`, [id]),
  ).rejects.toMatchObject({ code: '42501' });
  await expect(bob.query(`UPDATE svc_partial_results SET partial_result = 'forged'`)).rejects.toMatchObject({
    code: '42501',
  });
  await follow(id);
  expect((await partial(bob, id)) ?? null).toBeNull();
  // Finished: its row goes with the workers' retention sweep.
  await eventually(
    'the partial row to go',
    async () => (await su.query('SELECT 1 FROM svc_partial_results WHERE request_id = $1', [id])).rows.length === 0,
  );
}, 60_000);

test('before a worker takes it: pending, no text; cancelled or failed: the error and no text', async () => {
  const admin = await svc().connect(ROLES.admin);
  await admin.query(`SELECT svc_model_declare('nobody', ARRAY['generate'])`);
  await admin.end();
  await alice.query(`SET svc.model = 'nobody'`);
  const id = (await alice.query(`SELECT svc_generate_async('Hello') AS id`)).rows[0].id as string;
  await alice.query('RESET svc.model');
  expect(await partial(alice, id)).toEqual({ status: 'pending', partial_result: '', tokens: 0, error: null });
  await alice.query('SELECT svc_cancel_async($1)', [id]);
  expect(await partial(alice, id)).toMatchObject({ status: 'cancelled', partial_result: null, tokens: null });
  // A budget below the constraint's shortest output fails at once, without retries.
  const failing = (
    await alice.query(
      `SELECT svc_generate_json_async('A user', '{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}'::jsonb, max_tokens := 2) AS id`,
    )
  ).rows[0].id as string;
  const { final } = await follow(failing);
  expect(final).toMatchObject({ status: 'failed', partial_result: null, tokens: null });
  expect(final.error).toMatch(/max_tokens 2 is below/);
}, 60_000);

test('error paths: a NULL id is 22004 naming it; an unknown id is no row; the worker protocol refuses NULLs, negative counts and attempts that do not run', async () => {
  await expect(alice.query('SELECT * FROM svc_get_partial_result(NULL)')).rejects.toMatchObject({
    code: '22004',
    message: 'svc_get_partial_result: request_id must not be NULL',
  });
  expect(await partial(alice, '00000000-0000-0000-0000-000000000000')).toBeUndefined();
  const id = (await alice.query(`SELECT svc_generate_async('Once upon a time', max_tokens := 4) AS id`)).rows[0]
    .id as string;
  await follow(id);
  await expect(workerRole.query(`SELECT svc_worker_progress(NULL, 1, 'x', 1)`)).rejects.toMatchObject({
    code: '22004',
    message: expect.stringMatching(/^svc_worker_progress: /),
  });
  await expect(workerRole.query(`SELECT svc_worker_progress($1, 1, 'x', -1)`, [id])).rejects.toMatchObject({
    code: '22023',
    message: 'svc_worker_progress: tokens must not be negative (got -1)',
  });
  // Completed: the attempt no longer runs it, so nothing is stored.
  expect((await workerRole.query(`SELECT svc_worker_progress($1, 1, 'late', 1) AS ok`, [id])).rows[0].ok).toBe(false);
  // (A row the running attempt wrote may still be there until the cleanup: on a loaded machine 4 tokens can take a progress interval.)
  expect(
    (
      await su.query(
        `SELECT count(*)::int AS n FROM svc_partial_results WHERE request_id = $1 AND partial_result = 'late'`,
        [id],
      )
    ).rows[0].n,
  ).toBe(0);
});

test("the SQL reference's streaming example runs in psql as written: the request's state, then its result", async () => {
  const [block] = fencedBlocks('docs/sql.md', 'Streaming', 'sql');
  expect(block).toContain('LISTEN svc_progress');
  // Through stdin: psql runs meta-commands (\gset) only in a script, not in -c.
  const stdout = execFileSync('psql', ['-X', '-v', 'ON_ERROR_STOP=1', '-At', '-U', ROLES.alice, '-f', '-'], {
    input: block.replace(/max_tokens := 2000/, 'max_tokens := 20'),
    env: { ...process.env, ...svc().cluster.env() },
    encoding: 'utf8',
  });
  const rows = stdout
    .trim()
    .split('\n')
    .filter((l) => l.includes('|'));
  expect(rows.length).toBe(2);
  for (const row of rows) expect(row).toMatch(/^(pending|processing|completed)\|/);
}, 60_000);
