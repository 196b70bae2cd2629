// Embeddings and rankings of a loaded model (Engine's embed, embedEach and rerank): node-llama-cpp's
// embedding and ranking contexts, or svc's embedding addon (embed-native.ts) where it is built, each
// made on first use. Loading a model is model-load.ts's, generating generation.ts's.
import type { Llama, LlamaEmbeddingContext, LlamaModel, LlamaRankingContext, Token } from 'node-llama-cpp';
import { ENCODER_ARCHITECTURES } from './capabilities.js';
import { EMBED_LANES, EmbeddingPool, embedInLanes } from './embed-pool.js';
import { embedAddon, embeddingTokens, NativeEmbedModel, type NativeEmbedContext } from './embed-native.js';
import { tokensOverLimit } from './input-bound.js';
import { ContextExceededError, NothingToEmbedError, type RerankResult } from './outcomes.js';

/** Texts per call into svc's embedding addon: twice a decoder's default embeddingSequences, and few enough that the contexts share a job's texts evenly. */
const EMBED_GROUP = 8;
/** Texts tokenized between two turns of the event loop (~5-10 ms of the main thread for short texts). */
const TOKENIZE_SLICE = 256;

/** What an Embedder works with: the loaded model and how its contexts are made. */
export interface EmbedderSetup {
  llama: Llama;
  model: LlamaModel;
  /** The file loaded (the embedding addon loads it too). */
  modelPath: string;
  threads: number;
  /** Tokens per context: the window of every embedding and ranking. */
  contextSize: number;
  /** The most embedding contexts made (concurrent calls make more, up to this). */
  embeddingContextLimit: number;
  /** Sequences per decode of the addon's contexts (a decoder packs texts of one length). */
  embeddingSequences: number;
  /** The model's architecture (capabilities.ts): an encoder reads a bare query. */
  architecture: string;
  /** Whether the model has a ranking head (rerank scores with it). */
  rankingHead: boolean;
}

export class Embedder {
  private embeddings?: EmbeddingPool<LlamaEmbeddingContext>;
  /** svc's embedding addon's model and contexts: undefined until the first embedding, null where it is not used. */
  private native?: { model: NativeEmbedModel; pool: EmbeddingPool<NativeEmbedContext> } | null;
  private rankingContext?: Promise<LlamaRankingContext>;
  private readonly llama: Llama;
  private readonly model: LlamaModel;
  private readonly modelPath: string;
  private readonly threads: number;
  private readonly contextSize: number;
  private readonly embeddingContextLimit: number;
  private readonly embeddingSequences: number;
  private readonly architecture: string;
  private readonly rankingHead: boolean;

  constructor(setup: EmbedderSetup) {
    ({
      llama: this.llama,
      model: this.model,
      modelPath: this.modelPath,
      threads: this.threads,
      contextSize: this.contextSize,
      embeddingContextLimit: this.embeddingContextLimit,
      embeddingSequences: this.embeddingSequences,
      architecture: this.architecture,
      rankingHead: this.rankingHead,
    } = setup);
  }

  /** The embedding contexts made so far. */
  get contextsMade(): number {
    return (this.native?.pool.contexts ?? 0) + (this.embeddings?.contexts ?? 0);
  }

  /** Refuses (ContextExceededError) a text that a prefix shows to be over the context, before it is tokenized whole. */
  private refuseOverContext(what: string, text: string): void {
    const over = tokensOverLimit(text, this.contextSize - 1, (piece) => this.model.tokenize(piece).length);
    if (over !== undefined) throw new ContextExceededError(what, over, this.contextSize, this.contextSize - 1, true);
  }

  /** An L2-normalized embedding of the model's dimension. */
  async embed(text: string, what = 'the text'): Promise<number[]> {
    if (this.nativeEmbeddings()) {
      const [vector] = await this.embedNative([text], what);
      if (vector === null) throw new NothingToEmbedError(what);
      return vector;
    }
    this.embeddings ??= new EmbeddingPool(
      () => this.model.createEmbeddingContext({ threads: this.threads, contextSize: this.contextSize }),
      this.embeddingContextLimit,
    );
    this.refuseOverContext(what, text);
    const { vector } = await this.embeddings.use(async (context) => {
      // node-llama-cpp refuses an input of contextSize tokens or more without the numbers; refused here with them.
      const tokens = context.calculateInputLength(text);
      if (tokens >= this.contextSize)
        throw new ContextExceededError(what, tokens, this.contextSize, this.contextSize - 1);
      return context.getEmbeddingFor(text);
    });
    if (!vector.some((x) => x !== 0)) throw new NothingToEmbedError(what);
    return l2Normalize(vector);
  }

  /**
   * Each text's embedding as `embed` gives it, in order; null for a text the model makes no tokens
   * of. Through svc's embedding addon many texts go into llama.cpp per call (embed-native.ts), shared
   * out over the embedding contexts; else `embed` runs on each, as many at once as there are
   * contexts. `signal` stops it between two calls into llama.cpp.
   */
  async embedEach(texts: readonly string[], signal?: AbortSignal): Promise<Array<number[] | null>> {
    if (this.nativeEmbeddings()) return this.embedNative(texts, 'the text', signal);
    return embedInLanes(texts, (text) => this.embed(text), EMBED_LANES, signal);
  }

  /** The addon's contexts, made on first use; undefined where it is not built, off or not for this model. */
  private nativeEmbeddings(): EmbeddingPool<NativeEmbedContext> | undefined {
    if (this.native === undefined) {
      this.native = null;
      const addon = this.llama.gpu === false ? embedAddon() : null;
      if (addon) {
        const model = NativeEmbedModel.load(addon, this.modelPath);
        const options = { threads: this.threads, contextSize: this.contextSize, sequences: this.embeddingSequences };
        try {
          // The first context is made here: a model whose output the addon does not read (a ranking head) keeps node-llama-cpp's path.
          let first: NativeEmbedContext | undefined = model.createContext(options);
          const pool = new EmbeddingPool<NativeEmbedContext>(async () => {
            const made = first ?? model.createContext(options);
            first = undefined;
            return made;
          }, this.embeddingContextLimit);
          this.native = { model, pool };
        } catch {
          model.dispose();
        }
      }
    }
    return this.native?.pool;
  }

  /** `texts` through the addon: tokens as node-llama-cpp's embedding context makes them, checked, then shared out in groups. */
  private async embedNative(
    texts: readonly string[],
    what: string,
    signal?: AbortSignal,
  ): Promise<Array<number[] | null>> {
    const pool = this.native!.pool;
    // Tokenized on the main thread, TOKENIZE_SLICE texts at a time with a turn of the event loop
    // between: a job of 20,000 chunks tokenized at once held the loop for over a second (the
    // worker's heartbeats and its stop grace waited on it).
    const tokens: Token[][] = [];
    for (const [i, text] of texts.entries()) {
      if (i > 0 && i % TOKENIZE_SLICE === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        signal?.throwIfAborted();
      }
      this.refuseOverContext(what, text);
      const t = embeddingTokens(this.model, text);
      if (t.length >= this.contextSize)
        throw new ContextExceededError(what, t.length, this.contextSize, this.contextSize - 1);
      tokens.push(t);
    }
    // By token count: a decoder packs only texts of one count in a decode (batch.cc), so those go to one call.
    const todo = tokens
      .flatMap((t, i) => (t.length > 0 ? [i] : []))
      .sort((a, b) => tokens[a].length - tokens[b].length);
    // Groups of EMBED_GROUP texts, taken by the contexts as each one frees: one group per context
    // (64 texts in three groups of 22) left a job waiting on whichever context the machine's load
    // held back, and the backfill was slower than node-llama-cpp's one text per call.
    const size = EMBED_GROUP;
    const groups = Array.from({ length: Math.ceil(todo.length / size) }, (_, g) =>
      todo.slice(g * size, (g + 1) * size),
    );
    const vectors: Array<number[] | null> = texts.map(() => null);
    let next = 0;
    let failed = false;
    await Promise.all(
      Array.from({ length: Math.min(pool.size, groups.length) }, async () => {
        while (next < groups.length && !failed) {
          signal?.throwIfAborted();
          const group = groups[next++];
          const raw = await pool
            .use((context) => context.embed(group.map((i) => tokens[i])))
            .catch((error: unknown) => {
              failed = true;
              throw error;
            });
          group.forEach((i, k) => {
            const vector = Array.from(raw[k]);
            vectors[i] = vector.some((x) => x !== 0) ? l2Normalize(vector) : null;
          });
        }
      }),
    );
    return vectors;
  }

  /**
   * Documents ranked for the query, best first, each with its index in `documents`. A model with a
   * ranking head (a reranker GGUF) scores each pair with it (0..1, the head's probability of
   * relevance). Other models (like the test model) score by cosine similarity (-1..1) of the
   * embedding of `task` + query to each document's embedding; an encoder reads the query without
   * the task. Ties keep the input order.
   */
  async rerank(query: string, documents: string[], task: string): Promise<RerankResult[]> {
    // Encoders (BERT and its kin: bge, MiniLM, nomic, bge-reranker, svc-embed) were trained on bare
    // queries: an instruction before one only dilutes it (svc-embed ranked "Tom read a book" above
    // "The cake was sweet" for "a cake" with the default task). Decoder embedders are instruction-tuned.
    const instructed = task && !ENCODER_ARCHITECTURES.has(this.architecture) ? `${task}\nQuery: ${query}` : query;
    // Empty text has no embedding (embed gives []): its score would be NaN and the order undefined.
    // The library, the CLI and SQL reject empty and whitespace-only texts before they get here.
    if (instructed === '') throw new RangeError('rerank: query must not be empty');
    const empty = documents.indexOf('');
    if (empty >= 0) throw new RangeError(`rerank: documents[${empty}] must not be empty`);
    let scores: number[];
    if (this.rankingHead) {
      this.rankingContext ??= this.model.createRankingContext({ threads: this.threads, contextSize: this.contextSize });
      const ranking = await this.rankingContext;
      // A pair over the context is refused with its numbers (rankAll would score a chunk of the document instead).
      this.refuseOverContext('the query', instructed);
      for (const [i, document] of documents.entries()) {
        this.refuseOverContext(`documents[${i}]`, document);
        const tokens = ranking.calculateInputLength(instructed, document);
        if (tokens >= this.contextSize)
          throw new ContextExceededError(
            `the query with documents[${i}]`,
            tokens,
            this.contextSize,
            this.contextSize - 1,
          );
      }
      scores = await ranking.rankAll(instructed, documents);
      const nan = scores.findIndex((score) => Number.isNaN(score));
      if (nan >= 0) throw new NothingToEmbedError(`documents[${nan}]`);
    } else {
      const q = await this.embed(instructed, 'the query');
      scores = [];
      for (const [i, document] of documents.entries())
        scores.push(dot(q, await this.embed(document, `documents[${i}]`)));
    }
    return documents
      .map((document, index) => ({ index, document, score: scores[index] }))
      .sort((a, b) => b.score - a.score || a.index - b.index);
  }

  async dispose(): Promise<void> {
    await this.embeddings?.dispose();
    await this.native?.pool.dispose();
    this.native?.model.dispose();
    await (await this.rankingContext?.catch(() => undefined))?.dispose();
  }
}

export function l2Normalize(vector: readonly number[]): number[] {
  const norm = Math.sqrt(vector.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? [...vector] : vector.map((x) => x / norm);
}

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
