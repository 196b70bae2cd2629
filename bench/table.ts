// svc at table scale: a table of BENCH_ROWS rows (10,000) labelled (choice), extracted (JSON) and
// embedded, the ways a user does it, side by side in one run on the same machine:
//   - the library in process, one request after another (one sequence), and with the worker's
//     concurrency (BENCH_CONCURRENCY sequences of one context, that many requests at once);
//   - SQL per row:   SELECT svc_generate_choice(body, …) FROM docs   (the sync function, row by row);
//   - SQL set-based: SELECT … FROM svc_generate_choice(array_agg(body), …)   (one call);
//   - SQL async:     one svc_*_async per row, then svc_get_async_results(ids) for all of them;
// and the worker's tokens/s at concurrency 1, 4 and 16 (set-based unconstrained generation of
// BENCH_TOKENS tokens a row). Ratios are to the library at the same concurrency and to the sequential
// one. Each model runs with BENCH_THREADS threads (1); the machine's load is printed beside the figures.
//
// The library's sequential rate, the library's at the worker's concurrency and the set-based rate,
// whose ratios are #47's and #55's measures, are taken in interleaved rounds of BENCH_ROUND rows
// (100): a round of each in turn, over the whole table, so that load from the rest of the machine
// falls on all three alike. The per-row calls join the first rounds, on those rounds' rows, up to
// BENCH_PER_ROW rows; their ratio is to the sequential library on the same rows in the same rounds.
// BENCH_BUSY=1 starts one CPU-bound process beside them for the whole run (#55's loaded machine).
//
//   npx tsx bench/table.ts                                    # the issue's sizes (10,000 rows), both models
//   BENCH_MODELS=qwen2-512 BENCH_KINDS=embed npx tsx bench/table.ts   # the 512-wide qwen2-vocabulary model (embed: models/svc-embed.gguf)
//   BENCH_ROWS=2000 BENCH_MODELS=stories npx tsx bench/table.ts
//   BENCH_BUSY=1 BENCH_MODELS=stories npx tsx bench/table.ts      # with one other CPU-bound process running
import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import type pg from 'pg';
import { startCluster } from '../scripts/cluster.js';
import { EMBED_MODEL, STORIES_MODEL, realVocabModel, type RealVocab } from '../scripts/real-models.js';
import { spawnWorker, workerRunning } from '../scripts/worker-process.js';
import { Engine } from '../src/engine/engine.js';
import { compileChoices, compileJsonSchema } from '../src/grammar/index.js';
import { load } from './stats.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 16);
const MODELS = (process.env.BENCH_MODELS ?? 'stories,qwen2').split(',');
const KINDS = (process.env.BENCH_KINDS ?? 'choice,json,embed').split(',') as Kind[];
// Per-row sync calls are the slow path: they run on a sample of the table (BENCH_PER_ROW rows).
const PER_ROW = Math.min(ROWS, Number(process.env.BENCH_PER_ROW ?? 1000));
const ROUND = Math.min(ROWS, Number(process.env.BENCH_ROUND ?? 100));
/** CPU-bound processes started beside the bench, for the whole run (a loaded machine). */
const BUSY = Number(process.env.BENCH_BUSY ?? 0);

type Kind = 'choice' | 'json' | 'embed';
const CHOICES = ['happy', 'sad', 'angry', 'scared'];
const SCHEMA = {
  type: 'object',
  properties: { mood: { enum: CHOICES }, age: { type: 'integer', minimum: 0, maximum: 99 } },
  required: ['mood', 'age'],
  additionalProperties: false,
};
const MAX_TOKENS: Record<Kind, number> = { choice: 8, json: 24, embed: 1 };

// The same request in each path: SQL for one row ($1 the body) and for all ($1 the array of bodies).
const SQL: Record<Kind, { perRow: string; set: string; async: string }> = {
  choice: {
    perRow: `svc_generate_choice(body, ARRAY['${CHOICES.join("','")}'], max_tokens := ${MAX_TOKENS.choice}, use_cache := false)`,
    set: `svc_generate_choice($1::text[], ARRAY['${CHOICES.join("','")}'], max_tokens := ${MAX_TOKENS.choice}, use_cache := false)`,
    async: `svc_generate_choice_async(body, ARRAY['${CHOICES.join("','")}'], max_tokens := ${MAX_TOKENS.choice}, use_cache := false)`,
  },
  json: {
    perRow: `svc_generate_json(body, '${JSON.stringify(SCHEMA)}', max_tokens := ${MAX_TOKENS.json}, use_cache := false)`,
    set: `svc_generate_json($1::text[], '${JSON.stringify(SCHEMA)}', max_tokens := ${MAX_TOKENS.json}, use_cache := false)`,
    async: `svc_generate_json_async(body, '${JSON.stringify(SCHEMA)}', max_tokens := ${MAX_TOKENS.json}, use_cache := false)`,
  },
  embed: {
    perRow: `svc_embed(body, use_cache := false)`,
    set: `svc_embed($1::text[], use_cache := false)`,
    async: `svc_embed_async(body, use_cache := false)`,
  },
};

const seconds = async (fn: () => Promise<unknown>) => {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e9;
};

/** Runs `work(i)` for i < n with at most `concurrency` at once. */
async function pool(n: number, concurrency: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

function libraryCall(engine: Engine, kind: Kind, prompt: string): Promise<unknown> {
  if (kind === 'embed') return engine.embed(prompt);
  const grammar = kind === 'choice' ? compileChoices(CHOICES).gbnf : compileJsonSchema(SCHEMA).gbnf;
  return engine.generate({ prompt, maxTokens: MAX_TOKENS[kind], seed: 42, grammar, promptFormat: 'raw' });
}

async function waitForWorker(db: pg.Client): Promise<void> {
  await workerRunning(db);
}

async function benchModel(name: string, model: string): Promise<void> {
  const cluster = await startCluster();
  const db = await cluster.connect();
  const bodies = Array.from({ length: ROWS }, (_, i) => `Row ${i}: the child felt ${CHOICES[i % 4]} on day ${i % 97}.`);
  try {
    await db.query(`CREATE EXTENSION svc CASCADE; CREATE ROLE bench_worker LOGIN IN ROLE svc_worker; CREATE ROLE bench_user LOGIN;
      ALTER ROLE bench_user SET svc.prompt_format = 'raw'; SELECT svc_set_queue_limits(100000000); SELECT svc_set_role_limits(NULL, 100000000, 1000000000000);
      CREATE TABLE docs (id int PRIMARY KEY, body text NOT NULL); GRANT SELECT ON docs TO bench_user`);
    await db.query(`INSERT INTO docs SELECT i - 1, b FROM unnest($1::text[]) WITH ORDINALITY AS t(b, i)`, [bodies]);
    const user = await cluster.connect('postgres', 'bench_user');
    const startWorker = async (concurrency: number) => {
      const child = spawnWorker(cluster, {
        role: 'bench_worker',
        model,
        threads: THREADS,
        stdio: 'ignore',
        env: { SVC_WORKER_CONCURRENCY: String(concurrency), SVC_WORKER_CONTEXT_SIZE: '512' },
      });
      await waitForWorker(db);
      return () =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
    };

    const one = await Engine.load({ model, threads: THREADS, contextSize: 512 });
    const many = await Engine.load({ model, threads: THREADS, contextSize: 512, sequences: CONCURRENCY });
    let stop = await startWorker(CONCURRENCY);
    console.log(
      `\n### ${name} (${basename(model)}), ${ROWS} rows (library sequential, library × concurrency and set-based in interleaved rounds of ${ROUND}; per-row sync in the first ${Math.ceil(PER_ROW / ROUND)}, on ${PER_ROW}), worker concurrency ${CONCURRENCY}, ${THREADS} thread(s)${BUSY > 0 ? `, ${BUSY} other CPU-bound process(es) running` : ''}; load ${load()}\n`,
    );
    console.log(
      '| kind | library sequential | library × concurrency | SQL per-row sync | SQL set-based | SQL async + wait | set-based / library × concurrency | set-based / library sequential | per-row / library sequential | load after |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const kind of KINDS) {
      const rate = (rows: number, s: number) => rows / s;
      // Interleaved rounds: the library one request after another on a round's rows, then the library
      // at the worker's concurrency on the same rows, then the set-based call on them, then (in the
      // first rounds, up to PER_ROW rows) the per-row calls on them.
      let libSeconds = 0;
      let concSeconds = 0;
      let setSeconds = 0;
      let perRowRows = 0;
      let perRowSeconds = 0;
      let perRowLibSeconds = 0; // the sequential library's on the same rows
      for (let start = 0; start < ROWS; start += ROUND) {
        const round = bodies.slice(start, start + ROUND);
        const lib = await seconds(async () => {
          for (const b of round) await libraryCall(one, kind, b);
        });
        libSeconds += lib;
        concSeconds += await seconds(() => pool(round.length, CONCURRENCY, (i) => libraryCall(many, kind, round[i])));
        setSeconds += await seconds(() =>
          user.query(`SELECT count(*) FILTER (WHERE error IS NULL) FROM ${SQL[kind].set}`, [round]),
        );
        if (start < PER_ROW) {
          const end = Math.min(start + round.length, PER_ROW);
          perRowSeconds += await seconds(() =>
            user.query(`SELECT ${SQL[kind].perRow} FROM docs WHERE id >= $1 AND id < $2`, [start, end]),
          );
          perRowLibSeconds += (lib * (end - start)) / round.length;
          perRowRows += end - start;
        }
      }
      const libSeq = rate(ROWS, libSeconds);
      const libConc = rate(ROWS, concSeconds);
      const set = rate(ROWS, setSeconds);
      const asyncRate = rate(
        ROWS,
        await seconds(async () => {
          const { rows } = await user.query(`SELECT array_agg(${SQL[kind].async} ORDER BY id) AS ids FROM docs`);
          await user.query(`SELECT count(*) FROM svc_get_async_results($1::uuid[], 300)`, [rows[0].ids]);
        }),
      );
      const f = (x: number) => x.toFixed(0);
      // BENCH_PER_ROW=0 runs no per-row calls: their columns say so rather than NaN.
      const perRowRate = perRowRows > 0 ? f(rate(perRowRows, perRowSeconds)) : '—';
      const perRowRatio = perRowRows > 0 ? (perRowLibSeconds / perRowSeconds).toFixed(2) : '—';
      console.log(
        `| ${kind} | ${f(libSeq)} | ${f(libConc)} | ${perRowRate} | ${f(set)} | ${f(asyncRate)} | ${(set / libConc).toFixed(2)} | ${(set / libSeq).toFixed(2)} | ${perRowRatio} | ${load()} |`,
      );
      await db.query(`DELETE FROM svc_queue`);
    }
    await one.dispose();
    await many.dispose();

    // The worker's throughput as its concurrency grows (sequences of one context).
    console.log(
      `\n| worker concurrency | rows/s (set-based, ${TOKENS} tokens a row) | tokens/s (rows × ${TOKENS}, the most a row may take) |`,
    );
    console.log('|---:|---:|---:|');
    const sample = bodies.slice(0, Math.min(ROWS, 2000));
    for (const concurrency of [1, 4, 16]) {
      await stop();
      stop = await startWorker(concurrency);
      const s = await seconds(() =>
        user.query(`SELECT count(*) FROM svc_generate($1::text[], max_tokens := ${TOKENS}, use_cache := false)`, [
          sample,
        ]),
      );
      console.log(
        `| ${concurrency} | ${(sample.length / s).toFixed(0)} | ${((sample.length * TOKENS) / s).toFixed(0)} |`,
      );
      await db.query(`DELETE FROM svc_queue`);
    }
    await stop();
    await user.end();
  } finally {
    await db.end();
    await cluster.stop();
  }
}

// Each burns a core in slices of 100 ms and ends once this script is gone (its parent changes), however
// it ends: a signal skips the exit handler.
const BURN = `const parent = process.ppid; for (;;) { const t = Date.now(); while (Date.now() - t < 100); if (process.ppid !== parent) process.exit(); }`;
const busy = Array.from({ length: BUSY }, () => spawn(process.execPath, ['-e', BURN], { stdio: 'ignore' }));
process.on('exit', () => busy.forEach((p) => p.kill()));
for (const name of MODELS) {
  await benchModel(
    name,
    name === 'stories' ? STORIES_MODEL : name === 'embed' ? EMBED_MODEL : await realVocabModel(name as RealVocab),
  );
}
// A running child keeps this script alive: stopped here, and by the exit handler on a failure.
busy.forEach((p) => p.kill());
