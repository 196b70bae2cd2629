// Engine figures on one model (default: the tiny test model; SVC_MODEL for a real GGUF):
// (c) tokens/s under a JSON-schema grammar against unconstrained generation (target >= 0.9), and
// (d) svc's engine against node-llama-cpp called directly with the same settings (target >= 0.95).
import { getLlama, LlamaCompletion } from 'node-llama-cpp';
import { availableParallelism } from 'node:os';
import { Engine } from '../src/engine/engine.js';
import { compileJsonSchema } from '../src/grammar/index.js';
import { ensureTestModel } from '../scripts/make-test-model.js';

const MODEL = process.env.SVC_MODEL ?? ensureTestModel();
const TOKENS = Number(process.env.BENCH_TOKENS ?? 256);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
// The tiny test model decodes fastest on one thread; a real model wants every core.
const THREADS = Number(process.env.BENCH_THREADS ?? (process.env.SVC_MODEL ? availableParallelism() : 1));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const schema = {
  type: 'object',
  properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'] } } },
  required: ['items'],
};
const grammar = compileJsonSchema(schema).gbnf;

const engine = await Engine.load({ model: MODEL, threads: THREADS, contextSize: TOKENS + 64 });
async function engineRate(withGrammar: boolean, prompt: string): Promise<number> {
  const started = process.hrtime.bigint();
  const out = await engine.generate({ prompt, maxTokens: TOKENS, seed: 42, grammar: withGrammar ? grammar : null });
  return out.tokens / (Number(process.hrtime.bigint() - started) / 1e9);
}

// node-llama-cpp directly: same model file, threads, context size and greedy sampling.
const llama = await getLlama({ gpu: false });
const model = await llama.loadModel({ modelPath: MODEL });
const context = await model.createContext({ contextSize: TOKENS + 64, threads: THREADS });
async function directRate(prompt: string): Promise<number> {
  const sequence = context.getSequence();
  try {
    let tokens = 0;
    const started = process.hrtime.bigint();
    await new LlamaCompletion({ contextSequence: sequence }).generateCompletion(prompt, {
      maxTokens: TOKENS, temperature: 0, seed: 42, disableContextShift: true, onToken: (t) => (tokens += t.length),
    });
    return tokens / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    sequence.dispose();
  }
}

await engineRate(false, 'warm up');
await directRate('warm up');
const rates = { plain: [] as number[], json: [] as number[], direct: [] as number[] };
for (let run = 0; run < RUNS; run++) {
  const prompt = `Benchmark prompt ${run}:`;
  rates.direct.push(await directRate(prompt));
  rates.plain.push(await engineRate(false, prompt));
  rates.json.push(await engineRate(true, prompt));
}
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
console.log(`model ${MODEL}, ${THREADS} threads, up to ${TOKENS} tokens per run, median of ${RUNS} runs\n`);
console.log('| measure | tokens/s | ratio | target |');
console.log('|---|---:|---:|---|');
console.log(`| node-llama-cpp directly, unconstrained | ${fmt(median(rates.direct))} | | |`);
console.log(`| svc engine, unconstrained | ${fmt(median(rates.plain))} | ${(median(rates.plain) / median(rates.direct)).toFixed(2)} of direct | >= 0.95 |`);
console.log(`| svc engine, JSON-schema grammar | ${fmt(median(rates.json))} | ${(median(rates.json) / median(rates.plain)).toFixed(2)} of unconstrained | >= 0.9 |`);
await context.dispose();
await model.dispose();
await engine.dispose();
