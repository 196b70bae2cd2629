// The README's main command: a throwaway PostgreSQL with `CREATE EXTENSION svc`, a real svc-worker on
// the bundled tiny model, and real calls printed as they run. (The tiny model's weights are random:
// what it writes means nothing, but constrained output always fits its constraint.)
import { startCluster } from './cluster.js';
import { ensureTestModel } from './make-test-model.js';
import { spawnWorker } from './worker-process.js';

const modelPath = process.env.SVC_MODEL ?? ensureTestModel();

const cluster = await startCluster();
const db = await cluster.connect();
const worker = spawnWorker(cluster, { role: 'svc_demo_worker', model: modelPath, env: { SVC_WORKER_CONCURRENCY: '2' } });
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
  console.log(`throwaway PostgreSQL 15 at ${cluster.host}, port ${cluster.port}; model ${modelPath}`);
  await db.query('CREATE EXTENSION svc CASCADE');
  await db.query('CREATE ROLE svc_demo_worker LOGIN IN ROLE svc_worker');

  await show('a JSON-Schema-constrained generation (waits for the worker)',
    `SELECT svc_generate_json('Describe a user as JSON', $1::jsonb, max_tokens := 80)`,
    [{ type: 'object', properties: { name: { type: 'string', maxLength: 10 }, age: { type: 'integer', minimum: 0, maximum: 120 } }, required: ['name', 'age'] }]);
  await show('the same call again: served from the cache, same bytes',
    `SELECT svc_generate_json('Describe a user as JSON', $1::jsonb, max_tokens := 80)`,
    [{ type: 'object', properties: { name: { type: 'string', maxLength: 10 }, age: { type: 'integer', minimum: 0, maximum: 120 } }, required: ['name', 'age'] }]);
  await show('a regex-constrained generation', `SELECT svc_generate_regex('An ISO date', '[0-9]{4}-[0-9]{2}-[0-9]{2}')`);
  await show('one of the choices', `SELECT svc_generate_choice('Sentiment of "great product"?', ARRAY['positive', 'negative', 'neutral'])`);
  await show('an embedding (first 4 of its dimensions)', `SELECT (svc_embed('PostgreSQL is a database'))[1:4] AS head, array_length(svc_embed('PostgreSQL is a database'), 1) AS dimension`);
  await show('reranking documents for a query', `SELECT * FROM svc_rerank('database', ARRAY['PostgreSQL stores rows', 'Bananas are yellow', 'Indexes speed up queries'])`);

  // Async: submit, LISTEN for svc_completed, then read the result.
  const listener = await cluster.connect();
  await listener.query('LISTEN svc_completed');
  const notified = new Promise<string>((resolve) => listener.on('notification', (n) => resolve(n.payload ?? '')));
  const id = await show('an async request returns its id at once', `SELECT svc_generate_async('Once upon a time', max_tokens := 24)`);
  console.log(`\n-- LISTEN svc_completed received: ${await notified}`);
  await show('the async result (unconstrained output of a random tiny model: arbitrary characters)', `SELECT svc_get_async_result($1)`, [id]);
  await show('request state', `SELECT status, priority, created_at, completed_at FROM svc_check_async($1)`, [id]);
  await show('batch submission: one id per prompt', `SELECT svc_generate_batch_async(ARRAY['a', 'b', 'c'], max_tokens := 8)`);
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
