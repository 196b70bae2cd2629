// Every input the docs' limits allow compiles, or fails with a ConstraintError, in bounded time and
// memory. The compilers run in a child process (hostile-runner.ts) with a capped heap, so a blow-up
// fails this test naming its case instead of taking down jest or the machine. The bounds are ten
// times the CPU time each call costs on a 2-core machine (CPU, not wall time, which other work on a
// busy runner stretches): loose enough for any CI runner, tight enough
// that the exponential and quadratic paths issue #21 found (2.4 s to over 60 s each) fail.
import { spawn } from 'node:child_process';
import type { HostileResult } from './hostile-runner.js';

const SEED = Number(process.env.SVC_HOSTILE_SEED ?? 1);
const RUNS_PER_KIND = Number(process.env.SVC_HOSTILE_RUNS ?? 60);
const HEAP_CAP_MB = 1024;
/** What a generated case may cost, before the factor of ten. */
const DEFAULT_MS = 100;
const DEFAULT_MB = 20;
const SLACK = 10;

interface RunnerOutput {
  results: HostileResult[];
  code: number | null;
  signal: NodeJS.Signals | null;
  lastStarted: string;
  stderr: string;
}

function runHostileCases(): Promise<RunnerOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        `--max-old-space-size=${HEAP_CAP_MB}`,
        '--import',
        'tsx',
        'test/grammar/hostile-runner.ts',
        String(SEED),
        String(RUNS_PER_KIND),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const results = stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as HostileResult);
      const started = stderr.split('\n').filter((line) => line.startsWith('start '));
      resolve({ results, code, signal, lastStarted: started.at(-1)?.slice('start '.length) ?? '', stderr });
    });
  });
}

let output: RunnerOutput;
beforeAll(async () => {
  output = await runHostileCases();
}, 300_000);

test('the runner finishes every case (no case killed it: heap cap, timeout or crash)', () => {
  expect({ code: output.code, signal: output.signal, lastStarted: output.lastStarted }).toEqual({
    code: 0,
    signal: null,
    lastStarted: output.results.at(-1)?.name,
  });
  expect(output.results.length).toBeGreaterThan(5 * RUNS_PER_KIND);
});

test('every case is compiled or a ConstraintError, never another error', () => {
  const others = output.results.filter((r) => r.outcome === 'other error').map((r) => `${r.name}: ${r.detail}`);
  expect(others).toEqual([]);
});

test(`every case stays within ${SLACK}x its time and heap cost`, () => {
  const over = output.results
    .filter((r) => r.ms > SLACK * (r.expectMs ?? DEFAULT_MS) || r.heapMB > SLACK * (r.expectMB ?? DEFAULT_MB))
    .map(
      (r) =>
        `${r.name}: ${r.ms.toFixed(0)} ms CPU (bound ${SLACK * (r.expectMs ?? DEFAULT_MS)}), heap +${r.heapMB.toFixed(0)} MB (bound ${SLACK * (r.expectMB ?? DEFAULT_MB)})`,
    );
  expect(over).toEqual([]);
});

test('the cases issue #21 named now fail fast or compile', () => {
  const byName = new Map(output.results.map((r) => [r.name, r]));
  expect(byName.get('integer bounds ±1e308')?.outcome).toBe('compiled');
  expect(byName.get("regex 'a' x 100,000")?.outcome).toBe('compiled');
  expect(byName.get('allOf of 60 anyOf pairs')).toMatchObject({
    outcome: 'ConstraintError',
    detail: expect.stringMatching(/too-large/),
  });
  expect(byName.get('$ref #/%zz')).toMatchObject({
    outcome: 'ConstraintError',
    detail: expect.stringMatching(/unresolved-ref/),
  });
  expect(byName.get('regex nested 10,000 deep')).toMatchObject({ outcome: 'ConstraintError' });
  expect(byName.get('duplicate choices')).toMatchObject({
    outcome: 'ConstraintError',
    detail: expect.stringMatching(/"yes"/),
  });
});

test('large schemas with an expensive corner, or a grammar past the limit, are refused by the work bound, not after seconds (#36)', () => {
  const byName = new Map(output.results.map((r) => [r.name, r]));
  for (const name of [
    '5,000 properties beside anyOf nested 24 deep',
    '20,000 properties beside anyOf nested 24 deep',
  ]) {
    expect({ name, ...byName.get(name) }).toMatchObject({
      name,
      outcome: 'ConstraintError',
      detail: expect.stringMatching(/too-large.*(limit of \d+|grammar is more than)/),
    });
  }
  // Its schema is 1.35 MB of JSON text: refused by the size of the input now (#48), before any walk.
  expect(byName.get('30,000 properties (a grammar past the character limit)')).toMatchObject({
    outcome: 'ConstraintError',
    detail: expect.stringMatching(/the schema is more than 1000000 characters as JSON text/),
  });
});

test('inputs past the size limit are refused by it, shared objects counted at each use; false refusals compile (#48)', () => {
  const byName = new Map(output.results.map((r) => [r.name, r]));
  for (const name of [
    '1,000,000 annotation keys (18.8 MB)',
    '100,000 unused definitions',
    'a oneOf tree of 8.4 MB',
    'one object used twice at each of 40 levels',
  ]) {
    expect({ name, ...byName.get(name) }).toMatchObject({
      name,
      outcome: 'ConstraintError',
      detail: expect.stringMatching(/too-large: the schema is more than 1000000 characters as JSON text/),
    });
  }
  for (const name of [
    "jreleaser's shape (80 definitions of 60 properties, 80 dropped merges)",
    'one object used twice at each of 12 levels (compiled)',
  ]) {
    expect({ name, outcome: byName.get(name)?.outcome }).toEqual({ name, outcome: 'compiled' });
  }
});

test('merges of allOf/$ref are in the work bound, and patterns never run as a backtracking RegExp at compile time (#43)', () => {
  const byName = new Map(output.results.map((r) => [r.name, r]));
  const names = [...byName.keys()].filter(
    (name) => name.startsWith('allOf chain of') || name.includes('against patternProperties ^(a+)+$'),
  );
  expect(names).toHaveLength(7);
  for (const name of names) expect({ name, outcome: byName.get(name)?.outcome }).toEqual({ name, outcome: 'compiled' });
  const automaton = [...byName.keys()].find((name) => name.includes('.{0,5000}x'))!;
  expect(byName.get(automaton)).toMatchObject({
    outcome: 'ConstraintError',
    detail: expect.stringMatching(/too-large/),
  });
});

test('the cases issue #25 named compile', () => {
  const byName = new Map(output.results.map((r) => [r.name, r]));
  for (const name of [
    'string minLength 100 maxLength 2048',
    'regex a{1500,2500}',
    'regex [a-z]{3000}',
    'two anyOfs sharing an unsatisfiable $ref',
    'created_at_datetime with additionalProperties',
    '(a(a(…x…)b)?b)? nested 24 deep',
  ]) {
    expect({ name, outcome: byName.get(name)?.outcome }).toEqual({ name, outcome: 'compiled' });
  }
});

test('work the bound did not count is bounded; the regexes that stalled llama.cpp compile small or are refused; a BigInt is a ConstraintError (#54)', () => {
  const byName = new Map(output.results.map((r) => [r.name, r]));
  for (const name of [
    '10,000 {required: [k]} allOf parts (229 KB)',
    '20,000 {required: [k]} allOf parts',
    '10,000 {required: [k]} parts as an inline allOf tree',
  ]) {
    expect({ name, ...byName.get(name) }).toMatchObject({
      name,
      outcome: 'ConstraintError',
      detail: expect.stringMatching(/too-large: an object of \d+ properties/),
    });
  }
  expect(byName.get('24 overlapping patternProperties beside 30 required names')?.outcome).toBe('compiled');
  for (const name of ['regex ^(a|a|…×2000)*$', 'regex ^(a?×50){50}$', 'regex ^(a{0,400}){0,400}$']) {
    expect({ name, ...byName.get(name) }).toMatchObject({
      name,
      outcome: 'compiled',
      detail: expect.stringMatching(/^\d{2,3} grammar characters/),
    });
  }
  expect(byName.get('regex ^([a-z]{0,20}[a-z0-9]{0,20}){0,20}$ (too ambiguous)')).toMatchObject({
    outcome: 'ConstraintError',
    detail: expect.stringMatching(/too ambiguous/),
  });
  expect(byName.get('a BigInt in a library schema')).toMatchObject({
    outcome: 'ConstraintError',
    detail: expect.stringMatching(/invalid-input/),
  });
});
