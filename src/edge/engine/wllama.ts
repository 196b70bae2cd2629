// llama.cpp in WebAssembly (@wllama/wllama, pinned 3.8.1) running inside a workerd isolate.
//
// wllama's main-thread API (Wllama) talks to a Web Worker through postMessage. workerd has no Web
// Workers, so we hand Wllama an in-isolate stand-in: a Worker-shaped object whose "worker side" is
// wllama's own worker script, turned into a module at build time (svc:wllama-scope) and fed the
// precompiled wasm module (svc:wllama-wasm). Messages are delivered on later microtasks, as a real
// Worker would. Single-threaded (no SharedArrayBuffer messaging and no pthreads in workerd); the
// model bytes are read through JSPI-suspended async reads, which workerd supports natively.
import * as wllamaPkg from '@wllama/wllama/esm/index.js';
import wasmModule from 'svc:wllama-wasm';
import { createWllamaScope } from 'svc:wllama-scope';

// wllama's .d.ts files use extensionless relative re-exports, which NodeNext resolution cannot
// follow; this is the part of its API used here.
interface WllamaInstance {
  setCompat(c: null): void;
  loadModel(blobs: Blob[], params: Record<string, unknown>): Promise<void>;
  createCompletion(options: Record<string, unknown>): Promise<unknown>;
  createEmbedding(options: { input: string }): Promise<{ data: { embedding: number[] | string }[] }>;
}
const Wllama = (wllamaPkg as unknown as {
  Wllama: new (paths: Record<string, string>, config: Record<string, unknown>) => WllamaInstance;
}).Wllama;

/** Sampling is fixed by SPEC 1.1: temperature 0 and seed 42. */
export const ENGINE_SEED = 42;

/**
 * Generation is unconstrained text, expressed as a grammar over Unicode code points: any character
 * but NUL. It keeps sampling away from tokens that would make invalid UTF-8 (which wllama cannot
 * return, see generate()) while leaving every real character reachable; NUL is excluded because
 * llama.cpp's grammar engine uses code point 0 as its end marker. Greedy decoding picks the most
 * likely token among these, so for real text models this changes nothing. Surrogates are excluded
 * too. llama.cpp's grammar still admits a few overlong 3- and 4-byte sequences (E0 82..9F xx, F0
 * 80..8F xx xx); where the model picks one, generate() ends the text before it (see there).
 */
export const TEXT_GRAMMAR = 'root ::= [\\x01-\\uD7FF\\uE000-\\U0010FFFF]*';

class InIsolateWorker {
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  private deliver: ((data: unknown) => void) | null;

  constructor() {
    this.deliver = createWllamaScope(
      { pathConfig: { 'wllama.wasm': 'wllama.wasm' }, nbThread: 0, compat: false },
      (data) => queueMicrotask(() => this.onmessage?.({ data })),
      wasmModule,
    );
  }
  postMessage(data: unknown): void {
    queueMicrotask(() => {
      try {
        this.deliver?.(data);
      } catch (err) {
        this.onerror?.(err);
      }
    });
  }
  terminate(): void {
    this.deliver = null;
  }
}

/** Runs `fn` with the globals Wllama.loadModel needs for creating its worker, then restores them. */
async function withWorkerGlobals<T>(fn: () => Promise<T>): Promise<T> {
  const g = globalThis as Record<string, unknown>;
  // wllama resolves the wasm path against self.location (absent in workerd); the path is unused.
  if (!(g.self as { location?: unknown } | undefined)?.location) {
    (g.self as Record<string, unknown>).location = { href: 'https://wllama.invalid/' };
  }
  const prevWorker = g.Worker;
  const prevCreate = URL.createObjectURL;
  g.Worker = InIsolateWorker;
  URL.createObjectURL = () => 'blob:svc-wllama';
  try {
    return await fn();
  } finally {
    g.Worker = prevWorker;
    URL.createObjectURL = prevCreate;
  }
}

const quietLogger = {
  debug: () => {},
  log: () => {},
  warn: () => {},
  error: (...args: unknown[]) => console.error('[wllama]', ...args),
};

export interface LoadedModel {
  /** Greedy (temperature 0, seed 42) completion; `tokens` is the number of generated tokens. */
  generate(prompt: string, maxTokens: number): Promise<{ text: string; tokens: number }>;
  embed(text: string): Promise<number[]>;
}

/**
 * Loads a GGUF into two llama.cpp contexts: one for completion, one with embeddings on (llama.cpp's
 * server refuses completions on an embedding context). Both share the isolate's memory budget.
 */
export async function loadWllamaModel(bytes: ArrayBuffer | Uint8Array): Promise<LoadedModel> {
  const blob = new Blob([bytes as BlobPart]);
  const open = async (embeddings: boolean) => {
    // The model comes from R2 as bytes: wllama's download cache (OPFS/Cache API, absent in workerd)
    // and model manager are never used, so stand-ins keep the constructor from probing storage.
    const w = new Wllama(
      { default: 'wllama.wasm' },
      { suppressNativeLog: true, logger: quietLogger, cacheManager: {} as never, modelManager: {} as never },
    );
    w.setCompat(null);
    await withWorkerGlobals(() =>
      w.loadModel([blob], {
        n_threads: 1,
        n_gpu_layers: 0,
        n_ctx: 1024,
        n_parallel: 1,
        seed: ENGINE_SEED,
        embeddings,
        pooling_type: embeddings ? 'mean' : undefined,
        warmup: false,
      }),
    );
    return w;
  };
  let queue: Promise<unknown> = Promise.resolve();
  const serialize = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  const gen = await open(false);
  const emb = await open(true);
  return {
    generate(prompt, maxTokens) {
      // One completion at a time: a failing request makes wllama reject every task queued on the
      // same instance, so requests must not share the queue.
      return serialize(async () => {
        // Streamed, because llama.cpp's server then holds back an unfinished UTF-8 sequence (one
        // cut by max_tokens) instead of putting it into a JSON string: wllama serializes results
        // with nlohmann::json::dump() without the replace handler, which throws on invalid UTF-8.
        let text = '';
        let chunks = 0;
        let usage: number | undefined;
        try {
          await gen.createCompletion({
            prompt,
            max_tokens: maxTokens,
            temperature: 0,
            top_k: 1,
            seed: ENGINE_SEED,
            grammar: TEXT_GRAMMAR,
            stream: true,
            onData: (chunk: { choices?: { text?: string }[]; content?: string; usage?: { completion_tokens?: number } }) => {
              const piece = chunk.choices?.[0]?.text ?? chunk.content ?? '';
              if (piece) chunks++;
              text += piece;
              if (chunk.usage?.completion_tokens !== undefined) usage = chunk.usage.completion_tokens;
            },
          });
        } catch (err) {
          // The one serialization failure left (an overlong UTF-8 sequence the grammar admitted):
          // wllama's C++ throws while encoding that chunk and the JS side then reads a garbage
          // length. The text up to that point is valid and the failure is deterministic, so the
          // answer is the text before the invalid sequence.
          if (!(err instanceof Error) || !/Invalid typed array length/.test(err.message)) throw err;
        }
        return { text, tokens: usage ?? chunks };
      });
    },
    async embed(text) {
      const res = await emb.createEmbedding({ input: text });
      const v = res.data[0]?.embedding;
      if (!Array.isArray(v)) throw new Error('embedding engine returned no vector');
      return v;
    },
  };
}
