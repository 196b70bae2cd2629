// One JSON request, one answer on every surface (#34 point 1): the library, the CLI, SQL sync (one
// row and set-based) and async give the same bytes for the same prompt, schema and seed, on the
// trained stories260K, and on a qwen2-vocabulary model (byte-level BPE, multi-byte property names). The generated JSON's properties follow the schema's order as written: a schema
// given to SQL as text (a literal resolves to the text overloads) keeps it through the queue; a jsonb
// schema has jsonb's key order (shorter keys first) before svc sees it, documented in the README.
import { basename } from 'node:path';
import type pg from 'pg';
import { generate, unloadModels, configure } from '../../src/client/index.js';
import { useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';
import { STORIES_MODEL, realVocabModel } from '../helpers/real-models.js';
import { runSvc } from '../helpers/cli.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let db: pg.Client;
let worker: WorkerProcess;

beforeAll(async () => {
  db = await svc().connect();
  configure({ threads: 1 });
  worker = startWorker(svc().cluster, {}, STORIES_MODEL);
  await eventually(
    'the worker to heartbeat',
    async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
}, 90_000);
afterAll(async () => {
  await worker?.stop();
  await unloadModels();
});

const PROMPT = 'Tom is 9.';
// Written name first: jsonb would put age first.
const SCHEMA =
  '{"type":"object","properties":{"name":{"type":"string","maxLength":24},"age":{"type":"integer","minimum":0,"maximum":120}},"required":["name","age"]}';
const MAX_TOKENS = 48;

// `generate` with a schema returns the JSON inside <json-output> tags (SPEC 2.1), as the CLI prints it.
const untagged = (text: string) => text.replace(/^<json-output>/, '').replace(/<\/json-output>$/, '');

const cli = (args: string[], input: string) => runSvc(args, { input, env: { SVC_MODEL: undefined, SVC_THREADS: '1' } });

const one = async (sql: string, params: unknown[] = []) =>
  (await db.query(`SELECT ${sql} AS out`, params)).rows[0].out as string;

test('the same JSON request gives the same bytes from the library, the CLI, SQL sync, set-based and async', async () => {
  const library = untagged(
    await generate(PROMPT, { model: STORIES_MODEL, schema: JSON.parse(SCHEMA), maxTokens: MAX_TOKENS }),
  );
  expect(Object.keys(JSON.parse(library))).toEqual(['name', 'age']);

  const command = await cli(
    ['generate', PROMPT, '--schema', '-', '--model', STORIES_MODEL, '--max-tokens', String(MAX_TOKENS)],
    SCHEMA,
  );
  expect(command).toMatchObject({ code: 0, stdout: `<json-output>${library}</json-output>\n` });

  // A literal schema is text: the order written.
  const literal = SCHEMA.replace(/'/g, "''");
  expect(
    await one(`svc_generate_json($1, '${literal}', max_tokens := ${MAX_TOKENS}, use_cache := false)`, [PROMPT]),
  ).toBe(library);
  // A parameter of unknown type resolves the same way; cached, the same bytes again.
  expect(await one(`svc_generate_json($1, $2, max_tokens := ${MAX_TOKENS})`, [PROMPT, SCHEMA])).toBe(library);
  expect(await one(`svc_generate_json($1, $2, max_tokens := ${MAX_TOKENS})`, [PROMPT, SCHEMA])).toBe(library);
  const set = await db.query(
    `SELECT ord, result, error FROM svc_generate_json(ARRAY[$1, 'Lily is 4.'], $2, max_tokens := ${MAX_TOKENS}, use_cache := false)`,
    [PROMPT, SCHEMA],
  );
  expect(set.rows[0]).toEqual({ ord: 1, result: library, error: null });
  const id = await one(`svc_generate_json_async($1, $2, max_tokens := ${MAX_TOKENS}, use_cache := false)`, [
    PROMPT,
    SCHEMA,
  ]);
  expect(await one(`svc_get_async_result($1, 60)`, [id])).toBe(library);
}, 120_000);

test("a jsonb schema has jsonb's key order, the library's answer to that order; its own cache entry", async () => {
  const jsonb = await one(`svc_generate_json($1, $2::jsonb, max_tokens := ${MAX_TOKENS}, use_cache := false)`, [
    PROMPT,
    SCHEMA,
  ]);
  const reordered = (await db.query(`SELECT $1::jsonb::text AS s`, [SCHEMA])).rows[0].s as string;
  expect(Object.keys(JSON.parse(reordered).properties)).toEqual(['age', 'name']);
  expect(Object.keys(JSON.parse(jsonb))).toEqual(['age', 'name']);
  expect(
    untagged(await generate(PROMPT, { model: STORIES_MODEL, schema: JSON.parse(reordered), maxTokens: MAX_TOKENS })),
  ).toBe(jsonb);
  // The text request cached above is another request: the jsonb one is not served from it, nor it from the jsonb one.
  expect(await one(`svc_generate_json($1, $2::jsonb, max_tokens := ${MAX_TOKENS})`, [PROMPT, SCHEMA])).toBe(jsonb);
  expect(
    Object.keys(JSON.parse(await one(`svc_generate_json($1, $2, max_tokens := ${MAX_TOKENS})`, [PROMPT, SCHEMA]))),
  ).toEqual(['name', 'age']);
}, 120_000);

test('a text schema that is not JSON, empty or NULL is refused naming schema, and queues nothing', async () => {
  const queued = async () => Number((await db.query(`SELECT count(*) AS n FROM svc_queue`)).rows[0].n);
  const before = await queued();
  for (const [schema, message, code] of [
    ['{"type":"object",', /^svc_generate_json(_async)?: schema must be JSON text/, '22P02'],
    ['   ', /^svc_generate_json(_async)?: schema must not be empty/, '22023'],
    [null, /^svc_generate_json(_async)?: schema must not be NULL/, '22004'],
    ['"a string"', /^svc_generate_json(_async)?: schema is not a usable constraint/, '22023'],
  ] as const) {
    for (const sql of [`svc_generate_json('p', $1::text)`, `svc_generate_json_async('p', $1::text)`]) {
      const error = await one(sql, [schema]).then(
        () => undefined,
        (e: { message: string; code: string }) => e,
      );
      expect(error?.message).toMatch(message);
      expect(error?.code).toBe(code);
    }
  }
  expect(await queued()).toBe(before);
});

test("allOf's two patterns and a bounded decimal (#54): the library and SQL give the same valid bytes, and the queued grammar holds both", async () => {
  // The grammar kept one of two patterns and left numbers' bounds to the validator; the output then failed validation.
  const schema =
    '{"type":"object","properties":{"code":{"allOf":[{"type":"string","pattern":"^[a-c]{1,6}$"},{"pattern":"b"}]},"confidence":{"type":"number","minimum":0,"maximum":1}},"required":["code","confidence"]}';
  const library = untagged(
    await generate(PROMPT, { model: STORIES_MODEL, schema: JSON.parse(schema), maxTokens: MAX_TOKENS }),
  );
  const value = JSON.parse(library) as { code: string; confidence: number };
  expect(value.code).toMatch(/^(?=.*b)[a-c]{1,6}$/);
  expect(value.confidence >= 0 && value.confidence <= 1).toBe(true);
  expect(
    await one(`svc_generate_json($1, $2, max_tokens := ${MAX_TOKENS}, use_cache := false)`, [PROMPT, schema]),
  ).toBe(library);
  const id = await one(`svc_generate_json_async($1, $2, max_tokens := ${MAX_TOKENS}, use_cache := false)`, [
    PROMPT,
    schema,
  ]);
  const grammar = (await db.query(`SELECT grammar FROM svc_queue WHERE request_id = $1`, [id])).rows[0]
    .grammar as string;
  expect(grammar).toMatch(/string-part/);
  expect(await one(`svc_get_async_result($1, 60)`, [id])).toBe(library);
}, 120_000);

// Before the qwen2 test, which leaves its worker serving the default model.
test('open objects (#36 point 7): the library option, the CLI flag and svc.open_objects give one grammar and the same bytes; a request keeps its own setting', async () => {
  // No additionalProperties: closed by default, open when asked, on every surface.
  const open = { model: STORIES_MODEL, schema: JSON.parse(SCHEMA), maxTokens: MAX_TOKENS, openObjects: true };
  const library = untagged(await generate(PROMPT, open));
  expect(JSON.parse(library)).toMatchObject({ name: expect.any(String), age: expect.any(Number) });

  const command = await cli(
    [
      'generate',
      PROMPT,
      '--schema',
      '-',
      '--open-objects',
      '--model',
      STORIES_MODEL,
      '--max-tokens',
      String(MAX_TOKENS),
    ],
    SCHEMA,
  );
  expect(command).toMatchObject({ code: 0, stdout: `<json-output>${library}</json-output>\n` });
  expect(await cli(['generate', PROMPT, '--open-objects', '--model', STORIES_MODEL], '')).toMatchObject({
    stderr: expect.stringMatching(/--open-objects only applies to --schema/),
  });

  await db.query(`SET svc.open_objects = 'on'`);
  try {
    const id = (
      await db.query(`SELECT svc_generate_json_async($1, $2, max_tokens := ${MAX_TOKENS}, use_cache := false) AS id`, [
        PROMPT,
        SCHEMA,
      ])
    ).rows[0].id;
    const row = (await db.query(`SELECT parameters, grammar FROM svc_queue WHERE request_id = $1`, [id])).rows[0];
    expect(row.parameters.open_objects).toBe(true);
    expect(row.grammar).toMatch(/extra-key/);
    expect(await one(`svc_get_async_result($1)`, [id])).toBe(library);
    expect(
      await one(`svc_generate_json($1, $2, max_tokens := ${MAX_TOKENS}, use_cache := false)`, [PROMPT, SCHEMA]),
    ).toBe(library);
    await db.query(`SET svc.open_objects = 'maybe'`);
    await expect(db.query(`SELECT svc_generate_json_async('x', '{"type":"object"}')`)).rejects.toMatchObject({
      code: '22023',
      message: `setting svc.open_objects must be 'on' or 'off' (is "maybe")`,
    });
  } finally {
    await db.query(`RESET svc.open_objects`);
  }
  // Off (the default): nothing recorded, the closed grammar.
  const closedId = (
    await db.query(`SELECT svc_generate_json_async($1, $2, max_tokens := ${MAX_TOKENS}, use_cache := false) AS id`, [
      PROMPT,
      SCHEMA,
    ])
  ).rows[0].id;
  const closed = (await db.query(`SELECT parameters, grammar FROM svc_queue WHERE request_id = $1`, [closedId]))
    .rows[0];
  expect(closed.parameters.open_objects).toBeUndefined();
  expect(closed.grammar).not.toMatch(/extra-key/);
}, 180_000);

test('on a byte-level BPE vocabulary (qwen2), multi-byte property names in the written order: SQL text = library', async () => {
  const qwen2 = await realVocabModel('qwen2');
  await worker.stop();
  worker = startWorker(svc().cluster, {}, qwen2);
  await eventually(
    'a worker on qwen2',
    async () =>
      (
        await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running' AND model LIKE $1`, [
          `${basename(qwen2)}:%`,
        ])
      ).rows.length > 0,
  );
  const schema =
    '{"type":"object","properties":{"名前":{"enum":["café","日本語","🎉"]},"âge":{"type":"integer","minimum":0,"maximum":99}},"required":["名前","âge"]}';
  const library = untagged(
    await generate('Une personne:', { model: qwen2, schema: JSON.parse(schema), maxTokens: 40 }),
  );
  expect(Object.keys(JSON.parse(library))).toEqual(['名前', 'âge']);
  expect(await one(`svc_generate_json('Une personne:', $1, max_tokens := 40, use_cache := false)`, [schema])).toBe(
    library,
  );
  const id = await one(`svc_generate_json_async('Une personne:', $1, max_tokens := 40, use_cache := false)`, [schema]);
  expect(await one(`svc_get_async_result($1, 60)`, [id])).toBe(library);
}, 180_000);
