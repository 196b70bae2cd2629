// Numbers of SPEC 4.3 and 8 in one place, so tests, docs and wrangler.jsonc agree.
import { WASM_MAX_PAGES, WASM_PAGE_BYTES } from './engine/wasm-memory.js';
import type { Env } from './types.js';

/** /generate and the engine object default max_tokens (SPEC 4.3, 8). */
export const GENERATE_DEFAULT_MAX_TOKENS = 100;
/** Cache TTL when CACHE_TTL is unset (SPEC 2.3, 8). */
export const DEFAULT_CACHE_TTL_S = 86400;
/** A D1 hit is promoted back to KV, for an hour, once access_count exceeds this (SPEC 4.3). */
export const PROMOTE_AFTER_ACCESSES = 10;
export const PROMOTION_TTL_S = 3600;
/** D1 rows not read for 30 days are deleted by the cleanup (SPEC 4.3). */
export const CLEANUP_AFTER_S = 30 * 86400;
/**
 * The longest prompt or embed text, in UTF-8 bytes: 1024 tokens (the engine's n_ctx) of 16 bytes.
 * No text this long fits a model's context with a real tokenizer (tokens average a few bytes), so
 * nothing that could be answered is refused. llama.cpp's tokenizer works on copies of the text inside
 * the engine's wasm heap: a 1 MB prompt failed with std::bad_alloc at the 64 MiB maximum, a 32 KiB
 * one took the heap from 40 to 48 MiB (it never shrinks); and an 8 MB prompt made a cache key too
 * big for D1 (SQLITE_TOOBIG).
 */
export const INPUT_MAX_BYTES = 16384;
/**
 * The largest request body read, in bytes: room for INPUT_MAX_BYTES of text even if every byte is
 * written as a JSON escape (\u0001: 6 bytes), and the other fields. The platform admits 100 MB
 * bodies, and parsing one would take the isolate past its 128 MB.
 */
export const BODY_MAX_BYTES = 131072;
/** KV refuses keys over 512 bytes; longer cache keys are hashed for KV only (D1 keeps the full key). */
export const KV_MAX_KEY_BYTES = 512;

/** The sample cache rules of SPEC 8, as configuration. */
export const CACHE_RULES = {
  '/generate': {
    /** Prompts served to anonymous callers are "common": cached for the full day. */
    commonTtlS: 86400,
    /** Prompts of an identified caller (X-API-Key) are "user prompts": one hour in KV. */
    userTtlS: 3600,
    /** D1 keeps at most this many rows; cleanup drops the least recently accessed beyond it. */
    maxEntries: 10000,
  },
  '/embed': { ttlS: 604800, maxEntries: 50000 },
} as const;

/** Metrics events are buffered per isolate and flushed at 100 events or every 10 s (SPEC 8). */
export const METRICS_FLUSH_EVENTS = 100;
export const METRICS_FLUSH_INTERVAL_MS = 10_000;
/** The metrics route reports the last hour. */
export const METRICS_WINDOW_S = 3600;

/** Sample rate limiter: 100 requests per 60 s per key; counters expire after two windows (SPEC 8). */
export const RATE_LIMIT_DEFAULT = { max: 100, windowS: 60 };

export function cacheTtl(env: Env): number {
  const n = Number(env.CACHE_TTL);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_CACHE_TTL_S;
}

/** Upper bound for max_tokens: the deployment's DEFAULT_MAX_TOKENS variable (512). */
export function maxTokensLimit(env: Env): number {
  const n = Number(env.DEFAULT_MAX_TOKENS);
  return Number.isInteger(n) && n > 0 ? n : 512;
}

/**
 * The most the engine's wasm heap may grow to, in 64 KiB pages: the deployment's
 * ENGINE_WASM_MAX_MIB, 64 MiB by default (WASM_MAX_PAGES: what stories260K and svc-embed need, with
 * room in the isolate's 128 MB). A model's weights count in full, so a larger model needs more; one
 * over ~100 MB cannot run within Cloudflare's 128 MB at all (docs/edge.md, Memory).
 */
export function wasmMaxPages(env: Env): number {
  const n = Number(env.ENGINE_WASM_MAX_MIB);
  return Number.isInteger(n) && n >= 16 ? n * 16 : WASM_MAX_PAGES;
}

/**
 * The engine's wasm heap, in bytes, past which the engine object replaces its instance after a call
 * (engine-object.ts recycleIfGrown): the deployment's ENGINE_RECYCLE_MIB, by default 12 MiB below the
 * maximum (52 of 64 MiB), more than one of the heap's growth steps (8-10 MiB).
 */
export function recycleAtBytes(env: Env): number {
  const n = Number(env.ENGINE_RECYCLE_MIB);
  return Number.isFinite(n) && n > 0 ? n * 2 ** 20 : (wasmMaxPages(env) - 12 * 16) * WASM_PAGE_BYTES;
}

/** The model each endpoint runs, by name (GENERATE_MODEL, EMBED_MODEL: the worker's model per function, as SQL's svc.generate_model and svc.embed_model). */
export function endpointModel(env: Env, endpoint: '/generate' | '/embed'): string {
  const name = endpoint === '/embed' ? env.EMBED_MODEL || env.GENERATE_MODEL : env.GENERATE_MODEL;
  if (!name)
    throw new Error(
      'GENERATE_MODEL is not configured (wrangler.jsonc vars: the model of /generate, and of /embed unless EMBED_MODEL names one)',
    );
  return name;
}

export function flag(v: string | undefined): boolean {
  return v === 'true' || v === '1';
}
