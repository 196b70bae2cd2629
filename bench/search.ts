// svc_search over a vectorizer's pgvector destination with an HNSW index: how long one search takes
// when the destination holds BENCH_CHUNKS chunks (10,000 by default; `--chunks 100000` for the goal:
// milliseconds at 100,000; test/bench.test.ts runs it at 300).
//
// The destination is declared by svc_vectorize (type vector(n)); a few real rows go through the
// worker (their chunks embedded by the model), the rest are chunks of random unit vectors written
// directly, as a backfill of 100,000 rows would take the worker minutes. Each search embeds its query
// through the sync path (a worker, the first time; svc's cache after) and asks the index for the
// nearest chunks. Printed: the index build, the first search of a text (embedding included) and the
// repeated searches (p50, p95), the search statement alone (the server's execution time) and the
// same statement as an exact scan without the index, whether the plan uses the index, and whether
// each real row is found first by its own text. Exits 0 with a note where
// pgvector is not installed.
//
//   npx tsx bench/search.ts
//   npx tsx bench/search.ts --chunks 100000
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { startCluster } from '../scripts/cluster.js';
import { STORIES_MODEL } from '../scripts/real-models.js';
import { spawnWorker } from '../scripts/worker-process.js';
import { searchQuery } from '../src/extension/vectorizer-sql.js';
import { load } from './stats.js';

const { values: args } = parseArgs({ options: { chunks: { type: 'string' }, repeats: { type: 'string' } } });
const CHUNKS = Number(args.chunks ?? process.env.BENCH_CHUNKS ?? 10_000);
const REPEATS = Number(args.repeats ?? process.env.BENCH_REPEATS ?? 50);
const MODEL = process.env.SVC_MODEL ?? STORIES_MODEL;
if (!Number.isInteger(CHUNKS) || CHUNKS < 1) throw new Error(`--chunks must be a positive integer (is "${args.chunks ?? process.env.BENCH_CHUNKS}")`);
if (!Number.isInteger(REPEATS) || REPEATS < 1) throw new Error(`--repeats must be a positive integer (is "${args.repeats ?? process.env.BENCH_REPEATS}")`);

// The real rows: distinct short texts, found back by their own text.
const REAL = [
  'The cat sat by the warm window.',
  'A boat sailed past the old lighthouse.',
  'Rain fell on the quiet park all night.',
  'The baker made a cake shaped like a star.',
];
const FIRST_REAL_ID = 1_000_000_000;

const ms = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
  const started = process.hrtime.bigint();
  const value = await f();
  return [ms(started), value];
}

const cluster = await startCluster();
const db = await cluster.connect();
let stopWorker: (() => Promise<void>) | undefined;
try {
  const available = (await db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rows.length > 0;
  if (!available) {
    console.log('pgvector is not installed in this PostgreSQL: nothing to measure (scripts/setup.sh installs it where its source archive is)');
  } else {
    await db.query(`CREATE EXTENSION svc CASCADE; CREATE EXTENSION vector; CREATE ROLE bench_worker LOGIN IN ROLE svc_worker;
      CREATE TABLE docs (id bigint PRIMARY KEY, body text NOT NULL)`);
    const child = spawnWorker(cluster, { role: 'bench_worker', model: MODEL, threads: 1, stdio: 'ignore', env: { SVC_WORKER_CONTEXT_SIZE: '512' } });
    stopWorker = () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    while ((await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length === 0) await new Promise((r) => setTimeout(r, 50));

    const dims = Number((await db.query(`SELECT cardinality(svc_embed('x')) AS n`)).rows[0].n);
    await db.query(`SELECT svc_vectorize('docs', 'body', 'docs', dimensions := $1)`, [dims]);
    await db.query(`INSERT INTO docs SELECT $1::bigint + i - 1, b FROM unnest($2::text[]) WITH ORDINALITY AS t(b, i)`, [FIRST_REAL_ID, REAL]);
    while ((await db.query(`SELECT rows_pending FROM svc_vectorizer_status() WHERE name = 'docs'`)).rows[0].rows_pending !== '0')
      await new Promise((r) => setTimeout(r, 100));

    // Random unit vectors (the correlated subquery draws one per row), one chunk per key.
    const [fillMs] = await timed(() =>
      db.query(
        `INSERT INTO docs_chunks (id, chunk_index, chunk, embedding)
         SELECT i, 0, 'chunk ' || i, (SELECT array_agg(random() - 0.5) FROM generate_series(1, $2) WHERE i > 0)::vector
         FROM generate_series(1, $1::bigint) i`,
        [CHUNKS - REAL.length, dims],
      ),
    );
    const [indexMs] = await timed(() => db.query(`CREATE INDEX ON docs_chunks USING hnsw (embedding vector_cosine_ops); ANALYZE docs_chunks`));
    const total = Number((await db.query('SELECT count(*) AS n FROM docs_chunks')).rows[0].n);

    // The statement svc_search runs, explained and timed alone with one real embedding.
    const sql = searchQuery({ destination: 'public.docs_chunks', svcSchema: 'public', keys: [{ name: 'id' }], vectorSchema: 'public' });
    const probe = (await db.query(`SELECT svc_vectorizer_embed('docs', $1) AS e`, [REAL[0]])).rows[0].e as number[];
    const statement = sql.replace('$1', `'[${probe.join(',')}]'`).replaceAll('$2', '10');
    const plan = (await db.query(`EXPLAIN ${statement}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const usesIndex = /Index Scan using \S*hnsw|docs_chunks_embedding_idx/.test(plan);
    const executionMs = async (client: pg.Client) => {
      const out: number[] = [];
      for (let r = 0; r < 5; r++)
        out.push((await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`)).rows[0]['QUERY PLAN'][0]['Execution Time'] as number);
      return percentile(out, 50);
    };
    const statementIndexMs = await executionMs(db);

    const search = (client: pg.Client, text: string) => client.query(`SELECT key, distance FROM svc_search('docs', $1, 10)`, [text]);
    const firsts: number[] = [];
    const found: boolean[] = [];
    for (const [i, text] of REAL.entries()) {
      const [first, { rows }] = await timed(() => search(db, `${text} `)); // a text not cached yet: embedded by the worker
      firsts.push(first);
      const [, exact] = await timed(() => search(db, text));
      found.push(Number(exact.rows[0]?.key?.id) === FIRST_REAL_ID + i && rows.length === 10);
    }
    const repeated: number[] = [];
    for (let r = 0; r < REPEATS; r++) repeated.push((await timed(() => search(db, REAL[r % REAL.length])))[0]);
    // The statement without the index: an exact scan, in a session that may not use it.
    const noIndex = await cluster.connect();
    await noIndex.query('SET enable_indexscan = off');
    const scanPlan = (await noIndex.query(`EXPLAIN ${statement}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const statementScanMs = await executionMs(noIndex);
    await noIndex.end();
    const vz = (await db.query(`SELECT rows_done, rows_failed, last_error FROM svc_vectorizer_status() WHERE name = 'docs'`)).rows[0];

    console.log(
      `\nsvc_search over ${total} chunks of ${dims} dimensions (pgvector, HNSW vector_cosine_ops, k = 10); model ${MODEL.split('/').pop()}; load ${load()}\n`,
    );
    console.log(
      '| chunks | fill s | HNSW build s | plan uses the index | first search of a text ms (embedding by the worker) | svc_search ms p50 / p95 | its statement alone ms | the statement as an exact scan ms | real rows found first |',
    );
    console.log('|---:|---:|---:|---|---:|---:|---:|---:|---|');
    console.log(
      `| ${total} | ${(fillMs / 1000).toFixed(1)} | ${(indexMs / 1000).toFixed(1)} | ${usesIndex ? 'yes' : 'no'} | ${percentile(firsts, 50).toFixed(1)} | ${percentile(repeated, 50).toFixed(2)} / ${percentile(repeated, 95).toFixed(2)} | ${statementIndexMs.toFixed(2)} | ${statementScanMs.toFixed(1)}${/Seq Scan/.test(scanPlan) ? '' : ' (not a scan)'} | ${found.filter(Boolean).length}/${REAL.length} |`,
    );
    const problems = [
      total !== CHUNKS && `the destination holds ${total} chunks, not ${CHUNKS}`,
      // On a few thousand chunks a scan is as cheap, and the planner may rightly take it.
      !usesIndex && CHUNKS >= 10_000 && `the search statement's plan does not use the HNSW index:\n${plan}`,
      found.some((f) => !f) && 'a real row was not found first by its own text',
      Number(vz.rows_failed) > 0 && `${vz.rows_failed} real rows failed to embed: ${vz.last_error}`,
    ].filter(Boolean);
    if (problems.length > 0) {
      console.error(problems.join('\n'));
      process.exitCode = 1;
    }
  }
} finally {
  await stopWorker?.();
  await db.end();
  await cluster.stop();
}
