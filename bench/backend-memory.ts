// A backend's memory over many svc calls: one connection submits, checks and cancels requests of every
// kind (valid and invalid), and the backend's resident set (VmRSS of its process) is printed every
// BENCH_STEP calls. It should level off (plv8's V8 heap grows to its working size, then is collected),
// not grow with the number of calls. No worker runs: requests are cancelled, then cleaned up.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { startCluster } from '../scripts/cluster.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 40_000);
const STEP = Number(process.env.BENCH_STEP ?? 5_000);

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

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
  console.log(
    `backend memory over ${CALLS} svc calls on one connection (load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')})\n`,
  );
  console.log('| calls | backend RSS (MiB) | calls/s since last row |');
  console.log('|---:|---:|---:|');
  console.log(`| 0 | ${rssMiB(pid).toFixed(0)} | |`);
  let started = Date.now();
  for (let call = 1; call <= CALLS; call++) {
    const sql = ROUND[call % ROUND.length];
    await client.query(sql, [String(call)]).catch(() => undefined); // the invalid ones fail, as they should
    if (call % STEP === 0) {
      const rate = STEP / ((Date.now() - started) / 1000);
      console.log(`| ${call} | ${rssMiB(pid).toFixed(0)} | ${Math.round(rate)} |`);
      await admin.query(`SELECT svc_cleanup('0')`);
      started = Date.now();
    }
  }
} finally {
  await client.end();
  await admin.end();
  await cluster.stop();
}
