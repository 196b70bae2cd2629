// Optional API-key check (SPEC 5.1): the key's presence in KV under `api_key:<key>` admits it.
import { HttpError } from './http.js';
import type { Env } from './types.js';

/** Returns the admitted key, or throws 401/403 with the plain bodies of SPEC 5.1. */
export async function checkApiKey(request: Request, env: Env): Promise<string> {
  const key = request.headers.get('X-API-Key');
  if (key === null || key === '') throw new HttpError(401, 'Unauthorized');
  // KV keys are at most 512 bytes: a longer header can never be a stored key.
  if (new TextEncoder().encode(key).length > 500) throw new HttpError(403, 'Invalid API key');
  const entry = await env.CACHE.get(`api_key:${key}`);
  if (entry === null) throw new HttpError(403, 'Invalid API key');
  return key;
}
