// The inference engine: one node-llama-cpp model, loaded once, serving generation (optionally under a
// GBNF grammar), embeddings and reranking. Concurrent generations run in sequences shared out over
// one context per `threads` of the cores, so that their decodes use every core. Generation is greedy
// (temperature 0) unless the request samples (src/decode/sampling.ts): either way the same request and seed give
// the same bytes, alone or next to other requests.
//
// Used by the client library (src/client) and the queue worker (worker/).
//
// The work is shared out by concern: model-load.ts loads the model and its contexts, generation.ts runs
// each generation on a sequence of sequences.ts, grammars.ts compiles grammars, token-text.ts holds
// the tokens' bytes, embedder.ts embeds and ranks. This class is their one face to the callers.
import type { Llama, LlamaGrammar, LlamaModel, Token } from 'node-llama-cpp';
import type { Embedder } from './embedder.js';
import type { Capabilities } from './capabilities.js';
import { Prompter, type PromptTokens } from './prompt.js';
import { capabilitiesOf, hasRankingHead, loadModel, type EngineOptions, type LoadedModel } from './model-load.js';
import { Generator, type GenerateRequest, type GenerateResult } from './generation.js';
import { Grammars } from './grammars.js';
import { SequencePool } from './sequences.js';
import { TokenText } from './token-text.js';
import { tokensUpTo } from './input-bound.js';
import type { RerankResult } from './outcomes.js';
import type { TokenMasker } from '../decode/mask.js';

export { ModelRoleError, type Capabilities } from './capabilities.js';
export { engineIdentity, llamaFor, type EngineOptions } from './model-load.js';
export type { GenerateRequest, GenerateResult } from './generation.js';
export {
  ContextExceededError,
  GenerationAbortedError,
  GrammarRefusedError,
  ModelLoadError,
  NothingToEmbedError,
  type RerankResult,
  type StopReason,
} from './outcomes.js';

export class Engine {
  readonly llama: Llama;
  readonly model: LlamaModel;
  /**
   * Identifies the weights (file name, size, content hash) and the engine that computes with them
   * (engineIdentity): part of every cache key, so switching models or llama.cpp builds never serves
   * a stale answer.
   */
  readonly modelId: string;
  readonly threads: number;
  /** Tokens per sequence; also the window of the embedding and ranking contexts. */
  readonly contextSize: number;
  /** Turns prompts into tokens: raw, or through the model's chat template (prompt.ts). */
  readonly prompter: Prompter;
  /** The tokens' bytes (token-text.ts). */
  private readonly tokenText: TokenText;
  /** Compiled grammars and maskers by GBNF text (grammars.ts). */
  private readonly grammars: Grammars;
  /** The generation contexts' sequences, handed to one generation each (sequences.ts). */
  private readonly sequencePool: SequencePool;
  private readonly generator: Generator;
  /** Embeddings and rankings (embedder.ts). */
  private readonly embedder: Embedder;

  private constructor(loaded: LoadedModel) {
    this.llama = loaded.llama;
    this.model = loaded.model;
    this.modelId = loaded.modelId;
    this.threads = loaded.threads;
    this.contextSize = loaded.contextSize;
    this.embedder = loaded.embedder;
    this.tokenText = new TokenText(loaded.model);
    this.prompter = new Prompter(loaded.model);
    this.grammars = new Grammars(loaded.llama, this.tokenText);
    this.sequencePool = new SequencePool(loaded.contexts);
    this.generator = new Generator({
      model: loaded.model,
      contextSize: loaded.contextSize,
      prompter: this.prompter,
      tokenText: this.tokenText,
      grammars: this.grammars,
      sequences: this.sequencePool,
    });
  }

  static async load(options: EngineOptions): Promise<Engine> {
    const engine = new Engine(await loadModel(options));
    // The maskers' per-vocabulary work, done once here so that no request pays for it (1-2 s on
    // qwen2's 151,936 tokens, where a grammar's own setup then takes a millisecond or two).
    engine.tokenText.vocabulary()?.trie;
    return engine;
  }

  /** Tokens banned under a grammar: their bytes never occur in UTF-8 (SentencePiece `<0xNN>` and byte-level BPE tokens alike; token-bytes.ts). */
  get invalidByteTokens(): readonly Token[] {
    return this.tokenText.invalidByteTokens;
  }

  /** Whether the model carries a chat template (`tokenizer.chat_template`): chat requests use it, else they run raw. */
  get hasChatTemplate(): boolean {
    return this.prompter.hasChatTemplate;
  }

  /**
   * The tokens fed to the model for a request, BOS included where there is one: the prompt as is
   * (promptFormat 'raw', the default here), or as the user turn of the model's chat template
   * (promptFormat 'chat'; raw on a model without a template). Throws ChatTemplateError when the
   * model's template cannot be rendered.
   */
  promptTokens(request: Pick<GenerateRequest, 'prompt' | 'promptFormat' | 'systemPrompt'>): PromptTokens {
    return this.prompter.tokens(request.prompt, request);
  }

  /**
   * Tokens the model's tokenizer makes of `text`, without the special tokens a prompt starts with;
   * with `upTo`, past it any number over it, told from a prefix (input-bound.ts).
   */
  countTokens(text: string, upTo?: number): number {
    const count = (piece: string) => this.model.tokenize(piece).length;
    return upTo === undefined ? count(text) : tokensUpTo(text, upTo, count);
  }

  /** The context the model was trained with (GGUF `<arch>.context_length`): the default contextSize. */
  get trainContextSize(): number {
    return this.model.trainContextSize;
  }

  /**
   * What the model can do, from the GGUF: an encoder (BERT and the like) or a model whose GGUF sets
   * a pooling type is an embedding model and does not generate; one with a ranking head (rank
   * pooling, a classification head) ranks with it (rerank); every model embeds.
   */
  get capabilities(): Capabilities {
    return capabilitiesOf(this.model);
  }

  /** Length of an embedding vector. */
  get dimension(): number {
    return this.model.embeddingVectorSize;
  }

  get sequences(): number {
    return this.sequencePool.total;
  }

  /** How many generation contexts the sequences are shared out over. */
  get generationContexts(): number {
    return this.sequencePool.contextCount;
  }

  /** The embedding contexts made so far (concurrent embed calls make more, up to the engine's embeddingContexts). */
  get embeddingContextsMade(): number {
    return this.embedder.contextsMade;
  }

  /** Whether `rerank` uses the model's ranking head (else embedding similarity). */
  get hasRankingHead(): boolean {
    return hasRankingHead(this.model);
  }

  /** Parses (once; then from the cache) a GBNF grammar. Throws GrammarRefusedError when llama.cpp rejects it. */
  grammar(gbnf: string): LlamaGrammar {
    return this.grammars.grammar(gbnf);
  }

  /** Number of compiled grammars held in the cache. */
  get cachedGrammars(): number {
    return this.grammars.cached;
  }

  /**
   * Generation, greedy or sampled (request.sampling), on a sequence of its own, to an end-of-generation
   * token, maxTokens, a full context or a stop string (generation.ts).
   */
  generate(request: GenerateRequest): Promise<GenerateResult> {
    return this.generator.generate(request);
  }

  /**
   * The masker of a grammar on this model's vocabulary (cached): null where llama.cpp's own grammar
   * sampler decodes it instead (grammars.ts).
   */
  masker(gbnf: string): TokenMasker | null {
    return this.grammars.masker(gbnf);
  }

  /** The text of generated tokens: their bytes, concatenated, decoded as UTF-8 once (what is not UTF-8 becomes U+FFFD). */
  decode(tokens: readonly Token[]): string {
    return this.tokenText.decode(tokens);
  }

  /** An L2-normalized embedding of the model's dimension (embedder.ts). */
  embed(text: string, what = 'the text'): Promise<number[]> {
    return this.embedder.embed(text, what);
  }

  /** Each text's embedding as `embed` gives it, in order; null for a text the model makes no tokens of (embedder.ts). */
  embedEach(texts: readonly string[], signal?: AbortSignal): Promise<Array<number[] | null>> {
    return this.embedder.embedEach(texts, signal);
  }

  /** Documents ranked for the query, best first, each with its index in `documents` (embedder.ts). */
  rerank(query: string, documents: string[], task: string): Promise<RerankResult[]> {
    return this.embedder.rerank(query, documents, task);
  }

  async dispose(): Promise<void> {
    this.sequencePool.wakeAll();
    this.grammars.releaseMaskers();
    await this.embedder.dispose();
    await this.sequencePool.dispose();
    await this.model.dispose();
  }
}
