// Streaming (#37): the engine hands on a generation's text as its tokens come, at whole UTF-8
// characters, and the pieces joined are byte for byte the result's text, with or without a grammar:
// on the trained stories260K (SentencePiece with byte fallback: a kanji is three byte tokens), a
// qwen2-vocabulary model (byte-level BPE, random weights: text that is not UTF-8 too) and the one-byte
// test model (every multi-byte character split across tokens).
import { loadByteEngines, type ByteEngines } from '../helpers/engines.js';
import { Engine, type GenerateRequest } from '../../src/engine/engine.js';
import { compileChoices, compileJsonSchema, compileRegex } from '../../src/grammar/index.js';

let engines: ByteEngines;
let stories: Engine;
let qwen: Engine;
let bytes: Engine;

beforeAll(async () => {
  engines = await loadByteEngines('svc-stream-', 2);
  ({ stories, qwen, bytes } = engines);
}, 120_000);
afterAll(() => engines?.dispose());

/** The request streamed and not: the pieces with their token counts, and both results. */
async function both(engine: Engine, request: GenerateRequest) {
  const plain = await engine.generate(request);
  const pieces: Array<{ text: string; tokens: number }> = [];
  const streamed = await engine.generate({ ...request, onText: (text, tokens) => pieces.push({ text, tokens }) });
  return { plain, streamed, pieces };
}

/** What must hold of every stream: the pieces join to the result, none is empty, none splits a character, counts grow to the result's. */
function expectStream({ plain, streamed, pieces }: Awaited<ReturnType<typeof both>>) {
  expect(streamed).toEqual(plain);
  expect(pieces.map((p) => p.text).join('')).toBe(plain.text);
  for (const piece of pieces) {
    expect(piece.text).not.toBe('');
    expect(piece.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/); // no half of a surrogate pair
  }
  const counts = pieces.map((p) => p.tokens);
  expect(counts).toEqual([...counts].sort((a, b) => a - b));
  if (pieces.length > 0) expect(counts.at(-1)).toBe(plain.tokens);
}

const regex = (pattern: string) => compileRegex(pattern).gbnf;

test('stories260K, plain text: many pieces, joined the very result', async () => {
  const run = await both(stories, { prompt: 'Once upon a time', maxTokens: 48, seed: 42 });
  expectStream(run);
  expect(run.pieces.length).toBeGreaterThan(10);
  expect(run.plain.text).toMatch(/^, there was a little girl/);
});

test("stories260K, regex '[日本語]{4}': each kanji (three byte tokens) handed on whole, once its third byte came", async () => {
  const run = await both(stories, { prompt: 'Text:', maxTokens: 32, seed: 42, grammar: regex('[日本語]{4}') });
  expectStream(run);
  expect(run.pieces.map((p) => p.text)).toEqual([...run.plain.text]);
  expect(run.pieces.map((p) => p.tokens)).toEqual([3, 6, 9, 12]);
});

test("stories260K, a JSON schema, the output closed by the grammar's shortest completion to fit maxTokens too", async () => {
  const schema = compileJsonSchema({
    type: 'object',
    properties: { name: { type: 'string' } },
    required: ['name'],
  }).gbnf;
  const closed: boolean[] = [];
  for (const maxTokens of [10, 12, 40]) {
    const run = await both(stories, { prompt: 'A character as JSON:', maxTokens, seed: 42, grammar: schema });
    expectStream(run);
    expect(JSON.parse(run.plain.text)).toHaveProperty('name');
    closed.push(run.plain.constrained!.completed);
  }
  expect(closed[0]).toBe(true);
});

test('qwen2 vocabulary (byte-level BPE): random bytes, multi-byte characters across tokens and bytes that are not UTF-8 alike', async () => {
  for (const prompt of ['Hello', '日本語のテキスト', 'Ελλάδα', 'a']) {
    const run = await both(qwen, { prompt, maxTokens: 40, seed: 42 });
    expectStream(run);
  }
  const choices = ['日本', '中国', 'Ελλάδα'];
  const run = await both(qwen, { prompt: 'Country:', maxTokens: 16, seed: 42, grammar: compileChoices(choices).gbnf });
  expectStream(run);
  expect(choices).toContain(run.plain.text);
});

test('the one-byte test model: every character split over its bytes, a maxTokens cut inside one ends the stream with U+FFFD as the result does', async () => {
  const run = await both(bytes, { prompt: 'x', maxTokens: 5, seed: 42, grammar: regex('[日本語]{1,30}') });
  expectStream(run);
  expect(run.pieces.map((p) => p.text)).toEqual([run.plain.text]);
  for (const maxTokens of [7, 8, 64]) expectStream(await both(bytes, { prompt: 'x', maxTokens, seed: 42 }));
  // Unconstrained: the output is arbitrary bytes; a cut character is U+FFFD in the result and the stream's last piece.
  const cut = await both(bytes, { prompt: 'x', maxTokens: 2, seed: 7, grammar: regex('é+') });
  expectStream(cut);
});

test('a callback that throws ends the generation with its error; the engine serves the next request', async () => {
  await expect(
    stories.generate({
      prompt: 'Once upon a time',
      maxTokens: 16,
      seed: 42,
      onText: () => {
        throw new Error('reader gone');
      },
    }),
  ).rejects.toThrow('reader gone');
  const again = await both(stories, { prompt: 'Once upon a time', maxTokens: 16, seed: 42 });
  expectStream(again);
});
