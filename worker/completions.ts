// Group completion: results that finish in the same turn of the event loop, or while every connection
// ("lane") is busy, go out together in one svc_worker_complete_and_claim call, each with a claim for
// the slot it frees. A worker whose jobs last seconds sends one completion per call, at once; one
// whose jobs finish together (short jobs, many slots) pays one round trip and one commit for the lot
// instead of one per job.
import * as protocol from './protocol.js';

type Queryable = Parameters<typeof protocol.completeAndClaim>[0];

export interface SlotOutcome {
  /** True when stored; false when refused (the job is no longer this attempt's to complete). */
  completed: boolean;
  /** The jobs claimed for this slot. */
  jobs: protocol.ClaimedJob[];
}

interface Waiting {
  completion: protocol.Completion;
  claimJobs: number;
  resolve: (outcome: SlotOutcome) => void;
  reject: (error: unknown) => void;
}

export class CompletionBatcher {
  private waiting: Waiting[] = [];
  private readonly freeLanes: Queryable[];
  private scheduled = false;

  /**
   * `lanes`: the connections calls go out on, one call at a time on each (a pg.Pool counts as one).
   * `maxBatch`: the most completions per call; more spread over the free lanes.
   */
  constructor(
    lanes: readonly Queryable[],
    private readonly options: Omit<protocol.ClaimOptions, 'maxJobs'>,
    private readonly maxBatch = Infinity,
  ) {
    if (lanes.length === 0) throw new Error('CompletionBatcher: at least one lane is needed');
    if (!(maxBatch >= 1)) throw new Error('CompletionBatcher: maxBatch must be at least 1');
    this.freeLanes = [...lanes];
  }

  /** Stores the job's result and claims up to `claimJobs` jobs for its slot. Rejects when the call fails. */
  complete(job: protocol.Completion['job'], result: string, claimJobs: number): Promise<SlotOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ completion: { job, result }, claimJobs, resolve, reject });
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

  /** Sends what waits, in batches of at most maxBatch, while lanes are free. */
  private send(): void {
    while (this.waiting.length > 0 && this.freeLanes.length > 0) this.sendBatch(this.freeLanes.pop()!, this.waiting.splice(0, this.maxBatch));
  }

  private sendBatch(lane: Queryable, batch: Waiting[]): void {
    const claimJobs = batch.reduce((n, w) => n + w.claimJobs, 0);
    protocol.completeAndClaim(lane, batch.map((w) => w.completion), { ...this.options, claimJobs })
      .then(({ completed, jobs }) => {
        // Claimed jobs come highest priority first; the earliest finished slot gets the first.
        let next = 0;
        for (const w of batch) {
          w.resolve({ completed: completed.has(w.completion.job.request_id), jobs: jobs.slice(next, (next += w.claimJobs)) });
        }
      }, (error: unknown) => {
        for (const w of batch) w.reject(error);
      })
      .finally(() => {
        this.freeLanes.push(lane);
        this.schedule();
      });
  }
}
