// svc__reals, svc.so's C function (src/native/reals.c) through which a vectorize job's vectors go into
// the destination: the worker sends each vector as its float32s little-endian in base64
// (worker/vectorize.ts realsBase64), and the real[] that comes out is the vector rounded to reals,
// as svc_embed's real[] is (PostgreSQL's float8 -> float4), bit for bit; what is not whole reals is
// an error naming the rule. Internal: only its owner runs it.
import type pg from 'pg';
import { realsBase64 } from '../../worker/vectorize.js';
import { ROLES, useSvc } from '../helpers/svc.js';

const svc = useSvc();
let su: pg.Client;
let alice: pg.Client;

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
});

/** The real[] svc__reals makes of the base64 text, as float4 text (shortest exact digits) and as PostgreSQL's float8 -> float4 of the same numbers, in one row. */
async function throughBoth(vector: number[]): Promise<{ reals: string; cast: string; same: boolean }> {
  const { rows } = await su.query(
    `SELECT r::text AS reals, c::text AS cast, r::text = c::text AS same
     FROM (SELECT svc__reals(decode($1, 'base64')) AS r, $2::float8[]::real[] AS c) t`,
    [realsBase64(vector), vector],
  );
  return rows[0];
}

test('declared as C, IMMUTABLE, not STRICT (NULL is an error), in svc.so, executable by its owner alone', async () => {
  const { rows } = await su.query(`SELECT l.lanname, p.provolatile, p.proisstrict, p.probin, p.prosrc, pg_get_userbyid(p.proowner) AS owner
    FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.proname = 'svc__reals'`);
  expect(rows).toEqual([{ lanname: 'c', provolatile: 'i', proisstrict: false, probin: '$libdir/svc', prosrc: 'svc_reals_from_bytes', owner: 'svc_owner' }]);
  await expect(alice.query(`SELECT svc__reals('\\x0000803f')`)).rejects.toThrow(/permission denied for function svc__reals/);
});

test('the bytes of realsBase64 come back as the same reals svc_embed gives: the doubles rounded to float4', async () => {
  // Doubles that are not reals (rounded), reals, negatives, the smallest and largest reals, subnormals, zeros.
  const vector = [0.1, -0.2, 1 / 3, 1, -1, 0, -0, 3.4028234663852886e38, 1.401298464324817e-45, 1.1754942106924411e-38, 12345.678, 1e-7, -0.987654321];
  const { reals, cast, same } = await throughBoth(vector);
  expect(same).toBe(true);
  expect(reals).toBe(cast);
  // -0 becomes 0, as in svc_embed's JSON (and in the parameter sent here); the JavaScript side rounds as Math.fround does.
  expect(reals.split(',')[6]).toBe('0');
  const decoded = new Float32Array(Uint8Array.from(Buffer.from(realsBase64(vector), 'base64')).buffer);
  expect([...decoded]).toEqual(vector.map((x) => Math.fround(x) + 0));
});

test('200 vectors of 128 components: bit for bit the cast of the same doubles', async () => {
  const vectors = Array.from({ length: 200 }, (_, i) => Array.from({ length: 128 }, (_, k) => Math.sin(i * 128 + k + 0.5) / (1 + (k % 7))));
  const { rows } = await su.query(
    `SELECT bool_and(svc__reals(decode(b, 'base64'))::text = c::text) AS same, count(*)::int AS n
     FROM unnest($1::text[]) WITH ORDINALITY AS x(b, i) JOIN (SELECT j.i, ARRAY(SELECT e::float8 FROM jsonb_array_elements_text(j.v) e)::real[] AS c
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS j(v, i)) y USING (i)`,
    [vectors.map(realsBase64), JSON.stringify(vectors)],
  );
  expect(rows[0]).toEqual({ same: true, n: 200 });
});

test('NaN and infinities pass as reals; no bytes is an empty array', async () => {
  const { rows } = await su.query(`SELECT svc__reals(decode($1, 'base64'))::text AS r, svc__reals('')::text AS empty`, [realsBase64([NaN, Infinity, -Infinity])]);
  expect(rows[0]).toEqual({ r: '{NaN,Infinity,-Infinity}', empty: '{}' });
});

test('what is not whole reals is an error naming the rule; NULL is an error', async () => {
  await expect(su.query(`SELECT svc__reals('\\x0000803f00')`)).rejects.toThrow('svc__reals: bytes must hold whole 4-byte reals (holds 5 bytes)');
  await expect(su.query(`SELECT svc__reals(NULL)`)).rejects.toThrow('svc__reals: bytes must not be NULL');
  // A large argument (the worker's are a few hundred bytes) is read whole.
  const { rows } = await su.query(`SELECT cardinality(r) AS n, r[1] AS first, r[100000] AS last FROM (SELECT svc__reals(decode(repeat('0000803f', 100000), 'hex')) AS r) t`);
  expect(rows[0]).toEqual({ n: 100000, first: 1, last: 1 });
});
