// Two-level cache (SPEC 4.3): KV for hot entries, D1 for persistence.
//
// Read: KV first; on a miss, D1 (bumping accessed_at and access_count); a D1 entry read more than
// 10 times goes back into KV for an hour. Write: both levels (KV with the TTL, D1 upsert).
// Cleanup: D1 rows not read for 30 days, and rows beyond the SPEC 8 entry limits (least recently
// read first). Embeddings use the same scheme keyed by the SHA-256 of the model tag and the text.
import { CACHE_RULES, CLEANUP_AFTER_S, KV_MAX_KEY_BYTES, PROMOTE_AFTER_ACCESSES, PROMOTION_TTL_S } from './config.js';
import { storableText } from './text.js';
import type { D1Database, KVNamespace } from './types.js';

const now = () => Math.floor(Date.now() / 1000);
const enc = new TextEncoder();

/**
 * The cache key for generation: SPEC 2.3's `gen:<prompt>:<max_tokens>`, under the tag of the model
 * that computes it (`<name>-<version>@<etag>/gen:...`, see engine/model-store.ts), so a new model
 * version or upload never answers from an older model's entries. A constrained request's key starts
 * `genc:<constraint id>:` instead (constraintKeyId), so it never meets a plain one's.
 */
export function generationKey(
  modelTag: string,
  prompt: string,
  maxTokens: number,
  constraintId: string | null = null,
): string {
  return constraintId === null
    ? `${modelTag}/gen:${prompt}:${maxTokens}`
    : `${modelTag}/genc:${constraintId}:${prompt}:${maxTokens}`;
}

/** A constraint's part of the cache key: the SHA-256 of its key (its kind and input, as the library keys it). */
export const constraintKeyId = (constraintKey: string): Promise<string> => sha256Hex(constraintKey);

/** The embedding cache's text_hash: SHA-256 of the text under the model's tag (as above). */
export function embeddingHash(modelTag: string, text: string): Promise<string> {
  return sha256Hex(`${modelTag}/${text}`);
}

export async function sha256Hex(s: string): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', enc.encode(s));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The KV key for a cache key: itself when KV accepts it, else a hash (D1 keeps the full key). */
export async function kvKey(cacheKey: string): Promise<string> {
  return enc.encode(cacheKey).length <= KV_MAX_KEY_BYTES ? cacheKey : `gen#sha256:${await sha256Hex(cacheKey)}`;
}

export interface CacheHit {
  text: string;
  level: 'kv' | 'd1';
}

export class GenerationCache {
  constructor(
    private kv: KVNamespace,
    private db: D1Database,
  ) {}

  /** `defer` receives work that may finish after the response (promotion to KV). */
  async get(cacheKey: string, defer: (p: Promise<unknown>) => void): Promise<CacheHit | null> {
    const kk = await kvKey(cacheKey);
    const hot = await this.kv.get(kk);
    if (hot !== null) return { text: hot, level: 'kv' };
    const row = await this.db
      .prepare(
        `UPDATE generation_cache SET accessed_at = ?1, access_count = access_count + 1
         WHERE cache_key = ?2 RETURNING result, access_count`,
      )
      .bind(now(), cacheKey)
      .first<{ result: string; access_count: number }>();
    if (!row) return null;
    if (row.access_count > PROMOTE_AFTER_ACCESSES) {
      defer(this.kv.put(kk, row.result, { expirationTtl: PROMOTION_TTL_S }));
    }
    return { text: row.result, level: 'd1' };
  }

  async put(
    cacheKey: string,
    entry: { prompt: string; parameters: Record<string, unknown>; result: string; tokenCount?: number },
    ttlS: number,
  ): Promise<void> {
    const result = storableText(entry.result);
    const t = now();
    await Promise.all([
      this.kv.put(await kvKey(cacheKey), result, { expirationTtl: Math.max(60, ttlS) }),
      this.db
        .prepare(
          `INSERT INTO generation_cache (cache_key, prompt, parameters, result, token_count, created_at, accessed_at, access_count)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, 1)
           ON CONFLICT (cache_key) DO UPDATE SET result = excluded.result, token_count = excluded.token_count,
             parameters = excluded.parameters, accessed_at = excluded.accessed_at`,
        )
        .bind(
          cacheKey,
          storableText(entry.prompt),
          JSON.stringify(entry.parameters),
          result,
          entry.tokenCount ?? null,
          t,
        )
        .run(),
    ]);
  }
}

export class EmbeddingCache {
  constructor(
    private kv: KVNamespace,
    private db: D1Database,
  ) {}

  async get(modelTag: string, text: string): Promise<{ embedding: number[]; level: 'kv' | 'd1' } | null> {
    const hash = await embeddingHash(modelTag, text);
    const hot = await this.kv.get(`emb:${hash}`);
    if (hot !== null) return { embedding: JSON.parse(hot) as number[], level: 'kv' };
    const row = await this.db
      .prepare('SELECT embedding, dimension FROM embedding_cache WHERE text_hash = ?1')
      .bind(hash)
      .first<{ embedding: ArrayBuffer | number[]; dimension: number }>();
    if (!row) return null;
    const bytes = row.embedding instanceof ArrayBuffer ? new Uint8Array(row.embedding) : Uint8Array.from(row.embedding);
    // BLOBs come back as a fresh buffer; Float32Array needs 4-byte alignment, so copy to be safe.
    return { embedding: Array.from(new Float32Array(bytes.slice().buffer)), level: 'd1' };
  }

  async put(modelTag: string, text: string, embedding: number[]): Promise<void> {
    const hash = await embeddingHash(modelTag, text);
    const blob = new Uint8Array(new Float32Array(embedding).buffer);
    // KV holds the float32-rounded values, so a KV hit and a D1 hit return identical numbers.
    const rounded = Array.from(new Float32Array(embedding));
    await Promise.all([
      this.kv.put(`emb:${hash}`, JSON.stringify(rounded), { expirationTtl: CACHE_RULES['/embed'].ttlS }),
      this.db
        .prepare(
          `INSERT INTO embedding_cache (text_hash, text, embedding, dimension) VALUES (?1, ?2, ?3, ?4)
           ON CONFLICT (text_hash) DO NOTHING`,
        )
        .bind(hash, storableText(text), blob, embedding.length)
        .run(),
    ]);
  }
}

/**
 * Coalesces identical concurrent computations: one promise per key while it is in flight. With
 * `remember`, the last few results stay available after they settle, so a request that missed the
 * caches just before the first one's result was written there still does not compute it again
 * (outputs are deterministic: the same key always gives the same result).
 */
export class Coalescer<T> {
  private inflight = new Map<string, Promise<T>>();
  private recent = new Map<string, Promise<T>>();
  constructor(private readonly remember = 0) {}

  run(key: string, fn: () => Promise<T>): { promise: Promise<T>; joined: boolean } {
    const existing = this.inflight.get(key) ?? this.recent.get(key);
    if (existing) return { promise: existing, joined: true };
    const promise = fn();
    this.inflight.set(key, promise);
    promise.then(
      () => {
        this.inflight.delete(key);
        if (this.remember === 0) return;
        this.recent.set(key, promise);
        if (this.recent.size > this.remember) this.recent.delete(this.recent.keys().next().value!);
      },
      () => this.inflight.delete(key),
    );
    return { promise, joined: false };
  }
  get size(): number {
    return this.inflight.size;
  }
}

/** Deletes D1 rows not read for 30 days and trims both tables to the SPEC 8 entry limits. */
export async function cleanupCaches(db: D1Database, nowS = now()): Promise<{ generation: number; embedding: number }> {
  const [expired, genTrim, embTrim] = await db.batch([
    db.prepare('DELETE FROM generation_cache WHERE accessed_at < ?1').bind(nowS - CLEANUP_AFTER_S),
    db
      .prepare(
        `DELETE FROM generation_cache WHERE cache_key IN (
           SELECT cache_key FROM generation_cache ORDER BY accessed_at DESC LIMIT -1 OFFSET ?1)`,
      )
      .bind(CACHE_RULES['/generate'].maxEntries),
    db
      .prepare(
        `DELETE FROM embedding_cache WHERE text_hash IN (
           SELECT text_hash FROM embedding_cache ORDER BY created_at DESC LIMIT -1 OFFSET ?1)`,
      )
      .bind(CACHE_RULES['/embed'].maxEntries),
  ]);
  return {
    generation: (expired.meta.changes ?? 0) + (genTrim.meta.changes ?? 0),
    embedding: embTrim.meta.changes ?? 0,
  };
}
