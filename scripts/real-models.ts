// Real models for tests and benchmarks, offline: the trained stories260K in models/, and small
// random-weight models carrying real vocabularies that llama.cpp itself ships.
//
// node-llama-cpp bundles llama.cpp's source as a git bundle; its `models/ggml-vocab-*.gguf` are
// vocab-only GGUFs of real models. We clone the bundle once (bare, ~2 s) into .tmp/, read a
// vocabulary with `git show`, and write a model with it (src/model/vocab-model.ts) into .tmp/models/,
// named by a hash of everything that decides its bytes, so a cached file is reused only while it is
// exactly what would be written now.
//
// Licences of the vocabularies used: qwen2's tokenizer is Apache-2.0 (Qwen2), phi-3's is MIT
// (Microsoft Phi-3), bert-bge's is MIT (BAAI bge-small-en-v1.5; the WordPiece vocabulary is
// BERT's, Apache-2.0). They are extracted on the user's machine from the copy of llama.cpp that
// node-llama-cpp installs, never committed here.
//
// Usage: npx tsx scripts/real-models.ts   (writes every model and prints the paths as JSON)

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGgufMeta } from '../src/model/gguf.ts';
import { makeVocabModel, tokenizerMeta, type VocabModelOptions } from '../src/model/vocab-model.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, '.tmp');
const BUNDLE = join(ROOT, 'node_modules/node-llama-cpp/llama/gitRelease.bundle');

/** The trained TinyStories model committed in models/ (see models/README.md). */
export const STORIES_MODEL = join(ROOT, 'models/stories260K.gguf');

/** svc's offline default embedder committed in models/, trained by scripts/train-embedder.ts (see models/README.md). */
export const EMBED_MODEL = join(ROOT, 'models/svc-embed.gguf');

/** Decoder models with a real vocabulary: qwen2 (byte-level BPE, 151,936 tokens, ChatML template), phi3 (SentencePiece, 32,064). */
export type RealVocab = 'qwen2' | 'phi3' | 'qwen2-512';

interface Recipe {
  file: string;
  options: VocabModelOptions;
}

// f32 weights: llama.cpp's CPU kernels for f16 weights round differently when several sequences
// decode in one batch, so a near-tie between tokens can break the other way at concurrency 4 than
// alone (seen on the phi-3 model); with f32 weights batching changes no output bit.
const DECODERS: Record<RealVocab, Recipe> = {
  qwen2: { file: 'ggml-vocab-qwen2.gguf', options: { arch: 'qwen2', dtype: 'f32', name: 'svc-qwen2-vocab' } },
  // qwen2's vocabulary at a realistic width (10-27 ms a token on one thread), for speed figures: a
  // 64-wide model's sub-millisecond forward pass exaggerates every per-token overhead. f16: 152k x 512.
  'qwen2-512': {
    file: 'ggml-vocab-qwen2.gguf',
    options: { arch: 'qwen2', embd: 512, layers: 4, name: 'svc-qwen2-512' },
  },
  // phi3's own graph wants fused qkv/gate-up tensors; its SentencePiece vocabulary is the point here.
  phi3: { file: 'ggml-vocab-phi-3.gguf', options: { arch: 'llama', dtype: 'f32', name: 'svc-phi3-vocab' } },
};

/** Writes `bytes` to `path` through a temporary name: test files run in parallel. */
function writeAtomic(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
}

const sha16 = (...parts: (string | Uint8Array)[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 16);
};

/** A bare clone of llama.cpp's bundled source, made once per bundle (keyed by its size and mtime). */
function llamaSource(): string {
  const st = statSync(BUNDLE);
  const dir = join(CACHE, `llama-src-${sha16(String(st.size), String(st.mtimeMs))}.git`);
  if (!existsSync(join(dir, 'HEAD'))) {
    if (existsSync(CACHE)) removeStale(CACHE, 'llama-src-', '.git', basename(dir));
    const tmp = `${dir}.${process.pid}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(CACHE, { recursive: true });
    execFileSync('git', ['clone', '--quiet', '--bare', BUNDLE, tmp], { stdio: 'pipe' });
    try {
      renameSync(tmp, dir);
    } catch (error) {
      // Another process made it first: theirs is the same.
      rmSync(tmp, { recursive: true, force: true });
      if (!existsSync(join(dir, 'HEAD'))) throw error;
    }
  }
  return dir;
}

/** The bytes of llama.cpp's `models/<file>` (a vocab-only GGUF such as ggml-vocab-qwen2.gguf). */
export function llamaVocabFile(file: string): Uint8Array {
  return execFileSync('git', ['--git-dir', llamaSource(), 'show', `HEAD:models/${file}`], { maxBuffer: 1 << 26 });
}

// The synthesizer's own sources are part of the cache key: a change to them rewrites the models.
const SYNTH_SOURCES = ['src/model/gguf.ts', 'src/model/vocab-model.ts'].map((p) => readFileSync(join(ROOT, p)));

/** Removes the files in `dir` named `<prefix><16 hex digits><suffix>` but `keep`: earlier versions of a cached file. */
function removeStale(dir: string, prefix: string, suffix: string, keep: string): void {
  const stale = new RegExp(
    `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[0-9a-f]{16}${suffix.replace('.', '\\.')}$`,
  );
  for (const f of readdirSync(dir))
    if (f !== keep && stale.test(f)) rmSync(join(dir, f), { recursive: true, force: true });
}

function ensureModel(recipe: Recipe): string {
  const vocab = llamaVocabFile(recipe.file);
  const key = sha16(vocab, JSON.stringify(recipe.options), ...SYNTH_SOURCES);
  const name = `${recipe.options.name}-${key}.gguf`;
  const path = join(CACHE, 'models', name);
  if (!existsSync(path)) writeAtomic(path, makeVocabModel(tokenizerMeta(readGgufMeta(vocab)), recipe.options));
  // A model of older sources or another vocabulary is never used again: 45 MB each for qwen2.
  removeStale(dirname(path), `${recipe.options.name}-`, '.gguf', name);
  return path;
}

/** Path of a small random-weights decoder carrying a real vocabulary (made once, cached in .tmp/models). */
export async function realVocabModel(vocab: RealVocab): Promise<string> {
  const recipe = DECODERS[vocab];
  if (!recipe) throw new Error(`unknown vocabulary ${vocab} (${Object.keys(DECODERS).join(', ')})`);
  return ensureModel(recipe);
}

/**
 * Path of a small random-weights BERT model with bge's WordPiece vocabulary: an embedding model,
 * CLS- or mean-pooled, or with `'rank'` a reranker with a classification head (as bge-reranker).
 */
export async function bertEmbeddingModel(pooling: 'cls' | 'mean' | 'rank' = 'cls'): Promise<string> {
  // f32 so a test can recompute its vectors exactly from the file's weights.
  return ensureModel({
    file: 'ggml-vocab-bert-bge.gguf',
    options: { arch: 'bert', pooling, dtype: 'f32', name: `svc-bert-bge-${pooling}` },
  });
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const paths = {
    stories260K: STORIES_MODEL,
    qwen2: await realVocabModel('qwen2'),
    phi3: await realVocabModel('phi3'),
    bertCls: await bertEmbeddingModel('cls'),
    bertMean: await bertEmbeddingModel('mean'),
    bertRank: await bertEmbeddingModel('rank'),
  };
  console.log(JSON.stringify(paths, null, 2));
}
