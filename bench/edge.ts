// Edge worker bench: requests/s and p50/p95 latency for cache misses and hits, over real HTTP on
// loopback against workerd (Miniflare, in-memory KV/D1/R2/DO, the tiny test model in wllama).
// Run: npx tsx bench/edge.ts [--misses N] [--hits N] [--concurrency C]
import { startWorker } from '../test/edge/helpers.ts';

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const MISSES = arg('misses', 100);
const HITS = arg('hits', 2000);
const CONC = arg('concurrency', 8);
const MAX_TOKENS = arg('max-tokens', 32);

async function load(name: string, n: number, conc: number, req: (i: number) => Promise<Response>, expectCached?: boolean) {
  const lat: number[] = [];
  let next = 0;
  let wrong = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: conc }, async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        const s = performance.now();
        const res = await req(i);
        const body = (await res.json()) as { cached?: boolean };
        lat.push(performance.now() - s);
        if (!res.ok || (expectCached !== undefined && body.cached !== undefined && body.cached !== expectCached)) wrong++;
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
  return { name, n, conc, rps: n / secs, p50: q(0.5), p95: q(0.95), wrong };
}

const w = await startWorker({ port: 0 });
const base = w.url.toString().replace(/\/$/, '');
const post = (path: string, body: unknown) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
try {
  // Warm-up: load the model into the engine object (R2 → wllama) once, outside the figures.
  const t = performance.now();
  await post('/generate', { prompt: 'warm up', max_tokens: 1 });
  const loadMs = performance.now() - t;
  const prompts = Array.from({ length: MISSES }, (_, i) => `bench prompt ${i}`);
  const rows = [];
  rows.push(await load(`generate miss (max_tokens ${MAX_TOKENS})`, MISSES, CONC, (i) => post('/generate', { prompt: prompts[i], max_tokens: MAX_TOKENS }), false));
  await new Promise((r) => setTimeout(r, 1000)); // let waitUntil cache writes land
  rows.push(await load('generate hit (KV)', HITS, CONC, (i) => post('/generate', { prompt: prompts[i % MISSES], max_tokens: MAX_TOKENS }), true));
  rows.push(await load('embed miss', MISSES, CONC, (i) => post('/embed', { text: prompts[i] })));
  await new Promise((r) => setTimeout(r, 1000));
  rows.push(await load('embed hit (KV)', HITS, CONC, (i) => post('/embed', { text: prompts[i % MISSES] })));
  rows.push(await load('health', HITS, CONC, () => fetch(`${base}/health`).then((r) => new Response(JSON.stringify({}), { status: r.status }))));

  console.log(`edge bench: workerd via Miniflare on ${base}, ${CONC} concurrent clients, node ${process.version}`);
  console.log(`first request incl. model load from R2 into wllama: ${loadMs.toFixed(0)} ms`);
  console.log('| case | requests | req/s | p50 ms | p95 ms | errors |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.n} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.wrong} |`);
  }
} finally {
  await w.mf.dispose();
}
