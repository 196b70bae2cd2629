// The statement svc_search runs over a real[] destination (searchQuery without pgvector): an exact
// scan that gives each source row's nearest chunk and the k nearest rows, ordered by distance and then
// the key as jsonb. Checked against the plain form (every chunk's distance, DISTINCT ON the jsonb key)
// over destinations with several chunks per row, tied distances, zero vectors, composite keys and key
// columns named like the statement's own.
import type pg from 'pg';
import { searchQuery } from '../../src/extension/vectorizer-sql.js';
import { ROLES, useSvc } from '../helpers/svc.js';

const svc = useSvc();
let alice: pg.Client;

// What the statement must return, written the plain way.
const reference = (destination: string, keys: string[]) => `SELECT b.key, b.chunk_index, b.chunk, b.distance FROM (
  SELECT DISTINCT ON (c.key) c.* FROM (
    SELECT pg_catalog.jsonb_build_object(${keys.map((k) => `'${k}', d."${k}"`).join(', ')}) AS key, d.chunk_index, d.chunk,
      svc_cosine_distance(d.embedding, translate($1::text, '[]', '{}')::real[]) AS distance FROM ${destination} d
  ) c ORDER BY c.key, c.distance, c.chunk_index
) b ORDER BY b.distance, b.key LIMIT $2::integer`;

beforeAll(async () => {
  const su = await svc().connect();
  await su.query(`CREATE SCHEMA app AUTHORIZATION alice`);
  alice = await svc().connect(ROLES.alice);
  // One key column; 3 chunks per row, every 10th row a copy of row 1's vectors (tied distances), row 7 all zeros.
  await alice.query(`CREATE TABLE app.one (id bigint, chunk_index integer, chunk text, embedding real[], PRIMARY KEY (id, chunk_index));
    INSERT INTO app.one SELECT i, j, i || '/' || j, CASE WHEN i = 7 THEN '{0,0,0,0}' ELSE (SELECT array_agg(random() - 0.5) FROM generate_series(1, 4) WHERE i + j > 0)::real[] END
      FROM generate_series(1, 500) i, generate_series(0, 2) j;
    UPDATE app.one o SET embedding = f.embedding FROM app.one f WHERE f.id = 1 AND f.chunk_index = o.chunk_index AND o.id % 10 = 0`);
  // Many chunks per row, each row's chunks near one another: the k × 10 nearest chunks hold fewer than k rows.
  await alice.query(`CREATE TABLE app.many (id integer, chunk_index integer, chunk text, embedding real[], PRIMARY KEY (id, chunk_index));
    INSERT INTO app.many SELECT i, j, i || '/' || j, ARRAY[cos(i * 0.1) + j * 1e-4, sin(i * 0.1), 0.5]::real[]
      FROM generate_series(1, 60) i, generate_series(0, 39) j`);
  // Near ties finer than the lower bound's margin: 300 rows a hair apart (their distances within 2e-15, some equal) among 200 random ones.
  await alice.query(`CREATE TABLE app.hair (id integer, chunk_index integer, chunk text, embedding real[], PRIMARY KEY (id, chunk_index));
    INSERT INTO app.hair SELECT i, 0, i::text, CASE WHEN i <= 300 THEN ARRAY[0.3, -0.2, 0.5, 0.1, i * 1e-10]
      ELSE (SELECT array_agg(random() - 0.5) FROM generate_series(1, 5) WHERE i > 0) END::real[] FROM generate_series(1, 500) i`);
  // A composite key whose columns are named like the statement's own (distance, key), text before integer.
  await alice.query(`CREATE TABLE app.two ("distance" text, "key" integer, chunk_index integer, chunk text, embedding real[], PRIMARY KEY ("distance", "key", chunk_index));
    INSERT INTO app.two SELECT chr(65 + i % 5) || i, i % 3, j, i || '/' || j, (SELECT array_agg(round((random() - 0.5) * 4)) FROM generate_series(1, 3) WHERE i * j >= 0)::real[]
      FROM generate_series(1, 300) i, generate_series(0, 1) j`);
});

test.each([1, 3, 10, 50, 1000])('one key column, k = %i: the rows and order of the plain form', async (k) => {
  const sql = searchQuery({ destination: 'app.one', svcSchema: 'public', keys: [{ name: 'id' }], vectorSchema: null });
  for (const probe of ['[0.1,-0.2,0.3,0.4]', `[${(await alice.query(`SELECT embedding FROM app.one WHERE id = 1 AND chunk_index = 2`)).rows[0].embedding.join(',')}]`]) {
    const got = (await alice.query(sql, [probe, k])).rows;
    expect(got).toEqual((await alice.query(reference('app.one', ['id']), [probe, k])).rows);
    expect(got).toHaveLength(Math.min(k, 500));
  }
});

test('tied distances: the rows of one vector come in key order, the zero vector last', async () => {
  const sql = searchQuery({ destination: 'app.one', svcSchema: 'public', keys: [{ name: 'id' }], vectorSchema: null });
  const probe = `[${(await alice.query(`SELECT embedding FROM app.one WHERE id = 1 AND chunk_index = 0`)).rows[0].embedding.join(',')}]`;
  const got = (await alice.query(sql, [probe, 20])).rows;
  // Row 1 and its copies (10, 20, ...) are at the same distance: the first 20 rows, ordered by their jsonb keys.
  expect(got.map((r) => r.key.id)).toEqual([1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190]);
  expect(new Set(got.map((r) => r.distance)).size).toBe(1);
  const all = (await alice.query(sql, [probe, 1000])).rows;
  expect(all.at(-1)).toMatchObject({ key: { id: 7 }, distance: null });
});

test.each([1, 7, 40, 1000])('a composite key named like the statement\'s columns, k = %i: the rows and order of the plain form', async (k) => {
  const sql = searchQuery({ destination: 'app.two', svcSchema: 'public', keys: [{ name: 'distance' }, { name: 'key' }], vectorSchema: null });
  const got = (await alice.query(sql, ['[1,0,-1]', k])).rows;
  expect(got).toEqual((await alice.query(reference('app.two', ['distance', 'key']), ['[1,0,-1]', k])).rows);
  expect(got).toHaveLength(Math.min(k, 300));
});

// Which way the statement went: the k × 10 chunks of the least bounds alone, or every chunk's exact distance (the second branch of the Append).
async function scannedAll(sql: string, probe: string, k: number): Promise<boolean> {
  await alice.query(`PREPARE w(text, integer) AS ${sql}`);
  try {
    const plan = (await alice.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) EXECUTE w('${probe}', ${k})`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const everyChunk = /One-Time Filter: \(NOT[^\n]*\n(?:[^\n]*\n)*?\s*->  Seq Scan on \w+ d \(([^)]*)\)/.exec(plan);
    if (!everyChunk) throw new Error(`no second branch in\n${plan}`);
    return everyChunk[1] !== 'never executed';
  } finally {
    await alice.query('DEALLOCATE w');
  }
}

test('the k × 10 chunks of the least bounds decide it where they hold k rows; every chunk is read where they do not', async () => {
  const one = searchQuery({ destination: 'app.one', svcSchema: 'public', keys: [{ name: 'id' }], vectorSchema: null });
  expect(await scannedAll(one, '[0.1,-0.2,0.3,0.4]', 10)).toBe(false);
  expect(await scannedAll(one, '[0.1,-0.2,0.3,0.4]', 1000)).toBe(true); // more than the table holds
  const many = searchQuery({ destination: 'app.many', svcSchema: 'public', keys: [{ name: 'id' }], vectorSchema: null });
  for (const k of [1, 5, 20, 60]) {
    expect([k, await scannedAll(many, '[1,0.3,0.5]', k)]).toEqual([k, k > 1]);
    const got = (await alice.query(many, ['[1,0.3,0.5]', k])).rows;
    expect(got).toEqual((await alice.query(reference('app.many', ['id']), ['[1,0.3,0.5]', k])).rows);
    expect(got).toHaveLength(k);
  }
});

test('near ties finer than the lower bound\'s margin across the k × 10 kept: every chunk is read, the rows and order of the plain form', async () => {
  const sql = searchQuery({ destination: 'app.hair', svcSchema: 'public', keys: [{ name: 'id' }], vectorSchema: null });
  const distances = (await alice.query(`SELECT DISTINCT svc_cosine_distance(embedding, '{0.3,-0.2,0.5,0.1,0}') AS d FROM app.hair WHERE id <= 300`)).rows;
  expect(distances.length).toBeGreaterThan(1); // not all tied: a few ulps apart
  // Up to k = 29 the k × 10 kept cut through the 300, none nearer than the largest bound kept by the margin; at 31 they hold all 300.
  for (const k of [1, 5, 29, 31]) {
    expect([k, await scannedAll(sql, '[0.3,-0.2,0.5,0.1,0]', k)]).toEqual([k, k < 30]);
    const got = (await alice.query(sql, ['[0.3,-0.2,0.5,0.1,0]', k])).rows;
    expect(got).toEqual((await alice.query(reference('app.hair', ['id']), ['[0.3,-0.2,0.5,0.1,0]', k])).rows);
    expect(got).toHaveLength(k);
  }
});

test('the query vector is read once, not per chunk; one bounded scan of ctids and bounds; a length that differs is the error of both functions', async () => {
  const sql = searchQuery({ destination: 'app.one', svcSchema: 'public', keys: [{ name: 'id' }], vectorSchema: null });
  // As svc_search runs it: one generic plan. The cast of the query's text is a one-row CTE, read by each
  // distance through an InitPlan's parameter (pulled up into a scan, it ran per chunk; joined, it was a node per chunk).
  await alice.query(`SET plan_cache_mode = force_generic_plan; PREPARE s(text, integer) AS ${sql}`);
  const plan = (await alice.query(`EXPLAIN (VERBOSE) EXECUTE s('[1,2,3,4]', 5)`)).rows.map((r) => r['QUERY PLAN']).join('\n');
  expect(plan.match(/translate\(/g)).toHaveLength(1);
  expect(plan).toMatch(/CTE q\n\s*->  Result[^\n]*\n\s*Output: \(translate\(\$1, '\[\]'::text, '\{\}'::text\)\)::real\[\]$/m);
  const calls = [...plan.matchAll(/(svc_cosine_distance|svc__cosine_distance_lower_bound)\((d\w*)\.embedding, \$(\d+)\)/g)];
  expect(new Set(calls.map((c) => c[1]))).toEqual(new Set(['svc_cosine_distance', 'svc__cosine_distance_lower_bound']));
  for (const [call, , , param] of calls) expect([call, plan]).toEqual([call, expect.stringMatching(new RegExp(`InitPlan \\d+ \\(returns \\$${param}\\)\\n\\s*->  CTE Scan on q`))]);
  // Every chunk is read by one scan that hands its bounded sort the ctid and the bound alone; the kept chunks by ctid.
  const scans = plan.match(/(?:Parallel )?Seq Scan on app\.one d\w*[^\n]*\n\s*Output: [^\n]*/g)?.map((scan) => scan.split('Output: ')[1]);
  expect(scans?.[0]).toMatch(/^d_1\.ctid, svc__cosine_distance_lower_bound\(d_1\.embedding, \$\d+\)$/);
  expect(scans?.[1]).toBe('d.id, d.chunk_index, d.chunk, d.embedding'); // every chunk's exact distance, where the bounds' chunks do not decide
  expect(scans).toHaveLength(2);
  expect(plan).toMatch(/Tid Scan on app\.one d_2[^\n]*\n\s*Output: d_2\.id, d_2\.chunk_index, d_2\.chunk, svc_cosine_distance\(d_2\.embedding, \$\d+\)\n\s*TID Cond: \(d_2\.ctid = ANY \(\$\d+\)\)/);
  await alice.query('RESET plan_cache_mode');
  await expect(alice.query(sql, ['[1,2]', 5])).rejects.toMatchObject({ code: '22023', message: 'svc__cosine_distance_lower_bound: a and b must have the same length (got 4 and 2)' });
  await alice.query('DEALLOCATE s');
});

test('one process even where parallel workers cost nothing (svc_search runs it from plv8, whose library each worker would load): the rows and order of the plain form', async () => {
  const sql = searchQuery({ destination: 'app.one', svcSchema: 'public', keys: [{ name: 'id' }], vectorSchema: null });
  await alice.query(`SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2`);
  try {
    // The plain form, with svc_cosine_distance alone (PARALLEL SAFE), would go parallel here.
    expect((await alice.query(`EXPLAIN (COSTS OFF) ${reference('app.one', ['id'])}`, ['[0.1,-0.2,0.3,0.4]', 10])).rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Gather/);
    await alice.query(`PREPARE p(text, integer) AS ${sql}`);
    const plan = (await alice.query(`EXPLAIN (COSTS OFF) EXECUTE p('[0.1,-0.2,0.3,0.4]', 10)`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).not.toMatch(/Gather|Parallel/);
    for (const k of [1, 10, 50]) {
      const got = (await alice.query(`EXECUTE p('[0.1,-0.2,0.3,0.4]', ${k})`)).rows;
      expect(got).toEqual((await alice.query(reference('app.one', ['id']), ['[0.1,-0.2,0.3,0.4]', k])).rows);
      expect(got).toHaveLength(k);
    }
  } finally {
    await alice.query('DEALLOCATE p; RESET ALL');
  }
});

test('with pgvector (where installed): the k nearest rows of the k x 10 nearest chunks, the jsonb key built only for those chunks', async () => {
  const su = await svc().connect();
  try {
    if ((await su.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rows.length === 0) return;
    await su.query('CREATE EXTENSION IF NOT EXISTS vector');
  } finally {
    await su.end();
  }
  // A composite key named like the statement's own columns and aliases; no index: pgvector's exact scan.
  await alice.query(`CREATE TABLE app.vec ("distance" text, "svc_key_1" integer, chunk_index integer, chunk text, embedding vector(4), PRIMARY KEY ("distance", "svc_key_1", chunk_index));
    INSERT INTO app.vec SELECT chr(65 + i % 5) || i, i % 3, j, i || '/' || j, (SELECT array_agg(random() - 0.5) FROM generate_series(1, 4) WHERE i * j >= 0)::real[]::vector
      FROM generate_series(1, 400) i, generate_series(0, 2) j`);
  const sql = searchQuery({ destination: 'app.vec', svcSchema: 'public', keys: [{ name: 'distance' }, { name: 'svc_key_1' }], vectorSchema: 'public' });
  const plain = `SELECT b.key, b.chunk_index, b.chunk, b.distance FROM (
    SELECT DISTINCT ON (c.key) c.* FROM (
      SELECT pg_catalog.jsonb_build_object('distance', d."distance", 'svc_key_1', d."svc_key_1") AS key, d.chunk_index, d.chunk,
        (d.embedding <=> $1::text::vector)::double precision AS distance FROM app.vec d ORDER BY d.embedding <=> $1::text::vector LIMIT $2::integer * 10
    ) c ORDER BY c.key, c.distance, c.chunk_index
  ) b ORDER BY b.distance, b.key LIMIT $2::integer`;
  for (const k of [1, 7, 40]) {
    const got = (await alice.query(sql, ['[0.1,-0.2,0.3,0.4]', k])).rows;
    expect(got).toEqual((await alice.query(plain, ['[0.1,-0.2,0.3,0.4]', k])).rows);
    expect(got).toHaveLength(k);
  }
  await alice.query(`PREPARE v(text, integer) AS ${sql}`);
  try {
    const plan = (await alice.query(`EXPLAIN (VERBOSE) EXECUTE v('[0.1,-0.2,0.3,0.4]', 5)`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const scan = /Seq Scan on app\.vec d[^\n]*\n\s*Output: ([^\n]*)/.exec(plan)?.[1];
    expect(scan).toBeDefined();
    expect(scan).not.toMatch(/jsonb_build_object/);
  } finally {
    await alice.query('DEALLOCATE v');
  }
});
