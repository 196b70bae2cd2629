// Compile-time benchmark over the test corpus, side by side with node-llama-cpp's own JSON Schema
// converter on the same schemas. Run: npx tsx bench/grammar.ts
import { getLlama, LlamaLogLevel } from 'node-llama-cpp';
import { build } from 'esbuild';
import { compileJsonSchema, parseGbnf, recognizeGbnf, sampleGbnf, seededRandom } from '../src/grammar/index.js';
import type { Grammar } from '../src/grammar/index.js';
import { CORPUS } from '../test/grammar/corpus.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function stats(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(3)} ms, p99 ${percentile(sorted, 99).toFixed(3)} ms, max ${sorted[sorted.length - 1].toFixed(3)} ms`;
}

/** True when every string the grammar produces is `null` (up to whitespace). */
function onlyNull(grammar: Grammar): boolean {
  const random = seededRandom(1);
  for (let i = 0; i < 30; i++) if (sampleGbnf(grammar, random).trim() !== 'null') return false;
  return true;
}

async function main(): Promise<void> {
  // -- ours ------------------------------------------------------------------------------------
  const ours: number[] = [];
  let oursAccepted = 0;
  let oursInstances = 0;
  let oursOnlyNull = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const entry of CORPUS) {
      const start = performance.now();
      compileJsonSchema(entry.schema);
      ours.push(performance.now() - start);
    }
  }
  for (const entry of CORPUS) {
    const { grammar } = compileJsonSchema(entry.schema);
    if (onlyNull(grammar) && JSON.stringify(entry.valid) !== '[null]') oursOnlyNull++;
    for (const value of entry.valid) {
      oursInstances++;
      if (recognizeGbnf(grammar, JSON.stringify(value))) oursAccepted++;
    }
  }

  // -- node-llama-cpp ----------------------------------------------------------------------------
  const llama = await getLlama({ gpu: false, logLevel: LlamaLogLevel.error });
  // node-llama-cpp warns (console.warn) on every keyword it ignores; collect them instead.
  const warnings = new Set<string>();
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.add(args.map(String).join(' '));
  const theirs: number[] = [];
  let theirsFailed = 0;
  let theirsOnlyNull = 0;
  let theirsAccepted = 0;
  let theirsUnparsable = 0;
  const failures: string[] = [];
  for (const entry of CORPUS) {
    let gbnf: string | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const start = performance.now();
      try {
        const grammar = await llama.createGrammarForJsonSchema(entry.schema as never);
        gbnf = grammar.grammar;
      } catch (error) {
        gbnf = undefined;
        if (round === 0) failures.push(`${entry.name}: ${String((error as Error).message).slice(0, 80)}`);
        break;
      } finally {
        theirs.push(performance.now() - start);
      }
    }
    if (gbnf === undefined) {
      theirsFailed++;
      continue;
    }
    let grammar: Grammar;
    try {
      grammar = parseGbnf(gbnf);
    } catch {
      theirsUnparsable++;
      continue;
    }
    if (onlyNull(grammar) && JSON.stringify(entry.valid) !== '[null]') theirsOnlyNull++;
    // Its grammars end with four required newlines; give it those.
    for (const value of entry.valid) {
      const text = JSON.stringify(value);
      if (recognizeGbnf(grammar, text) || recognizeGbnf(grammar, text + '\n\n\n\n')) theirsAccepted++;
    }
  }
  console.warn = warn;

  // -- bundle size ---------------------------------------------------------------------------------
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

  const n = CORPUS.length;
  console.log(`corpus: ${n} schemas, ${oursInstances} valid instances, ${ROUNDS} rounds`);
  console.log('');
  const row = (label: string, a: string, b: string) => console.log(`| ${label} | ${a} | ${b} |`);
  console.log('| | svc (src/grammar) | node-llama-cpp createGrammarForJsonSchema |');
  console.log('|---|---|---|');
  row('compile time', stats(ours), stats(theirs));
  row('compiled to a grammar', `${n}/${n}`, `${n - theirsFailed}/${n} (threw on ${theirsFailed})`);
  row('grammar only emits null', String(oursOnlyNull), String(theirsOnlyNull));
  row(
    'accepts the valid instances',
    `${oursAccepted}/${oursInstances}`,
    `${theirsAccepted}/${oursInstances}${theirsUnparsable ? ` (${theirsUnparsable} grammars not parsed)` : ''}`,
  );
  console.log('');
  console.log(
    `plv8 bundle (esbuild --bundle --format=esm --platform=neutral --target=es2021 --minify): ${(full / 1024).toFixed(1)} KiB; without ajv/ajv-formats (the compiler alone): ${(withoutAjv / 1024).toFixed(1)} KiB`,
  );
  if (warnings.size) {
    console.log('');
    console.log(`node-llama-cpp warnings (${warnings.size} distinct):`);
    for (const w of warnings) console.log(`  ${w.slice(0, 140)}`);
  }
  if (failures.length) {
    console.log('');
    console.log('node-llama-cpp failures:');
    for (const f of failures) console.log(`  ${f}`);
  }
  await llama.dispose();
}

await main();
