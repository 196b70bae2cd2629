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
import { WASM_INITIAL_PAGES, WASM_MAX_PAGES } from './wasm-memory.js';
import { ContextExceededError } from '../../engine/outcomes.js';
import { edgePooling } from './pooling.js';
import { servedModel } from './prompt-tokens.js';
import { edgeCapabilities } from './capabilities.js';
import { readGgufMeta } from '../../model/gguf.js';
import type { Capabilities } from '../../engine/capabilities.js';
import { modelFile, type ModelFile } from './model-file.js';
import { isGreedy, samplerSeed, type Sampling } from '../../decode/sampling.js';
import { StopScanner, grammarComplete } from '../../decode/stop.js';

const ENCODER = new TextEncoder();

// wllama's .d.ts files use extensionless relative re-exports, which NodeNext resolution cannot
// follow; this is the part of its API used here.
interface WllamaInstance {
  setCompat(c: null): void;
  loadModel(blobs: ModelFile[], params: Record<string, unknown>): Promise<void>;
  createCompletion(options: Record<string, unknown>): Promise<unknown>;
  createEmbedding(options: { input: string }): Promise<{ data: { embedding: number[] | string }[] }>;
  getLoadedContextInfo(): { success?: boolean; n_ctx: number; n_ctx_train: number; n_ubatch: number; n_vocab: number };
  exit(): Promise<void>;
}
const Wllama = (
  wllamaPkg as unknown as {
    Wllama: new (paths: Record<string, string>, config: Record<string, unknown>) => WllamaInstance;
  }
).Wllama;

/** SPEC 1.1: the edge generates with temperature 0 and seed 42 unless a request says otherwise (src/decode/sampling.ts). */
export const ENGINE_SEED = 42;

/** A generation's options besides its prompt and max_tokens. */
export interface EdgeGenerateOptions {
  /** GBNF the output follows (a constraint compiled by src/grammar); TEXT_GRAMMAR when not given. */
  grammar?: string;
  /** The draw's seed (default ENGINE_SEED); greedy output does not depend on it. */
  seed?: number;
  /** Sampling (temperature above 0); absent: greedy. */
  sampling?: Sampling;
  /** Stop strings, applied as the library's engine applies them (src/decode/stop.ts): the output ends before the first one. */
  stop?: readonly string[];
  /** Diagnostics (bench/divergence.ts): each generated token with this many likeliest at its step, in the result's `steps`. */
  logprobs?: number;
}

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

/**
 * The memory of the last closed instance, kept for the next load. An instance's memory was never
 * freed once it closed (workerd's RSS grew 12 MiB with every load: a replaced instance's shared wasm
 * memory is not collected), so the engine runs every instance in this one memory: zeroed, it is what
 * a fresh memory is to llama.cpp (its static data is written again at instantiation, the rest must be
 * zero), only already as large as the previous instance grew it.
 */
let spareMemory: { memory: WebAssembly.Memory; maxPages: number } | null = null;

/** A memory of at most `maxPages`: the spare one where it has that maximum (a deployment has one), else a new one. */
function takeMemory(maxPages: number): WebAssembly.Memory {
  const spare = spareMemory;
  spareMemory = null;
  if (spare?.maxPages === maxPages) {
    new Uint8Array(spare.memory.buffer).fill(0);
    return spare.memory;
  }
  return new WebAssembly.Memory({
    initial: BigInt(WASM_INITIAL_PAGES),
    maximum: BigInt(maxPages),
    shared: true,
    address: 'i64',
  } as unknown as WebAssembly.MemoryDescriptor);
}

/**
 * The bytes of `memory` up to the last one that is not zero: how far the instance running in it has
 * grown its heap (llama.cpp never gives memory back, and the memory was zero when the instance
 * started). Scanned from the top, 64 KiB at a time; a few milliseconds for tens of MiB of zeros.
 */
function writtenBytes(memory: WebAssembly.Memory): number {
  const words = new Int32Array(memory.buffer);
  const PAGE_WORDS = 16384;
  for (let end = words.length; end > 0; end -= PAGE_WORDS) {
    for (let i = end - 1; i >= Math.max(0, end - PAGE_WORDS); i--) if (words[i] !== 0) return end * 4;
  }
  return 0;
}

/** Called once the instance that ran in `memory` has exited: nothing runs in it any more. */
function giveBackMemory(memory: WebAssembly.Memory, maxPages: number): void {
  spareMemory = { memory, maxPages };
}

/** The memory the next InIsolateWorker runs in (Wllama constructs the worker itself). */
let nextMemory: WebAssembly.Memory | null = null;

class InIsolateWorker {
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  private deliver: ((data: unknown) => void) | null;

  constructor() {
    this.deliver = createWllamaScope(
      { pathConfig: { 'wllama.wasm': 'wllama.wasm' }, nbThread: 0, compat: false, wasmMemory: nextMemory },
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

/**
 * Loads in this isolate, one at a time: a load swaps globals while it runs (withWorkerGlobals), and
 * two engine objects (the generator's and the embedder's) may share an isolate (locally they do).
 */
let loads: Promise<unknown> = Promise.resolve();
function oneLoadAtATime<T>(fn: () => Promise<T>): Promise<T> {
  const run = loads.then(fn, fn);
  loads = run.catch(() => {});
  return run;
}

/** Runs `fn` with the globals Wllama.loadModel needs for creating its worker, then restores them. */
async function withWorkerGlobals<T>(memory: WebAssembly.Memory, fn: () => Promise<T>): Promise<T> {
  const g = globalThis as Record<string, unknown>;
  // wllama resolves the wasm path against self.location (absent in workerd); the path is unused.
  if (!(g.self as { location?: unknown } | undefined)?.location) {
    (g.self as Record<string, unknown>).location = { href: 'https://wllama.invalid/' };
  }
  const prevWorker = g.Worker;
  const prevCreate = URL.createObjectURL;
  g.Worker = InIsolateWorker;
  URL.createObjectURL = () => 'blob:svc-wllama';
  nextMemory = memory;
  try {
    return await fn();
  } finally {
    nextMemory = null;
    g.Worker = prevWorker;
    URL.createObjectURL = prevCreate;
  }
}

const quietLogger = {
  debug: () => {},
  log: () => {},
  warn: () => {},
  // Errors of a request reach its caller as the rejection; this logs only the rest.
  error: (...args: unknown[]) => {
    if (args[0] !== 'Model returned an error:') console.error('[wllama]', ...args);
  },
};

/**
 * The one llama.cpp context, sized for the edge (docs/edge.md has the memory per setting):
 * - n_ctx 1024: the context holds prompt and output together; llama.cpp's server caps it at the
 *   model's training context, which is what the library and the worker use (512 for stories260K);
 * - n_batch = n_ubatch 512: an embedding is computed in one micro-batch, so this is the longest
 *   text /embed takes; the attention scores of a micro-batch (n_ubatch x n_ctx x heads floats)
 *   are most of the compute buffer, which is why it is not n_ctx;
 * - one slot (n_parallel 1): wllama runs one wasm call at a time anyway.
 */
export const ENGINE_CONTEXT = { n_ctx: 1024, n_batch: 512, n_ubatch: 512, n_parallel: 1 } as const;

/** A request the model cannot take: answered 400 with this message, never computed in part. */
export class InputLimitError extends Error {}

/** One generated token and the likeliest tokens at its step (generate's `logprobs`). */
export interface TokenStep {
  id: number;
  top: Array<{ id: number; logprob: number }>;
}

export interface LoadedModel {
  /**
   * Tokens a request can use: the context, prompt and output together (llama.cpp's server caps a
   * slot's context at the model's training context: 512 for stories260K), and the longest embedded
   * text (less than the context, as the library's engine takes, and at most a micro-batch).
   */
  limits: { contextTokens: number; embedTokens: number };
  /** What the model serves (an embedding model does not generate), by the library's rules. */
  capabilities: Capabilities;
  /**
   * A completion: greedy (temperature 0) unless options.sampling says otherwise; `tokens` is the number
   * of generated tokens, `stopped` whether a stop string ended it (options: EdgeGenerateOptions).
   * `onText` (streaming): the text as it comes, at whole characters, joined exactly the result's text;
   * nothing of a prompt that leaves too little context for max_tokens (that is the 400 at the end).
   * `logprobs` (diagnostics: bench/divergence.ts): each generated token with the `logprobs` likeliest
   * at its step, as llama.cpp's server reports them (natural logarithms of the softmax of the logits).
   */
  generate(
    prompt: string,
    maxTokens: number,
    options?: EdgeGenerateOptions,
    onText?: (piece: string) => void,
  ): Promise<{ text: string; tokens: number; cut: boolean; stopped: boolean; steps?: TokenStep[] }>;
  embed(text: string): Promise<number[]>;
  /** Bytes of the wasm memory now (it only grows; a replaced instance's is reused by the next). */
  memoryBytes(): number;
  /** Bytes of that memory this instance has used: its heap's high-water mark (writtenBytes). */
  heapBytes(): number;
  close(): Promise<void>;
}

/** wllama rejects with Error objects or, for a failed wasm action, with llama.cpp's message. */
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * llama.cpp's own refusals of an input, as the 400 that states the numbers and the limit, in the
 * words of the library and the worker (ContextExceededError, src/engine/outcomes.ts). Anything else
 * is left as it is (a 500).
 */
function limitError(err: unknown, what: 'prompt' | 'text', limits: LoadedModel['limits']): InputLimitError | null {
  const m = messageOf(err);
  const tokens =
    /(?:request|input) \((\d+) tokens\) (?:exceeds the available context size|is larger than the max context size)/.exec(
      m,
    )?.[1] ?? /input \((\d+) tokens\) is too large to process/.exec(m)?.[1];
  return tokens === undefined ? null : inputLimit(what, Number(tokens), limits);
}

function inputLimit(
  what: 'prompt' | 'text',
  tokens: number,
  { contextTokens, embedTokens }: LoadedModel['limits'],
): InputLimitError {
  const error = new ContextExceededError(
    what === 'prompt' ? 'prompt' : 'the text',
    tokens,
    contextTokens,
    what === 'prompt' ? contextTokens - 1 : embedTokens,
  );
  return new InputLimitError(error.message);
}

/**
 * Loads a GGUF into one llama.cpp context that serves both methods: llama.cpp's server switches a
 * context's embedding output per batch (llama_set_embeddings), so a second context (a second wasm
 * instance, heap and copy of the weights) is not needed. Throws when llama.cpp cannot load the
 * bytes (a corrupt or truncated file): wllama itself does not check its load result.
 */
export async function loadWllamaModel(
  bytes: ArrayBuffer | Uint8Array,
  maxPages = WASM_MAX_PAGES,
): Promise<LoadedModel> {
  const file = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const meta = readGgufMeta(file); // the vocabulary too: read once (152k strings for qwen2's)
  // Tokenized as the library tokenizes (prompt-tokens.ts).
  const { parts, promptText, embedText } = servedModel(file, meta);
  const blob = modelFile(parts);
  const pooling = edgePooling(meta);
  const capabilities = edgeCapabilities(meta);
  const memory = takeMemory(maxPages);
  // The model comes from R2 as bytes: wllama's download cache (OPFS/Cache API, absent in workerd)
  // and model manager are never used, so stand-ins keep the constructor from probing storage.
  const w = new Wllama(
    { default: 'wllama.wasm' },
    { suppressNativeLog: true, logger: quietLogger, cacheManager: {} as never, modelManager: {} as never },
  );
  w.setCompat(null);
  // Whether exit succeeds or not, nothing runs in the memory afterwards.
  const release = () =>
    w
      .exit()
      .catch(() => {})
      .then(() => giveBackMemory(memory, maxPages));
  try {
    await oneLoadAtATime(() =>
      withWorkerGlobals(memory, () =>
        w.loadModel([blob], {
          n_threads: 1,
          n_gpu_layers: 0,
          ...ENGINE_CONTEXT,
          // No seed here: wllama would put it over every request's own (createCompletion's seed).
          embeddings: true,
          // The GGUF's own pooling, as the library and the worker (node-llama-cpp) embed: one vector per (model, text) on every surface.
          pooling_type: pooling,
          warmup: false,
          // node-llama-cpp's default ('auto': on, on the CPU), so that the library's and the worker's
          // attention is computed the same way: with it off, logprobs differed from theirs by 1.2e-3
          // (median, stories260K) and 35 of 50 prompts gave their 512 tokens; on, 5e-4 and 45 (#53).
          flash_attn: true,
        }),
      ),
    );
  } catch (error) {
    await release();
    throw error;
  }
  const info = w.getLoadedContextInfo();
  if (!info.success || !(info.n_vocab > 0)) {
    await release();
    throw new Error('llama.cpp could not load it');
  }
  const contextTokens = Math.min(info.n_ctx, info.n_ctx_train > 0 ? info.n_ctx_train : info.n_ctx);
  const limits = { contextTokens, embedTokens: Math.min(contextTokens - 1, info.n_ubatch) };
  let queue: Promise<unknown> = Promise.resolve();
  // One call at a time: a failing request makes wllama reject every task queued on the same
  // instance, so requests must not share its queue.
  const serialize = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  return {
    limits,
    capabilities,
    memoryBytes: () => memory.buffer.byteLength,
    heapBytes: () => writtenBytes(memory),
    close: () => serialize(release),
    generate(prompt, maxTokens, options = {}, onText) {
      const grammar = options.grammar ?? TEXT_GRAMMAR;
      const sampling = isGreedy(options.sampling) ? undefined : options.sampling;
      return serialize(async () => {
        // Streamed, because llama.cpp's server then holds back an unfinished UTF-8 sequence (one
        // cut by max_tokens) instead of putting it into a JSON string: wllama serializes results
        // with nlohmann::json::dump() without the replace handler, which throws on invalid UTF-8.
        let text = '';
        let chunks = 0;
        let usage: { completion_tokens?: number; prompt_tokens?: number } | undefined;
        let promptTokens: number | undefined;
        const steps: TokenStep[] = [];
        /** Tokens generated so far, as the server counts them (timings_per_token): the count where a stop string ended the stream. */
        let predicted: number | undefined;
        // Stop strings as the library's engine applies them (src/decode/stop.ts), on the text as it comes: what
        // may still begin one is held back; once one is found the completion is aborted.
        const scanner = options.stop?.length
          ? new StopScanner(options.stop, options.grammar ? grammarComplete(options.grammar) : undefined)
          : undefined;
        const stopped = new AbortController();
        const decoder = new TextDecoder();
        const take = (piece: string): string => {
          if (!scanner) return piece;
          const settled = decoder.decode(scanner.push(ENCODER.encode(piece)), { stream: true });
          if (scanner.stopped) stopped.abort();
          return settled;
        };
        /** Streaming: how much of `text` was handed on (a prompt over the context is refused before any piece). */
        let sent = 0;
        const handOn = () => {
          if (!onText || text.length === sent) return;
          onText(text.slice(sent));
          sent = text.length;
        };
        const finish = () => {
          // One rule with the library and the worker: a prompt must leave room for an output token
          // (llama.cpp's server refuses one that does not, above), and the output ends at max_tokens
          // or where the context is full, as llama.cpp's server ends it.
          promptTokens = usage?.prompt_tokens ?? promptTokens;
          if (promptTokens === undefined) throw new Error('llama.cpp reported no prompt token count');
          if (promptTokens >= contextTokens) throw inputLimit('prompt', promptTokens, limits);
          // What the stop strings' scanner still holds (no stop string followed it).
          if (scanner) text += decoder.decode(scanner.end()) + decoder.decode();
          handOn();
          const tokens = usage?.completion_tokens ?? predicted ?? chunks;
          const diagnostics = options.logprobs ? { steps } : {};
          if (scanner?.stopped) return { text, tokens, cut: false, stopped: true, ...diagnostics };
          // Cut at max_tokens or where the context is full: the engine's stop reason 'maxTokens' either way.
          return {
            text,
            tokens,
            cut: tokens >= maxTokens || promptTokens + tokens >= contextTokens,
            stopped: false,
            ...diagnostics,
          };
        };
        try {
          await w.createCompletion({
            prompt: promptText(prompt),
            max_tokens: maxTokens,
            // Greedy as always, or llama.cpp's samplers in the order the library's engine runs them
            // (node-llama-cpp's chain: top-k, top-p, min-p, temperature, then the seeded draw).
            ...(sampling
              ? {
                  temperature: sampling.temperature,
                  top_k: sampling.topK,
                  top_p: sampling.topP,
                  min_p: sampling.minP,
                  samplers: ['top_k', 'top_p', 'min_p', 'temperature'],
                  seed: samplerSeed(options.seed ?? ENGINE_SEED),
                }
              : { temperature: 0, top_k: 1, seed: ENGINE_SEED }),
            grammar,
            // Every prompt is evaluated from scratch, so what ran before cannot change the bytes.
            cache_prompt: false,
            // Every chunk then carries the prompt's token count (timings.prompt_n), also when
            // the stream ends early (see the catch below).
            timings_per_token: true,
            stream: true,
            ...(options.logprobs ? { n_probs: options.logprobs } : {}),
            abortSignal: stopped.signal,
            onData: (chunk: {
              choices?: {
                text?: string;
                logprobs?: { content?: Array<{ id: number; top_logprobs?: Array<{ id: number; logprob: number }> }> };
              }[];
              content?: string;
              usage?: { completion_tokens?: number; prompt_tokens?: number };
              timings?: { prompt_n?: number; predicted_n?: number };
            }) => {
              if (stopped.signal.aborted) return;
              if (chunk.timings?.prompt_n !== undefined) promptTokens = chunk.timings.prompt_n;
              for (const step of chunk.choices?.[0]?.logprobs?.content ?? [])
                steps.push({ id: step.id, top: (step.top_logprobs ?? []).map(({ id, logprob }) => ({ id, logprob })) });
              if (chunk.timings?.predicted_n !== undefined) predicted = chunk.timings.predicted_n;
              const piece = chunk.choices?.[0]?.text ?? chunk.content ?? '';
              if (piece) chunks++;
              text += take(piece);
              if (chunk.usage) usage = chunk.usage;
              handOn();
            },
          });
        } catch (err) {
          const limit = limitError(err, 'prompt', limits);
          if (limit) throw limit;
          // Aborted here, once a stop string ended the output: the answer is the text before it.
          if (stopped.signal.aborted) return finish();
          // The one serialization failure left (an overlong UTF-8 sequence the grammar admitted):
          // llama.cpp cannot put that chunk into JSON. The text up to it is valid and the failure
          // is deterministic, so the answer is the text before the invalid sequence.
          if (!/type_error\.316/.test(messageOf(err))) throw err;
        }
        return finish();
      });
    },
    embed(text) {
      return serialize(async () => {
        let res;
        try {
          res = await w.createEmbedding({ input: embedText(text) });
        } catch (err) {
          throw limitError(err, 'text', limits) ?? err;
        }
        // As the library's engine: less than the context (node-llama-cpp keeps a cell free), so a text of exactly n_ctx tokens is refused too.
        const tokens = (res as { usage?: { prompt_tokens?: number } }).usage?.prompt_tokens;
        if (tokens !== undefined && tokens > limits.embedTokens) throw inputLimit('text', tokens, limits);
        const v = res.data[0]?.embedding;
        if (!Array.isArray(v)) throw new Error('embedding engine returned no vector');
        return v;
      });
    },
  };
}
