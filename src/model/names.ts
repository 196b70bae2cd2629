// Models by name, one way everywhere (#53): a name `svc models pull` accepts works as the worker's
// and the `svc` command's --model, SVC_MODEL, the library's model options and configure, and as
// GENERATE_MODEL / EMBED_MODEL of the edge (where it names the file uploaded under it). The names are
// the two models svc ships in models/ and the recommended ones (recommended.ts); each stands for a
// file (a shipped one) or a hub URI (fetched once into the model cache, src/model/fetch.ts).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RECOMMENDED_MODELS } from './recommended.js';

export interface ShippedModel {
  name: string;
  role: 'generate' | 'embed';
  /** The file in svc's models/ directory. */
  file: string;
  summary: string;
}

/** The offline defaults in models/ (models/README.md): the generator and the embedder. */
export const SHIPPED_MODELS: readonly ShippedModel[] = [
  {
    name: 'stories260K',
    role: 'generate',
    file: 'stories260K.gguf',
    summary:
      'a 260K-parameter Llama trained on TinyStories: short English stories, 512 tokens; the default generator (1.2 MB, shipped)',
  },
  {
    name: 'svc-embed',
    role: 'embed',
    file: 'svc-embed.gguf',
    summary:
      "svc's word-vector embedder (Brown corpus, WordNet): English, 128 dimensions; the default embedder and ranker (8.9 MB, shipped)",
  },
];

/**
 * The model each function runs when none is named anywhere (no model option, configure({ model }) or
 * SVC_MODEL): the shipped generator, and the shipped embedder for embeddings and ranking, as the
 * edge's GENERATE_MODEL and EMBED_MODEL in wrangler.jsonc.
 */
export const DEFAULT_MODELS = { generate: 'stories260K', embed: 'svc-embed', rerank: 'svc-embed' } as const;

export type ModelPurpose = keyof typeof DEFAULT_MODELS;

/** svc's package root: the first directory above this module with svc's package.json (src/model/ in a clone, dist/lib/src/model/ installed). */
function packageRoot(): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'svc')
      return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

let root: string | null | undefined;

/** Where a shipped model's file is (it may be absent from a copy of svc without models/). */
export function shippedModelPath(model: ShippedModel): string {
  root ??= packageRoot() ?? null;
  return join(root ?? process.cwd(), 'models', model.file);
}

/** Every name a model may be called by, shipped ones first. */
export const MODEL_NAMES: readonly string[] = [
  ...SHIPPED_MODELS.map((m) => m.name),
  ...RECOMMENDED_MODELS.map((m) => m.name),
];

/** What a model name stands for: a shipped model's file or a recommended model's hub URI; undefined for anything else (a path, a URI). */
export function modelSource(name: string): string | undefined {
  const shipped = SHIPPED_MODELS.find((m) => m.name === name);
  if (shipped) return shippedModelPath(shipped);
  return RECOMMENDED_MODELS.find((m) => m.name === name)?.uri;
}
