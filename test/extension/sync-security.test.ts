// The synchronous functions' autonomous session, attacked as an ordinary role would (docs/security.md):
// after a sync call, however it ended, the caller reaches no session svc opened; nobody chooses where
// that session connects but an administrator; a planted function on the caller's search_path or the
// session's is never run; dblink is not the caller's; logging in as svc_sync gives nothing. After each
// attack: no privilege gained, no other role's cached answer changed, no row of another role readable.
import type pg from 'pg';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, frozenWorker, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc();
let su: pg.Client;
let alice: pg.Client;
let mallory: pg.Client;
let dave: pg.Client; // a role the DBA granted dblink to (trusted with dblink, not with svc's session)
let bob: pg.Client;
let bobAnswer: string;
let bobRequest: string;

const MARKER = 'svc_test_planted_calls';

beforeAll(async () => {
  su = await svc().connect();
  await su.query(`CREATE ROLE mallory LOGIN; CREATE SCHEMA mallory AUTHORIZATION mallory; CREATE ROLE dave LOGIN;
    GRANT EXECUTE ON FUNCTION dblink(text, text), dblink_exec(text, text), dblink_get_connections(), dblink_connect(text, text), dblink_disconnect(text) TO dave;
    CREATE TABLE ${MARKER} (what text); GRANT INSERT ON ${MARKER} TO PUBLIC`);
  alice = await svc().connect(ROLES.alice);
  mallory = await svc().connect('mallory');
  dave = await svc().connect('dave');
  // bob's answer, in the cache and in his own request, before any attack.
  bob = await svc().connect(ROLES.bob);
  const worker = startWorker(svc().cluster);
  try {
    await eventually('a worker', async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0);
    bobAnswer = (await bob.query(`SELECT svc_generate_choice('bob asks', ARRAY['yes', 'no']) AS out`)).rows[0].out;
    bobRequest = (await bob.query(`SELECT svc_generate_async('bob secret') AS id`)).rows[0].id;
    await bob.query('SELECT svc_get_async_result($1)', [bobRequest]);
  } finally {
    await worker.stop();
  }
}, 120_000);

// A worker alive to svc but claiming nothing, for every test: a sync call waits (and times out) as it
// would for a busy worker, instead of being refused at once for want of one (SV006).
let frozen: { kill(): Promise<void> } | undefined;
beforeEach(async () => {
  frozen = await frozenWorker(svc().cluster, su);
}, 60_000);
afterEach(async () => {
  await frozen?.kill();
  await su.query(`DELETE FROM svc_workers WHERE state = 'running'`);
});

/** Every assertion of the threat model that must hold after any attack by `who`. */
async function assertNothingGained(who: pg.Client): Promise<void> {
  const me = (await who.query('SELECT current_user AS me, rolsuper, rolcreaterole FROM pg_roles WHERE rolname = current_user')).rows[0];
  expect({ me: me.me, rolsuper: me.rolsuper, rolcreaterole: me.rolcreaterole }).toEqual({ me: me.me, rolsuper: false, rolcreaterole: false });
  expect((await who.query(`SELECT count(*)::int AS n FROM public.svc_queue WHERE owner::text <> current_user`)).rows[0].n).toBe(0);
  await expect(who.query(`SELECT * FROM public.svc_cache`)).rejects.toThrow(/permission denied/);
  // bob's cached answer is what he got.
  expect((await bob.query(`SELECT svc_generate_choice('bob asks', ARRAY['yes', 'no']) AS out`)).rows[0].out).toBe(bobAnswer);
  expect((await su.query(`SELECT count(*)::int AS n FROM ${MARKER}`)).rows[0].n).toBe(0);
}

/** The caller can run no statement in any session svc opened: not through dblink, not otherwise. */
async function assertUnreachable(who: pg.Client, canUseDblink: boolean): Promise<void> {
  const escalate = `SELECT dblink_exec('svc_sync', 'ALTER ROLE ' || quote_ident(current_user) || ' SUPERUSER')`;
  if (!canUseDblink) {
    await expect(who.query(escalate)).rejects.toThrow(/permission denied for function dblink_exec/);
    await expect(who.query(`SELECT dblink_get_connections()`)).rejects.toThrow(/permission denied/);
    return;
  }
  // A dblink user's backend keeps no connection of svc's: the name is no connection at all.
  expect((await who.query(`SELECT dblink_get_connections() AS c`)).rows[0].c).toBeNull();
  await expect(who.query(escalate)).rejects.toThrow(/password is required|could not establish|invalid connection string/);
}

const syncCall = (fn = 'svc_generate_choice') =>
  fn === 'svc_generate_choice' ? `SELECT svc_generate_choice('attack ' || random(), ARRAY['a', 'b'], use_cache := false)` : `SELECT ${fn}`;

describe('after a sync call, however it ended, nothing svc opened is reachable', () => {
  // No worker runs in this part: waits end in a sync timeout, a statement timeout or a cancel.
  for (const [name, canUseDblink] of [['mallory', false], ['dave', true]] as const) {
    const who = () => (name === 'mallory' ? mallory : dave);

    test(`${name}: a sync timeout (SV003)`, async () => {
      await who().query(`SET svc.sync_timeout = '1s'`);
      await expect(who().query(syncCall())).rejects.toMatchObject({ code: 'SV003' });
      await who().query('RESET svc.sync_timeout');
      await assertUnreachable(who(), canUseDblink);
      await assertNothingGained(who());
    });

    test(`${name}: refused input, a refused schema, a full queue`, async () => {
      await expect(who().query(`SELECT svc_generate('x', max_tokens := 0)`)).rejects.toMatchObject({ code: '22023' });
      await expect(who().query(`SELECT svc_generate_json('x', '{"type":"object","x-bad":1}', max_tokens := 0)`)).rejects.toMatchObject({ code: '22023' });
      await who().query(`SET svc.strict_schema = on`);
      await expect(who().query(`SELECT svc_generate_json('x', '{"type":"object","x-bad":1}')`)).rejects.toMatchObject({ code: '22023' });
      await who().query(`RESET svc.strict_schema`);
      await su.query(`SELECT svc_generate_async('keeps the queue busy')`);
      await who().query(`SET svc.max_queue_size = 1`);
      await expect(who().query(syncCall())).rejects.toMatchObject({ code: '53400' });
      await who().query(`RESET svc.max_queue_size`);
      await assertUnreachable(who(), canUseDblink);
      await assertNothingGained(who());
    });

    test(`${name}: statement_timeout aimed at every point of the call (1 to 60 ms)`, async () => {
      for (let ms = 1; ms <= 60; ms += 3) {
        await who().query(`SET statement_timeout = ${ms}`);
        await who().query(syncCall()).catch((e: { code?: string }) => expect(['57014', 'SV003']).toContain(e.code));
        await who().query('RESET statement_timeout');
        await assertUnreachable(who(), canUseDblink);
      }
      await assertNothingGained(who());
    }, 60_000);

    test(`${name}: pg_cancel_backend mid-enqueue and mid-wait, then a lost autonomous session`, async () => {
      const pid = (await who().query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      for (const delay of [0, 5, 30, 200]) {
        const call = who().query(syncCall()).then(() => undefined, (e: { code?: string }) => e.code);
        // Once the call runs: a cancel that reaches the backend before its statement does is lost,
        // and the call then waits out its sync timeout (a loaded machine delays the statement).
        await eventually('the call to run', async () => (await su.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active'`, [pid])).rows.length > 0);
        await new Promise((r) => setTimeout(r, delay));
        await su.query('SELECT pg_cancel_backend($1)', [pid]);
        expect(['57014', undefined]).toContain(await call);
        await assertUnreachable(who(), canUseDblink);
      }
      // The autonomous sessions end under the caller (a restart of theirs, a network cut); the next call works.
      await su.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'svc_sync'`);
      await who().query(`SET svc.sync_timeout = '1s'`);
      await expect(who().query(syncCall())).rejects.toMatchObject({ code: 'SV003' });
      await who().query('RESET svc.sync_timeout');
      await assertUnreachable(who(), canUseDblink);
      await assertNothingGained(who());
    }, 60_000);
  }

  test('a result (a worker answers): an ordinary role and a role granted dblink reach nothing either', async () => {
    const worker = startWorker(svc().cluster);
    try {
      await eventually('a worker', async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0);
      for (const [who, canUseDblink] of [[mallory, false], [dave, true]] as const) {
        expect(['a', 'b']).toContain((await who.query(`${syncCall()} AS out`)).rows[0].out);
        expect((await who.query(`SELECT count(*)::int AS n FROM svc_generate_choice(ARRAY['x', 'y'], ARRAY['a', 'b']) WHERE error IS NULL`)).rows[0].n).toBe(2);
        await assertUnreachable(who, canUseDblink);
        await assertNothingGained(who);
      }
    } finally {
      await worker.stop();
    }
  }, 60_000);

  test('a superuser caller keeps its connection, which is svc_sync\'s and can do nothing', async () => {
    await su.query(`SET svc.sync_timeout = '1s'`);
    await expect(su.query(syncCall())).rejects.toMatchObject({ code: 'SV003' });
    await su.query('RESET svc.sync_timeout');
    expect((await su.query(`SELECT * FROM dblink('svc_sync', 'SELECT session_user::text, current_setting(''search_path'')') AS t(who text, path text)`)).rows)
      .toEqual([{ who: 'svc_sync', path: 'pg_catalog,pg_temp' }]);
    await expect(su.query(`SELECT dblink_exec('svc_sync', 'ALTER ROLE svc_sync SUPERUSER')`)).rejects.toThrow(/permission denied|must be superuser/);
  });
});

describe('only an administrator decides where the autonomous session connects', () => {
  test('svc.sync_connection, set by anyone, is not read: a chosen connection string and a planted function do nothing', async () => {
    // The 0.2.0-dev attack: a superuser session with the attacker's search_path running an unqualified call.
    await mallory.query(`CREATE FUNCTION mallory.svc__enqueue_as(jsonb) RETURNS uuid LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO public.${MARKER} VALUES ('svc__enqueue_as'); EXECUTE 'ALTER ROLE mallory SUPERUSER'; RETURN gen_random_uuid(); END $$`);
    await mallory.query(`CREATE FUNCTION mallory.svc__sync_submit(jsonb) RETURNS uuid LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO public.${MARKER} VALUES ('svc__sync_submit'); EXECUTE 'ALTER ROLE mallory SUPERUSER'; RETURN gen_random_uuid(); END $$`);
    await mallory.query(`SET svc.sync_connection = 'user=postgres options=''-c search_path=mallory,public'''`);
    await mallory.query(`SET svc.sync_timeout = '1s'`);
    await expect(mallory.query(syncCall())).rejects.toMatchObject({ code: 'SV003' });
    await mallory.query('RESET svc.sync_connection; RESET svc.sync_timeout');
    await assertNothingGained(mallory);
  });

  test('a planted function on the caller\'s own search_path is never called by svc', async () => {
    // Shadows of what svc's functions call: its internals, builtins, dblink.
    for (const sql of [
      `CREATE FUNCTION mallory.svc__sync_waiter_may_act_as(integer, integer, text, text) RETURNS boolean LANGUAGE sql AS $$ INSERT INTO public.${MARKER} VALUES ('waiter') RETURNING true $$`,
      `CREATE FUNCTION mallory.svc__sync_token_key(text) RETURNS bigint LANGUAGE sql AS $$ INSERT INTO public.${MARKER} VALUES ('token key') RETURNING 1::bigint $$`,
      `CREATE FUNCTION mallory.pg_notify(text, text) RETURNS void LANGUAGE sql AS $$ INSERT INTO public.${MARKER} VALUES ('pg_notify') $$`,
      `CREATE FUNCTION mallory.dblink(text, text) RETURNS SETOF record LANGUAGE sql AS $$ INSERT INTO public.${MARKER} VALUES ('dblink') RETURNING 1 $$`,
      `CREATE FUNCTION mallory.gen_random_uuid() RETURNS uuid LANGUAGE sql AS $$ INSERT INTO public.${MARKER} VALUES ('uuid') RETURNING '00000000-0000-0000-0000-000000000000'::uuid $$`,
      `CREATE TABLE mallory.svc_queue (request_id uuid)`,
      `CREATE TABLE mallory.svc_config (name text, value jsonb)`,
    ]) await mallory.query(sql);
    await mallory.query(`SET search_path = mallory, public`);
    await mallory.query(`SET svc.sync_timeout = '1s'`);
    await expect(mallory.query(syncCall())).rejects.toMatchObject({ code: 'SV003' });
    await mallory.query(`SELECT svc_generate_async('via my path')`);
    await mallory.query('RESET search_path; RESET svc.sync_timeout');
    await assertNothingGained(mallory);
  });

  test('svc_set_sync_connection: only svc_admin; no user, dbname, options or service; bad values are clear errors', async () => {
    await expect(mallory.query(`SELECT svc_set_sync_connection('host=/tmp')`)).rejects.toThrow('svc_set_sync_connection: permission denied: only members of svc_admin may run it');
    const admin = await svc().connect(ROLES.admin);
    for (const [conninfo, message] of [
      ['user=postgres', /may not set "user"/],
      [`options='-c search_path=mallory'`, /may not set "options"/],
      ['dbname=template1', /may not set "dbname"/],
      ['service=evil', /may not set "service"/],
      ['sslkey=/etc/shadow', /"sslkey", which is not one of host, hostaddr, port/],
      ['postgresql://postgres@localhost/postgres', /not a URI/],
      ['host', /no "=" after "host"/],
      [`host='/tmp`, /unterminated quoted value/],
      ['port=abc', /port must be a port number/],
      ['port=1 port=2', /sets "port" twice/],
    ] as const) {
      await expect(admin.query('SELECT svc_set_sync_connection($1)', [conninfo])).rejects.toMatchObject({ code: '22023', message: expect.stringMatching(message) });
    }
    expect((await su.query(`SELECT count(*)::int AS n FROM svc_config`)).rows[0].n).toBe(0);
    // A good value is stored and shown with its password masked; empty resets.
    const shown = (await admin.query(`SELECT svc_set_sync_connection('connect_timeout=5 password=''s3cr\\''et''') AS c`)).rows[0].c;
    expect(shown).toMatch(/connect_timeout='5'.*password='\*{8}'.*user='svc_sync'/);
    expect((await su.query(`SELECT value FROM svc_config WHERE name = 'sync_connection'`)).rows[0].value).toEqual({ connect_timeout: '5', password: "s3cr'et" });
    await expect(admin.query(`SELECT * FROM svc_config`)).rejects.toThrow(/permission denied/);
    await admin.query(`SELECT svc_set_sync_connection('')`);
    expect((await su.query(`SELECT count(*)::int AS n FROM svc_config`)).rows[0].n).toBe(0);
    // A target svc_sync cannot log in through is tried and refused, naming why; nothing is kept.
    await expect(admin.query(`SELECT svc_set_sync_connection('host=127.0.0.1 port=1 connect_timeout=2')`)).rejects.toMatchObject({
      code: '08001',
      message: expect.stringMatching(/^svc_set_sync_connection: the autonomous session could not log in as svc_sync: .*; the sync connection is unchanged$/s),
    });
    expect((await su.query(`SELECT count(*)::int AS n FROM svc_config`)).rows[0].n).toBe(0);
  });

  test('the connection string svc builds: the server\'s socket and port unless the target says otherwise, svc_sync in this database, quoted as libpq reads it', async () => {
    const describe = async (target: object) => (await su.query(`SELECT r FROM svc__sync_dblink('describe', $1, NULL, NULL) AS r`, [target])).rows[0].r;
    const { socket, port } = (await su.query(`SELECT split_part(current_setting('unix_socket_directories'), ',', 1) AS socket, current_setting('port') AS port`)).rows[0];
    expect(await describe({})).toBe(
      `host='${socket}' port='${port}' dbname='postgres' user='svc_sync' options='-c search_path=pg_catalog,pg_temp -c track_activities=off' application_name='svc_sync'`,
    );
    expect(await describe({ host: "a b'c\\d", password: "p'w" })).toMatch(/^host='a b\\'c\\\\d' port='\d+' password='\*{8}' dbname=/);
    // Only the keywords svc_set_sync_connection takes, whoever passes the target.
    for (const target of [{ user: 'postgres' }, { options: '-c role=postgres' }, { sslkey: '/etc/shadow' }, { host: 1 }]) {
      await expect(su.query(`SELECT svc__sync_dblink('run_once', $1, 'x', 'SELECT 1')`, [target])).rejects.toMatchObject({ code: '22023', message: expect.stringMatching(/the target may not set/) });
    }
    // Owned by the superuser (dblink_connect_u is a superuser's), executable by svc_owner alone.
    expect((await su.query(`SELECT r.rolsuper, has_function_privilege('svc_owner', p.oid, 'EXECUTE') AS owner_may, has_function_privilege('svc_test_admin', p.oid, 'EXECUTE') AS admin_may,
      has_function_privilege('svc_sync', p.oid, 'EXECUTE') AS sync_may FROM pg_proc p JOIN pg_roles r ON r.oid = p.proowner WHERE p.proname = 'svc__sync_dblink'`)).rows)
      .toEqual([{ rolsuper: true, owner_may: true, admin_may: false, sync_may: false }]);
    await expect(mallory.query(`SELECT svc__sync_dblink('run_once', '{}', 'x', 'SELECT 1')`)).rejects.toThrow(/permission denied for function svc__sync_dblink/);
  });

  test('a target that refuses svc_sync is a clear error that says what pg_hba.conf needs', async () => {
    const hba = join(svc().cluster.dataDir, 'pg_hba.conf');
    const original = readFileSync(hba, 'utf8');
    try {
      writeFileSync(hba, `local all svc_sync reject\n${original}`);
      await su.query('SELECT pg_reload_conf()');
      await su.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'svc_sync'`);
      const fresh = await svc().connect(ROLES.alice);
      await expect(fresh.query(syncCall())).rejects.toMatchObject({
        code: '08001', message: expect.stringMatching(/could not log in as svc_sync: .*pg_hba\.conf rejects connection/), hint: expect.stringMatching(/pg_hba\.conf must let this server log in as svc_sync/),
      });
    } finally {
      writeFileSync(hba, original);
      await su.query('SELECT pg_reload_conf()');
    }
  });

  test('an svc_sync that was given more than LOGIN is refused', async () => {
    await su.query('ALTER ROLE svc_sync CREATEDB');
    try {
      const fresh = await svc().connect(ROLES.alice);
      await expect(fresh.query(syncCall())).rejects.toMatchObject({ code: '08001', message: expect.stringMatching(/svc_sync must be a LOGIN role with no other attribute/) });
    } finally {
      await su.query('ALTER ROLE svc_sync NOCREATEDB');
    }
  });
});

describe('dblink and svc_sync', () => {
  test('dblink is not executable by ordinary roles', async () => {
    for (const sql of [
      `SELECT dblink_connect('x', 'user=postgres')`, `SELECT dblink_connect_u('x', 'user=postgres')`,
      `SELECT * FROM dblink('user=postgres', 'SELECT 1') AS t(x int)`, `SELECT dblink_exec('user=postgres', 'SELECT 1')`,
      `SELECT dblink_get_connections()`, `SELECT dblink_send_query('svc_sync', 'SELECT 1')`,
    ]) await expect(alice.query(sql)).rejects.toThrow(/permission denied for function/);
  });

  test('logged in as svc_sync: nothing to read, nothing to forge, no privilege', async () => {
    const sync = await svc().connect('svc_sync');
    const alicePid = (await alice.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const token = 'ab'.repeat(32);
    const payload = {
      caller: 'svc_generate', function_name: 'generate', parameters: { prompt: 'forged', max_tokens: 4, use_cache: true, seed: 42, prompt_format: 'chat' },
      owner_id: (await alice.query(`SELECT oid::text FROM pg_roles WHERE rolname = current_user`)).rows[0].oid, pid: alicePid, waiter: 1, token, max_queue_size: 10,
    };
    await expect(sync.query('SELECT svc__sync_submit($1)', [payload])).rejects.toMatchObject({ code: '42501', message: expect.stringMatching(/no backend \d+ of this database waits with lock 1 and this token/) });
    await expect(sync.query('SELECT svc__sync_submit($1)', [{ ...payload, token: 'x' }])).rejects.toMatchObject({ code: '22023', message: expect.stringMatching(/payload\.token must be 64 hexadecimal digits/) });
    // Holding the locks in svc_sync's own backend proves nothing about alice.
    await sync.query('BEGIN');
    await sync.query(`SELECT pg_advisory_xact_lock(1937138551, 7), pg_advisory_xact_lock(('x' || left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 16))::bit(64)::bigint)`, [token]);
    const own = (await sync.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    await expect(sync.query('SELECT svc__sync_submit($1)', [{ ...payload, pid: own, waiter: 7 }])).rejects.toMatchObject({ code: '42501' });
    await sync.query('ROLLBACK');
    expect((await sync.query('SELECT * FROM svc__sync_state($1::uuid[], $2)', [[bobRequest], token])).rows).toEqual([]);
    expect((await sync.query('SELECT svc__sync_cancel($1::uuid[], $2) AS n', [[bobRequest], token])).rows[0].n).toBe(0);
    expect((await sync.query('SELECT count(*)::int AS n FROM svc_queue')).rows[0].n).toBe(0);
    for (const sql of [`ALTER ROLE svc_sync SUPERUSER`, `UPDATE svc_cache SET result = 'POISONED'`, `SELECT * FROM svc_config`,
      `SELECT svc_worker_complete($1, 1, 'forged')`, `SELECT svc__model_identity('default')`, `SELECT svc__queue_depth()`]) {
      await expect(sync.query(sql, sql.includes('$1') ? [bobRequest] : [])).rejects.toThrow(/permission denied|must have CREATEROLE|must be superuser/);
    }
  });


  test('the waiting backend must hold both its waiter lock and its token\'s lock, as a role that may act as the owner', async () => {
    const waiting = await svc().connect(ROLES.alice);
    const pid = (await waiting.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const owner = (await waiting.query(`SELECT oid::text FROM pg_roles WHERE rolname = current_user`)).rows[0].oid;
    const token = 'cd'.repeat(32);
    const mayAct = async (waiter: number, tokenGiven = token, ownerGiven = owner) =>
      (await su.query('SELECT svc__sync_waiter_may_act_as($1, $2, $3, $4) AS ok', [pid, waiter, tokenGiven, ownerGiven])).rows[0].ok;
    await waiting.query('BEGIN');
    await waiting.query(`SELECT pg_advisory_xact_lock(1937138551, 9)`);
    expect(await mayAct(9)).toBe(false); // the waiter lock alone
    await waiting.query('ROLLBACK; BEGIN');
    await waiting.query(`SELECT pg_advisory_xact_lock(('x' || left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 16))::bit(64)::bigint)`, [token]);
    expect(await mayAct(9)).toBe(false); // the token's lock alone
    await waiting.query(`SELECT pg_advisory_xact_lock(1937138551, 9)`);
    expect(await mayAct(9)).toBe(true);
    expect(await mayAct(8)).toBe(false);
    expect(await mayAct(9, 'ef'.repeat(32))).toBe(false);
    expect(await mayAct(9, token, (await su.query(`SELECT oid::text FROM pg_roles WHERE rolname = 'svc_owner'`)).rows[0].oid)).toBe(false);
    await waiting.query('ROLLBACK');
    expect(await mayAct(9)).toBe(false);
  });
  test("a request of many texts (embed_many) is checked again in the sync session: at most 64 texts and 16,384 characters; counted as its texts", async () => {
    const waiting = await svc().connect(ROLES.alice);
    const sync = await svc().connect('svc_sync');
    try {
      const token = 'fe'.repeat(32);
      await waiting.query('BEGIN');
      await waiting.query(`SELECT pg_advisory_xact_lock(1937138551, 11), pg_advisory_xact_lock(('x' || left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 16))::bit(64)::bigint)`, [token]);
      const payload = (texts: string[]) => ({
        caller: 'svc_embed', function_name: 'embed_many', requests: [{ texts, use_cache: false }],
        owner_id: null as string | null, pid: 0, waiter: 11, token, max_queue_size: 1000,
      });
      const submit = async (texts: string[]) => {
        const p = payload(texts);
        p.owner_id = (await waiting.query(`SELECT oid::text FROM pg_roles WHERE rolname = current_user`)).rows[0].oid;
        p.pid = (await waiting.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        return sync.query('SELECT svc__sync_submit($1) AS ids', [p]);
      };
      await expect(submit(Array.from({ length: 65 }, (_, i) => `t${i}`))).rejects.toMatchObject({ code: '54000', message: expect.stringMatching(/^svc_embed: texts /) });
      await expect(submit(['a'.repeat(10_000), 'b'.repeat(10_000)])).rejects.toMatchObject({
        code: '54000', message: 'svc_embed: texts must hold at most 16384 characters in all, or be one text',
      });
      await expect(submit([])).rejects.toMatchObject({ code: '22023', message: 'svc_embed: texts must not be empty' });
      const [id] = (await submit(['c'.repeat(20_000)])).rows[0].ids;
      const ids = (await submit(['one', 'two', 'three'])).rows[0].ids;
      const rows = (await su.query(`SELECT function_name, inputs, owner::text FROM svc_queue WHERE request_id = ANY ($1) ORDER BY seq`, [[id, ...ids]])).rows;
      expect(rows).toEqual([
        { function_name: 'embed_many', inputs: 1, owner: 'alice' },
        { function_name: 'embed_many', inputs: 3, owner: 'alice' },
      ]);
      await su.query(`DELETE FROM svc_queue WHERE request_id = ANY ($1)`, [[id, ...ids]]);
    } finally {
      await waiting.query('ROLLBACK');
      await waiting.end();
      await sync.end();
    }
  });
  test("a request of many prompts (generate_many) is checked again in the sync session: its function, 64 prompts, 16,384 characters, 512 tokens to decode; its constraint compiled again; counted as its prompts", async () => {
    const waiting = await svc().connect(ROLES.alice);
    const sync = await svc().connect('svc_sync');
    try {
      const token = 'fd'.repeat(32);
      await waiting.query('BEGIN');
      await waiting.query(`SELECT pg_advisory_xact_lock(1937138551, 12), pg_advisory_xact_lock(('x' || left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 16))::bit(64)::bigint)`, [token]);
      const owner = (await waiting.query(`SELECT oid::text FROM pg_roles WHERE rolname = current_user`)).rows[0].oid;
      const pid = (await waiting.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const submit = (request: Record<string, unknown>) =>
        sync.query('SELECT svc__sync_submit($1) AS ids', [{
          caller: 'svc_generate_choice', function_name: 'generate_many', requests: [request], owner_id: owner, pid, waiter: 12, token, max_queue_size: 1000,
        }]);
      // Choices of at most 3 bytes decode 4 tokens at most: 64 prompts fit 512 tokens, 65 prompts do not fit the request.
      const choice = (prompts: string[], rest: Record<string, unknown> = {}) =>
        ({ function: 'generate_choice', prompts, choices: ['yes', 'no'], max_tokens: 512, use_cache: false, seed: 42, prompt_format: 'raw', ...rest });
      await expect(submit(choice(Array.from({ length: 65 }, (_, i) => `p${i}`)))).rejects.toMatchObject({ code: '54000', message: expect.stringMatching(/^svc_generate_choice: prompts /) });
      await expect(submit(choice(['a'.repeat(10_000), 'b'.repeat(10_000)]))).rejects.toMatchObject({
        code: '54000', message: 'svc_generate_choice: prompts must hold at most 16384 characters in all, or be one prompt',
      });
      // 2 prompts of max_tokens 300 may decode 600 tokens: refused; one alone is one request's.
      const json = (prompts: string[]) => ({ function: 'generate_json', prompts, schema: { type: 'integer' }, max_tokens: 300, use_cache: false, seed: 42, prompt_format: 'raw' });
      await expect(submit(json(['one', 'two']))).rejects.toMatchObject({ code: '54000', message: expect.stringMatching(/^svc_generate_choice: prompts must decode at most 512 tokens in all/) });
      await expect(submit(choice([]))).rejects.toMatchObject({ code: '22023', message: 'svc_generate_choice: prompts must not be empty' });
      await expect(submit(choice(['x'], { function: 'embed' }))).rejects.toMatchObject({ code: '22023', message: expect.stringMatching(/^svc_generate_choice: function must be one of generate, generate_json/) });
      await expect(submit({ function: 'generate', prompts: ['x'], max_tokens: 8, use_cache: false, seed: 42, prompt_format: 'raw', stream: true })).rejects.toMatchObject({ code: '22023' });
      await expect(submit(choice(['x'], { choices: [] }))).rejects.toMatchObject({ message: expect.stringMatching(/^svc_generate_choice: choices /) });
      const [alone] = (await submit(json(['one']))).rows[0].ids;
      const ids = (await submit(choice(['one', 'two', 'three'], { unknown_key: 'dropped' }))).rows[0].ids;
      const rows = (await su.query(`SELECT function_name, inputs, owner::text, grammar IS NOT NULL AS constrained, parameters ? 'unknown_key' AS kept FROM svc_queue WHERE request_id = ANY ($1) ORDER BY seq`, [[alone, ...ids]])).rows;
      expect(rows).toEqual([
        { function_name: 'generate_many', inputs: 1, owner: 'alice', constrained: true, kept: false },
        { function_name: 'generate_many', inputs: 3, owner: 'alice', constrained: true, kept: false },
      ]);
      await su.query(`DELETE FROM svc_queue WHERE request_id = ANY ($1)`, [[alone, ...ids]]);
    } finally {
      await waiting.query('ROLLBACK');
      await waiting.end();
      await sync.end();
    }
  });
  test('logged in as svc_sync while alice waits: without her call\'s token, none of its requests is read, cancelled or added to', async () => {
    const waiting = await svc().connect(ROLES.alice);
    const pid = (await waiting.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    // REPEATABLE READ: the call reads its requests' states through the autonomous session, statement after statement.
    await waiting.query(`BEGIN ISOLATION LEVEL REPEATABLE READ; SET LOCAL svc.sync_timeout = '4s'`);
    const call = waiting.query(`SELECT svc_generate_choice('alice waits with a secret', ARRAY['a', 'b'], use_cache := false)`).then(
      () => undefined, (e: { code?: string }) => e.code);
    let ids: string[] = [];
    await eventually('alice\'s request', async () => {
      ids = (await su.query(`SELECT request_id FROM svc_queue WHERE owner = 'alice'::regrole AND status = 'pending' AND waiter IS NOT NULL`)).rows.map((r) => r.request_id);
      return ids.length > 0;
    });
    const { waiter } = (await su.query('SELECT waiter FROM svc_queue WHERE request_id = $1', [ids[0]])).rows[0];
    const sync = await svc().connect('svc_sync');
    // What another login as svc_sync could learn of the call: its locks (pg_locks), not the statements of its session.
    const activity = (await sync.query(`SELECT query, state FROM pg_stat_activity WHERE usename = 'svc_sync' AND application_name LIKE 'svc\\_sync%'`)).rows;
    expect(activity.length).toBeGreaterThan(0);
    for (const row of activity) expect(row).toEqual({ query: '', state: 'disabled' });
    const guess = (await sync.query(`SELECT encode(sha256(convert_to(random()::text, 'UTF8')), 'hex') AS t`)).rows[0].t;
    expect((await sync.query('SELECT * FROM svc__sync_state($1::uuid[], $2)', [ids, guess])).rows).toEqual([]);
    expect((await sync.query('SELECT svc__sync_cancel($1::uuid[], $2) AS n', [ids, guess])).rows[0].n).toBe(0);
    const forged = {
      caller: 'svc_generate', function_name: 'generate', parameters: { prompt: 'forged', max_tokens: 4, use_cache: false, seed: 42, prompt_format: 'chat' },
      owner_id: (await alice.query(`SELECT oid::text FROM pg_roles WHERE rolname = current_user`)).rows[0].oid, pid, waiter, token: guess, max_queue_size: 1000,
    };
    await expect(sync.query('SELECT svc__sync_submit($1)', [forged])).rejects.toMatchObject({ code: '42501' });
    expect((await su.query(`SELECT status FROM svc_queue WHERE request_id = ANY ($1)`, [ids])).rows.map((r) => r.status)).toEqual(ids.map(() => 'pending'));
    expect((await su.query(`SELECT count(*)::int AS n FROM svc_queue WHERE parameters->>'prompt' = 'forged'`)).rows[0].n).toBe(0);
    // The call itself went on to its own end (no worker: a timeout), and cancelled its request with its token.
    expect(await call).toBe('SV003');
    await waiting.query('ROLLBACK');
    expect((await su.query(`SELECT status FROM svc_queue WHERE request_id = ANY ($1)`, [ids])).rows.map((r) => r.status)).toEqual(ids.map(() => 'cancelled'));
  }, 30_000);

  test('svc_sync may run only the three functions of the autonomous session among svc\'s internals', async () => {
    const { rows } = await su.query(`SELECT p.proname FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
      JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'svc'
      WHERE p.proname LIKE 'svc\\_\\_%' AND has_function_privilege('svc_sync', p.oid, 'EXECUTE') ORDER BY 1`);
    expect(rows.map((r) => r.proname)).toEqual(['svc__bundle', 'svc__cosine_distance_lower_bound', 'svc__sync_cancel', 'svc__sync_state', 'svc__sync_submit']);
  });
});
