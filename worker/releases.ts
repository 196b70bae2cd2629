// Letting go of jobs that are no longer this worker's to run: cancelled, or their synchronous caller
// gone (svc_worker_released). Asked about every second for all the jobs held, and at once for those a
// svc_cancel notification names; the worker drops each from its backlog or stops it (worker.ts release).
import type pg from 'pg';
import { errorFields, log } from './log.js';
import * as protocol from './protocol.js';
import type { DatabaseReach } from './reach.js';

/** How often the worker asks which of the jobs it holds it must let go (svc_worker_released). */
export const RELEASE_CHECK_MS = 1000;

/** The jobs the worker holds, and how it lets one go. */
export interface HeldJobs {
  /** Requests running in a slot. */
  running(): string[];
  /** Requests claimed ahead, waiting for a slot. */
  claimedAhead(): string[];
  release(id: string): void;
}

export class ReleaseChecker {
  /** Ids a svc_cancel notification named that the next release check asks about first. */
  private readonly toCheck = new Set<string>();
  private checking = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly workerId: string,
    private readonly held: HeldJobs,
    private readonly reach: DatabaseReach,
  ) {}

  /**
   * Asks which of the jobs it holds (`only`: those ids) it must let go (svc_worker_released), and lets
   * them go: dropped from the backlog, or stopped at their next token with nothing written.
   */
  check(only?: readonly string[]): void {
    if (only) for (const id of only) this.toCheck.add(id);
    if (this.checking) return;
    // A check for notified jobs also asks about every job claimed ahead: a claim cancels all the
    // requests whose callers stopped waiting and announces each in a notification of its own, so a
    // running one released on its own notification would free its slot for a claimed-ahead one whose
    // notification is not checked yet, and that one would start.
    const claimedAhead = this.held.claimedAhead();
    const ids = only ? [...new Set([...this.toCheck, ...claimedAhead])] : [...this.held.running(), ...claimedAhead];
    this.toCheck.clear();
    if (ids.length === 0) return;
    this.checking = true;
    protocol
      .released(this.pool, this.workerId, ids)
      .then(
        (gone) => {
          this.reach.reached();
          for (const id of gone) this.held.release(id);
        },
        (error: unknown) => {
          this.reach.missed(error);
          log('warn', 'could not check for cancelled jobs', errorFields(error));
        },
      )
      .finally(() => {
        this.checking = false;
        if (this.toCheck.size > 0) this.check([]);
      });
  }
}
