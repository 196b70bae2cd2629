// Limits across roles (src/extension/quotas.ts; docs/security.md, "Limits across roles"): the queue's
// ceiling and each role's quotas are svc_admin's; an ordinary role's session cannot raise them, and
// another role's calls still get through while one role is at its limit.
import type pg from 'pg';
import * as protocol from '../../worker/protocol.js';
import { cacheIdentity } from '../../src/queue/cache-key.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { frozenWorker } from '../helpers/worker.js';

const svc = useSvc();
let su: pg.Client;
let alice: pg.Client;
let bob: pg.Client;
let admin: pg.Client;

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  bob = await svc().connect(ROLES.bob);
  admin = await svc().connect(ROLES.admin);
});
beforeEach(async () => {
  await su.query('DELETE FROM svc_queue');
  await su.query('DELETE FROM svc_role_limits');
  await su.query(`DELETE FROM svc_config WHERE name = 'queue_limits'`);
  await su.query('DELETE FROM svc_documents');
  for (const c of [alice, bob]) await c.query('RESET ALL');
});

const submit = (c: pg.Client, prompt = 'p') => c.query(`SELECT svc_generate_async($1, priority := 100) AS id`, [prompt]);
const limitsOf = async (c: pg.Client) => (await c.query('SELECT * FROM svc_queue_limits()')).rows[0];
const count = async (owner: string) => (await su.query(`SELECT count(*)::int AS n FROM svc_queue WHERE owner = $1::regrole`, [owner])).rows[0].n;

test('out of the box one role may hold half the queue: 5,000 of 10,000 requests, 256 MiB', async () => {
  expect(await limitsOf(alice)).toEqual({
    role_name: 'alice', max_queue_size: '10000', queue_depth: '0', max_pending: '5000', pending: '0', max_stored_bytes: String(256 * 1024 * 1024), stored_bytes: '0',
  });
});

test("a session's svc.max_queue_size lowers its bound but cannot raise it past svc_admin's", async () => {
  await admin.query('SELECT svc_set_queue_limits(3)');
  await alice.query('SET svc.max_queue_size = 1000000');
  for (let i = 0; i < 3; i++) await submit(alice);
  await expect(submit(alice)).rejects.toMatchObject({
    code: '53400',
    message: 'svc_generate_async: the queue is full (3 requests pending or processing, max_queue_size (svc_set_queue_limits) = 3)',
  });
  await expect(alice.query(`SELECT svc_generate_batch_async(ARRAY['a', 'b'])`)).rejects.toMatchObject({ code: '53400' });
  await su.query('DELETE FROM svc_queue');
  await alice.query('SET svc.max_queue_size = 1');
  await submit(alice);
  await expect(submit(alice)).rejects.toMatchObject({ code: '53400', message: expect.stringContaining('svc.max_queue_size = 1)') });
  expect(await count('alice')).toBe(1);
});

test("a role's quota of requests: its calls fail with 53400 naming it, nothing of them is written, and another role's get through", async () => {
  await admin.query(`SELECT svc_set_role_limits('alice', 3)`);
  await alice.query('SET svc.max_queue_size = 1000000');
  await expect(alice.query(`SELECT svc_generate_batch_async(ARRAY['a', 'b', 'c', 'd'], priority := 100)`)).rejects.toMatchObject({
    code: '53400',
    message: 'svc_generate_batch_async: role "alice" has reached its quota of requests (0 pending or processing, max_pending = 3; 4 submitted, 3 would fit)',
  });
  expect(await count('alice')).toBe(0);
  for (let i = 0; i < 3; i++) await submit(alice);
  await expect(submit(alice)).rejects.toMatchObject({
    code: '53400',
    message: 'svc_generate_async: role "alice" has reached its quota of requests (3 pending or processing, max_pending = 3)',
    hint: expect.stringContaining('svc_set_role_limits'),
  });
  await expect(alice.query(`SELECT svc_embed_batch_async(ARRAY['x'])`)).rejects.toMatchObject({ code: '53400' });
  await expect(alice.query(`SELECT svc_rerank_async('q', ARRAY['d'])`)).rejects.toMatchObject({ code: '53400' });
  expect(await count('alice')).toBe(3);
  // bob is not held up by alice's requests.
  for (let i = 0; i < 5; i++) await submit(bob);
  expect(await count('bob')).toBe(5);
  // A finished or cancelled request frees its place.
  const [{ id }] = (await alice.query(`SELECT request_id AS id FROM svc_queue LIMIT 1`)).rows;
  expect((await alice.query('SELECT svc_cancel_async($1) AS ok', [id])).rows[0].ok).toBe(true);
  await submit(alice);
  expect(await limitsOf(alice)).toMatchObject({ max_pending: '3', pending: '3' });
});

test("a role's quota of stored bytes counts its requests' parameters and grammars", async () => {
  await admin.query(`SELECT svc_set_role_limits('alice', NULL, 5000)`);
  await submit(alice, 'x'.repeat(2000));
  await submit(alice, 'x'.repeat(2000));
  const used = Number((await limitsOf(alice)).stored_bytes);
  expect(used).toBeGreaterThan(4000);
  expect(used).toBeLessThan(5000);
  await expect(submit(alice, 'x'.repeat(2000))).rejects.toMatchObject({
    code: '53400', message: expect.stringMatching(/^svc_generate_async: role "alice" has reached its quota of stored bytes \(its requests pending or processing would store \d+ bytes with this call's, max_stored_bytes = 5000\)$/),
  });
  await expect(alice.query(`SELECT svc_generate_choice_async('p', ARRAY[repeat('a', 1000), repeat('b', 1000), repeat('c', 1000)])`)).rejects.toMatchObject({ code: '53400' });
  expect(await count('alice')).toBe(2);
  await submit(bob, 'x'.repeat(4000));
});

test("the default binds every role without its own quota; a role's own quota overrides it; NULL goes back to the default", async () => {
  await admin.query(`SELECT svc_set_role_limits(NULL, 1)`);
  await admin.query(`SELECT svc_set_role_limits('bob', 2)`);
  await submit(alice);
  await expect(submit(alice)).rejects.toMatchObject({ code: '53400', message: expect.stringContaining('max_pending = 1)') });
  await submit(bob);
  await submit(bob);
  await expect(submit(bob)).rejects.toMatchObject({ code: '53400', message: expect.stringContaining('max_pending = 2)') });
  await admin.query(`SELECT svc_set_role_limits('bob', NULL, NULL)`);
  expect((await su.query('SELECT count(*)::int AS n FROM svc_role_limits')).rows[0].n).toBe(0);
  expect(await limitsOf(bob)).toMatchObject({ max_pending: '1', pending: '2' });
  await admin.query(`SELECT svc_set_role_limits(NULL, NULL, NULL)`);
  expect(await limitsOf(bob)).toMatchObject({ max_pending: '5000' });
});

test("synchronous calls are bound by the queue's ceiling, their session's setting lowering it only", async () => {
  // A worker alive but claiming nothing: the call goes to its submission (with none alive it is refused first, SV006).
  const frozen = await frozenWorker(svc().cluster, su);
  try {
  await admin.query('SELECT svc_set_queue_limits(2)');
  await submit(bob);
  await submit(bob);
  await alice.query(`SET svc.sync_timeout = '1s'; SET svc.max_queue_size = 1000000`);
  await expect(alice.query(`SELECT svc_generate('sync')`)).rejects.toMatchObject({
    code: '53400',
    message: 'svc_generate: the queue is full (2 requests pending or processing, max_queue_size (svc_set_queue_limits) = 2)',
  });
  await admin.query('SELECT svc_set_queue_limits(3)');
  await alice.query(`SET svc.max_queue_size = 2`);
  await expect(alice.query(`SELECT svc_generate('sync')`)).rejects.toMatchObject({ code: '53400', message: expect.stringContaining('svc.max_queue_size = 2)') });
  expect(await count('alice')).toBe(0);
  } finally {
    await frozen.kill();
    await su.query('DELETE FROM svc_workers');
  }
});

test('synchronous calls count against the quota of the role they act for', async () => {
  // A worker alive but claiming nothing: the call goes to its submission (with none alive it is refused first, SV006).
  const frozen = await frozenWorker(svc().cluster, su);
  try {
  await admin.query(`SELECT svc_set_role_limits('alice', 1)`);
  await submit(alice);
  await alice.query(`SET svc.sync_timeout = '1s'`);
  await expect(alice.query(`SELECT svc_generate('sync')`)).rejects.toMatchObject({
    code: '53400', message: 'svc_generate: role "alice" has reached its quota of requests (1 pending or processing, max_pending = 1)',
  });
  expect(await count('alice')).toBe(1);
  } finally {
    await frozen.kill();
    await su.query('DELETE FROM svc_workers');
  }
});

describe('only svc_admin sets limits, and nothing an ordinary role does raises its own', () => {
  test('an ordinary role cannot call the setters, nor write the tables they write', async () => {
    for (const sql of [`SELECT svc_set_role_limits('alice', 1000000, 1000000000)`, `SELECT svc_set_role_limits(NULL, 1000000)`, 'SELECT svc_set_queue_limits(1000000)']) {
      await expect(alice.query(sql)).rejects.toMatchObject({ code: '42501' });
    }
    for (const sql of [
      `INSERT INTO svc_role_limits VALUES ('alice', 1000000, 1000000000)`,
      `UPDATE svc_role_limits SET max_pending = 1000000`,
      `INSERT INTO svc_config VALUES ('queue_limits', '{"max_queue_size": 1000000}')`,
      `UPDATE svc_queue SET stored_bytes = 0`,
      `INSERT INTO svc_documents (owner, documents) VALUES ('alice', '["x"]')`,
      `UPDATE svc_queue SET documents_id = gen_random_uuid()`,
      `UPDATE svc_queue SET owner = 'bob'::regrole`,
    ]) {
      await expect(alice.query(sql)).rejects.toMatchObject({ code: '42501' });
    }
    await admin.query(`SELECT svc_set_role_limits('alice', 2)`);
    await admin.query(`SELECT svc_set_role_limits('bob', 7)`);
    // Each role reads its own quotas only.
    expect((await alice.query('SELECT role_name, max_pending FROM svc_role_limits')).rows).toEqual([{ role_name: 'alice', max_pending: '2' }]);
    expect((await admin.query('SELECT count(*)::int AS n FROM svc_role_limits')).rows[0].n).toBe(2);
  });

  test('settings and SET ROLE do not move a request to another role or past the quota', async () => {
    await admin.query(`SELECT svc_set_role_limits('alice', 1)`);
    await submit(alice);
    await expect(alice.query('SET ROLE bob')).rejects.toMatchObject({ code: '42501' });
    await alice.query(`SET svc.max_queue_size = 99999999; SET svc.model = 'default'; SET role = 'none'`);
    await expect(submit(alice)).rejects.toMatchObject({ code: '53400' });
    expect(await count('alice')).toBe(1);
  });

  test('bad arguments are refused naming them; an unknown role is refused', async () => {
    await expect(admin.query(`SELECT svc_set_role_limits('alice', -1)`)).rejects.toMatchObject({
      code: '22023', message: 'svc_set_role_limits: max_pending must be NULL (the default) or an integer of at least 0',
    });
    await expect(admin.query(`SELECT svc_set_role_limits('alice', NULL, -5)`)).rejects.toMatchObject({ code: '22023', message: expect.stringContaining('max_stored_bytes') });
    await expect(admin.query(`SELECT svc_set_queue_limits(0)`)).rejects.toMatchObject({
      code: '22023', message: 'svc_set_queue_limits: max_queue_size must be NULL (the default) or an integer of at least 1',
    });
    await expect(admin.query(`SELECT svc_set_role_limits('nobody_here', 1)`)).rejects.toMatchObject({
      code: '42704', message: 'svc_set_role_limits: role_name must name an existing role (there is no role "nobody_here")',
    });
    expect((await su.query('SELECT count(*)::int AS n FROM svc_role_limits')).rows[0].n).toBe(0);
  });
});

test('svc_rerank_batch_async stores its documents once for all its queries, and the claim hands each request its documents back', async () => {
  const documents = Array.from({ length: 100 }, (_, i) => `${i} ${'é'.repeat(1000)}`); // 100 x 2,000+ bytes: 200 KB
  const queries = Array.from({ length: 190 }, (_, i) => `q${i}`);
  const ids = (await alice.query('SELECT svc_rerank_batch_async($1, $2) AS ids', [queries, documents])).rows[0].ids as string[];
  expect(ids).toHaveLength(190);
  // Stored: the documents once (about 200 KB as jsonb, less compressed), not 190 times (38 MB).
  const { rows } = await su.query(
    `SELECT (SELECT sum(pg_column_size(parameters)) FROM svc_queue WHERE request_id = ANY ($1)) AS requests,
            (SELECT sum(pg_column_size(documents)) FROM svc_documents) AS documents, (SELECT count(*) FROM svc_documents) AS lists`,
    [ids],
  );
  expect(Number(rows[0].lists)).toBe(1);
  expect(Number(rows[0].requests) + Number(rows[0].documents)).toBeLessThan(300_000);
  expect(Number((await limitsOf(alice)).stored_bytes)).toBeLessThan(300_000);
  // Each role reads only its own document lists.
  expect((await bob.query('SELECT count(*)::int AS n FROM svc_documents')).rows[0].n).toBe(0);
  expect((await alice.query('SELECT count(*)::int AS n FROM svc_documents')).rows[0].n).toBe(1);
  // A worker's claim gets svc_rerank_async's parameters for each query: the documents put back.
  const worker = await svc().connect(ROLES.worker);
  const single = (await alice.query(`SELECT svc_rerank_async('q7', $1) AS id`, [documents])).rows[0].id as string;
  const claimed = await protocol.claim(worker, { workerId: 'w', maxJobs: 200, leaseSeconds: 30, maxRetries: 0 });
  const paramsOf = (id: string) => claimed.find((j) => j.request_id === id)!.parameters;
  expect(paramsOf(ids[7])).toEqual(paramsOf(single));
  expect(JSON.stringify(paramsOf(ids[7]))).toBe(JSON.stringify(paramsOf(single)));
  expect(cacheIdentity('rerank', paramsOf(ids[7]))).toBe(cacheIdentity('rerank', paramsOf(single)));
  // The list goes with the last request that names it.
  await su.query('DELETE FROM svc_queue WHERE request_id = ANY ($1)', [ids.slice(1)]);
  await worker.query('SELECT svc_worker_cleanup()');
  expect(Number((await su.query('SELECT count(*) AS n FROM svc_documents')).rows[0].n)).toBe(1);
  await su.query('DELETE FROM svc_queue WHERE request_id = $1', [ids[0]]);
  await worker.query('SELECT svc_worker_cleanup()');
  expect(Number((await su.query('SELECT count(*) AS n FROM svc_documents')).rows[0].n)).toBe(0);
});
