// Least privilege as a second wall (issue 43, point 4): svc's tables and functions belong to svc_owner
// (NOLOGIN, no attribute, no membership), not to the superuser who ran CREATE EXTENSION, but for the
// functions docs/security.md lists with the reason ("Who owns svc's objects"). A slip in code that runs
// with svc's owner's rights then yields svc's rights, not the cluster's: this file plays such a slip
// (SET ROLE svc_owner) and checks what it could not do.
import type pg from 'pg';
import { readFileSync } from 'node:fs';
import { ROLES, useSvc } from '../helpers/svc.js';

const svc = useSvc();
let su: pg.Client;

/** The functions docs/security.md says stay the superuser's: the first column of its table under "Who owns svc's objects". */
function documentedSuperuserFunctions(): string[] {
  const text = readFileSync('docs/security.md', 'utf8');
  const start = text.indexOf("\n## Who owns svc's objects\n");
  expect(start).toBeGreaterThan(0);
  const section = text.slice(start + 1, text.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^\| `(svc_\w+)` \|/gm)].map((m) => m[1]).sort();
}

// Every function, aggregate and relation of the extension, with its owner's attributes and memberships.
const OWNERS = `
  SELECT x.kind, x.name, x.definer, r.rolname AS owner, r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolreplication, r.rolbypassrls, r.rolcanlogin,
         (SELECT count(*)::int FROM pg_auth_members m WHERE m.member = r.oid OR m.roleid = r.oid) AS memberships
  FROM (
    SELECT CASE p.prokind WHEN 'a' THEN 'aggregate' ELSE 'function' END AS kind, p.proname::text AS name, p.prosecdef AS definer, p.proowner AS owner
    FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'svc'
    UNION ALL
    SELECT 'relation', c.relname::text, false, c.relowner
    FROM pg_class c JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'svc'
  ) x JOIN pg_roles r ON r.oid = x.owner
  ORDER BY x.kind, x.name`;

beforeAll(async () => {
  su = await svc().connect();
});

test("svc's functions (SECURITY DEFINER ones first) with their owner's attributes: svc_owner's (powerless), or the superuser's as docs/security.md lists them", async () => {
  const rows = (await su.query(OWNERS)).rows;
  const definers = rows.filter((r) => r.kind === 'function' && r.definer);
  expect(definers.length).toBeGreaterThan(60);
  expect(definers.filter((r) => r.owner !== 'svc_owner').length).toBeGreaterThan(0);
  const superuserOwned = rows.filter((r) => r.owner !== 'svc_owner');
  for (const r of superuserOwned) expect({ name: r.name, kind: r.kind, rolsuper: r.rolsuper }).toEqual({ name: r.name, kind: 'function', rolsuper: true });
  expect([...new Set(superuserOwned.map((r) => r.name))].sort()).toEqual(documentedSuperuserFunctions());
  // Every other function and aggregate, and every table, view and sequence: svc_owner's, and svc_owner can do nothing else.
  for (const r of rows.filter((x) => !superuserOwned.includes(x))) {
    expect({ kind: r.kind, name: r.name, owner: r.owner }).toEqual({ kind: r.kind, name: r.name, owner: 'svc_owner' });
  }
  const owner = rows.find((r) => r.owner === 'svc_owner');
  expect(owner).toMatchObject({ rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolreplication: false, rolbypassrls: false, rolcanlogin: false, memberships: 0 });
});

test('svc_owner may not log in, create in any schema, or use dblink; it may run svc__sync_dblink, which it cannot change', async () => {
  const { rows } = await su.query(`SELECT
    (SELECT bool_or(has_schema_privilege('svc_owner', n.oid, 'CREATE')) FROM pg_namespace n) AS may_create,
    has_database_privilege('svc_owner', current_database(), 'CREATE') AS may_create_schema,
    (SELECT bool_or(has_function_privilege('svc_owner', p.oid, 'EXECUTE')) FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
       JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'dblink') AS may_dblink,
    has_function_privilege('svc_owner', 'svc__sync_dblink(text, jsonb, text, text)', 'EXECUTE') AS may_sync`);
  expect(rows[0]).toEqual({ may_create: false, may_create_schema: false, may_dblink: false, may_sync: true });
  await expect(svc().connect('svc_owner')).rejects.toThrow(/not permitted to log in/);
});

describe('a slip that runs code as svc_owner gets svc\'s rights, not the cluster\'s', () => {
  let slip: pg.Client;
  beforeAll(async () => {
    await su.query(`CREATE ROLE eve LOGIN; CREATE SCHEMA eve AUTHORIZATION eve`);
    slip = await svc().connect();
    await slip.query('SET ROLE svc_owner');
  });

  test.each([
    ['become superuser', `ALTER ROLE eve SUPERUSER`, /permission denied|must be superuser/],
    ['create a role', `CREATE ROLE evil`, /permission denied to create role/],
    ['join a role', `GRANT pg_execute_server_program TO svc_owner`, /permission denied|must have admin option/],
    ['run a program', `COPY (SELECT 1) TO PROGRAM 'true'`, /permission denied|must be superuser|pg_execute_server_program/],
    ['read a server file', `SELECT pg_read_file('postgresql.conf')`, /permission denied/],
    ['connect without a password', `SELECT dblink_connect_u('x', 'user=postgres')`, /permission denied for function dblink_connect_u/],
    ['open a session as anyone else', `SELECT * FROM dblink('user=postgres dbname=postgres', 'SELECT 1') AS t(x int)`, /permission denied for function dblink/],
    ['have the sync door connect as another user', `SELECT svc__sync_dblink('run_once', '{"user": "postgres"}', 'x', 'SELECT 1')`, /the target may not set "?user/],
    ['rewrite the sync door', `CREATE OR REPLACE FUNCTION svc__sync_dblink(text, jsonb, text, text) RETURNS SETOF text LANGUAGE sql AS $$ SELECT 'x' $$`, /permission denied for schema|must be owner/],
    ['change the sync door\'s settings', `ALTER FUNCTION svc__sync_dblink(text, jsonb, text, text) SET search_path = eve`, /must be owner/],
    ['put a function in svc\'s schema', `CREATE FUNCTION public.svc_evil() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$`, /permission denied for schema public/],
    ['create in a role\'s schema', `CREATE TABLE eve.t (x int)`, /permission denied for schema eve/],
    ['read another role\'s table', `SELECT * FROM pg_authid`, /permission denied/],
    ['set a superuser-only setting', `SET track_activities = off`, /permission denied to set parameter/],
  ])('it cannot %s', async (_what, sql, error) => {
    await expect(slip.query(sql)).rejects.toThrow(error);
    const eve = (await su.query(`SELECT rolsuper, rolcreaterole FROM pg_roles WHERE rolname = 'eve'`)).rows[0];
    expect(eve).toEqual({ rolsuper: false, rolcreaterole: false });
    expect((await su.query(`SELECT count(*)::int AS n FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member WHERE r.rolname IN ('svc_owner', 'eve')`)).rows[0].n).toBe(0);
  });

  test('what it attaches to svc\'s tables is refused by the superuser\'s functions before they touch them, and never runs as the superuser', async () => {
    const eve = await svc().connect('eve');
    await su.query(`CREATE TABLE public.h43_ran (who text); GRANT INSERT ON public.h43_ran TO PUBLIC`);
    await eve.query(`CREATE TABLE eve.docs (id int PRIMARY KEY, body text); INSERT INTO eve.docs VALUES (1, 'x'); GRANT USAGE ON SCHEMA eve TO PUBLIC`);
    // Who ran eve's code, but eve and svc_owner (the slip itself, e.g. checking its constraint). (An index it
    // may not make: that needs CREATE on the schema.)
    const ranAsOthers = async () => (await su.query(`SELECT who FROM public.h43_ran WHERE who NOT IN ('eve', 'svc_owner')`)).rows;
    await eve.query(`CREATE FUNCTION eve.note() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        INSERT INTO public.h43_ran VALUES (current_user); BEGIN EXECUTE 'ALTER ROLE eve SUPERUSER'; EXCEPTION WHEN OTHERS THEN NULL; END; RETURN NULL; END $$;
      CREATE FUNCTION eve.stamp() RETURNS timestamptz LANGUAGE plpgsql AS $$ BEGIN
        INSERT INTO public.h43_ran VALUES (current_user); BEGIN EXECUTE 'ALTER ROLE eve SUPERUSER'; EXCEPTION WHEN OTHERS THEN NULL; END; RETURN now(); END $$;
      CREATE FUNCTION eve.key(text) RETURNS text LANGUAGE plpgsql AS $$ BEGIN
        INSERT INTO public.h43_ran VALUES (current_user); RETURN $1; END $$`);
    const attachments: Array<[string, string, RegExp]> = [
      ['a trigger', `CREATE TRIGGER h43 AFTER INSERT ON svc_vectorizers FOR EACH ROW EXECUTE FUNCTION eve.note()`, /svc_vectorizers: trigger h43/],
      ['a default', `ALTER TABLE svc_vectorizers ALTER COLUMN created_at SET DEFAULT eve.stamp()`, /svc_vectorizers: a default uses function eve\.stamp/],
      ['a constraint', `ALTER TABLE svc_models ADD CONSTRAINT h43 CHECK (eve.key(name) IS NOT NULL)`, /svc_models: a constraint uses function eve\.key/],
      ['a trigger on the queue', `CREATE TRIGGER h43 AFTER UPDATE ON svc_queue FOR EACH STATEMENT EXECUTE FUNCTION eve.note()`, /svc_queue: trigger h43/],
    ];
    for (const [what, attach, named] of attachments) {
      await slip.query(attach);
      try {
        await expect(eve.query(`SELECT svc_vectorize('eve.docs', 'body', 'h43_docs')`)).rejects.toMatchObject({
          code: '55000', message: expect.stringMatching(named),
        });
        await expect(eve.query(`SELECT svc_vectorize_drop('h43_docs')`)).rejects.toMatchObject({ code: '55000' });
      } finally {
        await su.query(`DROP TRIGGER IF EXISTS h43 ON svc_vectorizers; DROP TRIGGER IF EXISTS h43 ON svc_queue; ALTER TABLE svc_models DROP CONSTRAINT IF EXISTS h43;
          ALTER TABLE svc_vectorizers ALTER COLUMN created_at SET DEFAULT now()`);
      }
      expect({ what, ran: await ranAsOthers() }).toEqual({ what, ran: [] });
    }
    // As svc made them, the tables let the declaration through (it fails later only for want of a worker's model, or succeeds).
    await eve.query(`SELECT svc_vectorize('eve.docs', 'body', 'h43_docs')`).catch((e: { code?: string }) => expect(e.code).not.toBe('55000'));
    expect(await ranAsOthers()).toEqual([]);
  });

  test('it has what svc needs: svc\'s tables, through which the SECURITY DEFINER functions work as before', async () => {
    expect((await slip.query(`SELECT count(*) >= 0 AS ok FROM svc_queue`)).rows[0].ok).toBe(true);
    const alice = await svc().connect(ROLES.alice);
    const id = (await alice.query(`SELECT svc_generate_async('owned by svc_owner') AS id`)).rows[0].id;
    expect((await alice.query(`SELECT status FROM svc_check_async($1)`, [id])).rows).toEqual([{ status: 'pending' }]);
    expect((await alice.query(`SELECT svc_cancel_async($1) AS ok`, [id])).rows[0].ok).toBe(true);
  });
});

test('an svc_owner with more than NOLOGIN is refused at install', async () => {
  await su.query('CREATE DATABASE h43_owner');
  await su.query('ALTER ROLE svc_owner CREATEROLE');
  const other = await svc().cluster.connect('h43_owner');
  try {
    await expect(other.query('CREATE EXTENSION svc CASCADE')).rejects.toThrow(/role svc_owner must be NOLOGIN with no other attribute and no membership/);
  } finally {
    await other.end();
    await su.query('ALTER ROLE svc_owner NOCREATEROLE');
  }
});
