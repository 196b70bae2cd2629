// #53: an output cut where the model's context is full is marked. stories260K's context is 512
// tokens; a prompt of 242 leaves 270, so max_tokens 400 ends at 270 tokens with stop_reason 'context'
// (the library's stopReason 'context'), while max_tokens 270 ends there too but at max_tokens. How
// every generation ended is recorded on its request's row (svc_queue.stop_reason) as the engine says
// it, sync and async, on a cache miss and on a cache hit (svc_cache keeps it beside the result).
import type pg from 'pg';
import { Engine } from '../../src/engine/engine.js';
import { STOP_REASON_NAMES } from '../../src/engine/outcomes.js';
import { configure, generateStream, unloadModels } from '../../src/client/index.js';
import { compileChoices } from '../../src/grammar/index.js';
import { STORIES_MODEL } from '../helpers/real-models.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'120s'" } });
let su: pg.Client;
let alice: pg.Client;
let worker: WorkerProcess;
let stories: Engine;

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2' }, STORIES_MODEL);
  stories = await Engine.load({ model: STORIES_MODEL, threads: 1, sequences: 1 });
  await eventually(
    'a running worker',
    async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await stories?.dispose();
  await unloadModels();
  configure({ model: undefined, threads: undefined });
});

const LONG = 'hello world '.repeat(40); // 242 tokens of stories260K's 512

/** An async request's outcome once finished: its result and stop_reason, as its owner reads them. */
async function finished(id: string): Promise<{ result: string; stop_reason: string | null }> {
  await alice.query('SELECT svc_get_async_result($1, 120)', [id]);
  return (await alice.query('SELECT result, stop_reason FROM svc_queue WHERE request_id = $1', [id])).rows[0];
}
const submit = async (sql: string, params: unknown[]): Promise<string> =>
  (await alice.query(`SELECT ${sql} AS id`, params)).rows[0].id;

test("an output cut where the context is full says 'context', in the engine, the queue's row and the cache; at max_tokens it says max_tokens", async () => {
  const cut = await stories.generate({ prompt: LONG, maxTokens: 400, seed: 42 });
  expect(cut).toMatchObject({ tokens: 270, stopReason: 'context' });
  expect(await stories.generate({ prompt: LONG, maxTokens: 270, seed: 42 })).toMatchObject({
    text: cut.text,
    tokens: 270,
    stopReason: 'maxTokens',
  });

  // A miss runs it; the same request again is a hit the worker serves from the cache, marked alike.
  const miss = await finished(await submit('svc_generate_async($1, max_tokens := 400)', [LONG]));
  expect(miss).toEqual({ result: cut.text, stop_reason: 'context' });
  const entry = await su.query(`SELECT stop_reason, hits FROM svc_cache WHERE result = $1`, [cut.text]);
  expect(entry.rows).toEqual([{ stop_reason: 'context', hits: '0' }]);
  const hit = await finished(await submit('svc_generate_async($1, max_tokens := 400)', [LONG]));
  expect(hit).toEqual({ result: cut.text, stop_reason: 'context' });
  expect((await su.query(`SELECT hits FROM svc_cache WHERE result = $1`, [cut.text])).rows).toEqual([{ hits: '1' }]);

  // Without the cache, and through a synchronous call (its row keeps how it ended, as an async one's).
  expect(await finished(await submit('svc_generate_async($1, max_tokens := 400, use_cache := false)', [LONG]))).toEqual(
    {
      result: cut.text,
      stop_reason: 'context',
    },
  );
  expect(await finished(await submit('svc_generate_async($1, max_tokens := 270)', [LONG]))).toEqual({
    result: cut.text,
    stop_reason: 'max_tokens',
  });
  const sync = (await alice.query(`SELECT svc_generate($1, max_tokens := 300, use_cache := false) AS r`, [LONG]))
    .rows[0].r;
  expect(sync).toBe(cut.text);
  const rows = await alice.query(`SELECT stop_reason FROM svc_queue WHERE parameters->>'max_tokens' = '300'`);
  expect(rows.rows).toEqual([{ stop_reason: 'context' }]);
}, 300_000);

test('every generation records how it ended as the engine says it: the end, a stop string, max_tokens; other functions record none', async () => {
  const cases: Array<{ sql: string; params: unknown[]; engine: Parameters<Engine['generate']>[0] }> = [
    {
      sql: 'svc_generate_async($1, max_tokens := 20)',
      params: ['Once upon a time'],
      engine: { prompt: 'Once upon a time', maxTokens: 20, seed: 42 },
    },
    {
      sql: `svc_generate_async($1, max_tokens := 60, stop := ARRAY['Lily'])`,
      params: ['Once upon a time'],
      engine: { prompt: 'Once upon a time', maxTokens: 60, seed: 42, stop: ['Lily'] },
    },
    {
      sql: `svc_generate_choice_async($1, ARRAY['yes', 'no'])`,
      params: ['Is the sky blue?'],
      engine: { prompt: 'Is the sky blue?', maxTokens: 512, seed: 42, grammar: compileChoices(['yes', 'no']).gbnf },
    },
  ];
  const seen: string[] = [];
  for (const c of cases) {
    const want = await stories.generate(c.engine);
    const got = await finished(await submit(c.sql, c.params));
    expect(got).toEqual({ result: want.text, stop_reason: STOP_REASON_NAMES[want.stopReason] });
    seen.push(got.stop_reason!);
  }
  expect(seen).toEqual(['max_tokens', 'stop', 'end']);
  expect(await finished(await submit('svc_embed_async($1)', ['a dog']))).toMatchObject({ stop_reason: null });
}, 300_000);

test("the library's stream ends with stopReason 'context' for the same cut", async () => {
  configure({ model: STORIES_MODEL, threads: 1 });
  let done: { stopReason: string; tokens?: number } | undefined;
  for await (const event of generateStream(LONG, { maxTokens: 400 })) if (event.type === 'done') done = event;
  expect(done).toMatchObject({ stopReason: 'context', tokens: 270 });
}, 120_000);
