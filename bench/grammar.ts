// JSON Schema compilation over several corpora, svc's compiler side by side with node-llama-cpp's
// own converter (getGbnfGrammarForGbnfJsonSchema, what llama.createGrammarForJsonSchema runs before
// llama.cpp parses the text). Per corpus and converter it prints: schemas compiled, errors by reason,
// grammars llama.cpp refuses, valid instances the grammar and the validator accept, validator
// failures (throws, schemas it cannot check), sampled outputs that violate the schema, schemas served
// end to end, and compile time p50 / p99 / max over the schemas (each schema's median of ROUNDS runs).
//
// Corpora: the real-world-style schemas of test/grammar/real-world.ts (issue #25), the test corpus
// (test/grammar/corpus.ts), and real schemas read from node_modules at run time (nothing is copied
// into the repository): the option schemas of ESLint's and typescript-eslint's rules (draft-04
// style, written by their authors for ajv; each rule's default options are its valid instance when
// a reference ajv accepts them) and wrangler's configuration schema.
//
// Then, svc alone: compile time over inputs meant to be refused, and over a directory of schemas.
//
// Run: npx tsx bench/grammar.ts   (BENCH_ROUNDS=5, BENCH_SAMPLES=4, BENCH_SCHEMA_DIR=path/to/schemas)
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getLlama, LlamaGrammar, LlamaLogLevel } from 'node-llama-cpp';
import type { Llama } from 'node-llama-cpp';
import { build } from 'esbuild';
import AjvModule from 'ajv';
import {
  ConstraintError,
  compileJsonSchema,
  parseGbnf,
  recognizeGbnf,
  sampleGbnf,
  seededRandom,
} from '../src/grammar/index.js';
import type { CompiledJsonSchema, Grammar } from '../src/grammar/index.js';
import { CORPUS } from '../test/grammar/corpus.js';
import type { CorpusEntry } from '../test/grammar/corpus.js';
import { REAL_WORLD } from '../test/grammar/real-world.js';
import { NAMED_CASES } from '../test/grammar/hostile-inputs.js';
import { median } from './stats.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 4);

// node-llama-cpp's converter is not among its package exports; load its file directly.
const nodeLlamaCpp = resolve('node_modules/node-llama-cpp/dist/utils/gbnfJson');
type Converter = (schema: unknown) => string;
const { getGbnfGrammarForGbnfJsonSchema } = (await import(
  pathToFileURL(`${nodeLlamaCpp}/getGbnfGrammarForGbnfJsonSchema.js`).href
)) as {
  getGbnfGrammarForGbnfJsonSchema: Converter;
};
const { validateObjectAgainstGbnfSchema } = (await import(
  pathToFileURL(`${nodeLlamaCpp}/utils/validateObjectAgainstGbnfSchema.js`).href
)) as {
  validateObjectAgainstGbnfSchema: (value: unknown, schema: unknown) => boolean;
};

// -- corpora ---------------------------------------------------------------------------------------

/** A reference validator (ajv's draft-07 default, independent of svc) for picking valid instances. */
const Ajv = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as new (options: object) => {
  validate(schema: unknown, data: unknown): boolean;
};
const referee = new Ajv({ strict: false, logger: false, validateSchema: false, allErrors: false });
const refereeAccepts = (schema: unknown, value: unknown): boolean => {
  try {
    return referee.validate(schema, value);
  } catch {
    return false;
  }
};

interface RuleModule {
  meta?: { schema?: unknown; defaultOptions?: unknown[] };
  defaultOptions?: unknown[];
}

/** ESLint's own wrapping of a rule's option schema (an array is a tuple of optional options). */
function ruleSchema(schema: unknown): unknown {
  if (!Array.isArray(schema)) return schema;
  return { type: 'array', items: schema, minItems: 0, maxItems: schema.length };
}

/**
 * A value with its object keys in the order the schema declares them (the order svc's grammar writes
 * them; node-llama-cpp's too): a rule's default options are written in whatever order. The order is
 * the keys' first appearance among the schema's `properties`, walked depth first.
 */
function inSchemaOrder(schema: unknown, value: unknown): unknown {
  const order = new Map<string, number>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      const properties = (node as { properties?: unknown }).properties;
      if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
        for (const key of Object.keys(properties)) if (!order.has(key)) order.set(key, order.size);
      }
      Object.values(node).forEach(walk);
    }
  };
  walk(schema);
  const rank = (key: string) => order.get(key) ?? order.size;
  const sort = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(sort);
    if (typeof node !== 'object' || node === null) return node;
    const keys = Object.keys(node).sort((a, b) => rank(a) - rank(b));
    return Object.fromEntries(keys.map((key) => [key, sort((node as Record<string, unknown>)[key])]));
  };
  return sort(value);
}

/** Entries whose instances may be written in another key order than the schema's. */
const unordered = new Set<CorpusEntry>();

/** The texts of a valid instance a grammar may accept: as written, and in the schema's key order where the order is the author's. */
function textsOf(entry: CorpusEntry, value: unknown): string[] {
  return unordered.has(entry)
    ? [JSON.stringify(value), JSON.stringify(inSchemaOrder(entry.schema, value))]
    : [JSON.stringify(value)];
}

async function installedSchemas(): Promise<CorpusEntry[]> {
  const entries: CorpusEntry[] = [];
  const rules: [string, RuleModule][] = [];
  try {
    const { builtinRules } = (await import('eslint/use-at-your-own-risk')) as { builtinRules: Map<string, RuleModule> };
    for (const [name, rule] of builtinRules) rules.push([`eslint/${name}`, rule]);
  } catch (error) {
    console.error(`(ESLint's rules not loaded: ${(error as Error).message})`);
  }
  try {
    const plugin = (
      (await import('@typescript-eslint/eslint-plugin')) as { default: { rules: Record<string, RuleModule> } }
    ).default;
    for (const [name, rule] of Object.entries(plugin.rules)) rules.push([`@typescript-eslint/${name}`, rule]);
  } catch (error) {
    console.error(`(typescript-eslint's rules not loaded: ${(error as Error).message})`);
  }
  for (const [name, rule] of rules) {
    const raw = rule.meta?.schema;
    if (raw === undefined || raw === false || (Array.isArray(raw) && raw.length === 0)) continue;
    const schema = ruleSchema(structuredClone(raw));
    const defaults = rule.meta?.defaultOptions ?? rule.defaultOptions;
    const valid = Array.isArray(defaults) && defaults.length > 0 && refereeAccepts(schema, defaults) ? [defaults] : [];
    entries.push({ name, schema, valid });
    unordered.add(entries[entries.length - 1]);
  }
  try {
    const schema = JSON.parse(readFileSync('node_modules/wrangler/config-schema.json', 'utf8')) as unknown;
    entries.push({ name: 'wrangler config-schema.json', schema, valid: [] });
  } catch (error) {
    console.error(`(wrangler's schema not loaded: ${(error as Error).message})`);
  }
  return entries;
}

// -- measuring -------------------------------------------------------------------------------------

interface Outcome {
  name: string;
  /** CPU time (user + system) of one compile, the median over ROUNDS; wall-clock time likewise. */
  ms: number;
  wallMs: number;
  /** undefined when compiled; else the reason. */
  error?: string;
  llamaRefused?: boolean;
  onlyNull?: boolean;
  instances: number;
  grammarAccepted: number;
  validatorAccepted: number;
  validatorThrew: number;
  validatorCannotCheck: boolean;
  samples: number;
  samplesInvalid: number;
  /** svc: the grammar over-approximates some keyword (the validator checks it); node-llama-cpp: it warned (a `$ref` outside `#/$defs` taken as any value, contradictory bounds). */
  approximate: boolean;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The median CPU time and wall time of ROUNDS calls (CPU time, which other work on the machine does not stretch, is the figure to read). */
function timeOf(run: () => void): { ms: number; wallMs: number } {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    const before = process.cpuUsage();
    try {
      run();
    } catch {
      // an error is timed like a grammar
    }
    const used = process.cpuUsage(before);
    wall.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
  }
  return { ms: median(cpu), wallMs: median(wall) };
}

function onlyNull(grammar: Grammar): boolean {
  const random = seededRandom(1);
  for (let i = 0; i < 20; i++) if (sampleGbnf(grammar, random, { maxExtraRepeats: 2 }).trim() !== 'null') return false;
  return true;
}

function llamaRefuses(llama: Llama, gbnf: string): boolean {
  try {
    new LlamaGrammar(llama, { grammar: gbnf });
    return false;
  } catch {
    return true;
  }
}

/** Samples from a grammar; each is checked by `check` (its JSON text, trailing newlines removed). */
function sampleAndCheck(grammar: Grammar, check: (text: string) => boolean): { samples: number; invalid: number } {
  const random = seededRandom(25);
  let invalid = 0;
  for (let i = 0; i < SAMPLES; i++)
    if (!check(sampleGbnf(grammar, random, { maxExtraRepeats: 2 }).trimEnd())) invalid++;
  return { samples: SAMPLES, invalid };
}

function errorReason(error: unknown): string {
  if (error instanceof ConstraintError)
    return error.code === 'unsupported-keyword' || error.code === 'unsupported-format'
      ? `${error.code} ${error.keyword}`
      : error.code;
  return `internal: ${(error as Error).name}: ${(error as Error).message.slice(0, 60)}`;
}

function measureOurs(llama: Llama, entry: CorpusEntry): { outcome: Outcome; compiled?: CompiledJsonSchema } {
  const base = {
    name: entry.name,
    instances: entry.valid.length,
    grammarAccepted: 0,
    validatorAccepted: 0,
    validatorThrew: 0,
    samples: 0,
    samplesInvalid: 0,
  };
  let compiled: CompiledJsonSchema;
  try {
    compiled = compileJsonSchema(entry.schema);
  } catch (error) {
    const time = timeOf(() => compileJsonSchema(entry.schema));
    return {
      outcome: { ...base, ...time, error: errorReason(error), validatorCannotCheck: false, approximate: false },
    };
  }
  const outcome: Outcome = {
    ...base,
    ...timeOf(() => compileJsonSchema(entry.schema)),
    llamaRefused: llamaRefuses(llama, compiled.gbnf),
    onlyNull: onlyNull(compiled.grammar),
    validatorCannotCheck: false,
    approximate: compiled.approximations.length > 0,
  };
  const validate = (text: string): boolean => {
    try {
      const result = compiled.validate(text);
      if (!result.ok && /cannot be checked by the validator/.test(result.error.message))
        outcome.validatorCannotCheck = true;
      return result.ok;
    } catch {
      outcome.validatorThrew++;
      return false;
    }
  };
  for (const value of entry.valid) {
    if (textsOf(entry, value).some((text) => recognizeGbnf(compiled.grammar, text))) outcome.grammarAccepted++;
    if (validate(JSON.stringify(value))) outcome.validatorAccepted++;
  }
  const { samples, invalid } = sampleAndCheck(compiled.grammar, validate);
  outcome.samples = samples;
  outcome.samplesInvalid = invalid;
  return { outcome, compiled };
}

function measureTheirs(
  llama: Llama,
  entry: CorpusEntry,
  ours: CompiledJsonSchema | undefined,
  warnings: string[],
): Outcome {
  const base = {
    name: entry.name,
    instances: entry.valid.length,
    grammarAccepted: 0,
    validatorAccepted: 0,
    validatorThrew: 0,
    samples: 0,
    samplesInvalid: 0,
  };
  warnings.length = 0;
  let gbnf: string;
  try {
    gbnf = getGbnfGrammarForGbnfJsonSchema(structuredClone(entry.schema));
  } catch (error) {
    const time = timeOf(() => getGbnfGrammarForGbnfJsonSchema(entry.schema));
    const message = String((error as Error).message)
      .replace(/\{.*$/s, '{…}')
      .slice(0, 60);
    return { ...base, ...time, error: message, validatorCannotCheck: false, approximate: warnings.length > 0 };
  }
  const approximate = warnings.length > 0;
  const outcome: Outcome = {
    ...base,
    ...timeOf(() => getGbnfGrammarForGbnfJsonSchema(entry.schema)),
    llamaRefused: llamaRefuses(llama, gbnf),
    validatorCannotCheck: false,
    approximate,
  };
  let grammar: Grammar;
  try {
    grammar = parseGbnf(gbnf);
  } catch {
    return outcome; // counted as not served: its instances are not checked
  }
  outcome.onlyNull = onlyNull(grammar);
  for (const value of entry.valid) {
    // Its grammars end with four required newlines.
    if (textsOf(entry, value).some((text) => recognizeGbnf(grammar, text + '\n\n\n\n'))) outcome.grammarAccepted++;
    try {
      validateObjectAgainstGbnfSchema(value, entry.schema);
      outcome.validatorAccepted++;
    } catch (error) {
      // It reports an invalid value by throwing LlamaJsonSchemaValidationError; anything else is a failure of its own.
      if ((error as Error).constructor.name !== 'LlamaJsonSchemaValidationError') outcome.validatorThrew++;
    }
  }
  // Its samples are checked against the schema by svc's validator (ajv) where svc compiled the schema,
  // else by the reference ajv.
  const check = (text: string): boolean => {
    try {
      return ours ? ours.validate(text).ok : refereeAccepts(entry.schema, JSON.parse(text));
    } catch {
      return false;
    }
  };
  const { samples, invalid } = sampleAndCheck(grammar, check);
  outcome.samples = samples;
  outcome.samplesInvalid = invalid;
  return outcome;
}

/** Compiled, accepted by llama.cpp, every valid instance accepted by grammar and validator, every sampled output valid. */
const served = (o: Outcome): boolean =>
  o.error === undefined &&
  !o.llamaRefused &&
  o.grammarAccepted === o.instances &&
  o.validatorAccepted === o.instances &&
  o.validatorThrew === 0 &&
  !o.validatorCannotCheck &&
  o.samples > 0 &&
  o.samplesInvalid === 0;

// -- report ----------------------------------------------------------------------------------------

function reasons(outcomes: Outcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) if (o.error !== undefined) counts.set(o.error, (counts.get(o.error) ?? 0) + 1);
  if (counts.size === 0) return '—';
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${reason.replace(/\|/g, '\\|')}: ${n}`)
    .join('; ');
}

function times(outcomes: Outcome[], clock: 'ms' | 'wallMs'): string {
  const sorted = outcomes.map((o) => o[clock]).sort((a, b) => a - b);
  const slowest = outcomes.reduce((a, b) => (b[clock] > a[clock] ? b : a));
  const f = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(2) : ms.toFixed(0));
  const over = sorted.filter((ms) => ms > 1000).length;
  return `${f(percentile(sorted, 50))} / ${f(percentile(sorted, 99))} / ${f(sorted[sorted.length - 1])} ms (slowest: ${slowest.name.slice(0, 40)}; over 1 s: ${over})`;
}

function table(title: string, ours: Outcome[], theirs: Outcome[]): void {
  const n = ours.length;
  const sum = (list: Outcome[], f: (o: Outcome) => number) => list.reduce((a, o) => a + f(o), 0);
  const count = (list: Outcome[], f: (o: Outcome) => boolean) => list.filter(f).length;
  const compiled = (list: Outcome[]) => list.filter((o) => o.error === undefined);
  const instances = sum(ours, (o) => o.instances);
  const row = (label: string, f: (list: Outcome[]) => string) =>
    console.log(`| ${label} | ${f(ours)} | ${f(theirs)} |`);
  console.log(`### ${title}: ${n} schemas, ${instances} valid instances`);
  console.log('');
  console.log('| | svc (`src/grammar`) | node-llama-cpp converter |');
  console.log('|---|---|---|');
  row('compiled', (list) => `${compiled(list).length}/${n}`);
  row('errors by reason', reasons);
  row('grammar refused by llama.cpp', (list) => String(count(list, (o) => o.llamaRefused === true)));
  row('grammar only emits `null`', (list) => String(count(list, (o) => o.onlyNull === true)));
  row(
    'valid instances the grammar accepts',
    (list) => `${sum(list, (o) => o.grammarAccepted)}/${sum(compiled(list), (o) => o.instances)}`,
  );
  row(
    'valid instances the validator accepts',
    (list) => `${sum(list, (o) => o.validatorAccepted)}/${sum(compiled(list), (o) => o.instances)}`,
  );
  row(
    'validator failures: throws / cannot check the schema',
    (list) => `${sum(list, (o) => o.validatorThrew)} / ${count(list, (o) => o.validatorCannotCheck)}`,
  );
  row('schemas whose grammar over-approximates, the rest checked by the validator', (list) =>
    list === ours ? String(count(compiled(list), (o) => o.approximate)) : '— (none said)',
  );
  row('schemas the converter warned about', (list) =>
    list === ours ? '0' : String(count(list, (o) => o.approximate)),
  );
  row(
    'sampled outputs that violate the schema (schemas)',
    (list) =>
      `${sum(list, (o) => o.samplesInvalid)} of ${sum(list, (o) => o.samples)} (${count(list, (o) => o.samplesInvalid > 0)})`,
  );
  row('served end to end', (list) => `${count(list, served)}/${n}`);
  row('compile CPU time p50 / p99 / max', (list) => times(list, 'ms'));
  row('slowest three (CPU ms)', (list) =>
    [...list]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((o) => `${o.name.slice(0, 40)} ${o.ms.toFixed(1)}`)
      .join('; '),
  );
  row('compile wall time p50 / p99 / max', (list) => times(list, 'wallMs'));
  console.log('');
}

/**
 * Compile or refuse within 1 s, whatever the input (issue #36): svc's compile time over inputs that
 * are meant to be refused (test/grammar/hostile-inputs.ts's schemas) and, with BENCH_SCHEMA_DIR, over
 * every *.json schema in a directory (e.g. JSONSchemaBench's data/<dataset>, which is not copied here),
 * refusals included.
 */
function compileOrRefuse(): void {
  const sets: [string, { name: string; schema: unknown }[]][] = [
    [
      'hostile schemas (test/grammar/hostile-inputs.ts)',
      NAMED_CASES.flatMap((c) => {
        // Read once: the largest inputs are built when read.
        const input = c.input;
        return input.kind === 'schema' ? [{ name: c.name, schema: input.schema }] : [];
      }),
    ],
  ];
  const dir = process.env.BENCH_SCHEMA_DIR;
  if (dir) {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    // JSONSchemaBench's files hold {"schema": …, "tests": …}; a bare schema is taken as it is.
    const schemaOf = (json: { schema?: unknown }) =>
      typeof json === 'object' && json !== null && 'schema' in json && 'tests' in json ? json.schema : json;
    sets.push([
      `schemas in ${dir}`,
      files.map((f) => ({ name: f, schema: schemaOf(JSON.parse(readFileSync(join(dir, f), 'utf8'))) })),
    ]);
  }
  console.log('');
  console.log('compile or refuse (svc; CPU time per schema, median of rounds, refusals included):');
  for (const [title, entries] of sets) {
    const outcomes = new Map<string, number>();
    const ms: { name: string; ms: number; outcome: string }[] = [];
    for (const { name, schema } of entries) {
      let outcome = 'compiled';
      try {
        compileJsonSchema(schema);
      } catch (error) {
        outcome = errorReason(error);
      }
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      ms.push({ name, ms: timeOf(() => compileJsonSchema(schema)).ms, outcome });
    }
    const sorted = ms.map((m) => m.ms).sort((a, b) => a - b);
    const slowest = ms.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.log(
      `  ${title}: ${entries.length} schemas; p50 / p99 / max ${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 99).toFixed(1)} / ${slowest.ms.toFixed(0)} ms (slowest: ${slowest.name.slice(0, 50)}); over 1 s: ${sorted.filter((t) => t > 1000).length}`,
    );
    console.log(`    ${[...outcomes].map(([o, n]) => `${o}: ${n}`).join(', ')}`);
    // The worst cases (issue #48: compile or refuse within 1 s, size included).
    const worst = [...ms].sort((a, b) => b.ms - a.ms).slice(0, 8);
    console.log(
      `    worst: ${worst.map((w) => `${w.name.slice(0, 60)} ${w.ms.toFixed(0)} ms (${w.outcome})`).join('; ')}`,
    );
  }
}

async function main(): Promise<void> {
  const llama = await getLlama({ gpu: false, logLevel: LlamaLogLevel.disabled });
  const installed = await installedSchemas();
  const corpora: [string, CorpusEntry[]][] = [
    ['real-world-style corpus (test/grammar/real-world.ts)', REAL_WORLD],
    ['test corpus (test/grammar/corpus.ts)', CORPUS],
    ['installed real schemas (ESLint and typescript-eslint rule options, wrangler config)', installed],
  ];
  // node-llama-cpp warns (console.warn) on every keyword it ignores; collect them per schema.
  const warnings: string[] = [];
  const allWarnings = new Set<string>();
  const warn = console.warn;
  const all: [Outcome[], Outcome[]] = [[], []];
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  const tables: (() => void)[] = [];
  for (const [title, entries] of corpora) {
    const ours: Outcome[] = [];
    const theirs: Outcome[] = [];
    for (const entry of entries) {
      const { outcome, compiled } = measureOurs(llama, entry);
      ours.push(outcome);
      console.warn = (...args: unknown[]) => {
        const text = args.map(String).join(' ');
        warnings.push(text);
        allWarnings.add(text.replace(/\{.*$/s, '').slice(0, 120));
      };
      try {
        theirs.push(measureTheirs(llama, entry, compiled, warnings));
      } finally {
        console.warn = warn;
      }
    }
    all[0].push(...ours);
    all[1].push(...theirs);
    tables.push(() => table(title, ours, theirs));
  }
  console.log(
    `rounds per schema: ${ROUNDS} (median), samples per schema: ${SAMPLES}; load average at start ${load}, at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  console.log('');
  for (const print of tables) print();
  table('all corpora', all[0], all[1]);

  compileOrRefuse();

  const bundle = async (external: string[]) => {
    const result = await build({
      entryPoints: ['src/grammar/index.ts'],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2021',
      minify: true,
      write: false,
      external,
      logLevel: 'silent',
    });
    return result.outputFiles[0].contents.length;
  };
  const full = await bundle([]);
  const withoutAjv = await bundle(['ajv', 'ajv/*', 'ajv-formats', 'ajv-formats/*']);
  console.log(
    `plv8 bundle (esbuild --bundle --format=esm --platform=neutral --target=es2021 --minify): ${(full / 1024).toFixed(1)} KiB; without ajv/ajv-formats (the compiler alone): ${(withoutAjv / 1024).toFixed(1)} KiB`,
  );
  if (allWarnings.size && process.env.BENCH_VERBOSE) {
    console.log('');
    console.log(`node-llama-cpp warnings (${allWarnings.size} distinct):`);
    for (const w of allWarnings) console.log(`  ${w}`);
  }
  if (process.env.BENCH_VERBOSE) {
    console.log('');
    for (const [label, list] of [
      ['svc', all[0]],
      ['node-llama-cpp', all[1]],
    ] as const) {
      for (const o of list)
        if (!served(o))
          console.log(`${label} not served: ${o.name}: ${o.error ?? JSON.stringify({ ...o, name: undefined })}`);
    }
  }
  await llama.dispose();
}

await main();
