// Constrained decoding with svc's own token masks (src/decode, src/engine/constrained.ts) on real
// vocabularies (issue #23): random-weight models carrying llama.cpp's qwen2 (byte-level BPE,
// 151,936 tokens) and phi-3 (SentencePiece, 32,064) vocabularies, and the trained stories260K.
// - Same bytes: greedy decoding with mode 'fast' (the model's own choice first, cached masks and
//   pooled samplers) and 'every-step' gives exactly the output of 'reference' (every token of the
//   vocabulary checked alone at every step, no trie, no cache), over schemas, regexes and choices.
// - Sound: every output token is one llama.cpp's own grammar sampler allows at that point (checked
//   through node-llama-cpp's grammar evaluation state, an implementation independent of ours), and
//   the text is accepted by the grammar and valid for its constraint; at points where the real
//   tokenizer glues a grammar boundary into one token (`",`, `"}`, `":"`) or stops inside a
//   character, the mask is exactly llama.cpp's allowed set less what svc bans on purpose.
// - Complete within max_tokens: a JSON schema with free-text strings gives valid JSON at small
//   max_tokens, deterministically; a budget below the shortest output fails at once, naming it.
import { LlamaGrammarEvaluationState, type Token } from 'node-llama-cpp';
import { Engine } from '../../src/engine/engine.js';
import { ConstraintBudgetError, type MaskMode } from '../../src/engine/constrained.js';
import type { Position, TokenMasker } from '../../src/decode/mask.js';
import { compileChoices, compileJsonSchema, compileRegex, parseGbnf, recognizeGbnf } from '../../src/grammar/index.js';
import { STORIES_MODEL, realVocabModel } from '../helpers/real-models.js';
import { CORPUS } from '../grammar/corpus.js';
import { CHOICES, REGEXES } from '../grammar/samples.js';

interface Case {
  name: string;
  gbnf: string;
  /** Whether a complete output is valid for the constraint (its own validator, not the grammar). */
  valid: (text: string) => boolean;
}

const schema = (name: string): Case => {
  const entry = CORPUS.find((e) => e.name === name);
  if (!entry) throw new Error(`no corpus schema ${name}`);
  const compiled = compileJsonSchema(entry.schema);
  return { name: `schema ${name}`, gbnf: compiled.gbnf, valid: (text) => compiled.validate(text).ok };
};
const regex = (pattern: string): Case => {
  const entry = REGEXES.find((r) => r.pattern === pattern);
  if (!entry) throw new Error(`no sample regex ${pattern}`);
  const full = new RegExp(`^(?:${pattern})$`, `${entry.flags ?? ''}u`);
  return { name: `regex ${pattern}`, gbnf: compileRegex(pattern, entry.flags).gbnf, valid: (text) => full.test(text) };
};
const choices = (index: number): Case => {
  const list = CHOICES[index];
  return {
    name: `choices ${JSON.stringify(list)}`,
    gbnf: compileChoices(list).gbnf,
    valid: (text) => list.includes(text),
  };
};

// All three kinds on each model: strings (where `",` and `"}` cross boundaries), nested objects and
// arrays, numbers, escapes, non-ASCII text (partial UTF-8 pieces on the byte-level vocabulary).
const CASES: Case[] = [
  schema('properties required'),
  schema('nested objects'),
  schema('array of objects'),
  schema('enum escapes'),
  schema('pattern unicode'),
  schema('type number'),
  schema('oneOf discriminated union'),
  schema('additionalProperties schema'),
  regex('\\w+@\\w+\\.com'),
  regex('[\\u4e00-\\u9fff]{1,8}'),
  regex('-?(0|[1-9]\\d*)(\\.\\d+)?'),
  regex('"[^"\\\\]*"'),
  regex('é+'),
  choices(2),
  choices(4),
];

// qwen2's 151,936 tokens make the reference (every token checked alone at every step) the
// slowest: a subset there, still of all three kinds.
const QWEN2_CASES = new Set([
  'schema properties required',
  'schema array of objects',
  'schema enum escapes',
  'schema pattern unicode',
  'regex [\\u4e00-\\u9fff]{1,8}',
  'regex "[^"\\\\]*"',
  'regex é+',
  `choices ${JSON.stringify(CHOICES[2])}`,
]);

if (CASES.filter((c) => QWEN2_CASES.has(c.name)).length !== QWEN2_CASES.size)
  throw new Error('a qwen2 case names no case');

/** Per model: its cases, and max_tokens (the small vocabulary spells JSON in more tokens). */
const MODELS: Array<[string, () => Promise<string>, Case[], number]> = [
  ['qwen2 vocabulary', () => realVocabModel('qwen2'), CASES.filter((c) => QWEN2_CASES.has(c.name)), 12],
  ['phi-3 vocabulary', () => realVocabModel('phi3'), CASES, 16],
  ['stories260K', async () => STORIES_MODEL, CASES, 48],
];

const PROMPT = 'Once upon a time';

/** llama.cpp's own grammar, as node-llama-cpp exposes it: can a token come next, and accept it. */
function llamaGrammar(engine: Engine, gbnf: string) {
  const state = new LlamaGrammarEvaluationState({ model: engine.model, grammar: engine.grammar(gbnf) });
  const bindings = (
    engine.llama as unknown as {
      _bindings: { AddonSampler: Record<string, (state: unknown, token: number) => unknown> };
    }
  )._bindings.AddonSampler;
  const native = (state as unknown as { _state: unknown })._state;
  return {
    allows: (token: number) => bindings.canBeNextTokenForGrammarEvaluationState(native, token) === true,
    accept: (token: number) => void bindings.acceptGrammarEvaluationStateToken(native, token),
  };
}

/** Tokens svc's masks ban on purpose where llama.cpp's grammar may allow them: no bytes, a NUL first, a byte never in UTF-8, control tokens (they print nothing). */
function bannedOnPurpose(masker: TokenMasker, token: number): boolean {
  const bytes = masker.vocabulary.bytes[token];
  return bytes.length === 0 || bytes[0] === 0 || bytes.some((b) => b === 0xc0 || b === 0xc1 || b >= 0xf5);
}

describe.each(MODELS)('%s', (label, modelPath, cases, maxTokens) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await Engine.load({ model: await modelPath(), threads: 1, contextSize: 256 });
  }, 120_000);
  afterAll(async () => {
    await engine?.dispose();
  });

  /** A run; `grammar` another spelling of the case's grammar gets a masker of its own, nothing cached. */
  const run = async (c: Case, maskMode: MaskMode, grammar = c.gbnf, onMaskAhead?: () => void) => {
    try {
      const out = await engine.generate({ prompt: PROMPT, maxTokens, seed: 42, grammar, maskMode, onMaskAhead });
      return {
        text: out.text,
        tokens: out.constrained!.tokens,
        stopReason: out.stopReason,
        completed: out.constrained!.completed,
      };
    } catch (error) {
      if (error instanceof ConstraintBudgetError) return { error: error.message };
      throw error;
    }
  };

  test.each(cases.map((c) => [c.name, c] as const))(
    'same bytes in every mode, each token allowed by llama.cpp, the output valid: %s',
    async (_name, c) => {
      const reference = await run(c, 'reference');
      // 'fast' twice: the second run finds masks cached and their samplers configured (the direct
      // path). 'every-step' on a masker of its own: every mask computed ahead, while llama.cpp
      // evaluates the token before it.
      let ahead = 0;
      for (const [mode, grammar] of [
        ['fast', c.gbnf],
        ['every-step', `${c.gbnf}\n`],
        ['fast', c.gbnf],
      ] as const)
        expect([mode, await run(c, mode, grammar, () => ahead++)]).toEqual([mode, reference]);
      if (!('error' in reference)) expect(ahead).toBeGreaterThan(0);
      // The budget holds every case's shortest output.
      expect('error' in reference ? reference.error : '').toBe('');
      if ('error' in reference) return;
      expect(reference.tokens.length).toBeGreaterThan(0);
      // Each output token, replayed through llama.cpp's own grammar, was allowed there.
      const llama = llamaGrammar(engine, c.gbnf);
      const refused: number[] = [];
      for (const token of reference.tokens) {
        if (!llama.allows(token)) refused.push(token);
        llama.accept(token);
      }
      expect(refused).toEqual([]);
      expect(reference.text).not.toContain('\uFFFD');
      // Ended by the model or closed to fit max_tokens: complete, so valid for the constraint.
      if (reference.stopReason === 'eogToken' || reference.completed) {
        expect(recognizeGbnf(parseGbnf(c.gbnf), reference.text)).toBe(true);
        expect(c.valid(reference.text)).toBe(true);
      }
    },
  );

  test("at grammar boundaries glued into one token and inside characters split into bytes, the mask is llama.cpp's allowed set less what svc bans on purpose", async () => {
    const compiled = compileJsonSchema({
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
      required: ['id', 'name'],
    });
    const masker = engine.masker(compiled.gbnf)!;
    const vocabulary = masker.vocabulary;
    const byteToken = (byte: number) => {
      for (let t = 0; t < vocabulary.size; t++)
        if (vocabulary.bytes[t].length === 1 && vocabulary.bytes[t][0] === byte && !vocabulary.eog[t]) return t;
      throw new Error(`no token for byte ${byte.toString(16)}`);
    };
    // The model's own tokenization of a valid text (qwen2 glues `{"`, `":`, `,"`, `":"` and `"}`),
    // and a string spelled byte by byte through 日 (E6 97 A5), 😀 (F0 9F 98 80) and é (C3 A9).
    const text = '{"id":12,"name":"a😀\\"x"}';
    const glued = engine.model.tokenize(text, false, 'trimLeadingSpace');
    expect(engine.decode(glued)).toBe(text);
    const head = engine.model.tokenize('{"id":7,"name":"', false, 'trimLeadingSpace');
    const split = [
      ...head,
      ...[0xe6, 0x97, 0xa5, 0xc3, 0xa9].map((b) => byteToken(b) as Token),
      ...engine.model.tokenize('"}', false, 'trimLeadingSpace'),
    ];
    expect(engine.decode(split)).toBe('{"id":7,"name":"日é"}');
    // Compared (the whole vocabulary through llama.cpp, ~0.1 s a point on qwen2) where the glued
    // text's next token crosses a boundary, at its end, and at every point inside the split string.
    const crosses = (t: number) => vocabulary.bytes[t].length > 1 && vocabulary.bytes[t].includes(0x22);
    for (const [tokens, compare] of [
      [glued, (step: number) => step === glued.length || crosses(glued[step])],
      [split, (step: number) => step >= head.length],
    ] as const) {
      const llama = llamaGrammar(engine, compiled.gbnf);
      let position: Position = masker.initial;
      for (let step = 0; step <= tokens.length; step++) {
        const banned = new Uint8Array(vocabulary.size);
        for (const t of masker.mask(position).banned()) banned[t] = 1;
        if (compare(step)) {
          const tooMuch: number[] = [];
          const tooLittle: number[] = [];
          for (let t = 0; t < vocabulary.size; t++) {
            const theirs = llama.allows(t);
            if (!banned[t] && !theirs) tooMuch.push(t);
            if (theirs && banned[t] && !bannedOnPurpose(masker, t)) tooLittle.push(t);
          }
          const at = engine.decode(tokens.slice(0, step));
          expect({ at, tooMuch, tooLittle }).toEqual({ at, tooMuch: [], tooLittle: [] });
        }
        if (step === tokens.length) break;
        expect(banned[tokens[step]]).toBe(0);
        llama.accept(tokens[step]);
        position = masker.advance(position, tokens[step])!;
      }
    }
    // The real vocabularies glue a quote to what follows (`":`, `,"`, `"}`): those tokens were compared.
    const crossing = glued.filter(crosses);
    if (label !== 'stories260K') expect(crossing.length).toBeGreaterThan(1);
  });

  test('a JSON schema with free-text strings completes validly within a small max_tokens, deterministically; below its shortest output it fails at once, naming it', async () => {
    const compiled = compileJsonSchema({
      type: 'object',
      properties: { name: { type: 'string' }, story: { type: 'string' } },
      required: ['name', 'story'],
    });
    const minimum = engine.masker(compiled.gbnf)!.completion(engine.masker(compiled.gbnf)!.initial)!.length;
    expect(minimum).toBeLessThanOrEqual(20);
    let closed = 0;
    for (const prompt of ['Once upon a time', 'Lily and Tom went to the park. They saw']) {
      for (const maxTokens of [minimum, 20, 40, 60]) {
        const request = { prompt, maxTokens, seed: 42, grammar: compiled.gbnf };
        const a = await engine.generate(request);
        const b = await engine.generate(request);
        // The same bytes (how many steps took a full mask differs: the second run finds the masks cached).
        expect([b.text, b.constrained!.tokens, b.stopReason]).toEqual([a.text, a.constrained!.tokens, a.stopReason]);
        expect(a.tokens).toBeLessThanOrEqual(maxTokens);
        expect({ maxTokens, text: a.text, ok: compiled.validate(a.text).ok }).toEqual({
          maxTokens,
          text: a.text,
          ok: true,
        });
        if (a.constrained!.completed) closed++;
      }
      const short = engine.generate({ prompt, maxTokens: minimum - 1, seed: 42, grammar: compiled.gbnf });
      await expect(short).rejects.toThrow(ConstraintBudgetError);
      await expect(short).rejects.toMatchObject({ minTokens: minimum, maxTokens: minimum - 1 });
    }
    // The models do not close the strings by themselves within these budgets: the decoder did.
    expect(closed).toBeGreaterThan(0);
  });
});
