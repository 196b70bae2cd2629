// Threads: how long a generation takes at each thread count, on the machine as it is and with
// BENCH_BUSY CPU-bound processes started beside it (default: one per logical CPU), for the models
// at hand; and which count the default picks (src/engine/threads.ts). llama.cpp's threads spin while
// they wait for each other, so more threads than free cores costs far more than it gains.
//
//   npx tsx bench/threads.ts
//   SVC_MODEL=path/to/model.gguf npx tsx bench/threads.ts     # one GGUF of your own
// Environment: BENCH_TOKENS (256), BENCH_THREADS (1,2: the counts tried), BENCH_BUSY (logical CPUs).
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { Engine } from '../src/engine/engine.js';
import { defaultThreads, physicalCores } from '../src/engine/threads.js';
import { STORIES_MODEL, realVocabModel } from '../scripts/real-models.js';
import { load } from './stats.js';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 256);
const COUNTS = (process.env.BENCH_THREADS ?? '1,2').split(',').map(Number);
const BUSY = Number(process.env.BENCH_BUSY ?? availableParallelism());
const PROMPT = 'Once upon a time';

const models: Array<[string, () => Promise<string>]> = process.env.SVC_MODEL
  ? [[basename(process.env.SVC_MODEL), async () => process.env.SVC_MODEL!]]
  : [
      ['stories260K', async () => STORIES_MODEL],
      ['qwen2 (random weights, 152k vocabulary)', () => realVocabModel('qwen2')],
    ];

/** Seconds for TOKENS tokens (the best of two runs), the model loaded at `threads`. */
async function secondsFor(path: string, threads: number): Promise<number> {
  const engine = await Engine.load({ model: path, threads, sequences: 1, contextSize: TOKENS + 64 });
  try {
    let best = Infinity;
    for (let run = 0; run < 2; run++) {
      const start = performance.now();
      const out = await engine.generate({ prompt: PROMPT, maxTokens: TOKENS, seed: 42 });
      best = Math.min(best, ((performance.now() - start) / 1000) * (TOKENS / Math.max(1, out.tokens)));
    }
    return best;
  } finally {
    await engine.dispose();
  }
}

function burners(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
}

console.log(
  `bench/threads: ${TOKENS} tokens, logical CPUs ${availableParallelism()}, physical cores ${physicalCores()}, load ${load()}`,
);
for (const [name, path] of models) {
  const file = await path();
  const size = statSync(file).size;
  console.log(`\n${name}: ${(size / 2 ** 20).toFixed(1)} MiB; default threads ${defaultThreads(size)}`);
  for (const busy of [0, BUSY]) {
    const procs = burners(busy);
    try {
      if (busy > 0) await new Promise((r) => setTimeout(r, 500));
      for (const threads of COUNTS) {
        const s = await secondsFor(file, threads);
        console.log(
          `  ${busy === 0 ? 'as the machine is' : `plus ${busy} CPU-bound processes`}, ${threads} thread${threads === 1 ? '' : 's'}: ${s.toFixed(2)} s (${(TOKENS / s).toFixed(0)} tokens/s), load ${load()}`,
        );
      }
    } finally {
      for (const p of procs) p.kill('SIGKILL');
    }
  }
}
