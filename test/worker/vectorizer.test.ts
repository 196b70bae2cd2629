// Vectorizers with a real worker on the trained stories260K: a table's text column kept embedded in
// a destination (real[]: pgvector is not a Debian 12 package) through inserts, updates, deletes and
// TRUNCATE, the backfill, chunking, races between versions of a row, search, failures, and the
// boundaries between roles. Every embedding is compared with svc_embed of the same text.
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';
import { STORIES_MODEL, bertEmbeddingModel, realVocabModel } from '../helpers/real-models.js';
import { fencedBlocks } from '../helpers/docs.js';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { splitText, DEFAULT_SEPARATORS } from '../../src/vectorizer/chunk.js';
import { Engine } from '../../src/engine/engine.js';
import { searchQuery } from '../../src/extension/vectorizer-sql.js';
import * as protocol from '../../worker/protocol.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let db: pg.Client;
let alice: pg.Client;
let bob: pg.Client;
let worker: WorkerProcess | undefined;

async function startOne(): Promise<void> {
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2' }, STORIES_MODEL);
  await eventually(
    'the worker to heartbeat',
    async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
}

beforeAll(async () => {
  db = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  bob = await svc().connect(ROLES.bob);
  await db.query(
    `CREATE SCHEMA app AUTHORIZATION ${ROLES.alice}; GRANT USAGE ON SCHEMA app TO ${ROLES.bob}; CREATE SCHEMA b AUTHORIZATION ${ROLES.bob}; GRANT USAGE ON SCHEMA b TO ${ROLES.alice}`,
  );
  await startOne();
}, 60_000);
afterAll(async () => {
  await worker?.stop();
});

interface Status {
  name: string;
  rows_pending: string;
  rows_done: string;
  rows_failed: string;
  chunks: string;
  last_error: string | null;
}

const status = async (client: pg.Client, name: string): Promise<Status | undefined> =>
  (await client.query<Status>(`SELECT * FROM svc_vectorizer_status() WHERE name = $1`, [name])).rows[0];

/** Waits until the vectorizer has nothing pending, and returns its status. */
const settled = (client: pg.Client, name: string) =>
  eventually(`vectorizer ${name} to catch up`, async () => {
    const s = await status(client, name);
    return s && Number(s.rows_pending) === 0 ? s : undefined;
  });

const embed = async (text: string): Promise<number[]> =>
  (await alice.query(`SELECT svc_embed($1, use_cache := false) AS e`, [text])).rows[0].e;

test('backfill, then inserts, updates and deletes keep the destination in step; each embedding is svc_embed of the chunk', async () => {
  await alice.query(`CREATE TABLE app.docs (id integer PRIMARY KEY, title text, body text, views integer DEFAULT 0)`);
  await alice.query(
    `INSERT INTO app.docs (id, title, body) SELECT i, 'Title ' || i, 'Once upon a time there was a cat number ' || i FROM generate_series(1, 12) i`,
  );
  const queued = (
    await alice.query(`SELECT svc_vectorize('app.docs', 'body', 'docs_body', format := '$title: $chunk') AS n`)
  ).rows[0].n;
  expect(Number(queued)).toBe(12);
  const s = await settled(alice, 'docs_body');
  expect(s).toMatchObject({ rows_done: '12', rows_failed: '0', chunks: '12' });
  const rows = (await alice.query(`SELECT id, chunk_index, chunk, embedding FROM app.docs_body_chunks ORDER BY id`))
    .rows;
  expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  expect(rows[2]).toMatchObject({ chunk_index: 0, chunk: 'Once upon a time there was a cat number 3' });
  expect(rows[2].embedding).toEqual(await embed('Title 3: Once upon a time there was a cat number 3'));

  const jobs = async () =>
    Number((await db.query(`SELECT count(*) AS n FROM svc_queue WHERE function_name = 'vectorize'`)).rows[0].n);
  const before = await jobs();
  // A column the vectorizer does not read: nothing is queued.
  await alice.query(`UPDATE app.docs SET views = views + 1`);
  expect(await jobs()).toBe(before);
  await alice.query(`INSERT INTO app.docs (id, title, body) VALUES (13, 'New', 'A dog ran fast')`);
  await alice.query(`UPDATE app.docs SET body = 'The sun was hot' WHERE id = 1`);
  await alice.query(`UPDATE app.docs SET title = 'Renamed' WHERE id = 2`);
  await alice.query(`DELETE FROM app.docs WHERE id = 3`);
  await alice.query(`UPDATE app.docs SET id = 40 WHERE id = 4`);
  await settled(alice, 'docs_body');
  const after = new Map(
    (await alice.query(`SELECT id, chunk, embedding FROM app.docs_body_chunks`)).rows.map((r) => [r.id, r]),
  );
  expect([...after.keys()].sort((a, b) => a - b)).toEqual([1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 40]);
  expect(after.get(1).chunk).toBe('The sun was hot');
  expect(after.get(1).embedding).toEqual(await embed('Title 1: The sun was hot'));
  expect(after.get(2).embedding).toEqual(await embed('Renamed: Once upon a time there was a cat number 2'));
  expect(after.get(13).embedding).toEqual(await embed('New: A dog ran fast'));
  expect(after.get(40).chunk).toBe('Once upon a time there was a cat number 4');

  await alice.query(`TRUNCATE app.docs`);
  expect(Number((await alice.query(`SELECT count(*) AS n FROM app.docs_body_chunks`)).rows[0].n)).toBe(0);
  expect(await status(alice, 'docs_body')).toMatchObject({ rows_pending: '0', rows_done: '0', chunks: '0' });
}, 120_000);

test('chunking by characters with overlap, composite text keys, and search finds the row a query came from', async () => {
  await alice.query(`CREATE TABLE app.notes (region text, code uuid, body text, PRIMARY KEY (region, code))`);
  const long =
    'The little bird sang a song. It was happy in the tree.\n\nThe cat looked up at the bird. The cat wanted to play with the bird all day long.';
  const rows = [
    ['north', '00000000-0000-4000-8000-000000000001', long],
    ['south', '00000000-0000-4000-8000-000000000002', 'Tom had a red ball. He gave it to his friend Sue.'],
    ['south', '00000000-0000-4000-8000-000000000003', 'The big fish swam in the blue sea.'],
  ];
  for (const row of rows) await alice.query(`INSERT INTO app.notes VALUES ($1, $2, $3)`, row);
  await alice.query(
    `SELECT svc_vectorize('app.notes', 'body', 'notes', chunk_by := 'characters', chunk_size := 40, chunk_overlap := 10, destination := 'app.note_chunks')`,
  );
  await settled(alice, 'notes');
  const chunks = (
    await alice.query(
      `SELECT region, code, chunk_index, chunk FROM app.note_chunks WHERE region = 'north' ORDER BY chunk_index`,
    )
  ).rows;
  const expected = splitText(long, {
    by: 'characters',
    size: 40,
    overlap: 10,
    separators: ['\n\n', '\n', '. ', ' ', ''],
  });
  expect(expected.length).toBeGreaterThan(2);
  expect(chunks.map((c) => c.chunk)).toEqual(expected);
  expect(chunks.map((c) => c.chunk_index)).toEqual(expected.map((_, i) => i));

  // The query is the text of one chunk: that row comes first, at distance ~0, one result per row.
  const found = (
    await alice.query(`SELECT key, chunk_index, chunk, distance FROM svc_search('notes', $1, 3)`, [expected[1]])
  ).rows;
  expect(found).toHaveLength(3);
  expect(found[0]).toMatchObject({ key: { region: 'north', code: rows[0][1] }, chunk_index: 1, chunk: expected[1] });
  expect(found[0].distance).toBeLessThan(1e-6);
  expect(new Set(found.map((f) => JSON.stringify(f.key))).size).toBe(3);
  expect(found[1].distance).toBeLessThanOrEqual(found[2].distance);
  // Distances are svc_cosine_distance of the stored vectors.
  const direct = (
    await alice.query(
      `SELECT svc_cosine_distance(c.embedding, svc_embed($1)) AS d FROM app.note_chunks c WHERE region = 'south' AND code = $2`,
      [expected[1], rows[2][1]],
    )
  ).rows[0].d;
  expect(found.find((f) => f.key.code === rows[2][1]).distance).toBeCloseTo(direct, 12);
  await expect(alice.query(`SELECT * FROM svc_search('notes', 'x', 0)`)).rejects.toMatchObject({
    code: '22023',
    message: 'svc_search: k must be between 1 and 1000 (got 0)',
  });
  await expect(alice.query(`SELECT * FROM svc_search('nope', 'x')`)).rejects.toMatchObject({ code: '42704' });
}, 120_000);

test('an update while an older version waits: the newest text has the last word; the older job writes nothing', async () => {
  await alice.query(`CREATE TABLE app.race (id bigint PRIMARY KEY, body text)`);
  await alice.query(`SELECT svc_vectorize('app.race', 'body', 'race')`);
  await worker!.stop();
  // A key beyond 2^53: it must come back exactly, though the worker's JSON holds numbers as doubles.
  await alice.query(`INSERT INTO app.race VALUES (9007199254740993, 'first version')`);
  await alice.query(`UPDATE app.race SET body = 'second version' WHERE id = 9007199254740993`);
  await alice.query(`UPDATE app.race SET body = 'third version' WHERE id = 9007199254740993`);
  await startOne();
  await settled(alice, 'race');
  const rows = (await alice.query(`SELECT id::text, chunk, embedding FROM app.race_chunks`)).rows;
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ id: '9007199254740993', chunk: 'third version' });
  expect(rows[0].embedding).toEqual(await embed('third version'));
  const results = (
    await db.query(
      `SELECT result::jsonb AS r FROM svc_queue WHERE function_name = 'vectorize' AND owner = $1::regrole AND status = 'completed' AND (parameters->>'vectorizer')::int = (SELECT id FROM svc_vectorizers WHERE name = 'race') ORDER BY seq`,
      [ROLES.alice],
    )
  ).rows;
  expect(results.map((r) => r.r)).toEqual([
    { rows: 0, chunks: 0, skipped: 1 },
    { rows: 0, chunks: 0, skipped: 1 },
    { rows: 1, chunks: 1, skipped: 0 },
  ]);
}, 120_000);

test('a failure to write is visible in svc_vectorizer_status and goes away when the row changes again', async () => {
  await alice.query(`CREATE TABLE app.poison (id integer PRIMARY KEY, body text)`);
  await alice.query(`SELECT svc_vectorize('app.poison', 'body', 'poison')`);
  // svc reaches the destination in alice's schema through the USAGE it was granted there: she takes it back.
  await alice.query(`REVOKE USAGE ON SCHEMA app FROM svc_owner`);
  await alice.query(`INSERT INTO app.poison VALUES (1, 'poison'), (2, 'fine')`);
  const failed = await eventually('the failure', async () => {
    const s = await status(alice, 'poison');
    return s && Number(s.rows_failed) === 2 ? s : undefined;
  });
  expect(failed.last_error).toMatch(/permission denied for schema app/);
  await alice.query(`GRANT USAGE ON SCHEMA app TO svc_owner`);
  await alice.query(`UPDATE app.poison SET body = 'cured' WHERE id = 1`);
  await alice.query(`UPDATE app.poison SET body = 'fine!' WHERE id = 2`);
  expect(await settled(alice, 'poison')).toMatchObject({ rows_failed: '0', rows_done: '2' });
}, 120_000);

/** Every trace a declaration could leave: vectorizers, tables and functions named like its parts, triggers, queued work, proxy roles. */
async function traces(): Promise<Record<string, string>> {
  const { rows } = await db.query(`SELECT
    (SELECT count(*) FROM svc_vectorizers) AS vectorizers,
    (SELECT count(*) FROM pg_class WHERE relname LIKE '%chunks%' OR relname LIKE 'elsewhere%') AS tables,
    (SELECT count(*) FROM pg_proc WHERE proname LIKE 'svc\\_\\_vz\\_%') AS functions,
    (SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'svc_vectorize_%') AS triggers,
    (SELECT count(*) FROM svc_queue WHERE function_name = 'vectorize') AS jobs,
    (SELECT count(*) FROM pg_roles WHERE rolname LIKE 'svc_vectorizer_%') AS roles`);
  return rows[0];
}

test('bad declarations are clear errors naming the argument, and create nothing', async () => {
  await alice.query(`CREATE TABLE app.plain (id integer PRIMARY KEY, body text, n integer, "Title Text" text);
    CREATE TABLE app.nokey (body text); CREATE VIEW app.aview AS SELECT * FROM app.plain;
    CREATE TABLE app.taken (x int); INSERT INTO app.plain VALUES (1, 'one', 1, 't')`);
  await bob.query(`CREATE TABLE b.bobs (id integer PRIMARY KEY, body text)`);
  await db.query(`SELECT svc_model_declare('ranker', ARRAY['rerank'])`);
  const before = await traces();
  const cases: Array<[string, string, RegExp]> = [
    [`svc_vectorize('app.missing', 'body', 'x')`, '42P01', /relation "app.missing" does not exist/],
    [`svc_vectorize(NULL, 'body', 'x')`, '22004', /^svc_vectorize: source must not be NULL$/],
    [
      `svc_vectorize('app.plain', 'nope', 'x')`,
      '42703',
      /^svc_vectorize: column_name "nope" is no column of "app"."plain"$/,
    ],
    [
      `svc_vectorize('app.plain', 'n', 'x')`,
      '42804',
      /^svc_vectorize: column_name must be a text column \("n" is integer\)$/,
    ],
    [`svc_vectorize('app.nokey', 'body', 'x')`, '55000', /^svc_vectorize: source must have a primary key/],
    [
      `svc_vectorize('app.aview', 'body', 'x')`,
      '42809',
      /^svc_vectorize: source must be an ordinary table \("app"."aview" is a view\)$/,
    ],
    [
      `svc_vectorize('app.plain', 'body', 'x', model := 'nomodel')`,
      '22023',
      /^svc_vectorize: model "nomodel" is not declared in svc_models$/,
    ],
    [
      `svc_vectorize('app.plain', 'body', 'x', model := 'ranker')`,
      '22023',
      /^svc_vectorize: model "ranker" does not serve embed \(it serves rerank\)$/,
    ],
    [
      `svc_vectorize('app.plain', 'body', 'x', chunk_by := 'characters', chunk_size := 100, chunk_overlap := 100)`,
      '22023',
      /^svc_vectorize: chunk_overlap must be less than chunk_size \(is 100, chunk_size 100\)$/,
    ],
    [`svc_vectorize('app.plain', 'body', 'x', chunk_by := 'words')`, '22023', /^svc_vectorize: chunk_by /],
    [`svc_vectorize('app.plain', 'body', 'x', format := '$title')`, '22023', /^svc_vectorize: format .*\$chunk/],
    [
      `svc_vectorize('app.plain', 'body', 'x', format := '$missing $chunk')`,
      '42703',
      /^svc_vectorize: format refers to \$missing, which is no column of "app"."plain"$/,
    ],
    [`svc_vectorize('app.plain', 'body', 'Bad-Name')`, '22023', /^svc_vectorize: name must be a lower-case identifier/],
    [
      `svc_vectorize('app.plain', 'body', 'x', destination := 'app.taken')`,
      '42P07',
      /^svc_vectorize: destination "app"."taken" exists/,
    ],
    [
      `svc_vectorize('app.plain', 'body', 'x', destination := 'nowhere.t')`,
      '3F000',
      /^svc_vectorize: destination names a schema that does not exist/,
    ],
    [
      `svc_vectorize('app.plain', 'body', 'x', batch_size := 0)`,
      '22023',
      /^svc_vectorize: batch_size must be between 1 and 1000 \(got 0\)$/,
    ],
    [`svc_vectorize('b.bobs', 'body', 'x')`, '42501', /^svc_vectorize: source must be readable by role alice/],
  ];
  for (const [call, code, message] of cases) {
    await expect(alice.query(`SELECT ${call}`)).rejects.toMatchObject({
      code,
      message: expect.stringMatching(message),
    });
  }
  const wide = Array.from({ length: 51 }, (_, i) => `c${i} text`).join(', ');
  await alice.query(`CREATE TABLE app.wide (id integer PRIMARY KEY, body text, ${wide})`);
  const template = Array.from({ length: 51 }, (_, i) => `$c${i}`).join(' ') + ' $chunk';
  await expect(
    alice.query(`SELECT svc_vectorize('app.wide', 'body', 'x', format := $1)`, [template]),
  ).rejects.toMatchObject({
    code: '54000',
    message: 'svc_vectorize: format may refer to at most 50 columns (refers to 51)',
  });
  expect(await traces()).toEqual(before);
  // A second vectorizer of one name; a destination in a schema the role may not create in.
  await alice.query(`SELECT svc_vectorize('app.plain', 'body', 'plain_once', format := '\${Title Text}: $chunk')`);
  const withOne = await traces();
  await expect(
    alice.query(`SELECT svc_vectorize('app.plain', 'body', 'plain_once', destination := 'elsewhere')`),
  ).rejects.toMatchObject({
    code: '42710',
    message: expect.stringMatching(/^svc_vectorize: name "plain_once" is taken/),
  });
  await db.query(`CREATE SCHEMA locked`);
  await expect(
    alice.query(`SELECT svc_vectorize('app.plain', 'body', 'y', destination := 'locked.t')`),
  ).rejects.toMatchObject({
    code: '42501',
    message: expect.stringMatching(
      /^svc_vectorize: destination must be in a schema where role alice may create tables/,
    ),
  });
  expect(await traces()).toEqual(withOne);
  expect(await alice.query(`SELECT svc_vectorize_drop('plain_once')`)).toMatchObject({
    rows: [{ svc_vectorize_drop: true }],
  });
  expect(await traces()).toMatchObject({ ...before, jobs: expect.any(String) });
  expect(Number((await alice.query(`SELECT count(*) AS n FROM app.plain`)).rows[0].n)).toBe(1);
  await expect(alice.query(`SELECT svc_vectorize_drop('plain_once')`)).rejects.toMatchObject({ code: '42704' });
}, 120_000);

test("roles: nobody sees, searches or drops another role's vectorizer; reads of the source run as the declarer's proxy, never as a superuser", async () => {
  await alice.query(
    `CREATE TABLE app.secret (id integer PRIMARY KEY, body text); INSERT INTO app.secret VALUES (1, 'alice only')`,
  );
  await alice.query(`SELECT svc_vectorize('app.secret', 'body', 'secret')`);
  await settled(alice, 'secret');
  expect(await status(bob, 'secret')).toBeUndefined();
  expect((await bob.query(`SELECT * FROM svc_vectorizers`)).rows).toEqual([]);
  await expect(bob.query(`SELECT * FROM svc_search('secret', 'alice')`)).rejects.toMatchObject({ code: '42704' });
  await expect(bob.query(`SELECT svc_vectorizer_embed('secret', 'alice')`)).rejects.toMatchObject({ code: '42704' });
  expect((await alice.query(`SELECT svc_vectorizer_embed('secret', 'alice only') AS e`)).rows[0].e).toEqual(
    await embed('alice only'),
  );
  await expect(bob.query(`SELECT svc_vectorize_drop('secret')`)).rejects.toMatchObject({ code: '42704' });
  await expect(bob.query(`SELECT * FROM app.secret_chunks`)).rejects.toMatchObject({ code: '42501' });
  const id = (await db.query(`SELECT id FROM svc_vectorizers WHERE name = 'secret'`)).rows[0].id;
  for (const call of [
    `svc__vectorizer_enqueue(${id}, '[{"key":{"id":1},"text":"forged","fields":{}}]')`,
    `svc__vectorizer_forget(${id}, NULL)`,
    `svc__vectorizer_apply(gen_random_uuid(), '{"vectorizer":${id}}', '{"items":[]}')`,
  ]) {
    await expect(bob.query(`SELECT ${call}`)).rejects.toMatchObject({ code: '42501' });
    await expect(alice.query(`SELECT ${call}`)).rejects.toMatchObject({ code: '42501' });
  }
  // Alice's own cast in a format field runs when svc reads her source: as her proxy, with no superuser.
  await alice.query(`CREATE TABLE app.seen (who name, super boolean);
    CREATE TYPE app.tag AS (t text);
    CREATE FUNCTION app.spy(app.tag) RETURNS text LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO app.seen SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user; RETURN $1.t; END $$;
    CREATE CAST (app.tag AS text) WITH FUNCTION app.spy(app.tag);
    CREATE TABLE app.tagged (id integer PRIMARY KEY, tag app.tag, body text); INSERT INTO app.tagged VALUES (1, ROW('x'), 'tagged')`);
  await alice.query(`SELECT svc_vectorize('app.tagged', 'body', 'tagged', format := '$tag $chunk')`);
  await alice.query(`UPDATE app.tagged SET body = 'changed'`);
  await settled(alice, 'tagged');
  const seen = (await alice.query(`SELECT who, super FROM app.seen`)).rows;
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every((s) => /^svc_vectorizer_\d+$/.test(s.who) && s.super === false)).toBe(true);
  // The proxy has alice's privileges, nobody is a member of it, and it cannot log in.
  const proxy = seen[0].who;
  expect(
    (
      await db.query(
        `SELECT rolcanlogin, rolsuper, (SELECT count(*) FROM pg_auth_members WHERE roleid = r.oid) AS members FROM pg_roles r WHERE rolname = $1`,
        [proxy],
      )
    ).rows[0],
  ).toEqual({ rolcanlogin: false, rolsuper: false, members: '0' });
  // Row-level security that applies to the declarer: refused (the triggers would see rows it cannot).
  await bob.query(`CREATE TABLE b.shared (id integer PRIMARY KEY, body text); ALTER TABLE b.shared ENABLE ROW LEVEL SECURITY;
    CREATE POLICY mine ON b.shared USING (body <> 'hidden'); GRANT SELECT, TRIGGER ON b.shared TO ${ROLES.alice}`);
  await expect(
    alice.query(`SELECT svc_vectorize('b.shared', 'body', 'shared', destination := 'app.shared_chunks')`),
  ).rejects.toMatchObject({ code: '0A000' });
  // Bob may write alice's source where she let him; his rows reach her destination, and nothing of hers reaches him.
  await alice.query(`GRANT INSERT ON app.secret TO ${ROLES.bob}`);
  await bob.query(`INSERT INTO app.secret VALUES (2, 'from bob')`);
  await settled(alice, 'secret');
  expect((await alice.query(`SELECT id FROM app.secret_chunks ORDER BY id`)).rows.map((r) => r.id)).toEqual([1, 2]);
  expect((await bob.query(`SELECT count(*) AS n FROM svc_queue WHERE function_name = 'vectorize'`)).rows[0].n).toBe(
    '0',
  );
}, 120_000);

test('svc_vectorize_drop leaves the source untouched, stops the triggers and cancels queued work', async () => {
  await alice.query(`CREATE TABLE app.gone (id integer PRIMARY KEY, body text)`);
  await alice.query(`SELECT svc_vectorize('app.gone', 'body', 'gone')`);
  await worker!.stop();
  await alice.query(`INSERT INTO app.gone SELECT i, 'text ' || i FROM generate_series(1, 5) i`);
  await alice.query(`SELECT svc_vectorize_drop('gone', drop_destination := false)`);
  await startOne();
  expect(
    (
      await db.query(
        `SELECT status, count(*)::int AS n FROM svc_queue WHERE function_name = 'vectorize' AND parameters->'items'->0->>'text' LIKE 'text %' GROUP BY 1`,
      )
    ).rows,
  ).toEqual([{ status: 'cancelled', n: 1 }]);
  await alice.query(`INSERT INTO app.gone VALUES (6, 'after')`);
  expect(Number((await alice.query(`SELECT count(*) AS n FROM app.gone`)).rows[0].n)).toBe(6);
  expect(Number((await alice.query(`SELECT count(*) AS n FROM app.gone_chunks`)).rows[0].n)).toBe(0);
  expect(
    (
      await db.query(
        `SELECT count(*)::int AS n FROM pg_trigger WHERE tgrelid = 'app.gone'::regclass AND NOT tgisinternal`,
      )
    ).rows[0].n,
  ).toBe(0);
}, 120_000);

test("chunking by tokens counts the model's tokens", async () => {
  const text =
    'Once upon a time, there was a little girl named Lily. She loved to play outside in the sunshine. One day, she saw a big red ball.';
  await alice.query(
    `CREATE TABLE app.tok (id integer PRIMARY KEY, body text); INSERT INTO app.tok VALUES (1, $1)`.replace(
      '$1',
      `'${text}'`,
    ),
  );
  await alice.query(
    `SELECT svc_vectorize('app.tok', 'body', 'tok', chunk_by := 'tokens', chunk_size := 12, chunk_overlap := 3)`,
  );
  await settled(alice, 'tok');
  const engine = await Engine.load({ model: STORIES_MODEL, threads: 1, contextSize: 256 });
  try {
    const expected = splitText(text, { by: 'tokens', size: 12, overlap: 3, separators: DEFAULT_SEPARATORS }, (piece) =>
      engine.countTokens(piece),
    );
    expect(expected.length).toBeGreaterThan(3);
    expect(expected.every((chunk) => engine.countTokens(chunk) <= 12)).toBe(true);
    expect(
      (await alice.query(`SELECT chunk FROM app.tok_chunks ORDER BY chunk_index`)).rows.map((r) => r.chunk),
    ).toEqual(expected);
  } finally {
    await engine.dispose();
  }
}, 120_000);

test("the SQL reference's vectorizer example runs as written", async () => {
  const [block] = fencedBlocks('docs/sql.md', 'Vectorizers: a table kept embedded', 'sql');
  const [declare, status, search, drop] = block
    .split(/;[^\n]*\n/)
    .map((statement) => statement.trim())
    .filter(Boolean);
  await db.query(`CREATE SCHEMA readme AUTHORIZATION ${ROLES.alice}`);
  await alice.query('SET search_path = readme, public');
  try {
    await alice.query(`CREATE TABLE stories (id integer PRIMARY KEY, title text, body text);
      INSERT INTO stories VALUES (1, 'The ball', 'Tom had a red ball.'), (2, 'The fish', 'A big fish swam in the blue sea.')`);
    expect((await alice.query(declare)).rows).toEqual([{ svc_vectorize: '2' }]);
    await settled(alice, 'stories_body');
    expect((await alice.query(status)).rows).toContainEqual(
      expect.objectContaining({ name: 'stories_body', rows_done: '2', chunks: '2' }),
    );
    expect((await alice.query(search)).rows).toHaveLength(2);
    await alice.query(drop);
    expect((await alice.query(`SELECT to_regclass('readme.stories_body_chunks') AS t`)).rows[0].t).toBeNull();
  } finally {
    await alice.query('RESET search_path');
  }
}, 120_000);

/**
 * A vectorizer `name` over a new table app.<name> whose two rows are inserted while no worker runs;
 * `settle` gets their job, claimed by the test as a worker, and says what becomes of it. Then a
 * worker runs again, and an update of the rows queues them anew: they end done, whatever `settle` did.
 */
async function withClaimedJob(name: string, settle: (claimer: pg.Client, job: protocol.ClaimedJob) => Promise<void>) {
  await alice.query(`CREATE TABLE app.${name} (id integer PRIMARY KEY, body text)`);
  await alice.query(`SELECT svc_vectorize('app.${name}', 'body', '${name}')`);
  await worker!.stop();
  try {
    await alice.query(`INSERT INTO app.${name} VALUES (1, 'one'), (2, 'two')`);
    const claimer = await svc().connect(ROLES.worker);
    const jobs = await protocol.claim(claimer, { workerId: 'test', maxJobs: 10, leaseSeconds: 30, maxRetries: 0 });
    expect(jobs.map((j) => j.function_name)).toEqual(['vectorize']);
    await settle(claimer, jobs[0]);
  } finally {
    await startOne();
  }
  await alice.query(`UPDATE app.${name} SET body = body`);
  expect(await settled(alice, name)).toMatchObject({ rows_failed: '0', rows_done: '2', chunks: '2' });
}

test("a job that fails for good marks its rows failed with the worker's error; the next write queues them again", async () => {
  await withClaimedJob('doomed', async (claimer, job) => {
    await protocol.fail(claimer, job, 'the model fell over', 0);
    expect(await status(alice, 'doomed')).toMatchObject({
      rows_pending: '0',
      rows_failed: '2',
      last_error: 'the model fell over',
    });
  });
}, 120_000);

test('a result whose vector is not whole reals fails its rows with the reason and writes no chunk; the next write heals them', async () => {
  await withClaimedJob('torn', async (claimer, job) => {
    // The first item's vector is five bytes (a real, 1.0, and one more).
    const result = JSON.stringify({
      items: [
        { chunks: [{ text: 'one', embedding: Buffer.from([0, 0, 128, 63, 0]).toString('base64') }] },
        { chunks: [{ text: 'two', embedding: 'AACAPw==' }] },
      ],
    });
    expect(await protocol.complete(claimer, job, result)).toBe(true);
    expect(await status(alice, 'torn')).toMatchObject({
      rows_failed: '2',
      chunks: '0',
      last_error: 'svc__reals: bytes must hold whole 4-byte reals (holds 5 bytes)',
    });
    expect((await alice.query(`SELECT count(*)::int AS n FROM app.torn_chunks`)).rows[0].n).toBe(0);
  });
}, 120_000);

// Real tokenizers: bge's WordPiece (an embedding model) and qwen2's byte-level BPE (a decoder, embedded as svc_embed does).
test.each([
  ['bge', 'a WordPiece vocabulary (bge)', () => bertEmbeddingModel('mean')],
  ['qwen', 'a byte-level BPE vocabulary (qwen2)', () => realVocabModel('qwen2')],
])(
  '%s: multi-byte text on %s chunked by its tokens, the vectors svc_embed gives under that model',
  async (model, _what, file) => {
    const path = await file();
    const served = startWorker(svc().cluster, {}, `${model}=${path}`);
    try {
      await eventually(
        `a worker serving ${model}`,
        async () =>
          (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running' AND $1 = ANY (models)`, [model]))
            .rows.length > 0,
      );
      const text =
        'Café crème at the Zürich station. 東京の夜は静かでした。 The naïve résumé — 🌙 moonlight over São Paulo, señor! Ελληνικά κείμενα και ελληνικές λέξεις.';
      const table = `intl_${model}`;
      await alice.query(`CREATE TABLE app.${table} (id integer PRIMARY KEY, body text)`);
      await alice.query(`INSERT INTO app.${table} VALUES (1, $1)`, [text]);
      await alice.query(
        `SELECT svc_vectorize('app.${table}', 'body', '${table}', model := '${model}', chunk_by := 'tokens', chunk_size := 10, chunk_overlap := 2)`,
      );
      await settled(alice, table);
      const engine = await Engine.load({ model: path, threads: 1, contextSize: 256 });
      let expected: string[];
      try {
        expected = splitText(text, { by: 'tokens', size: 10, overlap: 2, separators: DEFAULT_SEPARATORS }, (piece) =>
          engine.countTokens(piece),
        );
      } finally {
        await engine.dispose();
      }
      expect(expected.length).toBeGreaterThan(3);
      const rows = (await alice.query(`SELECT chunk, embedding FROM app.${table}_chunks ORDER BY chunk_index`)).rows;
      expect(rows.map((r) => r.chunk)).toEqual(expected);
      await alice.query(`SET svc.model = '${model}'`);
      try {
        for (const row of rows) expect(row.embedding).toEqual(await embed(row.chunk));
      } finally {
        await alice.query(`RESET svc.model`);
      }
      const found = (
        await alice.query(`SELECT key, chunk_index, distance FROM svc_search('${table}', $1, 1)`, [expected[2]])
      ).rows;
      expect(found).toEqual([{ key: { id: 1 }, chunk_index: 2, distance: expect.any(Number) }]);
      expect(found[0].distance).toBeLessThan(1e-6);
    } finally {
      await served.stop();
    }
  },
  180_000,
);

// pgvector is not a Debian 12 package: this runs where it is installed, and is skipped (reported as such) elsewhere.
const PGVECTOR = existsSync(
  join(execFileSync('pg_config', ['--sharedir'], { encoding: 'utf8' }).trim(), 'extension/vector.control'),
);

(PGVECTOR ? test : test.skip)(
  'with pgvector: a vector(n) destination, the same embeddings, search through <=>',
  async () => {
    await db.query('CREATE EXTENSION IF NOT EXISTS vector');
    const dims = (await alice.query(`SELECT cardinality(svc_embed('x')) AS n`)).rows[0].n;
    await alice.query(`CREATE TABLE app.vec (id integer PRIMARY KEY, body text);
    INSERT INTO app.vec SELECT i, 'A story about the number ' || i FROM generate_series(1, 20) i`);
    // No dimensions: the model's, as its worker loaded it.
    await alice.query(`SELECT svc_vectorize('app.vec', 'body', 'vec')`);
    await settled(alice, 'vec');
    const type = (
      await alice.query(
        `SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = 'app.vec_chunks'::regclass AND attname = 'embedding'`,
      )
    ).rows[0].t;
    expect(type).toBe(`vector(${dims})`);
    const stored = (await alice.query(`SELECT embedding::real[] AS e FROM app.vec_chunks WHERE id = 7`)).rows[0].e;
    expect(stored).toEqual(await embed('A story about the number 7'));
    // svc made the HNSW index a dimension allows; the search goes through it.
    const indexes = (
      await db.query(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = 'app' AND tablename = 'vec_chunks' AND indexdef LIKE '%hnsw%'`,
      )
    ).rows;
    expect(indexes).toHaveLength(1);
    expect(indexes[0].indexdef).toMatch(/USING hnsw \(embedding \S*vector_cosine_ops\)/);
    await alice.query('SET enable_seqscan = off');
    try {
      const plan = (
        await alice.query(
          `EXPLAIN (COSTS OFF) SELECT id FROM app.vec_chunks ORDER BY embedding <=> (SELECT embedding FROM app.vec_chunks LIMIT 1) LIMIT 3`,
        )
      ).rows;
      expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index Scan using vec_chunks_embedding_idx/);
    } finally {
      await alice.query('RESET enable_seqscan');
    }
    // svc_search's own statement (vectorizer-sql.ts searchQuery) goes through the index.
    const sql = searchQuery({
      destination: 'app.vec_chunks',
      svcSchema: 'public',
      keys: [{ name: 'id' }],
      vectorSchema: 'public',
    });
    const query = `[${(await alice.query(`SELECT svc_embed('A story about the number 7') AS e`)).rows[0].e.join(',')}]`;
    const searchPlan = (
      await alice.query(`EXPLAIN (COSTS OFF) ${sql.replaceAll('$1', `'${query}'`).replaceAll('$2', '3')}`)
    ).rows;
    expect(searchPlan.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index Scan using vec_chunks_embedding_idx/);
    // index := 'none': none built.
    await alice.query(`CREATE TABLE app.vec2 (id integer PRIMARY KEY, body text)`);
    await alice.query(`SELECT svc_vectorize('app.vec2', 'body', 'vec2', index := 'none')`);
    expect(
      (
        await db.query(
          `SELECT count(*)::int AS n FROM pg_indexes WHERE tablename = 'vec2_chunks' AND indexdef LIKE '%hnsw%'`,
        )
      ).rows[0].n,
    ).toBe(0);
    await expect(
      alice.query(`SELECT svc_vectorize('app.vec2', 'body', 'vec3', index := 'ivfflat')`),
    ).rejects.toMatchObject({
      code: '22023',
      message: `svc_vectorize: index must be 'hnsw' or 'none' (got "ivfflat")`,
    });
    const found = (await alice.query(`SELECT key, distance FROM svc_search('vec', 'A story about the number 7', 3)`))
      .rows;
    expect(found[0].key).toEqual({ id: 7 });
    expect(found[0].distance).toBeLessThan(1e-6);
  },
  120_000,
);
