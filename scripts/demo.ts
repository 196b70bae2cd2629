// The README's main command: a throwaway PostgreSQL with `CREATE EXTENSION svc`, a real svc-worker,
// and real calls printed as they run. Models: the recommended ones of docs/models.md where the model
// cache holds them (`svc models pull NAME`), else the offline defaults committed in models/: the
// trained TinyStories model stories260K generates (simple, coherent English, so the prompts are
// story-style) and svc-embed (scripts/train-embedder.ts) embeds, ranks and searches. SVC_MODEL
// names another generator.
import { cachedModelFile } from '../src/model/fetch.js';
import { recommendedModel } from '../src/model/recommended.js';
import { startCluster } from './cluster.js';
import { EMBED_MODEL, STORIES_MODEL } from './real-models.js';
import { spawnWorker, workerRunning } from './worker-process.js';

/** A recommended model's cached file, else the offline default; and a line saying which. */
function pick(role: string, name: string, fallback: string, what: string): { path: string; line: string } {
  const cached = cachedModelFile(recommendedModel(name)!.uri);
  return cached
    ? { path: cached, line: `${role}: ${name} (${cached}), from the model cache` }
    : { path: fallback, line: `${role}: ${what} (${fallback}); \`svc models pull ${name}\` fetches a real one` };
}
const generator = process.env.SVC_MODEL
  ? { path: process.env.SVC_MODEL, line: `generator: ${process.env.SVC_MODEL} (SVC_MODEL)` }
  : pick('generator', 'qwen2.5-0.5b-instruct', STORIES_MODEL, 'stories260K, the offline default');
const embedder = pick('embedder', 'bge-small-en', EMBED_MODEL, 'svc-embed, the offline default');
const reranker = pick('reranker', 'bge-reranker-v2-m3', embedder.path, 'the embedder, by cosine similarity');
const modelPath = generator.path;

// A character of the story, as JSON: the name is picked from the story's own characters.
const CHARACTER = {
  type: 'object',
  properties: { name: { enum: ['Lily', 'Tom', 'Ben', 'Sue'] }, age: { type: 'integer', minimum: 2, maximum: 9 } },
  required: ['name', 'age'],
};
const STORY = 'Once upon a time, there was a boy named Tom. He had a big red ball.\n';

const cluster = await startCluster();
const db = await cluster.connect();
// One worker serving three models of svc_models: 'default' generates, 'embed' embeds (and searches), 'rerank' ranks.
const models = `default=${modelPath},embed=${embedder.path}${reranker.path === embedder.path ? '' : `,rerank=${reranker.path}`}`;
const worker = spawnWorker(cluster, { role: 'svc_demo_worker', model: models, env: { SVC_WORKER_CONCURRENCY: '2' } });
let workerLog = '';
worker.stderr!.on('data', (chunk) => (workerLog += chunk));

const show = async (label: string, sql: string, params: unknown[] = []) => {
  const started = Date.now();
  const { rows } = await db.query(sql, params);
  const value = rows.length === 1 && Object.keys(rows[0]).length === 1 ? Object.values(rows[0])[0] : rows;
  console.log(`\n-- ${label} (${Date.now() - started} ms)\n${sql.trim()}\n=> ${JSON.stringify(value)}`);
  return value;
};

try {
  console.log(
    `throwaway PostgreSQL 15 at ${cluster.host}, port ${cluster.port}\n${generator.line}\n${embedder.line}\n${reranker.line}`,
  );
  await db.query('CREATE EXTENSION svc CASCADE');
  await db.query('CREATE ROLE svc_demo_worker LOGIN IN ROLE svc_worker');
  // A call with no live worker fails at once (SV006): wait until this one has loaded its models.
  await workerRunning(db, worker);
  // This session's embeddings and rankings go to the embedding and ranking models (svc_models names).
  // The embedder is named embed, which serves svc_embed, svc_rerank and vectorizers with no setting (docs/models.md); a reranker of its own is named.
  if (reranker.path !== embedder.path) await db.query(`SET svc.rerank_model = 'rerank'`);

  await show(
    'plain generation: the model continues a story',
    `SELECT svc_generate('Once upon a time', max_tokens := 48)`,
  );
  await show(
    'a JSON-Schema-constrained generation: a character of the story',
    `SELECT svc_generate_json($1, $2::jsonb, max_tokens := 40)`,
    [STORY, CHARACTER],
  );
  await show(
    'the same call again: served from the cache, same bytes',
    `SELECT svc_generate_json($1, $2::jsonb, max_tokens := 40)`,
    [STORY, CHARACTER],
  );
  await show(
    'a regex-constrained generation',
    `SELECT svc_generate_regex('Once upon a time', ', there was a [a-z]+ [a-z]+ named [A-Z][a-z]+[.]', max_tokens := 24)`,
  );
  await show(
    'one of the choices',
    `SELECT svc_generate_choice('The sun was shining. Lily went outside to ', ARRAY['play', 'sleep', 'cry'])`,
  );
  await show(
    'an embedding (first 4 of its dimensions)',
    `SELECT (svc_embed('Lily played with her ball'))[1:4] AS head, array_length(svc_embed('Lily played with her ball'), 1) AS dimension`,
  );
  await show(
    'reranking documents for a query',
    `SELECT * FROM svc_rerank('a dog in the park', ARRAY['The cake was sweet', 'Tom read a book', 'Max the dog ran in the park'])`,
  );

  // Async: submit, LISTEN for svc_completed, then read the result.
  const listener = await cluster.connect();
  await listener.query('LISTEN svc_completed');
  const notified = new Promise<string>((resolve) => listener.on('notification', (n) => resolve(n.payload ?? '')));
  const id = await show(
    'an async request returns its id at once',
    `SELECT svc_generate_async('Once upon a time, there was a big dog named Max.', max_tokens := 64)`,
  );
  console.log(`\n-- LISTEN svc_completed received: ${await notified}`);
  await show('the async result: the story goes on', `SELECT svc_get_async_result($1)`, [id]);
  await show('request state', `SELECT status, priority, created_at, completed_at FROM svc_check_async($1)`, [id]);
  await show(
    'batch submission: one id per prompt',
    `SELECT svc_generate_batch_async(ARRAY['Tom saw a bird.', 'Sue had a cat.', 'The sun was hot.'], max_tokens := 16)`,
  );
  // A vectorizer: the table's stories kept embedded, chunk by chunk; the backfill is queued at once.
  await db.query(`CREATE TABLE stories (id integer PRIMARY KEY, title text, body text);
    INSERT INTO stories VALUES (1, 'The cat', 'Once upon a time there was a cat. The cat liked to sleep in the sun.'),
      (2, 'The ball', 'Tom had a red ball. He gave it to his friend Sue and they played all day.'),
      (3, 'The fish', 'A big fish swam in the blue sea. It was looking for food.')`);
  await show(
    'a vectorizer: the stories table kept embedded in chunks of 60 characters (returns the rows queued)',
    `SELECT svc_vectorize('stories', 'body', 'stories_body', chunk_by := 'characters', chunk_size := 60, chunk_overlap := 15, format := '$title: $chunk')`,
  );
  for (
    let waited = 0;
    Number((await db.query(`SELECT rows_pending FROM svc_vectorizer_status()`)).rows[0].rows_pending) > 0;
    waited += 50
  ) {
    if (waited > 60_000) throw new Error('the vectorizer did not catch up within a minute');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await show('its status', `SELECT name, rows_pending, rows_done, chunks FROM svc_vectorizer_status()`);
  await show(
    'semantic search over it',
    `SELECT key, chunk, round(distance::numeric, 4) AS distance FROM svc_search('stories_body', 'A red ball', k := 2)`,
  );
  await show('the worker', `SELECT worker_id, state, concurrency, model FROM svc_worker_status()`);
  await show('the cache', `SELECT * FROM svc_cache_stats()`);
  await show('the queue', `SELECT function_name, status, requests FROM svc_queue_stats()`);
} catch (error) {
  console.error(`demo failed: ${(error as Error).message}\nworker log:\n${workerLog}`);
  process.exitCode = 1;
} finally {
  worker.kill('SIGTERM');
  await new Promise((resolve) => worker.once('exit', resolve));
  await db.end();
  await cluster.stop();
}
