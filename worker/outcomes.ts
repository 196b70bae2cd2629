// Writing a job's outcome: a result with the others that finished meanwhile (completions.ts), a
// vectorize job's alone (vectorize.ts), a failure with its retry; each written again while it is
// refused for a moment, and retried while the database is unreachable. Jobs whose outcome is being
// written keep their leases (worker.ts renews them).
import type pg from 'pg';
import { PermanentJobError } from '../src/queue/job-errors.js';
import { errorFields, log } from './log.js';
import { toPgText } from './jobs.js';
import * as protocol from './protocol.js';
import { CompletionBatcher, type Lane } from './completions.js';
import { completeVectorize, VectorizeWriteTimeout } from './vectorize.js';
import type { DatabaseReach } from './reach.js';
import type { Ran } from './execute.js';
import { sleep } from './sleep.js';

/** How long a result waits for others still running to be written with it, at most, and for how many. */
const COMPLETION_HOLD_MS = 2;
const COMPLETION_HOLD_UP_TO = 16;
/**
 * How long while jobs claimed ahead wait too (a batch being worked through: a set-based call, a
 * backfill): long enough for the next job or two of a one-slot worker to join (a few ms each on a small
 * model), so that a worker at SVC_WORKER_CONCURRENCY=1 writes several results a call instead of one
 * (each call costs a statement, a commit and a wake-up of the waiting caller). No caller
 * waits on one result alone then: the batch's caller waits for all of them.
 */
const COMPLETION_HOLD_BATCH_MS = 8;

/**
 * A refused completion or failure is written again after each of these pauses before it counts as
 * refused. The write never waits for a row lock (svc__complete.sql), so a row that another statement
 * holds for a moment refuses it too: the worker's own lease renewal (svc_worker_renew locks the rows it
 * renews, over another connection of the pool), a claim's expired-lease sweep that locked a row it
 * then found renewed. Refused once and left, the request stayed processing until its lease expired
 * and then ran again, a second time (#55: 1-10 requests in a set-based call of 10,000). A refusal
 * for good (the lease lost, the request cancelled) is refused again, at the cost of these statements.
 */
const REFUSED_RETRY_MS = [10, 40, 160, 640];

/** A job that has run and whose outcome is being written. */
interface Writing {
  job: protocol.ClaimedJob;
  written: Promise<void>;
}

/** What the writer asks of the worker's slots: whether results should wait for others to share their call. */
export interface SlotState {
  /** Whether jobs are still running (their results may join a result's call). */
  running(): boolean;
  /** Whether jobs claimed ahead wait for a slot (a batch being worked through). */
  claimedAhead(): boolean;
}

export class OutcomeWriter {
  jobsDone = 0;
  jobsFailed = 0;
  private readonly writing = new Set<Writing>();
  private readonly completions: CompletionBatcher;

  constructor(
    private readonly pool: pg.Pool,
    /** SVC_WORKER_MAX_RETRIES: the retries a failure leaves its request. */
    private readonly maxRetries: number,
    private readonly reach: DatabaseReach,
    slots: SlotState,
    /** A failure was written as a retry: work no notification announces, so the worker claims again. */
    private readonly onRetryPending: () => void,
    /** Where results go out first: the claims' connection, which lets their requests' locks go as they commit (request-locks.ts). */
    resultsLane: Lane,
  ) {
    // Results wait a little for others still running to share their call (completions.ts Hold), and a
    // little longer while jobs claimed ahead wait.
    this.completions = new CompletionBatcher([resultsLane], Infinity, {
      more: () => slots.running(),
      get ms() {
        return slots.claimedAhead() ? COMPLETION_HOLD_BATCH_MS : COMPLETION_HOLD_MS;
      },
      upTo: COMPLETION_HOLD_UP_TO,
    });
  }

  /** Writes a job's outcome; `onWritten` once it has committed (or been given up). */
  write(job: protocol.ClaimedJob, outcome: Ran | { error: unknown }, onWritten: () => void): void {
    const writing: Writing = {
      job,
      written: this.finish(job, outcome).finally(() => {
        this.writing.delete(writing);
        onWritten();
      }),
    };
    this.writing.add(writing);
  }

  /** The requests whose outcome is being written (their leases are still held). */
  requestIds(): string[] {
    return [...this.writing].map((w) => w.job.request_id);
  }

  /** How many outcomes are being written. */
  get pending(): number {
    return this.writing.size;
  }

  /** Settles once every outcome being written now is written (or given up). */
  allWritten(): Promise<void[]> {
    return Promise.all([...this.writing].map((w) => w.written));
  }

  /**
   * A write of a job's outcome that was refused (`taken` false for its answer), written again after
   * each REFUSED_RETRY_MS pause until it is taken or the worker gives up its jobs; the last answer.
   */
  private async writeAgainWhileRefused<T>(
    answer: T,
    taken: (answer: T) => boolean,
    write: () => Promise<T>,
  ): Promise<T> {
    for (const ms of REFUSED_RETRY_MS) {
      if (taken(answer) || this.reach.abandoned) break;
      await sleep(ms, this.reach.abandon.signal);
      answer = await write();
    }
    return answer;
  }

  /**
   * Writes the outcome, retrying while the database is unreachable (the lease decides who wins). A
   * result goes out with the others that finished meanwhile (svc_worker_complete_and_claim, claiming
   * nothing: the claim loop claims for the freed slots); a retry writes it alone.
   */
  private async finish(job: protocol.ClaimedJob, outcome: Ran | { error: unknown }): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        if ('result' in outcome) {
          // A vectorize job's completion waits on locks a role's transactions may hold: alone, under timeouts (completeVectorize).
          let stored =
            job.function_name === 'vectorize'
              ? await completeVectorize(this.pool, job, outcome.result).catch((error: unknown) => {
                  if (error instanceof VectorizeWriteTimeout) outcome = { error };
                  throw error;
                })
              : attempt === 0
                ? await this.completions.complete(job, outcome.result, outcome.cache, outcome.stopReason)
                : !(await protocol.completeCached(this.pool, [{ job, ...outcome }])).has(job.request_id);
          // (A vectorize job's completion waits for its locks instead: completeVectorize.)
          if (job.function_name !== 'vectorize') {
            stored = await this.writeAgainWhileRefused(
              stored,
              (taken) => taken,
              async () => {
                log('debug', 'completion refused; writing it again', {
                  requestId: job.request_id,
                  attempt: job.attempt,
                });
                return !(await protocol.completeCached(this.pool, [{ job, ...(outcome as Ran) }])).has(job.request_id);
              },
            );
          }
          this.reach.reached();
          this.jobsDone++;
          log(
            stored ? 'info' : 'warn',
            stored
              ? 'job completed'
              : "completion refused: the request is no longer this attempt's (its lease was lost, or it is being cancelled)",
            {
              requestId: job.request_id,
              attempt: job.attempt,
            },
          );
          return;
        } else {
          const permanent = outcome.error instanceof PermanentJobError;
          const message = toPgText(outcome.error instanceof Error ? outcome.error.message : String(outcome.error));
          const fail = () => protocol.fail(this.pool, job, message, permanent ? 0 : this.maxRetries);
          const status = await this.writeAgainWhileRefused(await fail(), (taken) => taken !== null, fail);
          this.reach.reached();
          if (status === 'pending') this.onRetryPending(); // its retry is work no notification announces
          this.jobsFailed++;
          log('warn', 'job failed', {
            requestId: job.request_id,
            attempt: job.attempt,
            error: message,
            newStatus: status,
            permanent,
          });
        }
        return;
      } catch (error) {
        if (error instanceof VectorizeWriteTimeout) continue; // written as the job's failure, at once
        this.reach.missed(error);
        if (attempt >= 60 || this.reach.abandoned) {
          log('error', 'giving up on writing a job outcome; its lease will expire and it will run again', {
            requestId: job.request_id,
            ...errorFields(error),
          });
          return;
        }
        await sleep(Math.min(100 * 2 ** attempt, 5000), this.reach.abandon.signal);
      }
    }
  }
}
