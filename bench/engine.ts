// Engine figures on real models, next to node-llama-cpp called directly with the same settings:
// load time, memory, and tokens/s unconstrained (target: svc >= 0.95 of direct) and under a
// JSON-schema grammar (target >= 0.9 of svc unconstrained). Models: the tiny one-byte test model,
// the trained stories260K (SentencePiece, 512 tokens), and random-weight models carrying real
// vocabularies (scripts/real-models.ts): qwen2 (byte-level BPE, 151,936 tokens) and phi-3
// (SentencePiece, 32,064).
//
//   npx tsx bench/engine.ts                         # all four
//   BENCH_MODELS=stories260K,qwen2 npx tsx bench/engine.ts
//   SVC_MODEL=path/to/model.gguf npx tsx bench/engine.ts   # one GGUF of your own
// Environment: BENCH_TOKENS (256 per run), BENCH_RUNS (5, median), BENCH_THREADS (1: these models
// are tiny and decode fastest on one thread; give a real model every core).
//
// The two sides run alternately in one process, so machine load hits both alike; the load average
// is printed next to the figures. Memory is the growth of the process's resident set while one side
// loads (the model's tensors and its context), with node-llama-cpp's own estimate of the model.
import { LlamaCompletion, type Llama, type LlamaContext, type LlamaModel } from 'node-llama-cpp';
import { loadavg } from 'node:os';
import { basename } from 'node:path';
import { Engine, llamaFor } from '../src/engine/engine.js';
import { compileJsonSchema } from '../src/grammar/index.js';
import { ensureTestModel } from '../scripts/make-test-model.js';
import { STORIES_MODEL, realVocabModel } from '../scripts/real-models.js';
import { median } from './stats.js';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 256);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const CONTEXT = TOKENS + 64;

const MODELS: Record<string, () => Promise<string>> = {
  'test model': async () => ensureTestModel(),
  stories260K: async () => STORIES_MODEL,
  qwen2: () => realVocabModel('qwen2'),
  phi3: () => realVocabModel('phi3'),
};
const chosen: Array<[string, () => Promise<string>]> = process.env.SVC_MODEL
  ? [[basename(process.env.SVC_MODEL), async () => process.env.SVC_MODEL!]]
  : (process.env.BENCH_MODELS?.split(',') ?? Object.keys(MODELS)).map((name) => {
      if (!MODELS[name]) throw new Error(`unknown model ${name}; one of ${Object.keys(MODELS).join(', ')}`);
      return [name, MODELS[name]];
    });

const grammar = compileJsonSchema({
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'integer' }, name: { type: 'string' } },
        required: ['id', 'name'],
      },
    },
  },
  required: ['items'],
}).gbnf;

const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;
const rssMiB = () => process.memoryUsage().rss / 2 ** 20;
const fmt = (x: number, digits = 0) =>
  x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

interface Row {
  name: string;
  vocabulary: string;
  load: { svc: number; direct: number };
  rss: { svc: number; direct: number };
  modelMiB: number;
  rate: { direct: number; svc: number; json: number };
  /** Medians of the runs' own ratios: each pair ran back to back, so load that drifts over the runs cancels. */
  ratio: { svc: number; json: number };
  tokens: { direct: number; svc: number };
}

const vocabularySize = (model: LlamaModel) =>
  (
    (model.fileInfo.metadata as unknown as { tokenizer?: { ggml?: { tokens?: unknown[] } } }).tokenizer?.ggml?.tokens ??
    []
  ).length;

async function loadDirect(
  llama: Llama,
  path: string,
): Promise<{ model: LlamaModel; context: LlamaContext; seconds: number; rss: number }> {
  const rss = rssMiB();
  const started = process.hrtime.bigint();
  const model = await llama.loadModel({ modelPath: path });
  const context = await model.createContext({ contextSize: CONTEXT, threads: THREADS });
  return { model, context, seconds: seconds(started), rss: rssMiB() - rss };
}

async function benchModel(llama: Llama, name: string, path: string): Promise<Row> {
  const direct = await loadDirect(llama, path);
  const rss = rssMiB();
  const started = process.hrtime.bigint();
  const engine = await Engine.load({ model: path, threads: THREADS, contextSize: CONTEXT });
  const svcLoad = seconds(started);
  const svcRss = rssMiB() - rss;

  const directRun = async (prompt: string) => {
    const sequence = direct.context.getSequence();
    try {
      let tokens = 0;
      const t = process.hrtime.bigint();
      await new LlamaCompletion({ contextSequence: sequence }).generateCompletion(prompt, {
        maxTokens: TOKENS,
        temperature: 0,
        seed: 42,
        disableContextShift: true,
        onToken: (chunk) => (tokens += chunk.length),
      });
      return { tokens, rate: tokens / seconds(t) };
    } finally {
      await sequence.dispose();
    }
  };
  const svcRun = async (prompt: string, withGrammar: boolean) => {
    const t = process.hrtime.bigint();
    const out = await engine.generate({ prompt, maxTokens: TOKENS, seed: 42, grammar: withGrammar ? grammar : null });
    return { tokens: out.tokens, rate: out.tokens / seconds(t) };
  };

  await directRun('warm up');
  await svcRun('warm up', false);
  const rates = { direct: [] as number[], svc: [] as number[], json: [] as number[] };
  const tokens = { direct: [] as number[], svc: [] as number[] };
  const ratios = { svc: [] as number[], json: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    const prompt = `Once upon a time ${run}`;
    // Alternate which side goes first, so neither always runs on a warmer cache.
    const pair =
      run % 2 === 0
        ? [await directRun(prompt), await svcRun(prompt, false)]
        : [await svcRun(prompt, false), await directRun(prompt)].reverse();
    rates.direct.push(pair[0].rate);
    rates.svc.push(pair[1].rate);
    tokens.direct.push(pair[0].tokens);
    tokens.svc.push(pair[1].tokens);
    rates.json.push((await svcRun(prompt, true)).rate);
    ratios.svc.push(pair[1].rate / pair[0].rate);
    ratios.json.push(rates.json[run] / pair[1].rate);
  }
  const row: Row = {
    name,
    vocabulary: `${engine.model.vocabularyType}, ${fmt(vocabularySize(engine.model))}`,
    load: { svc: svcLoad, direct: direct.seconds },
    rss: { svc: svcRss, direct: direct.rss },
    modelMiB: direct.model.size / 2 ** 20,
    rate: { direct: median(rates.direct), svc: median(rates.svc), json: median(rates.json) },
    ratio: { svc: median(ratios.svc), json: median(ratios.json) },
    tokens: { direct: median(tokens.direct), svc: median(tokens.svc) },
  };
  await direct.context.dispose();
  await direct.model.dispose();
  await engine.dispose();
  return row;
}

// The engine's own binding: both sides share it (a second binding would load llama.cpp again).
const llama = await llamaFor(false);
const loadBefore = loadavg();
const rows: Row[] = [];
for (const [name, path] of chosen) rows.push(await benchModel(llama, name, await path()));
const loadAfter = loadavg();

console.log(
  `${THREADS} thread(s), context ${CONTEXT}, up to ${TOKENS} tokens per run, median of ${RUNS} runs (ratios: median of each run's ratio), CPU`,
);
console.log(
  `load average (1/5/15 min): before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}\n`,
);
console.log(
  '| model | vocabulary | load: direct / svc | RSS growth: direct / svc | model size | direct tok/s | svc tok/s | svc / direct (≥ 0.95) | svc JSON tok/s | JSON / svc (≥ 0.9) | tokens per run: direct / svc |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.vocabulary} | ${fmt(r.load.direct * 1000)} / ${fmt(r.load.svc * 1000)} ms | ${fmt(r.rss.direct, 1)} / ${fmt(r.rss.svc, 1)} MiB | ${fmt(r.modelMiB, 1)} MiB ` +
      `| ${fmt(r.rate.direct)} | ${fmt(r.rate.svc)} | ${r.ratio.svc.toFixed(2)} | ${fmt(r.rate.json)} | ${r.ratio.json.toFixed(2)} | ${r.tokens.direct} / ${r.tokens.svc} |`,
  );
}
