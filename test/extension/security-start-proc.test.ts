// plv8.start_proc, attacked as an ordinary role (issue 43, escalation 4): the start proc runs when a
// role's plv8 context is created, with that role's rights, and a SECURITY DEFINER plv8 function
// creates its owner's context. Every svc function pins it empty (a function-level SET, in force before
// the handler runs), so a start proc of eve's never runs as anyone but eve: not where plv8-compat
// refuses her the setting, not where she may set it (the genuine plv8 lets any role; here a GRANT SET
// ON PARAMETER gives her the same), not through ALTER ROLE eve SET.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';

const svc = useSvc();
let su: pg.Client;

/** eve's role as pg_roles has it, and the roles she is a member of. */
const ROLE_STATE = `SELECT (to_jsonb(r) - 'rolconfig')::text AS attributes,
  (SELECT coalesce(array_agg(m.roleid::regrole::text ORDER BY 1), '{}') FROM pg_auth_members m WHERE m.member = r.oid) AS member_of
  FROM pg_roles r WHERE r.rolname = 'eve'`;
let eveBefore: unknown;

// svc's SECURITY DEFINER plv8 functions and others eve may call, on ids and inputs of no consequence.
const CALLS = [
  `SELECT svc_cancel_async(gen_random_uuid())`,
  `SELECT svc_generate_async('start proc probe')`,
  `SELECT * FROM svc_check_async(gen_random_uuid())`,
  `SELECT * FROM svc_queue_stats()`,
  `SELECT * FROM svc_worker_status()`,
  `SELECT * FROM svc_vectorizer_status()`,
  `SELECT * FROM svc_prompt_list()`,
  `SELECT svc_get_async_result(gen_random_uuid(), 0)`,
];

// Whom eve's start proc ran as, in the order it ran: it says so in a NOTICE, which no rollback takes back.
let ran: string[] = [];
function listen(client: pg.Client): pg.Client {
  client.on('notice', (n) => {
    const who = /^eve\.sp ran as (.*)$/.exec(n.message ?? '')?.[1];
    if (who) ran.push(who);
  });
  return client;
}

/** A new backend as eve (no plv8 context yet), with `setup` run first. */
async function freshEve(setup?: string): Promise<pg.Client> {
  const eve = listen(await svc().connect('eve'));
  if (setup) await eve.query(setup);
  return eve;
}

async function callEverything(eve: pg.Client): Promise<void> {
  for (const sql of CALLS) await eve.query(sql).catch(() => undefined); // refusals are fine: only what ran matters
}

/**
 * Whom eve's start proc ran as since the last call, but `self` (svc's SECURITY INVOKER functions run in
 * the caller's own context, as the caller: that is the setting doing what its setter asked).
 */
function ranAs(self?: string): string[] {
  const seen = ran.filter((who) => who !== self);
  ran = [];
  return seen;
}

beforeAll(async () => {
  su = await svc().connect();
  await su.query(`CREATE ROLE eve LOGIN; CREATE SCHEMA eve AUTHORIZATION eve`);
  const eve = await svc().connect('eve');
  await eve.query(`GRANT USAGE ON SCHEMA eve TO PUBLIC`);
  // Says whom it runs as and tries to take what that role could give.
  await eve.query(`CREATE FUNCTION eve.sp() RETURNS void LANGUAGE plv8 AS $$
    plv8.elog(NOTICE, 'eve.sp ran as ' + plv8.execute('SELECT current_user AS u')[0].u);
    try { plv8.execute('ALTER ROLE eve SUPERUSER CREATEROLE BYPASSRLS'); } catch (e) { /* not as eve */ }
    try { plv8.execute('GRANT svc_admin, svc_worker TO eve'); } catch (e) { /* not as eve */ }
  $$`);
  await eve.query(`GRANT EXECUTE ON FUNCTION eve.sp() TO PUBLIC`);
  eveBefore = (await su.query(ROLE_STATE)).rows[0];
});

afterEach(async () => {
  // No attack left eve anything: no attribute, no membership.
  expect((await su.query(ROLE_STATE)).rows[0]).toEqual(eveBefore);
});

test('plv8-compat: an ordinary role may not set plv8.start_proc, for its session or its role', async () => {
  // Before plv8 is loaded in the backend the name is a placeholder, which PostgreSQL lets anyone SET;
  // plv8's loading (at svc's first call here) drops a non-superuser's value of a superuser-only setting.
  const early = await freshEve(`SET plv8.start_proc = 'eve.sp'`);
  await callEverything(early);
  expect(ranAs('eve')).toEqual([]);
  expect((await early.query(`SHOW plv8.start_proc`)).rows[0]['plv8.start_proc']).toBe('');
  const eve = await freshEve(`DO $$ $$ LANGUAGE plv8`);
  await expect(eve.query(`SET plv8.start_proc = 'eve.sp'`)).rejects.toThrow(/permission denied to set parameter "plv8.start_proc"/);
  await expect(eve.query(`SELECT set_config('plv8.start_proc', 'eve.sp', false)`)).rejects.toThrow(/permission denied to set parameter/);
  await expect(eve.query(`ALTER ROLE eve SET plv8.start_proc = 'eve.sp'`)).rejects.toThrow(/permission denied to set parameter "plv8.start_proc"/);
  await callEverything(eve);
  expect(ranAs('eve')).toEqual([]);
});

describe('where eve may set it (as on the genuine plv8)', () => {
  beforeAll(async () => {
    await su.query(`GRANT SET ON PARAMETER plv8.start_proc TO eve`);
  });
  afterAll(async () => {
    await su.query(`ALTER ROLE eve RESET plv8.start_proc; REVOKE SET ON PARAMETER plv8.start_proc FROM eve`);
  });

  test('the attack works on a SECURITY DEFINER plv8 function that does not pin it (so this test can fail)', async () => {
    await su.query(`CREATE FUNCTION public.h43_unpinned() RETURNS int LANGUAGE plv8 SECURITY DEFINER AS $$ return 1; $$;
      CREATE FUNCTION public.h43_pinned() RETURNS int LANGUAGE plv8 SECURITY DEFINER SET plv8.start_proc = '' AS $$ return 1; $$`);
    try {
      await (await freshEve(`SET plv8.start_proc = 'eve.sp'`)).query(`SELECT public.h43_pinned()`);
      expect(ranAs('eve')).toEqual([]);
      // The same without the pin: the superuser's context is created with eve's start proc, which runs as the superuser.
      await (await freshEve(`SET plv8.start_proc = 'eve.sp'`)).query(`SELECT public.h43_unpinned()`);
      expect(ranAs()).toEqual([su.user]);
    } finally {
      await su.query(`DROP FUNCTION public.h43_unpinned(); DROP FUNCTION public.h43_pinned()`);
      // The unpinned function ran eve.sp as the superuser: undo what it took (the attributes are checked after each test).
      await su.query(`ALTER ROLE eve NOSUPERUSER NOCREATEROLE NOBYPASSRLS; REVOKE svc_admin, svc_worker FROM eve`);
    }
  });

  test('SET plv8.start_proc, then svc\'s functions in a fresh backend: the start proc never runs', async () => {
    const eve = await freshEve(`SET plv8.start_proc = 'eve.sp'`);
    await callEverything(eve);
    expect(ranAs('eve')).toEqual([]);
    // The setting works: eve's own plv8 function, first in a fresh backend, runs it (as eve).
    await eve.query(`CREATE FUNCTION eve.own() RETURNS int LANGUAGE plv8 AS $$ return 1; $$`);
    await (await freshEve(`SET plv8.start_proc = 'eve.sp'`)).query(`SELECT eve.own()`);
    expect(ranAs()).toEqual(['eve']);
  });

  test('ALTER ROLE eve SET plv8.start_proc, then svc\'s functions in a fresh backend: the start proc never runs', async () => {
    await (await freshEve()).query(`ALTER ROLE eve SET plv8.start_proc = 'eve.sp'`);
    const eve = await freshEve();
    expect((await eve.query(`SHOW plv8.start_proc`)).rows[0]['plv8.start_proc']).toBe('eve.sp');
    await callEverything(eve);
    expect(ranAs('eve')).toEqual([]);
  });

  test('an svc_worker member and an svc_admin member calling svc with eve\'s start proc set do not run it either', async () => {
    for (const role of [ROLES.worker, ROLES.admin]) {
      await su.query(`GRANT SET ON PARAMETER plv8.start_proc TO ${role}`);
      const other = listen(await svc().connect(role));
      await other.query(`SET plv8.start_proc = 'eve.sp'`);
      await callEverything(other);
      await other.query(`SELECT * FROM svc_worker_claim('h43', 1, 30)`).catch(() => undefined);
      await su.query(`REVOKE SET ON PARAMETER plv8.start_proc FROM ${role}`);
      expect(ranAs(role)).toEqual([]);
    }
  });
});

test('every SECURITY DEFINER svc function pins plv8.start_proc empty; every svc function pins standard_conforming_strings on', async () => {
  // svc.so's C functions run no SQL and no JavaScript: no settings (security.test.ts holds their list).
  const { rows } = await su.query(`SELECT p.proname, p.prosecdef, p.proconfig FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'svc' WHERE p.prokind <> 'a' AND p.prolang <> (SELECT oid FROM pg_language WHERE lanname = 'c')`);
  expect(rows.filter((r) => r.prosecdef).length).toBeGreaterThan(40);
  for (const { proname, prosecdef, proconfig } of rows) {
    const config = (proconfig as string[] | null) ?? [];
    expect({ proname, pinned: config.filter((c) => /^(plv8\.start_proc|standard_conforming_strings)=/.test(c)) })
      .toEqual({ proname, pinned: prosecdef ? ['standard_conforming_strings=on', 'plv8.start_proc='] : ['standard_conforming_strings=on'] });
  }
});
