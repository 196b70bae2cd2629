// Rerank options with a real worker on the trained stories260K: top_k, documents only, many queries at once
// (sync and async). Every form makes the same requests as svc_rerank, so its scores and order are
// svc_rerank's, byte for byte, cached or not.
import type pg from 'pg';
import { STORIES_MODEL } from '../helpers/real-models.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let alice: pg.Client;
let bob: pg.Client;
let su: pg.Client;
let worker: WorkerProcess;

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  bob = await svc().connect(ROLES.bob);
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2' }, STORIES_MODEL);
  await eventually(
    'the worker to heartbeat',
    async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
}, 60_000);
afterAll(async () => {
  await worker?.stop();
});

const DOCS = [
  'Paris is the capital of France',
  'Bananas are yellow',
  'The Eiffel tower',
  'A red ball',
  'Lily went to the park',
  'France has many cities',
];
const QUERIES = ['capital of France', 'a yellow fruit', 'a girl plays'];
type Row = { document: string; score: number };

async function full(query: string, useCache: boolean): Promise<Row[]> {
  return (
    await alice.query(`SELECT document, score FROM svc_rerank($1, $2::text[], use_cache := $3)`, [
      query,
      DOCS,
      useCache,
    ])
  ).rows;
}
const queued = async () => (await su.query('SELECT count(*)::int AS n FROM svc_queue')).rows[0].n as number;

test('top_k: the first k of svc_rerank, the same scores; NULL or more than there are: all', async () => {
  for (const useCache of [false, true]) {
    const all = await full(QUERIES[0], useCache);
    expect(all).toHaveLength(DOCS.length);
    expect(new Set(all.map((r) => r.score)).size).toBe(DOCS.length); // a real ranking: no ties to hide a reordering
    const top3 = (
      await alice.query(`SELECT document, score FROM svc_rerank($1, $2::text[], use_cache := $3, top_k := 3)`, [
        QUERIES[0],
        DOCS,
        useCache,
      ])
    ).rows;
    expect(top3).toEqual(all.slice(0, 3));
    for (const k of ['NULL', '100']) {
      expect(
        (
          await alice.query(`SELECT document, score FROM svc_rerank($1, $2::text[], use_cache := $3, top_k := ${k})`, [
            QUERIES[0],
            DOCS,
            useCache,
          ])
        ).rows,
      ).toEqual(all);
    }
  }
});

test("documents only: svc_rerank's documents in its order, top_k applied", async () => {
  const all = await full(QUERIES[1], false);
  const docs = (
    await alice.query(`SELECT d FROM svc_rerank_docs_only($1, $2::text[], use_cache := false) AS d`, [QUERIES[1], DOCS])
  ).rows.map((r) => r.d);
  expect(docs).toEqual(all.map((r) => r.document));
  const two = (
    await alice.query(`SELECT d FROM svc_rerank_docs_only($1, $2::text[], top_k := 2) AS d`, [QUERIES[1], DOCS])
  ).rows.map((r) => r.d);
  expect(two).toEqual(all.slice(0, 2).map((r) => r.document));
});

test("many queries at once, sync: each query's rows are svc_rerank's for it, with rank and position; top_k per query", async () => {
  const expected: Row[][] = [];
  for (const q of QUERIES) expected.push(await full(q, false));
  const rows = (
    await alice.query(`SELECT * FROM svc_rerank_batch($1::text[], $2::text[], use_cache := false)`, [QUERIES, DOCS])
  ).rows;
  QUERIES.forEach((q, i) => {
    const mine = rows.filter((r) => r.ord === i + 1);
    expect(mine.map((r) => ({ document: r.document, score: r.score }))).toEqual(expected[i]);
    expect(mine.map((r) => r.rank)).toEqual(DOCS.map((_, k) => k + 1));
    for (const r of mine)
      expect({ query: r.query, doc: DOCS[r.doc_index - 1], error: r.error }).toEqual({
        query: q,
        doc: r.document,
        error: null,
      });
  });
  const top2 = (
    await alice.query(`SELECT ord, rank, document, score FROM svc_rerank_batch($1::text[], $2::text[], top_k := 2)`, [
      QUERIES,
      DOCS,
    ])
  ).rows;
  expect(top2.map((r) => [r.ord, r.rank])).toEqual([
    [1, 1],
    [1, 2],
    [2, 1],
    [2, 2],
    [3, 1],
    [3, 2],
  ]);
  expect(top2.filter((r) => r.ord === 3).map((r) => ({ document: r.document, score: r.score }))).toEqual(
    expected[2].slice(0, 2),
  );
  // The set-based svc_rerank takes top_k too.
  const set = (
    await alice.query(`SELECT ord, document, score FROM svc_rerank($1::text[], $2::text[], top_k := 1)`, [
      QUERIES,
      DOCS,
    ])
  ).rows;
  expect(set).toEqual(QUERIES.map((_, i) => ({ ord: i + 1, ...expected[i][0] })));
  // A query of its own error has its row; the others keep theirs.
  const mixed = (
    await alice.query(
      `SELECT ord, query, document, error FROM svc_rerank_batch(ARRAY['capital of France', NULL, ' '], $1::text[], top_k := 1)`,
      [DOCS],
    )
  ).rows;
  expect(mixed).toEqual([
    { ord: 1, query: 'capital of France', document: expected[0][0].document, error: null },
    { ord: 2, query: null, document: null, error: 'svc_rerank_batch: queries[2] must not be NULL' },
    { ord: 3, query: null, document: null, error: 'svc_rerank_batch: queries[3] must not be empty' },
  ]);
});

test("many queries at once, async: one request per query, each result svc_rerank_async's, in svc_rerank's order and scores", async () => {
  const ids: string[] = (
    await alice.query(
      `SELECT svc_rerank_batch_async($1::text[], $2::text[], use_cache := false, priority := 2) AS ids`,
      [QUERIES, DOCS],
    )
  ).rows[0].ids;
  expect(ids).toHaveLength(3);
  for (const [i, q] of QUERIES.entries()) {
    const result = JSON.parse((await alice.query('SELECT svc_get_async_result($1) AS r', [ids[i]])).rows[0].r);
    const single = (await alice.query(`SELECT svc_rerank_async($1, $2::text[], use_cache := false) AS id`, [q, DOCS]))
      .rows[0].id;
    expect((await alice.query('SELECT svc_get_async_result($1) AS r', [single])).rows[0].r).toBe(
      JSON.stringify(result),
    );
    expect(result.map((r: { document: string; score: number }) => ({ document: r.document, score: r.score }))).toEqual(
      await full(q, false),
    );
    expect(result.map((r: { index: number; document: string }) => DOCS[r.index] === r.document)).toEqual(
      DOCS.map(() => true),
    );
  }
  // The requests are alice's: bob sees none of them.
  expect(
    (
      await alice.query(
        `SELECT count(*)::int AS n FROM svc_queue WHERE request_id = ANY($1::uuid[]) AND priority = 2 AND function_name = 'rerank'`,
        [ids],
      )
    ).rows[0].n,
  ).toBe(3);
  expect(
    (await bob.query(`SELECT count(*)::int AS n FROM svc_queue WHERE request_id = ANY($1::uuid[])`, [ids])).rows[0].n,
  ).toBe(0);
  await expect(bob.query('SELECT svc_get_async_result($1, 1)', [ids[0]])).rejects.toThrow(
    /does not exist or is not visible/,
  );
});

test('bad arguments are refused naming the parameter and its rule, and nothing is enqueued', async () => {
  const before = await queued();
  const cases: Array<[string, unknown[], string, string]> = [
    [
      `SELECT * FROM svc_rerank('q', $1::text[], top_k := 0)`,
      [DOCS],
      '22023',
      'svc_rerank: top_k must be between 1 and 2147483647 (got 0)',
    ],
    [
      `SELECT * FROM svc_rerank('q', $1::text[], top_k := -3)`,
      [DOCS],
      '22023',
      'svc_rerank: top_k must be between 1 and 2147483647 (got -3)',
    ],
    [
      `SELECT * FROM svc_rerank_docs_only('q', $1::text[], top_k := 0)`,
      [DOCS],
      '22023',
      'svc_rerank_docs_only: top_k must be between 1 and 2147483647 (got 0)',
    ],
    [
      `SELECT * FROM svc_rerank_docs_only('', $1::text[])`,
      [DOCS],
      '22023',
      'svc_rerank_docs_only: query must not be empty',
    ],
    [
      `SELECT * FROM svc_rerank_docs_only('q', ARRAY['a', NULL])`,
      [],
      '22004',
      'svc_rerank_docs_only: documents[2] must not be NULL',
    ],
    [
      `SELECT * FROM svc_rerank_batch($1::text[], $2::text[], top_k := 0)`,
      [QUERIES, DOCS],
      '22023',
      'svc_rerank_batch: top_k must be between 1 and 2147483647 (got 0)',
    ],
    [
      `SELECT * FROM svc_rerank_batch(ARRAY[]::text[], $1::text[])`,
      [DOCS],
      '22023',
      'svc_rerank_batch: queries must not be empty',
    ],
    [
      `SELECT * FROM svc_rerank_batch($1::text[], ARRAY['a', ''])`,
      [QUERIES],
      '22023',
      'svc_rerank_batch: documents[2] must not be empty',
    ],
    [
      `SELECT * FROM svc_rerank_batch($1::text[], $2::text[], task := NULL)`,
      [QUERIES, DOCS],
      '22004',
      'svc_rerank_batch: task must not be NULL',
    ],
    [
      `SELECT svc_rerank_batch_async(ARRAY['q', NULL], $1::text[])`,
      [DOCS],
      '22004',
      'svc_rerank_batch_async: queries[2] must not be NULL',
    ],
    [
      `SELECT svc_rerank_batch_async(ARRAY[]::text[], $1::text[])`,
      [DOCS],
      '22023',
      'svc_rerank_batch_async: queries must not be empty',
    ],
    [
      `SELECT svc_rerank_batch_async(NULL, $1::text[])`,
      [DOCS],
      '22004',
      'svc_rerank_batch_async: queries must not be NULL',
    ],
    [
      `SELECT svc_rerank_batch_async(array_fill('q'::text, ARRAY[1001]), $1::text[])`,
      [DOCS],
      '54000',
      'svc_rerank_batch_async: queries must have at most 1000 items (got 1001)',
    ],
    [
      `SELECT svc_rerank_batch_async($1::text[], ARRAY['a', ' '])`,
      [QUERIES],
      '22023',
      'svc_rerank_batch_async: documents[2] must not be empty',
    ],
    [
      `SELECT svc_rerank_batch_async($1::text[], $2::text[], seed := NULL)`,
      [QUERIES, DOCS],
      '22004',
      'svc_rerank_batch_async: seed must not be NULL',
    ],
    [
      `SELECT svc_rerank_batch_async($1::text[], $2::text[], priority := 101)`,
      [QUERIES, DOCS],
      '22023',
      'svc_rerank_batch_async: priority must be between -100 and 100 (got 101)',
    ],
  ];
  for (const [sql, params, code, message] of cases) {
    const e = await alice.query(sql, params).then(
      () => ({ code: 'none', message: 'no error' }),
      (x: { code: string; message: string }) => x,
    );
    expect({ sql, code: e.code, message: e.message }).toEqual({ sql, code, message });
  }
  expect(await queued()).toBe(before);
});
