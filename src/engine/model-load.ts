// Loading a model: the options checked, the GGUF resolved (a path, or fetched through svc's model
// cache), the model loaded on the process's one llama.cpp binding, its generation contexts made and
// its embedder set up; and what identifies the result (for the cache keys) and what it can do. The
// engine (engine.ts) is built on what this loads.
import { getLlama, type Llama, type LlamaContext, type LlamaModel } from 'node-llama-cpp';
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import {
  contextsForCores,
  defaultThreads,
  embeddingContextsForCores,
  physicalCores,
  shareSequences,
} from './threads.js';
import { Embedder } from './embedder.js';
import { modelCapabilities, type Capabilities } from './capabilities.js';
import { ModelLoadError } from './outcomes.js';
import { ModelFetchError, resolveModelFile, sha256File, type FetchProgress } from '../model/fetch.js';

export interface EngineOptions {
  /** A GGUF file, a hub URI (`hf:<user>/<repo>/<file>.gguf`, `hf:<user>/<repo>:<quant>`) or an http(s) URL: src/model/fetch.ts. */
  model: string;
  /** Called while a URI's file is fetched into the cache (not for a path or a cached file). */
  onFetchProgress?: FetchProgress;
  /** CPU threads (default: defaultThreads(), threads.ts: 1 for a small model, else the physical cores, at most 8). Always passed explicitly: node-llama-cpp's own default made a tiny model 400x slower on 2 cores. */
  threads?: number;
  /** Sequences: the most generations that run at once (default 1). More wait for a free one. */
  sequences?: number;
  /**
   * Contexts the sequences are shared out over, each decoding on its own `threads` at the same time
   * as the others (default: on the CPU one per `threads` of the physical cores, at most `sequences`;
   * on a GPU one; none for a model that does not generate). The sequences of one context decode
   * together in its batches; which context or batch runs a generation does not change a byte of it.
   */
  generationContexts?: number;
  /**
   * Embedding contexts run at once by concurrent embed calls (default: one per `threads` of the
   * physical cores, one more at one thread; threads.ts, embed-pool.ts). Each text is decoded alone in
   * any of them, so its vector is the same bytes.
   */
  embeddingContexts?: number;
  /**
   * Texts of a decoder's embedding batch that share one llama.cpp decode through svc's embedding
   * addon (default 4; embed-native.ts). Each holds a KV stream of contextSize tokens. Encoders (BERT,
   * svc-embed) decode each text alone; either way a vector has the same bytes as the text alone.
   */
  embeddingSequences?: number;
  /**
   * Context size of each sequence, in tokens: the prompt and the output together (default: the
   * model's training context, on every surface; docs/client.md "Context"). A prompt that does not
   * leave room for one output token is refused (ContextExceededError); an output stops at maxTokens
   * or where the context is full, whichever comes first.
   */
  contextSize?: number;
  /** `false` (default) runs on the CPU; `'auto'` lets node-llama-cpp pick a GPU backend. */
  gpu?: false | 'auto';
  /** Called with the loading progress, 0 to 1 (for a progress bar). */
  onProgress?: (fraction: number) => void;
}

let sharedLlama: Promise<Llama> | undefined;
let sharedLlamaGpu: false | 'auto' | undefined;

/** One llama.cpp binding per process and GPU setting: it is expensive and global (exported for bench/engine.ts, to compare on the same binding). */
export function llamaFor(gpu: false | 'auto'): Promise<Llama> {
  if (!sharedLlama || sharedLlamaGpu !== gpu) {
    sharedLlamaGpu = gpu;
    sharedLlama = getLlama({ gpu, logLevel: 'error' as never });
    sharedLlama.catch(() => (sharedLlama = undefined));
  }
  return sharedLlama;
}

/** A loaded model and what was made for it, for the engine to serve. */
export interface LoadedModel {
  llama: Llama;
  model: LlamaModel;
  /** The generation contexts, each with its share of the sequences (none for a model that does not generate). */
  contexts: LlamaContext[];
  /** The weights' and the engine's identity (modelIdentity, engineIdentity). */
  modelId: string;
  threads: number;
  contextSize: number;
  embedder: Embedder;
}

/** Loads the model of `options` (checked before anything is fetched or loaded) with its contexts and embedder. */
export async function loadModel(options: EngineOptions): Promise<LoadedModel> {
  // The options given are checked before anything is fetched or loaded: a bad one leaves nothing to undo.
  integerOption('sequences', options.sequences);
  integerOption('threads', options.threads);
  integerOption('contextSize', options.contextSize, 2);
  integerOption('embeddingContexts', options.embeddingContexts);
  integerOption('embeddingSequences', options.embeddingSequences);
  integerOption('generationContexts', options.generationContexts);
  const sequences = options.sequences ?? 1;
  if (options.generationContexts !== undefined && options.generationContexts > sequences) {
    throw new RangeError(
      `generationContexts must be at most sequences (${sequences}): each context holds a sequence or more, got ${options.generationContexts}`,
    );
  }
  const llama = await llamaFor(options.gpu ?? false);
  // A path as it is; a hub URI or URL through svc's model cache (fetched once, checked every load).
  let sha256: string | undefined;
  const modelPath = await resolveModelFile(options.model, {
    onProgress: options.onFetchProgress,
    onVerified: (sha) => (sha256 = sha),
  }).catch((error: unknown) => {
    throw error instanceof ModelFetchError ? new ModelLoadError(error.message, { cause: error }) : error;
  });
  const threads = options.threads ?? defaultThreads(statSync(modelPath).size);
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath, onLoadProgress: options.onProgress });
  } catch (error) {
    throw new ModelLoadError(`cannot load model ${modelPath}: ${(error as Error).message}`, { cause: error });
  }
  options.onProgress?.(1);
  const contextSize = options.contextSize ?? model.trainContextSize;
  if (!Number.isInteger(contextSize) || contextSize < 2)
    throw new RangeError(`contextSize must be an integer of at least 2, got ${options.contextSize}`);
  const cores = physicalCores();
  // A model that cannot generate (an encoder, a pooled embedding model) gets no generation context:
  // its KV cache would never be used.
  const contextCount = !capabilitiesOf(model).generate
    ? 0
    : (options.generationContexts ?? (llama.gpu === false ? Math.min(sequences, contextsForCores(threads, cores)) : 1));
  // node-llama-cpp's contextSize is per sequence: a context holds contextSize x its sequences cells.
  const contexts: LlamaContext[] = [];
  try {
    for (const share of shareSequences(sequences, contextCount))
      contexts.push(await model.createContext({ sequences: share, contextSize, threads }));
  } catch (error) {
    for (const context of contexts) await context.dispose();
    await model.dispose();
    throw new ModelLoadError(
      `cannot make a context of ${contextSize} tokens x ${sequences} sequences for ${basename(modelPath)}: ${(error as Error).message}; ` +
        'a smaller context (contextSize, svc --context-size, SVC_WORKER_CONTEXT_SIZE) or fewer sequences needs less memory',
      { cause: error },
    );
  }
  const modelId = `${await modelIdentity(modelPath, sha256)}:${engineIdentity(llama)}`;
  const embedder = new Embedder({
    llama,
    model,
    modelPath,
    threads,
    contextSize,
    embeddingContextLimit: options.embeddingContexts ?? embeddingContextsForCores(threads, cores),
    embeddingSequences: options.embeddingSequences ?? 4,
    architecture: capabilitiesOf(model).architecture,
    rankingHead: hasRankingHead(model),
  });
  return { llama, model, contexts, modelId, threads, contextSize, embedder };
}

/** An integer option of at least `min`, when given. */
function integerOption(name: string, value: number | undefined, min = 1): void {
  if (value === undefined || (Number.isInteger(value) && value >= min)) return;
  throw new RangeError(
    min === 1
      ? `${name} must be a positive integer, got ${value}`
      : `${name} must be an integer of at least ${min}, got ${value}`,
  );
}

/** What a loaded model can do, from its GGUF (capabilities.ts). */
export function capabilitiesOf(model: LlamaModel): Capabilities {
  return modelCapabilities(
    model.fileInfo.metadata as Record<string, unknown>,
    model.fileInsights.hasDecoder,
    hasRankingHead(model),
  );
}

/** Whether the model ranks with a head of its own (rank pooling, a classification head), else by embedding similarity. */
export function hasRankingHead(model: LlamaModel): boolean {
  return model.fileInsights.supportsRanking === true;
}

/**
 * What computes the answers, for the cache keys beside the model's file (#53): llama.cpp's release and
 * the backend (`cpu`, `cuda`, `vulkan`, `metal`). Another build of llama.cpp computes other bytes for a
 * few prompts in a hundred (wllama's on the edge: docs/edge.md), so an answer of one is never served
 * as another's.
 */
export function engineIdentity(llama: Pick<Llama, 'llamaCppRelease' | 'gpu'>): string {
  return `llama.cpp-${llama.llamaCppRelease.release}-${llama.gpu === false ? 'cpu' : llama.gpu}`;
}

async function modelIdentity(path: string, sha256?: string): Promise<string> {
  // A cached URI's file was hashed by its check just now (fetch.ts): it is not read again.
  return `${basename(path)}:${statSync(path).size}:${(sha256 ?? (await sha256File(path))).slice(0, 16)}`;
}
