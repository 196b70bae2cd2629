// Runs the edge worker in workerd through Miniflare with real KV, D1, R2 and Durable Object
// bindings (in memory), the D1 migrations applied and a model in R2: the trained stories260K by
// default, the any-character test model where reaching every character matters.
import { Miniflare } from 'miniflare';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEdge } from '../../src/edge/build.js';
import { modelObjectKey, modelTag } from '../../src/edge/engine/model-store.js';
import { makeTestModel } from '../../src/model/test-model.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** GENERATE_MODEL of the test worker; /embed runs it too unless a test names an EMBED_MODEL. */
export const MODEL_NAME = 'stories260K';
export const MODEL_VERSION = '1';

export type ModelChoice = 'stories' | 'test';
/** The GGUF bytes of a model: stories260K (models/, committed) or the synthesized test model. */
export function modelBytes(model: ModelChoice): Uint8Array {
  return model === 'stories' ? new Uint8Array(readFileSync(join(ROOT, 'models/stories260K.gguf'))) : makeTestModel();
}

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
  /** Which model to upload (default stories260K). */
  model?: ModelChoice;
  /** Serve HTTP on this loopback port (0 = any free one); the bench uses it. */
  port?: number;
  /** Open workerd's V8 inspector on this loopback port; the bench reads the isolate's heap there. */
  inspectorPort?: number;
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
    ...(opts.inspectorPort !== undefined ? { inspectorPort: opts.inspectorPort } : {}),
    d1Databases: ['DB'],
    kvNamespaces: ['CACHE'],
    r2Buckets: ['MODELS'],
    durableObjects: { ENGINE: { className: 'EngineObject', useSQLite: true } },
    bindings: {
      GENERATE_MODEL: MODEL_NAME,
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
  if (opts.seedModel !== false) await seedModel(kv, r2, MODEL_VERSION, opts.model);
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
    /** The tag cache keys carry for a model in R2 now: `<name>-<version>@<etag>:<engine>`. */
    tag: async (version = MODEL_VERSION, name = MODEL_NAME): Promise<string> =>
      modelTag(name, version, (await r2.head(modelObjectKey(name, version))).etag),
    /** The engine object of a model (the generator's by default). */
    engine: async (name = MODEL_NAME): Promise<{ fetch: (url: string, init?: RequestInit) => Promise<Response> }> => {
      const ns: any = await mf.getDurableObjectNamespace('ENGINE');
      return ns.get(ns.idFromName(name));
    },
  };
}

export type Worker = Awaited<ReturnType<typeof startWorker>>;

/** Uploads a model as docs/edge.md says: its version in KV, its bytes in R2 (the generator's name by default). */
export async function seedModel(
  kv: { put: Function },
  r2: { put: Function },
  version = MODEL_VERSION,
  model: ModelChoice | Uint8Array = 'stories',
  name = MODEL_NAME,
) {
  await kv.put(`model_version:${name}`, version);
  const bytes = typeof model === 'string' ? modelBytes(model) : model;
  // Miniflare's proxy wants a plain ArrayBuffer, not a view of one.
  await r2.put(modelObjectKey(name, version), bytes.slice().buffer);
}

/** The workerd processes this process started (Miniflare runs one per instance). */
export function workerdPids(): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='])
    .toString()
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/));
  const children = (pid: number): number[] =>
    rows.filter((r) => Number(r[1]) === pid).flatMap((r) => [Number(r[0]), ...children(Number(r[0]))]);
  return children(process.pid).filter((pid) => rows.find((r) => Number(r[0]) === pid)?.[2]?.startsWith('workerd'));
}

/** Resident and peak resident memory of a process in MiB (Linux /proc). */
export function processMemory(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)![1]);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
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
