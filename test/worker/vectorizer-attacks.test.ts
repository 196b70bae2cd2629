// Issue #43's and #52's vectorizer escalations, attacked as an ordinary role `eve` (no svc_admin,
// owns only her schema) against a real worker: her code reached through a vectorizer (a cast of her
// type in a format field, her key type's cast to json) runs as her proxy, in the session that writes
// her source, and never as svc's owner or the worker; her destination is svc's, so she can attach
// nothing to it, and her domain key is stored as its base type; a table she puts in the destination's
// place is never written; names made of SQL text stay names under standard_conforming_strings = off.
// After each: eve gained no attribute or membership, and where the attack is harmless the rows are embedded.
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
  await eventually(
    'the worker to heartbeat',
    async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
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
  eventually(`vectorizer ${name} to catch up`, async () => {
    const s = (await eve.query<Status>(`SELECT * FROM svc_vectorizer_status() WHERE name = $1`, [name])).rows[0];
    return s && Number(s.rows_pending) === 0 ? s : undefined;
  });

/** Who ran eve's functions for `what`, and that none of them was a superuser or anyone but her proxy. */
async function ranOnlyAsProxy(what: string): Promise<number> {
  const seen = (await db.query(`SELECT current_role_name AS role, super FROM eve.seen WHERE what = $1`, [what])).rows;
  for (const s of seen) expect(s).toEqual({ role: proxy, super: false });
  return seen.length;
}

/** eve and her proxy are as they were made: no attribute, no membership beyond proxy -> eve, nobody a member of the proxy. */
async function nothingGained(): Promise<void> {
  const attributes = `SELECT rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls FROM pg_roles WHERE rolname = $1`;
  const none = {
    rolsuper: false,
    rolcreaterole: false,
    rolcreatedb: false,
    rolreplication: false,
    rolbypassrls: false,
  };
  expect((await db.query(attributes, ['eve'])).rows).toEqual([none]);
  expect((await db.query(attributes, [proxy])).rows).toEqual([none]);
  expect(
    (await db.query(`SELECT roleid::regrole::text AS role FROM pg_auth_members WHERE member = 'eve'::regrole`)).rows,
  ).toEqual([]);
  expect(
    (await db.query(`SELECT roleid::regrole::text AS role FROM pg_auth_members WHERE member = $1::regrole`, [proxy]))
      .rows,
  ).toEqual([{ role: 'eve' }]);
  expect(
    (await db.query(`SELECT count(*)::int AS n FROM pg_auth_members WHERE roleid = $1::regrole`, [proxy])).rows[0].n,
  ).toBe(0);
}

test("a cast of eve's composite type to text in a format field runs as her proxy, at the backfill and at every insert; the rows are embedded", async () => {
  await eve.query(`CREATE TYPE eve.t AS (a integer, b text);
    CREATE FUNCTION eve.f(eve.t) RETURNS text LANGUAGE plpgsql AS $$ BEGIN PERFORM eve.record('cast'); RETURN 'label ' || $1.b; END $$;
    CREATE CAST (eve.t AS text) WITH FUNCTION eve.f(eve.t);
    CREATE TABLE eve.docs (id integer PRIMARY KEY, label eve.t, body text);
    INSERT INTO eve.docs VALUES (1, ROW(1, 'one'), 'Once upon a time there was a cat.'), (2, ROW(2, 'two'), 'The dog ran fast.')`);
  expect(
    (await eve.query(`SELECT svc_vectorize('eve.docs', 'body', 'docs', format := '$label: $chunk') AS n`)).rows[0].n,
  ).toBe('2');
  expect(await ranOnlyAsProxy('cast')).toBeGreaterThanOrEqual(2);
  await eve.query(`INSERT INTO eve.docs VALUES (3, ROW(3, 'three'), 'A bird sang.')`);
  expect(await ranOnlyAsProxy('cast')).toBeGreaterThanOrEqual(3);
  expect(await settled('docs')).toMatchObject({ rows_done: '3', rows_failed: '0' });
  // The text embedded is the cast's: the template's field came from eve.f.
  const [stored] = (await eve.query(`SELECT embedding FROM eve.docs_chunks WHERE id = 3`)).rows;
  expect(stored.embedding).toEqual(
    (await eve.query(`SELECT svc_embed('label three: A bird sang.', use_cache := false) AS e`)).rows[0].e,
  );
  await nothingGained();
}, 120_000);

test("eve's enum key with a cast to json: jsonb_build_object of the key runs it as her proxy (backfill, insert, update, delete); the rows are embedded", async () => {
  await eve.query(`CREATE TYPE eve.e AS ENUM ('north', 'south', 'west');
    CREATE FUNCTION eve.g(eve.e) RETURNS json LANGUAGE plpgsql AS $$ BEGIN PERFORM eve.record('key'); RETURN to_json($1::text); END $$;
    CREATE CAST (eve.e AS json) WITH FUNCTION eve.g(eve.e);
    CREATE TABLE eve.regions (region eve.e PRIMARY KEY, body text);
    INSERT INTO eve.regions VALUES ('north', 'Snow fell all night.'), ('south', 'The sun was hot.')`);
  // A btree operator class of her own for the key's ordering is out of her reach: CREATE OPERATOR CLASS is a superuser's.
  await expect(
    eve.query(`CREATE OPERATOR CLASS eve.e_ops FOR TYPE eve.e USING btree AS FUNCTION 1 enum_cmp(anyenum, anyenum)`),
  ).rejects.toMatchObject({
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
  expect(
    (await eve.query(`SELECT region::text FROM eve.regions_chunks ORDER BY region`)).rows.map((r) => r.region),
  ).toEqual(['north', 'west']);
  await nothingGained();
}, 120_000);

test("eve's domain key with a check of hers is stored as its base type: her check never runs where svc writes", async () => {
  await eve.query(`CREATE FUNCTION eve.positive(integer) RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN PERFORM eve.record('domain'); RETURN $1 > 0; END $$;
    CREATE DOMAIN eve.d AS integer CHECK (eve.positive(VALUE));
    CREATE TABLE eve.checked (id eve.d PRIMARY KEY, body text); INSERT INTO eve.checked VALUES (1, 'one'), (2, 'two')`);
  // Her own inserts checked the domain as her; what follows is the vectorizer's.
  await eve.query(`DELETE FROM eve.seen WHERE what = 'domain'`);
  await eve.query(`SELECT svc_vectorize('eve.checked', 'body', 'checked')`);
  await eve.query(`UPDATE eve.checked SET body = 'three' WHERE id = 2`);
  await eve.query(`DELETE FROM eve.checked WHERE id = 1`);
  expect(await settled('checked')).toMatchObject({ rows_done: '1', rows_failed: '0' });
  expect((await db.query(`SELECT count(*)::int AS n FROM eve.seen WHERE what = 'domain'`)).rows[0].n).toBe(0);
  expect(
    (
      await db.query(
        `SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = 'eve.checked_chunks'::regclass AND attname = 'id'`,
      )
    ).rows,
  ).toEqual([{ t: 'integer' }]);
  expect((await eve.query(`SELECT id, chunk FROM eve.checked_chunks`)).rows).toEqual([{ id: 2, chunk: 'three' }]);
  await nothingGained();
}, 120_000);

test("a key of a type whose input or comparison could be a role's function (a composite of hers) is refused at the declaration, naming the column", async () => {
  await eve.query(
    `CREATE TYPE eve.pair AS (a integer, b text); CREATE TABLE eve.paired (id eve.pair PRIMARY KEY, body text)`,
  );
  await expect(eve.query(`SELECT svc_vectorize('eve.paired', 'body', 'paired')`)).rejects.toMatchObject({
    code: '0A000',
    message: expect.stringMatching(
      /^svc_vectorize: source has a primary key column "id" of type eve\.pair: a vectorizer's key columns must be of base types or enums/,
    ),
  });
  expect((await eve.query(`SELECT count(*)::int AS n FROM svc_vectorizers WHERE name = 'paired'`)).rows[0].n).toBe(0);
  expect((await db.query(`SELECT to_regclass('eve.paired_chunks') AS t`)).rows[0].t).toBeNull();
});

test('names made of SQL text, declared under standard_conforming_strings = off with check_function_bodies = off, stay names: nothing of them runs', async () => {
  await eve.query(
    `CREATE FUNCTION eve.evil() RETURNS integer LANGUAGE sql AS $$ SELECT eve.record('evil'); SELECT 1 $$`,
  );
  const sneaky = ', 1)) AS item, eve.evil() AS ord FROM eve.inject r --';
  await eve.query(`SET standard_conforming_strings = off; SET check_function_bodies = off`);
  try {
    await eve.query(`CREATE TABLE eve.inject (id integer PRIMARY KEY, "a\\" text, "${sneaky}" text, body text)`);
    await eve.query(`INSERT INTO eve.inject VALUES (1, 'A', 'B', 'The end.')`);
    const format = `\${a\\} \${${sneaky}} $chunk`;
    expect(
      (await eve.query(`SELECT svc_vectorize('eve.inject', 'body', 'inject', format := $1) AS n`, [format])).rows[0].n,
    ).toBe('1');
    await eve.query(`INSERT INTO eve.inject VALUES (2, 'C', 'D', 'Again.')`);
  } finally {
    await eve.query(`RESET standard_conforming_strings; RESET check_function_bodies`);
  }
  expect(await settled('inject')).toMatchObject({ rows_done: '2', rows_failed: '0' });
  expect((await db.query(`SELECT count(*)::int AS n FROM eve.seen WHERE what = 'evil'`)).rows[0].n).toBe(0);
  // The columns were read as named: the embedded text is 'A B The end.'.
  const [stored] = (await eve.query(`SELECT embedding FROM eve.inject_chunks WHERE id = 1`)).rows;
  expect(stored.embedding).toEqual(
    (await eve.query(`SELECT svc_embed('A B The end.', use_cache := false) AS e`)).rows[0].e,
  );
  await nothingGained();
}, 120_000);

test("eve can attach nothing to her destination: it is svc's, she may read it and let others read it", async () => {
  await eve.query(
    `CREATE TABLE eve.bait (id integer PRIMARY KEY, body text); INSERT INTO eve.bait VALUES (1, 'first')`,
  );
  await eve.query(`SELECT svc_vectorize('eve.bait', 'body', 'bait')`);
  await settled('bait');
  await eve.query(`CREATE FUNCTION eve.sleeper() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM eve.record('trigger'); PERFORM pg_sleep(30); RETURN NULL; END $$;
    CREATE FUNCTION eve.one() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$`);
  const attaches = [
    `CREATE TRIGGER t AFTER INSERT ON eve.bait_chunks FOR EACH ROW EXECUTE FUNCTION eve.sleeper()`,
    `CREATE CONSTRAINT TRIGGER t AFTER INSERT ON eve.bait_chunks DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION eve.sleeper()`,
    `CREATE RULE r AS ON INSERT TO eve.bait_chunks DO ALSO SELECT eve.one()`,
    `ALTER TABLE eve.bait_chunks ENABLE ROW LEVEL SECURITY`,
    `CREATE POLICY p ON eve.bait_chunks USING (eve.one() = 1)`,
    `ALTER TABLE eve.bait_chunks ALTER COLUMN chunk SET DEFAULT eve.one()::text`,
    `ALTER TABLE eve.bait_chunks ADD CHECK (eve.one() = 1)`,
    `CREATE INDEX ON eve.bait_chunks ((eve.one()))`,
    `ALTER TABLE eve.bait_chunks ADD COLUMN extra integer GENERATED ALWAYS AS (eve.one()) STORED`,
    `ALTER TABLE eve.bait_chunks OWNER TO eve`,
  ];
  for (const sql of attaches) await expect(eve.query(sql)).rejects.toMatchObject({ code: '42501' });
  await eve.query(`UPDATE eve.bait SET body = 'second'`);
  expect(await settled('bait')).toMatchObject({ rows_done: '1', rows_failed: '0' });
  expect((await eve.query(`SELECT chunk FROM eve.bait_chunks`)).rows).toEqual([{ chunk: 'second' }]);
  await eve.query(`GRANT USAGE ON SCHEMA eve TO ${ROLES.alice}; GRANT SELECT ON eve.bait_chunks TO ${ROLES.alice}`);
  const alice = await svc().connect(ROLES.alice);
  try {
    expect((await alice.query(`SELECT chunk FROM eve.bait_chunks`)).rows).toEqual([{ chunk: 'second' }]);
  } finally {
    await alice.end();
  }
  expect((await db.query(`SELECT count(*)::int AS n FROM eve.seen WHERE what = 'trigger'`)).rows[0].n).toBe(0);
  await nothingGained();
}, 120_000);

test("a table eve puts in her destination's place (she owns its schema) is never written: the rows fail, her trigger never runs", async () => {
  await eve.query(
    `CREATE TABLE eve.swap (id integer PRIMARY KEY, body text); INSERT INTO eve.swap VALUES (1, 'first')`,
  );
  await eve.query(`SELECT svc_vectorize('eve.swap', 'body', 'swap')`);
  await settled('swap');
  await eve.query(`DROP TABLE eve.swap_chunks;
    CREATE TABLE eve.swap_chunks (id integer, chunk_index integer, chunk text, embedding real[]);
    CREATE FUNCTION eve.caught() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM eve.record('swapped'); RETURN NULL; END $$;
    CREATE TRIGGER caught AFTER INSERT OR DELETE ON eve.swap_chunks FOR EACH STATEMENT EXECUTE FUNCTION eve.caught()`);
  // Her writes to the source go on (the gate finds no destination to delete from); the worker writes nothing.
  await eve.query(
    `UPDATE eve.swap SET body = 'second'; DELETE FROM eve.swap WHERE id = 1; INSERT INTO eve.swap VALUES (2, 'third')`,
  );
  const s = await settled('swap');
  expect(s).toMatchObject({ rows_failed: '1' });
  expect(s.last_error).toMatch(/the destination of vectorizer swap no longer exists/);
  expect((await db.query(`SELECT count(*)::int AS n FROM eve.seen WHERE what = 'swapped'`)).rows[0].n).toBe(0);
  expect((await eve.query(`SELECT count(*)::int AS n FROM eve.swap_chunks`)).rows[0].n).toBe(0);
  await eve.query(`SELECT svc_vectorize_drop('swap', drop_destination := false)`);
  await nothingGained();
}, 120_000);

test("svc's gate takes only its vectorizer's items from its proxy; nobody else may call it or the proxy's functions", async () => {
  const id = (await db.query(`SELECT id FROM svc_vectorizers WHERE name = 'docs'`)).rows[0].id;
  const alice = await svc().connect(ROLES.alice);
  for (const client of [eve, alice]) {
    await expect(client.query(`SELECT svc__vz_${id}_queue(NULL, '[]', false)`)).rejects.toMatchObject({
      code: '42501',
    });
  }
  await expect(db.query(`SELECT svc__vz_${id}_queue(NULL, '[{"key": 1}]', false)`)).rejects.toMatchObject({
    code: '22023',
    message: expect.stringMatching(/items must be an array of \{key: object/),
  });
});

test('the work one row may cause is bounded: overlap at most half a chunk, at most 1000 chunks a row (past it the row fails, naming the rule)', async () => {
  await eve.query(`CREATE TABLE eve.long (id integer PRIMARY KEY, body text)`);
  await expect(
    eve.query(
      `SELECT svc_vectorize('eve.long', 'body', 'long', chunk_by := 'characters', chunk_size := 1000, chunk_overlap := 999)`,
    ),
  ).rejects.toMatchObject({
    code: '22023',
    message: 'svc_vectorize: chunk_overlap must be at most half of chunk_size (is 999, chunk_size 1000)',
  });
  await eve.query(
    `SELECT svc_vectorize('eve.long', 'body', 'long', chunk_by := 'characters', chunk_size := 2, chunk_overlap := 1, separators := ARRAY[''])`,
  );
  await eve.query(`INSERT INTO eve.long VALUES (1, repeat('ab', 1500)), (2, 'short text')`);
  const s = await settled('long');
  expect(s).toMatchObject({ rows_done: '1', rows_failed: '1' });
  expect(s.last_error).toBe(
    'the text makes 2999 chunks, more than the 1000 one row may make (a larger chunk_size makes fewer)',
  );
  expect((await eve.query(`SELECT DISTINCT id FROM eve.long_chunks`)).rows).toEqual([{ id: 2 }]);
}, 120_000);

test('the text a format makes of a chunk is bounded: refused at the declaration where it can be told, the row failed where a column makes it', async () => {
  await eve.query(`CREATE TABLE eve.wide (id integer PRIMARY KEY, title text, body text)`);
  const refused = [
    [`repeat('$chunk', 20000)`, 'svc_vectorize: format template must be at most 4096 characters (is 120000)'],
    [
      `repeat('$chunk ', 65)`,
      'svc_vectorize: format template may refer to $chunk and columns at most 64 times (does 65 times)',
    ],
  ];
  for (const [format, message] of refused) {
    await expect(
      eve.query(`SELECT svc_vectorize('eve.wide', 'body', 'wide', format := ${format})`),
    ).rejects.toMatchObject({ code: '22023', message });
  }
  await expect(
    eve.query(
      `SELECT svc_vectorize('eve.wide', 'body', 'wide', chunk_by := 'characters', chunk_size := 200000, format := '$chunk $chunk')`,
    ),
  ).rejects.toMatchObject({
    code: '22023',
    message:
      'svc_vectorize: format makes a text of at least 400001 characters of a chunk of chunk_size 200000, more than the 262144 a vectorizer embeds',
  });
  await eve.query(`SELECT svc_vectorize('eve.wide', 'body', 'wide', format := '$title $title $chunk')`);
  await eve.query(`INSERT INTO eve.wide VALUES (1, repeat('t', 140000), 'a body'), (2, 'short', 'a body')`);
  const s = await settled('wide');
  expect(s).toMatchObject({ rows_done: '1', rows_failed: '1' });
  expect(s.last_error).toBe(
    'the format makes a text of 280008 characters to embed for a chunk, more than the 262144 a vectorizer embeds (a shorter format, columns or chunk_size)',
  );
}, 120_000);

test("the worker's job timeout stops a vectorize job: its rows fail with the timeout's error", async () => {
  await eve.query(`CREATE TABLE eve.slow (id integer PRIMARY KEY, body text)`);
  await eve.query(
    `SELECT svc_vectorize('eve.slow', 'body', 'slow', chunk_by := 'characters', chunk_size := 2, chunk_overlap := 1, separators := ARRAY[''])`,
  );
  await worker!.stop();
  // 20 rows of 999 chunks in one job: 19,980 embeddings (999 took about 2 s on stories260K through
  // node-llama-cpp, under 0.3 s through svc's embedding addon), against a timeout of 0.3 s and no retry.
  const hurried = startWorker(svc().cluster, { SVC_WORKER_TIMEOUT: '0.3', SVC_WORKER_MAX_RETRIES: '0' }, STORIES_MODEL);
  try {
    await eve.query(`INSERT INTO eve.slow SELECT i, repeat('ab', 500) FROM generate_series(1, 20) AS i`);
    const s = await settled('slow');
    expect(s).toMatchObject({ rows_done: '0', rows_failed: '20' });
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
  // Her cast in a format field runs as the proxy, and makes a table in her schema.
  await eve.query(`CREATE TYPE eve.maker AS (x integer);
    CREATE FUNCTION eve.make(eve.maker) RETURNS text LANGUAGE plpgsql AS $$ BEGIN CREATE TABLE IF NOT EXISTS eve.made_by_proxy (x int); RETURN 'made'; END $$;
    CREATE CAST (eve.maker AS text) WITH FUNCTION eve.make(eve.maker);
    CREATE TABLE eve.leftover (id integer PRIMARY KEY, m eve.maker, body text)`);
  await eve.query(`SELECT svc_vectorize('eve.leftover', 'body', 'leftover', format := '$m $chunk')`);
  await eve.query(`INSERT INTO eve.leftover VALUES (1, ROW(1), 'x')`);
  await settled('leftover');
  const owner = `SELECT tableowner FROM pg_tables WHERE schemaname = 'eve' AND tablename = 'made_by_proxy'`;
  expect((await db.query(owner)).rows).toEqual([{ tableowner: proxy }]);
  for (const { name } of (await eve.query(`SELECT name FROM svc_vectorizers`)).rows)
    await eve.query(`SELECT svc_vectorize_drop($1)`, [name]);
  expect((await db.query(`SELECT count(*)::int AS n FROM pg_roles WHERE rolname = $1`, [proxy])).rows[0].n).toBe(0);
  expect(
    (await db.query(`SELECT count(*)::int AS n FROM pg_proc WHERE proname LIKE 'svc\\_\\_vz\\_%'`)).rows[0].n,
  ).toBe(0);
  expect((await db.query(owner)).rows).toEqual([{ tableowner: 'eve' }]);
}, 120_000);
