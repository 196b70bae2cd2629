// Issue #52, the rule for sessions: no session with more rights than a role runs code that role can
// attach. An ordinary role `eve` attaches code of every kind to every object she can reach on svc's
// privileged paths, each piece recording who ran it (current_user, session_user, superuser or not) in
// a table anyone may append to, so that a firing in any session would be seen:
//   her source (the vectorizer's): triggers BEFORE/AFTER, ROW/STATEMENT, on INSERT/UPDATE/DELETE and
//     TRUNCATE, a DEFERRABLE INITIALLY DEFERRED constraint trigger (fires at COMMIT), a rule, a row-level
//     security policy, a default, a generated column, a domain's check on the embedded column, an index
//     expression and a partial index's predicate;
//   her types: an enum key with a cast to json, a composite format column with a cast to text; her casts
//     also queue deferred constraint-trigger events on another table of hers, which fire at the COMMIT
//     of whatever session ran them;
//   her destination: every attach point, refused (it is svc's).
// Then every privileged path runs: svc_vectorize (the superuser's function, the backfill as her proxy),
// her writes to the source (the proxy's trigger function, svc's gate), the worker (her vectorize jobs'
// completions into the destination, her async and sync requests, the cache, its cleanup), the sync
// session (her synchronous calls), svc_owner's functions (status, search, limits, prompts, summarize)
// and svc_vectorize_drop. Every recorded firing must have run in her own session as her or her proxy,
// never as a superuser; another role's answers and cache entries are unchanged; she gained nothing.
// docs/security.md, "Sessions with more rights than a role", is the table this test holds.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';
import { STORIES_MODEL } from '../helpers/real-models.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let su: pg.Client;
let eve: pg.Client;
let alice: pg.Client;
let worker: WorkerProcess | undefined;

afterAll(async () => {
  await worker?.stop();
});

/** Every firing recorded: what, as whom, in whose session. */
const firings = async () =>
  (await su.query<{ what: string; role: string; session: string; super: boolean }>(`SELECT what, role, session, super FROM eve.seen ORDER BY what`)).rows;

test("eve's attached code runs only in her own sessions, as her or her proxy, on every path svc takes", async () => {
  su = await svc().connect();
  await su.query(`CREATE ROLE eve LOGIN; CREATE SCHEMA eve AUTHORIZATION eve`);
  eve = await svc().connect('eve');
  alice = await svc().connect(ROLES.alice);
  const proxy = `svc_vectorizer_${(await su.query(`SELECT oid::text FROM pg_roles WHERE rolname = 'eve'`)).rows[0].oid}`;
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2' }, STORIES_MODEL);
  await eventually('the worker to heartbeat', async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0);

  // Another role's answers, before: a cached sync call and an async request.
  const aliceSync = (await alice.query(`SELECT svc_generate('Alice had a cat', max_tokens := 12) AS r`)).rows[0].r;
  const aliceAsync = (await alice.query(`SELECT svc_generate_async('Alice had a dog', max_tokens := 12) AS id`)).rows[0].id;
  const aliceResult = (await alice.query(`SELECT svc_get_async_result($1, timeout_seconds := 60) AS r`, [aliceAsync])).rows[0].r;
  const cacheBefore = (await su.query(`SELECT cache_key, model, result FROM svc_cache ORDER BY cache_key, model`)).rows;

  // Where every piece of her code records who ran it: anyone may append (so a firing anywhere is seen).
  await eve.query(`
    CREATE TABLE eve.seen (what text, role name, session name, super boolean);
    GRANT USAGE ON SCHEMA eve TO PUBLIC; GRANT INSERT ON eve.seen TO PUBLIC;
    CREATE FUNCTION eve.record(what text) RETURNS boolean LANGUAGE sql VOLATILE AS
      $$ INSERT INTO eve.seen SELECT what, current_user, session_user, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user); SELECT true $$;
    CREATE FUNCTION eve.pure(what text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN PERFORM eve.record(what); RETURN true; END $$;
    CREATE FUNCTION eve.fire() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM eve.record(TG_ARGV[0]); RETURN CASE WHEN TG_LEVEL = 'ROW' AND TG_OP <> 'DELETE' THEN NEW ELSE OLD END; END $$;
    -- A second table of hers whose deferred constraint trigger fires at the COMMIT of whoever wrote it.
    CREATE TABLE eve.side (x integer); GRANT INSERT ON eve.side TO PUBLIC;
    CREATE CONSTRAINT TRIGGER side_deferred AFTER INSERT ON eve.side DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION eve.fire('side-deferred');
    -- Her types: an enum key with a cast to json, a composite with a cast to text; each cast also writes eve.side.
    CREATE TYPE eve.region AS ENUM ('north', 'south', 'east', 'west');
    CREATE FUNCTION eve.region_json(eve.region) RETURNS json LANGUAGE plpgsql AS
      $$ BEGIN PERFORM eve.record('cast-key'); INSERT INTO eve.side VALUES (1); RETURN to_json($1::text); END $$;
    CREATE CAST (eve.region AS json) WITH FUNCTION eve.region_json(eve.region);
    CREATE TYPE eve.tag AS (t text);
    CREATE FUNCTION eve.tag_text(eve.tag) RETURNS text LANGUAGE plpgsql AS
      $$ BEGIN PERFORM eve.record('cast-field'); INSERT INTO eve.side VALUES (2); RETURN $1.t; END $$;
    CREATE CAST (eve.tag AS text) WITH FUNCTION eve.tag_text(eve.tag);
    CREATE DOMAIN eve.body AS text CHECK (eve.pure('domain'));
    -- Her source, with every kind of code attached.
    CREATE TABLE eve.src (region eve.region PRIMARY KEY, tag eve.tag, body eve.body,
      noted boolean DEFAULT eve.record('default'), derived boolean GENERATED ALWAYS AS (eve.pure('generated')) STORED);
    CREATE INDEX src_expr ON eve.src ((eve.pure('index-expression')));
    CREATE INDEX src_partial ON eve.src (region) WHERE eve.pure('partial-index');
    CREATE RULE src_rule AS ON INSERT TO eve.src DO ALSO SELECT eve.record('rule');
    ALTER TABLE eve.src ENABLE ROW LEVEL SECURITY;
    CREATE POLICY src_policy ON eve.src USING (eve.record('policy'));
    CREATE TRIGGER before_row BEFORE INSERT OR UPDATE OR DELETE ON eve.src FOR EACH ROW EXECUTE FUNCTION eve.fire('before-row');
    CREATE TRIGGER after_row AFTER INSERT OR UPDATE OR DELETE ON eve.src FOR EACH ROW EXECUTE FUNCTION eve.fire('after-row');
    CREATE TRIGGER before_statement BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON eve.src FOR EACH STATEMENT EXECUTE FUNCTION eve.fire('before-statement');
    CREATE TRIGGER after_statement AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON eve.src FOR EACH STATEMENT EXECUTE FUNCTION eve.fire('after-statement');
    CREATE CONSTRAINT TRIGGER deferred AFTER INSERT OR UPDATE OR DELETE ON eve.src DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION eve.fire('deferred');
    INSERT INTO eve.src (region, tag, body) VALUES ('north', ROW('cold'), 'Snow fell all night.'), ('south', ROW('warm'), 'The sun was hot.');
  `);

  // svc_vectorize: the superuser's function; the backfill reads her source as her proxy.
  await eve.query(`SELECT svc_vectorize('eve.src', 'body', 'src', format := '$tag: $chunk', batch_size := 1)`);
  // Her destination: nothing can be attached to it.
  const attaches = [
    `CREATE TRIGGER t BEFORE INSERT ON eve.src_chunks FOR EACH ROW EXECUTE FUNCTION eve.fire('x')`,
    `CREATE TRIGGER t AFTER INSERT ON eve.src_chunks FOR EACH STATEMENT EXECUTE FUNCTION eve.fire('x')`,
    `CREATE CONSTRAINT TRIGGER t AFTER INSERT ON eve.src_chunks DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION eve.fire('x')`,
    `CREATE RULE r AS ON INSERT TO eve.src_chunks DO ALSO SELECT eve.record('x')`,
    `CREATE POLICY p ON eve.src_chunks USING (eve.record('x'))`,
    `ALTER TABLE eve.src_chunks ENABLE ROW LEVEL SECURITY`,
    `ALTER TABLE eve.src_chunks ALTER COLUMN chunk SET DEFAULT 'x'`,
    `ALTER TABLE eve.src_chunks ADD COLUMN g boolean GENERATED ALWAYS AS (eve.pure('x')) STORED`,
    `ALTER TABLE eve.src_chunks ADD CHECK (eve.pure('x'))`,
    `CREATE INDEX ON eve.src_chunks ((eve.pure('x')))`,
    `CREATE INDEX ON eve.src_chunks (chunk_index) WHERE eve.pure('x')`,
    `ALTER TABLE eve.src_chunks OWNER TO eve`,
  ];
  for (const sql of attaches) await expect(eve.query(sql)).rejects.toMatchObject({ code: '42501' });

  // Her writes to her source: the proxy's trigger function and svc's gate, in her session.
  await eve.query(`INSERT INTO eve.src (region, tag, body) VALUES ('east', ROW('dry'), 'Sand in the wind.')`);
  await eve.query(`UPDATE eve.src SET body = 'Snow fell all day.' WHERE region = 'north'`);
  await eve.query(`DELETE FROM eve.src WHERE region = 'south'`);
  // The worker embeds her rows and writes her destination; her async and sync calls go through it and the sync session.
  await eventually('her rows embedded', async () => Number((await eve.query(`SELECT rows_pending FROM svc_vectorizer_status()`)).rows[0].rows_pending) === 0);
  const eveAsync = (await eve.query(`SELECT svc_generate_async('Eve had a plan', max_tokens := 8) AS id`)).rows[0].id;
  await eve.query(`SELECT svc_get_async_result($1, timeout_seconds := 60)`, [eveAsync]);
  await eve.query(`SELECT svc_generate('Eve had a plan', max_tokens := 8, use_cache := false), svc_embed('Eve'), svc_generate_choice('Eve went', ARRAY[' home', ' out'])`);
  // svc_owner's functions, called by her over her objects.
  await eve.query(`SELECT * FROM svc_vectorizer_status()`);
  await eve.query(`SELECT * FROM svc_search('src', 'snow', k := 2)`);
  await eve.query(`SELECT * FROM svc_queue_limits()`);
  await eve.query(`SELECT svc_prompt_create('p', 'About {{x}}')`);
  await eve.query(`SELECT svc_prompt_render('p', '{"x": "snow"}')`);
  await eve.query(`SELECT svc_summarize(body::text ORDER BY region, 4) FROM eve.src`);
  // TRUNCATE, then the worker's cleanup, then svc_vectorize_drop (the superuser's function).
  await eve.query(`TRUNCATE eve.src`);
  const w = await svc().connect(ROLES.worker);
  await w.query(`SELECT svc_worker_cleanup()`);
  await eve.query(`SELECT svc_vectorize_drop('src')`);

  const seen = await firings();
  // Every kind attached to her objects fired (they are live), and every firing ran in her own session, as her or her proxy.
  const fired = new Set(seen.map((s) => s.what));
  for (const what of ['before-row', 'after-row', 'before-statement', 'after-statement', 'deferred', 'rule', 'default', 'generated', 'domain',
    'index-expression', 'partial-index', 'cast-key', 'cast-field', 'side-deferred']) {
    expect(fired).toContain(what);
  }
  for (const s of seen) {
    expect({ what: s.what, session: s.session, super: s.super }).toEqual({ what: s.what, session: 'eve', super: false });
    expect([ 'eve', proxy ]).toContain(s.role);
  }
  expect(fired.has('x')).toBe(false);
  // The control: a firing in another role's session is recorded as such (alice writes eve.side, whose deferred trigger fires at her COMMIT).
  await alice.query(`INSERT INTO eve.side VALUES (3)`);
  expect((await firings()).filter((s) => s.session === ROLES.alice)).toEqual([{ what: 'side-deferred', role: ROLES.alice, session: ROLES.alice, super: false }]);

  // Nothing of another role's changed or leaked.
  expect((await alice.query(`SELECT svc_generate('Alice had a cat', max_tokens := 12) AS r`)).rows[0].r).toBe(aliceSync);
  expect((await alice.query(`SELECT svc_get_async_result($1) AS r`, [aliceAsync])).rows[0].r).toBe(aliceResult);
  const cacheAfter = (await su.query(`SELECT cache_key, model, result FROM svc_cache ORDER BY cache_key, model`)).rows;
  for (const entry of cacheBefore) expect(cacheAfter).toContainEqual(entry);
  expect((await eve.query(`SELECT count(*)::int AS n FROM svc_queue WHERE owner::text <> 'eve'`)).rows[0].n).toBe(0);
  // She gained nothing.
  expect((await su.query(`SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls FROM pg_roles WHERE rolname = 'eve'`)).rows[0]).toEqual({
    rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false,
  });
  expect((await su.query(`SELECT count(*)::int AS n FROM pg_auth_members WHERE member = 'eve'::regrole`)).rows[0].n).toBe(0);
}, 240_000);
