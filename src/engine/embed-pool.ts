// Embedding contexts shared out to concurrent callers. node-llama-cpp's embedding context evaluates
// one text at a time (its getEmbedding reads sequence 0, or the batch's last output), so texts cannot
// share one llama.cpp batch; what a batch of texts can use instead is the cores one context leaves
// idle: each further context decodes its own text on its own threads, at the same time. Each text is
// still decoded alone, by the same kernels on the same number of threads, so its vector is the same
// bytes whichever context ran it (test/engine/embed-pool.test.ts). Contexts are made on demand, up to
// `size`, only while every one made is busy: a caller embedding one text after another keeps one.

import { NothingToEmbedError } from './outcomes.js';

/** A context of the pool; `T` is node-llama-cpp's LlamaEmbeddingContext in the engine. */
export interface Disposable {
  dispose(): Promise<void>;
}

export class EmbeddingPool<T extends Disposable> {
  private readonly idle: T[] = [];
  private readonly made: Array<Promise<T>> = [];
  /** Callers waiting for a context, first come first served. */
  private readonly waiting: Array<(context: T) => void> = [];
  private disposed = false;

  constructor(
    private readonly create: () => Promise<T>,
    /** The most contexts made (at least 1). */
    readonly size: number,
  ) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`an embedding pool needs at least one context, got ${size}`);
  }

  /** How many contexts have been made so far. */
  get contexts(): number {
    return this.made.length;
  }

  /** Runs `work` on a context of its own for the duration. */
  async use<R>(work: (context: T) => Promise<R>): Promise<R> {
    const context = await this.acquire();
    try {
      return await work(context);
    } finally {
      this.releaseContext(context);
    }
  }

  private acquire(): Promise<T> {
    if (this.disposed) return Promise.reject(new Error('the engine is disposed'));
    const free = this.idle.pop();
    if (free) return Promise.resolve(free);
    if (this.made.length < this.size) {
      const made = this.create();
      this.made.push(made);
      // A context that cannot be made (memory) is not counted: the callers wait for the others instead.
      made.catch(() => this.made.splice(this.made.indexOf(made), 1));
      if (this.made.length > 1) return made.catch(() => new Promise<T>((resolve) => this.waiting.push(resolve)));
      return made;
    }
    return new Promise<T>((resolve) => this.waiting.push(resolve));
  }

  private releaseContext(context: T): void {
    const next = this.waiting.shift();
    if (next) next(context);
    else this.idle.push(context);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const contexts = await Promise.all(this.made.map((m) => m.catch(() => undefined)));
    for (const context of contexts) await context?.dispose();
  }
}

/** Embeddings asked of an engine at once where it takes one text per call: its embedding contexts run them side by side. */
export const EMBED_LANES = 4;

/**
 * The vectors of `texts` in their order (null: the model makes no tokens of it, NothingToEmbedError),
 * `lanes` at a time, each by `embed`. `signal` or a failure stops it between two embeddings.
 */
export async function embedInLanes(
  texts: readonly string[],
  embed: (text: string) => Promise<number[]>,
  lanes: number,
  signal?: AbortSignal,
): Promise<Array<number[] | null>> {
  const vectors: Array<number[] | null> = new Array(texts.length);
  let next = 0;
  let failed = false;
  await Promise.all(
    Array.from({ length: Math.min(lanes, texts.length) }, async () => {
      while (next < texts.length && !failed) {
        signal?.throwIfAborted();
        const k = next++;
        try {
          vectors[k] = await embed(texts[k]);
        } catch (error) {
          if (error instanceof NothingToEmbedError) vectors[k] = null;
          else {
            failed = true;
            throw error;
          }
        }
      }
    }),
  );
  return vectors;
}
