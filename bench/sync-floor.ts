// How fast a per-row synchronous call can be on this machine through a queue in PostgreSQL, and
// with no queue (#55: per-row svc_embed at 0.5 of the sequential library). Beside svc's own per-row
// call:
//   - a bare queue of the same shape with none of svc's checks: a PL/pgSQL caller inserts a row
//     through a kept dblink connection (committed and notified at once, as svc's sync session does);
//     a worker process of this script (LISTEN, claim with an advisory lock, the embedding,
//     completion, unlock) answers it; the caller polls, waits on the worker's lock, reads the answer.
//     With the embedding (the same model, threads and context as the library), and without it (the
//     chain alone);
//   - no queue: the same worker process answers the caller's backend itself, over a dblink
//     connection to it (no row, no wait).
// In interleaved rounds of BENCH_ROUND rows, beside the library's sequential embeddings: ms a row,
// each one's ratio to the library, where the queued calls' time goes, and the load.
//
//   npx tsx bench/sync-floor.ts
//   BENCH_ROWS=2000 npx tsx bench/sync-floor.ts
import { spawn } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
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
/** The direct path's "port": its socket is .s.PGSQL.<port> in the cluster's socket directory. */
const DIRECT_PORT = 1;

/** A PostgreSQL protocol message: its type byte, its length, its body. */
function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
const cstring = (s: string) => Buffer.from(`${s}\0`, 'utf8');
const int16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

/** An embedding as every path here answers it: the vector's JSON. */
const vectorJson = async (engine: Engine, text: string) => JSON.stringify(Array.from(await engine.embed(text)));

/**
 * The direct path, no queue: the worker answers the caller's backend itself, over a connection of its
 * own (dblink, as svc's sync path already uses to reach its sync session). Just enough of PostgreSQL's
 * protocol for libpq: a startup answered with trust, and a simple query whose text is the text to
 * embed, answered with one row (the vector's JSON). Listens on the Unix socket DIRECT_PORT in `host`.
 */
async function serveDirect(engine: Engine, { host }: { host: string }): Promise<void> {
  const ready = message('Z', Buffer.from('I'));
  const server = createServer((socket) => {
    let buffer = Buffer.alloc(0);
    let started = false;
    let work = Promise.resolve();
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 4 || buffer.length < buffer.readInt32BE(0)) return;
          buffer = buffer.subarray(buffer.readInt32BE(0));
          started = true;
          const status = (name: string, value: string) => message('S', cstring(name), cstring(value));
          socket.write(
            Buffer.concat([
              message('R', int32(0)),
              status('server_version', '15.0'),
              status('server_encoding', 'UTF8'),
              status('client_encoding', 'UTF8'),
              status('standard_conforming_strings', 'on'),
              status('integer_datetimes', 'on'),
              status('DateStyle', 'ISO, MDY'),
              message('K', int32(process.pid), int32(0)),
              ready,
            ]),
          );
          continue;
        }
        if (buffer.length < 5 || buffer.length < 1 + buffer.readInt32BE(1)) return;
        const type = String.fromCharCode(buffer[0]);
        const body = buffer.subarray(5, 1 + buffer.readInt32BE(1));
        buffer = buffer.subarray(1 + buffer.readInt32BE(1));
        if (type === 'X') return void socket.end();
        if (type !== 'Q') continue;
        const text = body.subarray(0, body.length - 1).toString('utf8');
        work = work.then(async () => {
          const vector = Buffer.from(await vectorJson(engine, text), 'utf8');
          socket.write(
            Buffer.concat([
              message('T', int16(1), cstring('v'), int32(0), int16(0), int32(25), int16(-1), int32(-1), int16(0)),
              message('D', int16(1), int32(vector.length), vector),
              message('C', cstring('SELECT 1')),
              ready,
            ]),
          );
        });
      }
    });
  });
  const path = join(host, `.s.PGSQL.${DIRECT_PORT}`);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  chmodSync(path, 0o777); // the server's backends connect to it, as they do to the server's own socket
}

/**
 * The bare paths' worker: the queue's requests one at a time, as one slot of svc's worker runs a
 * per-row call, and the direct path's.
 */
async function floorWorker(config: pg.ClientConfig & { host: string }): Promise<void> {
  const engine = await Engine.load({ model: MODEL, threads: THREADS, contextSize: CONTEXT });
  const db = new pg.Client(config);
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
      const result = embed ? await vectorJson(engine, body) : '[]';
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
  await serveDirect(engine, config);
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
    await caller.query(`SELECT dblink_connect('direct', $1)`, [
      `host=${cluster.host} port=${DIRECT_PORT} user=svc dbname=svc`,
    ]);
    const library = await Engine.load({ model: MODEL, threads: THREADS, contextSize: CONTEXT });

    const ms = { library: 0, svc: 0, floorEmbed: 0, floorChain: 0, direct: 0 };
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
      await time('direct', () =>
        caller.query(`SELECT t.v FROM docs, dblink('direct', body) AS t(v text) WHERE id >= ${start} AND id < ${end}`),
      );
    }
    // The bare queue's worker and the direct path ran the same embedding as the library: the same bytes.
    const expected = await vectorJson(library, bodies[0]);
    const { rows: queued } = await db.query<{ v: string }>(
      `SELECT result AS v FROM floor_q WHERE embed ORDER BY id LIMIT 1`,
    );
    const { rows: direct } = await caller.query<{ v: string }>(`SELECT t.v FROM dblink('direct', $1) AS t(v text)`, [
      bodies[0],
    ]);
    for (const [path, got] of [
      ['bare queue', queued],
      ['direct path', direct],
    ] as const) {
      if (got[0]?.v !== expected) throw new Error(`the ${path}'s embedding of row 0 is not the library's`);
    }
    const perRow = (key: keyof typeof ms) => ms[key] / ROWS;
    console.log(
      `\n### A per-row sync embedding: svc, a bare queue, no queue: ${ROWS} rows in rounds of ${ROUND}, ${MODEL.split('/').pop()}, ${THREADS} thread(s), context ${CONTEXT}; load ${load()}\n`,
    );
    console.log('| path | ms a row | library sequential / it |');
    console.log('|---|---:|---:|');
    const row = (name: string, key: keyof typeof ms) =>
      console.log(`| ${name} | ${perRow(key).toFixed(2)} | ${(perRow('library') / perRow(key)).toFixed(2)} |`);
    row('library sequential (in process)', 'library');
    row('svc per-row `svc_embed`', 'svc');
    row('bare queue, with the embedding', 'floorEmbed');
    row('bare queue, the chain alone (no embedding)', 'floorChain');
    row('no queue: the worker answers the caller over dblink', 'direct');
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
      const callerPart = inRound.map(({ r, previous }) => Number(r.created) - Number(previous.completed));
      const claim = inRound.map(({ r }) => Number(r.started) - Number(r.created));
      const workerPart = inRound.map(({ r }) => Number(r.completed) - Number(r.started));
      return [callerPart, claim, workerPart].map((xs) => median(xs).toFixed(2));
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

if (process.argv[2] === '--floor-worker')
  await floorWorker(JSON.parse(process.argv[3]) as pg.ClientConfig & { host: string });
else await main();
