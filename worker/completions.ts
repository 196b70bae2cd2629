// Group completion: results that finish in the same turn of the event loop, or while every connection
// ("lane") is busy, are written together in one call and one commit, with the cache entries of those
// whose request allows the cache (svc_worker_complete_cached; the worker's claim loop claims for the
// freed slots). A worker whose jobs last
// seconds writes one result per call, at once; one whose jobs finish together (short jobs, many slots)
// pays one round trip and one durable commit for the lot instead of one per job.
import * as protocol from './protocol.js';

type Queryable = Parameters<typeof protocol.completeCached>[0];
type Entry = protocol.Completion & { cache?: readonly protocol.CacheEntry[] };

/**
 * Where a call goes: a connection (or pool), or a writer of its own: the worker's claims connection
 * (worker/request-locks.ts), which lets the requests' locks go in the completions' transaction.
 */
export type Lane = Queryable | { complete(completions: Entry[]): Promise<Set<string>> };
const write = (lane: Lane, completions: Entry[]) =>
  'complete' in lane ? lane.complete(completions) : protocol.completeCached(lane, completions);

interface Waiting {
  completion: Entry;
  resolve: (stored: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Holding results back for others about to finish: while `more()` says other jobs are running, a
 * result waits up to `ms` (or until `upTo` wait) for them to join its call. Short jobs running side by
 * side then share one call and one commit, where each would otherwise take a call of its own as the
 * lane frees between them; a result with nothing else running goes out at once.
 */
export interface Hold {
  more: () => boolean;
  ms: number;
  upTo: number;
}

export class CompletionBatcher {
  private waiting: Waiting[] = [];
  private readonly freeLanes: Lane[];
  private scheduled = false;
  /** When the oldest result waiting was handed in (performance.now()), and the timer that sends it. */
  private oldest = 0;
  private holdTimer?: NodeJS.Timeout;

  /**
   * `lanes`: the connections calls go out on, one call at a time on each (a pg.Pool counts as one).
   * `maxBatch`: the most results per call; more spread over the free lanes. `hold`: see Hold.
   */
  constructor(
    lanes: readonly Lane[],
    private readonly maxBatch = Infinity,
    private readonly hold?: Hold,
  ) {
    if (lanes.length === 0) throw new Error('CompletionBatcher: at least one lane is needed');
    if (!(maxBatch >= 1)) throw new Error('CompletionBatcher: maxBatch must be at least 1');
    this.freeLanes = [...lanes];
  }

  /**
   * Stores the job's result (its cache entries, and how a generation ended, when given): true once stored, false when refused
   * (the job is no longer this attempt's to complete). Rejects when the call fails.
   */
  complete(
    job: protocol.Completion['job'],
    result: string,
    cache?: readonly protocol.CacheEntry[],
    stopReason?: protocol.Completion['stopReason'],
  ): Promise<boolean> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) this.oldest = performance.now();
      this.waiting.push({ completion: { job, result, cache, stopReason }, resolve, reject });
      this.schedule();
    });
  }

  /** Sends at the end of this turn of the event loop, so that results finishing together go together. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.send();
    });
  }

  /** Sends what waits, in batches of at most maxBatch, while lanes are free (unless held). */
  private send(): void {
    if (this.holding()) return;
    while (this.waiting.length > 0 && this.freeLanes.length > 0)
      this.sendBatch(this.freeLanes.pop()!, this.waiting.splice(0, this.maxBatch));
  }

  /** Whether what waits is held back for results about to join it; if so, sends it when the hold ends. */
  private holding(): boolean {
    const hold = this.hold;
    if (!hold || this.waiting.length === 0 || this.waiting.length >= hold.upTo || !hold.more()) return false;
    const left = this.oldest + hold.ms - performance.now();
    if (left <= 0) return false;
    this.holdTimer ??= setTimeout(() => {
      this.holdTimer = undefined;
      this.send();
    }, left);
    return true;
  }

  private sendBatch(lane: Lane, batch: Waiting[]): void {
    write(
      lane,
      batch.map((w) => w.completion),
    )
      .then(
        (refused) => {
          for (const w of batch) w.resolve(!refused.has(w.completion.job.request_id));
        },
        (error: unknown) => {
          for (const w of batch) w.reject(error);
        },
      )
      .finally(() => {
        this.freeLanes.push(lane);
        this.schedule();
      });
  }
}
