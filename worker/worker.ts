// The queue worker: claims jobs for its free slots and a few ahead, runs them on the engine, writes
// results back (a slot is free again once its job has run, and takes its next job from those claimed
// ahead; the write goes on meanwhile, and results that finish together are written in one call), and
// keeps its leases and heartbeat fresh. Wakes on the enqueue notification, polls as a fallback, survives database restarts, and on stop() finishes and
// writes what it holds before returning — unless the database is unreachable then: what it holds is
// given up at once (never written: the leases expire and the jobs run again), so a stop is prompt.
//
// This file is the claim loop and the slots; the rest is shared out: execute.ts runs a job,
// outcomes.ts writes its outcome, heartbeat.ts beats and cleans up, leases.ts renews the leases,
// releases.ts lets go of cancelled jobs, listener.ts hears of work, reach.ts tracks the database.
import type pg from 'pg';
import type { InferenceEngine } from '../src/queue/inference-engine.js';
import { servable } from '../src/engine/capabilities.js';
import type { WorkerConfig } from './config.js';
import { ConfigError } from './config.js';
import { errorFields, log } from './log.js';
import type * as protocol from './protocol.js';
import { SETUP_SQLSTATES, checkSetup, sqlState } from './setup.js';
import { RequestLocks } from './request-locks.js';
import { DatabaseReach } from './reach.js';
import { JobExecutor, type Ran } from './execute.js';
import { OutcomeWriter } from './outcomes.js';
import { Heartbeat, modelIdentities } from './heartbeat.js';
import { renewLeases } from './leases.js';
import { RELEASE_CHECK_MS, ReleaseChecker } from './releases.js';
import { WorkListener } from './listener.js';
import { JobTimes, jobsAhead } from './claim-ahead.js';

interface Running {
  job: protocol.ClaimedJob;
  /** Settles once the engine call has returned and the slot is free. */
  done: Promise<void>;
  controller: AbortController;
  /** No longer this worker's to run (cancelled, or its synchronous caller gone): its outcome is not written. */
  released: boolean;
}

export class Worker {
  private readonly running = new Map<string, Running>();
  /** Jobs claimed ahead of a free slot (their leases held and renewed), highest priority first. */
  private readonly backlog: protocol.ClaimedJob[] = [];
  private stopping = false;
  /** Whether the database answers, and whether the worker gave up what it holds (giveUp). */
  private readonly reach = new DatabaseReach(() => {
    if (this.stopping) this.giveUp();
  });
  /** The setup problem last logged (checkSetup), so it is logged once, not on every retry. */
  private setupProblem?: string;
  private wake: () => void = () => undefined;
  /**
   * The last claim found fewer jobs than it asked for, and no submission has been heard of since: a
   * freed slot then claims nothing (an empty claim costs the database as much as a full one) until a
   * notification or the poll. `heard` counts the notifications, so that one arriving while a claim
   * runs (whose snapshot may miss its row) is not lost.
   */
  private drained = false;
  private heard = 0;
  /** When the last claim was sent (performance.now()): the poll claims SVC_WORKER_POLL_INTERVAL after it, however often the worker wakes. */
  private lastClaimAt = -Infinity;
  private timers: NodeJS.Timeout[] = [];
  private readonly executor: JobExecutor;
  private readonly outcomes: OutcomeWriter;
  private readonly heartbeat: Heartbeat;
  private readonly releases: ReleaseChecker;
  private readonly listener: WorkListener;
  /** The claims' connection and the locks it holds on the requests claimed, which wake their waiting callers. */
  private readonly locks: RequestLocks;
  private readonly models: string[];
  private readonly jobTimes = new JobTimes();

  constructor(
    private readonly config: WorkerConfig,
    private readonly pool: pg.Pool,
    /** An engine per svc_models name served (config.models). */
    private readonly engines: ReadonlyMap<string, InferenceEngine>,
  ) {
    this.models = [...engines.keys()];
    this.executor = new JobExecutor(pool, engines, config.progressIntervalMs);
    this.locks = new RequestLocks(config.db);
    this.outcomes = new OutcomeWriter(
      pool,
      config.maxRetries,
      this.reach,
      { running: () => this.running.size > 0, claimedAhead: () => this.backlog.length > 0 },
      () => this.heardOfWork(),
      this.locks,
    );
    this.heartbeat = new Heartbeat(
      pool,
      config,
      engines,
      this.reach,
      () => ({
        jobsDone: this.outcomes.jobsDone,
        jobsFailed: this.outcomes.jobsFailed,
        jobsInFlight: this.running.size,
      }),
      () => this.stopping,
    );
    this.releases = new ReleaseChecker(
      pool,
      config.workerId,
      {
        running: () => [...this.running.keys()],
        claimedAhead: () => this.backlog.map((j) => j.request_id),
        release: (id) => this.release(id),
      },
      this.reach,
    );
    this.listener = new WorkListener(config.db, () => this.stopping, {
      work: () => this.heardOfWork(),
      cancel: (id) => {
        if (this.holds(id)) this.releases.check([id]);
      },
    });
  }

  /** Runs until stop() is called and every claimed job has been finished. */
  async run(): Promise<void> {
    log('info', 'worker started', {
      workerId: this.config.workerId,
      models: modelIdentities(this.engines),
      concurrency: this.config.concurrency,
      // How each in-process model runs: its threads (SVC_WORKER_THREADS), context (SVC_WORKER_CONTEXT_SIZE)
      // and generation contexts (one per thread-group of the cores), and what it serves.
      engines: Object.fromEntries(
        [...this.engines].map(([name, e]) => [
          name,
          e.threads === undefined
            ? { server: true }
            : {
                threads: e.threads,
                contextSize: e.contextSize,
                generationContexts: e.generationContexts,
                serves: e.capabilities ? servable(e.capabilities) : undefined,
              },
        ]),
      ),
    });
    void this.listener.run();
    await this.heartbeat.beat('running');
    this.timers.push(
      setInterval(() => void this.heartbeat.beat(this.stopping ? 'stopping' : 'running'), this.config.heartbeatMs),
    );
    this.timers.push(setInterval(() => void this.renewLeases(), (this.config.leaseSeconds * 1000) / 3));
    this.timers.push(setInterval(() => this.releases.check(), RELEASE_CHECK_MS));
    let failures = 0;
    while (!this.stopping) {
      this.startClaimed();
      // Claims for the free slots and some jobs ahead (the backlog: claim-ahead.ts), so that a slot
      // that frees starts its next job at once instead of after a claim's round trip, and claims come
      // in batches.
      const ahead = this.ahead();
      const want = this.config.concurrency + ahead - this.running.size - this.backlog.length;
      let claimed = 0;
      // After an empty claim, the next waits for a submission to be announced, or for the poll: what no
      // notification announces (a retry's backoff ending, an expired lease, a notification missed).
      const pollDue = performance.now() - this.lastClaimAt >= this.config.pollIntervalMs;
      if (this.shouldClaim(want, ahead) && (!this.drained || pollDue)) {
        const heard = this.heard;
        this.lastClaimAt = performance.now();
        try {
          const jobs = await this.reach.untilAbandoned(
            this.locks.claim({
              workerId: this.config.workerId,
              maxJobs: want,
              leaseSeconds: this.config.leaseSeconds,
              maxRetries: this.config.maxRetries,
              models: this.models,
            }),
          );
          this.reach.reached();
          failures = 0;
          // Highest priority first, then in claim order: a sync call's request claimed after queued
          // async work still runs next.
          this.backlog.push(...(jobs ?? []));
          this.backlog.sort((a, b) => b.priority - a.priority);
          claimed = jobs?.length ?? 0;
          this.drained = claimed < want && this.heard === heard;
        } catch (error) {
          failures++;
          this.reach.missed(error);
          await this.claimFailed(error, failures);
          await this.idle(Math.min(100 * 2 ** failures, 5000));
          continue;
        }
      }
      if (claimed > 0 && claimed === want) continue; // there may be more
      if (this.backlog.length > 0 && this.running.size < this.config.concurrency) continue;
      await this.idle(this.config.pollIntervalMs);
    }
    // What was claimed is run: the backlog too, as slots free.
    while (this.running.size > 0 || (this.backlog.length > 0 && !this.reach.abandoned)) {
      this.startClaimed();
      await Promise.race([...this.running.values()].map((r) => r.done));
    }
    // A write held up by the database (a lock) is waited for; one to a database that is gone is not.
    await this.reach.untilAbandoned(this.outcomes.allWritten());
    for (const timer of this.timers) clearInterval(timer);
    await this.reach.untilAbandoned(this.heartbeat.stopped());
    this.listener.close();
    await this.locks.close();
    log('info', 'worker stopped', {
      workerId: this.config.workerId,
      jobsDone: this.outcomes.jobsDone,
      jobsFailed: this.outcomes.jobsFailed,
      abandoned: this.reach.abandoned,
    });
  }

  /**
   * Stop claiming; run() returns once the jobs in flight are finished and their outcomes written. When
   * the database is unreachable (now, or while stopping) they are given up instead. Jobs still running
   * after SVC_WORKER_STOP_GRACE are stopped, and written as failures that run again (as a lost lease
   * would, at once instead of when it expires); so are those claimed ahead and not started.
   */
  stop(): void {
    if (this.stopping) return;
    log('info', 'stopping: finishing jobs in flight', {
      inFlight: this.running.size,
      graceSeconds: this.config.stopGraceMs / 1000,
    });
    this.stopping = true;
    this.wake();
    if (this.reach.unreachable) this.giveUp();
    else void this.heartbeat.beat('stopping'); // says so at once, and finds out whether the database is still there
    this.timers.push(setTimeout(() => this.stopInFlight(), this.config.stopGraceMs));
  }

  /** The grace after SIGTERM has passed: what still runs or waits is stopped, and runs again (a failure with its retry). */
  private stopInFlight(): void {
    if (this.running.size === 0 && this.backlog.length === 0) return;
    const reason = new Error(
      `stopped: the worker was told to stop, and SVC_WORKER_STOP_GRACE (${this.config.stopGraceMs / 1000} s) passed before this job finished`,
    );
    log('warn', 'stop grace passed: stopping the jobs in flight; they run again', {
      inFlight: this.running.size,
      claimedAhead: this.backlog.length,
    });
    for (const job of this.backlog.splice(0))
      this.decided(
        { job, controller: new AbortController(), released: false, done: Promise.resolve() },
        { error: reason },
      );
    for (const r of this.running.values()) r.controller.abort(reason);
  }

  /**
   * Stopping while the database cannot be reached: aborts the jobs in flight and drops the outcomes
   * not yet written. Nothing is lost: each job's lease expires and it is claimed again.
   */
  private giveUp(): void {
    if (this.reach.abandoned) return;
    log(
      'warn',
      'stopping while the database is unreachable: giving up the jobs in flight and results not yet written; their leases will expire and they will run again',
      { inFlight: this.running.size, unwritten: this.outcomes.pending },
    );
    const reason = new Error('given up: the worker stopped while the database was unreachable');
    for (const job of this.backlog.splice(0)) this.locks.unlock(job.request_id);
    for (const r of this.running.values()) r.controller.abort(reason);
    this.reach.abandon.abort(reason);
  }

  /**
   * Logs a failed claim. One that looks like a setup problem (the extension dropped, svc_worker
   * revoked) is checked, and the problem logged once with what to do; the worker keeps retrying, so
   * it resumes once the database is set up again.
   */
  private async claimFailed(error: unknown, attempt: number): Promise<void> {
    const code = sqlState(error);
    if (code !== undefined && SETUP_SQLSTATES.has(code)) {
      const problem = await checkSetup(this.pool).then(
        () => undefined,
        (e: unknown) => (e instanceof ConfigError ? e.message : undefined),
      );
      if (problem !== undefined) {
        if (problem !== this.setupProblem)
          log('error', `claim failed: ${problem}; retrying`, { ...errorFields(error), attempt });
        this.setupProblem = problem;
        return;
      }
    }
    this.setupProblem = undefined;
    log('warn', 'claim failed; retrying', { ...errorFields(error), attempt });
  }

  /** Starts backlog jobs in the free slots. */
  private startClaimed(): void {
    if (this.reach.abandoned) return;
    while (this.running.size < this.config.concurrency && this.backlog.length > 0) this.start(this.backlog.shift()!);
  }

  /**
   * Whether to claim now, for `want` jobs: only once the jobs held ahead are nearly all started (at
   * most a quarter of `ahead` left), so that a worker of short jobs claims several in one statement
   * rather than one each time a slot frees (a claim costs about the same for one job as for several),
   * while the few left cover the claim's round trip.
   */
  private shouldClaim(want: number, ahead: number): boolean {
    return want > 0 && this.backlog.length <= Math.floor(ahead / 4);
  }

  /** Jobs to hold claimed ahead: SVC_WORKER_PREFETCH, more where jobs are short (claim-ahead.ts). */
  private ahead(): number {
    return jobsAhead(this.config.prefetch, this.config.concurrency, this.jobTimes.estimateMs);
  }

  /** Waits for a notification, a freed slot, stop(), or `ms`. */
  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  /**
   * Runs a job in a slot. Its outcome is decided when it ends or when it is stopped (its timeout, or
   * its release: cancelled, or its synchronous caller gone), whichever comes first, so the timeout
   * holds for every kind of job, engine calls that do not watch the signal (an embedding, a rerank)
   * included; the slot stays taken until the engine call returns, so no more jobs than the
   * concurrency ever run at once.
   */
  private start(job: protocol.ClaimedJob): void {
    const controller = new AbortController();
    const signal = controller.signal;
    const timeout = setTimeout(
      () => controller.abort(new Error(`timed out after ${this.config.timeoutMs / 1000} s (SVC_WORKER_TIMEOUT)`)),
      this.config.timeoutMs,
    );
    log('debug', 'job started', { requestId: job.request_id, function: job.function_name, attempt: job.attempt });
    const startedAt = performance.now();
    const ran = this.executor.execute(job, signal).then(
      (ran): Ran => ran,
      (error: unknown) => ({ error: signal.aborted ? signal.reason : error }),
    );
    const stopped = new Promise<{ error: unknown }>((resolve) =>
      signal.addEventListener('abort', () => resolve({ error: signal.reason }), { once: true }),
    );
    const entry: Running = {
      job,
      controller,
      released: false,
      done: ran.then(() => {
        clearTimeout(timeout);
        this.jobTimes.ran(performance.now() - startedAt);
        // Not when this very request runs again already (its lease was lost, and it was requeued and claimed anew).
        if (this.running.get(job.request_id) === entry) this.running.delete(job.request_id);
        this.startClaimed(); // the slot is free: its next job, if one was claimed ahead
        this.wake(); // and claim ahead again
      }),
    };
    void Promise.race([ran, stopped]).then((outcome) => this.decided(entry, outcome));
    this.running.set(job.request_id, entry);
  }

  /** A job's outcome, written unless the worker gave up what it holds or the job was released. */
  private decided(entry: Running, outcome: Ran | { error: unknown }): void {
    const { job } = entry;
    if (this.reach.abandoned) {
      log('info', 'job given up; its lease will expire and it will run again', {
        requestId: job.request_id,
        attempt: job.attempt,
      });
      this.locks.unlock(job.request_id);
      return;
    }
    if (entry.released) {
      log('info', 'job stopped: it was cancelled, or its synchronous caller stopped waiting; nothing written', {
        requestId: job.request_id,
        attempt: job.attempt,
      });
      this.locks.unlock(job.request_id);
      return;
    }
    // Its lock is let go once the outcome has committed, so that the waiting call wakes to read it.
    this.outcomes.write(job, outcome, () => this.locks.unlock(job.request_id));
  }

  private release(id: string): void {
    const queued = this.backlog.findIndex((j) => j.request_id === id);
    if (queued >= 0) {
      this.backlog.splice(queued, 1);
      this.locks.unlock(id);
      log('info', 'job dropped before it ran: it was cancelled, or its synchronous caller stopped waiting', {
        requestId: id,
      });
    }
    const running = this.running.get(id);
    if (running && !running.released) {
      running.released = true;
      running.controller.abort(
        new Error('released: the request was cancelled, or its synchronous caller stopped waiting'),
      );
    }
  }

  /** Whether the worker holds this request (running or claimed ahead). */
  private holds(id: string): boolean {
    return this.running.has(id) || this.backlog.some((j) => j.request_id === id);
  }

  /** Renews the leases of every job held: running, claimed ahead, or its outcome being written. */
  private renewLeases(): Promise<void> {
    const held = [...this.running.keys(), ...this.backlog.map((j) => j.request_id), ...this.outcomes.requestIds()];
    return renewLeases(this.pool, this.config.workerId, held, this.config.leaseSeconds, this.reach);
  }

  /** A submission was announced (or may have been, while the listener was away): claim again. */
  private heardOfWork(): void {
    this.heard++;
    this.drained = false;
    this.wake();
  }
}
