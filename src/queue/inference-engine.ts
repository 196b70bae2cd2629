// What the worker asks of a model, whichever runs it: met by Engine (llama.cpp in process,
// src/engine/engine.ts) and ServerEngine (llama-server or vLLM over HTTP, src/engine/server-engine.ts).
// Declared here, beside the rest of the worker's contract, not inside one of its implementations.
import type { Capabilities } from '../engine/capabilities.js';
import type { GenerateRequest, GenerateResult, RerankResult } from '../engine/engine.js';

/** What the worker uses of an engine: met by Engine (in process) and ServerEngine (over HTTP). */
export interface InferenceEngine {
  readonly modelId: string;
  generate(request: GenerateRequest): Promise<GenerateResult>;
  embed(text: string): Promise<number[]>;
  /** Many texts' embeddings as `embed` gives each (null: no tokens), where the engine takes many per call (Engine: svc's embedding addon). */
  embedEach?(texts: readonly string[], signal?: AbortSignal): Promise<Array<number[] | null>>;
  /**
   * Tokens the model's tokenizer makes of `text` (for chunking by tokens); with `upTo`, past it any
   * number over it (found without tokenizing all of a long text). Absent where the tokenizer is not at
   * hand (a remote server).
   */
  countTokens?(text: string, upTo?: number): number;
  rerank(query: string, documents: string[], task: string): Promise<RerankResult[]>;
  dispose(): Promise<void>;
  /** In-process models only: CPU threads, tokens per sequence (prompt and output), and what the model can do (capabilities.ts). */
  readonly threads?: number;
  readonly contextSize?: number;
  /** In-process models only: the contexts its concurrent generations are shared out over (Engine's generationContexts). */
  readonly generationContexts?: number;
  readonly capabilities?: Capabilities;
  /** In-process models only: the length of an embedding. */
  readonly dimension?: number;
}
