// Sample rate limiter (SPEC 8): fixed windows of `windowS` seconds, at most `max` requests per key
// per window, counters in KV expiring after two windows. Optional (RATE_LIMIT=true).
//
// KV is eventually consistent and has no atomic increment, so under concurrency across locations
// this admits somewhat more than `max` — it is the spec's sample component, not a hard quota.
// A strict limiter would keep the counter in a Durable Object.
import { sha256Hex } from './cache.js';
import { KV_MAX_KEY_BYTES, RATE_LIMIT_DEFAULT } from './config.js';
import { HttpError } from './http.js';
import type { Env, KVNamespace } from './types.js';

export interface RateLimitOptions {
  max: number;
  windowS: number;
}

export function rateLimitOptions(env: Env): RateLimitOptions {
  const max = Number(env.RATE_LIMIT_MAX);
  const windowS = Number(env.RATE_LIMIT_WINDOW_S);
  return {
    max: Number.isInteger(max) && max > 0 ? max : RATE_LIMIT_DEFAULT.max,
    windowS: Number.isInteger(windowS) && windowS > 0 ? windowS : RATE_LIMIT_DEFAULT.windowS,
  };
}

/** Counts one request for `id`; throws 429 with Retry-After once the window's budget is spent. */
export async function rateLimit(
  kv: KVNamespace,
  id: string,
  opts: RateLimitOptions,
  nowMs = Date.now(),
): Promise<void> {
  const window = Math.floor(nowMs / 1000 / opts.windowS);
  let key = `rate:${id}:${window}`;
  // An admitted API key can be up to 500 bytes: too long for a KV key with this prefix.
  if (new TextEncoder().encode(key).length > KV_MAX_KEY_BYTES) key = `rate#sha256:${await sha256Hex(id)}:${window}`;
  const count = Number((await kv.get(key)) ?? '0');
  if (count >= opts.max) {
    const retryAfter = Math.max(1, (window + 1) * opts.windowS - Math.floor(nowMs / 1000));
    throw new HttpError(429, 'Rate limit exceeded', { 'Retry-After': String(retryAfter) });
  }
  // KV's smallest TTL is 60 s; two windows is never below that with the default window.
  await kv.put(key, String(count + 1), { expirationTtl: Math.max(60, 2 * opts.windowS) });
}

/**
 * Who is limited: the API key once auth has verified it, else the client address. Never an
 * unchecked X-API-Key header: a client could send a new one with every request.
 */
export function rateLimitId(request: Request, verifiedKey: string | null): string {
  if (verifiedKey) return `key:${verifiedKey}`;
  return `ip:${request.headers.get('CF-Connecting-IP') ?? 'unknown'}`;
}
