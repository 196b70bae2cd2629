// One context rule and one set of model roles on every surface (#45): the library, the CLI and SQL
// (sync and async, through a real worker) run each model in its training context; a prompt that
// leaves no room for an output token, or a text to embed over the context, is refused at once with
// the token counts and the limit, the same words everywhere, and never retried; an output that
// reaches the end of the context stops there, with the same bytes everywhere. What a model can do
// comes from its GGUF: an embedding model is never offered for generation, and a reranker's ranking
// head scores svc_rerank as it scores the library's rerank. Real models: the trained stories260K
// (512-token context), a random-weight decoder with qwen2's real 151,936-token vocabulary (2048),
// and BERT encoders with bge's vocabulary (512), one pooled by CLS and one with a ranking head.
import type pg from 'pg';
import { ClientError, configure, embed, generate, loadModel, rerank, unloadModels } from '../../src/client/index.js';
import { STORIES_MODEL, bertEmbeddingModel, realVocabModel } from '../helpers/real-models.js';
import { runSvc } from '../helpers/cli.js';
import { physicalCores } from '../../src/engine/threads.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let db: pg.Client;
let alice: pg.Client;
let worker: WorkerProcess;
let qwen: string;
let bge: string;
let ranker: string;

const PROMPT = 'Once upon a time';
/** The library's message after its function's name: the words SQL and the CLI give too. */
const libraryError = (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ClientError);
      return error as ClientError;
    },
  );
/** The SQL error of a statement, with its SQLSTATE. */
const sqlError = (client: pg.Client, text: string, values: unknown[] = []) =>
  client.query(text, values).then(
    () => {
      throw new Error(`expected ${text} to fail`);
    },
    (error: unknown) => error as pg.DatabaseError,
  );

beforeAll(async () => {
  configure({ threads: 1 });
  [qwen, bge, ranker] = await Promise.all([
    realVocabModel('qwen2'),
    bertEmbeddingModel('cls'),
    bertEmbeddingModel('rank'),
  ]);
  db = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  worker = startWorker(
    svc().cluster,
    { SVC_WORKER_CONCURRENCY: '2', SVC_WORKER_MAX_RETRIES: '3' },
    `default=${STORIES_MODEL},qwen=${qwen},bge=${bge},ranker=${ranker}`,
  );
  await eventually(
    'the worker serving its four models',
    async () =>
      (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running' AND 'ranker' = ANY (models)`)).rows
        .length > 0,
  );
}, 180_000);
afterAll(async () => {
  await worker?.stop('SIGKILL');
  await unloadModels();
});

test("the worker's start line says each model's threads, context, generation contexts and what it serves", () => {
  const started = worker.logs
    .map((line) => JSON.parse(line) as { msg?: string; engines?: unknown })
    .find((l) => l.msg === 'worker started');
  // Its 2 sequences shared out over a context per core at one thread; none for a model that cannot generate.
  const generationContexts = Math.min(2, physicalCores());
  expect(started?.engines).toEqual({
    default: { threads: 1, contextSize: 512, generationContexts, serves: ['generate', 'embed', 'rerank'] },
    qwen: { threads: 1, contextSize: 2048, generationContexts, serves: ['generate', 'embed', 'rerank'] },
    bge: { threads: 1, contextSize: 512, generationContexts: 0, serves: ['embed', 'rerank'] },
    ranker: { threads: 1, contextSize: 512, generationContexts: 0, serves: ['embed', 'rerank'] },
  });
});

describe('context', () => {
  test('an output that reaches the end of the context stops there: the same bytes from the library, the CLI, SQL sync and async', async () => {
    const library = await generate(PROMPT, { model: STORIES_MODEL, maxTokens: 512 });
    const info = await loadModel(STORIES_MODEL);
    expect(info.contextSize).toBe(512);
    expect(info.trainContextSize).toBe(512);
    const sync = (await alice.query(`SELECT svc_generate($1, max_tokens := 512) AS t`, [PROMPT])).rows[0].t as string;
    const id = (
      await alice.query(`SELECT svc_generate_async($1, max_tokens := 512, use_cache := false) AS id`, [PROMPT])
    ).rows[0].id as string;
    const async = (await alice.query(`SELECT svc_get_async_result($1, 60) AS t`, [id])).rows[0].t as string;
    const cli = await runSvc(['generate', PROMPT, '--max-tokens', '512', '--model', STORIES_MODEL], {
      env: { SVC_MODEL: undefined, SVC_THREADS: '1' },
    });
    expect(cli.code).toBe(0);
    expect(sync).toBe(library);
    expect(async).toBe(library);
    expect(cli.stdout).toBe(library + '\n');
  }, 120_000);

  test('a prompt longer than the context is refused at once, with its numbers, on every surface, and never retried', async () => {
    const prompt = 'Once upon a time '.repeat(200);
    const library = await libraryError(generate(prompt, { model: STORIES_MODEL, maxTokens: 8 }));
    expect(library.code).toBe('context-exceeded');
    expect(library.message).toMatch(
      /^generate: prompt is \d+ tokens, over the 511 a context of 512 tokens leaves for a prompt/,
    );
    const words = library.message.replace(/^generate: /, '');
    const sync = await sqlError(alice, `SELECT svc_generate($1, max_tokens := 8)`, [prompt]);
    expect(sync.code).toBe('SV001');
    expect(sync.message).toContain(words);
    const id = (await alice.query(`SELECT svc_generate_async($1, max_tokens := 8) AS id`, [prompt])).rows[0]
      .id as string;
    const async = await sqlError(alice, `SELECT svc_get_async_result($1, 60)`, [id]);
    expect(async.code).toBe('SV001');
    expect(async.message).toContain(words);
    const cli = await runSvc(['generate', prompt, '--max-tokens', '8', '--model', STORIES_MODEL], {
      env: { SVC_MODEL: undefined, SVC_THREADS: '1' },
    });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toBe(`svc generate: ${words} [context-exceeded]\n`);
    // Failed on the first attempt, not after SVC_WORKER_MAX_RETRIES.
    const rows = (
      await db.query(`SELECT status, retry_count, attempt FROM svc_queue WHERE parameters->>'prompt' = $1`, [prompt])
    ).rows;
    expect(rows).toEqual([
      { status: 'failed', retry_count: 0, attempt: 1 },
      { status: 'failed', retry_count: 0, attempt: 1 },
    ]);
  }, 120_000);

  test('a text to embed over the context is refused with its numbers and the way out (chunks), never retried', async () => {
    const text = 'Once upon a time '.repeat(200);
    const library = await libraryError(embed(text, { model: STORIES_MODEL }));
    expect(library.code).toBe('context-exceeded');
    expect(library.message).toMatch(
      /^embed: the text is \d+ tokens, over the 511 a context of 512 tokens takes: split it into chunks of at most 511 tokens/,
    );
    const sync = await sqlError(alice, `SELECT svc_embed($1)`, [text]);
    expect(sync.code).toBe('SV001');
    expect(sync.message).toContain(library.message.replace(/^embed: /, ''));
    const rows = (
      await db.query(
        `SELECT status, retry_count FROM svc_queue WHERE function_name = 'embed' AND parameters->>'text_input' = $1`,
        [text],
      )
    ).rows;
    expect(rows).toEqual([{ status: 'failed', retry_count: 0 }]);
  }, 120_000);

  test("on qwen2's real vocabulary: the same bytes where the output reaches the context's end, the same refusal past it", async () => {
    await alice.query(`SET svc.generate_model = 'qwen'`);
    try {
      const near = 'Hello, world! Grüße, 世界. '.repeat(150);
      const prompt = (await loadModel(qwen)).contextSize;
      expect(prompt).toBe(2048);
      const library = await generate(near, { model: qwen, maxTokens: 512 });
      const sync = (await alice.query(`SELECT svc_generate($1, max_tokens := 512) AS t`, [near])).rows[0].t as string;
      expect(sync).toBe(library);
      const long = near.repeat(4);
      const refused = await libraryError(generate(long, { model: qwen, maxTokens: 8 }));
      // Four times the context and more is told from a prefix: "at least" (src/engine/input-bound.ts), on every surface alike.
      expect(refused.message).toMatch(
        /^generate: prompt is at least \d+ tokens, over the 2047 a context of 2048 tokens leaves for a prompt/,
      );
      const error = await sqlError(alice, `SELECT svc_generate($1, max_tokens := 8)`, [long]);
      expect(error.code).toBe('SV001');
      expect(error.message).toContain(refused.message.replace(/^generate: /, ''));
    } finally {
      await alice.query(`RESET svc.generate_model`);
    }
  }, 180_000);
});

test("a vectorizer's dimensions other than its model's are refused at the declaration, with both numbers; nothing is created", async () => {
  await db.query(`CREATE TABLE notes (id integer PRIMARY KEY, body text); GRANT ALL ON notes TO alice`);
  const error = await sqlError(
    alice,
    `SELECT svc_vectorize('notes', 'body', 'notes_v', model := 'bge', dimensions := 1)`,
  );
  expect(error.code).toBe('22023');
  expect(error.message).toBe(
    `svc_vectorize: dimensions must be the length of "bge"'s embeddings, 64 (got 1): pass 64, or NULL for the model's`,
  );
  expect((await db.query(`SELECT to_regclass('notes_v') AS t`)).rows[0].t).toBeNull();
});

describe('what a model can do comes from the model', () => {
  test('an embedding model is never declared as serving generate: narrowed when its worker loads it, refused by svc_model_declare', async () => {
    const models = (
      await db.query(
        `SELECT name, serves, capabilities, dimension FROM svc_models WHERE name IN ('bge', 'ranker', 'default') ORDER BY name`,
      )
    ).rows;
    expect(models).toEqual([
      { name: 'bge', serves: ['embed', 'rerank'], capabilities: ['embed', 'rerank'], dimension: 64 },
      {
        name: 'default',
        serves: ['generate', 'embed', 'rerank'],
        capabilities: ['generate', 'embed', 'rerank'],
        dimension: 64,
      },
      { name: 'ranker', serves: ['embed', 'rerank'], capabilities: ['embed', 'rerank'], dimension: 64 },
    ]);
    const admin = await svc().connect(ROLES.admin);
    const declared = await sqlError(admin, `SELECT svc_model_declare('bge', ARRAY['generate', 'embed'])`);
    expect(declared.code).toBe('22023');
    expect(declared.message).toMatch(
      /^svc_model_declare: model 'bge' cannot serve generate: the file its worker loaded \(svc-bert-bge-cls[^)]*\) is an embedding model, which serves only embed, rerank$/,
    );
    await admin.query(`SELECT svc_model_declare('bge', ARRAY['embed'])`); // narrower is fine
    await admin.query(`SELECT svc_model_declare('bge', ARRAY['embed', 'rerank'])`);
    // A generation for it is refused at the call: nothing is queued, nothing cached.
    await alice.query(`SET svc.generate_model = 'bge'`);
    try {
      const error = await sqlError(alice, `SELECT svc_generate('a cat')`);
      expect(error.code).toBe('22023');
      expect(error.message).toMatch(/bge/);
    } finally {
      await alice.query(`RESET svc.generate_model`);
    }
    expect(
      (
        await db.query(
          `SELECT count(*)::int AS n FROM svc_cache WHERE function_name = 'generate' AND model LIKE 'svc-bert%'`,
        )
      ).rows[0].n,
    ).toBe(0);
    const library = await libraryError(generate('a cat', { model: bge }));
    expect(library.code).toBe('unsupported-operation');
    expect(library.message).toMatch(
      /^generate: the model is an embedding model \(architecture bert, pooling cls\): it embeds and ranks, it does not generate text/,
    );
  }, 60_000);

  test("a reranker's ranking head scores svc_rerank and the library's rerank alike (0..1, not cosine)", async () => {
    const documents = ['The cat sat on the mat.', 'Stocks fell sharply today.', 'A kitten naps in the sun.'];
    const library = await rerank('a cat sleeping', documents, { model: ranker });
    expect((await loadModel(ranker)).hasRankingHead).toBe(true);
    for (const r of library) expect(r.score >= 0 && r.score <= 1).toBe(true);
    await alice.query(`SET svc.rerank_model = 'ranker'`);
    try {
      const rows = (await alice.query(`SELECT * FROM svc_rerank('a cat sleeping', $1)`, [documents])).rows as Array<{
        document: string;
        score: number;
      }>;
      expect(rows.map((r) => r.document)).toEqual(library.map((r) => r.document));
      expect(rows.map((r) => Math.fround(r.score))).toEqual(library.map((r) => Math.fround(r.score)));
    } finally {
      await alice.query(`RESET svc.rerank_model`);
    }
  }, 60_000);
});

describe('smaller items', () => {
  const SCHEMA =
    '{"type":"object","properties":{"reasoning":{"type":"string","maxLength":20},"answer":{"type":"string","enum":["yes","no"]}},"required":["reasoning","answer"]}';

  test('svc_generate_json takes a schema of type json (a json column keeps it as written): the bytes of the text overload, sync, batch and async', async () => {
    const asText = (await alice.query(`SELECT svc_generate_json($1, $2::text, 80) AS t`, [PROMPT, SCHEMA])).rows[0]
      .t as string;
    const asJson = (await alice.query(`SELECT svc_generate_json($1, $2::json, 80) AS t`, [PROMPT, SCHEMA])).rows[0]
      .t as string;
    expect(asJson).toBe(asText);
    expect(Object.keys(JSON.parse(asJson) as object)).toEqual(['reasoning', 'answer']); // "reasoning first", as written
    const batch = (await alice.query(`SELECT result FROM svc_generate_json(ARRAY[$1], $2::json, 80)`, [PROMPT, SCHEMA]))
      .rows;
    expect(batch).toEqual([{ result: asText }]);
    const id = (await alice.query(`SELECT svc_generate_json_async($1, $2::json, 80) AS id`, [PROMPT, SCHEMA])).rows[0]
      .id as string;
    expect((await alice.query(`SELECT svc_get_async_result($1, 60) AS t`, [id])).rows[0].t).toBe(asText);
  }, 60_000);

  test('svc_get_async_results: a NULL item is reported in its row, the other rows answered', async () => {
    const id = (await alice.query(`SELECT svc_generate_async($1, 4) AS id`, [PROMPT])).rows[0].id as string;
    const rows = (
      await alice.query(
        `SELECT ord, request_id, status, error FROM svc_get_async_results(ARRAY[$1, NULL]::uuid[], 60)`,
        [id],
      )
    ).rows;
    expect(rows).toEqual([
      { ord: 1, request_id: id, status: 'completed', error: null },
      { ord: 2, request_id: null, status: null, error: 'svc_get_async_results: request_ids[2] is NULL' },
    ]);
  }, 60_000);

  test("svc_cache_evict's rows show the start of each cached answer", async () => {
    const admin = await svc().connect(ROLES.admin);
    const rows = (
      await admin.query(
        `SELECT function_name, result_preview FROM svc_cache_evict(keep := 0) WHERE function_name = 'generate_json'`,
      )
    ).rows;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.result_preview).toMatch(/^\{"reasoning":/);
  });
});
