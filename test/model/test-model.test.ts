// The synthesized test model: deterministic bytes, and a real GGUF that llama.cpp loads, constrains
// with GBNF and embeds with.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { getLlama, LlamaCompletion, LlamaGrammar, type Llama, type LlamaModel } from 'node-llama-cpp';
import { makeTestModel, testModelVocab } from '../../src/model/test-model.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('makeTestModel', () => {
  test('same bytes on every call, a few hundred KB, GGUF v3', () => {
    const a = makeTestModel();
    const b = makeTestModel();
    expect(sha(a)).toBe(sha(b));
    expect(a.length).toBeGreaterThan(100_000);
    expect(a.length).toBeLessThan(1_000_000);
    expect(new TextDecoder().decode(a.subarray(0, 4))).toBe('GGUF');
    expect(new DataView(a.buffer, a.byteOffset).getUint32(4, true)).toBe(3);
  });

  test('seed and dtype change the bytes; f16 is smaller', () => {
    expect(sha(makeTestModel({ seed: 7 }))).not.toBe(sha(makeTestModel()));
    const f16 = makeTestModel({ dtype: 'f16' });
    expect(f16.length).toBeLessThan(makeTestModel().length * 0.6);
  });

  test('vocabulary: specials, 256 byte tokens, printable characters', () => {
    const v = testModelVocab();
    expect(v.tokens.slice(0, 3)).toEqual(['<unk>', '<s>', '</s>']);
    expect(v.tokens[3]).toBe('<0x00>');
    expect(v.tokens[3 + 255]).toBe('<0xFF>');
    expect(v.types.slice(3, 259).every((t) => t === 6)).toBe(true);
    for (let c = 0x21; c <= 0x7e; c++) expect(v.tokens).toContain(String.fromCharCode(c));
    expect(v.tokens).toContain('\u2581');
    expect(new Set(v.tokens).size).toBe(v.tokens.length);
  });
});

describe('node-llama-cpp loads the test model', () => {
  let dir: string;
  let llama: Llama;
  let model: LlamaModel;
  const threads = 2; // explicit: the default made this tiny model ~400x slower on 2 cores

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-model-'));
    const path = join(dir, 'test.gguf');
    writeFileSync(path, makeTestModel());
    llama = await getLlama({ gpu: false, logLevel: 'error' as never });
    model = await llama.loadModel({ modelPath: path });
  });
  afterAll(async () => {
    await model?.dispose();
    await llama?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test('metadata: 64-dim, 2 layers, SPM tokenizer with byte fallback', () => {
    expect(model.fileInfo.metadata.general.architecture).toBe('llama');
    const m = model.fileInfo.metadata as any;
    expect(m.llama.embedding_length).toBe(64);
    expect(m.llama.block_count).toBe(2);
    expect(m.tokenizer.ggml.model).toBe('llama');
    // "é" has no single-character token: it must fall back to its two UTF-8 byte tokens.
    const tokens = model.tokenize('é', false);
    expect(model.detokenize(tokens)).toContain('é');
  });

  test('GBNF-constrained generation obeys the grammar, deterministically', async () => {
    const grammarText = 'root ::= ("yes" | "no") " " [a-z]{2,6} " " [0-9]{1,4}';
    const re = /^(yes|no) [a-z]{2,6} [0-9]{1,4}$/;
    const grammar = new LlamaGrammar(llama, { grammar: grammarText });
    const run = async (prompt: string) => {
      const ctx = await model.createContext({ contextSize: 256, threads, seed: 42 } as never);
      try {
        const completion = new LlamaCompletion({ contextSequence: ctx.getSequence() });
        return await completion.generateCompletion(prompt, { maxTokens: 32, grammar, temperature: 0 } as never);
      } finally {
        await ctx.dispose();
      }
    };
    const a = await run('Answer:');
    expect(a).toMatch(re);
    expect(await run('Answer:')).toBe(a);
    expect(await run('Something else entirely')).toMatch(re);
  });

  test('embeddings have dimension 64', async () => {
    const ctx = await model.createEmbeddingContext({ threads } as never);
    try {
      const e = await ctx.getEmbeddingFor('hello world');
      expect(e.vector.length).toBe(64);
      expect(e.vector.every((x) => Number.isFinite(x))).toBe(true);
      const again = await ctx.getEmbeddingFor('hello world');
      expect([...again.vector]).toEqual([...e.vector]);
    } finally {
      await ctx.dispose();
    }
  });

  test('the f16 variant loads and generates too', async () => {
    const path = join(dir, 'test-f16.gguf');
    writeFileSync(path, makeTestModel({ dtype: 'f16' }));
    const m16 = await llama.loadModel({ modelPath: path });
    try {
      const ctx = await m16.createContext({ contextSize: 128, threads } as never);
      const completion = new LlamaCompletion({ contextSequence: ctx.getSequence() });
      const grammar = new LlamaGrammar(llama, { grammar: 'root ::= [0-9]{3}' });
      expect(await completion.generateCompletion('n', { maxTokens: 8, grammar, temperature: 0 } as never)).toMatch(
        /^[0-9]{3}$/,
      );
      await ctx.dispose();
    } finally {
      await m16.dispose();
    }
  });
});
