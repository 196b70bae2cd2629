// Runs the edge worker in workerd through Miniflare with real KV, D1, R2 and Durable Object
// bindings (in memory), the D1 migrations applied and the test model in R2.
import { Miniflare } from 'miniflare';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEdge } from '../../src/edge/build.js';
import { makeTestModel } from '../../src/model/test-model.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const MODEL_NAME = 'svc-test';
export const MODEL_VERSION = '1';

let built: Promise<{ main: string; wasm: string; outDir: string }> | null = null;
/** Builds the worker bundle once per test file (about a second). */
export function buildOnce() {
  built ??= buildEdge(mkdtempSync(join(tmpdir(), 'svc-edge-')));
  return built;
}

/** SQL statements of the D1 migrations, in file order. */
export function migrationStatements(): string[] {
  const dir = join(ROOT, 'src/edge/migrations');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => !l.trim().startsWith('--'))
        .join('\n')
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean),
    );
}

export interface WorkerOptions {
  vars?: Record<string, string>;
  /** Upload the model and its version (default true). */
  seedModel?: boolean;
  /** Serve HTTP on this loopback port (0 = any free one); the bench uses it. */
  port?: number;
}

export async function startWorker(opts: WorkerOptions = {}) {
  const { main, wasm, outDir } = await buildOnce();
  const mf = new Miniflare({
    modules: [
      { type: 'ESModule', path: main },
      { type: 'CompiledWasm', path: wasm },
    ],
    modulesRoot: outDir,
    compatibilityDate: '2025-01-01',
    cf: false,
    ...(opts.port !== undefined ? { host: '127.0.0.1', port: opts.port } : {}),
    d1Databases: ['DB'],
    kvNamespaces: ['CACHE'],
    r2Buckets: ['MODELS'],
    durableObjects: { ENGINE: { className: 'EngineObject', useSQLite: true } },
    bindings: {
      MODEL_NAME,
      DEFAULT_MAX_TOKENS: '512',
      CACHE_TTL: '86400',
      ...opts.vars,
    },
  });
  const url = await mf.ready;
  // Miniflare types these proxies with @cloudflare/workers-types, which this project does not load.
  const db: any = await mf.getD1Database('DB');
  for (const sql of migrationStatements()) await db.prepare(sql).run();
  const kv: any = await mf.getKVNamespace('CACHE');
  const r2: any = await mf.getR2Bucket('MODELS');
  if (opts.seedModel !== false) await seedModel(kv, r2);
  return {
    mf,
    url,
    db,
    kv,
    r2,
    fetch: (path: string, init?: RequestInit & { cf?: Record<string, unknown> }) =>
      mf.dispatchFetch(`http://localhost${path}`, init as never),
    post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      mf.dispatchFetch(`http://localhost${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    engine: async (): Promise<{ fetch: (url: string, init?: RequestInit) => Promise<Response> }> => {
      const ns: any = await mf.getDurableObjectNamespace('ENGINE');
      return ns.get(ns.idFromName(MODEL_NAME));
    },
  };
}

export type Worker = Awaited<ReturnType<typeof startWorker>>;

export async function seedModel(kv: { put: Function }, r2: { put: Function }, version = MODEL_VERSION) {
  await kv.put(`model_version:${MODEL_NAME}`, version);
  const bytes = makeTestModel();
  // Miniflare's proxy wants a plain ArrayBuffer, not a view of one.
  await r2.put(`models/${MODEL_NAME}-${version}.bin`, bytes.slice().buffer);
}

/** Polls until `fn` returns a truthy value (waitUntil work finishes after the response). */
export async function eventually<T>(fn: () => Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
