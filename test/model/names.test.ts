// A model is named the same way everywhere (#53): a name `svc models pull` accepts works as `svc`'s
// --model, SVC_MODEL, the library's model option and configure, and the worker's --model (which
// loads through Engine.load, as here); the edge's names are tested in test/edge/models.test.ts. With
// no model named, the library and the command run svc's defaults: stories260K generates, svc-embed
// embeds and ranks. The hub is a server on 127.0.0.1 (HF_ENDPOINT) holding bge-small-en's file: a
// BERT embedder pooled by [CLS], as bge-small-en is.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configure, embed, generate, rerank, resolveModel, unloadModels } from '../../src/client/index.js';
import { Engine } from '../../src/engine/engine.js';
import { loadConfig } from '../../worker/config.js';
import { RECOMMENDED_MODELS } from '../../src/model/recommended.js';
import { DEFAULT_MODELS, MODEL_NAMES, modelSource } from '../../src/model/names.js';
import { runSvc } from '../helpers/cli.js';
import { EMBED_MODEL, STORIES_MODEL, bertEmbeddingModel } from '../helpers/real-models.js';

const BGE = RECOMMENDED_MODELS.find((m) => m.name === 'bge-small-en')!;
let hub: Server;
let endpoint: string;
let dir: string;
let file: Buffer;
const saved = {
  HF_ENDPOINT: process.env.HF_ENDPOINT,
  SVC_MODEL_CACHE: process.env.SVC_MODEL_CACHE,
  SVC_MODEL: process.env.SVC_MODEL,
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-names-'));
  file = readFileSync(await bertEmbeddingModel('cls'));
  const path = `/${BGE.uri.slice('hf:'.length).split('/').slice(0, 2).join('/')}/resolve/main/${BGE.uri.split('/').slice(2).join('/')}`;
  hub = createServer((req, res) => {
    if (new URL(req.url!, 'http://x').pathname !== path) return res.writeHead(404).end();
    res.writeHead(200, { 'content-length': file.length }).end(file);
  });
  await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(hub.address() as { port: number }).port}/`;
  Object.assign(process.env, { HF_ENDPOINT: endpoint, SVC_MODEL_CACHE: join(dir, 'cache') });
  delete process.env.SVC_MODEL;
  configure({ threads: 1, model: undefined, models: undefined });
});
afterAll(async () => {
  await unloadModels();
  hub?.close();
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  rmSync(dir, { recursive: true, force: true });
});

const svc = (args: string[], env: Record<string, string | undefined> = {}) =>
  runSvc(args, {
    env: { HF_ENDPOINT: endpoint, SVC_MODEL_CACHE: join(dir, 'cache'), SVC_MODEL: undefined, SVC_THREADS: '1', ...env },
  });

test('the names: the two shipped models, then the recommended ones; each stands for a file or a hub URI', () => {
  expect(MODEL_NAMES).toEqual(['stories260K', 'svc-embed', ...RECOMMENDED_MODELS.map((m) => m.name)]);
  expect(modelSource('stories260K')).toBe(STORIES_MODEL);
  expect(modelSource('svc-embed')).toBe(EMBED_MODEL);
  expect(modelSource('bge-small-en')).toBe(BGE.uri);
  expect(modelSource('models/stories260K.gguf')).toBeUndefined();
  expect(DEFAULT_MODELS).toEqual({ generate: 'stories260K', embed: 'svc-embed', rerank: 'svc-embed' });
});

test('a pulled name works as svc --model, SVC_MODEL, the library, and the worker --model, from the cache', async () => {
  const pulled = await svc(['models', 'pull', 'bge-small-en']);
  expect(pulled).toMatchObject({
    code: 0,
    stdout: `${join(dir, 'cache/hf/CompendiumLabs/bge-small-en-v1.5-gguf/bge-small-en-v1.5-q8_0.gguf')}\n`,
  });
  await new Promise<void>((resolve) => hub.close(() => resolve())); // offline from here: read from the cache
  const [byFlag, byEnv] = await Promise.all([
    svc(['embed', 'a cat sat on the mat', '--model', 'bge-small-en', '--json']),
    svc(['embed', 'a cat sat on the mat', '--json'], { SVC_MODEL: 'bge-small-en' }),
  ]);
  expect(byFlag.stderr).toBe('');
  const flagged = JSON.parse(byFlag.stdout) as { model: string; dimension: number; embedding: number[] };
  expect(flagged.model).toMatch(/^bge-small-en-v1\.5-q8_0\.gguf:\d+:[0-9a-f]{16}:llama\.cpp-/);
  expect(JSON.parse(byEnv.stdout)).toEqual(flagged);
  // The library: a call's model option, and configure({ model }).
  expect(await embed('a cat sat on the mat', { model: 'bge-small-en' })).toEqual(flagged.embedding);
  configure({ model: 'bge-small-en' });
  try {
    expect(await embed('a cat sat on the mat')).toEqual(flagged.embedding);
  } finally {
    configure({ model: undefined });
  }
  // The worker: its --model list (a bare name, or NAME=name) is loaded by Engine.load.
  expect(loadConfig(['--model', 'bge-small-en', '--model', 'embed=svc-embed'], {}).models).toEqual([
    { name: 'default', path: 'bge-small-en' },
    { name: 'embed', path: 'svc-embed' },
  ]);
  const engine = await Engine.load({ model: 'bge-small-en', threads: 1 });
  try {
    expect(engine.modelId).toBe(flagged.model);
  } finally {
    await engine.dispose();
  }
  const shipped = await svc(['models', 'pull', 'svc-embed']);
  expect(shipped).toMatchObject({ code: 0, stdout: `${EMBED_MODEL}\n` });
}, 120_000);

test("no model named: the library and svc run svc's defaults (stories260K generates; svc-embed embeds and ranks)", async () => {
  expect(resolveModel(undefined)).toEqual({ kind: 'local', path: STORIES_MODEL });
  expect(resolveModel(undefined, 'embed')).toEqual({ kind: 'local', path: EMBED_MODEL });
  const vector = await embed('Lily played with her ball'); // refused before #53: "no local model configured"
  expect(vector).toEqual(await embed('Lily played with her ball', { model: 'svc-embed' }));
  expect(vector).toHaveLength(128);
  expect((await rerank('a dog', ['The cake was sweet', 'Max the dog barked']))[0].document).toBe('Max the dog barked');
  const story = await generate('Once upon a time', { maxTokens: 12 });
  expect(story).toBe(await generate('Once upon a time', { maxTokens: 12, model: STORIES_MODEL }));

  const [generated, byName, embedded, ranked] = await Promise.all([
    svc(['generate', 'Once upon a time', '--max-tokens', '12']),
    svc(['generate', 'Once upon a time', '--max-tokens', '12', '--model', 'stories260K']),
    svc(['embed', 'Lily played with her ball']),
    svc(['rerank', 'a dog', 'The cake was sweet', 'Max the dog barked']),
  ]);
  expect(generated).toMatchObject({ code: 0, stdout: `${story}\n` });
  expect(byName.stdout).toBe(generated.stdout);
  expect(JSON.parse(embedded.stdout)).toEqual(vector);
  expect(ranked.stdout.split('\n')[0]).toMatch(/^\S+\t1\tMax the dog barked$/);
});

test('a mistyped name is refused naming the names svc knows', async () => {
  const typo = await svc(['embed', 'x', '--model', 'bge-smal-en']);
  expect(typo.code).toBe(3);
  expect(typo.stderr).toMatch(
    /model 'bge-smal-en' is neither a named model \(none is declared: SVC_MODEL NAME=PATH\), a model svc knows \(stories260K, svc-embed, bge-small-en, /,
  );
});
