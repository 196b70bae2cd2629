// Compiles hostile inputs one by one and prints, per call, a JSON line: the time, the heap growth
// and the outcome. Run in its own process by hostile.test.ts, with --expose-gc so each call starts
// from a collected heap, and a capped heap so a blow-up kills this process instead of the machine.
//
//   node --expose-gc --max-old-space-size=1024 --import tsx test/grammar/hostile-runner.ts SEED RUNS [NAME-FILTER]
import {
  checkGbnf,
  compileChoices,
  compileJsonSchema,
  compileRegex,
  compileType,
  ConstraintError,
} from '../../src/grammar/index.js';
import type { HostileCase, HostileInput } from './hostile-inputs.js';
import { NAMED_CASES, generatedCases } from './hostile-inputs.js';

export interface HostileResult {
  name: string;
  /** CPU time of the call (user + system, all of this process's threads), in ms. */
  ms: number;
  /** Heap in use right after the call minus right before it (collected first), in MB. */
  heapMB: number;
  /** The process's peak resident memory so far, in MB. */
  peakRssMB: number;
  outcome: 'compiled' | 'ConstraintError' | 'other error';
  detail: string;
  expectMs?: number;
  expectMB?: number;
}

function compile(input: HostileInput): string {
  switch (input.kind) {
    case 'schema':
      return `${compileJsonSchema(input.schema).gbnf.length} grammar characters`;
    case 'regex':
      return `${compileRegex(input.pattern, input.flags).gbnf.length} grammar characters`;
    case 'choices':
      return `${compileChoices(input.choices as string[]).gbnf.length} grammar characters`;
    case 'type':
      return `${compileType(input.name as string).gbnf.length} grammar characters`;
    case 'gbnf':
      return `${checkGbnf(input.text).rules.size} rules`;
  }
}

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with node --expose-gc');

function run(entry: HostileCase): HostileResult {
  // Read before the clock starts: the largest inputs are built when read (hostile-inputs.ts).
  const input = entry.input;
  collect!();
  const heapBefore = process.memoryUsage().heapUsed;
  const cpuBefore = process.cpuUsage();
  let outcome: HostileResult['outcome'] = 'compiled';
  let detail: string;
  try {
    detail = compile(input);
  } catch (error) {
    outcome = error instanceof ConstraintError ? 'ConstraintError' : 'other error';
    detail = `${(error as Error).name}${error instanceof ConstraintError ? ` ${error.code}` : ''}: ${String((error as Error).message).slice(0, 300)}`;
    if (outcome === 'other error') detail += `\n${String((error as Error).stack).slice(0, 2000)}`;
  }
  // CPU time, not wall time: other work on a busy 2-core CI runner stretches the wall clock of a
  // call several times over, but not the CPU the call itself spends.
  const cpu = process.cpuUsage(cpuBefore);
  const ms = (cpu.user + cpu.system) / 1000;
  const heapMB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  const peakRssMB = process.resourceUsage().maxRSS / 1024;
  return {
    name: entry.name,
    ms,
    heapMB,
    peakRssMB,
    outcome,
    detail,
    expectMs: entry.expectMs,
    expectMB: entry.expectMB,
  };
}

const [seed = '1', runs = '60', filter = ''] = process.argv.slice(2);
const cases = [...NAMED_CASES, ...generatedCases(Number(seed), Number(runs))].filter((entry) =>
  entry.name.includes(filter),
);
// Warm up the compilers (JIT, lazily built tables) so the first case is not charged for them.
for (let i = 0; i < 3; i++)
  run({
    name: 'warm-up',
    input: { kind: 'schema', schema: { type: 'object', properties: { a: { type: 'string', format: 'date-time' } } } },
  });
run({ name: 'warm-up', input: { kind: 'regex', pattern: '[a-z]\\w+', flags: 'i' } });
for (const entry of cases) {
  // The name first: if this call kills the process, the test still knows which one it was.
  process.stderr.write(`start ${entry.name}\n`);
  process.stdout.write(JSON.stringify(run(entry)) + '\n');
}
