// Issue #52: an input too long for the context is refused without tokenizing all of it (llama.cpp's
// tokenizer is quadratic in characters its vocabulary lacks, and runs on the worker's event loop), on
// the trained stories260K (SentencePiece, byte fallback) and a qwen2-vocabulary model (byte-level
// BPE). The work is counted in characters handed to the tokenizer, not timed; bench/input-bound.ts
// prints the time. What fits is counted exactly, as before.
import { Engine, ContextExceededError } from '../../src/engine/engine.js';
import { tokensOverLimit, tokensUpTo } from '../../src/engine/input-bound.js';
import { STORIES_MODEL, realVocabModel } from '../helpers/real-models.js';

let stories: Engine;
let qwen: Engine;
beforeAll(async () => {
  stories = await Engine.load({ model: STORIES_MODEL, threads: 1, sequences: 1 });
  qwen = await Engine.load({ model: await realVocabModel('qwen2'), threads: 1, sequences: 1, contextSize: 2048 });
}, 120_000);
afterAll(async () => {
  await Promise.all([stories?.dispose(), qwen?.dispose()]);
});

/** The engine's tokenizer, counting the characters it is handed. */
function counting(engine: Engine): { count: (piece: string) => number; handed: () => number } {
  let handed = 0;
  return {
    count: (piece) => {
      handed += piece.length;
      return engine.countTokens(piece);
    },
    handed: () => handed,
  };
}

const CJK = '日本語の文章です。';

test.each([
  ['stories260K', () => stories, 511],
  ['qwen2', () => qwen, 2047],
])('%s: 1,000,000 CJK characters are over the context after tokenizing a few thousand of them', (_, engine, limit) => {
  const text = CJK.repeat(Math.ceil(1_000_000 / CJK.length)).slice(0, 1_000_000);
  const { count, handed } = counting(engine());
  const over = tokensOverLimit(text, limit, count);
  expect(over).toBeGreaterThan(limit);
  expect(handed()).toBeLessThan(32 * limit);
  // The bound is a true lower bound: the whole of a prefix of the text is at least that long.
  expect(engine().countTokens(text.slice(0, 20 * limit))).toBeGreaterThanOrEqual(over!);
});

test('a text that fits is not refused, and its count is exact', () => {
  const text = 'Once upon a time there was a little girl named Lily. '.repeat(8);
  const { count } = counting(stories);
  expect(tokensOverLimit(text, 511, count)).toBeUndefined();
  expect(tokensUpTo(text, 511, count)).toBe(stories.countTokens(text));
  // Just under the limit by characters but over it by tokens: the prefixes decide only when they are over.
  const near = 'x y '.repeat(200);
  expect(tokensUpTo(near, 100, count)).toBeGreaterThan(100);
});

test('a prefix never cuts a surrogate pair', () => {
  const seen: string[] = [];
  tokensOverLimit('😀'.repeat(5000), 3, (piece) => (seen.push(piece), stories.countTokens(piece)));
  // Well-formed: no lone high surrogate at a prefix's end.
  for (const piece of seen) expect(/[\ud800-\udbff]$/.test(piece)).toBe(false);
});

test.each(['generate', 'embed'] as const)(
  'the engine refuses such an input to %s at once, saying "at least"',
  async (call) => {
    const text = '日'.repeat(1_000_000);
    const run = call === 'generate' ? stories.generate({ prompt: text, maxTokens: 4, seed: 42 }) : stories.embed(text);
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextExceededError);
    expect((error as ContextExceededError).atLeast).toBe(true);
    expect((error as Error).message).toMatch(
      call === 'generate'
        ? /^prompt is at least \d+ tokens, over the 511/
        : /^the text is at least \d+ tokens, over the 511/,
    );
  },
);
