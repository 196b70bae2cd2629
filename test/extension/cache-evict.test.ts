// Cache management: svc_cache_stats' sizes, and svc_cache_evict by age, by least-recent and
// least-frequent use, with a dry run that lists exactly what a real run removes. Entries are stored
// and hit through the worker protocol (svc_worker_cache_put/get, as a worker does); their ages are
// set by the superuser, as time would.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';

const svc = useSvc();
let su: pg.Client;
let worker: pg.Client;
let admin: pg.Client;
let alice: pg.Client;

beforeAll(async () => {
  su = await svc().connect();
  worker = await svc().connect(ROLES.worker);
  admin = await svc().connect(ROLES.admin);
  alice = await svc().connect(ROLES.alice);
});

// Entries a..e: a is the oldest and never hit; e the newest and hit most.
const ENTRIES = [
  { id: 'a', ageDays: 30, unusedDays: 30, hits: 0 },
  { id: 'b', ageDays: 20, unusedDays: 1, hits: 5 },
  { id: 'c', ageDays: 10, unusedDays: 10, hits: 1 },
  { id: 'd', ageDays: 2, unusedDays: 2, hits: 2 },
  { id: 'e', ageDays: 1, unusedDays: 0, hits: 9 },
];
const keyOf = async (id: string) => (await su.query(`SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex') AS k`, [id])).rows[0].k as string;

async function fill(): Promise<Record<string, string>> {
  await su.query('SELECT svc_cache_clear()');
  const keys: Record<string, string> = {};
  for (const e of ENTRIES) {
    await worker.query(`SELECT svc_worker_cache_put($1, 'm', 'generate', repeat($1, 100 * ascii($1) - 9000))`, [e.id]);
    for (let i = 0; i < e.hits; i++) await worker.query(`SELECT svc_worker_cache_get($1, 'm')`, [e.id]);
    keys[e.id] = await keyOf(e.id);
    await su.query(
      `UPDATE svc_cache SET created_at = clock_timestamp() - make_interval(days => $2), last_hit_at = clock_timestamp() - make_interval(days => $3) - interval '1 minute'
       WHERE cache_key = $1`,
      [keys[e.id], e.ageDays, e.unusedDays],
    );
  }
  return keys;
}

const stats = async (client: pg.Client = su) =>
  (await client.query('SELECT entries::int, bytes::int, disk_bytes::int FROM svc_cache_stats()')).rows[0] as { entries: number; bytes: number; disk_bytes: number };

async function evict(args: string, client: pg.Client = admin): Promise<Array<{ id: string; hits: number; bytes: number }>> {
  const keys = await fill();
  const byKey = Object.fromEntries(Object.entries(keys).map(([id, k]) => [k, id]));
  const { rows } = await client.query(`SELECT cache_key, hits::int, bytes::int FROM svc_cache_evict(${args})`);
  return rows.map((r) => ({ id: byKey[r.cache_key], hits: r.hits, bytes: r.bytes }));
}
const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

test("svc_cache_stats gives the entries' bytes and the bytes on disk, to any role", async () => {
  await su.query('SELECT svc_cache_clear()');
  expect(await stats(alice)).toMatchObject({ entries: 0, bytes: 0 });
  await fill();
  const s = await stats(alice);
  expect(s.entries).toBe(5);
  // Each entry's bytes as the preview lists them add up to the total; results of 700 to 4,100 characters.
  const all = await admin.query(`SELECT sum(bytes)::int AS total, min(bytes)::int AS least FROM svc_cache_evict(keep := 0)`);
  expect(all.rows[0].total).toBe(s.bytes);
  expect(all.rows[0].least).toBeGreaterThan(700);
  expect(s.disk_bytes).toBeGreaterThanOrEqual(8192);
});

test('a dry run (the default) lists what would go and removes nothing; the real run removes exactly that', async () => {
  const preview = await evict(`older_than := '7 days'`);
  expect(ids(preview)).toEqual(['a', 'c', 'b']); // least recently used first
  expect((await stats()).entries).toBe(5);
  const before = await stats();
  const { rows } = await admin.query(`SELECT cache_key FROM svc_cache_evict(older_than := '7 days', dry_run := false)`);
  const expected = [await keyOf('a'), await keyOf('b'), await keyOf('c')];
  expect(rows.map((r) => r.cache_key).sort()).toEqual(expected.sort());
  const after = await stats();
  expect(after.entries).toBe(2);
  expect(before.bytes - after.bytes).toBe(preview.reduce((s, r) => s + r.bytes, 0));
  // What is left answers hits as before.
  expect((await worker.query(`SELECT (SELECT result FROM svc_worker_cache_get('e', 'm')) IS NOT NULL AS hit,
       (SELECT result FROM svc_worker_cache_get('a', 'm')) IS NULL AS gone`)).rows[0])
    .toEqual({ hit: true, gone: true });
});

test('by least-recent use, least-frequent use and how many to keep; criteria combine (every one must hold)', async () => {
  expect(ids(await evict(`unused_for := '5 days'`))).toEqual(['a', 'c']);
  expect(ids(await evict(`max_hits := 1`))).toEqual(['a', 'c']);
  expect(ids(await evict(`keep := 3`))).toEqual(['a', 'c']); // recency: e, b, d kept
  expect(ids(await evict(`keep := 2, order_by := 'frequency'`))).toEqual(['a', 'c', 'd']); // e (9 hits), b (5) kept
  expect(ids(await evict(`older_than := '5 days', max_hits := 1`))).toEqual(['a', 'c']);
  expect(ids(await evict(`older_than := '15 days', unused_for := '5 days'`))).toEqual(['a']);
  expect(ids(await evict(`keep := 0, order_by := 'frequency'`))).toEqual(['a', 'c', 'd', 'b', 'e']);
  expect(await evict(`older_than := '100 days'`)).toEqual([]);
  // The real run of the same criteria removes the same entries.
  await evict(`keep := 2, order_by := 'frequency', dry_run := false`);
  expect((await su.query('SELECT hits::int FROM svc_cache ORDER BY hits')).rows.map((r) => r.hits)).toEqual([5, 9]);
});

test('to a target size: the least valuable entries that bring the bytes down to target_bytes, within the other criteria', async () => {
  await fill();
  const sizes = Object.fromEntries((await admin.query(`SELECT cache_key, bytes::int FROM svc_cache_evict(keep := 0)`)).rows.map((r) => [r.cache_key, r.bytes]));
  const size = async (id: string) => sizes[await keyOf(id)] as number;
  const total = (await stats()).bytes;
  // Recency order, least valuable first: a, c, d, b, e.
  expect(ids(await evict(`target_bytes := ${total}`))).toEqual([]); // there already
  expect(ids(await evict(`target_bytes := ${total - 1}`))).toEqual(['a']);
  expect(ids(await evict(`target_bytes := ${total - (await size('a'))}`))).toEqual(['a']);
  expect(ids(await evict(`target_bytes := ${total - (await size('a')) - 1}`))).toEqual(['a', 'c']);
  expect(ids(await evict(`target_bytes := 0`))).toEqual(['a', 'c', 'd', 'b', 'e']);
  // With other criteria, only entries that meet them go, however far from the target that leaves the cache.
  expect(ids(await evict(`target_bytes := 0, max_hits := 1`))).toEqual(['a', 'c']);
  expect(ids(await evict(`target_bytes := ${total - 1}, order_by := 'frequency'`))).toEqual(['a']);
  // The real run leaves the cache at or under the target.
  const target = total - (await size('a')) - (await size('c')) - 1;
  const gone = await evict(`target_bytes := ${target}, dry_run := false`);
  expect(ids(gone)).toEqual(['a', 'c', 'd']);
  expect((await stats()).bytes).toBeLessThanOrEqual(target);
  expect((await stats()).bytes).toBe(total - gone.reduce((sum, r) => sum + r.bytes, 0));
});

test('svc_cache_usage: entries, bytes and hits by function and model, for svc_admin members', async () => {
  await fill();
  await worker.query(`SELECT svc_worker_cache_put('f', 'other', 'embed', 'xyz')`);
  await worker.query(`SELECT svc_worker_cache_get('f', 'other')`);
  const rows = (await admin.query(`SELECT function_name, model, entries::int, bytes::int, hits::int, last_used_at IS NOT NULL AS used FROM svc_cache_usage()`)).rows;
  const s = await stats();
  expect(rows).toEqual([
    { function_name: 'generate', model: 'm', entries: 5, bytes: expect.any(Number), hits: 17, used: true },
    { function_name: 'embed', model: 'other', entries: 1, bytes: expect.any(Number), hits: 1, used: true },
  ]);
  expect(rows[0].bytes + rows[1].bytes).toBe(s.bytes);
  await expect(alice.query(`SELECT * FROM svc_cache_usage()`)).rejects.toMatchObject({
    code: '42501',
    message: 'svc_cache_usage: permission denied: only members of svc_admin may run it',
  });
});

test('svc_version() is the installed version, to any role', async () => {
  const installed = (await su.query(`SELECT extversion FROM pg_extension WHERE extname = 'svc'`)).rows[0].extversion;
  expect((await alice.query(`SELECT svc_version() AS v`)).rows[0].v).toBe(installed);
  expect(installed).toMatch(/^\d+\.\d+\.\d+$/);
});

test('each bad argument is refused with its name and rule, and nothing is removed', async () => {
  await fill();
  const cases: Array<[string, string, RegExp]> = [
    ['', '22023', /svc_cache_evict: give at least one of older_than, unused_for, max_hits, keep or target_bytes/],
    [`target_bytes := -1, dry_run := false`, '22023', /svc_cache_evict: target_bytes must be zero or more \(got -1\)/],
    [`older_than := NULL, dry_run := false`, '22023', /give at least one/],
    [`older_than := '-1 day', dry_run := false`, '22023', /svc_cache_evict: older_than must be an interval of zero or more \(got -1 days\)/],
    [`unused_for := '-1 s', dry_run := false`, '22023', /svc_cache_evict: unused_for must be an interval of zero or more/],
    [`max_hits := -1, dry_run := false`, '22023', /svc_cache_evict: max_hits must be zero or more \(got -1\)/],
    [`keep := -5, dry_run := false`, '22023', /svc_cache_evict: keep must be zero or more \(got -5\)/],
    [`keep := 1, order_by := 'size', dry_run := false`, '22023', /svc_cache_evict: order_by must be 'recency' or 'frequency' \(got 'size'\)/],
    [`keep := 1, order_by := NULL, dry_run := false`, '22004', /svc_cache_evict: order_by must not be NULL/],
    [`keep := 1, dry_run := NULL`, '22004', /svc_cache_evict: dry_run must not be NULL/],
  ];
  for (const [args, code, message] of cases) {
    const error = await admin.query(`SELECT * FROM svc_cache_evict(${args})`).then(() => undefined, (e: { code: string; message: string }) => e);
    expect(error).toMatchObject({ code });
    expect(error!.message).toMatch(message);
    expect((await stats()).entries).toBe(5);
  }
});

test('only svc_admin members (and superusers) may evict or preview: the list names other roles\' requests', async () => {
  await fill();
  for (const args of [`older_than := '1 day'`, `keep := 0, dry_run := false`]) {
    await expect(alice.query(`SELECT * FROM svc_cache_evict(${args})`)).rejects.toThrow('svc_cache_evict: permission denied: only members of svc_admin may run it');
  }
  await expect(alice.query(`DELETE FROM svc_cache`)).rejects.toThrow(/permission denied/);
  expect((await stats()).entries).toBe(5);
  expect((await su.query(`SELECT count(*)::int AS n FROM svc_cache_evict(keep := 0, dry_run := false)`)).rows[0].n).toBe(5);
});
