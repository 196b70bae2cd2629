// Facts (#56) with a real worker: svc_extract_facts asks the model for a JSON array under a JSON
// Schema, so the answer is a list on every model (the trained stories260K, whose facts are stories'
// sentences rather than facts: docs/sql.md names the model to pull for real ones; a random-weight
// qwen2-vocabulary model sampled at temperature 2); svc_deduplicate_facts merges paraphrases by the
// default embedder's similarity (models/svc-embed.gguf) and keeps distinct facts.
import type pg from 'pg';
import { EMBED_MODEL, STORIES_MODEL, realVocabModel } from '../helpers/real-models.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'120s'" } });
let su: pg.Client;
let alice: pg.Client;
let worker: WorkerProcess;

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  worker = startWorker(
    svc().cluster,
    { SVC_WORKER_CONCURRENCY: '4' },
    `default=${STORIES_MODEL},embed=${EMBED_MODEL},qwen=${await realVocabModel('qwen2-512')}`,
  );
  await eventually(
    'the worker to heartbeat',
    async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
}, 120_000);
afterAll(async () => {
  await worker?.stop();
});

const STORY =
  'Lily had a red ball. She played with it in the park every day. One day the ball rolled into the pond, and her dog Max brought it back.';
const facts = async (sql: string, params: unknown[] = []): Promise<string[]> =>
  (await alice.query(`SELECT ${sql} AS f`, params)).rows[0].f as string[];

test('svc_extract_facts: a list of at most max_facts non-blank facts, the same again, through one generate_json request', async () => {
  const list = await facts(`svc_extract_facts($1, 3)`, [STORY]);
  expect(Array.isArray(list)).toBe(true);
  expect(list.length).toBeLessThanOrEqual(3);
  for (const fact of list) expect(fact).toMatch(/^\S(.*\S)?$/s);
  expect(new Set(list).size).toBe(list.length);
  expect(await facts(`svc_extract_facts($1, 3)`, [STORY])).toEqual(list);
  const request = (
    await su.query(
      `SELECT function_name, parameters FROM svc_queue WHERE parameters->>'prompt' LIKE 'Extract at most 3 short facts%'`,
    )
  ).rows;
  expect(request).toHaveLength(1); // the second call was a cache hit
  expect(request[0].function_name).toBe('generate_json');
  expect(JSON.parse(request[0].parameters.schema)).toEqual({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: 300 },
    maxItems: 3,
  });
  expect(request[0].parameters.prompt).toContain(STORY);
  // max_facts 1: at most one.
  expect((await facts(`svc_extract_facts($1, 1, use_cache := false)`, [STORY])).length).toBeLessThanOrEqual(1);
}, 120_000);

test('svc_extract_facts on a random-weight model sampled over every token: always a valid list', async () => {
  await alice.query(`SET svc.model = 'qwen'`);
  try {
    const lists: string[][] = [];
    for (const seed of [1, 2, 3]) {
      const list = await facts(
        `svc_extract_facts($1, 4, max_tokens := 100, seed := ${seed}, temperature := 2, top_k := 0, top_p := 1, min_p := 0, use_cache := false)`,
        [STORY],
      );
      expect(list.length).toBeLessThanOrEqual(4);
      for (const fact of list) expect(fact.trim()).toBe(fact);
      lists.push(list);
    }
    expect(new Set(lists.map((l) => JSON.stringify(l))).size).toBeGreaterThan(1);
  } finally {
    await alice.query('RESET svc.model');
  }
}, 180_000);

test('svc_deduplicate_facts: paraphrases merged into the first of each, distinct facts kept, in order', async () => {
  const input = [
    'Paris is the capital of France.',
    'Lily has a red ball.',
    'The capital of France is Paris.',
    'The cake was sweet.',
    'Lily owns a ball that is red.',
    "France's capital city is Paris.",
    'The dog barked at the cat.',
    'The red ball belongs to Lily.',
    'Water boils at 100 degrees.',
    'Tom went to the park.',
  ];
  expect(await facts(`svc_deduplicate_facts($1::text[])`, [input])).toEqual([
    'Paris is the capital of France.',
    'Lily has a red ball.',
    'The cake was sweet.',
    'The dog barked at the cat.',
    'Water boils at 100 degrees.',
    'Tom went to the park.',
  ]);
  // A threshold of 1 merges only facts of the same embedding; a low one merges more.
  expect(
    await facts(`svc_deduplicate_facts($1::text[], 1)`, [
      ['Lily has a red ball.', 'Lily owns a ball that is red.', 'Lily has a red ball.'],
    ]),
  ).toEqual(['Lily has a red ball.', 'Lily owns a ball that is red.']);
  expect((await facts(`svc_deduplicate_facts($1::text[], 0.3)`, [input])).length).toBeLessThan(6);
  expect(await facts(`svc_deduplicate_facts(ARRAY[]::text[])`)).toEqual([]);
  expect(await facts(`svc_deduplicate_facts(ARRAY['one fact'])`)).toEqual(['one fact']);
  // Its embeddings are svc_embed's requests: the cache serves them again.
  const misses = Number((await su.query('SELECT misses FROM svc_cache_stats()')).rows[0].misses);
  await facts(`svc_deduplicate_facts($1::text[])`, [input]);
  expect(Number((await su.query('SELECT misses FROM svc_cache_stats()')).rows[0].misses)).toBe(misses);
}, 120_000);

test('errors name the parameter and the rule; nothing is enqueued', async () => {
  const pending = async () =>
    Number((await su.query(`SELECT count(*) AS n FROM svc_queue WHERE status = 'pending'`)).rows[0].n);
  const before = await pending();
  const cases: Array<[string, string, string]> = [
    [`svc_extract_facts(NULL)`, '22004', 'svc_extract_facts: text_input must not be NULL'],
    [`svc_extract_facts('  ')`, '22023', 'svc_extract_facts: text_input must not be empty'],
    [`svc_extract_facts('x', 0)`, '22023', 'svc_extract_facts: max_facts must be between 1 and 100 (got 0)'],
    [
      `svc_extract_facts('x', temperature := 9)`,
      '22023',
      'svc_extract_facts: temperature must be a number from 0 to 2 (got 9)',
    ],
    [`svc_deduplicate_facts(NULL)`, '22004', 'svc_deduplicate_facts: facts must not be NULL'],
    [`svc_deduplicate_facts(ARRAY['a', NULL])`, '22004', 'svc_deduplicate_facts: facts[2] must not be NULL'],
    [`svc_deduplicate_facts(ARRAY['a', ' '])`, '22023', 'svc_deduplicate_facts: facts[2] must not be empty'],
    [
      `svc_deduplicate_facts(ARRAY['a', 'b'], 1.5)`,
      '22023',
      'svc_deduplicate_facts: threshold must be a cosine similarity from 0 to 1 (got 1.5)',
    ],
    [`svc_deduplicate_facts(ARRAY['a', 'b'], NULL)`, '22004', 'svc_deduplicate_facts: threshold must not be NULL'],
    [
      `svc_deduplicate_facts(array_fill('a'::text, ARRAY[1001]))`,
      '54000',
      'svc_deduplicate_facts: facts must have at most 1000 items (got 1001)',
    ],
  ];
  for (const [call, code, message] of cases)
    await expect(alice.query(`SELECT ${call}`)).rejects.toMatchObject({ code, message });
  expect(await pending()).toBe(before);
});
