// Issue #43's vectorizer escalations, attacked as an ordinary role `eve` (no svc_admin, owns only her
// schema) against a real worker: her code reached through a vectorizer (a cast of her type in a
// format field, her key type's cast to json, her trigger on her destination) runs as her proxy and
// never as svc's owner; names made of SQL text stay names under standard_conforming_strings = off;
// the proxy's functions, altered by her code, are refused rather than run with svc's rights. After
// each: eve gained no attribute or membership, and where the attack is harmless the rows are embedded.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';
import { STORIES_MODEL } from '../helpers/real-models.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let db: pg.Client;
let eve: pg.Client;
let worker: WorkerProcess | undefined;
let proxy: string;

beforeAll(async () => {
  db = await svc().connect();
  await db.query(`CREATE ROLE eve LOGIN; CREATE SCHEMA eve AUTHORIZATION eve`);
  eve = await svc().connect('eve');
  // Where eve's functions record who ran them: a table only she (and so her proxy) may write.
  await eve.query(`CREATE TABLE eve.seen (what text, current_role_name name, session_role_name name, super boolean)`);
  await eve.query(`CREATE FUNCTION eve.record(what text) RETURNS void LANGUAGE sql AS
    $$ INSERT INTO eve.seen SELECT what, current_user, session_user, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) $$`);
  proxy = `svc_vectorizer_${(await db.query(`SELECT oid::text FROM pg_roles WHERE rolname = 'eve'`)).rows[0].oid}`;
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2' }, STORIES_MODEL);
  await eventually('the worker to heartbeat', async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0);
}, 60_000);
afterAll(async () => {
  await worker?.stop();
});

interface Status {
  rows_pending: string;
  rows_done: string;
  rows_failed: string;
  last_error: string | null;
}

const settled = (name: string) =>
  eventually(
    `vectorizer ${name} to catch up`,
    async () => {
      const s = (await eve.query<Status>(`SELECT * FROM svc_vectorizer_status() WHERE name = $1`, [name])).rows[0];
      return s && Number(s.rows_pending) === 0 ? s : undefined;
    },
    60_000,
  );

/** Who ran eve's functions for `what`, and that none of them was a superuser or anyone but her proxy. */
async function ranOnlyAsProxy(what: string): Promise<number> {
  const seen = (await db.query(`SELECT current_role_name AS role, super FROM eve.seen WHERE what = $1`, [what])).rows;
  for (const s of seen) expect(s).toEqual({ role: proxy, super: false });
  return seen.length;
}

/** eve and her proxy are as they were made: no attribute, no membership beyond proxy -> eve, nobody a member of the proxy. */
async function nothingGained(): Promise<void> {
  const attributes = `SELECT rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls FROM pg_roles WHERE rolname = $1`;
  const none = { rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolreplication: false, rolbypassrls: false };
  expect((await db.query(attributes, ['eve'])).rows).toEqual([none]);
  expect((await db.query(attributes, [proxy])).rows).toEqual([none]);
  expect((await db.query(`SELECT roleid::regrole::text AS role FROM pg_auth_members WHERE member = 'eve'::regrole`)).rows).toEqual([]);
  expect((await db.query(`SELECT roleid::regrole::text AS role FROM pg_auth_members WHERE member = $1::regrole`, [proxy])).rows).toEqual([{ role: 'eve' }]);
  expect((await db.query(`SELECT count(*)::int AS n FROM pg_auth_members WHERE roleid = $1::regrole`, [proxy])).rows[0].n).toBe(0);
}

test("a cast of eve's composite type to text in a format field runs as her proxy, at the backfill and at every insert; the rows are embedded", async () => {
  await eve.query(`CREATE TYPE eve.t AS (a integer, b text);
    CREATE FUNCTION eve.f(eve.t) RETURNS text LANGUAGE plpgsql AS $$ BEGIN PERFORM eve.record('cast'); RETURN 'label ' || $1.b; END $$;
    CREATE CAST (eve.t AS text) WITH FUNCTION eve.f(eve.t);
    CREATE TABLE eve.docs (id integer PRIMARY KEY, label eve.t, body text);
    INSERT INTO eve.docs VALUES (1, ROW(1, 'one'), 'Once upon a time there was a cat.'), (2, ROW(2, 'two'), 'The dog ran fast.')`);
  expect((await eve.query(`SELECT svc_vectorize('eve.docs', 'body', 'docs', format := '$label: $chunk') AS n`)).rows[0].n).toBe('2');
  expect(await ranOnlyAsProxy('cast')).toBeGreaterThanOrEqual(2);
  await eve.query(`INSERT INTO eve.docs VALUES (3, ROW(3, 'three'), 'A bird sang.')`);
  expect(await ranOnlyAsProxy('cast')).toBeGreaterThanOrEqual(3);
  expect(await settled('docs')).toMatchObject({ rows_done: '3', rows_failed: '0' });
  // The text embedded is the cast's: the template's field came from eve.f.
  const [stored] = (await eve.query(`SELECT embedding FROM eve.docs_chunks WHERE id = 3`)).rows;
  expect(stored.embedding).toEqual((await eve.query(`SELECT svc_embed('label three: A bird sang.', use_cache := false) AS e`)).rows[0].e);
  await nothingGained();
}, 120_000);

test("eve's enum key with a cast to json: jsonb_build_object of the key runs it as her proxy (backfill, insert, update, delete); the rows are embedded", async () => {
  await eve.query(`CREATE TYPE eve.e AS ENUM ('north', 'south', 'west');
    CREATE FUNCTION eve.g(eve.e) RETURNS json LANGUAGE plpgsql AS $$ BEGIN PERFORM eve.record('key'); RETURN to_json($1::text); END $$;
    CREATE CAST (eve.e AS json) WITH FUNCTION eve.g(eve.e);
    CREATE TABLE eve.regions (region eve.e PRIMARY KEY, body text);
    INSERT INTO eve.regions VALUES ('north', 'Snow fell all night.'), ('south', 'The sun was hot.')`);
  // A btree operator class of her own for the key's ordering is out of her reach: CREATE OPERATOR CLASS is a superuser's.
  await expect(eve.query(`CREATE OPERATOR CLASS eve.e_ops FOR TYPE eve.e USING btree AS FUNCTION 1 enum_cmp(anyenum, anyenum)`)).rejects.toMatchObject({
    code: '42501',
  });
  await eve.query(`SELECT svc_vectorize('eve.regions', 'body', 'regions')`);
  const atBackfill = await ranOnlyAsProxy('key');
  expect(atBackfill).toBeGreaterThanOrEqual(2);
  await eve.query(`INSERT INTO eve.regions VALUES ('west', 'Wind in the hills.')`);
  await eve.query(`UPDATE eve.regions SET body = 'Wind in the high hills.' WHERE region = 'west'`);
  await settled('regions');
  await eve.query(`DELETE FROM eve.regions WHERE region = 'south'`);
  expect(await ranOnlyAsProxy('key')).toBeGreaterThan(atBackfill);
  expect(await settled('regions')).toMatchObject({ rows_done: '2', rows_failed: '0' });
  expect((await eve.query(`SELECT region::text FROM eve.regions_chunks ORDER BY region`)).rows.map((r) => r.region)).toEqual(['north', 'west']);
  await nothingGained();
}, 120_000);

test("eve's domain key with a check of hers: the writer converts keys into it as her proxy, in the worker's completion", async () => {
  await eve.query(`CREATE FUNCTION eve.positive(integer) RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN PERFORM eve.record('domain'); RETURN $1 > 0; END $$;
    CREATE DOMAIN eve.d AS integer CHECK (eve.positive(VALUE));
    CREATE TABLE eve.checked (id eve.d PRIMARY KEY, body text); INSERT INTO eve.checked VALUES (1, 'one'), (2, 'two')`);
  // Her own inserts checked the domain as her; what follows is the vectorizer's.
  await eve.query(`DELETE FROM eve.seen WHERE what = 'domain'`);
  await eve.query(`SELECT svc_vectorize('eve.checked', 'body', 'checked')`);
  expect(await settled('checked')).toMatchObject({ rows_done: '2', rows_failed: '0' });
  expect(await ranOnlyAsProxy('domain')).toBeGreaterThan(0);
  expect((await db.query(`SELECT DISTINCT session_role_name AS s FROM eve.seen WHERE what = 'domain'`)).rows).toEqual([{ s: ROLES.worker }]);
  await nothingGained();
}, 120_000);

test('names made of SQL text, declared under standard_conforming_strings = off with check_function_bodies = off, stay names: nothing of them runs', async () => {
  await eve.query(`CREATE FUNCTION eve.evil() RETURNS integer LANGUAGE sql AS $$ SELECT eve.record('evil'); SELECT 1 $$`);
  const sneaky = ', 1)) AS item, eve.evil() AS ord FROM eve.inject r --';
  await eve.query(`SET standard_conforming_strings = off; SET check_function_bodies = off`);
  try {
    await eve.query(`CREATE TABLE eve.inject (id integer PRIMARY KEY, "a\\" text, "${sneaky}" text, body text)`);
    await eve.query(`INSERT INTO eve.inject VALUES (1, 'A', 'B', 'The end.')`);
    const format = `\${a\\} \${${sneaky}} $chunk`;
    expect((await eve.query(`SELECT svc_vectorize('eve.inject', 'body', 'inject', format := $1) AS n`, [format])).rows[0].n).toBe('1');
    await eve.query(`INSERT INTO eve.inject VALUES (2, 'C', 'D', 'Again.')`);
  } finally {
    await eve.query(`RESET standard_conforming_strings; RESET check_function_bodies`);
  }
  expect(await settled('inject')).toMatchObject({ rows_done: '2', rows_failed: '0' });
  expect((await db.query(`SELECT count(*)::int AS n FROM eve.seen WHERE what = 'evil'`)).rows[0].n).toBe(0);
  // The columns were read as named: the embedded text is 'A B The end.'.
  const [stored] = (await eve.query(`SELECT embedding FROM eve.inject_chunks WHERE id = 1`)).rows;
  expect(stored.embedding).toEqual((await eve.query(`SELECT svc_embed('A B The end.', use_cache := false) AS e`)).rows[0].e);
  await nothingGained();
}, 120_000);

/** A vectorizer's writer as DDL names it, qualified (eve's trigger runs under the writer's search_path). */
const writerOf = async (name: string): Promise<string> =>
  (
    await db.query(
      `SELECT format('%I.%I(jsonb, jsonb)', n.nspname, p.proname) AS w FROM svc_vectorizers v JOIN pg_proc p ON p.oid = v.writer JOIN pg_namespace n ON n.oid = p.pronamespace WHERE v.name = $1`,
      [name],
    )
  ).rows[0].w;

test("eve's trigger on her destination runs as her proxy; when it alters the proxy's writer, svc refuses to call it and the rows fail", async () => {
  await eve.query(`CREATE TABLE eve.bait (id integer PRIMARY KEY, body text); INSERT INTO eve.bait VALUES (1, 'first')`);
  await eve.query(`SELECT svc_vectorize('eve.bait', 'body', 'bait')`);
  await settled('bait');
  const writer = await writerOf('bait');
  // Her trigger makes the writer SECURITY INVOKER, so that the next write would run it, and this trigger, as svc's owner.
  await eve.query(`CREATE FUNCTION eve.turn() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM eve.record('trigger'); EXECUTE 'ALTER FUNCTION ${writer} SECURITY INVOKER'; RETURN NULL; END $$;
    CREATE TRIGGER turn AFTER INSERT ON eve.bait_chunks FOR EACH STATEMENT EXECUTE FUNCTION eve.turn()`);
  await eve.query(`UPDATE eve.bait SET body = 'second'`);
  await settled('bait');
  expect((await db.query(`SELECT prosecdef FROM pg_proc WHERE oid = $1::regprocedure`, [writer])).rows[0].prosecdef).toBe(false);
  await eve.query(`UPDATE eve.bait SET body = 'third'`);
  const failed = await settled('bait');
  expect(failed).toMatchObject({ rows_failed: '1' });
  expect(failed.last_error).toMatch(/not as svc made it|must run as svc_vectorizer_/);
  expect(await ranOnlyAsProxy('trigger')).toBe(1);

  // Moved out of svc's schema and replaced by a body of hers (her proxy may create in her schema): svc calls it by its name in svc's schema, which is gone.
  await eve.query(`CREATE TABLE eve.bait2 (id integer PRIMARY KEY, body text); INSERT INTO eve.bait2 VALUES (1, 'first')`);
  await eve.query(`SELECT svc_vectorize('eve.bait2', 'body', 'bait2')`);
  await settled('bait2');
  const writer2 = await writerOf('bait2');
  const name2 = writer2.replace(/^.*\.|\(.*$/g, '');
  await eve.query(`CREATE FUNCTION eve.move() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM eve.record('mover');
      EXECUTE 'ALTER FUNCTION ${writer2} SET SCHEMA eve';
      EXECUTE 'CREATE OR REPLACE FUNCTION eve.${name2}(keys jsonb, chunk_rows jsonb) RETURNS void LANGUAGE sql SECURITY INVOKER AS ''SELECT eve.record(''''replaced'''')''';
      RETURN NULL;
    END $$;
    CREATE TRIGGER move AFTER INSERT ON eve.bait2_chunks FOR EACH STATEMENT EXECUTE FUNCTION eve.move()`);
  await eve.query(`UPDATE eve.bait2 SET body = 'second'`);
  await settled('bait2');
  await eve.query(`UPDATE eve.bait2 SET body = 'third'`);
  expect(await settled('bait2')).toMatchObject({ rows_failed: '1' });
  expect(await ranOnlyAsProxy('mover')).toBe(1);
  expect(await ranOnlyAsProxy('replaced')).toBe(0);
  // The drop finds the moved function all the same.
  await eve.query(`SELECT svc_vectorize_drop('bait2')`);
  expect((await db.query(`SELECT count(*)::int AS n FROM pg_proc WHERE proname LIKE 'svc\\_\\_vz\\_%' AND proname = $1`, [name2])).rows[0].n).toBe(0);
  await nothingGained();
}, 180_000);

test("what eve's code sets in the worker's session while svc writes her destination outlives none of svc's statements, and the session is not used again", async () => {
  // Shadows of what svc's completion calls after the writer, found first on the search_path her code sets.
  await eve.query(`CREATE FUNCTION eve.clock_timestamp() RETURNS timestamptz LANGUAGE sql AS $$ SELECT eve.record('shadow'); SELECT pg_catalog.clock_timestamp() $$;
    CREATE FUNCTION eve.jsonb_array_elements(jsonb) RETURNS SETOF jsonb LANGUAGE sql AS $$ SELECT eve.record('shadow'); SELECT pg_catalog.jsonb_array_elements($1) $$;
    CREATE FUNCTION eve.steal(text, integer, double precision, integer, text[]) RETURNS TABLE (request_id uuid) LANGUAGE sql AS $$ SELECT eve.record('stolen'); SELECT NULL::uuid WHERE false $$;
    GRANT USAGE ON SCHEMA eve TO PUBLIC; GRANT INSERT ON eve.seen TO PUBLIC`);
  await eve.query(`CREATE TABLE eve.session (id integer PRIMARY KEY, body text); INSERT INTO eve.session VALUES (1, 'first')`);
  await eve.query(`SELECT svc_vectorize('eve.session', 'body', 'session')`);
  await settled('session');
  // Her trigger on her destination: runs as her proxy in the worker's session, and leaves it her search_path and her statement under the worker's name.
  await eve.query(`CREATE FUNCTION eve.taint() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM eve.record('taint');
      PERFORM set_config('search_path', 'eve, pg_catalog', false);
      BEGIN EXECUTE 'DEALLOCATE svc_worker_claim'; EXCEPTION WHEN OTHERS THEN NULL; END;
      EXECUTE 'PREPARE svc_worker_claim (text, integer, double precision, integer, text[]) AS SELECT * FROM eve.steal($1, $2, $3, $4, $5)';
      RETURN NULL;
    END $$;
    CREATE TRIGGER taint AFTER INSERT ON eve.session_chunks FOR EACH STATEMENT EXECUTE FUNCTION eve.taint()`);
  await eve.query(`UPDATE eve.session SET body = 'second'`);
  expect(await settled('session')).toMatchObject({ rows_done: '1', rows_failed: '0' });
  expect(await ranOnlyAsProxy('taint')).toBe(1);
  // The worker claims and embeds on: its next job is another role's, done as ever.
  await eve.query(`INSERT INTO eve.session VALUES (2, 'third')`);
  expect(await settled('session')).toMatchObject({ rows_done: '2', rows_failed: '0' });
  expect((await db.query(`SELECT what, current_role_name AS role FROM eve.seen WHERE what IN ('shadow', 'stolen')`)).rows).toEqual([]);
  await nothingGained();
}, 120_000);

test("svc's gate takes only its vectorizer's items from its proxy; nobody else may call it or the proxy's functions", async () => {
  const id = (await db.query(`SELECT id FROM svc_vectorizers WHERE name = 'docs'`)).rows[0].id;
  const alice = await svc().connect(ROLES.alice);
  for (const client of [eve, alice]) {
    for (const call of [`svc__vz_${id}_queue(NULL, '[]', false)`, `svc__vz_${id}_write(NULL, '[]')`]) {
      await expect(client.query(`SELECT ${call}`)).rejects.toMatchObject({ code: '42501' });
    }
  }
  await expect(db.query(`SELECT svc__vz_${id}_queue(NULL, '[{"key": 1}]', false)`)).rejects.toMatchObject({
    code: '22023',
    message: expect.stringMatching(/items must be an array of \{key: object/),
  });
});

test('the work one row may cause is bounded: overlap at most half a chunk, at most 1000 chunks a row (past it the row fails, naming the rule)', async () => {
  await eve.query(`CREATE TABLE eve.long (id integer PRIMARY KEY, body text)`);
  await expect(
    eve.query(`SELECT svc_vectorize('eve.long', 'body', 'long', chunk_by := 'characters', chunk_size := 1000, chunk_overlap := 999)`),
  ).rejects.toMatchObject({ code: '22023', message: 'svc_vectorize: chunk_overlap must be at most half of chunk_size (is 999, chunk_size 1000)' });
  await eve.query(`SELECT svc_vectorize('eve.long', 'body', 'long', chunk_by := 'characters', chunk_size := 2, chunk_overlap := 1, separators := ARRAY[''])`);
  await eve.query(`INSERT INTO eve.long VALUES (1, repeat('ab', 1500)), (2, 'short text')`);
  const s = await settled('long');
  expect(s).toMatchObject({ rows_done: '1', rows_failed: '1' });
  expect(s.last_error).toBe('the text makes 2999 chunks, more than the 1000 one row may make (a larger chunk_size makes fewer)');
  expect((await eve.query(`SELECT DISTINCT id FROM eve.long_chunks`)).rows).toEqual([{ id: 2 }]);
}, 120_000);

test("the worker's job timeout stops a vectorize job: its rows fail with the timeout's error", async () => {
  await eve.query(`CREATE TABLE eve.slow (id integer PRIMARY KEY, body text)`);
  await eve.query(`SELECT svc_vectorize('eve.slow', 'body', 'slow', chunk_by := 'characters', chunk_size := 2, chunk_overlap := 1, separators := ARRAY[''])`);
  await worker!.stop();
  // 999 embeddings in one job (about 2 s on stories260K), against a timeout of 0.3 s and no retry.
  const hurried = startWorker(svc().cluster, { SVC_WORKER_TIMEOUT: '0.3', SVC_WORKER_MAX_RETRIES: '0' }, STORIES_MODEL);
  try {
    await eve.query(`INSERT INTO eve.slow VALUES (1, repeat('ab', 500))`);
    const s = await settled('slow');
    expect(s).toMatchObject({ rows_done: '0', rows_failed: '1' });
    expect(s.last_error).toMatch(/timed out after 0\.3 s \(SVC_WORKER_TIMEOUT\)/);
  } finally {
    await hurried.stop();
    worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2' }, STORIES_MODEL);
  }
}, 120_000);

test("a role whose proxy could create in svc's schema (and so replace the proxy's functions there) is refused", async () => {
  await eve.query(`CREATE TABLE eve.creator (id integer PRIMARY KEY, body text)`);
  await db.query(`GRANT CREATE ON SCHEMA public TO eve`);
  try {
    await expect(eve.query(`SELECT svc_vectorize('eve.creator', 'body', 'creator')`)).rejects.toMatchObject({
      code: '42501',
      message: `svc_vectorize: source cannot be vectorized for role eve: it may create objects in svc's schema "public", where svc keeps the functions that run as it`,
    });
  } finally {
    await db.query(`REVOKE CREATE ON SCHEMA public FROM eve`);
  }
  expect((await eve.query(`SELECT count(*)::int AS n FROM svc_vectorizers WHERE name = 'creator'`)).rows[0].n).toBe(0);
});

test("dropping eve's last vectorizer drops her proxy; what her code made as the proxy becomes hers", async () => {
  await eve.query(`CREATE TABLE eve.leftover (id integer PRIMARY KEY, body text)`);
  await eve.query(`SELECT svc_vectorize('eve.leftover', 'body', 'leftover')`);
  // Her trigger on her destination runs as the proxy, and makes a table in her schema.
  await eve.query(`CREATE FUNCTION eve.make() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN CREATE TABLE IF NOT EXISTS eve.made_by_proxy (x int); RETURN NULL; END $$;
    CREATE TRIGGER make AFTER INSERT ON eve.leftover_chunks FOR EACH STATEMENT EXECUTE FUNCTION eve.make()`);
  await eve.query(`INSERT INTO eve.leftover VALUES (1, 'x')`);
  await settled('leftover');
  const owner = `SELECT tableowner FROM pg_tables WHERE schemaname = 'eve' AND tablename = 'made_by_proxy'`;
  expect((await db.query(owner)).rows).toEqual([{ tableowner: proxy }]);
  for (const { name } of (await eve.query(`SELECT name FROM svc_vectorizers`)).rows) await eve.query(`SELECT svc_vectorize_drop($1)`, [name]);
  expect((await db.query(`SELECT count(*)::int AS n FROM pg_roles WHERE rolname = $1`, [proxy])).rows[0].n).toBe(0);
  expect((await db.query(`SELECT count(*)::int AS n FROM pg_proc WHERE proname LIKE 'svc\\_\\_vz\\_%'`)).rows[0].n).toBe(0);
  expect((await db.query(owner)).rows).toEqual([{ tableowner: 'eve' }]);
}, 120_000);
