// svc_cosine_distance, svc.so's C function (src/native/distance.c) that svc_search's exact scan over a
// real[] destination calls for the chunks it keeps: the distances of the PL/pgSQL form it replaced, bit
// for bit, and an error naming the argument for whatever it is not defined on; and its lower bound,
// svc__cosine_distance_lower_bound, which that scan orders every chunk by: never above the distance,
// within (length + 8) × 2e-15 of it, NULL and NaN where it is. Called as an ordinary role with arrays
// it builds itself: whatever the array, an answer or an error, never a crash.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';

const svc = useSvc();
let alice: pg.Client;

// The PL/pgSQL form svc_cosine_distance had before it was C (sums over unnest in double precision).
const PLPGSQL_FORM = `CREATE FUNCTION pg_temp.reference(a real[], b real[]) RETURNS double precision LANGUAGE plpgsql AS $$
BEGIN
  RETURN (
    SELECT CASE WHEN sum(x::float8 * x) > 0 AND sum(y::float8 * y) > 0 THEN 1 - sum(x::float8 * y) / sqrt(sum(x::float8 * x) * sum(y::float8 * y)) END
    FROM unnest(a, b) AS t(x, y)
  );
END $$`;

const distance = async (a: string, b: string) => (await alice.query(`SELECT svc_cosine_distance($1::real[], $2::real[]) AS d`, [a, b])).rows[0].d as number | null;

beforeAll(async () => {
  const su = await svc().connect();
  await su.query(`CREATE SCHEMA alice AUTHORIZATION alice`); // a permanent table of hers: temporary ones are never scanned in parallel
  alice = await svc().connect(ROLES.alice);
  await alice.query(PLPGSQL_FORM);
});

// The lower bound is PARALLEL UNSAFE on purpose: svc_search's statement is to run in one process (search-exact.test.ts).
test('both declared as C, IMMUTABLE, not STRICT (a NULL argument is an error), in svc.so, executable by any role; the distance PARALLEL SAFE', async () => {
  const { rows } = await alice.query(`SELECT p.proname, l.lanname, p.provolatile, p.proparallel, p.proisstrict, p.probin, p.prosrc, has_function_privilege(p.oid, 'EXECUTE') AS executable
    FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.proname IN ('svc_cosine_distance', 'svc__cosine_distance_lower_bound') ORDER BY p.proname`);
  const declared = { lanname: 'c', provolatile: 'i', proisstrict: false, probin: '$libdir/svc', executable: true };
  expect(rows).toEqual([
    { proname: 'svc__cosine_distance_lower_bound', ...declared, proparallel: 'u', prosrc: 'svc_cosine_distance_lower_bound' },
    { proname: 'svc_cosine_distance', ...declared, proparallel: 's', prosrc: 'svc_cosine_distance' },
  ]);
});

// Random vectors, some with tiny (subnormal), huge and exactly-zero elements, of 1 to 70 elements.
const VECTORS = `SELECT i, (SELECT array_agg(CASE WHEN i % 7 = 0 THEN sign(random() - 0.5) * (0.5 + random()) * 1e-40 WHEN i % 11 = 0 THEN (random() - 0.5) * 1e37
                                       WHEN i % 13 = 0 AND j % 2 = 0 THEN 0 ELSE random() - 0.5 END)
                 FROM generate_series(1, 1 + i % 70) j)::real[] AS e
      FROM generate_series(1, 300) i`;

test('the distances of the PL/pgSQL form, to the last bit, over vectors of every scale', async () => {
  // Random vectors, some with tiny (subnormal), huge and exactly-zero elements, some pairs parallel or opposite.
  const { rows } = await alice.query(`WITH v AS (${VECTORS})
    SELECT a.i, b.i AS j, svc_cosine_distance(a.e, b.e) AS d, pg_temp.reference(a.e, b.e) AS r,
      svc_cosine_distance(a.e, a.e) AS self, pg_temp.reference(a.e, a.e) AS self_r,
      svc_cosine_distance(a.e, (SELECT array_agg(-x) FROM unnest(a.e) x)) AS opposite
    FROM v a JOIN v b ON cardinality(a.e) = cardinality(b.e) AND a.i <> b.i`);
  expect(rows.length).toBeGreaterThan(500);
  for (const row of rows) expect([row.i, row.j, row.d, row.self]).toEqual([row.i, row.j, row.r, row.self_r]);
  for (const row of rows) {
    expect(Math.abs(row.self)).toBeLessThan(1e-6);
    expect(row.opposite).toBeCloseTo(2, 6);
  }
});

test('the lower bound: never above the distance and within (length + 8) × 2e-15 of it, over vectors of every scale', async () => {
  // Pairs of every length, and pairs near one another (distance near 0, where the sums cancel least) and near opposite.
  const { rows } = await alice.query(`WITH v AS (${VECTORS}), pairs AS (
      SELECT a.e AS a, b.e AS b FROM v a JOIN v b ON cardinality(a.e) = cardinality(b.e) AND a.i <> b.i
      UNION ALL SELECT e, (SELECT array_agg(x * (1 + (random() - 0.5) * 1e-6)) FROM unnest(e) x)::real[] FROM v
      UNION ALL SELECT e, (SELECT array_agg(-x) FROM unnest(e) x) FROM v
      UNION ALL SELECT e, e FROM v)
    SELECT cardinality(a) AS n, svc_cosine_distance(a, b) AS d, svc__cosine_distance_lower_bound(a, b) AS bound FROM pairs`);
  expect(rows.length).toBeGreaterThan(1000);
  let below = 0;
  for (const { n, d, bound } of rows) {
    expect([n, d, bound <= d, d - bound <= (n + 8) * 2e-15]).toEqual([n, d, true, true]);
    if (bound < d) below++;
  }
  expect(below).toBe(rows.length); // by its margin, strictly below: (n + 8) * 1e-15 is far above either sum's rounding
});

test('the lower bound is NULL and NaN where the distance is: zero, empty, NaN and infinite vectors', async () => {
  const pairs = [['{0,0}', '{1,1}'], ['{1,1}', '{0,-0}'], ['{}', '{}'], ['{NaN,1}', '{1,1}'], ['{1,1}', '{1,NaN}'], ['{Infinity,0}', '{1,0}'], ['{Infinity,1}', '{0,1}'],
    ['{-Infinity,1,2,3,4,5}', '{Infinity,1,2,3,4,5}'], ['{1,2,3,4,5,6,7,8,0}', '{0,0,0,0,0,0,0,0,Infinity}'], ['{0,0,0,0,0,0,0,0}', '{1,2,3,4,5,6,7,8}']];
  for (const [a, b] of pairs) {
    const { d, bound } = (await alice.query(`SELECT svc_cosine_distance($1::real[], $2::real[]) AS d, svc__cosine_distance_lower_bound($1::real[], $2::real[]) AS bound`, [a, b])).rows[0];
    expect([a, b, bound]).toEqual([a, b, d]);
    expect([a, b, d === null || Number.isNaN(d)]).toEqual([a, b, true]);
  }
});

test('orthogonal, and lower bounds other than 1 change nothing', async () => {
  expect(await distance('{1,0}', '{0,2}')).toBe(1);
  expect(await distance('[5:6]={1,0}', '[-3:-2]={0,2}')).toBe(1);
  expect(await distance('[0:2]={3,4,0}', '{3,4,0}')).toBe(0);
});

test('NULL for a zero or empty vector (NaN would sort anywhere)', async () => {
  expect(await distance('{0,0}', '{1,1}')).toBeNull();
  expect(await distance('{1,1}', '{0,-0}')).toBeNull();
  expect(await distance('{}', '{}')).toBeNull();
  expect((await alice.query(`SELECT svc_cosine_distance(array_fill(1::real, ARRAY[2, 0]), ARRAY[]::real[]) AS d`)).rows[0].d).toBeNull();
});

test('NaN and infinite elements give NaN, which sorts after every distance; never an error or a crash', async () => {
  for (const [a, b] of [['{NaN,1}', '{1,1}'], ['{1,1}', '{1,NaN}'], ['{Infinity,0}', '{1,0}'], ['{Infinity,1}', '{0,1}'], ['{-Infinity,1}', '{Infinity,1}']]) {
    expect([a, b, await distance(a, b)]).toEqual([a, b, NaN]);
    expect([a, b, await distance(a, b)]).toEqual([a, b, (await alice.query(`SELECT pg_temp.reference($1, $2) AS d`, [a, b])).rows[0].d]);
  }
  const ordered = await alice.query(`SELECT n FROM (VALUES (1, '{NaN,1}'::real[]), (2, '{0,1}'), (3, '{1,1}')) t(n, v) ORDER BY svc_cosine_distance(v, '{1,1}')`);
  expect(ordered.rows.map((r) => r.n)).toEqual([3, 2, 1]);
});

test.each(['svc_cosine_distance', 'svc__cosine_distance_lower_bound'])('%s: a NULL argument: an error naming it', async (fn) => {
  await expect(alice.query(`SELECT ${fn}(NULL, '{1}')`)).rejects.toMatchObject({ code: '22004', message: `${fn}: a must not be NULL` });
  await expect(alice.query(`SELECT ${fn}('{1}', NULL)`)).rejects.toMatchObject({ code: '22004', message: `${fn}: b must not be NULL` });
});

test.each(['svc_cosine_distance', 'svc__cosine_distance_lower_bound'])('%s: different lengths, NULL elements, more than one dimension: an error naming the argument and the rule', async (fn) => {
  const cases: Array<[string, string, string, string]> = [
    ['{1,0}', '{1}', '22023', `${fn}: a and b must have the same length (got 2 and 1)`],
    ['{}', '{1}', '22023', `${fn}: a and b must have the same length (got 0 and 1)`],
    ['{1,NULL}', '{1,1}', '22004', `${fn}: a must not contain NULL elements`],
    ['{1,1}', '{NULL,NULL}', '22004', `${fn}: b must not contain NULL elements`],
    ['{{1,2},{3,4}}', '{1,2,3,4}', '22023', `${fn}: a must have one dimension (has 2)`],
    ['{1,2,3,4}', '{{{1,2}},{{3,4}}}', '22023', `${fn}: b must have one dimension (has 3)`],
  ];
  for (const [a, b, code, message] of cases) {
    const error = await alice.query(`SELECT ${fn}($1::real[], $2::real[])`, [a, b]).then(() => undefined, (e: pg.DatabaseError) => e);
    expect([a, b, error?.code, error?.message]).toEqual([a, b, code, message]);
  }
});

test('large arrays, stored TOASTed (compressed and out of line), and a parallel scan: the same distances', async () => {
  await alice.query(`CREATE TEMP TABLE big AS SELECT 1 AS n, array_fill(0.25::real, ARRAY[1000000]) AS e
    UNION ALL SELECT 2, (SELECT array_agg(random()::real) FROM generate_series(1, 300000))`);
  const { rows } = await alice.query(`SELECT n, pg_column_size(e) < 4 * cardinality(e) AS compressed, svc_cosine_distance(e, e) AS self,
    svc_cosine_distance(e, array_fill(1::real, ARRAY[cardinality(e)])) AS to_ones, pg_temp.reference(e, array_fill(1::real, ARRAY[cardinality(e)])) AS r,
    svc__cosine_distance_lower_bound(e, array_fill(1::real, ARRAY[cardinality(e)])) AS bound, cardinality(e) AS length FROM big ORDER BY n`);
  expect(rows[0]).toMatchObject({ n: 1, compressed: true, self: 0, to_ones: 0, r: 0 });
  expect(Math.abs(rows[1].self)).toBeLessThan(1e-9);
  expect(rows[1].to_ones).toBe(rows[1].r);
  for (const { to_ones: d, bound, length } of rows) expect([bound <= d, d - bound <= (length + 8) * 2e-15]).toEqual([true, true]);

  await alice.query(`CREATE TABLE alice.many AS SELECT i, (SELECT array_agg(random() - 0.5) FROM generate_series(1, 16) WHERE i > 0)::real[] AS e
    FROM generate_series(1, 20000) i; ANALYZE alice.many`);
  const probe = (await alice.query(`SELECT e::text FROM alice.many WHERE i = 1`)).rows[0].e as string;
  const query = `SELECT i, svc_cosine_distance(e, '${probe}') AS d FROM alice.many ORDER BY d, i LIMIT 50`;
  const serial = (await alice.query(query)).rows;
  expect(serial).toHaveLength(50);
  expect(serial[0]).toEqual({ i: 1, d: expect.any(Number) });
  await alice.query(`SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2`);
  try {
    const plan = (await alice.query(`EXPLAIN ${query}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Parallel Seq Scan/);
    expect((await alice.query(query)).rows).toEqual(serial);
  } finally {
    await alice.query('RESET ALL');
  }
});
