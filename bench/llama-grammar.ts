// What llama.cpp pays for the grammars svc gives it (issue #54): per case, the time llama.cpp takes
// to load the GBNF, and its grammar time per generated token (a constrained run of up to TOKENS
// tokens on a 151,936-token vocabulary, minus an unconstrained run of as many tokens, in CPU time,
// the median of BENCH_ROUNDS such pairs; llama.cpp
// applies the grammar to every candidate token, so its cost is the vocabulary times the parse
// stacks alive). The cases: the hostile shapes the issue names, and JSONSchemaBench's 20 schemas
// whose grammars keep the most parse stacks alive (svc's automaton, src/automaton/automaton.ts, counts
// llama.cpp's stacks) while their valid instances are read. Target: none over 50 ms a token.
//
// Each case runs in a process of its own, stopped after BENCH_CASE_SECONDS (a grammar that stalls
// llama.cpp shows as "over N s").
//
// Run: npx tsx bench/llama-grammar.ts   (BENCH_JSB_DIR=…/maskbench/data for the JSONSchemaBench
// cases, BENCH_TOKENS=12, BENCH_ROUNDS=3, BENCH_CASE_SECONDS=60, BENCH_MODEL=qwen2 or stories260K)
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cpus, tmpdir } from 'node:os';
import { getLlama, LlamaGrammar, LlamaGrammarEvaluationState, LlamaLogLevel } from 'node-llama-cpp';
import type { LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import { Automaton, AutomatonLimitError, DEAD } from '../src/automaton/automaton.js';
import { ConstraintError, compileJsonSchema, compileRegex } from '../src/grammar/index.js';
import { STORIES_MODEL, realVocabModel } from '../scripts/real-models.js';
import { load, median } from './stats.js';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 12);
const CASE_SECONDS = Number(process.env.BENCH_CASE_SECONDS ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PROMPT = 'Once upon a time, an answer:';

interface Case {
  name: string;
  gbnf: () => string;
}

const alternatives = (n: number) => '^(' + Array(n).fill('a').join('|') + ')*$';
const HOSTILE: Case[] = [
  { name: 'regex ^(a|a|…×2000)*$ (4 KB)', gbnf: () => compileRegex(alternatives(2000)).gbnf },
  { name: 'regex ^(a?×50){50}$ (nested optionals)', gbnf: () => compileRegex('^(' + 'a?'.repeat(50) + '){50}$').gbnf },
  { name: 'regex ^((a?){50}){50}$', gbnf: () => compileRegex('^((a?){50}){50}$').gbnf },
  { name: 'regex ^(a{0,400}){0,400}$ (400×400)', gbnf: () => compileRegex('^(a{0,400}){0,400}$').gbnf },
  {
    name: 'regex ^([a-z]{0,20}[a-z0-9]{0,20}){0,20}$',
    gbnf: () => compileRegex('^([a-z]{0,20}[a-z0-9]{0,20}){0,20}$').gbnf,
  },
  {
    name: 'schema pattern (\\S+\\s+){0,199}\\S+ with minLength',
    gbnf: () => compileJsonSchema({ type: 'string', pattern: '^(?:\\S+\\s+){0,199}\\S+$', minLength: 1 }).gbnf,
  },
  {
    name: 'schema anyOf of 200 objects with one shared key',
    gbnf: () =>
      compileJsonSchema({
        anyOf: Array.from({ length: 200 }, (_, i) => ({
          type: 'object',
          properties: { kind: { const: `k${i}` }, v: { type: 'integer' } },
          required: ['kind'],
        })),
      }).gbnf,
  },
];

/** The most parse stacks llama.cpp keeps alive at one character of the texts (svc's automaton counts them alike). */
function maxStacks(automaton: Automaton, texts: string[]): number {
  let most = 0;
  for (const text of texts) {
    let state = automaton.initial;
    most = Math.max(most, automaton.stacksOf(state).length);
    for (const ch of text) {
      state = automaton.step(state, automaton.classOf(ch.codePointAt(0)!));
      if (state === DEAD) break;
      most = Math.max(most, automaton.stacksOf(state).length);
    }
  }
  return most;
}

/** JSONSchemaBench's schemas whose grammars keep the most stacks alive over their valid instances. */
function schemaBenchCases(dir: string, count: number): Case[] {
  const scored: { name: string; stacks: number; gbnf: string }[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const json = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      schema: unknown;
      tests?: { valid: boolean; data: unknown }[];
    };
    const texts = (json.tests ?? []).filter((t) => t.valid).map((t) => JSON.stringify(t.data));
    try {
      const compiled = compileJsonSchema(json.schema);
      scored.push({
        name: file,
        stacks: maxStacks(new Automaton(compiled.grammar), texts.length ? texts : ['']),
        gbnf: compiled.gbnf,
      });
    } catch (error) {
      if (error instanceof AutomatonLimitError)
        scored.push({ name: file, stacks: Infinity, gbnf: compileJsonSchema(json.schema).gbnf });
      else if (!(error instanceof ConstraintError)) throw error;
    }
  }
  return scored
    .sort((a, b) => b.stacks - a.stacks)
    .slice(0, count)
    .map((s) => ({ name: `${s.name} (${s.stacks} stacks)`, gbnf: () => s.gbnf }));
}

/** A run of up to `tokens` tokens: its CPU time (this process's, llama.cpp's threads included) and tokens. */
async function timeRun(
  model: LlamaModel,
  sequence: LlamaContextSequence,
  grammar: LlamaGrammar | undefined,
  tokens: number,
): Promise<{ ms: number; tokens: number }> {
  await sequence.clearHistory();
  const prompt = model.tokenize(PROMPT);
  const state = grammar ? new LlamaGrammarEvaluationState({ model, grammar }) : undefined;
  let n = 0;
  // CPU time, not the wall clock: other work on a busy machine stretches the wall clock of a run
  // several times over (a grammar's 30 ms read 150 ms at load 9), not the CPU the run spends.
  const start = process.cpuUsage();
  for await (const token of sequence.evaluate(prompt, {
    temperature: 0,
    grammarEvaluationState: state,
    yieldEogToken: true,
  })) {
    n++;
    if (n >= tokens || model.isEogToken(token as Token)) break;
  }
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, tokens: n };
}

/** In a child process: load the model and the grammar, time the runs, print one JSON line. */
async function measure(gbnfFile: string): Promise<void> {
  const which = process.env.BENCH_MODEL ?? 'qwen2';
  const modelPath = which === 'stories260K' ? STORIES_MODEL : await realVocabModel('qwen2');
  const llama = await getLlama({ gpu: false, logLevel: LlamaLogLevel.disabled });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: 256, threads: 1 });
  const sequence = context.getSequence();
  const gbnf = readFileSync(gbnfFile, 'utf8');
  const loadStart = performance.now();
  const grammar = new LlamaGrammar(llama, { grammar: gbnf });
  const loadMs = performance.now() - loadStart;
  // Pairs of a constrained run and an unconstrained one of as many tokens; the median pair counts.
  const perTokens: number[] = [];
  let tokens = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const constrained = await timeRun(model, sequence, grammar, TOKENS);
    const plain = await timeRun(model, sequence, undefined, constrained.tokens);
    tokens = constrained.tokens;
    perTokens.push(Math.max(0, constrained.ms / constrained.tokens - plain.ms / plain.tokens));
  }
  console.log(JSON.stringify({ loadMs, tokens, perToken: median(perTokens) }));
  await llama.dispose();
}

function main(): void {
  const which = process.env.BENCH_MODEL ?? 'qwen2';
  const dir = process.env.BENCH_JSB_DIR;
  const cases = [...HOSTILE, ...(dir ? schemaBenchCases(dir, 20) : [])];
  console.log(
    `llama.cpp's grammar cost, ${which} vocabulary, 1 thread, up to ${TOKENS} tokens; ${cpus().length} CPUs, load ${load()}`,
  );
  console.log(
    '| case | svc compile | GBNF characters | llama.cpp load | tokens | grammar CPU ms/token (constrained - unconstrained) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  let worst = 0;
  const file = join(tmpdir(), `svc-llama-grammar-${process.pid}.gbnf`);
  for (const c of cases) {
    let gbnf: string;
    const compileStart = performance.now();
    try {
      gbnf = c.gbnf();
    } catch (error) {
      console.log(`| ${c.name} | refused: ${(error as Error).message.slice(0, 100)} | | | | |`);
      continue;
    }
    const compileMs = performance.now() - compileStart;
    writeFileSync(file, gbnf);
    const child = spawnSync(process.execPath, [...process.execArgv, resolve(process.argv[1]), '--measure', file], {
      encoding: 'utf8',
      timeout: CASE_SECONDS * 1000,
      env: process.env,
    });
    const line = child.stdout?.split('\n').find((l) => l.startsWith('{'));
    if (!line) {
      worst = Infinity;
      const why = child.error
        ? `over ${CASE_SECONDS} s`
        : `failed: ${(child.stderr ?? '').slice(-120).replace(/\s+/g, ' ')}`;
      console.log(`| ${c.name} | ${compileMs.toFixed(0)} ms | ${gbnf.length} | ${why} | | |`);
      continue;
    }
    const { loadMs, tokens, perToken } = JSON.parse(line) as { loadMs: number; tokens: number; perToken: number };
    worst = Math.max(worst, perToken);
    console.log(
      `| ${c.name} | ${compileMs.toFixed(0)} ms | ${gbnf.length} | ${loadMs.toFixed(0)} ms | ${tokens} | ${perToken.toFixed(2)} |`,
    );
  }
  console.log(`worst grammar time per token: ${worst.toFixed(2)} ms (target: at most 50); load at end ${load()}`);
}

const at = process.argv.indexOf('--measure');
if (at >= 0) await measure(process.argv[at + 1]);
else main();
