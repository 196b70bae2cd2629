// The edge feeds llama.cpp the library's prompt tokens (#53): a SentencePiece model is loaded without
// its space prefix, which llama.cpp's server puts before every prompt and node-llama-cpp's raw prompt
// lacks, and an embedding's text gets the space written out. Checked on llama.cpp's own tokenizer
// (node-llama-cpp's binding): the rewritten GGUF tokenizes each prompt as the server does (BOS added,
// special tokens parsed) into exactly the tokens the engine feeds.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getLlama, type Llama, type LlamaModel } from 'node-llama-cpp';
import { Engine } from '../../src/engine/engine.js';
import { readGguf, readGgufMeta, withGgufMeta } from '../../src/model/gguf.js';
import { makeTestModel } from '../../src/model/test-model.js';
import { servedModel, spacePrefixDiffers, type ServedModel } from '../../src/edge/engine/prompt-tokens.js';
import { modelFile } from '../../src/edge/engine/model-file.js';
import { EMBED_MODEL, STORIES_MODEL, realVocabModel } from '../helpers/real-models.js';
import { STORY_PROMPTS } from '../helpers/story-prompts.js';

const join2 = (parts: Uint8Array[]) => Buffer.concat(parts);
let dir: string;
let llama: Llama;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-prompt-tokens-'));
  llama = await getLlama({ gpu: false });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('withGgufMeta adds a key (or replaces one) and leaves every tensor where it was', () => {
  const bytes = new Uint8Array(readFileSync(STORIES_MODEL));
  const before = readGguf(bytes);
  const added = readGguf(join2(withGgufMeta(bytes, ['tokenizer.ggml.add_space_prefix', 'bool', false])));
  expect(added.meta).toEqual([...before.meta, ['tokenizer.ggml.add_space_prefix', 'bool', false]]);
  expect(added.tensors).toEqual(before.tensors);
  const test = makeTestModel();
  const replaced = readGguf(join2(withGgufMeta(test, ['tokenizer.ggml.add_bos_token', 'bool', false])));
  expect(replaced.meta).toEqual(
    readGguf(test).meta.map((m) => (m[0] === 'tokenizer.ggml.add_bos_token' ? [m[0], 'bool', false] : m)),
  );
  expect(replaced.tensors).toEqual(readGguf(test).tensors);
});

test('the rewritten model is read as one file in ranges, as wllama reads it', async () => {
  const parts = withGgufMeta(makeTestModel(), ['general.name', 'str', 'a longer name than before']);
  const file = modelFile(parts);
  const whole = join2(parts);
  expect(file.size).toBe(whole.length);
  for (const [start, end] of [
    [0, 10],
    [parts[0].length - 3, parts[0].length + 5],
    [100, whole.length],
    [whole.length - 1, whole.length + 10],
  ])
    expect(new Uint8Array(await file.slice(start, end).arrayBuffer())).toEqual(
      new Uint8Array(whole.subarray(start, end)),
    );
});

test('which vocabularies llama.cpp prefixes where the library does not: SentencePiece with BOS', async () => {
  const meta = async (path: string) => readGgufMeta(new Uint8Array(readFileSync(path)));
  expect(spacePrefixDiffers(await meta(STORIES_MODEL))).toBe(true);
  expect(spacePrefixDiffers(readGgufMeta(makeTestModel()))).toBe(true);
  expect(spacePrefixDiffers(await meta(EMBED_MODEL))).toBe(false); // WordPiece (bert)
  expect(spacePrefixDiffers(await meta(await realVocabModel('qwen2')))).toBe(false); // byte-level BPE
  expect(servedModel(new Uint8Array(readFileSync(EMBED_MODEL))).parts).toHaveLength(1);
});

/** The served model written out, loaded by llama.cpp for its tokenizer alone. */
async function servedVocab(path: string): Promise<{ model: LlamaModel; served: ServedModel }> {
  const served = servedModel(new Uint8Array(readFileSync(path)));
  const file = join(dir, `served-${Math.random().toString(36).slice(2)}.gguf`);
  writeFileSync(file, join2(served.parts));
  return { model: await llama.loadModel({ modelPath: file, vocabOnly: true }), served };
}

const PROMPTS = [
  ...STORY_PROMPTS,
  ' leading space',
  '  two leading spaces',
  '\nafter a newline',
  'tabs\tand\nlines ',
  'café 日本語 🎉',
  'x',
];

test.each([
  ['stories260K', async () => STORIES_MODEL],
  [
    'the any-character test model',
    async () => {
      writeFileSync(join(dir, 'test.gguf'), makeTestModel());
      return join(dir, 'test.gguf');
    },
  ],
  ['phi-3 vocabulary', () => realVocabModel('phi3')],
  ['qwen2 vocabulary', () => realVocabModel('qwen2')],
])(
  '%s: llama.cpp tokenizes each prompt of the served model into the engine raw prompt tokens',
  async (_name, path) => {
    const file = await path();
    const engine = await Engine.load({ model: file, threads: 1, sequences: 1 });
    const { model, served } = await servedVocab(file);
    try {
      // llama.cpp's server: tokenize(prompt, add_special = true, parse_special = true): BOS where the
      // vocabulary adds it (the binding's tokenize never adds it), then the text with special tokens parsed.
      const bos = model.tokens.shouldPrependBosToken ? [model.tokens.bos!] : [];
      for (const prompt of PROMPTS) {
        expect([prompt, [...bos, ...model.tokenize(served.promptText(prompt), true)]]).toEqual([
          prompt,
          engine.promptTokens({ prompt, promptFormat: 'raw' }).tokens,
        ]);
        // An embedding's text, as node-llama-cpp tokenizes it for the engine's embed.
        expect([prompt, [...model.tokenize(served.embedText(prompt), false)]]).toEqual([
          prompt,
          [...engine.model.tokenize(prompt, false)],
        ]);
      }
    } finally {
      await model.dispose();
      await engine.dispose();
    }
  },
  60_000,
);
