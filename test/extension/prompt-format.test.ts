// svc.prompt_format and svc.system_prompt: settings only (no SQL signature changes), checked before
// anything is enqueued, recorded in every generation request's parameters (so the queue shows them
// and the cache key, computed from the parameters, changes with them), carried by the synchronous
// functions into their autonomous session, listed by svc_settings().
import type pg from 'pg';
import { cacheIdentity } from '../../src/queue/cache-key.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { frozenWorker } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'1s'" } });
let db: pg.Client;
let alice: pg.Client;
beforeAll(async () => {
  db = await svc().connect();
  alice = await svc().connect(ROLES.alice);
});
beforeEach(async () => {
  await db.query('DELETE FROM svc_queue');
  await alice.query('RESET ALL');
});

const parameters = async (id: string) => (await db.query('SELECT parameters FROM svc_queue WHERE request_id = $1', [id])).rows[0].parameters;
const submit = async (call: string) => (await alice.query(`SELECT ${call} AS id`)).rows[0].id as string;
const queued = async () => Number((await db.query('SELECT count(*) AS n FROM svc_queue')).rows[0].n);

const GENERATION_CALLS = [
  `svc_generate_async('Hi')`,
  `svc_generate_json_async('Hi', '{"type":"integer"}')`,
  `svc_generate_regex_async('Hi', '[0-9]+')`,
  `svc_generate_choice_async('Hi', ARRAY['a','b'])`,
  `(svc_generate_batch_async(ARRAY['Hi']))[1]`,
];

test('by default every generation request records the chat format and no system prompt', async () => {
  for (const call of GENERATION_CALLS) {
    const p = await parameters(await submit(call));
    expect(p.prompt_format).toBe('chat');
    expect(p).not.toHaveProperty('system_prompt');
  }
});

test('svc.prompt_format = raw and svc.system_prompt are recorded; the system prompt only in the chat format', async () => {
  await alice.query(`SET svc.system_prompt = 'You answer in one word.'`);
  for (const call of GENERATION_CALLS) {
    expect(await parameters(await submit(call))).toMatchObject({ prompt_format: 'chat', system_prompt: 'You answer in one word.' });
  }
  await alice.query(`SET svc.prompt_format = 'raw'`);
  for (const call of GENERATION_CALLS) {
    const p = await parameters(await submit(call));
    expect(p.prompt_format).toBe('raw');
    expect(p).not.toHaveProperty('system_prompt');
  }
  await alice.query(`SET svc.prompt_format = ' RAW '`); // case and surrounding spaces do not matter
  expect((await parameters(await submit(GENERATION_CALLS[0]))).prompt_format).toBe('raw');
});

test('the system prompt is kept as written; empty or blank means none', async () => {
  await alice.query(`SET svc.system_prompt = '  Two spaces, then a line.\n'`);
  expect((await parameters(await submit(GENERATION_CALLS[0]))).system_prompt).toBe('  Two spaces, then a line.\n');
  await alice.query(`SET svc.system_prompt = '   '`);
  expect(await parameters(await submit(GENERATION_CALLS[0]))).not.toHaveProperty('system_prompt');
});

test('embeddings and rerank take no prompt format', async () => {
  await alice.query(`SET svc.prompt_format = 'raw'`);
  expect(await parameters(await submit(`svc_embed_async('x')`))).toEqual({ text_input: 'x', use_cache: true });
  expect(await parameters(await submit(`svc_rerank_async('q', ARRAY['d'])`))).not.toHaveProperty('prompt_format');
  await alice.query(`SET svc.prompt_format = 'nonsense'`); // not read by them
  expect(await submit(`svc_embed_async('x')`)).toMatch(/^[0-9a-f-]{36}$/);
});

test('a malformed svc.prompt_format is 22023 naming the setting, before anything is enqueued (async, batch and sync)', async () => {
  await alice.query(`SET svc.prompt_format = 'markdown'`);
  for (const call of [...GENERATION_CALLS, `svc_generate('Hi')`, `svc_generate_json('Hi', '{"type":"integer"}')`]) {
    await expect(alice.query(`SELECT ${call}`)).rejects.toMatchObject({
      code: '22023', message: `setting svc.prompt_format must be 'chat' or 'raw' (is "markdown")`,
    });
  }
  expect(await queued()).toBe(0);
});

test('a system prompt over the prompt limit is 54000 naming the setting', async () => {
  await alice.query(`SELECT set_config('svc.system_prompt', repeat('x', 1000001), false)`);
  await expect(alice.query(`SELECT svc_generate_async('Hi')`)).rejects.toMatchObject({
    code: '54000', message: 'setting svc.system_prompt must be at most 1000000 characters (is 1000001)',
  });
  expect(await queued()).toBe(0);
});

test("a synchronous call carries the caller's format into its autonomous session", async () => {
  // A worker alive to svc but claiming nothing: the call is queued and waits (with none alive it is refused at once).
  const frozen = await frozenWorker(svc().cluster, await svc().connect());
  try {
  // Nothing answers: the call times out (svc.sync_timeout = 1s) and cancels its request, which stays in the queue.
  await alice.query(`SET svc.prompt_format = 'chat'`);
  await alice.query(`SET svc.system_prompt = 'Only the caller set this.'`);
  await expect(alice.query(`SELECT svc_generate('sync chat')`)).rejects.toMatchObject({ code: 'SV003' });
  await alice.query(`SET svc.prompt_format = 'raw'`);
  await expect(alice.query(`SELECT svc_generate_regex('sync raw', '[0-9]+')`)).rejects.toMatchObject({ code: 'SV003' });
  const rows = (await db.query(`SELECT parameters FROM svc_queue ORDER BY seq`)).rows.map((r) => r.parameters);
  expect(rows).toEqual([
    { prompt: 'sync chat', max_tokens: 512, use_cache: true, seed: 42, prompt_format: 'chat', system_prompt: 'Only the caller set this.' },
    { prompt: 'sync raw', pattern: '[0-9]+', max_tokens: 512, use_cache: true, seed: 42, prompt_format: 'raw' },
  ]);
  } finally {
    await frozen.kill();
  }
});

test('the format and the system prompt are part of the cache key', () => {
  const base = { prompt: 'Hi', max_tokens: 8, use_cache: true, seed: 42 };
  const keys = new Set([
    cacheIdentity('generate', { ...base, prompt_format: 'chat' }),
    cacheIdentity('generate', { ...base, prompt_format: 'raw' }),
    cacheIdentity('generate', { ...base, prompt_format: 'chat', system_prompt: 'Be brief.' }),
    cacheIdentity('generate', base), // a request recorded before svc had formats (ran raw)
  ]);
  expect(keys.size).toBe(4);
});

test('svc_settings() lists both with their defaults and effective values', async () => {
  const read = async () => Object.fromEntries((await alice.query(`SELECT name, value, default_value FROM svc_settings() WHERE name IN ('svc.prompt_format', 'svc.system_prompt')`)).rows.map((r) => [r.name, r]));
  expect(await read()).toEqual({
    'svc.prompt_format': { name: 'svc.prompt_format', value: 'chat', default_value: 'chat' },
    'svc.system_prompt': { name: 'svc.system_prompt', value: null, default_value: null },
  });
  await alice.query(`SET svc.prompt_format = 'raw'`);
  await alice.query(`SET svc.system_prompt = 'Be brief.'`);
  expect(await read()).toMatchObject({ 'svc.prompt_format': { value: 'raw' }, 'svc.system_prompt': { value: 'Be brief.' } });
});

// Issue #25: svc.strict_schema changes the grammar, so a request records it (only when on: requests
// at the default keep their parameters and cache keys) and the cache key changes with it.
test('svc.strict_schema: off takes unknown keywords as annotations; on refuses them, and is recorded', async () => {
  const schema = `'{"type":"integer","x-unit":"cm"}'`;
  const off = await parameters(await submit(`svc_generate_json_async('Hi', ${schema})`));
  expect(off).not.toHaveProperty('strict_schema');
  await alice.query(`SET svc.strict_schema = on`);
  await expect(alice.query(`SELECT svc_generate_json_async('Hi', ${schema})`)).rejects.toMatchObject({
    code: '22023', message: expect.stringMatching(/svc_generate_json_async: schema is not a usable constraint: unknown keyword 'x-unit'.*#\/x-unit/),
  });
  const on = await parameters(await submit(`svc_generate_json_async('Hi', '{"type":"integer"}')`));
  expect(on).toMatchObject({ strict_schema: true });
  expect(cacheIdentity('generate_json', on)).not.toBe(cacheIdentity('generate_json', { ...on, strict_schema: undefined }));
  await alice.query(`SET svc.strict_schema = 'sometimes'`);
  await expect(alice.query(`SELECT svc_generate_json_async('Hi', '{"type":"integer"}')`)).rejects.toMatchObject({
    code: '22023', message: `setting svc.strict_schema must be 'on' or 'off' (is "sometimes")`,
  });
  expect(await queued()).toBe(2);
});
