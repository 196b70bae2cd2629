// The scheduling of concurrent generations: the sequences of the generation contexts (threads.ts
// shares them out), handed to callers first come first served, each from the context with the most
// free ones so that concurrent generations spread over the cores.
import type { LlamaContext, LlamaContextSequence } from 'node-llama-cpp';
import { GenerationAbortedError } from './outcomes.js';

export class SequencePool {
  /** Callers waiting for a free sequence, first come first served. */
  private readonly waiting: Array<() => void> = [];

  constructor(
    /** The generation contexts, each with its share of the sequences. */
    private readonly contexts: readonly LlamaContext[],
  ) {}

  /** All the contexts' sequences together. */
  get total(): number {
    return this.contexts.reduce((sum, context) => sum + context.totalSequences, 0);
  }

  /** How many generation contexts the sequences are shared out over. */
  get contextCount(): number {
    return this.contexts.length;
  }

  /** A free sequence of the context with the most free ones (so that concurrent generations spread over the cores). */
  async acquire(signal?: AbortSignal): Promise<LlamaContextSequence> {
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

  /** A sequence was disposed: the longest waiting caller takes it. */
  released(): void {
    this.waiting.shift()?.();
  }

  /** Wakes every waiting caller (the engine is being disposed). */
  wakeAll(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  async dispose(): Promise<void> {
    for (const context of this.contexts) await context.dispose();
  }
}

/** The message of a GenerationAbortedError: a timeout (after `timeoutMs`, when given) or an abort, with its reason. */
export function abortMessage(signal: AbortSignal, timeoutMs?: number): string {
  const reason = signal.reason as { name?: string; message?: string } | undefined;
  if (reason?.name === 'TimeoutError')
    return `generation timed out${timeoutMs !== undefined ? ` after ${timeoutMs} ms` : ''}`;
  return `generation was aborted${reason?.message ? `: ${reason.message}` : ''}`;
}
