// Edge worker bench: memory and speed of the worker in workerd (Miniflare, in-memory KV/D1/R2/DO)
// over real HTTP on loopback, on the trained stories260K and on the any-character test model.
//
// Memory (SPEC 8: 128 MB). Cloudflare's limit is per isolate: its JavaScript heap and its
// WebAssembly allocations. workerd does not enforce it locally, so this prints, at each stage:
// - the isolate that runs the worker (router and engine object share it), read from workerd's V8
//   inspector (Runtime.getHeapUsage on the target core:user:): the JS heap V8 has reserved
//   (totalSize) and the ArrayBuffer backing stores outside it (backingStorageSize: model bytes
//   read from R2, request bodies);
// - the engine's wasm heap, exactly (the engine object's /stats: bytes of its WebAssembly.Memory),
//   which the inspector does not count;
// - the RSS of the whole workerd process (Linux /proc: VmRSS, peak VmHWM). That also holds workerd
//   itself, Miniflare's KV/D1/R2/cache simulators (their own isolates and SQLite), the machine code
//   V8 compiles from the 8.4 MiB wllama.wasm, and the allocator's free pages. "growth since idle"
//   is what serving adds to the process.
// Requests are sent with Connection: close: workerd runs the engine's wasm on the thread that also
// serves HTTP, so a generation that blocks it for seconds (the first ones after a load, before V8
// has optimized the wasm, on a loaded machine) lets its keep-alive timer close idle connections
// that the client has just reused ("other side closed").
// Run: npx tsx bench/edge.ts [--model stories|test|both] [--misses 100] [--hits 2000] [--mixed 1000] [--concurrency 8] [--max-tokens 32]
import { freePort } from '../scripts/free-port.js';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { processMemory, startWorker, workerdPids, type ModelChoice } from '../test/edge/helpers.ts';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const MISSES = Number(arg('misses', '100'));
const HITS = Number(arg('hits', '2000'));
const CONC = Number(arg('concurrency', '8'));
const MAX_TOKENS = Number(arg('max-tokens', '32'));
const MIXED = Number(arg('mixed', '1000'));
const MODELS: ModelChoice[] =
  arg('model', 'both') === 'both' ? ['stories', 'test'] : [arg('model', 'both') as ModelChoice];

async function load(
  name: string,
  n: number,
  conc: number,
  req: (i: number) => Promise<Response>,
  expectCached?: boolean,
) {
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
        if (!res.ok || (expectCached !== undefined && body.cached !== undefined && body.cached !== expectCached))
          wrong++;
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
  return { name, n, conc, rps: n / secs, p50: q(0.5), p95: q(0.95), wrong };
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/**
 * Resident MiB of the workerd process's anonymous executable mappings: the machine code V8 compiles
 * (for wllama.wasm above all). workerd's own code is a file mapping and not counted.
 */
function compiledCodeMiB(pid: number): number {
  let kib = 0;
  let counting = false;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ (\S{4}) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (header) counting = header[1].includes('x') && header[2] === '';
    else if (counting && line.startsWith('Rss:')) kib += Number(/\d+/.exec(line)![0]);
  }
  return kib / 1024;
}

interface HeapUsage {
  usedSize: number;
  totalSize: number;
  backingStorageSize: number;
}

/** The worker's isolate through workerd's inspector: Runtime.getHeapUsage on demand. */
async function isolateInspector(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    id: string;
    webSocketDebuggerUrl: string;
  }[];
  const target = targets.find((t) => t.id === 'core:user:');
  if (!target) throw new Error(`no inspector target core:user: among ${targets.map((t) => t.id).join(', ')}`);
  // Node 22 has WebSocket built in; Node 20 without --experimental-websocket takes undici's (Miniflare's dependency).
  const WS =
    (globalThis as { WebSocket?: typeof WebSocket }).WebSocket ??
    ((await import('undici')).WebSocket as unknown as typeof WebSocket);
  const ws = new WS(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  const waiting = new Map<number, (r: HeapUsage) => void>();
  ws.onmessage = (e: MessageEvent) => {
    const msg = JSON.parse(String(e.data)) as { id?: number; result?: HeapUsage };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result!);
  };
  const call = <T>(method: string) =>
    new Promise<T>((resolve) => {
      waiting.set(++id, resolve as (r: HeapUsage) => void);
      ws.send(JSON.stringify({ id, method }));
    });
  return {
    usage: () => call<HeapUsage>('Runtime.getHeapUsage'),
    /** A full garbage collection in the isolate, so the next usage() is what is live. */
    collectGarbage: () => call<unknown>('HeapProfiler.collectGarbage'),
    close: () => ws.close(),
  };
}

// A mixed load as an application sends it: plain and constrained generations (schema, regex,
// choices: each constraint's own grammar and cache key), embeddings, misses and hits. Cycle of 10:
// 3 plain misses, 1 schema, 1 regex, 1 choices (misses: new prompts), 2 plain hits, 1 embed miss, 1
// embed hit. Memory is marked after every tenth of them, to show whether it levels off.
const MIXED_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', maxLength: 12 }, age: { type: 'integer', minimum: 0, maximum: 120 } },
  required: ['name', 'age'],
};
function mixedRequest(i: number): { path: string; body: Record<string, unknown> } {
  const round = Math.floor(i / 10);
  const prompt = `mixed ${round}`;
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
      return { path: '/generate', body: { prompt: `${prompt} ${i % 10}`, max_tokens: MAX_TOKENS } };
    case 3:
      return { path: '/generate', body: { prompt, schema: MIXED_SCHEMA, max_tokens: 48 } };
    case 4:
      return { path: '/generate', body: { prompt, regex: '[A-Z][a-z]{2,8} (is|was) [0-9]{1,2}', max_tokens: 24 } };
    case 5:
      return { path: '/generate', body: { prompt, choices: [' mom', ' dog', ' car', ' park'] } };
    case 6:
    case 7:
      return { path: '/generate', body: { prompt: `bench prompt ${i % MISSES}`, max_tokens: MAX_TOKENS } };
    case 8:
      return { path: '/embed', body: { text: prompt } };
    default:
      return { path: '/embed', body: { text: `bench prompt ${i % MISSES}` } };
  }
}

async function mixedRequests(
  post: (path: string, body: unknown) => Promise<Response>,
  mark: (stage: string) => Promise<void>,
) {
  const rows = [];
  const step = Math.max(1, Math.floor(MIXED / 10));
  for (let done = 0; done < MIXED; done += step) {
    const n = Math.min(step, MIXED - done);
    rows.push(
      await load(`mixed ${done + 1}-${done + n}`, n, CONC, (i) => {
        const { path, body } = mixedRequest(done + i);
        return post(path, body);
      }),
    );
    await mark(`after ${done + n} mixed requests`);
  }
  return rows;
}

interface Mark {
  stage: string;
  rss: number;
  heap: number;
  live: number;
  buffers: number;
  wasm: number;
  code: number;
}

async function benchModel(model: ModelChoice) {
  const inspectorPort = await freePort();
  const w = await startWorker({ port: 0, model, inspectorPort });
  const base = w.url.toString().replace(/\/$/, '');
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Connection: 'close' },
      body: JSON.stringify(body),
    });
  const [pid] = workerdPids();
  const engine = await w.engine();
  const inspector = await isolateInspector(inspectorPort);
  const wasm = async () =>
    ((await (await engine.fetch('http://engine/stats')).json()) as { wasmBytes: number }).wasmBytes;
  const memory: Mark[] = [];
  // The isolate's peak: sampled every 100 ms while requests run (the wasm heap only grows).
  let peakIsolate = 0;
  const isolateNow = async () => {
    const [u, x] = await Promise.all([inspector.usage(), wasm()]);
    peakIsolate = Math.max(peakIsolate, u.totalSize + u.backingStorageSize + x);
    return { u, x };
  };
  const mark = async (stage: string) => {
    const { u, x } = await isolateNow();
    await inspector.collectGarbage();
    const live = (await inspector.usage()).usedSize;
    memory.push({
      stage,
      rss: processMemory(pid).rssMiB,
      heap: u.totalSize,
      live,
      buffers: u.backingStorageSize,
      wasm: x,
      code: compiledCodeMiB(pid),
    });
  };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await isolateNow();
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    await mark('idle (bundle and wasm module compiled, nothing loaded)');
    // Router only: cache hits for entries written straight into KV, before the engine exists.
    const tag = await w.tag();
    for (let i = 0; i < 100; i++) await w.kv.put(`${tag}/gen:router only ${i}:${MAX_TOKENS}`, `cached ${i}`);
    await load(
      'router only',
      100,
      CONC,
      (i) => post('/generate', { prompt: `router only ${i}`, max_tokens: MAX_TOKENS }),
      true,
    );
    await mark('after 100 cache hits (router, KV, D1; no engine)');

    const t = performance.now();
    const first = await post('/generate', { prompt: 'Once upon a time', max_tokens: 1 });
    if (!first.ok) throw new Error(`first request: ${first.status} ${await first.text()}`);
    const loadMs = performance.now() - t;
    await mark('after model load (first request)');

    const prompts = Array.from({ length: MISSES }, (_, i) => `bench prompt ${i}`);
    const rows = [];
    rows.push(
      await load(
        `generate miss (max_tokens ${MAX_TOKENS})`,
        MISSES,
        CONC,
        (i) => post('/generate', { prompt: prompts[i], max_tokens: MAX_TOKENS }),
        false,
      ),
    );
    await mark(`after ${MISSES} generate misses`);
    await new Promise((r) => setTimeout(r, 1000)); // let waitUntil cache writes land
    rows.push(
      await load(
        'generate hit (KV)',
        HITS,
        CONC,
        (i) => post('/generate', { prompt: prompts[i % MISSES], max_tokens: MAX_TOKENS }),
        true,
      ),
    );
    rows.push(await load('embed miss', MISSES, CONC, (i) => post('/embed', { text: prompts[i] })));
    await mark(`after ${MISSES} embed misses`);
    await new Promise((r) => setTimeout(r, 1000));
    rows.push(await load('embed hit (KV)', HITS, CONC, (i) => post('/embed', { text: prompts[i % MISSES] })));
    rows.push(
      await load('health', HITS, CONC, () =>
        fetch(`${base}/health`, { headers: { Connection: 'close' } }).then(
          (r) => new Response(JSON.stringify({}), { status: r.status }),
        ),
      ),
    );
    await mark(`after ${HITS} hits of each kind`);
    rows.push(...(await mixedRequests(post, mark)));
    const peak = processMemory(pid).peakMiB;

    console.log(`\n## ${model === 'stories' ? 'stories260K (trained, 1.2 MB)' : 'test model (any-character, 0.5 MB)'}`);
    console.log(`first request incl. model load from R2 into wllama: ${loadMs.toFixed(0)} ms\n`);
    console.log(
      '| stage | isolate MiB (JS heap + buffers + wasm) | JS heap | of it live after GC | ArrayBuffers | engine wasm heap | workerd RSS | RSS growth since idle | of it compiled code |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const m of memory) {
      const isolate = m.heap + m.buffers + m.wasm;
      console.log(
        `| ${m.stage} | ${mib(isolate)} | ${mib(m.heap)} | ${mib(m.live)} | ${mib(m.buffers)} | ${mib(m.wasm)} | ${m.rss.toFixed(1)} | ${(m.rss - memory[0].rss).toFixed(1)} | ${m.code.toFixed(1)} |`,
      );
    }
    console.log(
      `| peak (isolate sampled every 100 ms; RSS VmHWM) | ${mib(peakIsolate)} | | | | | ${peak.toFixed(1)} | ${(peak - memory[0].rss).toFixed(1)} | |`,
    );
    console.log('\n| case | requests | req/s | p50 ms | p95 ms | errors |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const r of rows)
      console.log(
        `| ${r.name} | ${r.n} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.wrong} |`,
      );
  } finally {
    sampling = false;
    await sampler.catch(() => {});
    inspector.close();
    await w.mf.dispose();
  }
}

console.log(
  `edge bench: workerd via Miniflare, ${CONC} concurrent clients, wllama single-threaded, node ${process.version}, ` +
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
for (const model of MODELS) await benchModel(model);
