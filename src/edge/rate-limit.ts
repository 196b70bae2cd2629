// Sample rate limiter (SPEC 8): fixed windows of `windowS` seconds, at most `max` requests per key
// per window, counters in KV expiring after two windows. Optional (RATE_LIMIT=true).
//
// KV is eventually consistent and has no atomic increment, so under concurrency across locations
// this admits somewhat more than `max` — it is the spec's sample component, not a hard quota.
// A strict limiter would keep the counter in a Durable Object.
import { RATE_LIMIT_DEFAULT } from './config.js';
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
export async function rateLimit(kv: KVNamespace, id: string, opts: RateLimitOptions, nowMs = Date.now()): Promise<void> {
  const window = Math.floor(nowMs / 1000 / opts.windowS);
  const key = `rate:${id}:${window}`;
  const count = Number((await kv.get(key)) ?? '0');
  if (count >= opts.max) {
    const retryAfter = Math.max(1, (window + 1) * opts.windowS - Math.floor(nowMs / 1000));
    throw new HttpError(429, 'Rate limit exceeded', { 'Retry-After': String(retryAfter) });
  }
  // KV's smallest TTL is 60 s; two windows is never below that with the default window.
  await kv.put(key, String(count + 1), { expirationTtl: Math.max(60, 2 * opts.windowS) });
}

/** Who is limited: the API key when there is one, else the client address. */
export function rateLimitId(request: Request, apiKey: string | null): string {
  if (apiKey) return `key:${apiKey}`;
  return `ip:${request.headers.get('CF-Connecting-IP') ?? 'unknown'}`;
}
