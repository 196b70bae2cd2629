// The slice of the Workers runtime API this worker uses. The project does not depend on
// @cloudflare/workers-types (typecheck runs with Node types), so the bindings are declared here.

export interface KVNamespace {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface D1Result<T = Record<string, unknown>> {
  results: T[];
  success: boolean;
  meta: { changes?: number; [k: string]: unknown };
}
export interface D1PreparedStatement {
  bind(...values: unknown[]): D1PreparedStatement;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  all<T = Record<string, unknown>>(): Promise<D1Result<T>>;
  run(): Promise<D1Result>;
}
export interface D1Database {
  prepare(sql: string): D1PreparedStatement;
  batch(statements: D1PreparedStatement[]): Promise<D1Result[]>;
}

export interface R2Object {
  size: number;
  /** The MD5 of a single-part upload (a new one for every upload). */
  etag: string;
}
export interface R2ObjectBody extends R2Object {
  arrayBuffer(): Promise<ArrayBuffer>;
}
export interface R2Bucket {
  get(key: string): Promise<R2ObjectBody | null>;
  head(key: string): Promise<R2Object | null>;
}

export interface DurableObjectId {}
export interface DurableObjectStub {
  fetch(input: string | Request, init?: RequestInit): Promise<Response>;
}
export interface DurableObjectNamespace {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): DurableObjectStub;
}
export interface DurableObjectState {
  blockConcurrencyWhile<T>(fn: () => Promise<T>): Promise<T>;
}

export interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException?(): void;
}

/** Bindings and plain variables of wrangler.jsonc (SPEC 2.3). */
export interface Env {
  DB: D1Database;
  CACHE: KVNamespace;
  MODELS: R2Bucket;
  ENGINE: DurableObjectNamespace;
  /**
   * The model of /generate, by name (stories260K, or a name `svc models pull` knows); its version
   * comes from KV `model_version:<name>`, its bytes from R2 `models/<name>-<version>.bin`.
   */
  GENERATE_MODEL: string;
  /** The model of /embed, likewise (svc-embed); unset: GENERATE_MODEL's. */
  EMBED_MODEL?: string;
  /** Default max tokens of the deployment (512, SPEC 2.3); /generate itself defaults to 100 (SPEC 8). */
  DEFAULT_MAX_TOKENS: string;
  /** Cache TTL in seconds (86400). */
  CACHE_TTL: string;
  /** "true" turns on the X-API-Key check (SPEC 5.1, optional). */
  REQUIRE_API_KEY?: string;
  /** "true" turns on the sample rate limiter (SPEC 8, optional). */
  RATE_LIMIT?: string;
  RATE_LIMIT_MAX?: string;
  RATE_LIMIT_WINDOW_S?: string;
  /** Metrics route path (SPEC leaves it open; default /metrics). */
  METRICS_PATH?: string;
  /** MiB of the engine's wasm heap past which its instance is replaced (config.ts recycleAtBytes; default 12 below the maximum: 52). */
  ENGINE_RECYCLE_MIB?: string;
  /** MiB the engine's wasm heap may grow to (config.ts wasmMaxPages; default 64). */
  ENGINE_WASM_MAX_MIB?: string;
}
