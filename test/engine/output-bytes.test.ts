// Generated output is exactly the generated tokens' bytes (#22): a character split across tokens is
// whole at the end of generation, a maxTokens cut counts every token generated and gives U+FFFD for a
// character it cuts, a first token's leading space is kept (the grammar matched it), and byte-level
// BPE tokens that are never UTF-8 are banned under a grammar. On the trained stories260K
// (SentencePiece with byte fallback), a qwen2-vocabulary model (byte-level BPE) and the one-byte
// test model.
import { loadByteEngines, type ByteEngines } from '../helpers/engines.js';
import { Engine } from '../../src/engine/engine.js';
import { compileChoices, compileRegex } from '../../src/grammar/index.js';

let engines: ByteEngines;
let stories: Engine;
let qwen: Engine;
let bytes: Engine;

beforeAll(async () => {
  engines = await loadByteEngines('svc-output-bytes-', 4);
  ({ stories, qwen, bytes } = engines);
}, 120_000);
afterAll(() => engines?.dispose());

const regex = (pattern: string) => compileRegex(pattern).gbnf;

describe('the last character is whole', () => {
  test("stories260K, regex '[日本語]{3}': three whole characters, each three byte tokens", async () => {
    for (const prompt of ['Text:', 'Once upon a time', 'Lily']) {
      const out = await stories.generate({ prompt, maxTokens: 32, seed: 42, grammar: regex('[日本語]{3}') });
      expect(out.text).toMatch(/^[日本語]{3}$/);
      expect(out.tokens).toBe(9);
      expect(out.stopReason).toBe('eogToken');
    }
  });

  test('the same alone and next to other generations on the same context', async () => {
    const request = (prompt: string) => ({ prompt, maxTokens: 32, seed: 42, grammar: regex('[日本語]{3}') });
    const alone = await stories.generate(request('Text:'));
    const together = await Promise.all([
      stories.generate(request('Lily')),
      stories.generate(request('Text:')),
      stories.generate({ prompt: 'Once upon a time', maxTokens: 20, seed: 42 }),
      stories.generate(request('Text:')),
    ]);
    expect(together[1]).toEqual(alone);
    expect(together[3]).toEqual(alone);
  });

  test("qwen2 vocabulary, choices '日本', '中国', 'Ελλάδα': always a whole choice", async () => {
    const choices = ['日本', '中国', 'Ελλάδα'];
    for (const prompt of ['Text:', 'Hello', 'Country:', 'a', 'b']) {
      const out = await qwen.generate({ prompt, maxTokens: 16, seed: 42, grammar: compileChoices(choices).gbnf });
      expect(choices).toContain(out.text);
      expect(out.stopReason).toBe('eogToken');
    }
  });
});

describe('a maxTokens cut', () => {
  test('under a grammar it never splits a character: the output ends with the last whole one the budget allows (#23)', async () => {
    // The test model's tokens are single bytes: each of these characters takes three.
    const cut = (maxTokens: number) =>
      bytes.generate({ prompt: 'x', maxTokens, seed: 42, grammar: regex('[日本語]{1,30}') });
    const nine = await cut(9);
    expect(nine).toMatchObject({ tokens: 9 });
    expect(nine.text).toMatch(/^[日本語]{3}$/);
    for (const maxTokens of [10, 11]) expect(await cut(maxTokens)).toMatchObject({ text: nine.text, tokens: 9 });
    expect((await cut(12)).text).toMatch(new RegExp(`^${nine.text}[日本語]$`));
    await expect(cut(2)).rejects.toMatchObject({ code: 'budget-too-small', minTokens: 3 });
  });

  test('unconstrained: exactly maxTokens tokens, the start of the longer generation', async () => {
    const long = await stories.generate({ prompt: 'Once upon a time', maxTokens: 40, seed: 42 });
    expect(long).toMatchObject({ tokens: 40, stopReason: 'maxTokens' });
    for (const maxTokens of [1, 7, 20]) {
      const out = await stories.generate({ prompt: 'Once upon a time', maxTokens, seed: 42 });
      expect(out).toMatchObject({ tokens: maxTokens, stopReason: 'maxTokens' });
      expect(long.text.startsWith(out.text)).toBe(true);
    }
  });
});

describe('the output is the bytes the grammar matched', () => {
  test("a SentencePiece token's leading space is kept (regex ' [a-z]{3,10}')", async () => {
    for (const prompt of ['Text:', 'Once upon a time there was', 'Lily']) {
      const out = await stories.generate({ prompt, maxTokens: 16, seed: 42, grammar: regex(' [a-z]{3,10}') });
      expect(out.text).toMatch(/^ [a-z]{3,10}$/);
    }
  });

  test('qwen2: a byte-order mark token decodes to U+FEFF', () => {
    // Token 3225 is "ï»¿" in GPT-2's byte map: EF BB BF.
    expect(qwen.decode([3225 as never])).toBe('\uFEFF');
    expect(qwen.decode([3225, 3225] as never[])).toBe('\uFEFF\uFEFF');
  });
});

describe('the invalid-byte ban under a grammar', () => {
  test('qwen2 vocabulary: the 13 byte-level tokens C0, C1, F5-FF are banned', () => {
    expect(qwen.invalidByteTokens).toEqual([124, 125, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187]);
    expect(stories.invalidByteTokens).toHaveLength(13);
  });

  test('a class beyond U+10FFFF cannot be spelled with bytes that are not UTF-8', async () => {
    // llama.cpp's grammar decoder reads F5-FF as lead bytes of code points above U+10FFFF, which a
    // negated class accepts: without the ban this random-weights model prefers them to "a".
    const gbnf = 'root ::= ( "a" | [^\\x00-\\U0010FFFF] ){3}';
    for (let i = 0; i < 8; i++) {
      const out = await qwen.generate({ prompt: `p${i}`, maxTokens: 12, seed: 42, grammar: gbnf });
      expect(out.text).toBe('aaa');
    }
  });
});
