// How many jobs the worker holds claimed ahead of its free slots. SVC_WORKER_PREFETCH is the least;
// where jobs are short (embeddings: a few milliseconds each) the worker holds about AHEAD_MS of work
// a slot instead, so that it claims dozens in a statement rather than three (a claim costs the
// database about as much for one job as for many: at 4 slots and 4 ahead an embedding table took
// 0.9 ms of PostgreSQL a row, 0.6 at 16 ahead). Counted in time, what one worker holds back from
// another stays a few tens of milliseconds of work however short the jobs are.

/** The work, in milliseconds a slot, that a worker of short jobs holds claimed ahead. */
export const AHEAD_MS = 50;
/** The most jobs held ahead, however short: a claim of more is a long statement for little gain. */
export const MOST_AHEAD = 64;

/**
 * Jobs to hold ahead: `prefetch` (0 means none, and stays none), or enough to cover AHEAD_MS a slot at
 * `estimateMs` a job, at most MOST_AHEAD.
 */
export function jobsAhead(prefetch: number, concurrency: number, estimateMs: number | undefined): number {
  if (prefetch === 0 || estimateMs === undefined) return prefetch;
  const covering = Math.floor((concurrency * AHEAD_MS) / Math.max(estimateMs, 0.1));
  return Math.max(prefetch, Math.min(MOST_AHEAD, covering));
}

/**
 * The recent time of a job in a slot (from its start to its engine call's return): a slower job sets it
 * at once, faster ones bring it down a tenth of the way each. Erring long keeps the backlog small where
 * short jobs (cache hits) and long ones (generations) mix: a backlog claimed on a short estimate would
 * hold long jobs back from other workers, and new requests from this one, until it is nearly started.
 */
export class JobTimes {
  private estimate: number | undefined;

  ran(ms: number): void {
    this.estimate = this.estimate === undefined || ms > this.estimate ? ms : this.estimate * 0.9 + ms * 0.1;
  }

  get estimateMs(): number | undefined {
    return this.estimate;
  }
}
