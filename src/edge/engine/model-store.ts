// Where the model comes from (SPEC 9): version in KV `model_version:<name>`, bytes in R2 at
// `models/<name>-<version>.bin`. Errors name what is missing.
//
// The model's tag (`<name>-<version>@<R2 etag>`) names the exact bytes: the version says which
// file, the etag (the MD5 of the upload) which upload of it. Cache keys carry the tag, so neither a
// new version nor a new upload under the same version can be answered from an older model's cache.
import type { Env, KVNamespace, R2Bucket } from '../types.js';

export function modelObjectKey(name: string, version: string): string {
  return `models/${name}-${version}.bin`;
}

export function modelTag(name: string, version: string, etag: string): string {
  return `${name}-${version}@${etag}`;
}

async function locate(env: { MODEL_NAME: string; CACHE: KVNamespace }): Promise<{ name: string; version: string; key: string }> {
  const name = env.MODEL_NAME;
  if (!name) throw new Error('MODEL_NAME is not configured');
  const version = await env.CACHE.get(`model_version:${name}`);
  if (version === null || version === '') throw new Error(`Model version not found in KV: model_version:${name}`);
  return { name, version, key: modelObjectKey(name, version) };
}

/** The tag of the model that serves now, from R2's metadata alone (no bytes are read). */
export async function currentModelTag(env: { MODEL_NAME: string; CACHE: KVNamespace; MODELS: R2Bucket }): Promise<string> {
  const { name, version, key } = await locate(env);
  const head = await env.MODELS.head(key);
  if (!head) throw new Error(`Model not found in R2: ${key}`);
  return modelTag(name, version, head.etag);
}

export async function fetchModel(env: Env): Promise<{ name: string; version: string; key: string; tag: string; bytes: ArrayBuffer }> {
  const { name, version, key } = await locate(env);
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
