// svc_generate_stream (#56): a generation as rows with a real worker. Read through a cursor, each row
// comes while the request is still running (the worker's text as it writes it); the rows joined are
// svc_generate's result byte for byte, on stories260K and on a qwen2-vocabulary model (characters
// split across tokens), sampled and with stop strings too, and the cache is svc_generate's. Cancelling
// the statement cancels the request; the error paths are named.
import type pg from 'pg';
import { STORIES_MODEL, realVocabModel } from '../helpers/real-models.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let su: pg.Client;
let alice: pg.Client;
let worker: WorkerProcess;

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  worker = startWorker(
    svc().cluster,
    { SVC_WORKER_CONCURRENCY: '1', SVC_WORKER_PROGRESS_INTERVAL: '0.01' },
    `default=${STORIES_MODEL},qwen=${await realVocabModel('qwen2-512')}`,
  );
  await eventually(
    'the worker to heartbeat',
    async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
}, 120_000);
afterAll(async () => {
  await worker?.stop();
});

const streamStatus = async () =>
  (await su.query(`SELECT status FROM svc_queue WHERE parameters ? 'stream' ORDER BY created_at DESC LIMIT 1`)).rows[0]
    ?.status as string | undefined;

/** The rows of a stream read one FETCH at a time, each with the state of its request when it came. */
async function fetchAll(client: pg.Client, call: string, params: unknown[] = []) {
  await client.query('BEGIN');
  try {
    await client.query(`DECLARE s CURSOR FOR SELECT ${call} AS piece`, params);
    const rows: Array<{ piece: string; status: string | undefined }> = [];
    for (;;) {
      const { rows: fetched } = await client.query('FETCH 1 FROM s');
      if (fetched.length === 0) return rows;
      rows.push({ piece: fetched[0].piece as string, status: await streamStatus() });
    }
  } finally {
    await client.query('COMMIT');
  }
}

const one = async (sql: string, params: unknown[] = []) =>
  (await alice.query(`SELECT ${sql} AS r`, params)).rows[0].r as string;

test("through a cursor each piece comes while the request runs; joined, they are svc_generate's result", async () => {
  const rows = await fetchAll(alice, `svc_generate_stream('Once upon a time', max_tokens := 600, use_cache := false)`);
  const result = await one(`svc_generate('Once upon a time', max_tokens := 600, use_cache := false)`);
  expect(rows.map((r) => r.piece).join('')).toBe(result);
  expect(rows.length).toBeGreaterThanOrEqual(3);
  // The first pieces were fetched while the worker was still writing the rest.
  expect(rows[0].status).toBe('processing');
  expect(rows.filter((r) => r.status === 'processing').length).toBeGreaterThanOrEqual(2);
  expect(rows.at(-1)!.status).toBe('completed');
  for (const r of rows) expect(r.piece).not.toBe('');
  // The stream's request is svc_generate's, marked stream only, and it belongs to the caller.
  const stored = (
    await su.query(
      `SELECT parameters, owner::text FROM svc_queue WHERE parameters ? 'stream' ORDER BY created_at DESC LIMIT 1`,
    )
  ).rows[0];
  expect(stored).toEqual({
    parameters: {
      prompt: 'Once upon a time',
      max_tokens: 600,
      use_cache: false,
      seed: 42,
      prompt_format: 'chat',
      stream: true,
    },
    owner: ROLES.alice,
  });
}, 120_000);

test("in a plain SELECT, FROM and set-based over a table: the same rows; the cache is svc_generate's", async () => {
  const plain = (
    await alice.query(`SELECT svc_generate_stream('A cat', max_tokens := 300, use_cache := false) AS piece`)
  ).rows.map((r) => r.piece);
  const from = (
    await alice.query(`SELECT piece FROM svc_generate_stream('A cat', max_tokens := 300, use_cache := false) AS piece`)
  ).rows.map((r) => r.piece);
  const result = await one(`svc_generate('A cat', max_tokens := 300, use_cache := false)`);
  expect(plain.join('')).toBe(result);
  expect(from.join('')).toBe(result);
  // Streamed with the cache: stored under svc_generate's key, then a hit for both (one row, the whole text).
  const hits = async () => Number((await su.query('SELECT hits FROM svc_cache_stats()')).rows[0].hits);
  const streamed = (await alice.query(`SELECT svc_generate_stream('A dog', max_tokens := 200) AS piece`)).rows.map(
    (r) => r.piece,
  );
  const before = await hits();
  expect(await one(`svc_generate('A dog', max_tokens := 200)`)).toBe(streamed.join(''));
  expect(await hits()).toBe(before + 1);
  expect((await alice.query(`SELECT svc_generate_stream('A dog', max_tokens := 200) AS piece`)).rows).toEqual([
    { piece: streamed.join('') },
  ]);
  expect(await hits()).toBe(before + 2);
  // Several streams in one statement, one per row of a table.
  await alice.query(
    `CREATE TEMP TABLE prompts AS SELECT * FROM (VALUES (1, 'A bird'), (2, 'A fish')) AS t(id, prompt)`,
  );
  const rows = (
    await alice.query(
      `SELECT id, svc_generate_stream(prompt, max_tokens := 60, use_cache := false) AS piece FROM prompts ORDER BY id`,
    )
  ).rows;
  for (const [id, prompt] of [
    [1, 'A bird'],
    [2, 'A fish'],
  ] as const) {
    expect(
      rows
        .filter((r) => r.id === id)
        .map((r) => r.piece)
        .join(''),
    ).toBe(await one(`svc_generate($1, max_tokens := 60, use_cache := false)`, [prompt]));
  }
}, 120_000);

test('qwen2 vocabulary, sampled, with a stop string: whole characters, joined the result', async () => {
  await alice.query(`SET svc.model = 'qwen'`);
  try {
    for (const call of [
      `svc_generate_stream('日本語のテキスト', max_tokens := 300, use_cache := false)`,
      `svc_generate_stream('Ελλάδα', max_tokens := 300, seed := 3, temperature := 1.2, use_cache := false)`,
    ]) {
      const rows = await fetchAll(alice, call);
      const result = await one(call.replace('svc_generate_stream', 'svc_generate'));
      expect(rows.map((r) => r.piece).join('')).toBe(result);
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(result).toMatch(/[^\x00-\x7f]/);
    }
    const full = await one(`svc_generate('Ελλάδα', max_tokens := 300, use_cache := false)`);
    const stop = full.slice(100, 102);
    const rows = await fetchAll(
      alice,
      `svc_generate_stream('Ελλάδα', max_tokens := 300, use_cache := false, stop := ARRAY[$1])`,
      [stop],
    );
    expect(rows.map((r) => r.piece).join('')).toBe(full.slice(0, full.indexOf(stop)));
  } finally {
    await alice.query('RESET svc.model');
  }
}, 180_000);

test('cancelling the statement cancels the request: the worker stops it and writes nothing', async () => {
  const reader = await svc().connect(ROLES.alice);
  const pid = (await reader.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const running = reader
    .query(
      `SELECT svc_generate_stream('Once upon a time', max_tokens := 4000, use_cache := false, seed := 99, temperature := 1)`,
    )
    .then(
      () => undefined,
      (error: { code?: string }) => error,
    );
  await eventually('the stream to run', async () => (await streamStatus()) === 'processing');
  await su.query('SELECT pg_cancel_backend($1)', [pid]);
  expect(await running).toMatchObject({ code: '57014' });
  await eventually('the request to be cancelled', async () => (await streamStatus()) === 'cancelled');
  const row = (
    await su.query(
      `SELECT result, completed_at FROM svc_queue WHERE parameters ? 'stream' ORDER BY created_at DESC LIMIT 1`,
    )
  ).rows[0];
  expect(row).toEqual({ result: null, completed_at: null });
  await eventually('the worker to say it stopped it', async () => worker.logs.some((l) => /job stopped/.test(l)));
}, 120_000);

test('errors: each named, nothing enqueued', async () => {
  const queued = async () =>
    Number((await su.query(`SELECT count(*) AS n FROM svc_queue WHERE status = 'pending'`)).rows[0].n);
  const before = await queued();
  await expect(alice.query(`SELECT svc_generate_stream(NULL)`)).rejects.toMatchObject({
    code: '22004',
    message: 'svc_generate_stream: prompt must not be NULL',
  });
  await expect(alice.query(`SELECT svc_generate_stream('x', temperature := 5)`)).rejects.toMatchObject({
    code: '22023',
    message: 'svc_generate_stream: temperature must be a number from 0 to 2 (got 5)',
  });
  await alice.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
  await expect(alice.query(`SELECT svc_generate_stream('x')`)).rejects.toMatchObject({
    code: '0A000',
    message: expect.stringMatching(/^svc_generate_stream: runs under READ COMMITTED only/),
  });
  await alice.query('ROLLBACK');
  // The helpers are svc's own: no role calls them.
  await expect(
    alice.query(`SELECT svc__stream_next('{"id": "00000000-0000-0000-0000-000000000000", "shown": 0, "done": false}')`),
  ).rejects.toMatchObject({
    code: '42501',
  });
  expect(await queued()).toBe(before);
});
