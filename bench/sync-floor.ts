// How fast a per-row synchronous call through a queue in PostgreSQL can be on this machine (#55:
// per-row svc_embed at 0.5 of the sequential library). Beside svc's own per-row call, a bare queue of
// the same shape with none of svc's checks: a PL/pgSQL caller inserts a row through a kept dblink
// connection (committed and notified at once, as svc's sync session does), a worker process of this
// script (LISTEN, claim with an advisory lock, the embedding, completion, unlock) answers it, and the
// caller polls, then waits on the worker's lock, and reads the answer. Run with the embedding (the
// same model, threads and context as the library) and without it (the chain alone). In interleaved
// rounds of BENCH_ROUND rows: the library's sequential embeddings, svc's per-row calls, the bare
// queue's with and without the embedding; ms a row and each one's ratio to the library; the load.
//
//   npx tsx bench/sync-floor.ts
//   BENCH_ROWS=2000 BENCH_ROUND=200 npx tsx bench/sync-floor.ts
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startCluster } from '../scripts/cluster.js';
import { STORIES_MODEL } from '../scripts/real-models.js';
import { spawnWorker, workerRunning } from '../scripts/worker-process.js';
import { Engine } from '../src/engine/engine.js';
import { load, median } from './stats.js';

const MODEL = process.env.SVC_MODEL ?? STORIES_MODEL;
const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
// At least two rows a round: a round's first row is left out of the segments below.
const ROUND = Math.max(2, Math.min(ROWS, Number(process.env.BENCH_ROUND ?? 100)));
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const CONTEXT = 512;

/** The bare queue's worker: one request at a time, as one slot of svc's worker runs a per-row call. */
async function floorWorker(config: string): Promise<void> {
  const engine = await Engine.load({ model: MODEL, threads: THREADS, contextSize: CONTEXT });
  const db = new pg.Client(JSON.parse(config) as pg.ClientConfig);
  await db.connect();
  const waiting: string[] = [];
  let busy = false;
  const drain = async () => {
    if (busy) return;
    busy = true;
    for (let id = waiting.shift(); id !== undefined; id = waiting.shift()) {
      const claimed = await db.query<{ body: string; embed: boolean }>(
        `UPDATE floor_q SET status = 'processing', started_at = now() WHERE id = $1 AND status = 'pending' AND pg_advisory_lock($1) IS NOT NULL RETURNING body, embed`,
        [id],
      );
      if (claimed.rows.length === 0) continue;
      const { body, embed } = claimed.rows[0];
      const result = embed ? JSON.stringify(Array.from(await engine.embed(body))) : '[]';
      await db.query(
        `UPDATE floor_q SET status = 'completed', result = $2, completed_at = clock_timestamp() WHERE id = $1`,
        [id, result],
      );
      await db.query(`SELECT pg_advisory_unlock($1)`, [id]);
    }
    busy = false;
  };
  db.on('notification', (n) => {
    waiting.push(n.payload!);
    void drain();
  });
  await db.query('LISTEN floor_new');
  process.send!('ready');
}

const FLOOR_SQL = `
CREATE EXTENSION IF NOT EXISTS dblink;
CREATE TABLE floor_q (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, status text NOT NULL DEFAULT 'pending',
  body text NOT NULL, embed boolean NOT NULL, result text,
  created_at timestamptz NOT NULL DEFAULT now(), started_at timestamptz, completed_at timestamptz);
-- The caller: the submission through the kept connection (its own transaction: the worker sees it at
-- once), then svc's wait: read the row; while the worker holds its lock, wait on the lock; else a
-- short pause that grows.
CREATE FUNCTION floor_call(b text, embed boolean) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE rid bigint; st text; res text; pause float8 := 0.0005;
BEGIN
  SELECT t.id INTO rid FROM dblink('floor', format(
    'WITH r AS (INSERT INTO floor_q (body, embed) VALUES (%L, %L) RETURNING id) SELECT r.id FROM r, LATERAL (SELECT pg_notify(''floor_new'', r.id::text)) n',
    b, embed)) AS t(id bigint);
  LOOP
    SELECT status, result INTO st, res FROM floor_q WHERE id = rid;
    IF st = 'completed' THEN RETURN res; END IF;
    IF st = 'processing' THEN
      PERFORM pg_advisory_lock_shared(rid);
      PERFORM pg_advisory_unlock_shared(rid);
    ELSE
      PERFORM pg_sleep(pause);
      pause := least(pause * 1.15, 0.02);
    END IF;
  END LOOP;
END $f$;`;

async function main(): Promise<void> {
  const cluster = await startCluster();
  const db = await cluster.connect();
  const bodies = Array.from({ length: ROWS }, (_, i) => `Row ${i}: the child felt happy on day ${i % 97}.`);
  const conninfo = `host=${cluster.host} port=${cluster.port} user=${cluster.user} dbname=postgres`;
  try {
    await db.query(`CREATE EXTENSION svc CASCADE; CREATE ROLE bench_worker LOGIN IN ROLE svc_worker; CREATE ROLE bench_user LOGIN;
      SELECT svc_set_queue_limits(100000000);
      CREATE TABLE docs (id int PRIMARY KEY, body text NOT NULL); GRANT SELECT ON docs TO bench_user`);
    await db.query(FLOOR_SQL);
    await db.query(`INSERT INTO docs SELECT i - 1, b FROM unnest($1::text[]) WITH ORDINALITY AS t(b, i)`, [bodies]);
    const svcWorker = spawnWorker(cluster, {
      role: 'bench_worker',
      model: MODEL,
      threads: THREADS,
      stdio: 'ignore',
      env: { SVC_WORKER_CONTEXT_SIZE: String(CONTEXT) },
    });
    await workerRunning(db);
    const floor = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--floor-worker',
        JSON.stringify({ host: cluster.host, port: cluster.port, user: cluster.user, database: 'postgres' }),
      ],
      {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        env: process.env,
      },
    );
    await new Promise<void>((resolve, reject) => {
      floor.once('message', () => resolve());
      floor.once('exit', (code) => reject(new Error(`the bare queue's worker exited (${code})`)));
    });
    // svc's caller is an ordinary role (its sync session kept); the bare queue's keeps its connection too.
    const user = await cluster.connect('postgres', 'bench_user');
    const caller = await cluster.connect();
    await caller.query(`SELECT dblink_connect('floor', $1)`, [conninfo]);
    const library = await Engine.load({ model: MODEL, threads: THREADS, contextSize: CONTEXT });

    const ms = { library: 0, svc: 0, floorEmbed: 0, floorChain: 0 };
    const time = async (key: keyof typeof ms, fn: () => Promise<unknown>) => {
      const started = process.hrtime.bigint();
      await fn();
      ms[key] += Number(process.hrtime.bigint() - started) / 1e6;
    };
    for (let start = 0; start < ROWS; start += ROUND) {
      const end = Math.min(start + ROUND, ROWS);
      const rows = `FROM docs WHERE id >= ${start} AND id < ${end}`;
      await time('library', async () => {
        for (const body of bodies.slice(start, end)) await library.embed(body);
      });
      await time('svc', () => user.query(`SELECT svc_embed(body, use_cache := false) ${rows}`));
      await time('floorEmbed', () => caller.query(`SELECT floor_call(body, true) ${rows}`));
      await time('floorChain', () => caller.query(`SELECT floor_call(body, false) ${rows}`));
    }
    // The bare queue's worker ran the same embedding as the library: the same bytes.
    const { rows: sample } = await db.query<{ result: string }>(
      `SELECT result FROM floor_q WHERE embed ORDER BY id LIMIT 1`,
    );
    if (sample[0]?.result !== JSON.stringify(Array.from(await library.embed(bodies[0])))) {
      throw new Error(`the bare queue's embedding of row 0 is not the library's`);
    }
    const perRow = (key: keyof typeof ms) => ms[key] / ROWS;
    console.log(
      `\n### A per-row sync embedding against a bare queue: ${ROWS} rows in rounds of ${ROUND}, ${MODEL.split('/').pop()}, ${THREADS} thread(s), context ${CONTEXT}; load ${load()}\n`,
    );
    console.log('| path | ms a row | library sequential / it |');
    console.log('|---|---:|---:|');
    const row = (name: string, key: keyof typeof ms) =>
      console.log(`| ${name} | ${perRow(key).toFixed(2)} | ${(perRow('library') / perRow(key)).toFixed(2)} |`);
    row('library sequential (in process)', 'library');
    row('svc per-row `svc_embed`', 'svc');
    row('bare queue, with the embedding', 'floorEmbed');
    row('bare queue, the chain alone (no embedding)', 'floorChain');
    // Where a call's time goes, from each request's timestamps (the server's clock): the caller's part
    // (from the previous answer to this submission: its wake-up and return, the next call up to the
    // insert), the wait for the claim, the worker's part. Within a round only: its first row follows
    // the client's statement.
    const segments = async (table: string, where: string) => {
      const { rows } = await db.query<{ created: number; started: number; completed: number }>(
        `SELECT extract(epoch FROM created_at) * 1000 AS created, extract(epoch FROM started_at) * 1000 AS started,
           extract(epoch FROM completed_at) * 1000 AS completed FROM ${table} WHERE ${where} ORDER BY created_at`,
      );
      const inRound = rows.flatMap((r, i) => (i % ROUND === 0 ? [] : [{ r, previous: rows[i - 1] }]));
      const caller = inRound.map(({ r, previous }) => Number(r.created) - Number(previous.completed));
      const claim = inRound.map(({ r }) => Number(r.started) - Number(r.created));
      const worker = inRound.map(({ r }) => Number(r.completed) - Number(r.started));
      return [caller, claim, worker].map((xs) => median(xs).toFixed(2));
    };
    console.log(
      '\n| path (medians, ms a row) | previous answer → submission | submission → claim | claim → completion |',
    );
    console.log('|---|---:|---:|---:|');
    console.log(`| svc per-row | ${(await segments('svc_queue', "function_name = 'embed'")).join(' | ')} |`);
    console.log(`| bare queue, with the embedding | ${(await segments('floor_q', 'embed')).join(' | ')} |`);
    console.log(`| bare queue, the chain alone | ${(await segments('floor_q', 'NOT embed')).join(' | ')} |`);
    console.log(`\nload ${load()}`);
    await library.dispose();
    await caller.end();
    await user.end();
    floor.kill('SIGTERM');
    await new Promise<void>((resolve) => {
      svcWorker.once('exit', () => resolve());
      svcWorker.kill('SIGTERM');
    });
  } finally {
    await db.end();
    await cluster.stop();
  }
}

if (process.argv[2] === '--floor-worker') await floorWorker(process.argv[3]);
else await main();
