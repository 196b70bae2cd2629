// The engine on the real tiny test model: grammar-constrained greedy generation, determinism alone
// and under concurrency, abort/timeout, grammar cache, embeddings and rerank.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Engine,
  GenerationAbortedError,
  GrammarRefusedError,
  ModelLoadError,
  ContextExceededError,
} from '../../src/engine/engine.js';
import { l2Normalize } from '../../src/engine/embedder.js';
import { compileChoices, compileJsonSchema, compileRegex } from '../../src/grammar/index.js';
import { makeTestModel } from '../../src/model/test-model.js';
import { ConstraintBudgetError } from '../../src/engine/constrained.js';

let dir: string;
let modelPath: string;
let engine: Engine;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-engine-'));
  modelPath = join(dir, 'test.gguf');
  writeFileSync(modelPath, makeTestModel());
  engine = await Engine.load({ model: modelPath, threads: 2, sequences: 4, contextSize: 512 });
});
afterAll(async () => {
  await engine?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const regexGrammar = compileRegex('[a-z0-9 ]{5,20}').gbnf;
const req = (prompt: string, extra: object = {}) => ({
  prompt,
  maxTokens: 24,
  seed: 42,
  grammar: regexGrammar,
  ...extra,
});

describe('loading', () => {
  test('model identity, dimension, sequences, no ranking head on the test model', () => {
    expect(engine.modelId).toMatch(/^test\.gguf:\d+:[0-9a-f]{16}:llama\.cpp-[^-]+-cpu$/);
    expect(engine.dimension).toBe(64);
    expect(engine.sequences).toBe(4);
    expect(engine.threads).toBe(2);
    expect(engine.hasRankingHead).toBe(false);
  });

  test('a missing file and a file that is not a GGUF fail with ModelLoadError', async () => {
    await expect(Engine.load({ model: join(dir, 'absent.gguf'), threads: 1 })).rejects.toThrow(ModelLoadError);
    await expect(Engine.load({ model: join(dir, 'absent.gguf'), threads: 1 })).rejects.toThrow(/model file not found/);
    const junk = join(dir, 'junk.gguf');
    writeFileSync(junk, 'not a model at all');
    await expect(Engine.load({ model: junk, threads: 1 })).rejects.toThrow(ModelLoadError);
  });

  test('threads, sequences and generation contexts must be positive integers, the contexts at most the sequences', async () => {
    await expect(Engine.load({ model: modelPath, threads: 0 })).rejects.toThrow(RangeError);
    await expect(Engine.load({ model: modelPath, threads: 1, sequences: 0 })).rejects.toThrow(/sequences/);
    await expect(Engine.load({ model: modelPath, threads: 1, sequences: 2, generationContexts: 0 })).rejects.toThrow(
      'generationContexts must be a positive integer, got 0',
    );
    await expect(Engine.load({ model: modelPath, threads: 1, sequences: 2, generationContexts: 3 })).rejects.toThrow(
      'generationContexts must be at most sequences (2): each context holds a sequence or more, got 3',
    );
  });
});

describe('generate', () => {
  test('obeys the grammar and is deterministic', async () => {
    const a = await engine.generate(req('The same request'));
    const b = await engine.generate(req('The same request'));
    expect(a.text).toMatch(/^[a-z0-9 ]{5,20}$/);
    expect(b).toEqual(a);
    expect(a.stopReason).toBe('eogToken');
    expect(a.tokens).toBeGreaterThan(0);
    expect(a.tokens).toBeLessThanOrEqual(24);
  });

  test('results do not change with concurrency: alone vs. next to 3 others', async () => {
    const alone = await engine.generate(req('The same request'));
    const plainAlone = await engine.generate({ prompt: 'plain', maxTokens: 16, seed: 42 });
    const together = await Promise.all([
      engine.generate(req('another prompt')),
      engine.generate(req('The same request')),
      engine.generate({ prompt: 'plain', maxTokens: 16, seed: 42 }),
      engine.generate(req('x y z', { grammar: compileChoices(['alpha', 'beta', 'gamma']).gbnf })),
    ]);
    expect(together[1].text).toBe(alone.text);
    expect(together[2].text).toBe(plainAlone.text);
    expect(['alpha', 'beta', 'gamma']).toContain(together[3].text);
  });

  test('more requests than sequences wait for a free one and all finish', async () => {
    const prompts = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
    const alone = [];
    for (const p of prompts) alone.push((await engine.generate(req(p))).text);
    const together = await Promise.all(prompts.map((p) => engine.generate(req(p))));
    expect(together.map((r) => r.text)).toEqual(alone);
  });

  test('sequences shared out over several contexts, decoding at once: the same bytes as one sequence', async () => {
    const one = await Engine.load({
      model: modelPath,
      threads: 1,
      sequences: 1,
      contextSize: 256,
      generationContexts: 1,
    });
    const split = await Engine.load({
      model: modelPath,
      threads: 1,
      sequences: 5,
      contextSize: 256,
      generationContexts: 2,
    });
    try {
      expect([split.sequences, split.generationContexts, one.generationContexts]).toEqual([5, 2, 1]);
      const requests = [
        ...['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'].map((p) => req(p)),
        { prompt: 'plain', maxTokens: 16, seed: 42 },
        req('x y z', { grammar: compileChoices(['alpha', 'beta', 'gamma']).gbnf }),
      ];
      const alone = [];
      for (const r of requests) alone.push(await one.generate(r));
      expect(await Promise.all(requests.map((r) => split.generate(r)))).toEqual(alone);
    } finally {
      await one.dispose();
      await split.dispose();
    }
  });

  test('unconstrained output stops at maxTokens and counts tokens', async () => {
    const out = await engine.generate({ prompt: 'Hello', maxTokens: 7, seed: 42 });
    expect(out.stopReason).toBe('maxTokens');
    expect(out.tokens).toBe(7);
  });

  test("maxTokens below a grammar's shortest output fails at once, naming the minimum; at the minimum the output is complete", async () => {
    const grammar = compileRegex('[a-z]{30}( [a-z]+)*').gbnf;
    const short = engine.generate({ prompt: 'x', maxTokens: 29, seed: 42, grammar });
    await expect(short).rejects.toThrow(ConstraintBudgetError);
    await expect(short).rejects.toMatchObject({ minTokens: 30, maxTokens: 29 });
    const out = await engine.generate({ prompt: 'x', maxTokens: 30, seed: 42, grammar });
    expect(out.text).toMatch(/^[a-z]{30}$/);
    expect(out.tokens).toBe(30);
  });

  test('strings under a grammar are valid UTF-8 (bytes that never occur in UTF-8 are banned)', async () => {
    const schema = compileJsonSchema({
      type: 'object',
      properties: { name: { type: 'string', maxLength: 8 } },
      required: ['name'],
    });
    for (const prompt of ['Hello json', 'a', 'b', 'Name:']) {
      const out = await engine.generate({ prompt, maxTokens: 64, seed: 42, grammar: schema.gbnf });
      expect(out.text).not.toContain('\uFFFD');
      expect(schema.validate(out.text).ok).toBe(true);
    }
  });

  test('compiled grammars are cached; an invalid GBNF is rejected', async () => {
    const gbnf = 'root ::= "cached-grammar-' + Date.now() + '"';
    const before = engine.cachedGrammars;
    const g1 = engine.grammar(gbnf);
    const g2 = engine.grammar(gbnf);
    expect(g2).toBe(g1);
    expect(engine.cachedGrammars).toBe(before + 1);
    expect(() => engine.grammar('root ::= undefined-rule')).toThrow();
  });

  test('a grammar llama.cpp refuses is a GrammarRefusedError, from grammar() and from generate()', async () => {
    for (const gbnf of ['root ::= [', 'root ::= root "a" | "b"', 'root ::= "a" missing']) {
      expect(() => engine.grammar(gbnf)).toThrow(GrammarRefusedError);
      await expect(engine.generate({ prompt: 'x', maxTokens: 4, seed: 42, grammar: gbnf })).rejects.toThrow(
        /^llama\.cpp refused the grammar: /,
      );
    }
  });

  test('one context rule: a prompt that leaves no room for an output token is refused with its numbers; an output stops where the context is full', async () => {
    // The model's context here is 512 tokens (prompt and output together).
    const long = engine.generate({ prompt: 'ab '.repeat(600), maxTokens: 8, seed: 42 });
    await expect(long).rejects.toThrow(ContextExceededError);
    await expect(long).rejects.toThrow(
      /^prompt is \d+ tokens, over the 511 a context of 512 tokens leaves for a prompt \(the output needs at least one\): shorten the prompt/,
    );
    const prompt = 'ab '.repeat(150);
    const promptTokens = engine.promptTokens({ prompt }).tokens.length;
    expect(promptTokens).toBeLessThan(512);
    const out = await engine.generate({ prompt, maxTokens: 1000, seed: 42 });
    expect(out.stopReason === 'eogToken' || out.tokens === 512 - promptTokens).toBe(true);
    expect(out.tokens).toBeLessThanOrEqual(512 - promptTokens);
  });

  test('a text to embed over the context is refused with its numbers and the way out (chunks)', async () => {
    const error = await engine.embed('ab '.repeat(600)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextExceededError);
    expect((error as Error).message).toMatch(
      /^the text is \d+ tokens, over the 511 a context of 512 tokens takes: split it into chunks of at most 511 tokens/,
    );
  });

  test('maxTokens must be a positive integer', async () => {
    await expect(engine.generate({ prompt: 'x', maxTokens: 0, seed: 42 })).rejects.toThrow(RangeError);
  });
});

describe('abort and timeout', () => {
  test('an already aborted signal rejects at once', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(engine.generate({ prompt: 'x', maxTokens: 10, seed: 42, signal: controller.signal })).rejects.toThrow(
      GenerationAbortedError,
    );
  });

  test('aborting mid-generation stops it, and the sequence is free again', async () => {
    const controller = new AbortController();
    const pending = engine.generate({ prompt: 'x', maxTokens: 2000, seed: 42, signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toThrow(/aborted/);
    const after = await Promise.all([1, 2, 3, 4].map(() => engine.generate(req('after abort'))));
    expect(new Set(after.map((r) => r.text)).size).toBe(1);
  });

  test('timeoutMs aborts with a timeout message', async () => {
    const error = await engine.generate({ prompt: 'x', maxTokens: 2000, seed: 42, timeoutMs: 20 }).catch((e) => e);
    expect(error).toBeInstanceOf(GenerationAbortedError);
    expect(error.message).toMatch(/timed out after 20 ms/);
  });

  test('a request waiting for a sequence can be aborted', async () => {
    const one = await Engine.load({ model: modelPath, threads: 2, sequences: 1, contextSize: 256 });
    try {
      const first = one.generate({ prompt: 'x', maxTokens: 300, seed: 42 });
      const controller = new AbortController();
      const second = one.generate({ prompt: 'y', maxTokens: 5, seed: 42, signal: controller.signal });
      controller.abort();
      await expect(second).rejects.toThrow(GenerationAbortedError);
      expect(typeof (await first).text).toBe('string');
    } finally {
      await one.dispose();
    }
  });
});

describe('embeddings and rerank', () => {
  const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

  test('embed: model dimension, L2-normalized, deterministic, text-dependent', async () => {
    const a = await engine.embed('hello world');
    expect(a).toHaveLength(engine.dimension);
    expect(norm(a)).toBeCloseTo(1, 6);
    expect(await engine.embed('hello world')).toEqual(a);
    expect(await engine.embed('something else')).not.toEqual(a);
  });

  test('rerank (embedding similarity on the test model): best first, every index once, cosine scores', async () => {
    const docs = ['cats are small', 'the stock market', 'cats', 'zzz'];
    const ranked = await engine.rerank(
      'cats',
      docs,
      'Given a web search query, retrieve relevant passages that answer the query',
    );
    expect(ranked.map((r) => r.index).sort()).toEqual([0, 1, 2, 3]);
    for (const r of ranked) {
      expect(r.document).toBe(docs[r.index]);
      expect(r.score).toBeGreaterThanOrEqual(-1);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1].score).toBeGreaterThanOrEqual(ranked[i].score);
    expect(
      await engine.rerank('cats', docs, 'Given a web search query, retrieve relevant passages that answer the query'),
    ).toEqual(ranked);
    // The score is the cosine of the task-prefixed query embedding and the document embedding.
    const q = await engine.embed(
      'Given a web search query, retrieve relevant passages that answer the query\nQuery: cats',
    );
    const d = await engine.embed(docs[ranked[0].index]);
    expect(ranked[0].score).toBeCloseTo(
      q.reduce((s, x, i) => s + x * d[i], 0),
      9,
    );
  });

  test('rerank: an empty query or document is a RangeError naming it (its embedding is empty: the score would be NaN)', async () => {
    // Never an empty vector: a text with no token is refused (NothingToEmbedError).
    await expect(engine.embed('')).rejects.toThrow(/^the text gives the model nothing to embed/);
    await expect(engine.rerank('cats', ['a', '', 'b'], 'task')).rejects.toThrow(
      new RangeError('rerank: documents[1] must not be empty'),
    );
    await expect(engine.rerank('', ['a'], '')).rejects.toThrow(new RangeError('rerank: query must not be empty'));
  });

  test('l2Normalize', () => {
    expect(l2Normalize([3, 4])).toEqual([0.6, 0.8]);
    expect(l2Normalize([0, 0])).toEqual([0, 0]);
  });
});
