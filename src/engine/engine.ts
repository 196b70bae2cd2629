// The inference engine: one node-llama-cpp model, loaded once, serving generation (optionally under a
// GBNF grammar), embeddings and reranking. Concurrent generations run in sequences shared out over
// one context per `threads` of the cores, so that their decodes use every core. Generation is greedy
// (temperature 0) unless the request samples (src/decode/sampling.ts): either way the same request and seed give
// the same bytes, alone or next to other requests.
//
// Used by the client library (src/client) and the queue worker (worker/).
import {
  getLlama,
  LlamaGrammar,
  LlamaGrammarEvaluationState,
  TokenBias,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaModel,
  type Token,
} from 'node-llama-cpp';
import {
  contextsForCores,
  defaultThreads,
  embeddingContextsForCores,
  physicalCores,
  shareSequences,
} from './threads.js';
import { Embedder } from './embedder.js';
import { ModelRoleError, modelCapabilities, notAGenerator, type Capabilities } from './capabilities.js';
export { ModelRoleError, type Capabilities } from './capabilities.js';
import { statSync } from 'node:fs';
import { ModelFetchError, resolveModelFile, sha256File, type FetchProgress } from '../model/fetch.js';
import { basename } from 'node:path';
import { invalidUtf8Tokens, llamaTokenText, pieceBytes } from './token-bytes.js';
import { Prompter, type PromptFormat, type PromptOptions, type PromptTokens } from './prompt.js';
import { generateConstrained, releaseMaskSamplers, type MaskMode } from './constrained.js';
import { TextStream, type OnText } from './text-stream.js';
import { isGreedy, samplerSeed, type Sampling } from '../decode/sampling.js';
import { StopScanner, grammarComplete } from '../decode/stop.js';
import { Automaton, AutomatonLimitError, DEAD } from '../automaton/automaton.js';
import { TokenMasker } from '../decode/mask.js';
import { DecodedVocabulary } from '../decode/vocabulary.js';
import { parseGbnf } from '../grammar/gbnf-parse.js';
import { ConstraintError } from '../grammar/errors.js';

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

export interface GenerateRequest extends PromptOptions {
  prompt: string;
  maxTokens: number;
  seed: number;
  /** GBNF text; the output is constrained to it. */
  grammar?: string | null;
  /** Sampling under `seed` (src/decode/sampling.ts); absent or temperature 0: greedy. */
  sampling?: Sampling;
  /**
   * The output ends before the first of these it contains (src/decode/stop.ts); under a grammar, only where the
   * text before it is a complete output of the grammar.
   */
  stop?: readonly string[];
  /** Aborts the generation (also while it waits for a free sequence). */
  signal?: AbortSignal;
  /** Aborts the generation after this many milliseconds. */
  timeoutMs?: number;
  /** How grammar masks are computed (constrained.ts): 'fast' (default); the others are for tests and the bench. */
  maskMode?: MaskMode;
  /** Called at each step under a full grammar mask: its time in ms, and whether a cached mask was taken directly (constrained.ts; bench). */
  onMask?: (ms: number, direct: boolean) => void;
  /** For the bench: each mask computed ahead, while llama.cpp evaluated the token before it (ms). */
  onMaskAhead?: (ms: number) => void;
  /**
   * Streaming: called with the output's text as it is generated, at whole UTF-8 characters, and the
   * tokens generated so far; the pieces joined are exactly the result's `text` (text-stream.ts).
   */
  onText?: OnText;
}

export interface GenerateResult {
  /**
   * The generated tokens' bytes (as llama.cpp's token_to_piece writes them, special tokens
   * printing nothing), decoded as UTF-8 once: bytes that are not UTF-8, such as a character cut
   * short by maxTokens, become U+FFFD.
   */
  text: string;
  /** Tokens generated: those `text` is made of (the end-of-generation token is not counted). */
  tokens: number;
  /** `eogToken` (the model, or the grammar, ended the output), `maxTokens` (cut at maxTokens), `context` (cut where the context is full, before maxTokens) or `stopString` (a stop string ended it). */
  stopReason: StopReason;
  /** How the prompt reached the model (prompt.ts): 'chat' only for a chat request on a model with a chat template. */
  promptFormat: PromptFormat;
  /**
   * Under a grammar decoded with svc's own masks: steps sampled, whether the output was closed with
   * the grammar's shortest completion to fit maxTokens, and the output's tokens.
   */
  constrained?: { steps: number; completed: boolean; tokens: readonly Token[] };
}

export {
  ContextExceededError,
  GenerationAbortedError,
  GrammarRefusedError,
  ModelLoadError,
  NothingToEmbedError,
  type RerankResult,
  type StopReason,
} from './outcomes.js';
import {
  ContextExceededError,
  GenerationAbortedError,
  GrammarRefusedError,
  ModelLoadError,
  budgetStopReason,
  type RerankResult,
  type StopReason,
} from './outcomes.js';
import { tokensOverLimit, tokensUpTo } from './input-bound.js';

const GRAMMAR_CACHE_SIZE = 256;
/** Token maskers (src/decode) kept per engine: each holds its grammar's automaton and up to 16 MiB of cached masks (the vocabulary's trie is shared). */
const MASKER_CACHE_SIZE = 8;

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

export class Engine {
  /** Compiled grammars by GBNF text, least recently used first. */
  private readonly grammars = new Map<string, LlamaGrammar>();
  /** Embeddings and rankings (embedder.ts), set up at load. */
  private embedder!: Embedder;
  /** Callers waiting for a free sequence, first come first served. */
  private readonly waiting: Array<() => void> = [];
  /** Tokens banned under a grammar: their bytes never occur in UTF-8 (SentencePiece `<0xNN>` and byte-level BPE tokens alike; token-bytes.ts). */
  readonly invalidByteTokens: readonly Token[];
  /** Built on first use: the ban of invalidByteTokens under a grammar. */
  private invalidByteBias?: TokenBias;
  /** Each token's bytes, computed on first use; absent where the vocabulary type is not modelled (then node-llama-cpp's text is used). */
  private readonly pieces?: Array<Uint8Array | undefined>;
  private readonly tokenTexts?: readonly unknown[];
  /** Grammar-independent token facts for the maskers, computed at load. */
  private decodedVocabulary?: DecodedVocabulary;
  /** Token maskers by GBNF text, least recently used first; null where a grammar is decoded by llama.cpp instead. */
  private readonly maskers = new Map<string, TokenMasker | null>();
  /** Tokens that end a completion besides the model's end-of-generation ones (as LlamaCompletion: gemma's file separator and FIM prefix). */
  private readonly extraStopTokens: ReadonlySet<Token>;
  /** Turns prompts into tokens: raw, or through the model's chat template (prompt.ts). */
  readonly prompter: Prompter;

  private constructor(
    readonly llama: Llama,
    readonly model: LlamaModel,
    /** The generation contexts, each with its share of the sequences. */
    private readonly contexts: readonly LlamaContext[],
    /**
     * Identifies the weights (file name, size, content hash) and the engine that computes with them
     * (engineIdentity): part of every cache key, so switching models or llama.cpp builds never serves
     * a stale answer.
     */
    readonly modelId: string,
    readonly threads: number,
    /** Tokens per sequence; also the window of the embedding and ranking contexts. */
    readonly contextSize: number,
  ) {
    const tokenizer = (
      model.fileInfo.metadata as { tokenizer?: { ggml?: { model?: unknown; tokens?: unknown; token_type?: unknown } } }
    ).tokenizer?.ggml;
    const tokens = Array.isArray(tokenizer?.tokens) ? (tokenizer.tokens as unknown[]) : undefined;
    const types = Array.isArray(tokenizer?.token_type) ? (tokenizer.token_type as unknown[]) : undefined;
    this.invalidByteTokens = tokens ? (invalidUtf8Tokens(tokenizer?.model, tokens, types) as Token[]) : [];
    if (tokens && ['spm', 'ugm', 'wpm', 'bpe'].includes(model.vocabularyType)) {
      this.tokenTexts = tokens;
      this.pieces = new Array(tokens.length);
    }
    this.extraStopTokens = extraCompletionStopTokens(model);
    this.prompter = new Prompter(model);
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

  static async load(options: EngineOptions): Promise<Engine> {
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
      : (options.generationContexts ??
        (llama.gpu === false ? Math.min(sequences, contextsForCores(threads, cores)) : 1));
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
    const engine = new Engine(
      llama,
      model,
      contexts,
      `${await modelIdentity(modelPath, sha256)}:${engineIdentity(llama)}`,
      threads,
      contextSize,
    );
    engine.embedder = new Embedder({
      llama,
      model,
      modelPath,
      threads,
      contextSize,
      embeddingContextLimit: options.embeddingContexts ?? embeddingContextsForCores(threads, cores),
      embeddingSequences: options.embeddingSequences ?? 4,
      architecture: engine.capabilities.architecture,
      rankingHead: hasRankingHead(model),
    });
    // The maskers' per-vocabulary work, done once here so that no request pays for it (1-2 s on
    // qwen2's 151,936 tokens, where a grammar's own setup then takes a millisecond or two).
    engine.tokenVocabulary()?.trie;
    return engine;
  }

  /**
   * Tokens the model's tokenizer makes of `text`, without the special tokens a prompt starts with;
   * with `upTo`, past it any number over it, told from a prefix (input-bound.ts).
   */
  countTokens(text: string, upTo?: number): number {
    const count = (piece: string) => this.model.tokenize(piece).length;
    return upTo === undefined ? count(text) : tokensUpTo(text, upTo, count);
  }

  /** Refuses (ContextExceededError) a text that a prefix shows to be over the context, before it is tokenized whole. */
  private refuseOverContext(what: string, text: string): void {
    const over = tokensOverLimit(text, this.contextSize - 1, (piece) => this.model.tokenize(piece).length);
    if (over !== undefined) throw new ContextExceededError(what, over, this.contextSize, this.contextSize - 1, true);
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
    return this.contexts.reduce((sum, context) => sum + context.totalSequences, 0);
  }

  /** How many generation contexts the sequences are shared out over. */
  get generationContexts(): number {
    return this.contexts.length;
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
    let grammar = this.grammars.get(gbnf);
    if (grammar) {
      this.grammars.delete(gbnf); // refresh its place in the LRU order
    } else {
      try {
        grammar = new LlamaGrammar(this.llama, { grammar: gbnf });
      } catch (error) {
        // node-llama-cpp says only "Failed to parse grammar" (llama.cpp logs the reason).
        throw new GrammarRefusedError(`llama.cpp refused the grammar: ${(error as Error).message}`, { cause: error });
      }
      if (this.grammars.size >= GRAMMAR_CACHE_SIZE) this.grammars.delete(this.grammars.keys().next().value!);
    }
    this.grammars.set(gbnf, grammar);
    return grammar;
  }

  /** Number of compiled grammars held in the cache. */
  get cachedGrammars(): number {
    return this.grammars.size;
  }

  /**
   * Generation, greedy or sampled (request.sampling), driven token by token on a sequence of its own:
   * it stops at an end-of-generation token (a complete grammar allows nothing else), at maxTokens,
   * where the context is full, or before a stop string (request.stop). The output is the generated tokens' bytes, so a character split across tokens
   * is whole however the generation ends (node-llama-cpp's LlamaCompletion held such a token back
   * and dropped it at the end, and undercounted tokens).
   */
  async generate(request: GenerateRequest): Promise<GenerateResult> {
    if (!Number.isInteger(request.maxTokens) || request.maxTokens < 1) {
      throw new RangeError(`maxTokens must be a positive integer, got ${request.maxTokens}`);
    }
    const grammar = request.grammar ? this.grammar(request.grammar) : undefined;
    const signals = [
      request.signal,
      request.timeoutMs !== undefined ? AbortSignal.timeout(request.timeoutMs) : undefined,
    ].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    const aborted = () =>
      new GenerationAbortedError(abortMessage(signal!, request.timeoutMs), { cause: signal!.reason });
    if (signal?.aborted) throw aborted();
    const capabilities = this.capabilities;
    if (!capabilities.generate) throw new ModelRoleError(notAGenerator(capabilities));
    this.refuseOverContext('prompt', request.prompt);
    const prompt = this.promptTokens(request);
    const input = [...prompt.tokens];
    // The model needs a token to continue from (an empty prompt on a vocabulary without BOS has none).
    if (input.length === 0)
      throw new RangeError(
        'the prompt must give at least one token (it is empty and the model has no beginning-of-sequence token)',
      );
    // One rule on every surface (the edge's llama.cpp server refuses alike): the prompt must leave
    // room for one output token, and the output ends at maxTokens or where the context is full.
    if (input.length >= this.contextSize)
      throw new ContextExceededError('prompt', input.length, this.contextSize, this.contextSize - 1);
    const budget = Math.min(request.maxTokens, this.contextSize - input.length);

    const masker = request.grammar ? this.masker(request.grammar) : null;
    const vocabulary = this.tokenVocabulary();
    const stream = request.onText
      ? new TextStream(request.onText, vocabulary ? (token) => vocabulary.bytes[token] : null)
      : undefined;
    const sampling = isGreedy(request.sampling) ? undefined : request.sampling;
    const scanner = request.stop?.length
      ? new StopScanner(request.stop, request.grammar ? this.completeOutput(request.grammar, masker) : undefined)
      : undefined;
    /** A token's bytes through the stop strings' scanner (what it no longer holds back goes on to the stream); true once one ended the output. */
    const scan = (tokens: readonly Token[]): boolean => {
      for (const token of tokens) {
        const settled = scanner!.push(this.tokenBytes(token));
        stream?.pushBytes(1, settled);
      }
      return scanner!.stopped;
    };
    /** The output's text, and its last bytes to the stream: up to the stop string where one ended it. */
    const finish = (tokens: readonly Token[]): string => {
      if (!scanner) {
        const text = this.decode(tokens);
        stream?.end(text);
        return text;
      }
      stream?.pushBytes(0, scanner.end());
      const text = UTF8_DECODER.decode(scanner.output());
      stream?.end(text);
      return text;
    };
    const sequence = await this.acquireSequence(signal);
    try {
      if (masker) {
        const out = await generateConstrained(sequence, this.model, input, masker, {
          seed: request.seed,
          sampling,
          budget,
          mode: request.maskMode,
          stopTokens: this.extraStopTokens,
          signal,
          onMask: request.onMask,
          onMaskAhead: request.onMaskAhead,
          onTokens: scanner ? scan : stream && ((tokens) => (stream.push(tokens), false)),
        });
        if (signal?.aborted) throw aborted();
        const { steps, completed } = out;
        const text = finish(out.tokens);
        return {
          text,
          tokens: out.tokens.length,
          stopReason: out.stopReason === 'maxTokens' ? budgetStopReason(budget, request.maxTokens) : out.stopReason,
          promptFormat: prompt.format,
          constrained: { steps, completed, tokens: out.tokens },
        };
      }
      const generated: Token[] = [];
      let stopReason = budgetStopReason(budget, request.maxTokens);
      const evaluation = sequence.evaluate(input, {
        // Greedy as always, or llama.cpp's samplers under the request's seed (a sampler of this evaluation's own, so its draws follow this output only).
        ...(sampling
          ? {
              temperature: sampling.temperature,
              topK: sampling.topK,
              topP: sampling.topP,
              minP: sampling.minP,
              seed: samplerSeed(request.seed),
            }
          : { temperature: 0, seed: request.seed }),
        // A fresh state per request: it follows this output's tokens only.
        grammarEvaluationState: grammar ? new LlamaGrammarEvaluationState({ model: this.model, grammar }) : undefined,
        tokenBias: grammar ? this.invalidByteBan() : undefined,
        yieldEogToken: true,
      });
      for await (const token of evaluation) {
        if (signal?.aborted) throw aborted();
        if (this.model.isEogToken(token) || this.extraStopTokens.has(token)) {
          stopReason = 'eogToken';
          break;
        }
        generated.push(token);
        if (scanner) {
          if (scan([token])) {
            stopReason = 'stopString';
            break;
          }
        } else stream?.push([token]);
        if (generated.length >= budget) break;
      }
      if (signal?.aborted) throw aborted();
      const text = finish(generated);
      return { text, tokens: generated.length, stopReason, promptFormat: prompt.format };
    } catch (error) {
      if (signal?.aborted) throw aborted();
      throw error;
    } finally {
      // A fresh sequence per request: nothing of an earlier prompt stays in its state.
      await sequence.dispose();
      this.waiting.shift()?.();
    }
  }

  /**
   * The masker of a grammar on this model's vocabulary (built once, then cached): null where the
   * vocabulary's bytes are not modelled (token-bytes.ts) or the grammar is beyond the automaton's
   * limits, and llama.cpp's own grammar sampler decodes it instead.
   */
  masker(gbnf: string): TokenMasker | null {
    const vocabulary = this.tokenVocabulary();
    if (!vocabulary) return null;
    const cached = this.maskers.get(gbnf);
    if (cached !== undefined) {
      this.maskers.delete(gbnf);
      this.maskers.set(gbnf, cached);
      return cached;
    }
    let masker: TokenMasker | null;
    try {
      masker = new TokenMasker(new Automaton(parseGbnf(gbnf)), vocabulary);
    } catch (error) {
      // Beyond the automaton's limits, or GBNF our parser does not read (llama.cpp's own sampler still may).
      if (!(error instanceof AutomatonLimitError) && !(error instanceof ConstraintError)) throw error;
      masker = null;
    }
    if (this.maskers.size >= MASKER_CACHE_SIZE) {
      const oldest = this.maskers.keys().next().value!;
      const dropped = this.maskers.get(oldest);
      if (dropped) releaseMaskSamplers(dropped);
      this.maskers.delete(oldest);
    }
    this.maskers.set(gbnf, masker);
    return masker;
  }

  /** Grammar-independent token facts for the maskers (computed once); undefined where the vocabulary's bytes are not modelled. */
  private tokenVocabulary(): DecodedVocabulary | undefined {
    if (!this.pieces || !this.tokenTexts) return undefined;
    return (this.decodedVocabulary ??= new DecodedVocabulary({
      size: this.tokenTexts.length,
      bytes: (token) => this.tokenPiece(token as Token),
      isEog: (token) => this.model.isEogToken(token as Token),
    }));
  }

  /** A token's bytes as token_to_piece writes them (computed once per token). */
  private tokenPiece(token: Token): Uint8Array {
    let piece = this.pieces![token];
    if (piece === undefined) {
      const text = this.tokenTexts![token];
      const bytes =
        typeof text === 'string'
          ? pieceBytes(
              this.model.vocabularyType,
              llamaTokenText(text, token),
              this.model.getTokenAttributes(token),
              this.escapesWhitespace,
            )
          : null;
      // A token this does not model (a byte token not spelled <0xNN>): node-llama-cpp's text of it.
      piece = bytes ?? UTF8_ENCODER.encode(this.model.detokenize([token]));
      this.pieces![token] = piece;
    }
    return piece;
  }

  /** A token's bytes: as token_to_piece writes them where the vocabulary is modelled, else node-llama-cpp's text of it. */
  private tokenBytes(token: Token): Uint8Array {
    return this.pieces && this.tokenTexts
      ? this.tokenPiece(token)
      : UTF8_ENCODER.encode(this.model.detokenize([token]));
  }

  /**
   * Under a grammar, whether the bytes before a stop string are a complete output of it (src/decode/stop.ts): run
   * through the masker's automaton, or, where llama.cpp's sampler decodes the grammar, through the
   * GBNF recognizer (a text it cannot settle within its steps is not complete).
   */
  private completeOutput(gbnf: string, masker: TokenMasker | null): (before: Uint8Array) => boolean {
    if (masker) {
      const automaton = masker.automaton;
      return (before) => {
        const state = automaton.stepText(automaton.initial, UTF8_DECODER.decode(before));
        return state !== DEAD && automaton.isAccepting(state);
      };
    }
    return grammarComplete(gbnf);
  }

  /** The text of generated tokens: their bytes, concatenated, decoded as UTF-8 once (what is not UTF-8 becomes U+FFFD). */
  decode(tokens: readonly Token[]): string {
    if (!this.pieces || !this.tokenTexts) return this.model.detokenize(tokens);
    const parts: Uint8Array[] = [];
    let length = 0;
    for (const token of tokens) {
      const piece = this.tokenPiece(token);
      parts.push(piece);
      length += piece.length;
    }
    const bytes = new Uint8Array(length);
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    return UTF8_DECODER.decode(bytes);
  }

  /** A BPE vocabulary that spells spaces "▁" as SentencePiece does (llama.cpp's gemma4, granite-embed-multi and sarvam-moe pre-tokenizers). */
  private get escapesWhitespace(): boolean {
    const pre = (this.model.fileInfo.metadata as { tokenizer?: { ggml?: { pre?: unknown } } }).tokenizer?.ggml?.pre;
    return pre === 'gemma4' || pre === 'granite-embed-multi-311m' || pre === 'sarvam-moe';
  }

  /**
   * Bytes that can never occur in UTF-8 are banned under a grammar: llama.cpp's grammar decoder
   * reads them as (invalid) code points, so a negated character class would otherwise let the model
   * spell out text that is not UTF-8.
   */
  private invalidByteBan(): TokenBias | undefined {
    if (this.invalidByteTokens.length === 0) return undefined;
    if (!this.invalidByteBias) {
      this.invalidByteBias = new TokenBias(this.model.tokenizer);
      for (const token of this.invalidByteTokens) this.invalidByteBias.set(token, 'never');
    }
    return this.invalidByteBias;
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
    for (const resolve of this.waiting.splice(0)) resolve();
    for (const masker of this.maskers.values()) if (masker) releaseMaskSamplers(masker);
    await this.embedder.dispose();
    for (const context of this.contexts) await context.dispose();
    await this.model.dispose();
  }

  /** A free sequence of the context with the most free ones (so that concurrent generations spread over the cores). */
  private async acquireSequence(signal?: AbortSignal): Promise<LlamaContextSequence> {
    const freest = () =>
      this.contexts.reduce((best, context) => (context.sequencesLeft > best.sequencesLeft ? context : best));
    while (freest().sequencesLeft === 0) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const at = this.waiting.indexOf(wake);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(new GenerationAbortedError(abortMessage(signal!), { cause: signal!.reason }));
        };
        this.waiting.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    return freest().getSequence();
  }
}

function abortMessage(signal: AbortSignal, timeoutMs?: number): string {
  const reason = signal.reason as { name?: string; message?: string } | undefined;
  if (reason?.name === 'TimeoutError')
    return `generation timed out${timeoutMs !== undefined ? ` after ${timeoutMs} ms` : ''}`;
  return `generation was aborted${reason?.message ? `: ${reason.message}` : ''}`;
}

const UTF8_ENCODER = new TextEncoder();
// ignoreBOM: a U+FEFF the model writes is part of the output (TextDecoder would drop a leading one).
const UTF8_DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

/** An integer option of at least `min`, when given. */
function integerOption(name: string, value: number | undefined, min = 1): void {
  if (value === undefined || (Number.isInteger(value) && value >= min)) return;
  throw new RangeError(
    min === 1
      ? `${name} must be a positive integer, got ${value}`
      : `${name} must be an integer of at least ${min}, got ${value}`,
  );
}

/** As LlamaCompletion's getExtraCompletionEosTokens: gemma models also end a completion at these tokens. */
function extraCompletionStopTokens(model: LlamaModel): Set<Token> {
  const stops = new Set<Token>();
  const architecture = (model.fileInfo.metadata as { general?: { architecture?: unknown } }).general?.architecture;
  if (architecture !== 'gemma' && architecture !== 'gemma2') return stops;
  for (const token of model.iterateAllTokens()) {
    const text = model.detokenize([token], true);
    if (text === '<|file_separator|>' || text === '<|fim_prefix|>') stops.add(token);
    if (stops.size === 2) break;
  }
  return stops;
}

/** What a loaded model can do, from its GGUF (capabilities.ts). */
function capabilitiesOf(model: LlamaModel): Capabilities {
  return modelCapabilities(
    model.fileInfo.metadata as Record<string, unknown>,
    model.fileInsights.hasDecoder,
    hasRankingHead(model),
  );
}

const hasRankingHead = (model: LlamaModel) => model.fileInsights.supportsRanking === true;

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
