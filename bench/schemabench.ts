// JSONSchemaBench (guidance-ai/jsonschemabench, maskbench/data: 13 splits, 10,163 schemas with
// valid and invalid test instances) through svc's compiler, as the benchmark's own runner judges an
// engine (maskbench/maskbench/runner.py): a schema passes (P1) when it compiles, its grammar accepts
// every valid instance and rejects every invalid one, the grammar alone (no validator). Instances
// are written compactly (svc's grammars write no whitespace) with their keys as given.
//
// Soundness on the stripped oracle: an invalid instance the grammar accepts is a violation unless
// the schema with every keyword svc listed as approximated taken out (at its pointer, and in the
// allOf/anyOf/oneOf parts below it, which the compiler merges there) accepts it too: what svc says
// it enforces, it must enforce. The validator (validate()) then catches the rest, which is printed
// too ("passes with validate()").
//
// The data is not copied into the repository (156 MB). Get it with:
//   git clone --depth 1 https://github.com/guidance-ai/jsonschemabench && export BENCH_JSB_DIR=jsonschemabench/maskbench/data
// (the issue's 10,162: every split but BFCL_* and JME, and without JsonSchemaStore's
// cloudformation.schema.json, whose 15 MB blob the mirror here lacks.)
//
// Run: BENCH_JSB_DIR=… npx tsx bench/schemabench.ts
//   BENCH_JSB_EVERY=k    every k-th schema (a sample; the seed-free order is the file names')
//   BENCH_OPEN_OBJECTS=1 compile with { additionalProperties: true } (the opt-in open objects)
//   BENCH_VERBOSE=1      list the schemas that fail, and why
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { Automaton, AutomatonLimitError, DEAD } from '../src/automaton/automaton.js';
import { ConstraintError, compileJsonSchema, recognizeGbnf } from '../src/grammar/index.js';
import type { CompiledJsonSchema, Grammar } from '../src/grammar/index.js';
import { createSchemaValidator } from '../src/grammar/validator.js';
import { normalizeSchema } from '../src/grammar/drafts.js';
import { load, percentile } from './stats.js';

const dir = process.env.BENCH_JSB_DIR;
if (!dir) {
  console.error('BENCH_JSB_DIR is not set: point it at jsonschemabench/maskbench/data (see the head of this file).');
  process.exit(2);
}
const every = Math.max(1, Number(process.env.BENCH_JSB_EVERY ?? 1));
const open = process.env.BENCH_OPEN_OBJECTS === '1';
const verbose = process.env.BENCH_VERBOSE === '1';

/** The 13 splits of the issue's count (BFCL_* and JME came later and are easier). */
const SPLITS = [
  'Github_trivial',
  'Github_easy',
  'Github_medium',
  'Github_hard',
  'Github_ultra',
  'Glaiveai2K',
  'Handwritten',
  'JsonSchemaStore',
  'Kubernetes',
  'MCPspec',
  'Snowplow',
  'Synthesized',
  'WashingtonPost',
];

interface TestCase {
  valid: boolean;
  data: unknown;
}

interface Result {
  split: string;
  file: string;
  compiled: boolean;
  error?: string;
  ms: number;
  /** Every instance handled right by the grammar alone. */
  pass: boolean;
  /** Every instance handled right by the grammar and validate() together. */
  passValidated: boolean;
  validRejected: number;
  invalidAccepted: number;
  violations: number;
  approximated: boolean;
  why?: string;
}

/** Accepts by the token masker's automaton (llama.cpp's stacks), else by the recognizer. */
function accepts(grammar: Grammar, automaton: { value?: Automaton | null }, text: string): boolean {
  if (automaton.value === undefined) {
    try {
      automaton.value = new Automaton(grammar);
    } catch (error) {
      if (!(error instanceof AutomatonLimitError)) throw error;
      automaton.value = null;
    }
  }
  if (automaton.value) {
    try {
      const state = automaton.value.stepText(automaton.value.initial, text);
      return state !== DEAD && automaton.value.isAccepting(state);
    } catch (error) {
      if (!(error instanceof AutomatonLimitError)) throw error;
    }
  }
  return recognizeGbnf(grammar, text, { maxSteps: 50_000_000 });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema at a JSON pointer (of the 2020-12 spelling the compiler read). */
function at(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}

/**
 * Takes `keyword` out of the schema at `node` and of the allOf/anyOf/oneOf parts below it; with
 * patternProperties also additionalProperties, whose meaning depends on it (the keys a pattern
 * wrote would otherwise count as additional).
 */
function strip(node: unknown, keyword: string): void {
  if (!isObject(node)) return;
  delete node[keyword];
  if (keyword === 'patternProperties') delete node.additionalProperties;
  for (const combinator of ['allOf', 'anyOf', 'oneOf']) {
    const parts = node[combinator];
    if (Array.isArray(parts)) for (const part of parts) strip(part, keyword);
  }
}

/** The normalized schema without the keywords the compiler listed as approximated. */
function stripped(compiled: CompiledJsonSchema, schema: unknown): unknown {
  const copy = structuredClone(normalizeSchema(schema).schema);
  for (const { pointer, keyword } of compiled.approximations) strip(pointer === '' ? copy : at(copy, pointer), keyword);
  return copy;
}

function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function runOne(split: string, file: string): Result {
  const json = JSON.parse(readFileSync(join(dir!, file), 'utf8')) as { schema: unknown; tests?: TestCase[] };
  const tests = json.tests ?? [];
  const result: Result = {
    split,
    file,
    compiled: false,
    ms: 0,
    pass: false,
    passValidated: false,
    validRejected: 0,
    invalidAccepted: 0,
    violations: 0,
    approximated: false,
  };
  let compiled: CompiledJsonSchema | undefined;
  try {
    result.ms = cpuMs(() => {
      compiled = compileJsonSchema(json.schema, open ? { additionalProperties: true } : {});
    });
  } catch (error) {
    result.error =
      error instanceof ConstraintError
        ? error.code
        : `THROWS ${(error as Error).name}: ${(error as Error).message.slice(0, 80)}`;
    result.why = (error as Error).message.slice(0, 160);
    return result;
  }
  const c = compiled!;
  result.compiled = true;
  result.approximated = c.approximations.length > 0;
  const automaton: { value?: Automaton | null } = {};
  let oracle: ((text: string) => boolean) | undefined;
  let pass = true;
  let passValidated = true;
  for (const [i, test] of tests.entries()) {
    const text = JSON.stringify(test.data);
    const accepted = accepts(c.grammar, automaton, text);
    if (test.valid && !accepted) {
      result.validRejected++;
      pass = passValidated = false;
      result.why ??= `valid test #${i} rejected: ${text.slice(0, 120)}`;
    } else if (!test.valid && accepted) {
      result.invalidAccepted++;
      pass = false;
      if (c.validate(text).ok) passValidated = false;
      if (!oracle) {
        const check = createSchemaValidator(stripped(c, json.schema));
        oracle = (t) => check(t).ok;
      }
      if (!oracle(text)) {
        result.violations++;
        result.why = `SOUNDNESS: invalid test #${i} accepted: ${text.slice(0, 120)}`;
      } else result.why ??= `invalid test #${i} accepted (approximated): ${text.slice(0, 120)}`;
    }
  }
  result.pass = pass;
  result.passValidated = passValidated;
  return result;
}

function main(): void {
  const files = readdirSync(dir!)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const bySplit = new Map<string, string[]>();
  for (const file of files) {
    const split = file.split('---')[0];
    if (!SPLITS.includes(split)) continue;
    let list = bySplit.get(split);
    if (!list) bySplit.set(split, (list = []));
    list.push(file);
  }
  const startLoad = load();
  const started = Date.now();
  const results: Result[] = [];
  for (const split of SPLITS) {
    const list = bySplit.get(split) ?? [];
    list.forEach((file, i) => {
      if (i % every === 0) results.push(runOne(split, file));
    });
  }
  const pct = (n: number, d: number) => `${n}/${d} (${((100 * n) / Math.max(1, d)).toFixed(1)}%)`;
  console.log(
    `JSONSchemaBench through svc${open ? ' (open objects)' : ''}: ${results.length} schemas${every > 1 ? ` (every ${every}th)` : ''}; ` +
      `${cpus().length} CPUs, load ${startLoad} at start, ${load()} at end; ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log('| split | schemas | compiled | P1 (grammar alone) | P1 with validate() | soundness violations |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const rows = [...SPLITS.map((s) => [s, results.filter((r) => r.split === s)] as const), ['total', results] as const];
  for (const [name, list] of rows) {
    if (list.length === 0) continue;
    const n = list.length;
    console.log(
      `| ${name} | ${n} | ${list.filter((r) => r.compiled).length} | ${pct(list.filter((r) => r.pass).length, n)} | ${
        list.filter((r) => r.passValidated).length
      } | ${list.reduce((s, r) => s + r.violations, 0)} (${list.filter((r) => r.violations > 0).length} schemas) |`,
    );
  }
  const errors = new Map<string, number>();
  for (const r of results) if (r.error) errors.set(r.error, (errors.get(r.error) ?? 0) + 1);
  console.log(`refused: ${[...errors].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  const compiled = results.filter((r) => r.compiled);
  console.log(
    `not passing though compiled: ${compiled.filter((r) => r.validRejected > 0).length} reject a valid instance, ` +
      `${compiled.filter((r) => r.invalidAccepted > 0 && r.validRejected === 0).length} only accept an invalid one ` +
      `(${compiled.filter((r) => r.invalidAccepted > 0 && r.validRejected === 0 && r.approximated).length} of them with approximations listed)`,
  );
  const ms = compiled.map((r) => r.ms).sort((a, b) => a - b);
  const slowest = [...compiled].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(
    `compile CPU ms p50 / p99 / max: ${percentile(ms, 50).toFixed(2)} / ${percentile(ms, 99).toFixed(1)} / ${ms[ms.length - 1]?.toFixed(0)}; ` +
      `slowest: ${slowest.map((r) => `${r.file} ${r.ms.toFixed(0)}`).join(', ')}`,
  );
  if (verbose) {
    for (const r of results) if (!r.pass) console.log(`${r.file}: ${r.error ?? ''} ${r.why ?? ''}`);
  }
}

main();
