// Where the model comes from (SPEC 9): version in KV `model_version:<name>`, bytes in R2 at
// `models/<name>-<version>.bin`. Errors name what is missing.
import type { Env } from '../types.js';

export function modelObjectKey(name: string, version: string): string {
  return `models/${name}-${version}.bin`;
}

export async function fetchModel(env: Env): Promise<{ name: string; version: string; key: string; bytes: ArrayBuffer }> {
  const name = env.MODEL_NAME;
  if (!name) throw new Error('MODEL_NAME is not configured');
  const version = await env.CACHE.get(`model_version:${name}`);
  if (version === null || version === '') throw new Error(`Model version not found in KV: model_version:${name}`);
  const key = modelObjectKey(name, version);
  const obj = await env.MODELS.get(key);
  if (!obj) throw new Error(`Model not found in R2: ${key}`);
  return { name, version, key, bytes: await obj.arrayBuffer() };
}
