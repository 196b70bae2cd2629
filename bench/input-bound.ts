// How long refusing an input too long for the context takes (src/engine/input-bound.ts), against
// tokenizing it whole as before, on stories260K (SentencePiece with byte fallback: quadratic in
// characters its vocabulary lacks) and a qwen2-vocabulary model (byte-level BPE). Issue #52's bound:
// 1,000,000 CJK characters refused in under a second.
//
//   npx tsx bench/input-bound.ts        (BENCH_WHOLE=50000: also time tokenizing that many whole)
import { loadavg } from 'node:os';
import { Engine } from '../src/engine/engine.js';
import { STORIES_MODEL, realVocabModel } from '../scripts/real-models.js';

const whole = Number(process.env.BENCH_WHOLE ?? 50_000);
const engines: Array<[string, Engine]> = [
  ['stories260K', await Engine.load({ model: STORIES_MODEL, threads: 1, sequences: 1 })],
  [
    'qwen2 (2,048 context)',
    await Engine.load({ model: await realVocabModel('qwen2'), threads: 1, sequences: 1, contextSize: 2048 }),
  ],
];
const ms = async (f: () => unknown) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};
console.log(
  `load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}, threads 1`,
);
console.log('| model | input | refused in | whole text tokenized in |');
console.log('|---|---|---:|---:|');
for (const [name, engine] of engines) {
  for (const [label, text] of [
    ['1,000,000 × 日', '日'.repeat(1_000_000)],
    ['1,000,000 CJK (mixed)', '日本語の文章です。'.repeat(111_112).slice(0, 1_000_000)],
    ['1,000,000 ASCII', 'Once upon a time. '.repeat(55_556).slice(0, 1_000_000)],
  ] as const) {
    const refused = await ms(() => engine.embed(text).catch(() => undefined));
    const full = await ms(() => engine.countTokens(text.slice(0, whole)));
    console.log(
      `| ${name} | ${label} | ${refused.toFixed(1)} ms | ${full.toFixed(0)} ms (first ${whole.toLocaleString('en')}) |`,
    );
  }
}
for (const [, engine] of engines) await engine.dispose();
