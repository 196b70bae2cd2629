// Where a model comes from (SPEC 9): version in KV `model_version:<name>`, bytes in R2 at
// `models/<name>-<version>.bin`. Errors name what is missing. The names are GENERATE_MODEL's and
// EMBED_MODEL's (router.ts), the names `svc models pull` knows (stories260K, svc-embed, bge-small-en, …).
//
// The model's tag (`<name>-<version>@<R2 etag>:<engine>`) names the exact bytes and what computes
// with them: the version says which file, the etag (the MD5 of the upload) which upload of it, the
// engine which llama.cpp build (EDGE_ENGINE). Cache keys carry the tag, so neither a new version, a
// new upload under the same version, nor another engine build is answered from an older entry.
import type { KVNamespace, R2Bucket } from '../types.js';

/**
 * The engine that computes the edge's answers: wllama's version pins its llama.cpp build (a build
 * other than node-llama-cpp's, whose answers can differ: docs/edge.md, "One answer on every
 * surface"). test/edge/policy.test.ts keeps it equal to the installed package's version.
 */
export const EDGE_ENGINE = 'wllama-3.8.1';

export function modelObjectKey(name: string, version: string): string {
  return `models/${name}-${version}.bin`;
}

export function modelTag(name: string, version: string, etag: string): string {
  return `${name}-${version}@${etag}:${EDGE_ENGINE}`;
}

type Store = { CACHE: KVNamespace; MODELS: R2Bucket };

async function locate(
  env: { CACHE: KVNamespace },
  name: string,
): Promise<{ name: string; version: string; key: string }> {
  const version = await env.CACHE.get(`model_version:${name}`);
  if (version === null || version === '') throw new Error(`Model version not found in KV: model_version:${name}`);
  return { name, version, key: modelObjectKey(name, version) };
}

/** The tag of the model that serves now, from R2's metadata alone (no bytes are read). */
export async function currentModelTag(env: Store, model: string): Promise<string> {
  const { name, version, key } = await locate(env, model);
  const head = await env.MODELS.head(key);
  if (!head) throw new Error(`Model not found in R2: ${key}`);
  return modelTag(name, version, head.etag);
}

export async function fetchModel(
  env: Store,
  model: string,
): Promise<{ name: string; version: string; key: string; tag: string; bytes: ArrayBuffer }> {
  const { name, version, key } = await locate(env, model);
  const obj = await env.MODELS.get(key);
  if (!obj) throw new Error(`Model not found in R2: ${key}`);
  return { name, version, key, tag: modelTag(name, version, obj.etag), bytes: await obj.arrayBuffer() };
}

/**
 * Why bytes are not a model llama.cpp can load, checked before the wasm is started: the GGUF magic
 * and a version llama.cpp reads (2 or 3). A truncated file passes this and fails in llama.cpp.
 */
export function ggufProblem(bytes: ArrayBuffer): string | null {
  if (bytes.byteLength < 8) return `not a GGUF file (${bytes.byteLength} bytes)`;
  const view = new DataView(bytes, 0, 8);
  if (view.getUint32(0, false) !== 0x47475546) return 'not a GGUF file (no GGUF magic)';
  const version = view.getUint32(4, true);
  if (version !== 2 && version !== 3) return `GGUF version ${version} is not supported (2 or 3)`;
  return null;
}
