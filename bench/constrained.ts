// Constrained decoding next to unconstrained, per model and per constraint kind (issue #23):
// ms/token and the ratio (p50/p95 over the cases), the share of steps that needed a full mask, the
// time of a mask (p50/p99 over every full mask, and over the masks computed rather than taken from
// the cache), the time to the first token under a grammar never seen before (compile + the masker's
// setup + llama.cpp's parse of the GBNF + the first token), and the first request's ratio over all
// cases with the grammar setup's time, against issue #36's targets.
//
//   npx tsx bench/constrained.ts
//   BENCH_MODELS=qwen2-512,qwen2,phi3,stories260K   which models (default all four)
//   BENCH_TOKENS=48                       tokens per constrained run at most
//   BENCH_SCHEMAS=132                     how many schemas of the corpus (spread over it; default all)
//   BENCH_CASES=N                         at most N cases of each kind (schemas, regexes, choices; default all)
//   BENCH_REPEAT=3                        pairs per run (the median pair counts)
//   BENCH_XGRAMMAR=0                      leave out XGrammar (@mlc-ai/web-xgrammar, WebAssembly) beside svc's masker
//   BENCH_SHORT_ROUNDS=7                  rounds of the short outputs' first requests (issue #48; 0 leaves them out)
//   BENCH_SHORT_TOKENS=30                 the short outputs' max_tokens
//
// Three runs per case and model, each paired with an unconstrained run: 'every-step' (a full mask
// at every step, the worst case) as the first request under the grammar, so every mask met is
// computed then (each pair under another spelling of the grammar, so a masker of its own); 'every-step'
// again (the masks and their configured samplers cached); and 'fast' (the model's own choice first, a
// full mask only where the grammar refuses it) after those.
//
// Models: random-weight models carrying llama.cpp's real qwen2 (byte-level BPE, 151,936 tokens) and
// phi-3 (SentencePiece, 32,064) vocabularies (scripts/real-models.ts, 64 wide, 2 layers: a random
// model leaves the fast path at nearly every step, and its per-token cost is mostly the
// vocabulary), and the trained stories260K (SentencePiece, 512). One thread, CPU.
//
// Short outputs (issue #48): six object and regex constraints whose outputs take 10-30 tokens, each
// round a first request under a new grammar (another spelling, so a masker of its own, nothing
// cached) in the default 'fast' mode, timed whole (engine.generate: the masker's setup, every mask),
// next to an unconstrained request of as many sampled tokens; rounds interleave the cases, and the
// ratio is the median round's, beside the ratio of the CPU time both spent (the process's, llama.cpp's
// threads included), which other work on a shared machine stretches less than the wall clock.
//
// Each constrained run is followed at once by an unconstrained run of the same prompt and as many
// sampled tokens (forward passes): the constrained run's steps, its end-of-generation token
// included where it sampled one (an output that ends where the grammar allows nothing more takes no
// step for it; one closed with the grammar's shortest completion takes none for the completion).
// "ms/token" is per sampled token, and the ratio is that pair's; so load that drifts over the bench
// cancels.
import { loadavg } from 'node:os';
import type { Token } from 'node-llama-cpp';
import { Engine, llamaFor } from '../src/engine/engine.js';
import type { MaskMode } from '../src/engine/constrained.js';
import { compileChoices, compileJsonSchema, compileRegex } from '../src/grammar/index.js';
import { STORIES_MODEL, realVocabModel } from '../scripts/real-models.js';
import { CORPUS } from '../test/grammar/corpus.js';
import { CHOICES, REGEXES } from '../test/grammar/samples.js';
import { XgrammarPeer, type PeerCase } from './xgrammar-peer.js';
import { load } from './stats.js';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 48);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const THREADS = 1;
const CONTEXT = 256;
const PROMPT = 'Once upon a time, a JSON answer:';
/** The runs per case, in order: a label and the mask mode. */
const RUNS: Array<[string, MaskMode]> = [
  ['every-step, first request', 'every-step'],
  ['every-step, repeated', 'every-step'],
  ['fast, repeated', 'fast'],
];

const MODELS: Record<string, { label: string; path: () => Promise<string> }> = {
  qwen2: { label: 'qwen2 vocabulary (byte-level BPE 151,936, random weights)', path: () => realVocabModel('qwen2') },
  'qwen2-512': {
    label: 'qwen2 vocabulary at a realistic width (512 wide, 4 layers, random weights)',
    path: () => realVocabModel('qwen2-512'),
  },
  phi3: { label: 'phi-3 vocabulary (SentencePiece 32,064, random weights)', path: () => realVocabModel('phi3') },
  stories260K: { label: 'stories260K (trained, SentencePiece 512)', path: async () => STORIES_MODEL },
};
const chosen = (process.env.BENCH_MODELS?.split(',') ?? Object.keys(MODELS)).map((name) => {
  if (!MODELS[name]) throw new Error(`unknown model ${name}; one of ${Object.keys(MODELS).join(', ')}`);
  return name;
});

type Kind = 'schema' | 'regex' | 'choices';
interface Case {
  kind: Kind;
  name: string;
  compile: () => string;
}
/** At most `count` entries of a list, spread evenly over it. */
function spread<T>(list: readonly T[], count: number): T[] {
  const step = list.length / Math.max(1, Math.min(count, list.length));
  return list.filter((_, i) => Math.floor(i / step) !== Math.floor((i - 1) / step) || i === 0);
}
const perKind = Number(process.env.BENCH_CASES ?? Infinity);
const schemas = spread(CORPUS, Math.min(perKind, Number(process.env.BENCH_SCHEMAS ?? CORPUS.length)));
const CASES: Case[] = [
  ...schemas.map((e) => ({ kind: 'schema' as const, name: e.name, compile: () => compileJsonSchema(e.schema).gbnf })),
  ...spread(REGEXES, perKind).map((r) => ({
    kind: 'regex' as const,
    name: r.pattern,
    compile: () => compileRegex(r.pattern, r.flags).gbnf,
  })),
  ...spread(CHOICES, perKind).map((c) => ({
    kind: 'choices' as const,
    name: JSON.stringify(c),
    compile: () => compileChoices(c).gbnf,
  })),
];
const KINDS: Kind[] = ['schema', 'regex', 'choices'];
/** Grammars run before the cases, not measured (none of the corpus). */
const WARMUP = [
  () =>
    compileJsonSchema({
      type: 'object',
      properties: {
        title: { type: 'string', maxLength: 60 },
        tags: { type: 'array', items: { type: 'string' } },
        year: { type: 'integer' },
      },
      required: ['title', 'tags', 'year'],
    }).gbnf,
  () => compileRegex('[a-z]+(\\.[a-z]+)*@[a-z]+\\.(com|org|net)').gbnf,
];

/** Short outputs of objects and regexes (issue #48: a first request's fixed costs weigh most there). */
const SHORT: Array<[string, () => string]> = [
  [
    'object {name, age}',
    () =>
      compileJsonSchema({
        type: 'object',
        properties: { name: { type: 'string', maxLength: 12 }, age: { type: 'integer', minimum: 0, maximum: 120 } },
        required: ['name', 'age'],
      }).gbnf,
  ],
  [
    'object {ok, tags}',
    () =>
      compileJsonSchema({
        type: 'object',
        properties: {
          ok: { type: 'boolean' },
          tags: { type: 'array', items: { type: 'string', maxLength: 6 }, maxItems: 3 },
        },
        required: ['ok', 'tags'],
      }).gbnf,
  ],
  [
    'object {color, day}',
    () =>
      compileJsonSchema({
        type: 'object',
        properties: { color: { enum: ['red', 'green', 'blue'] }, day: { type: 'string', format: 'date' } },
        required: ['color', 'day'],
      }).gbnf,
  ],
  ['regex phone', () => compileRegex('\\(\\d{3}\\) \\d{3}-\\d{4}').gbnf],
  ['regex email', () => compileRegex('[a-z]{3,10}@[a-z]{3,8}\\.(com|org|net)').gbnf],
  ['regex words', () => compileRegex('[A-Z][a-z]{2,8}( [a-z]{2,8}){2,4}\\.').gbnf],
];
const SHORT_ROUNDS = Number(process.env.BENCH_SHORT_ROUNDS ?? 7);
/** The short outputs' budget: 10-30 tokens on qwen2's vocabulary; a character-level vocabulary (stories260K) needs more. */
const SHORT_TOKENS = Number(process.env.BENCH_SHORT_TOKENS ?? 30);

/** First requests of short outputs next to unconstrained ones: per case and over all, the median round's wall-clock ratio and the CPU-time ratio. */
async function shortOutputs(engine: Engine): Promise<string[]> {
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const perCase = SHORT.map(() => ({
    wall: [] as number[],
    cpu: [] as number[],
    tokens: 0,
    constrained: 0,
    unconstrained: 0,
    cpuC: 0,
    cpuU: 0,
  }));
  const loadBefore = load();
  for (let round = 0; round < SHORT_ROUNDS; round++) {
    for (const [i, [, make]] of SHORT.entries()) {
      // Another spelling each round: a grammar never seen before, so a masker of its own.
      const grammar = `${make()}${'\n'.repeat(round + 1)}`;
      const x = perCase[i];
      let t = process.hrtime.bigint();
      let c = cpu();
      const out = await engine.generate({ prompt: PROMPT, maxTokens: SHORT_TOKENS, seed: 42, grammar });
      const cWall = ms(t);
      const cCpu = cpu() - c;
      const steps = Math.max(1, out.constrained?.steps ?? out.tokens);
      t = process.hrtime.bigint();
      c = cpu();
      await engine.generate({ prompt: PROMPT, maxTokens: steps, seed: 42 });
      const uWall = ms(t);
      const uCpu = cpu() - c;
      x.wall.push(cWall / uWall);
      x.cpu.push(cCpu / uCpu);
      x.tokens = out.tokens;
      x.constrained += cWall;
      x.unconstrained += uWall;
      x.cpuC += cCpu;
      x.cpuU += uCpu;
    }
  }
  const sum = (f: (x: (typeof perCase)[number]) => number) => perCase.reduce((a, x) => a + f(x), 0);
  return [
    `**Short outputs, first request under a new grammar** ('fast', the default; target: at most 1.15x unconstrained), ${SHORT_ROUNDS} rounds interleaved, ` +
      `load average before ${loadBefore}, after ${load()}: ` +
      `${f(sum((x) => x.constrained) / sum((x) => x.unconstrained))}x wall clock over all rounds (${f(sum((x) => x.cpuC) / sum((x) => x.cpuU))}x CPU time).`,
    '',
    '| case | output tokens | ratio p50 (wall) | ratio over its rounds (wall) | CPU-time ratio | constrained ms p50 |',
    '|---|---:|---:|---:|---:|---:|',
    ...SHORT.map(([name], i) => {
      const x = perCase[i];
      return `| ${name} | ${x.tokens} | ${f(quantile(x.wall, 0.5))} | ${f(x.constrained / x.unconstrained)} | ${f(x.cpuC / x.cpuU)} | ${f(x.constrained / SHORT_ROUNDS)} |`;
    }),
    '',
  ];
}

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const ms = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e6;
const f = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

interface ModeFigures {
  unconstrained: number[]; // ms/token
  constrained: number[]; // ms/token
  ratio: number[];
  steps: number;
  masked: number;
  direct: number;
  masks: number[]; // every full mask, ms
  computed: number[]; // masks computed (not cached), at the step or ahead, ms
  ahead: number; // of those, computed ahead (while llama.cpp evaluated)
  completed: number;
  failed: string[];
}
interface FirstToken {
  compile: number[];
  masker: number[];
  parse: number[];
  total: number[];
}

async function benchModel(name: string): Promise<string[]> {
  const path = await MODELS[name].path();
  let t = process.hrtime.bigint();
  // Per model, once, at load: the model, and the vocabulary decoded and put in a trie for the maskers.
  const engine = await Engine.load({ model: path, threads: THREADS, contextSize: CONTEXT });
  const loadMs = ms(t);
  const lines: string[] = [];
  try {
    t = process.hrtime.bigint();
    // The vocabulary's trie, shared by every grammar's masker (absent where the bytes are not modelled).
    const trieNodes = engine.masker('root ::= "x"')?.nodes ?? 0;
    const firstSetupMs = ms(t);
    const peer = process.env.BENCH_XGRAMMAR === '0' ? undefined : await xgrammarFor(engine);
    const peerCases: Record<Kind, { ours: number[]; setup: number[]; theirs: PeerCase[] }> = {
      schema: { ours: [], setup: [], theirs: [] },
      regex: { ours: [], setup: [], theirs: [] },
      choices: { ours: [], setup: [], theirs: [] },
    };
    // Unconstrained first token (prompt evaluation + one token), for comparison.
    const plainFirst: number[] = [];
    for (let i = 0; i < 5; i++) {
      t = process.hrtime.bigint();
      await engine.generate({ prompt: PROMPT, maxTokens: 1, seed: 42 });
      plainFirst.push(ms(t));
    }

    // JIT warm-up, not measured: the masker's code runs optimised from the first case on, as in a
    // worker that has served a few requests.
    for (const gbnf of WARMUP)
      await engine.generate({ prompt: PROMPT, maxTokens: 96, seed: 42, grammar: gbnf(), maskMode: 'every-step' });
    const short = SHORT_ROUNDS > 0 ? await shortOutputs(engine) : [];

    const first: Record<Kind, FirstToken> = {
      schema: { compile: [], masker: [], parse: [], total: [] },
      regex: { compile: [], masker: [], parse: [], total: [] },
      choices: { compile: [], masker: [], parse: [], total: [] },
    };
    const figures = new Map<string, ModeFigures>();
    const fig = (kind: Kind, run: string) => {
      const key = `${kind}/${run}`;
      let x = figures.get(key);
      if (!x)
        figures.set(
          key,
          (x = {
            unconstrained: [],
            constrained: [],
            ratio: [],
            steps: 0,
            masked: 0,
            direct: 0,
            masks: [],
            computed: [],
            ahead: 0,
            completed: 0,
            failed: [],
          }),
        );
      return x;
    };
    /** The first tokens under a grammar whose masker is built: its shortest output, at least one token ('fast'). */
    const firstTokens = (grammar: string, masker: ReturnType<Engine['masker']>) =>
      engine.generate({
        prompt: PROMPT,
        maxTokens: Math.max(1, masker?.completion(masker.initial)?.length ?? 1),
        seed: 42,
        grammar,
        maskMode: 'fast',
      });
    /** Computed masks: time and case, for the slowest. */
    const slowest: Array<[number, string]> = [];
    /** First-request ratios and their cases, for the highest. */
    const firstRatios: Array<[number, string]> = [];
    /** First requests: constrained and unconstrained time over all their tokens, for the ratio over all cases. */
    const firstTotals = { constrained: 0, unconstrained: 0 };
    for (const c of CASES) {
      // First token under a new grammar: compile, the masker, llama.cpp's parse, one token.
      const start = process.hrtime.bigint();
      const gbnf = c.compile();
      const compiled = ms(start);
      t = process.hrtime.bigint();
      const masker = engine.masker(gbnf);
      const maskerMs = ms(t);
      t = process.hrtime.bigint();
      engine.grammar(gbnf);
      const parseMs = ms(t);
      try {
        await firstTokens(gbnf, masker);
      } catch (error) {
        fig(c.kind, RUNS[0][0]).failed.push(`${c.name}: ${(error as Error).message}`);
        continue;
      }
      const total = ms(start);
      const ft = first[c.kind];
      ft.compile.push(compiled);
      ft.masker.push(maskerMs);
      ft.parse.push(parseMs);
      ft.total.push(total);
      /** The first request's tokens, for XGrammar to follow. */
      let firstTokensOut: readonly number[] = [];
      for (const [run, mode] of RUNS) {
        const x = fig(c.kind, run);
        let cachedBefore = masker?.cachedMasks ?? 0;
        const onMask = (time: number, direct: boolean) => {
          x.masked++;
          if (direct) x.direct++;
          x.masks.push(time);
          const now = masker?.cachedMasks ?? 0;
          if (now !== cachedBefore) {
            x.computed.push(time);
            slowest.push([time, `${c.kind} ${c.name}`]);
          }
          cachedBefore = now;
        };
        const onMaskAhead = (time: number) => {
          x.computed.push(time);
          x.ahead++;
          slowest.push([time, `${c.kind} ${c.name}`]);
          cachedBefore = masker?.cachedMasks ?? 0;
        };
        const constrainedWith = async (grammar: string, observe: typeof onMask, observeAhead: typeof onMaskAhead) => {
          const t0 = process.hrtime.bigint();
          const out = await engine.generate({
            prompt: PROMPT,
            maxTokens: TOKENS,
            seed: 42,
            grammar,
            maskMode: mode,
            onMask: observe,
            onMaskAhead: observeAhead,
          });
          return { out, time: ms(t0) };
        };
        const plain = async (tokens: number) => {
          const t0 = process.hrtime.bigint();
          const out = await engine.generate({ prompt: PROMPT, maxTokens: tokens, seed: 42 });
          return { tokens: out.tokens, time: ms(t0) };
        };
        // Each run is measured REPEAT times (its figures the median pair), the steps and masks
        // counted once. A first request again is one under another spelling of the grammar (a
        // masker of its own, nothing cached), after its trie and first token as above, untimed.
        const pairs: Array<[number, number]> = [];
        let recording = true;
        const countOnce = (time: number, direct: boolean) => {
          if (recording) onMask(time, direct);
        };
        const countOnceAhead = (time: number) => {
          if (recording) onMaskAhead(time);
        };
        const stepsBefore = x.steps;
        const computedBefore = x.computed.length;
        try {
          for (let rep = 0; rep < REPEAT; rep++) {
            let grammar = gbnf;
            if (run === RUNS[0][0] && rep > 0) {
              grammar = `${gbnf}${'\n'.repeat(rep)}`;
              await firstTokens(grammar, engine.masker(grammar));
            }
            const a = await constrainedWith(grammar, countOnce, countOnceAhead);
            if (run === RUNS[0][0] && rep === 0) firstTokensOut = a.out.constrained?.tokens ?? [];
            const steps = a.out.constrained?.steps ?? a.out.tokens;
            const b = await plain(Math.max(1, steps));
            if (recording) {
              x.steps += steps;
              if (a.out.constrained?.completed) x.completed++;
            }
            recording = false;
            if (steps > 0) pairs.push([a.time / steps, b.time / b.tokens]);
          }
        } catch (error) {
          x.failed.push(`${c.name}: ${(error as Error).message}`);
          continue;
        }
        if (pairs.length === 0) continue;
        const [cTok, uTok] = pairs.sort((p, q) => p[0] / p[1] - q[0] / q[1])[Math.floor(pairs.length / 2)];
        x.constrained.push(cTok);
        x.unconstrained.push(uTok);
        x.ratio.push(cTok / uTok);
        if (run === RUNS[0][0]) {
          if (peer && firstTokensOut.length > 0) {
            const pc = peerCases[c.kind];
            pc.ours.push(...x.computed.slice(computedBefore));
            pc.setup.push(maskerMs);
            pc.theirs.push(await peer.run(gbnf, firstTokensOut));
          }
          firstRatios.push([cTok / uTok, `${c.kind} ${c.name}, ${x.steps - stepsBefore} steps`]);
          firstTotals.constrained += cTok * (x.steps - stepsBefore);
          firstTotals.unconstrained += uTok * (x.steps - stepsBefore);
        }
      }
    }

    lines.push(`### ${MODELS[name].label}`, '', ...short);
    const setups = KINDS.flatMap((kind) => first[kind].masker);
    const allFirst = firstRatios.map(([ratio]) => ratio);
    lines.push(
      `Engine load (the model, and the vocabulary decoded and put in one trie for every grammar's masker): ${f(loadMs, 0)} ms; ` +
        `the first grammar's setup after it: ${f(firstSetupMs)} ms. Trie: ${trieNodes} nodes. ` +
        `Unconstrained first token (prompt + 1 token): ${f(quantile(plainFirst, 0.5))} ms p50.`,
      '',
      `**First request under a new grammar** (target: at most 1.15x unconstrained, grammar setup at most 20 ms at 152k tokens): ` +
        `${f(firstTotals.constrained / Math.max(1e-9, firstTotals.unconstrained))}x over all ${allFirst.length} cases' tokens, ` +
        `${f(quantile(allFirst, 0.5))}x p50, ${f(quantile(allFirst, 0.95))}x p95; grammar setup (the masker) ${f(quantile(setups, 0.5))} ms p50, ${f(Math.max(...setups))} ms max.`,
      '',
    );
    lines.push(
      '| kind | run | cases | unconstrained ms/token p50 | constrained ms/token p50 | ratio p50 | ratio p95 | steps under a full mask | mask ms p50 / p99 | computed masks | computed mask ms p50 / p99 | closed to fit max_tokens |',
    );
    lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const kind of KINDS) {
      for (const [run] of RUNS) {
        const x = figures.get(`${kind}/${run}`);
        if (!x) continue;
        lines.push(
          `| ${kind} | ${run} | ${x.ratio.length} | ${f(quantile(x.unconstrained, 0.5))} | ${f(quantile(x.constrained, 0.5))} | ${f(quantile(x.ratio, 0.5))} | ${f(quantile(x.ratio, 0.95))} ` +
            `| ${f((100 * x.masked) / Math.max(1, x.steps), 0)}% of ${x.steps}${x.direct ? ` (${f((100 * x.direct) / Math.max(1, x.steps), 0)}% direct)` : ''} | ${f(quantile(x.masks, 0.5), 3)} / ${f(quantile(x.masks, 0.99), 3)} ` +
            `| ${x.computed.length}${x.ahead ? ` (${x.ahead} ahead)` : ''} | ${f(quantile(x.computed, 0.5), 3)} / ${f(quantile(x.computed, 0.99), 3)} | ${x.completed} |`,
        );
      }
    }
    lines.push('');
    lines.push(
      '| kind | compile ms p50 / p95 | grammar setup (masker) ms p50 / p95 | llama.cpp parse ms p50 / p95 | first token under a new grammar ms p50 / p95 |',
    );
    lines.push('|---|---:|---:|---:|---:|');
    for (const kind of KINDS) {
      const ft = first[kind];
      const pp = (xs: number[]) => `${f(quantile(xs, 0.5))} / ${f(quantile(xs, 0.95))}`;
      lines.push(`| ${kind} | ${pp(ft.compile)} | ${pp(ft.masker)} | ${pp(ft.parse)} | ${pp(ft.total)} |`);
    }
    if (peer) {
      lines.push('');
      lines.push(
        `XGrammar (@mlc-ai/web-xgrammar, WebAssembly) on the same vocabulary, following each first request's tokens: its tokenizer info and compiler ${f(peer.setupMs, 0)} ms once; ` +
          'svc computes a mask the first time a parse state is met (cached after), XGrammar at every step.',
        '',
        '| kind | cases (XGrammar refused) | svc grammar setup ms p50 / max | XGrammar grammar compile ms p50 / max | svc computed mask ms p50 / p99 | XGrammar mask ms p50 / p99 |',
        '|---|---:|---:|---:|---:|---:|',
      );
      for (const kind of KINDS) {
        const pc = peerCases[kind];
        const compiled = pc.theirs.filter((t) => t.compileMs !== undefined);
        const theirMasks = compiled.flatMap((t) => t.masks);
        const compileTimes = compiled.map((t) => t.compileMs!);
        lines.push(
          `| ${kind} | ${pc.theirs.length} (${pc.theirs.length - compiled.length}) | ${f(quantile(pc.setup, 0.5))} / ${f(Math.max(...pc.setup))} | ` +
            `${f(quantile(compileTimes, 0.5))} / ${f(Math.max(...compileTimes))} | ${f(quantile(pc.ours, 0.5), 3)} / ${f(quantile(pc.ours, 0.99), 3)} | ` +
            `${f(quantile(theirMasks, 0.5), 3)} / ${f(quantile(theirMasks, 0.99), 3)} |`,
        );
      }
      const refused = KINDS.flatMap((kind) =>
        peerCases[kind].theirs.filter((t) => t.error !== undefined).map((t) => t.error!),
      );
      if (refused.length) lines.push('', `XGrammar refused: ${[...new Set(refused)].slice(0, 5).join('; ')}.`);
      peer.dispose();
    }
    const top = slowest.sort((a, b) => b[0] - a[0]).slice(0, 6);
    lines.push('', `Slowest computed masks: ${top.map(([ms, name]) => `${f(ms, 1)} ms (${name})`).join(', ')}.`);
    const highest = firstRatios.sort((a, b) => b[0] - a[0]).slice(0, 6);
    lines.push(
      '',
      `Highest ratios of a first request: ${highest.map(([ratio, name]) => `${f(ratio)} (${name})`).join(', ')}.`,
    );
    const failures = [...figures.values()].flatMap((x) => x.failed);
    if (failures.length)
      lines.push(
        '',
        `Not run (a budget below the shortest output is refused at once) or failed: ${failures.join('; ')}`,
      );
    lines.push('');
  } finally {
    await engine.dispose();
  }
  return lines;
}

/** XGrammar on the engine's vocabulary, or undefined where it cannot take it (a vocabulary type it does not read). */
async function xgrammarFor(engine: Engine): Promise<XgrammarPeer | undefined> {
  const model = engine.model;
  const tokens = (model.fileInfo.metadata as { tokenizer?: { ggml?: { tokens?: readonly string[] } } }).tokenizer?.ggml
    ?.tokens;
  if (!tokens || !['bpe', 'spm'].includes(model.vocabularyType)) return undefined;
  const stop = [...tokens.keys()].filter((t) => model.isEogToken(t as Token));
  try {
    return await XgrammarPeer.create(tokens, model.vocabularyType === 'bpe' ? 'byte_level' : 'byte_fallback', stop);
  } catch (error) {
    console.warn(`XGrammar not run: ${(error as Error).message}`);
    return undefined;
  }
}

await llamaFor(false);
const before = loadavg();
const started = Date.now();
const out: string[] = [];
for (const name of chosen) {
  const lines = await benchModel(name);
  for (const line of lines) console.log(line);
  out.push(...lines);
}
const after = loadavg();
console.log(
  `${THREADS} thread, CPU, context ${CONTEXT}, up to ${TOKENS} tokens per constrained run, ${KINDS.map((kind) => `${CASES.filter((c) => c.kind === kind).length} ${kind}`).join(' + ')} cases; ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s; load average (1/5/15 min): before ${before.map((x) => x.toFixed(2)).join(' ')}, after ${after.map((x) => x.toFixed(2)).join(' ')}`,
);
