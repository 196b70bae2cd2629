// The benchmarks the README names still run and print their tables: each runs once at a tiny size.
// (Figures are not asserted: speed goals live in bench/, never as timings in tests.)
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

const BENCHES: Array<[string, string[], Record<string, string>]> = [
  ['bench/plv8.ts', [], { BENCH_CALLS: '200', BENCH_RUNS: '1' }],
  [
    'bench/queue.ts',
    [],
    {
      BENCH_SINGLE: '20',
      BENCH_BATCHES: '1',
      BENCH_BATCH_SIZE: '100',
      BENCH_JOBS: '50',
      BENCH_LATENCY: '5',
      BENCH_RUNS: '1',
      BENCH_DIAG: '0',
    },
  ],
  // 24 tokens: the JSON grammar's shortest output takes 12 on the test model, and a smaller budget fails at once.
  ['bench/engine.ts', [], { BENCH_TOKENS: '24', BENCH_RUNS: '1', BENCH_THREADS: '1' }],
  ['bench/worker.ts', [], { BENCH_SAMPLES: '2', BENCH_JOBS: '3', BENCH_TOKENS: '4' }],
  ['bench/grammar.ts', [], { BENCH_ROUNDS: '1' }],
  ['bench/edge.ts', ['--misses', '2', '--hits', '10', '--concurrency', '2', '--max-tokens', '4'], {}],
  ['bench/models.ts', [], { BENCH_WORKERS: '2', BENCH_CONCURRENCY: '2', BENCH_JOBS: '40', BENCH_RUNS: '1' }],
  [
    'bench/constrained.ts',
    [],
    {
      BENCH_MODELS: 'stories260K',
      BENCH_CASES: '2',
      BENCH_TOKENS: '12',
      BENCH_SHORT_ROUNDS: '1',
      BENCH_SHORT_TOKENS: '64',
    },
  ],
  ['bench/vectorizer.ts', [], { BENCH_ROWS: '200', BENCH_SAMPLE: '50' }],
  // Where pgvector is not installed it prints a note instead of its table, and this fails: setup installs it.
  ['bench/search.ts', ['--chunks', '300', '--repeats', '3'], {}],
  [
    'bench/table.ts',
    [],
    { BENCH_ROWS: '20', BENCH_PER_ROW: '5', BENCH_ROUND: '10', BENCH_MODELS: 'stories', BENCH_TOKENS: '4' },
  ],
  // With one other CPU-bound process beside it (#55's loaded machine), stopped when the script ends.
  [
    'bench/table.ts',
    [],
    {
      BENCH_ROWS: '8',
      BENCH_PER_ROW: '2',
      BENCH_ROUND: '4',
      BENCH_MODELS: 'stories',
      BENCH_KINDS: 'embed',
      BENCH_TOKENS: '2',
      BENCH_BUSY: '1',
    },
  ],
  ['bench/queue-miss.ts', [], { BENCH_CALLS: '10' }],
  ['bench/sync-floor.ts', [], { BENCH_ROWS: '10', BENCH_ROUND: '5' }],
  ['bench/workers.ts', [], { BENCH_ROWS: '40', BENCH_ROUND: '20' }],
  ['bench/workers.ts', [], { BENCH_ROWS: '40', BENCH_ROUND: '20', BENCH_KINDS: 'embed', BENCH_PIN: '1' }],
  ['bench/divergence.ts', ['--model', 'stories', '--prompts', '3', '--max-tokens', '16'], {}],
];

test.each(BENCHES)(
  '%s runs and prints a table',
  async (script, args, env) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script, ...args], {
      env: { ...process.env, ...env },
      maxBuffer: 16 << 20,
      timeout: 240_000,
    });
    expect(stdout).toMatch(/^\|.*\|\s*$/m);
    expect(stdout).toMatch(/^\|\s*-+/m);
  },
  300_000,
);
