// One answer on every surface, measured (#53): how often the edge (llama.cpp compiled to wasm by
// @wllama/wllama 3.8.1, in workerd through Miniflare) gives other bytes than the library, the `svc`
// command and SQL (node-llama-cpp's llama.cpp build: test/surfaces/one-answer.test.ts shows those
// three agree byte for byte), where the two part, and why.
//
// For each prompt of the corpus (test/helpers/story-prompts.ts), raw, greedy, `--max-tokens` tokens:
// the library's text (Engine.generate, as svc's library runs it), node-llama-cpp's tokens (the
// engine's loop, checked to decode to that text), and the edge engine object's text and tokens with
// each step's likeliest (its internal `logprobs`). Where the tokens part, both builds' top
// log-probabilities there say why (test/helpers/divergence.ts): a near-tie (rounding: the two
// likeliest within 0.05 of each other, in the other order on the other build), a token the edge may
// not emit (invalid UTF-8, NUL, a control token: its text grammar), or unexplained. Beside that, the
// noise: how far the two builds' log-probabilities of the same tokens lie apart after the prompt.
//
// The 512-wide qwen2-vocabulary model needs ~1 GiB of wasm heap: it runs here (workerd does not
// enforce the isolate's 128 MB) with ENGINE_WASM_MAX_MIB=1024, and could not be deployed.
// Run: npx tsx bench/divergence.ts [--model stories|qwen2-512|both] [--prompts 50] [--max-tokens 512]
import { readFileSync } from 'node:fs';
import type { Token } from 'node-llama-cpp';
import { Engine } from '../src/engine/engine.js';
import { STORIES_MODEL, realVocabModel } from '../scripts/real-models.js';
import { STORY_PROMPTS } from '../test/helpers/story-prompts.js';
import {
  classify,
  firstDifference,
  nativeTokens,
  nativeTop,
  type Divergence,
  type EdgeStep,
} from '../test/helpers/divergence.js';
import { seedModel, startWorker } from '../test/edge/helpers.js';
import { load, median, percentile } from './stats.js';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const PROMPTS = Number(arg('prompts', '50'));
const MAX_TOKENS = Number(arg('max-tokens', '512'));
const which = arg('model', 'both');
const MODELS = (which === 'both' ? ['stories', 'qwen2-512'] : [which]) as Array<'stories' | 'qwen2-512'>;

async function run(choice: 'stories' | 'qwen2-512'): Promise<void> {
  const path = choice === 'stories' ? STORIES_MODEL : await realVocabModel('qwen2-512');
  const engine = await Engine.load({ model: path, threads: 1, sequences: 1 });
  const context = await engine.model.createContext({ contextSize: engine.contextSize, threads: 1, sequences: 1 });
  const worker = await startWorker({
    seedModel: false,
    vars: choice === 'stories' ? {} : { ENGINE_WASM_MAX_MIB: '1024' },
  });
  await seedModel(worker.kv, worker.r2, '1', new Uint8Array(readFileSync(path)));
  const stub = await worker.engine();
  const started = Date.now();
  const noise: number[] = [];
  const atDivergences: number[] = [];
  const rows: Row[] = [];
  let same = 0;
  let nativeMs = 0;
  let edgeMs = 0;
  try {
    for (const prompt of STORY_PROMPTS.slice(0, PROMPTS)) {
      const input = engine.promptTokens({ prompt, promptFormat: 'raw' }).tokens;
      let t = Date.now();
      const library = (await engine.generate({ prompt, maxTokens: MAX_TOKENS, seed: 42, promptFormat: 'raw' })).text;
      nativeMs += Date.now() - t;
      const native = await nativeTokens(
        engine.model,
        context,
        input,
        Math.min(MAX_TOKENS, engine.contextSize - input.length),
      );
      if (engine.decode(native) !== library)
        throw new Error(`node-llama-cpp's tokens for ${JSON.stringify(prompt)} are not the library's text`);
      t = Date.now();
      const res = await stub.fetch('https://engine.internal/', {
        method: 'POST',
        body: JSON.stringify({ method: 'generate', params: { prompt, max_tokens: MAX_TOKENS, logprobs: 5 } }),
      });
      const edge = (await res.json()) as { text: string; steps: EdgeStep[]; error?: string };
      edgeMs += Date.now() - t;
      if (edge.error) throw new Error(`edge: ${edge.error}`);
      // The noise after the prompt: the same tokens' log-probabilities on both builds.
      const first = await nativeTop(context, input, native, 0, 5);
      for (const e of edge.steps[0]?.top ?? []) {
        const n = first.find((x) => x.id === e.id);
        if (n) noise.push(Math.abs(n.logprob - e.logprob));
      }
      if (edge.text === library) {
        same++;
        rows.push({ prompt, chars: library.length });
        console.log(
          `  ${choice} ${rows.length}/${PROMPTS} ${JSON.stringify(prompt)}: the same ${library.length} characters`,
        );
        continue;
      }
      const at = firstDifference(
        native,
        edge.steps.map((s) => s.id),
      );
      if (at < 0 || at >= edge.steps.length || at >= native.length) {
        rows.push({
          prompt,
          chars: library.length,
          note: `tokens ${at < 0 ? 'the same' : `part at ${at}, where one output ends`}; text differs`,
        });
        continue;
      }
      const divergence = classify(at, native[at], await nativeTop(context, input, native, at, 5), edge.steps[at]);
      rows.push({ prompt, chars: library.length, divergence, offset: engine.decode(native.slice(0, at)).length });
      console.log(
        `  ${choice} ${rows.length}/${PROMPTS} ${JSON.stringify(prompt)}: parts at token ${at}, ${divergence.cause}`,
      );
      for (const e of divergence.edge) {
        const n = divergence.native.find((x) => x.id === e.id);
        if (n) atDivergences.push(Math.abs(n.logprob - e.logprob));
      }
    }
    report(choice, rows, same, noise, atDivergences, { nativeMs, edgeMs, allMs: Date.now() - started }, (id) =>
      JSON.stringify(engine.decode([id as Token])),
    );
  } finally {
    await worker.mf.dispose();
    await context.dispose();
    await engine.dispose();
  }
}

type Row = { prompt: string; chars: number; divergence?: Divergence; offset?: number; note?: string };

function report(
  choice: string,
  rows: Row[],
  same: number,
  noise: number[],
  atDivergences: number[],
  { nativeMs, edgeMs, allMs }: { nativeMs: number; edgeMs: number; allMs: number },
  piece: (id: number) => string,
): void {
  const spread = (xs: number[]) =>
    xs.length === 0
      ? 'none'
      : `median ${median(xs).toExponential(1)}, p99 ${percentile(xs, 99).toExponential(1)}, max ${Math.max(...xs).toExponential(1)} (${xs.length} pairs)`;
  console.log(`\n${choice}: ${PROMPTS} prompts, raw, greedy, max_tokens ${MAX_TOKENS}, 1 thread (load ${load()})`);
  const rate = `${(((PROMPTS - same) / PROMPTS) * 100).toFixed(0)}%`;
  console.log(`  same bytes as the library: ${same} of ${PROMPTS}; divergence rate ${rate}`);
  const causes = new Map<string, number>();
  for (const r of rows)
    if (r.divergence || r.note)
      causes.set(r.divergence?.cause ?? 'text', (causes.get(r.divergence?.cause ?? 'text') ?? 0) + 1);
  console.log(`  causes: ${[...causes].map(([c, n]) => `${c} ${n}`).join(', ') || 'none'}`);
  const count = (c: string) => causes.get(c) ?? 0;
  summary.push(
    `| ${choice} | ${PROMPTS} | ${MAX_TOKENS} | ${same} | ${rate} | ${count('near-tie')} | ${count('not-text')} | ${count('unexplained') + count('text')} | ` +
      `${noise.length ? median(noise).toExponential(1) : '-'} | ${noise.length ? Math.max(...noise).toExponential(1) : '-'} | ${load()} |`,
  );
  console.log(`  log-probability |native - edge| of the top tokens after the prompt: ${spread(noise)}`);
  console.log(`  the same at the tokens where the two part: ${spread(atDivergences)}`);
  console.log(
    `  time: library ${(nativeMs / 1000).toFixed(1)} s, edge ${(edgeMs / 1000).toFixed(1)} s (all ${(allMs / 1000).toFixed(0)} s)`,
  );
  for (const r of rows) {
    if (!r.divergence && !r.note) continue;
    if (r.note) {
      console.log(`  ${JSON.stringify(r.prompt)}: ${r.note}`);
      continue;
    }
    const d = r.divergence!;
    const top = (xs: Divergence['native']) =>
      xs
        .slice(0, 2)
        .map((x) => `${piece(x.id)} ${x.logprob.toFixed(4)}`)
        .join(', ');
    console.log(
      `  ${JSON.stringify(r.prompt)}: token ${d.token} (char ${r.offset} of ${r.chars}), ${d.cause}: native ${top(d.native)}; edge ${top(d.edge)}, took ${piece(d.edgeToken)}`,
    );
  }
}

const summary: string[] = [];
for (const m of MODELS) await run(m);
console.log(
  '\n| model | prompts | max_tokens | same bytes as the library | divergence rate | near-tie | not text | unexplained | log-prob noise, median | max | load |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const line of summary) console.log(line);
