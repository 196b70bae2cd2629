// A real llama-server behind ServerEngine, next to the in-process Engine on the same GGUF: whether
// each request gives the same bytes both ways (raw, chat, under a regex grammar and a JSON-Schema
// grammar), whether the constrained outputs pass svc's own check, the embeddings' agreement, and
// the time per request each way. Needs a llama-server binary (llama.cpp's tools/server; not
// shipped with node-llama-cpp): build one from the llama.cpp release node-llama-cpp bundles, e.g.
//
//   git clone node_modules/node-llama-cpp/llama/gitRelease.bundle /tmp/llamacpp
//   cmake -S /tmp/llamacpp -B /tmp/llamacpp/build -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF && cmake --build /tmp/llamacpp/build --target llama-server
//   LLAMA_SERVER=/tmp/llamacpp/build/bin/llama-server npx tsx bench/inference-server.ts
//
// Environment: SVC_MODEL (default models/stories260K.gguf), BENCH_RUNS (5 per request, median).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from '../scripts/free-port.js';
import { loadavg } from 'node:os';
import { Engine } from '../src/engine/engine.js';
import { ServerEngine } from '../src/engine/server-engine.js';
import { compileJsonSchema, compileRegex } from '../src/grammar/index.js';
import type { GenerateRequest } from '../src/engine/engine.js';

const BINARY = process.env.LLAMA_SERVER;
const MODEL = process.env.SVC_MODEL || 'models/stories260K.gguf';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
if (!BINARY || !existsSync(BINARY)) {
  console.error('set LLAMA_SERVER to a llama-server binary (see the comment at the top of bench/inference-server.ts)');
  process.exit(2);
}

/** Starts llama-server on the model and waits until GET /health answers 200. */
async function startServer(extra: string[]): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    BINARY!,
    ['-m', MODEL, '--host', '127.0.0.1', '--port', String(port), '-t', '1', '--parallel', '1', '-c', '2048', ...extra],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  child.stderr!.on('data', (d) => (log = (log + d).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`llama-server exited ${child.exitCode}:\n${log}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`llama-server did not become healthy:\n${log}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> {
  let value!: T;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    value = await f();
    times.push(performance.now() - start);
  }
  return { value, ms: median(times) };
}

const generation = await startServer([]);
// stories260K is a generative model: llama-server's pooling for it is 'none', which /v1/embeddings
// refuses; node-llama-cpp (svc's engine) pools a generative model's embedding on the last token.
const embedding = await startServer(['--embeddings', '--pooling', 'last']);
try {
  const local = await Engine.load({ model: MODEL, threads: 1, contextSize: 2048 });
  const remote = await ServerEngine.connect({ kind: 'llama-server', url: generation.url });
  const remoteEmbed = await ServerEngine.connect({ kind: 'llama-server', url: embedding.url });
  console.log(
    `model ${MODEL}; in process ${local.modelId}; server ${remote.modelId}; median of ${RUNS}; load ${loadavg()[0].toFixed(2)}`,
  );

  const regex = ', there was a [a-z]+ [a-z]+ named [A-Z][a-z]+[.]';
  const schema = {
    type: 'object',
    properties: { name: { enum: ['Lily', 'Tom'] }, age: { type: 'integer', minimum: 2, maximum: 9 } },
    required: ['name', 'age'],
  };
  const json = compileJsonSchema(schema);
  const cases: Array<{ name: string; request: GenerateRequest; check?: (text: string) => boolean }> = [
    { name: 'raw, 64 tokens', request: { prompt: 'Once upon a time', maxTokens: 64, seed: 42 } },
    { name: 'chat, 32 tokens', request: { prompt: 'Lily and Tom', maxTokens: 32, seed: 42, promptFormat: 'chat' } },
    {
      name: 'regex grammar',
      request: { prompt: 'Once upon a time', maxTokens: 64, seed: 42, grammar: compileRegex(regex).gbnf },
      check: (t) => new RegExp(`^(?:${regex})$`, 'u').test(t),
    },
    {
      name: 'JSON Schema grammar',
      request: { prompt: 'Tom had a big red ball.\n', maxTokens: 64, seed: 42, grammar: json.gbnf },
      check: (t) => json.validate(t).ok,
    },
  ];
  console.log('| request | same bytes | server output passes svc check | in process ms | server ms |');
  console.log('|---|---|---|---|---|');
  for (const c of cases) {
    const a = await timed(() => local.generate(c.request));
    const b = await timed(() => remote.generate(c.request));
    const same = a.value.text === b.value.text && a.value.stopReason === b.value.stopReason;
    const passes = c.check ? String(c.check(b.value.text)) : '-';
    console.log(
      `| ${c.name} | ${same ? 'yes' : `no: ${JSON.stringify(a.value.text)} vs ${JSON.stringify(b.value.text)}`} | ${passes} | ${a.ms.toFixed(1)} | ${b.ms.toFixed(1)} |`,
    );
  }
  const text = 'Lily played with her ball';
  const e1 = await timed(() => local.embed(text));
  const e2 = await timed(() => remoteEmbed.embed(text));
  const cosine = e1.value.reduce((s, x, i) => s + x * e2.value[i], 0);
  console.log(
    `| embed (${e2.value.length} dims) | cosine ${cosine.toFixed(6)} | - | ${e1.ms.toFixed(1)} | ${e2.ms.toFixed(1)} |`,
  );
  await local.dispose();
} finally {
  generation.child.kill();
  embedding.child.kill();
}
