// Summaries in continuous aggregates (#56), with a real worker on stories260K: svc_summarize_partial
// stores a group's state as a value (a materialized view's column, a table of partials kept as rows
// arrive), svc_summarize_final combines stored partials into the summary. A day added later is
// summarized from its own rows only and changes the final summary; the old days' rows are not read
// again (they are deleted before the new day's refresh). Options as jsonb, on svc_summarize too.
import type pg from 'pg';
import { STORIES_MODEL } from '../helpers/real-models.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let su: pg.Client;
let alice: pg.Client;
let worker: WorkerProcess;

const SENTENCES = [
  'Lily had a red ball.',
  'She played in the park with her dog.',
  'The sun was warm and the sky was blue.',
  'Tom came to play too.',
  'They were happy.',
];
const OPTIONS = `'{"max_tokens": 24, "seed": 7}'::jsonb`;

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2' }, STORIES_MODEL);
  await eventually(
    'the worker to heartbeat',
    async () => (await su.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
  await su.query(`CREATE SCHEMA app AUTHORIZATION alice`);
  await alice.query(`SET search_path = app, public`);
  await alice.query(`CREATE TABLE events (id integer PRIMARY KEY, day integer NOT NULL, body text)`);
  await addDay(1);
  await addDay(2);
  await alice.query(`SET svc.summarize_chunk_size = 300`);
}, 120_000);
afterAll(async () => {
  await worker?.stop();
});

/** Twelve numbered rows (about 500 characters: a chunk summarized, text left over) on `day`. */
async function addDay(day: number): Promise<void> {
  await alice.query(
    `INSERT INTO events SELECT $1 * 100 + i, $1, $1 || '.' || i || ' ' || ($2::text[])[1 + (i + $1) % 5] FROM generate_series(1, 12) i`,
    [day, SENTENCES],
  );
}

const generations = async () =>
  (await su.query(`SELECT count(*)::int AS n FROM svc_queue WHERE function_name = 'generate'`)).rows[0].n as number;
const one = async (sql: string) => (await alice.query(sql)).rows[0];

test('options as jsonb: svc_summarize(body, options) is svc_summarize(body, max_tokens, seed); unknown keys and bad values are named', async () => {
  const byOptions = (await one(`SELECT svc_summarize(body, ${OPTIONS} ORDER BY id) AS s FROM events WHERE day = 1`)).s;
  expect(byOptions).toBe((await one(`SELECT svc_summarize(body, 24, 7 ORDER BY id) AS s FROM events WHERE day = 1`)).s);
  expect(byOptions).toMatch(/\S/);
  const cases: Array<[string, string, string]> = [
    [
      `'{"max_token": 24}'::jsonb`,
      '22023',
      'svc_summarize: options has an unknown key "max_token" (known: max_tokens, seed)',
    ],
    [`'{"max_tokens": 0}'::jsonb`, '22023', 'svc_summarize: options.max_tokens must be between 1 and 32768 (got 0)'],
    [`'{"seed": "7"}'::jsonb`, '22023', 'svc_summarize: options.seed must be an integer'],
    [`'[24]'::jsonb`, '22023', 'svc_summarize: options must be a JSON object of max_tokens and seed'],
    [`NULL::jsonb`, '22004', 'svc_summarize: options must not be NULL'],
  ];
  for (const [options, code, message] of cases) {
    await expect(alice.query(`SELECT svc_summarize(body, ${options}) FROM events`)).rejects.toMatchObject({
      code,
      message,
    });
  }
  await expect(alice.query(`SELECT svc_summarize_partial(body, '{"x": 1}'::jsonb) FROM events`)).rejects.toMatchObject({
    message: 'svc_summarize_partial: options has an unknown key "x" (known: max_tokens, seed)',
  });
}, 120_000);

test('a partial is a storable value; the final of one group is svc_summarize of its rows, byte for byte', async () => {
  await alice.query(
    `CREATE MATERIALIZED VIEW daily AS SELECT day, svc_summarize_partial(body, ${OPTIONS} ORDER BY id) AS partial FROM events GROUP BY day`,
  );
  const partials = (await alice.query(`SELECT day, partial FROM daily ORDER BY day`)).rows;
  expect(partials.map((r) => r.day)).toEqual([1, 2]);
  for (const { partial } of partials) {
    expect(partial).toMatchObject({
      format: 'svc_summarize/1',
      unit: 'characters',
      chunk: 300,
      max_tokens: 24,
      seed: 7,
      rows: 12,
    });
    expect(partial.parts.length).toBeGreaterThanOrEqual(1); // a chunk was summarized,
    expect(partial.text.length).toBeLessThan(300); // and less than a chunk of text waits
  }
  for (const day of [1, 2]) {
    const single = (await one(`SELECT svc_summarize(body, ${OPTIONS} ORDER BY id) AS s FROM events WHERE day = ${day}`))
      .s;
    expect((await one(`SELECT svc_summarize_final(partial) AS s FROM daily WHERE day = ${day}`)).s).toBe(single);
  }
  const both = (await one(`SELECT svc_summarize_final(partial ORDER BY day) AS s FROM daily`)).s;
  expect(both).toMatch(/\S/);
  expect((await one(`SELECT svc_summarize_final(partial ORDER BY day) AS s FROM daily`)).s).toBe(both);
  // Refreshed, the view reads every row again, but the unchanged days' model calls are cache hits: no new request.
  const before = await generations();
  await alice.query(`REFRESH MATERIALIZED VIEW daily`);
  expect(await generations()).toBe(before);
  expect((await one(`SELECT svc_summarize_final(partial ORDER BY day) AS s FROM daily`)).s).toBe(both);
  await alice.query(`DROP MATERIALIZED VIEW daily`);
}, 180_000);

test('kept incrementally: a day added later is summarized from its rows alone and changes the final summary, the old rows not read again', async () => {
  await alice.query(`CREATE TABLE summaries (day integer PRIMARY KEY, partial jsonb NOT NULL)`);
  const refresh = (where: string) =>
    alice.query(
      `INSERT INTO summaries SELECT day, svc_summarize_partial(body, ${OPTIONS} ORDER BY id) FROM events WHERE ${where} GROUP BY day`,
    );
  await refresh('day <= 2');
  const final = async () =>
    (await one(`SELECT svc_summarize_final(partial ORDER BY day) AS s FROM summaries`)).s as string;
  const before = await final();
  // The old days' rows are gone: only their stored partials stand for them.
  await alice.query(`DELETE FROM events WHERE day <= 2`);
  await addDay(3);
  await refresh('day = 3');
  const after = await final();
  expect(after).toMatch(/\S/);
  expect(after).not.toBe(before);
  expect(await final()).toBe(after);
  // Three stored partials: the two old days' and the new one's.
  expect((await alice.query(`SELECT count(*)::int AS n FROM summaries`)).rows[0].n).toBe(3);
}, 180_000);

test('a stored partial is checked before it steers a model call; NULL partials are skipped; no rows: NULL', async () => {
  const cases: Array<[string, string]> = [
    [`'{"x": 1}'`, 'its format is undefined, not "svc_summarize/1"'],
    [`'[1]'`, 'not a JSON object'],
    [
      `'{"format": "svc_summarize/1", "chunk": 10, "unit": "bytes", "max_tokens": 24, "seed": 7, "text": "", "parts": [], "rows": 1}'`,
      'chunk must be an integer from 64 to 1000000',
    ],
    [
      `'{"format": "svc_summarize/1", "chunk": 300, "unit": "words", "max_tokens": 24, "seed": 7, "text": "", "parts": [], "rows": 1}'`,
      'unit must be "characters" or "bytes"',
    ],
    [
      `'{"format": "svc_summarize/1", "chunk": 300, "unit": "bytes", "max_tokens": 24, "seed": 7, "text": "", "parts": [1], "rows": 1}'`,
      'parts must be an array of at most 1000 strings',
    ],
    [
      `'{"format": "svc_summarize/1", "chunk": 300, "unit": "bytes", "max_tokens": 24, "seed": 7, "text": "", "parts": [], "rows": 1, "owner": "me"}'`,
      'unknown key "owner"',
    ],
  ];
  for (const [partial, why] of cases) {
    await expect(alice.query(`SELECT svc_summarize_final(${partial}::jsonb)`)).rejects.toMatchObject({
      code: '22023',
      message: `svc_summarize_final: partial is not a partial of svc_summarize_partial (${why})`,
    });
  }
  await expect(
    alice.query(
      `SELECT svc_summarize_final('{"format": "svc_summarize/1", "chunk": 300, "unit": "bytes", "max_tokens": 0, "seed": 7, "text": "", "parts": [], "rows": 1}'::jsonb)`,
    ),
  ).rejects.toMatchObject({ message: 'svc_summarize_final: partial.max_tokens must be between 1 and 32768 (got 0)' });
  expect((await one(`SELECT svc_summarize_final(p) AS s FROM (VALUES (NULL::jsonb)) v(p)`)).s).toBeNull();
  expect((await one(`SELECT svc_summarize_partial(body) AS p FROM events WHERE false`)).p).toBeNull();
  // Partials of different options do not combine.
  await expect(
    alice.query(`SELECT svc_summarize_final(p ORDER BY o) FROM (SELECT 1 AS o, svc_summarize_partial(body, ${OPTIONS}) AS p FROM events WHERE day = 3
                 UNION ALL SELECT 2, svc_summarize_partial(body, '{"max_tokens": 30}'::jsonb) FROM events WHERE day = 3) s`),
  ).rejects.toMatchObject({
    code: '22023',
    message:
      'svc_summarize_final: partial must have the max_tokens and seed of the partials before it (max_tokens 24, seed 7; got max_tokens 30, seed 42)',
  });
}, 120_000);

test("by default a chunk is UTF-8 bytes that fit the model's context: multi-byte rows, and partials of either unit combined", async () => {
  await alice.query(`RESET svc.summarize_chunk_size`);
  // 24 rows of 2-byte characters (about 1,100 bytes, 1,000 characters): chunks of stories260K's 512-token context.
  await alice.query(`CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL)`);
  await alice.query(
    `INSERT INTO notes SELECT i, i || '. Zoé a vu un éléphant près du café, à côté de l''école.' FROM generate_series(1, 24) i`,
  );
  const partial = (await one(`SELECT svc_summarize_partial(body, ${OPTIONS} ORDER BY id) AS p FROM notes`)).p;
  expect(partial).toMatchObject({ format: 'svc_summarize/1', unit: 'bytes', max_tokens: 24, seed: 7, rows: 24 });
  expect(partial.chunk).toBeGreaterThanOrEqual(64);
  expect(partial.chunk).toBeLessThan(512);
  expect(partial.parts.length).toBeGreaterThanOrEqual(1);
  expect(Buffer.byteLength(partial.text)).toBeLessThan(partial.chunk); // less than a chunk of bytes waits
  const single = (await one(`SELECT svc_summarize(body, ${OPTIONS} ORDER BY id) AS s FROM notes`)).s;
  expect(single).toMatch(/\S/);
  expect(
    (
      await one(
        `SELECT svc_summarize_final(p) AS s FROM (SELECT svc_summarize_partial(body, ${OPTIONS} ORDER BY id) AS p FROM notes) v`,
      )
    ).s,
  ).toBe(single);
  // A partial made with svc.summarize_chunk_size (characters) and one made without (bytes) combine: the first one's chunk sizes the rest.
  await alice.query(`CREATE TABLE note_parts (o integer PRIMARY KEY, partial jsonb NOT NULL)`);
  await alice.query(`SET svc.summarize_chunk_size = 300`);
  await alice.query(
    `INSERT INTO note_parts SELECT 1, svc_summarize_partial(body, ${OPTIONS} ORDER BY id) FROM notes WHERE id <= 12`,
  );
  await alice.query(`RESET svc.summarize_chunk_size`);
  await alice.query(
    `INSERT INTO note_parts SELECT 2, svc_summarize_partial(body, ${OPTIONS} ORDER BY id) FROM notes WHERE id > 12`,
  );
  const units = (await alice.query(`SELECT partial->>'unit' AS unit FROM note_parts ORDER BY o`)).rows.map(
    (r) => r.unit,
  );
  expect(units).toEqual(['characters', 'bytes']);
  const mixed = (await one(`SELECT svc_summarize_final(partial ORDER BY o) AS s FROM note_parts`)).s;
  expect(mixed).toMatch(/\S/);
  expect((await one(`SELECT svc_summarize_final(partial ORDER BY o) AS s FROM note_parts`)).s).toBe(mixed);
  await alice.query(`SET svc.summarize_chunk_size = 300`);
}, 180_000);
