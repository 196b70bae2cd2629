// The SQL surface of SPEC 4.2: names, parameter names, types and defaults; named notation; what each
// submitter stores; and every validation error, each naming its parameter and enqueuing nothing.
import type pg from 'pg';
import { useSvc } from '../helpers/svc.js';

const svc = useSvc();
let db: pg.Client;
beforeAll(async () => {
  db = await svc().connect();
});
beforeEach(async () => {
  await db.query('DELETE FROM svc_queue');
});

// Every generating function: SPEC's parameters, then seeded sampling and stop strings (#56; DECODING in
// catalog.ts), before priority, which SPEC puts last.
const SIGNATURES: Record<string, string> = {
  svc_generate: 'prompt text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[]',
  svc_embed: 'text_input text, use_cache boolean DEFAULT true',
  svc_generate_json: 'prompt text, schema jsonb, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[]',
  svc_generate_regex: 'prompt text, pattern text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[]',
  svc_generate_choice: 'prompt text, choices text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[]',
  // DESIGN's five parameters, then top_k (#37), last so that positional calls of the five keep working.
  svc_rerank: "query text, documents text[], task text DEFAULT 'Given a web search query, retrieve relevant passages that answer the query'::text, use_cache boolean DEFAULT true, seed integer DEFAULT 42, top_k integer DEFAULT NULL::integer",
  svc_generate_async: 'prompt text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[], priority integer DEFAULT 0',
  svc_embed_async: 'text_input text, use_cache boolean DEFAULT true, priority integer DEFAULT 0',
  svc_generate_json_async: 'prompt text, schema jsonb, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[], priority integer DEFAULT 0',
  svc_generate_regex_async: 'prompt text, pattern text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[], priority integer DEFAULT 0',
  svc_generate_choice_async: 'prompt text, choices text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[], priority integer DEFAULT 0',
  svc_generate_batch_async: 'prompts text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[], priority integer DEFAULT 0',
  svc_embed_batch_async: 'texts text[], use_cache boolean DEFAULT true, priority integer DEFAULT 0',
  svc_rerank_async: "query text, documents text[], task text DEFAULT 'Given a web search query, retrieve relevant passages that answer the query'::text, use_cache boolean DEFAULT true, seed integer DEFAULT 42, priority integer DEFAULT 0",
  svc_check_async: 'request_id uuid',
  svc_check_async_batch: 'request_ids uuid[]',
  svc_get_async_result: 'request_id uuid, timeout_seconds integer DEFAULT 30',
  svc_cancel_async: 'request_id uuid',
  svc_worker_status: '',
  svc_queue_stats: '',
};

// The set-based overloads of the sync functions (an array first) are svc's own, beside the spec's.
const SET_BASED: Record<string, string> = {
  svc_generate: 'prompts text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[]',
  svc_embed: 'texts text[], use_cache boolean DEFAULT true',
  svc_generate_json: 'prompts text[], schema jsonb, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[]',
  svc_generate_regex: 'prompts text[], pattern text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[]',
  svc_generate_choice: 'prompts text[], choices text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[]',
  svc_rerank: "queries text[], documents text[], task text DEFAULT 'Given a web search query, retrieve relevant passages that answer the query'::text, use_cache boolean DEFAULT true, seed integer DEFAULT 42, top_k integer DEFAULT NULL::integer",
};

// The schema as text (a literal resolves to it): the generated JSON keeps the order written (README, Property order).
const SCHEMA_AS_TEXT = (args: string) => args.replace('schema jsonb', 'schema text');
// And as json (a json column keeps the text as written; #45).
const SCHEMA_AS_JSON = (args: string) => args.replace('schema jsonb', 'schema json');

test.each(Object.entries(SIGNATURES))('%s has the parameters of the spec', async (name, args) => {
  // A relay (C, no settings: src/native/relay.c) pins its settings in its body, svc__run_<name> of the same arguments.
  const { rows } = await db.query(`SELECT pg_get_function_arguments(p.oid) AS args,
      coalesce(p.proconfig, (SELECT b.proconfig FROM pg_proc b WHERE b.pronamespace = p.pronamespace AND b.proname = 'svc__run_' || substr(p.proname, 5)
        AND b.proargtypes = p.proargtypes AND p.prosrc = 'svc_relay')) AS proconfig
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE p.proname = $1
    ORDER BY p.proargtypes[0] = 'text'::regtype DESC, p.proargtypes[1] = 'jsonb'::regtype DESC`, [name]);
  let expected = SET_BASED[name] ? [args, SET_BASED[name]] : [args];
  if (name.startsWith('svc_generate_json')) expected = expected.flatMap((a) => [a, SCHEMA_AS_TEXT(a), SCHEMA_AS_JSON(a)]);
  expect(rows.map((r) => r.args)).toEqual(expected);
  for (const row of rows) expect(row.proconfig.join(',')).toMatch(/^search_path=/); // pinned
});

test('return types of the spec', async () => {
  const { rows } = await db.query(`SELECT proname, pg_get_function_result(oid) AS result FROM pg_proc
    WHERE proname = ANY ($1) ORDER BY proname`, [['svc_generate_async', 'svc_generate_batch_async', 'svc_embed_batch_async', 'svc_check_async', 'svc_check_async_batch', 'svc_get_async_result', 'svc_cancel_async']]);
  expect(Object.fromEntries(rows.map((r) => [r.proname, r.result]))).toEqual({
    svc_cancel_async: 'boolean',
    svc_check_async: 'TABLE(status text, result text, error text, created_at timestamp without time zone, started_at timestamp without time zone, completed_at timestamp without time zone, priority integer)',
    svc_check_async_batch: 'TABLE(request_id uuid, status text, result text, error text, created_at timestamp without time zone, completed_at timestamp without time zone)',
    svc_embed_batch_async: 'uuid[]',
    svc_generate_async: 'uuid',
    svc_generate_batch_async: 'uuid[]',
    svc_get_async_result: 'text',
  });
});

test('svc_queue has the columns of SPEC 2.2', async () => {
  const { rows } = await db.query(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'svc_queue'`);
  const columns = Object.fromEntries(rows.map((r) => [r.column_name, r.data_type]));
  for (const [name, type] of Object.entries({
    request_id: 'uuid', function_name: 'text', parameters: 'jsonb', status: 'text', priority: 'integer', result: 'text',
    error: 'text', retry_count: 'integer',
  })) expect(columns[name]).toBe(type);
  for (const name of ['created_at', 'started_at', 'completed_at', 'failed_at']) expect(columns[name]).toMatch(/^timestamp/);
});

async function job(id: string) {
  const { rows } = await db.query('SELECT function_name, parameters, grammar, status, priority FROM svc_queue WHERE request_id = $1', [id]);
  return rows[0];
}

test('svc_generate_async stores the defaults and returns a pending request id', async () => {
  const { rows } = await db.query(`SELECT svc_generate_async('Hello') AS id`);
  expect(rows[0].id).toMatch(/^[0-9a-f-]{36}$/);
  expect(await job(rows[0].id)).toEqual({
    function_name: 'generate', parameters: { prompt: 'Hello', max_tokens: 512, use_cache: true, seed: 42, prompt_format: 'chat' }, grammar: null, status: 'pending', priority: 0,
  });
});

test('named notation sets any parameter', async () => {
  const { rows } = await db.query(`SELECT svc_generate_async(prompt := 'Hi', seed := 7, priority := 5, max_tokens := 16, use_cache := false) AS id`);
  expect(await job(rows[0].id)).toMatchObject({ parameters: { prompt: 'Hi', max_tokens: 16, use_cache: false, seed: 7 }, priority: 5 });
});

test('sampling and stop strings are recorded only where they change the output (the cache key of a greedy request is unchanged)', async () => {
  const stored = async (call: string) => (await job((await db.query(`SELECT ${call} AS id`)).rows[0].id)).parameters;
  const greedy = { prompt: 'Hi', max_tokens: 512, use_cache: true, seed: 42, prompt_format: 'chat' };
  // Temperature 0 is greedy: top_k, top_p and min_p change nothing then, and are not recorded.
  expect(await stored(`svc_generate_async('Hi', top_k := 5, top_p := 0.5, min_p := 0.2, stop := ARRAY[]::text[])`)).toEqual(greedy);
  expect(await stored(`svc_generate_async('Hi', temperature := 0.7)`)).toEqual({ ...greedy, temperature: 0.7, top_k: 40, top_p: 0.95, min_p: 0.05 });
  expect(await stored(`svc_generate_async('Hi', temperature := 1.5, top_k := 0, top_p := 1, min_p := 0, stop := ARRAY['.', E'\n'])`)).toEqual({
    ...greedy, temperature: 1.5, top_k: 0, top_p: 1, min_p: 0, stop: ['.', '\n'],
  });
  // Every generating submitter takes them, by name and before priority (SPEC's last parameter).
  expect(await stored(`svc_generate_regex_async('Hi', '[a-z]+', 8, true, 7, 0.5, 10, 0.9, 0.1, ARRAY['x'], 3)`)).toMatchObject({
    max_tokens: 8, seed: 7, temperature: 0.5, top_k: 10, top_p: 0.9, min_p: 0.1, stop: ['x'],
  });
  expect((await db.query(`SELECT priority FROM svc_queue ORDER BY created_at DESC LIMIT 1`)).rows[0].priority).toBe(3);
  const ids = (await db.query(`SELECT svc_generate_batch_async(ARRAY['a', 'b'], temperature := 0.3, stop := ARRAY['!']) AS ids`)).rows[0].ids;
  for (const id of ids) expect((await job(id)).parameters).toMatchObject({ temperature: 0.3, stop: ['!'] });
  expect(await stored(`svc_generate_json_async('Hi', '{"type":"integer"}', temperature := 0.9)`)).toMatchObject({ temperature: 0.9 });
  expect(await stored(`svc_generate_json_async('Hi', '{"type":"integer"}'::json, temperature := 0.9, stop := ARRAY['1'])`)).toMatchObject({ temperature: 0.9, stop: ['1'] });
  expect(await stored(`svc_generate_choice_async('Hi', ARRAY['a', 'b'], min_p := 0.5, temperature := 2)`)).toMatchObject({ temperature: 2, min_p: 0.5 });
});

test('svc_embed_async stores text_input', async () => {
  const { rows } = await db.query(`SELECT svc_embed_async(text_input := 'vector me', priority := 2) AS id`);
  expect(await job(rows[0].id)).toMatchObject({ function_name: 'embed', parameters: { text_input: 'vector me', use_cache: true }, priority: 2 });
});

test('constrained submitters store the constraint and its compiled grammar', async () => {
  const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
  const json = (await db.query(`SELECT svc_generate_json_async('Give a name', $1::jsonb) AS id`, [schema])).rows[0].id;
  const regex = (await db.query(`SELECT svc_generate_regex_async('A year', '(19|20)[0-9]{2}') AS id`)).rows[0].id;
  const choice = (await db.query(`SELECT svc_generate_choice_async('Pick', ARRAY['red','green']) AS id`)).rows[0].id;
  const j = await job(json);
  expect(j).toMatchObject({ function_name: 'generate_json', parameters: { prompt: 'Give a name', schema } });
  expect(j.grammar).toMatch(/^root\s*::=/m);
  expect(await job(regex)).toMatchObject({ function_name: 'generate_regex', parameters: { pattern: '(19|20)[0-9]{2}' } });
  expect((await job(regex)).grammar).toMatch(/root/);
  expect(await job(choice)).toMatchObject({ function_name: 'generate_choice', parameters: { choices: ['red', 'green'] } });
});

test('batch submitters return one id per item, in input order', async () => {
  const prompts = Array.from({ length: 50 }, (_, i) => `prompt ${i}`);
  const { rows } = await db.query(`SELECT svc_generate_batch_async($1::text[], max_tokens := 8) AS ids`, [prompts]);
  expect(rows[0].ids).toHaveLength(50);
  const stored = await db.query(`SELECT request_id, parameters->>'prompt' AS prompt, batch_index FROM svc_queue`);
  const byId = new Map(stored.rows.map((r) => [r.request_id, r.prompt]));
  expect(rows[0].ids.map((id: string) => byId.get(id))).toEqual(prompts);
  const embed = await db.query(`SELECT svc_embed_batch_async(ARRAY['a','b','c']) AS ids`);
  expect(embed.rows[0].ids).toHaveLength(3);
});

test('svc_rerank_async stores query, documents and the default task', async () => {
  const { rows } = await db.query(`SELECT svc_rerank_async('capital of France', ARRAY['Paris is the capital', 'Bananas']) AS id`);
  expect(await job(rows[0].id)).toMatchObject({
    function_name: 'rerank',
    parameters: { query: 'capital of France', documents: ['Paris is the capital', 'Bananas'], task: 'Given a web search query, retrieve relevant passages that answer the query', use_cache: true, seed: 42 },
  });
});

describe('validation at the call', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['NULL prompt', `SELECT svc_generate_async(NULL)`, /svc_generate_async: prompt must not be NULL/],
    ['empty prompt', `SELECT svc_generate_async('  ')`, /svc_generate_async: prompt must not be empty/],
    ['max_tokens 0', `SELECT svc_generate_async('x', max_tokens := 0)`, /max_tokens must be between 1 and 32768 \(got 0\)/],
    ['max_tokens too big', `SELECT svc_generate_async('x', max_tokens := 1000000)`, /max_tokens must be between/],
    ['NULL max_tokens', `SELECT svc_generate_async('x', max_tokens := NULL)`, /max_tokens must not be NULL/],
    ['NULL use_cache', `SELECT svc_generate_async('x', use_cache := NULL)`, /use_cache must not be NULL/],
    ['NULL seed', `SELECT svc_generate_async('x', seed := NULL)`, /seed must not be NULL/],
    ['priority out of range', `SELECT svc_generate_async('x', priority := 101)`, /priority must be between -100 and 100/],
    ['NULL text_input', `SELECT svc_embed_async(NULL)`, /svc_embed_async: text_input must not be NULL/],
    ['invalid schema', `SELECT svc_generate_json_async('x', '{"type": "nonsense"}')`, /svc_generate_json_async: schema is not a usable constraint/],
    ['unsupported schema keyword', `SELECT svc_generate_json_async('x', '{"type": "string", "$dynamicRef": "#a"}')`, /schema is not a usable constraint.*\$dynamicRef/],
    ['false schema', `SELECT svc_generate_json_async('x', 'false')`, /schema is not a usable constraint/],
    ['NULL schema', `SELECT svc_generate_json_async('x', NULL)`, /schema must not be NULL/],
    ['regex with a backreference', `SELECT svc_generate_regex_async('x', '(a)\\1')`, /svc_generate_regex_async: pattern is not a usable constraint/],
    ['regex that does not parse', `SELECT svc_generate_regex_async('x', '(a')`, /pattern is not a usable constraint/],
    ['empty choices', `SELECT svc_generate_choice_async('x', ARRAY[]::text[])`, /svc_generate_choice_async: choices must not be empty/],
    ['NULL choice', `SELECT svc_generate_choice_async('x', ARRAY['a', NULL])`, /choices\[2\] must not be NULL/],
    ['empty choice', `SELECT svc_generate_choice_async('x', ARRAY['a', ''])`, /choices\[2\] must not be empty/],
    ['empty batch', `SELECT svc_generate_batch_async(ARRAY[]::text[])`, /svc_generate_batch_async: prompts must not be empty/],
    ['batch over the limit', `SELECT svc_generate_batch_async(array_fill('p'::text, ARRAY[10001]))`, /prompts must have at most 10000 items \(got 10001\)/],
    ['empty prompt in a batch', `SELECT svc_generate_batch_async(ARRAY['a', ''])`, /prompts\[2\] must not be empty/],
    ['empty embed batch', `SELECT svc_embed_batch_async(ARRAY[]::text[])`, /svc_embed_batch_async: texts must not be empty/],
    ['rerank without documents', `SELECT svc_rerank_async('q', ARRAY[]::text[])`, /svc_rerank_async: documents must not be empty/],
    ['rerank with an empty query', `SELECT svc_rerank_async('', ARRAY['d'])`, /svc_rerank_async: query must not be empty/],
    ['temperature below 0', `SELECT svc_generate_async('x', temperature := -0.1)`, /svc_generate_async: temperature must be a number from 0 to 2 \(got -0.1\)/],
    ['temperature above 2', `SELECT svc_generate_async('x', temperature := 2.5)`, /temperature must be a number from 0 to 2 \(got 2.5\)/],
    ['temperature NaN', `SELECT svc_generate_async('x', temperature := 'NaN')`, /temperature must be a number from 0 to 2 \(got NaN\)/],
    ['NULL temperature', `SELECT svc_generate_async('x', temperature := NULL)`, /svc_generate_async: temperature must not be NULL/],
    ['negative top_k', `SELECT svc_generate_json_async('x', '{}', top_k := -1)`, /svc_generate_json_async: top_k must be an integer from 0 \(every token\) to 2147483647 \(got -1\)/],
    ['top_p of 0', `SELECT svc_generate_regex_async('x', 'a', top_p := 0)`, /svc_generate_regex_async: top_p must be a number above 0 and at most 1 \(got 0\)/],
    ['top_p above 1', `SELECT svc_generate_async('x', top_p := 1.5)`, /top_p must be a number above 0 and at most 1 \(got 1.5\)/],
    ['min_p of 1', `SELECT svc_generate_choice_async('x', ARRAY['a'], min_p := 1)`, /svc_generate_choice_async: min_p must be a number from 0 to below 1 \(got 1\)/],
    ['options checked at temperature 0 too', `SELECT svc_generate_async('x', top_k := -5)`, /top_k must be an integer from 0/],
    ['an empty stop string', `SELECT svc_generate_async('x', stop := ARRAY['a', ''])`, /svc_generate_async: stop\[2\] must not be empty/],
    ['a NULL stop string', `SELECT svc_generate_batch_async(ARRAY['x'], stop := ARRAY[NULL]::text[])`, /svc_generate_batch_async: stop\[1\] must not be NULL/],
    ['too many stop strings', `SELECT svc_generate_async('x', stop := array_fill('s'::text, ARRAY[17]))`, /stop must have at most 16 strings \(got 17\)/],
    ['a stop string too long', `SELECT svc_generate_async('x', stop := ARRAY[repeat('s', 1001)])`, /stop\[1\] must be at most 1000 characters \(got 1001\)/],
  ];
  test.each(cases)('%s is rejected and nothing is enqueued', async (_label, sql, message) => {
    await expect(db.query(sql)).rejects.toThrow(message);
    expect((await db.query('SELECT count(*)::int AS n FROM svc_queue')).rows[0].n).toBe(0);
  });

  test('every submitter checks priority first, whatever else is wrong (so a bad one never costs a compile)', async () => {
    const bad = 'priority := 101';
    const calls = [
      `svc_generate_async(NULL, ${bad})`, `svc_embed_async(NULL, ${bad})`, `svc_generate_json_async(NULL, '{"type": "nonsense"}', ${bad})`,
      `svc_generate_regex_async(NULL, '(a', ${bad})`, `svc_generate_choice_async(NULL, ARRAY[]::text[], ${bad})`,
      `svc_generate_batch_async(ARRAY[]::text[], ${bad})`, `svc_embed_batch_async(ARRAY[]::text[], ${bad})`, `svc_rerank_async(NULL, ARRAY[]::text[], ${bad})`,
    ];
    for (const call of calls) await expect(db.query(`SELECT ${call}`)).rejects.toThrow(/priority must be between -100 and 100/);
  });

  test('errors carry an SQLSTATE', async () => {
    await expect(db.query(`SELECT svc_generate_async('x', max_tokens := 0)`)).rejects.toMatchObject({ code: '22023' });
    await expect(db.query(`SELECT svc_generate_async(NULL)`)).rejects.toMatchObject({ code: '22004' });
    await expect(db.query(`SELECT svc_generate_async('x', temperature := 3)`)).rejects.toMatchObject({ code: '22023' });
    await expect(db.query(`SELECT svc_generate_async('x', stop := ARRAY[repeat('s', 1001)])`)).rejects.toMatchObject({ code: '54000' });
  });
});

describe('queue capacity (svc.max_queue_size)', () => {
  afterEach(async () => {
    await db.query('RESET svc.max_queue_size');
  });

  test('a full queue refuses new requests, whole batches included', async () => {
    await db.query(`SET svc.max_queue_size = 3`);
    await db.query(`SELECT svc_generate_batch_async(ARRAY['a', 'b'])`);
    await expect(db.query(`SELECT svc_generate_batch_async(ARRAY['c', 'd'])`)).rejects.toThrow(/the queue is full \(2 requests pending or processing, svc.max_queue_size = 3; 2 submitted, 1 would fit\)/);
    await db.query(`SELECT svc_generate_async('c')`);
    await expect(db.query(`SELECT svc_embed_async('d')`)).rejects.toMatchObject({ code: '53400' });
    await expect(db.query(`SELECT svc_generate_async('d')`)).rejects.toThrow(/the queue is full \(3 requests pending or processing, svc.max_queue_size = 3\)/);
    expect((await db.query('SELECT count(*)::int AS n FROM svc_queue')).rows[0].n).toBe(3);
  });

  test('what counts is what is really waiting: one stuck request does not make every later submission count the queue', async () => {
    await db.query(`SET svc.max_queue_size = 100`);
    await db.query(`SELECT svc_generate_async('stuck, first of all')`); // never claimed
    await db.query('BEGIN');
    await db.query(`SET LOCAL track_functions = 'all'`);
    for (let i = 0; i < 300; i++) await db.query(`SELECT svc_cancel_async(svc_generate_async('passing ' || $1))`, [i]);
    const counts = Number((await db.query(`SELECT coalesce(sum(calls), 0) AS n FROM pg_stat_xact_user_functions WHERE funcname = 'svc__queue_depth'`)).rows[0].n);
    await db.query('COMMIT');
    // The view's bound (the last number minus the oldest waiting one) passed 100 after 100 submissions;
    // each exact count is carried forward for the next ~98, so the queue was counted a few times, not ~200.
    expect(counts).toBeGreaterThan(0);
    expect(counts).toBeLessThan(10);
  });

  test('finished requests do not count', async () => {
    await db.query(`SET svc.max_queue_size = 1`);
    const { rows } = await db.query(`SELECT svc_generate_async('a') AS id`);
    await db.query(`SELECT svc_cancel_async($1)`, [rows[0].id]);
    await db.query(`SELECT svc_generate_async('b')`);
  });

  test('a malformed setting is a clear error', async () => {
    await db.query(`SET svc.max_queue_size = 'lots'`);
    const before = (await db.query('SELECT count(*)::int AS n FROM svc_queue')).rows[0].n;
    await expect(db.query(`SELECT svc_generate_async('a')`)).rejects.toThrow(/setting svc.max_queue_size must be an integer of at least 1 \(is "lots"\)/);
    await expect(db.query(`SELECT svc_generate_batch_async(ARRAY['a'])`)).rejects.toThrow(/setting svc.max_queue_size must be an integer of at least 1/);
    expect((await db.query('SELECT count(*)::int AS n FROM svc_queue')).rows[0].n).toBe(before);
  });
});
