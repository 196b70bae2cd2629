// How svc's functions fail, with no worker running: settings checked before anything is enqueued, a
// synchronous call that stops waiting leaves nothing queued for nobody, svc's own conditions have
// codes that PL/pgSQL's WHEN OTHERS catches, every explicit NULL is an error, and errors read well.
import type pg from 'pg';
import { FUNCTIONS } from '../../src/extension/catalog.js';
import { SETTINGS } from '../../src/extension/settings-catalog.js';
import * as protocol from '../../worker/protocol.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, frozenWorker } from '../helpers/worker.js';

const svc = useSvc();
let db: pg.Client;
let alice: pg.Client;
let worker: pg.Client;
beforeAll(async () => {
  db = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  worker = await svc().connect(ROLES.worker);
});
beforeEach(async () => {
  await db.query('DELETE FROM svc_queue');
  for (const session of [db, alice]) await session.query('RESET ALL');
});

const queued = async () => (await db.query(`SELECT parameters->>'prompt' AS prompt, status FROM svc_queue ORDER BY seq`)).rows;

describe('synchronous calls', () => {
  // A worker alive to svc but claiming nothing: a sync call waits for it as for a busy one (with none
  // alive it would be refused at once, SV006).
  let frozen: { kill(): Promise<void> } | undefined;
  beforeAll(async () => {
    frozen = await frozenWorker(svc().cluster, db);
  }, 60_000);
  afterAll(async () => {
    await frozen?.kill();
    await db.query(`DELETE FROM svc_workers`);
  });

  test('a malformed setting fails the call before anything is enqueued', async () => {
    await alice.query(`SET svc.sync_timeout = 'abc'`);
    await expect(alice.query(`SELECT svc_generate('o1')`)).rejects.toMatchObject({
      code: '22023', message: `setting svc.sync_timeout must be a positive interval such as '60s' (is "abc")`,
    });
    await alice.query(`RESET svc.sync_timeout`);
    await alice.query(`SET svc.max_queue_size = 'many'`);
    await expect(alice.query(`SELECT svc_generate_json('o1', '{"type":"integer"}')`)).rejects.toMatchObject({ code: '22023', message: expect.stringMatching(/svc.max_queue_size/) });
    expect(await queued()).toEqual([]);
  });

  test("the session's svc.max_queue_size applies to its synchronous calls", async () => {
    await alice.query(`SELECT svc_generate_async('already queued')`);
    await alice.query(`SET svc.max_queue_size = 1`);
    await expect(alice.query(`SELECT svc_generate('o3')`)).rejects.toMatchObject({
      code: '53400', message: 'svc_generate: the queue is full (1 requests pending or processing, svc.max_queue_size = 1)',
    });
    expect(await queued()).toEqual([{ prompt: 'already queued', status: 'pending' }]);
  });

  test('a call cut by statement_timeout leaves its request to be cancelled, not run for nobody', async () => {
    await alice.query(`SET statement_timeout = '300ms'`);
    await expect(alice.query(`SELECT svc_generate('o2')`)).rejects.toMatchObject({ code: '57014' });
    await alice.query(`RESET statement_timeout`);
    // An async request of the same session, submitted after, is claimed; the abandoned one never is.
    await alice.query(`SELECT svc_generate_async('wanted')`);
    const claimed = await protocol.claim(worker, { workerId: 'w', maxJobs: 10, leaseSeconds: 30, maxRetries: 3 });
    expect(claimed.map((job) => job.parameters.prompt)).toEqual(['wanted']);
    expect(await queued()).toEqual([{ prompt: 'o2', status: 'cancelled' }, { prompt: 'wanted', status: 'processing' }]);
  });

  test('a cancelled statement and a lost connection free their requests the same way', async () => {
    const doomed = await svc().connect(ROLES.alice);
    const pid = (await doomed.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const cancelled = doomed.query(`SELECT svc_generate('cancelled by the user')`).catch((error: Error) => error);
    await waitForPrompt('cancelled by the user');
    await db.query('SELECT pg_cancel_backend($1)', [pid]);
    expect(await cancelled).toMatchObject({ code: '57014' });
    const killed = doomed.query(`SELECT svc_generate('connection lost')`).catch((error: Error) => error);
    await waitForPrompt('connection lost');
    await db.query('SELECT pg_terminate_backend($1)', [pid]);
    await killed;
    // The client hears the error before the backend has let its locks go: the claim looks once they are.
    await eventually('the backend to be gone', async () => (await db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rows.length === 0);
    await protocol.claim(worker, { workerId: 'w', maxJobs: 10, leaseSeconds: 30, maxRetries: 3 });
    expect(await queued()).toEqual([{ prompt: 'cancelled by the user', status: 'cancelled' }, { prompt: 'connection lost', status: 'cancelled' }]);
  });

  test('a caller still waiting keeps its request: the claim takes it', async () => {
    const waiting = alice.query(`SELECT svc_generate('still waiting') AS out`);
    await waitForPrompt('still waiting');
    const [job] = await protocol.claim(worker, { workerId: 'w', maxJobs: 10, leaseSeconds: 30, maxRetries: 3 });
    expect(job.parameters.prompt).toBe('still waiting');
    await protocol.complete(worker, job, 'the answer');
    expect((await waiting).rows[0].out).toBe('the answer');
  });

  test('sync_timeout ends the wait with SV003 "timed out" and cancels the request', async () => {
    await alice.query(`SET svc.sync_timeout = '200ms'`);
    await expect(alice.query(`SELECT svc_generate('nobody answers')`)).rejects.toMatchObject({
      code: 'SV003', message: expect.stringMatching(/^svc_generate: timed out: no result within 0.2 s \(svc.sync_timeout\); 1 worker\(s\) running, 1 request\(s\) pending/),
    });
    expect(await queued()).toEqual([{ prompt: 'nobody answers', status: 'cancelled' }]);
  });
});

async function waitForPrompt(prompt: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await db.query(`SELECT 1 FROM svc_queue WHERE parameters->>'prompt' = $1`, [prompt])).rows.length) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no request for ${prompt}`);
}

describe('waiting for results', () => {
  test('waiting on a request of this uncommitted transaction fails at once with SV005', async () => {
    await alice.query('BEGIN');
    try {
      // SV005, not the 30 s timeout's SV003: it did not wait.
      await expect(alice.query(`SELECT svc_get_async_result(svc_generate_async('mine'), 30)`)).rejects.toMatchObject({
        code: 'SV005', message: expect.stringMatching(/was submitted in this transaction, which has not committed yet/),
      });
    } finally {
      await alice.query('ROLLBACK');
    }
  });

  test("svc's conditions (timed out, unknown) are caught by WHEN OTHERS", async () => {
    const id = (await alice.query(`SELECT svc_generate_async('retry me') AS id`)).rows[0].id;
    const notices: string[] = [];
    alice.on('notice', (n) => notices.push(n.message ?? ''));
    await alice.query(`DO $$ BEGIN PERFORM svc_get_async_result('${id}', 0); EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'caught %', SQLSTATE; END $$`);
    await alice.query(`DO $$ BEGIN PERFORM svc_get_async_result(gen_random_uuid(), 0); EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'caught %', SQLSTATE; END $$`);
    expect(notices).toEqual(['caught SV003', 'caught SV004']);
  });

  test('failed and cancelled requests raise SV001 and SV002 at once', async () => {
    const failed = (await alice.query(`SELECT svc_generate_async('fails') AS id`)).rows[0].id;
    const [job] = await protocol.claim(worker, { workerId: 'w', maxJobs: 1, leaseSeconds: 30, maxRetries: 0 });
    await protocol.fail(worker, job, 'boom', 0);
    await expect(alice.query(`SELECT svc_get_async_result($1, 30)`, [failed])).rejects.toMatchObject({ code: 'SV001', message: expect.stringMatching(/failed: boom/) });
    const cancelled = (await alice.query(`SELECT svc_generate_async('cancelled') AS id`)).rows[0].id;
    await alice.query(`SELECT svc_cancel_async($1)`, [cancelled]);
    await expect(alice.query(`SELECT svc_get_async_result($1, 30)`, [cancelled])).rejects.toMatchObject({ code: 'SV002' });
  });
});

describe('arguments', () => {
  // A valid value of each SQL type the public functions take.
  const SAMPLE: Record<string, string> = {
    text: `'x'`, integer: '1', bigint: '1', boolean: 'true', jsonb: `'{"type":"integer"}'::jsonb`, json: `'{"type":"integer"}'::json`, 'text[]': `ARRAY['a']`,
    uuid: 'gen_random_uuid()', 'uuid[]': 'ARRAY[gen_random_uuid()]', interval: `'1 day'`, regclass: `'pg_class'`, 'real[]': `ARRAY[1]::real[]`,
    'double precision': '0.5',
  };
  const PUBLIC = FUNCTIONS.filter((fn) => !fn.name.startsWith('svc__') && !fn.name.startsWith('svc_worker_') && fn.grantTo !== 'svc_worker');
  // Overloads (the set-based forms) are told apart by their parameters' names.
  // A parameter whose default is NULL takes NULL as that default (svc_vectorize's destination and dimensions).
  const cases = PUBLIC.flatMap((fn, f) => fn.params.flatMap((param, i) => (param.default === 'NULL' ? [] : [[fn.name, param.name, i, f] as const])));

  test.each(cases)('%s: an explicit NULL %s is a 22004 error naming it', async (name, param, position, f) => {
    const fn = PUBLIC[f];
    const args = fn.params.map((p, i) => `${p.name} := ${i === position ? 'NULL' : SAMPLE[p.type]}`);
    await expect(db.query(`SELECT * FROM ${name}(${args.join(', ')})`)).rejects.toMatchObject({
      code: '22004', message: `${name}: ${param} must not be NULL`,
    });
    expect(await queued()).toEqual([]);
  });

  test.each(['svc_rerank', 'svc_rerank_async'])('%s: an empty or whitespace-only query or document is a 22023 error naming it and its position', async (fn) => {
    const cases: Array<[string, string]> = [
      [`'', ARRAY['a']`, 'query must not be empty'],
      [`' ', ARRAY['a']`, 'query must not be empty'],
      [`'q', ARRAY['a', '']`, 'documents[2] must not be empty'],
      [`'q', ARRAY[E' \\n\\t', 'b']`, 'documents[1] must not be empty'],
      [`'q', ARRAY[]::text[]`, 'documents must not be empty'],
    ];
    for (const [args, message] of cases) {
      await expect(db.query(`SELECT * FROM ${fn}(${args})`)).rejects.toMatchObject({ code: '22023', message: `${fn}: ${message}` });
    }
    expect(await queued()).toEqual([]);
  });

  test("svc's errors carry no CONTEXT of svc's own (its relay drops the lines plv8 and PL/pgSQL add); a caller's own context stays", async () => {
    const error = await alice
      .query(`SELECT svc_generate_async('x', max_tokens := 0)`)
      .then(() => ({}), (e: { where?: string; message?: string }) => e);
    expect(error).toMatchObject({ message: 'svc_generate_async: max_tokens must be between 1 and 32768 (got 0)', where: undefined });
    const nested = await alice
      .query(`DO $$ BEGIN PERFORM svc_generate_async('x', max_tokens := 0); END $$`)
      .then((): { where?: string } => ({}), (e: { where?: string }) => e);
    expect(nested.where).toMatch(/^SQL statement "SELECT svc_generate_async\('x', max_tokens := 0\)"\nPL\/pgSQL function inline_code_block line 1 at PERFORM$/);
  });
});

describe('hostile constraints (the compiler bounds each; test/grammar/hostile.test.ts bounds their time and memory)', () => {
  const nested = (depth: number) => '('.repeat(depth) + 'a' + ')'.repeat(depth);
  const pairs = { allOf: Array.from({ length: 60 }, (_, i) => ({ anyOf: [{ properties: { [`a${i}`]: { type: 'integer' } } }, { properties: { [`b${i}`]: { type: 'integer' } } }] })) };
  test.each([
    ['a $ref that is not a valid pointer', `svc_generate_json_async('x', '{"$ref":"#/%zz"}')`],
    ['allOf of 60 anyOf pairs', `svc_generate_json_async('x', '${JSON.stringify(pairs)}')`],
    ['a regex nested 10,000 deep', `svc_generate_regex_async('x', '${nested(10_000)}')`],
    ['duplicate choices', `svc_generate_choice_async('x', ARRAY['yes', 'no', 'yes'])`],
  ])('%s is a clear 22023 or 54000 error, nothing enqueued', async (_what, call) => {
    const error = await db.query(`SELECT ${call}`).then(() => undefined, (e: { code?: string; message: string }) => e);
    expect(error).toBeDefined();
    expect(['22023', '54000']).toContain(error!.code);
    expect(error!.message).toMatch(/^svc_generate_(json|regex|choice)_async: (schema|pattern|choices) /);
    expect(await queued()).toEqual([]);
  });

  // Keywords of no vocabulary are annotations (JSON Schema 2020-12 §4.3.1), even when named like an
  // Object.prototype member: they compile as if absent and never reach an inherited member. With
  // svc.strict_schema on they are refused instead, naming the keyword.
  test.each([
    ['a __proto__ key', '{"type":"object","properties":{"__proto__":{"type":"string"}},"__proto__":{"x":1}}', '__proto__', /\\"__proto__\\":/],
    ['a keyword named like an Object.prototype member', '{"type":"string","toString":1}', 'toString', /^root ::= string/m],
    ['hasOwnProperty as a keyword', '{"hasOwnProperty":true}', 'hasOwnProperty', /^root ::= value/m],
  ])('%s is an annotation; under svc.strict_schema a clear 22023 error, nothing enqueued', async (_what, schema, keyword, grammar) => {
    const id = (await db.query(`SELECT svc_generate_json_async('x', $1::jsonb) AS id`, [schema])).rows[0].id;
    expect((await db.query('SELECT grammar FROM svc_queue WHERE request_id = $1', [id])).rows[0].grammar).toMatch(grammar);
    await db.query('DELETE FROM svc_queue');
    await db.query('SET svc.strict_schema = on');
    try {
      const error = await db.query(`SELECT svc_generate_json_async('x', $1::jsonb)`, [schema]).then(() => undefined, (e: { code?: string; message: string }) => e);
      expect(error?.code).toBe('22023');
      expect(error!.message).toMatch(/^svc_generate_json_async: schema /);
      expect(error!.message).toContain(keyword);
    } finally {
      await db.query('RESET svc.strict_schema');
    }
    expect(await queued()).toEqual([]);
  });

  test('duplicate choices are named in the error', async () => {
    await expect(db.query(`SELECT svc_generate_choice_async('x', ARRAY['yes', 'no', 'yes'])`)).rejects.toThrow(/"yes"/);
  });

  test.each([
    ['integer bounds of 308 digits', `svc_generate_json_async('x', '{"type":"integer","minimum":-1e308,"maximum":1e308}')`],
    ['a regex of 100,000 characters', `svc_generate_regex_async('x', repeat('a', 100000))`],
  ])('%s compiles (was minutes in the compiler, or a parse error)', async (_what, call) => {
    const { rows } = await db.query(`SELECT ${call} AS id`);
    expect(rows[0].id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('[\\d-z] is a usable class', async () => {
    const id = (await db.query(`SELECT svc_generate_regex_async('x', '[\\d-z]+') AS id`)).rows[0].id;
    expect((await db.query('SELECT grammar FROM svc_queue WHERE request_id = $1', [id])).rows[0].grammar).toMatch(/0-9/);
  });
});

describe('svc_check_async_batch', () => {
  test('one row per id given, in input order, NULL columns for unknown ones', async () => {
    const [a, b] = (await alice.query(`SELECT unnest(svc_generate_batch_async(ARRAY['a', 'b'])) AS id`)).rows.map((r) => r.id);
    const unknown = '00000000-0000-0000-0000-000000000001';
    const { rows } = await alice.query(`SELECT request_id, status FROM svc_check_async_batch($1::uuid[])`, [[b, unknown, a, b]]);
    expect(rows).toEqual([
      { request_id: b, status: 'pending' }, { request_id: unknown, status: null }, { request_id: a, status: 'pending' }, { request_id: b, status: 'pending' },
    ]);
  });
});

describe('svc_settings()', () => {
  test('lists every setting with its effective value, default and meaning', async () => {
    await alice.query(`SET svc.max_queue_size = 50`);
    const { rows } = await alice.query('SELECT name, value, default_value, meaning FROM svc_settings()');
    expect(rows.map((r) => r.name)).toEqual(Object.keys(SETTINGS).sort());
    expect(rows.find((r) => r.name === 'svc.max_queue_size')).toMatchObject({ value: '50', default_value: '10000' });
    expect(rows.find((r) => r.name === 'svc.sync_timeout')).toMatchObject({ value: '60s', default_value: '60s' });
    for (const row of rows) expect(row.meaning.length).toBeGreaterThan(10);
  });
});

describe('svc_worker_status()', () => {
  test('stopped workers leave it after 10 minutes, silent ones after a day; svc_cleanup deletes them', async () => {
    await db.query(`DELETE FROM svc_workers`);
    await db.query(`INSERT INTO svc_workers (worker_id, host, pid, state, concurrency, last_heartbeat) VALUES
      ('running', 'h', 1, 'running', 1, clock_timestamp()),
      ('stopped-now', 'h', 2, 'stopped', 1, clock_timestamp() - interval '1 minute'),
      ('stopped-long-ago', 'h', 3, 'stopped', 1, clock_timestamp() - interval '11 minutes'),
      ('silent', 'h', 4, 'running', 1, clock_timestamp() - interval '2 hours'),
      ('dead', 'h', 5, 'running', 1, clock_timestamp() - interval '2 days')`);
    const { rows } = await alice.query('SELECT worker_id, state FROM svc_worker_status() ORDER BY worker_id');
    expect(rows).toEqual([{ worker_id: 'running', state: 'running' }, { worker_id: 'silent', state: 'unresponsive' }, { worker_id: 'stopped-now', state: 'stopped' }]);
    await db.query(`SELECT svc_cleanup('1 hour')`);
    expect((await db.query('SELECT worker_id FROM svc_workers ORDER BY 1')).rows.map((r) => r.worker_id)).toEqual(['running', 'stopped-long-ago', 'stopped-now']);
  });
});
