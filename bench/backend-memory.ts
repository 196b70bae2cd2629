// A backend's memory over many svc calls: one connection submits, checks and cancels requests of every
// kind (valid and invalid), and the backend's resident set (VmRSS of its process) is printed every
// BENCH_STEP calls. It should level off (plv8's V8 heap grows to its working size, then is collected),
// not grow with the number of calls. No worker runs: requests are cancelled, then cleaned up.
import { readFileSync } from 'node:fs';
import { startCluster } from '../scripts/cluster.js';
import { load } from './stats.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 40_000);
const STEP = Number(process.env.BENCH_STEP ?? 5_000);
// BENCH_ONLY=1: only ROUND[1] (svc_generate_json_async), to follow one call's memory alone.
const ONLY = process.env.BENCH_ONLY === undefined ? undefined : Number(process.env.BENCH_ONLY);

// VmRSS counts the shared buffers a backend has touched (RssShmem: it grows towards shared_buffers as
// the queue's pages are written, whatever runs), and libnode's code (RssFile). What a backend holds
// of its own is RssAnon: the V8 heap, PostgreSQL's memory contexts, malloc.
const statusMiB = (pid: number, field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const memory = (pid: number) => ['VmRSS', 'RssAnon', 'RssShmem'].map((f) => statusMiB(pid, f).toFixed(0)).join(' | ');

// One round of calls: each submitter once (with a constraint to compile), a check, a cancel, and
// three calls that fail validation. The ids are cancelled so the queue never fills.
const ROUND = [
  `SELECT svc_cancel_async(svc_generate_async('prompt ' || $1))`,
  `SELECT svc_cancel_async(svc_generate_json_async('json ' || $1, '{"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"]}'))`,
  `SELECT svc_cancel_async(svc_generate_regex_async('regex ' || $1, '[A-Z]{3}-[0-9]{4}'))`,
  `SELECT svc_cancel_async(svc_generate_choice_async('choice ' || $1, ARRAY['yes', 'no', $1]))`,
  `SELECT * FROM svc_check_async_batch(svc_embed_batch_async(ARRAY['a ' || $1, 'b ' || $1]))`,
  `SELECT svc_generate_async('x' || $1, max_tokens := 0)`,
  `SELECT svc_generate_json_async('x' || $1, '{"type":"nonsense"}')`,
  `SELECT svc_generate_regex_async('x' || $1, '(?<=a)b')`,
];

const cluster = await startCluster();
const admin = await cluster.connect();
const client = await cluster.connect();
try {
  await admin.query('CREATE EXTENSION svc CASCADE');
  const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
  console.log(`backend memory over ${CALLS} svc calls on one connection (load ${load()})\n`);
  // The V8 heap of the session's plv8 context (the superuser's: svc's SECURITY DEFINER functions run
  // in their owner's context, which is this one), to tell JavaScript's memory from the backend's.
  const heapMiB = async () => {
    const notices: string[] = [];
    const onNotice = (n: { message?: string }) => notices.push(n.message ?? '');
    client.on('notice', onNotice);
    await client.query(`DO $$ plv8.elog(NOTICE, JSON.stringify(plv8.memory_usage())) $$ LANGUAGE plv8`);
    client.off('notice', onNotice);
    const usage = JSON.parse(notices[0] ?? '{}') as { used_heap_size?: number; total_heap_size?: number };
    return `${((usage.used_heap_size ?? 0) / 2 ** 20).toFixed(0)} / ${((usage.total_heap_size ?? 0) / 2 ** 20).toFixed(0)}`;
  };
  console.log(
    '| calls | backend RSS (MiB) | of it private (RssAnon) | of it shared buffers (RssShmem) | V8 heap used / total (MiB) | calls/s since last row |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|');
  console.log(`| 0 | ${memory(pid)} | ${await heapMiB()} | |`);
  let started = Date.now();
  for (let call = 1; call <= CALLS; call++) {
    const sql = ROUND[ONLY ?? call % ROUND.length];
    await client.query(sql, [String(call)]).catch(() => undefined); // the invalid ones fail, as they should
    if (call % STEP === 0) {
      const rate = STEP / ((Date.now() - started) / 1000);
      console.log(`| ${call} | ${memory(pid)} | ${await heapMiB()} | ${Math.round(rate)} |`);
      await admin.query(`SELECT svc_cleanup('0')`);
      started = Date.now();
    }
  }
} finally {
  await client.end();
  await admin.end();
  await cluster.stop();
}
