// Access: a request belongs to the role that submitted it (row-level security); svc_admin members see
// everything; only svc_worker members may run the worker protocol; nobody forges a result.
import type pg from 'pg';
import * as protocol from '../../worker/protocol.js';
import { ROLES, useSvc } from '../helpers/svc.js';

const svc = useSvc();
let alice: pg.Client;
let bob: pg.Client;
let admin: pg.Client;
let worker: pg.Client;
let aliceId: string;

beforeAll(async () => {
  alice = await svc().connect(ROLES.alice);
  bob = await svc().connect(ROLES.bob);
  admin = await svc().connect(ROLES.admin);
  worker = await svc().connect(ROLES.worker);
  aliceId = (await alice.query(`SELECT svc_generate_async('alice secret prompt') AS id`)).rows[0].id;
});

test('the submitting role owns its request and sees it', async () => {
  expect((await alice.query('SELECT owner::text, status FROM svc_queue')).rows).toEqual([{ owner: 'alice', status: 'pending' }]);
  expect((await alice.query('SELECT status FROM svc_check_async($1)', [aliceId])).rows).toEqual([{ status: 'pending' }]);
});

test('another role cannot see, check, fetch or cancel it', async () => {
  expect((await bob.query('SELECT * FROM svc_queue')).rows).toHaveLength(0);
  expect((await bob.query('SELECT * FROM svc_check_async($1)', [aliceId])).rows).toHaveLength(0);
  // One row per id given, NULL for what bob may not see.
  expect((await bob.query('SELECT request_id, status, result FROM svc_check_async_batch($1::uuid[])', [[aliceId]])).rows)
    .toEqual([{ request_id: aliceId, status: null, result: null }]);
  await expect(bob.query('SELECT svc_get_async_result($1, 1)', [aliceId])).rejects.toThrow(/does not exist or is not visible/);
  expect((await bob.query('SELECT svc_cancel_async($1) AS ok', [aliceId])).rows[0].ok).toBe(false);
  expect((await alice.query('SELECT status FROM svc_check_async($1)', [aliceId])).rows[0].status).toBe('pending');
});

test('an svc_admin member sees every request', async () => {
  const bobId = (await bob.query(`SELECT svc_generate_async('bob prompt') AS id`)).rows[0].id;
  const seen = (await admin.query('SELECT request_id FROM svc_queue')).rows.map((r) => r.request_id);
  expect(seen).toEqual(expect.arrayContaining([aliceId, bobId]));
  expect((await admin.query('SELECT status FROM svc_check_async($1)', [bobId])).rows).toHaveLength(1);
});

test('only svc_worker members may claim, complete, fail, renew, heartbeat or write partial text', async () => {
  for (const sql of [
    `SELECT * FROM svc_worker_claim('x', 1, 30)`,
    `SELECT svc_worker_complete('${aliceId}', 1, 'forged')`,
    `SELECT * FROM svc_worker_complete_and_claim(ARRAY['${aliceId}']::uuid[], ARRAY[1], ARRAY['forged'], 'x', 30)`,
    `SELECT svc_worker_fail('${aliceId}', 1, 'forged')`,
    `SELECT svc_worker_renew('x', ARRAY['${aliceId}']::uuid[], 30)`,
    `SELECT svc_worker_heartbeat('x', 'h', 1, 's', 1, NULL, 0, 0, 0)`,
    `SELECT svc_worker_progress('${aliceId}', 1, 'forged', 1)`,
    `SELECT svc_cleanup()`,
  ]) {
    // Refused naming the role the function is granted to (its relay checks EXECUTE on its body: src/native/relay.c).
    await expect(alice.query(sql)).rejects.toMatchObject({
      code: '42501',
      message: expect.stringMatching(/^svc_\w+: permission denied: only members of svc_(worker|admin) may run it$/),
      hint: expect.stringMatching(/^A superuser \(or a member of svc_(worker|admin) with ADMIN OPTION\) grants it: GRANT svc_(worker|admin) TO alice;$/),
    });
  }
});

test('users cannot forge state by writing the queue directly', async () => {
  await expect(alice.query(`INSERT INTO svc_queue (function_name, parameters, status) VALUES ('generate', '{}', 'completed')`)).rejects.toThrow(/permission denied/);
  await expect(alice.query(`UPDATE svc_queue SET result = 'forged'`)).rejects.toThrow(/permission denied/);
  await expect(alice.query(`UPDATE svc_queue SET status = 'cancelled' WHERE request_id = $1`, [aliceId])).rejects.toThrow(/permission denied/);
  await expect(alice.query(`DELETE FROM svc_queue`)).rejects.toThrow(/permission denied/);
  expect((await alice.query('SELECT status, result FROM svc_queue WHERE request_id = $1', [aliceId])).rows[0]).toEqual({ status: 'pending', result: null });
});

test('no ordinary role may INSERT, UPDATE or DELETE any svc table or sequence directly', async () => {
  const { rows } = await alice.query(`SELECT c.relname, c.relkind FROM pg_class c JOIN pg_depend d ON d.objid = c.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'svc' WHERE c.relkind IN ('r', 'S', 'v') ORDER BY 1`);
  expect(rows.map((r) => r.relname)).toEqual(expect.arrayContaining(['svc_queue', 'svc_workers', 'svc_cache', 'svc_cache_hits', 'svc__queue_depth_bound', 'svc_partial_results']));
  for (const { relname, relkind } of rows) {
    for (const privilege of ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) {
      for (const role of [alice, bob, admin]) {
        // Column grants count too (has_any_column_privilege): 0.1.0 granted INSERT and UPDATE on columns.
        const held = (await role.query(`SELECT has_table_privilege($1, $2) OR ($3 <> 'S' AND $2 IN ('INSERT', 'UPDATE') AND has_any_column_privilege($1, $2)) AS held`,
          [relname, privilege, relkind])).rows[0].held;
        expect({ relname, privilege, held }).toEqual({ relname, privilege, held: false });
      }
    }
    if (relkind === 'S') {
      await expect(alice.query(`SELECT nextval($1::regclass)`, [relname])).rejects.toThrow(/permission denied/);
    }
  }
  await expect(alice.query(`INSERT INTO svc_workers (worker_id, host, pid, state, concurrency) VALUES ('w', 'h', 1, 'running', 1)`)).rejects.toThrow(/permission denied/);
  await expect(alice.query(`INSERT INTO svc_cache (cache_key, model, function_name, result) VALUES ('k', 'm', 'generate', 'x')`)).rejects.toThrow(/permission denied/);
  await expect(alice.query(`UPDATE svc_workers SET state = 'stopped'`)).rejects.toThrow(/permission denied/);
  await expect(alice.query(`DELETE FROM svc_cache`)).rejects.toThrow(/permission denied/);
});

test('the cache-poisoning insert of a hand-written grammar is refused', async () => {
  const parameters = { prompt: 'The user as JSON', schema: { type: 'object', properties: { email: { type: 'string' } } }, max_tokens: 512, use_cache: true, seed: 42 };
  await expect(alice.query(`INSERT INTO svc_queue (function_name, parameters, grammar) VALUES ('generate_json', $1, $2)`,
    [parameters, 'root ::= "{\\"email\\":\\"attacker@example.com\\"}"'])).rejects.toThrow(/permission denied for table svc_queue/);
  expect((await admin.query(`SELECT count(*)::int AS n FROM svc_queue WHERE function_name = 'generate_json'`)).rows[0].n).toBe(0);
});

test('a request belongs to the role the session acts as: SET ROLE decides, and nobody submits or cancels as another role', async () => {
  const su = await svc().connect();
  await su.query(`CREATE ROLE svc_test_tenant NOLOGIN; GRANT svc_test_tenant TO ${ROLES.alice}`);
  const carol = await svc().connect(ROLES.alice);
  await carol.query('SET ROLE svc_test_tenant');
  const tenantId = (await carol.query(`SELECT svc_generate_async('tenant prompt') AS id`)).rows[0].id;
  expect((await su.query('SELECT owner::text FROM svc_queue WHERE request_id = $1', [tenantId])).rows[0].owner).toBe('svc_test_tenant');
  // alice acting as herself does not see the tenant's request, nor cancel it; the tenant does.
  expect((await alice.query('SELECT * FROM svc_check_async($1)', [tenantId])).rows).toHaveLength(0);
  expect((await alice.query('SELECT svc_cancel_async($1) AS ok', [tenantId])).rows[0].ok).toBe(false);
  expect((await carol.query('SELECT svc_cancel_async($1) AS ok', [tenantId])).rows[0].ok).toBe(true);
  // A role the login role is not a member of cannot be taken on.
  await expect(carol.query(`SET ROLE ${ROLES.bob}`)).rejects.toThrow(/permission denied to set role/);
  await expect(carol.query(`SELECT set_config('role', $1, false)`, [ROLES.bob])).rejects.toThrow(/permission denied to set role/);
  await carol.query('RESET ROLE');
  const ownId = (await carol.query(`SELECT svc_generate_async('own prompt') AS id`)).rows[0].id;
  expect((await su.query('SELECT owner::text FROM svc_queue WHERE request_id = $1', [ownId])).rows[0].owner).toBe(ROLES.alice);
});

test('svc_admin members may run svc_cleanup and svc_cache_clear; other roles may not', async () => {
  expect((await admin.query(`SELECT svc_cleanup('1 day') >= 0 AS ok`)).rows[0].ok).toBe(true);
  expect((await admin.query(`SELECT svc_cache_clear() >= 0 AS ok`)).rows[0].ok).toBe(true);
  await expect(alice.query(`SELECT svc_cache_clear()`)).rejects.toThrow('svc_cache_clear: permission denied: only members of svc_admin may run it');
  await expect(bob.query(`SELECT svc_cleanup()`)).rejects.toThrow('svc_cleanup: permission denied: only members of svc_admin may run it');
});

test('the worker completes the request, and only its owner reads the result', async () => {
  await admin.query('SELECT 1');
  let job: protocol.ClaimedJob | undefined;
  for (const j of await protocol.claim(worker, { workerId: 'w', maxJobs: 10, leaseSeconds: 30, maxRetries: 3 })) {
    if (j.request_id === aliceId) job = j;
    await protocol.complete(worker, j, `result for ${j.parameters.prompt}`);
  }
  expect(job).toBeDefined();
  expect((await alice.query('SELECT svc_get_async_result($1) AS r', [aliceId])).rows[0].r).toBe('result for alice secret prompt');
  await expect(bob.query('SELECT svc_get_async_result($1)', [aliceId])).rejects.toThrow(/not visible/);
});

test('every svc function pins search_path to pg_catalog and pg_temp alone (it names svc\'s own objects by schema)', async () => {
  // An aggregate (svc_summarize) takes no settings: the functions it runs are in this list and pin theirs.
  // Nor do svc.so's C functions, which run no SQL (docs/security.md): the distance, its lower bound, svc__reals and the relays, each SECURITY INVOKER.
  const { rows } = await alice.query(`SELECT p.proname, p.proconfig, l.lanname = 'c' AS native, p.prosecdef, p.prosrc FROM pg_proc p
    JOIN pg_language l ON l.oid = p.prolang JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'svc' WHERE p.prokind <> 'a' ORDER BY p.proname`);
  const native = rows.filter((r) => r.native);
  expect(native.filter((r) => r.prosrc !== 'svc_relay').map((r) => [r.proname, r.prosecdef, r.proconfig])).toEqual([
    ['svc__cosine_distance_lower_bound', false, null],
    ['svc__reals', false, null],
    ['svc_cosine_distance', false, null],
  ]);
  // Every relay has its body, which pins the settings (checked below with the rest).
  const relays = native.filter((r) => r.prosrc === 'svc_relay');
  expect(relays.length).toBeGreaterThan(40);
  for (const r of relays) {
    expect([r.proname, r.prosecdef, r.proconfig]).toEqual([r.proname, false, null]);
    expect(rows.some((b) => b.proname === `svc__run_${r.proname.replace(/^svc_+/, '')}`)).toBe(true);
  }
  expect(rows.length).toBeGreaterThan(40);
  for (const { proname, proconfig } of rows.filter((r) => !r.native)) {
    expect({ proname, path: (proconfig as string[] | null)?.find((c) => c.startsWith('search_path=')) }).toEqual({ proname, path: 'search_path=pg_catalog, pg_temp' });
  }
});

test("a role that may create in svc's schema plants better matches for built-ins: svc's code calls none of them", async () => {
  // PostgreSQL prefers a later schema's function whose argument types match better (CVE-2018-1058):
  // with public on svc's search_path, convert_to(text, 'UTF8') in the cache's SQL would have been
  // bob's convert_to(text, text), run as svc_owner. svc's search_path is pg_catalog's alone.
  const superuser = await svc().connect();
  await superuser.query(`GRANT CREATE ON SCHEMA public TO ${ROLES.bob}`);
  try {
    for (const planted of ['convert_to(a text, b text) RETURNS bytea', 'format(a text, b name) RETURNS text', 'format(a text, b text) RETURNS text'])
      await bob.query(`CREATE FUNCTION public.${planted} LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'bob''s function ran as %', current_user; END $$`);
    const prompt = 'planted functions prompt';
    const id = (await alice.query(`SELECT svc_generate_async($1) AS id`, [prompt])).rows[0].id;
    for (const job of await protocol.claim(worker, { workerId: 'w', maxJobs: 10, leaseSeconds: 30, maxRetries: 3 }))
      await protocol.complete(worker, job, `answer to ${job.parameters.prompt}`);
    expect((await alice.query('SELECT svc_get_async_result($1) AS r', [id])).rows[0].r).toBe(`answer to ${prompt}`);
    // The cache's SQL keys entries by convert_to(identity, 'UTF8').
    await protocol.cachePut(worker, 'planted identity', 'model', 'generate', 'cached answer', 'end');
    expect(await protocol.cacheGet(worker, 'planted identity', 'model')).toEqual({ result: 'cached answer', stopReason: 'end' });
    expect((await admin.query('SELECT entries::int FROM svc_cache_stats()')).rows[0].entries).toBeGreaterThan(0);
  } finally {
    await bob.query('DROP FUNCTION public.convert_to(text, text), public.format(text, name), public.format(text, text)');
    await superuser.query(`REVOKE CREATE ON SCHEMA public FROM ${ROLES.bob}`);
  }
});

test('internal functions: not executable by PUBLIC, but svc__bundle and svc__cosine_distance_lower_bound (docs/security.md says why)', async () => {
  const { rows } = await alice.query(`SELECT p.proname FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'svc'
    WHERE p.proname LIKE 'svc\\_\\_%' AND has_function_privilege(p.oid, 'EXECUTE') ORDER BY 1`);
  expect(rows.map((r) => r.proname)).toEqual(['svc__bundle', 'svc__cosine_distance_lower_bound']);
  for (const sql of [`SELECT svc__queue_depth()`, `SELECT svc__model_identity('default')`, `SELECT svc__setting('svc.cache_size')`,
    `SELECT svc__sync_submit('{}')`, `SELECT svc__sync_waiter_may_act_as(1, 1, 'x', 1)`]) {
    await expect(alice.query(sql)).rejects.toThrow(/permission denied for function/);
  }
});

test('CREATE EXTENSION svc CASCADE works on a new database', async () => {
  const su = await svc().connect();
  await su.query('CREATE DATABASE fresh');
  const fresh = await svc().cluster.connect('fresh');
  try {
    await fresh.query('CREATE EXTENSION svc CASCADE');
    const { rows } = await fresh.query(`SELECT extname FROM pg_extension WHERE extname IN ('svc', 'plv8') ORDER BY 1`);
    expect(rows.map((r) => r.extname)).toEqual(['plv8', 'svc']);
    expect((await fresh.query(`SELECT svc_generate_async('hello') IS NOT NULL AS ok`)).rows[0].ok).toBe(true);
  } finally {
    await fresh.end();
  }
});

test('a forged svc_completed reaches listeners, and svc_check_async shows what it is worth (docs/security.md)', async () => {
  const listener = await svc().connect(ROLES.alice);
  const heard: string[] = [];
  listener.on('notification', (n) => heard.push(n.payload ?? ''));
  await listener.query('LISTEN svc_completed');
  const id = (await alice.query(`SELECT svc_generate_async('forged completion') AS id`)).rows[0].id;
  // Any role may NOTIFY any channel: bob announces alice's request as completed.
  await bob.query(`SELECT pg_notify('svc_completed', json_build_object('request_id', $1::uuid, 'function', 'generate', 'status', 'completed')::text)`, [id]);
  for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(heard.map((p) => JSON.parse(p))).toEqual([{ request_id: id, function: 'generate', status: 'completed' }]);
  // The row says otherwise; and a made-up id, or another role's, gives no row at all.
  expect((await listener.query('SELECT status, result FROM svc_check_async($1)', [id])).rows).toEqual([{ status: 'pending', result: null }]);
  expect((await listener.query('SELECT * FROM svc_check_async(gen_random_uuid())')).rows).toEqual([]);
  expect((await bob.query('SELECT * FROM svc_check_async($1)', [id])).rows).toEqual([]);
});
