// svc_summarize, the aggregate, with a real worker on the trained stories260K: GROUP BY summaries
// through a chunked map-reduce, bounded in memory and model calls by the text (not the rows),
// deterministic for the same rows in the same order, in serial, parallel and partitionwise plans.
import type pg from 'pg';
import { STORIES_MODEL } from '../helpers/real-models.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let su: pg.Client;
let alice: pg.Client;
let bob: pg.Client;
let worker: WorkerProcess;

const CHUNK = 500;
const SENTENCES = [
  'Lily had a red ball.',
  'She played in the park with her dog.',
  'The sun was warm and the sky was blue.',
  'Tom came to play too.',
  'They were happy.',
];

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  bob = await svc().connect(ROLES.bob);
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2' }, STORIES_MODEL);
  await eventually(
    'the worker to heartbeat',
    async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
  // 'long': 60 rows of 2 sentences (~3,600 characters); 'many': 400 rows of a few characters (~5,000);
  // every row its own (numbered), so no two chunks are the same request (the cache would answer the second);
  // 'short': 2 rows; 'none': only NULL and blank rows.
  await su.query(`CREATE TABLE docs (id integer PRIMARY KEY, category text NOT NULL, body text)`);
  const rows: Array<[number, string, string | null]> = [];
  for (let i = 0; i < 60; i++)
    rows.push([rows.length + 1, 'long', `${i}. ${SENTENCES[i % 5]} ${SENTENCES[(i * 3 + 1) % 5]}`]);
  for (let i = 0; i < 400; i++) rows.push([rows.length + 1, 'many', `${i % 2 ? 'Lily ran' : 'Tom sat'} ${i}.`]);
  rows.push([rows.length + 1, 'short', 'Lily went to the park.'], [rows.length + 2, 'short', 'She saw a big dog.']);
  rows.push([rows.length + 1, 'none', null], [rows.length + 2, 'none', '   ']);
  await su.query(`INSERT INTO docs SELECT * FROM unnest($1::int[], $2::text[], $3::text[])`, [
    rows.map((r) => r[0]),
    rows.map((r) => r[1]),
    rows.map((r) => r[2]),
  ]);
  await su.query(`GRANT SELECT ON docs TO alice`);
  await alice.query(`SET svc.summarize_chunk_size = ${CHUNK}`);
}, 120_000);
afterAll(async () => {
  await worker?.stop();
});

const SUMMARIES = `SELECT category, svc_summarize(body, 24, 7 ORDER BY id) AS summary FROM docs GROUP BY category ORDER BY category`;
const summaries = async (client: pg.Client = alice, sql = SUMMARIES) =>
  Object.fromEntries((await client.query(sql)).rows.map((r) => [r.category, r.summary]));
const generations = async () =>
  (await su.query(`SELECT count(*)::int AS n FROM svc_queue WHERE function_name = 'generate'`)).rows[0].n as number;
const textLength = async (category: string) =>
  (
    await su.query(
      `SELECT sum(length(btrim(body)))::int + 2 * (count(*)::int - 1) AS n FROM docs WHERE category = $1 AND btrim(body) <> ''`,
      [category],
    )
  ).rows[0].n as number;

test('GROUP BY: one summary per group, the same bytes again and after the cache is cleared; NULL for a group of no text', async () => {
  await su.query('SELECT svc_cache_clear()');
  const first = await summaries();
  expect(Object.keys(first)).toEqual(['long', 'many', 'none', 'short']);
  expect(first.none).toBeNull();
  for (const c of ['long', 'many', 'short']) expect(first[c]).toMatch(/[A-Za-z]+ [a-z]+/); // stories260K writes English
  expect(await summaries()).toEqual(first); // from the cache
  await su.query('SELECT svc_cache_clear()');
  expect(await summaries()).toEqual(first); // computed again
  // A short group is one model call: a summary of its text with the aggregate's max_tokens and seed.
  const short = (
    await alice.query(
      `SELECT svc_generate(E'Lily went to the park.\\n\\nShe saw a big dog.\\n\\nSummarize the text above.\\nSummary:', 24, seed := 7) AS s`,
    )
  ).rows[0].s;
  expect(first.short).toBe(short.trim());
  // The default max_tokens and seed (512, 42) are those of the one-argument form.
  expect(
    (await alice.query(`SELECT svc_summarize(body ORDER BY id) AS s FROM docs WHERE category = 'short'`)).rows[0].s,
  ).toBe(
    (await alice.query(`SELECT svc_summarize(body, 512, 42 ORDER BY id) AS s FROM docs WHERE category = 'short'`))
      .rows[0].s,
  );
}, 300_000);

test('model calls follow the text, not the rows: 400 tiny rows cost what their characters do', async () => {
  await su.query('SELECT svc_cache_clear()');
  for (const category of ['long', 'many']) {
    const before = await generations();
    await alice.query(`SELECT svc_summarize(body, 24, 7 ORDER BY id) FROM docs WHERE category = $1`, [category]);
    const calls = (await generations()) - before;
    // Each map call takes at least 90% of a chunk; each reduce call replaces two or more partial
    // summaries; the final call or two close it.
    const maps = Math.ceil((await textLength(category)) / (CHUNK * 0.9));
    expect(calls).toBeGreaterThanOrEqual(Math.floor((await textLength(category)) / CHUNK));
    expect(calls).toBeLessThanOrEqual(2 * maps + 2);
  }
}, 300_000);

test('the state stays bounded however many rows: less than a chunk of text, partial summaries of at most a chunk (or one)', async () => {
  // The transition function itself, fed row by row as the aggregate does (the superuser may call it).
  const { rows } = await su.query(`SELECT body FROM docs WHERE category IN ('long', 'many') ORDER BY id`);
  let state: unknown = null;
  let largest = 0;
  await su.query(`SET svc.summarize_chunk_size = ${CHUNK}`);
  for (const { body } of rows) {
    state = (
      await su.query(`SELECT svc__summarize_step($1::jsonb, $2, 24, 7) AS s`, [
        state === null ? null : JSON.stringify(state),
        body,
      ])
    ).rows[0].s;
    const s = state as { text: string; parts: string[]; rows: number };
    expect(s.text.length).toBeLessThan(CHUNK);
    expect(s.parts.length === 1 || s.parts.join('\n\n').length <= CHUNK).toBe(true);
    largest = Math.max(largest, JSON.stringify(s).length);
  }
  expect((state as { rows: number }).rows).toBe(460);
  expect(largest).toBeLessThan(4 * CHUNK);
  await su.query('RESET svc.summarize_chunk_size');
}, 300_000);

test('never in a parallel plan (its model calls write); partitionwise it combines partial states', async () => {
  const serial = await summaries();
  await su.query(`ALTER TABLE docs SET (parallel_workers = 2)`);
  await alice.query(
    `SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2`,
  );
  try {
    // The same scan without the aggregate is parallel; with it, the planner keeps it serial.
    expect(
      (await alice.query(`EXPLAIN (COSTS OFF) SELECT category, count(body) FROM docs GROUP BY category`)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n'),
    ).toMatch(/Gather/);
    expect(
      (await alice.query(`EXPLAIN (COSTS OFF) ${SUMMARIES}`)).rows.map((r) => r['QUERY PLAN']).join('\n'),
    ).not.toMatch(/Gather|Parallel/);
    expect(await summaries()).toEqual(serial);
  } finally {
    await alice.query('RESET ALL');
    await alice.query(`SET svc.summarize_chunk_size = ${CHUNK}`);
  }
  // Partitionwise: each partition's rows aggregated apart, then the states combined (svc__summarize_combine).
  await su.query(`CREATE TABLE parted (id integer, category text, body text) PARTITION BY RANGE (id)`);
  await su.query(
    `CREATE TABLE parted_1 PARTITION OF parted FOR VALUES FROM (0) TO (30); CREATE TABLE parted_2 PARTITION OF parted FOR VALUES FROM (30) TO (1000)`,
  );
  await su.query(`INSERT INTO parted SELECT * FROM docs; ANALYZE parted; GRANT SELECT ON parted TO alice`);
  await alice.query('SET enable_partitionwise_aggregate = on');
  const sql = `SELECT category, svc_summarize(body, 24, 7) AS summary FROM parted GROUP BY category ORDER BY category`;
  const plan = (await alice.query(`EXPLAIN (COSTS OFF) ${sql}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
  expect(plan).toMatch(/Partial .*Aggregate/);
  const combined = await summaries(alice, sql);
  expect(combined.long).toMatch(/[A-Za-z]+ [a-z]+/);
  expect(await summaries(alice, sql)).toEqual(combined);
  await alice.query('RESET enable_partitionwise_aggregate');
}, 300_000);

test('bad arguments and settings are refused naming them, enqueueing nothing; the support functions are not callable', async () => {
  const before = await generations();
  const cases: Array<[string, string, string]> = [
    [
      `SELECT svc_summarize(body, 0) FROM docs`,
      '22023',
      'svc_summarize: max_tokens must be between 1 and 32768 (got 0)',
    ],
    [`SELECT svc_summarize(body, NULL::integer) FROM docs`, '22004', 'svc_summarize: max_tokens must not be NULL'],
    [`SELECT svc_summarize(body, 16, NULL) FROM docs`, '22004', 'svc_summarize: seed must not be NULL'],
    [
      `SELECT svc_summarize(body, CASE WHEN id < 3 THEN 16 ELSE 17 END ORDER BY id) FROM docs WHERE category = 'long'`,
      '22023',
      'svc_summarize: max_tokens must be the same for every row of a group (was 16, got 17)',
    ],
    [
      `SELECT svc_summarize(body, 16, id ORDER BY id) FROM docs WHERE category = 'long'`,
      '22023',
      'svc_summarize: seed must be the same for every row of a group (was 1, got 2)',
    ],
  ];
  for (const [sql, code, message] of cases) {
    const e = await alice.query(sql).then(
      () => ({ code: 'none', message: 'no error' }),
      (x: { code: string; message: string }) => x,
    );
    expect({ sql, code: e.code, message: e.message }).toEqual({ sql, code, message });
  }
  for (const [value, message] of [
    ['abc', 'must be an integer of at least 100 (is "abc")'],
    ['99', 'must be an integer of at least 100 (is "99")'],
  ]) {
    await alice.query(`SET svc.summarize_chunk_size = '${value}'`);
    await expect(alice.query(`SELECT svc_summarize(body) FROM docs`)).rejects.toThrow(
      `setting svc.summarize_chunk_size ${message}`,
    );
  }
  await alice.query(`SET svc.summarize_chunk_size = ${CHUNK}`);
  expect(await generations()).toBe(before);
  // Nobody feeds the aggregate a state of their own making.
  for (const sql of [
    `SELECT svc__summarize_step(NULL, 'x')`,
    `SELECT svc__summarize_combine('{}', '{}')`,
    `SELECT svc__summarize_final('{"rows": 1, "text": "x"}')`,
  ]) {
    await expect(alice.query(sql)).rejects.toThrow(/permission denied for function svc__summarize_/);
  }
  // The model calls are alice's requests: bob sees none of them.
  expect(
    (await alice.query(`SELECT count(*)::int AS n FROM svc_queue WHERE function_name = 'generate'`)).rows[0].n,
  ).toBeGreaterThan(0);
  expect((await bob.query(`SELECT count(*)::int AS n FROM svc_queue`)).rows[0].n).toBe(0);
});

test("with its defaults on the shipped generator: chunks fit the model's context, for a 10,000-character text and for groups of 20 and 200 short rows", async () => {
  // bob sets nothing: max_tokens 512, and chunks cut to stories260K's 512-token context as its worker reported it.
  expect((await su.query(`SELECT context_size FROM svc_models WHERE name = 'default'`)).rows[0].context_size).toBe(512);
  await su.query(
    `CREATE TABLE defaults (id integer PRIMARY KEY, grp text, body text); GRANT SELECT ON defaults TO bob`,
  );
  await su.query(`INSERT INTO defaults VALUES (1, 'long', $1)`, [
    Array.from({ length: 400 }, (_, n) => `${n}. ${SENTENCES[n % 5]}`).join(' '),
  ]);
  await su.query(
    `INSERT INTO defaults SELECT 100 + i, 'twenty', format('Lily ran %s times.', i) FROM generate_series(1, 20) i`,
  );
  await su.query(
    `INSERT INTO defaults SELECT 1000 + i, 'two hundred', format('Tom sat %s.', i) FROM generate_series(1, 200) i`,
  );
  expect((await su.query(`SELECT length(body) AS n FROM defaults WHERE id = 1`)).rows[0].n).toBeGreaterThanOrEqual(
    10_000,
  );
  const rows = (
    await bob.query(`SELECT grp, svc_summarize(body ORDER BY id) AS s FROM defaults GROUP BY grp ORDER BY grp`)
  ).rows;
  expect(rows.map((r) => r.grp)).toEqual(['long', 'twenty', 'two hundred']);
  for (const r of rows) expect(r.s.length).toBeGreaterThan(0);
}, 300_000);

test('a chunk set larger than the context is refused naming svc.summarize_chunk_size', async () => {
  await bob.query(`SET svc.summarize_chunk_size = 5000`);
  try {
    await expect(bob.query(`SELECT svc_summarize(body, 8) FROM defaults WHERE id = 1`)).rejects.toMatchObject({
      message: expect.stringMatching(
        /^svc_summarize: a chunk sized by svc\.summarize_chunk_size \(5000 characters\) makes a prompt over the model's context: .*prompt is( at least)? \d+ tokens, over the 511/,
      ),
      hint: expect.stringMatching(/Lower svc\.summarize_chunk_size, or RESET it/),
    });
  } finally {
    await bob.query(`RESET svc.summarize_chunk_size`);
  }
});
