// Chat templates end to end: a worker serving a model that carries a real ChatML template (qwen2's
// vocabulary, random weights). The format comes from the settings (svc.prompt_format,
// svc.system_prompt), travels in the request's parameters to the worker, gives the same bytes as the
// library with the same options (sync, async, cached or not), and each format has its own cache entry.
import type pg from 'pg';
import { configure, generate, generateRegex, unloadModels } from '../../src/client/index.js';
import { useSvc } from '../helpers/svc.js';
import { realVocabModel } from '../helpers/real-models.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'120s'" } });
let db: pg.Client;
let worker: WorkerProcess;
let model: string;

const PROMPT = 'Name a colour.';
const SYSTEM = 'Answer in one word.';
/** What the library gives for the same request: the expected bytes. */
const expected: Record<'chat' | 'system' | 'raw', string> = { chat: '', system: '', raw: '' };
const expectedRegex: Record<'chat' | 'raw', string> = { chat: '', raw: '' };
const PATTERN = '[a-z]{3,10}';

beforeAll(async () => {
  model = await realVocabModel('qwen2');
  db = await svc().connect();
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2' }, model);
  configure({ threads: 1, sequences: 1 });
  expected.chat = await generate(PROMPT, { model, maxTokens: 8 }); // chat is the default
  expected.system = await generate(PROMPT, { model, maxTokens: 8, systemPrompt: SYSTEM });
  expected.raw = await generate(PROMPT, { model, maxTokens: 8, promptFormat: 'raw' });
  expectedRegex.chat = await generateRegex(PROMPT, PATTERN, { model, maxTokens: 16 });
  expectedRegex.raw = await generateRegex(PROMPT, PATTERN, { model, maxTokens: 16, promptFormat: 'raw' });
  await unloadModels();
  await eventually(
    'the worker to heartbeat',
    async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  configure({ threads: undefined, sequences: undefined });
});
beforeEach(async () => {
  await db.query('RESET ALL');
});

const generateSql = async (extra = '') =>
  (await db.query(`SELECT svc_generate($1, max_tokens := 8${extra}) AS out`, [PROMPT])).rows[0].out as string;
const stats = async () =>
  (await db.query('SELECT entries::int, hits::int, misses::int FROM svc_cache_stats()')).rows[0];

test('the three formats differ (the template changes what the model sees)', () => {
  expect(new Set(Object.values(expected)).size).toBe(3);
  expect(expectedRegex.chat).not.toBe(expectedRegex.raw);
});

test("sync: each format gives the library's bytes and has its own cache entry", async () => {
  await db.query('SELECT svc_cache_clear()');
  expect(await generateSql()).toBe(expected.chat);
  await db.query(`SET svc.system_prompt = $$${SYSTEM}$$`);
  expect(await generateSql()).toBe(expected.system);
  await db.query(`SET svc.prompt_format = 'raw'`); // the system prompt is not used raw
  expect(await generateSql()).toBe(expected.raw);
  expect(await stats()).toMatchObject({ entries: 3, hits: 0 });

  // Again, from the cache, each under its own key.
  expect(await generateSql()).toBe(expected.raw);
  await db.query(`RESET svc.prompt_format`);
  expect(await generateSql()).toBe(expected.system);
  await db.query(`RESET svc.system_prompt`);
  expect(await generateSql()).toBe(expected.chat);
  expect(await stats()).toMatchObject({ entries: 3, hits: 3 });
});

test('async, uncached: the same bytes, and the queue records the format', async () => {
  const run = async () => {
    const id = (await db.query(`SELECT svc_generate_async($1, max_tokens := 8, use_cache := false) AS id`, [PROMPT]))
      .rows[0].id;
    const out = (await db.query('SELECT svc_get_async_result($1, timeout_seconds := 120) AS out', [id])).rows[0].out;
    const { parameters } = (await db.query('SELECT parameters FROM svc_queue WHERE request_id = $1', [id])).rows[0];
    return { out, parameters };
  };
  expect(await run()).toMatchObject({ out: expected.chat, parameters: { prompt_format: 'chat' } });
  await db.query(`SET svc.system_prompt = $$${SYSTEM}$$`);
  expect(await run()).toMatchObject({
    out: expected.system,
    parameters: { prompt_format: 'chat', system_prompt: SYSTEM },
  });
  await db.query(`SET svc.prompt_format = 'raw'`);
  const raw = await run();
  expect(raw).toMatchObject({ out: expected.raw, parameters: { prompt_format: 'raw' } });
  expect(raw.parameters).not.toHaveProperty('system_prompt');
});

test('constrained generation uses the format too: regex, chat and raw', async () => {
  const regex = async () =>
    (
      await db.query(`SELECT svc_generate_regex($1, $2, max_tokens := 16, use_cache := false) AS out`, [
        PROMPT,
        PATTERN,
      ])
    ).rows[0].out;
  expect(await regex()).toBe(expectedRegex.chat);
  await db.query(`SET svc.prompt_format = 'raw'`);
  expect(await regex()).toBe(expectedRegex.raw);
});
