// The queue worker: claims jobs for its free slots and a few ahead, runs them on the engine, writes
// results back (a slot is free again once its job has run, and takes its next job from those claimed
// ahead; the write goes on meanwhile, and results that finish together are written in one call), and
// keeps its leases and heartbeat fresh. Wakes on the enqueue notification, polls as a fallback, survives database restarts, and on stop() finishes and
// writes what it holds before returning — unless the database is unreachable then: what it holds is
// given up at once (never written: the leases expire and the jobs run again), so a stop is prompt.
import pg from 'pg';
import { hostname } from 'node:os';
import type { InferenceEngine } from '../src/queue/inference-engine.js';
import { PermanentJobError } from '../src/queue/job-errors.js';
import type { WorkerConfig } from './config.js';
import { errorFields, log } from './log.js';
import { checkJobGrammar, runJob, toPgText, type JobResult } from './jobs.js';
import * as protocol from './protocol.js';
import { CompletionBatcher } from './completions.js';
import { ProgressPublisher, STREAMED } from './progress.js';
import { cacheIdentity } from '../src/queue/cache-key.js';
import { servable } from '../src/engine/capabilities.js';
import { ConfigError } from './config.js';
import { SETUP_SQLSTATES, WORKER_SESSION, checkSetup, isUnreachable, sqlState } from './setup.js';
import { completeVectorize, VectorizeWriteTimeout } from './vectorize.js';
import { RequestLocks } from './request-locks.js';

/** Waits `ms`, or less when `signal` aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** How long the final 'stopped' heartbeat may take before the worker exits without it. */
const FINAL_BEAT_MS = 2000;

/** Retention: finished requests deleted per call, and calls at most per heartbeat (cleanUp). */
const RETENTION_BATCH = 1000;
const RETENTION_BATCHES = 20;

/** How long a result waits for others still running to be written with it, at most, and for how many. */
const COMPLETION_HOLD_MS = 2;
const COMPLETION_HOLD_UP_TO = 16;
/**
 * How long while jobs claimed ahead wait too (a batch being worked through: a set-based call, a
 * backfill): long enough for the next job or two of a one-slot worker to join (a few ms each on a small
 * model), so that a worker at SVC_WORKER_CONCURRENCY=1 writes several results a call instead of one
 * (each call costs a statement, a commit, an unlock and a wake-up of the waiting caller). No caller
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

/** How often the worker asks which of the jobs it holds it must let go (svc_worker_released). */
const RELEASE_CHECK_MS = 1000;

interface Running {
  job: protocol.ClaimedJob;
  /** Settles once the engine call has returned and the slot is free. */
  done: Promise<void>;
  controller: AbortController;
  /** No longer this worker's to run (cancelled, or its synchronous caller gone): its outcome is not written. */
  released: boolean;
}

/** A job's result (and how a generation ended), and its cache entry when its request allows the cache (written with the completion). */
interface Ran extends JobResult {
  cache?: protocol.CacheEntry;
}

/** A job that has run and whose outcome is being written. */
interface Writing {
  job: protocol.ClaimedJob;
  written: Promise<void>;
}

export class Worker {
  private readonly running = new Map<string, Running>();
  /** Jobs claimed ahead of a free slot (their leases held and renewed), highest priority first. */
  private readonly backlog: protocol.ClaimedJob[] = [];
  private readonly writing = new Set<Writing>();
  private stopping = false;
  /** Aborts when the worker gives up what it holds (stopping while the database is unreachable). */
  private readonly abandon = new AbortController();
  /** Whether the last call to the database failed to reach it (isUnreachable). */
  private unreachable = false;
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
  private listener?: pg.Client;
  private jobsDone = 0;
  private jobsFailed = 0;
  private timers: NodeJS.Timeout[] = [];
  private lastBeat: Promise<void> = Promise.resolve();
  private readonly completions: CompletionBatcher;
  /** The claims' connection and the locks it holds on the requests claimed, which wake their waiting callers. */
  private readonly locks: RequestLocks;

  constructor(
    private readonly config: WorkerConfig,
    private readonly pool: pg.Pool,
    /** An engine per svc_models name served (config.models). */
    private readonly engines: ReadonlyMap<string, InferenceEngine>,
  ) {
    this.models = [...engines.keys()];
    // Results wait a little for others still running to share their call (completions.ts Hold), and a
    // little longer while jobs claimed ahead wait (the backlog array is only ever changed in place).
    const backlog = this.backlog;
    this.completions = new CompletionBatcher([pool], Infinity, {
      more: () => this.running.size > 0,
      get ms() {
        return backlog.length > 0 ? COMPLETION_HOLD_BATCH_MS : COMPLETION_HOLD_MS;
      },
      upTo: COMPLETION_HOLD_UP_TO,
    });
    this.locks = new RequestLocks(config.db);
  }

  private readonly models: string[];

  /** The engine of a job's model: the one its parameters name, else 'default'. */
  private engineFor(job: protocol.ClaimedJob): InferenceEngine {
    const name = typeof job.parameters.model === 'string' ? job.parameters.model : 'default';
    const engine = this.engines.get(name);
    // The claim takes only this worker's models, so this is a request changed under it.
    if (!engine) throw new Error(`this worker does not serve model "${name}" (it serves ${this.models.join(', ')})`);
    return engine;
  }

  /** Each served name with the identity of its file (the cache's model). */
  private identities(): Record<string, string> {
    return Object.fromEntries([...this.engines].map(([name, engine]) => [name, engine.modelId]));
  }

  /** Runs until stop() is called and every claimed job has been finished. */
  async run(): Promise<void> {
    log('info', 'worker started', {
      workerId: this.config.workerId,
      models: this.identities(),
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
    void this.listen();
    await this.beat('running');
    this.timers.push(
      setInterval(() => void this.beat(this.stopping ? 'stopping' : 'running'), this.config.heartbeatMs),
    );
    this.timers.push(setInterval(() => void this.renewLeases(), (this.config.leaseSeconds * 1000) / 3));
    this.timers.push(setInterval(() => this.checkReleased(), RELEASE_CHECK_MS));
    let failures = 0;
    while (!this.stopping) {
      this.startClaimed();
      // Claims for the free slots and up to `prefetch` jobs ahead (the backlog), so that a slot that
      // frees starts its next job at once instead of after a claim's round trip, and claims come in
      // batches.
      const want = this.config.concurrency + this.config.prefetch - this.running.size - this.backlog.length;
      let claimed = 0;
      // After an empty claim, the next waits for a submission to be announced, or for the poll: what no
      // notification announces (a retry's backoff ending, an expired lease, a notification missed).
      const pollDue = performance.now() - this.lastClaimAt >= this.config.pollIntervalMs;
      if (this.shouldClaim(want) && (!this.drained || pollDue)) {
        const heard = this.heard;
        this.lastClaimAt = performance.now();
        try {
          const jobs = await this.untilAbandoned(
            this.locks.claim({
              workerId: this.config.workerId,
              maxJobs: want,
              leaseSeconds: this.config.leaseSeconds,
              maxRetries: this.config.maxRetries,
              models: this.models,
            }),
          );
          this.reached();
          failures = 0;
          // Highest priority first, then in claim order: a sync call's request claimed after queued
          // async work still runs next.
          this.backlog.push(...(jobs ?? []));
          this.backlog.sort((a, b) => b.priority - a.priority);
          claimed = jobs?.length ?? 0;
          this.drained = claimed < want && this.heard === heard;
        } catch (error) {
          failures++;
          this.missed(error);
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
    while (this.running.size > 0 || (this.backlog.length > 0 && !this.abandon.signal.aborted)) {
      this.startClaimed();
      await Promise.race([...this.running.values()].map((r) => r.done));
    }
    // A write held up by the database (a lock) is waited for; one to a database that is gone is not.
    await this.untilAbandoned(Promise.all([...this.writing].map((w) => w.written)));
    for (const timer of this.timers) clearInterval(timer);
    await this.untilAbandoned(Promise.race([this.beat('stopped'), sleep(FINAL_BEAT_MS)]));
    void this.listener?.end().catch(() => undefined);
    await this.locks.close();
    log('info', 'worker stopped', {
      workerId: this.config.workerId,
      jobsDone: this.jobsDone,
      jobsFailed: this.jobsFailed,
      abandoned: this.abandon.signal.aborted,
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
    if (this.unreachable) this.giveUp();
    else void this.beat('stopping'); // says so at once, and finds out whether the database is still there
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
    if (this.abandon.signal.aborted) return;
    log(
      'warn',
      'stopping while the database is unreachable: giving up the jobs in flight and results not yet written; their leases will expire and they will run again',
      { inFlight: this.running.size, unwritten: this.writing.size },
    );
    const reason = new Error('given up: the worker stopped while the database was unreachable');
    for (const job of this.backlog.splice(0)) this.locks.unlock(job.request_id);
    for (const r of this.running.values()) r.controller.abort(reason);
    this.abandon.abort(reason);
  }

  /** A call reached the database. */
  private reached(): void {
    this.unreachable = false;
  }

  /** A call failed: notes whether the database could not be reached (and gives up when stopping). */
  private missed(error: unknown): void {
    this.unreachable = isUnreachable(error); // a statement's error came from a database that is there
    if (this.unreachable && this.stopping) this.giveUp();
  }

  /** Settles with `promise`, or with undefined once the worker gives up (giveUp). */
  private untilAbandoned<T>(promise: Promise<T>): Promise<T | undefined> {
    const signal = this.abandon.signal;
    if (signal.aborted) {
      promise.catch(() => undefined);
      return Promise.resolve(undefined);
    }
    return new Promise<T | undefined>((resolve, reject) => {
      const onAbort = () => resolve(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
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
    if (this.abandon.signal.aborted) return;
    while (this.running.size < this.config.concurrency && this.backlog.length > 0) this.start(this.backlog.shift()!);
  }

  /**
   * Whether to claim now, for `want` jobs: only once the jobs held ahead are nearly all started (at
   * most a quarter of SVC_WORKER_PREFETCH left), so that a worker of short jobs claims several in one
   * statement rather than one each time a slot frees (a claim costs about the same for one job as for
   * several), while the one or two left cover the claim's round trip.
   */
  private shouldClaim(want: number): boolean {
    return want > 0 && this.backlog.length <= Math.floor(this.config.prefetch / 4);
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
    const ran = this.execute(job, signal).then(
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
    if (this.abandon.signal.aborted) {
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
    const writing: Writing = {
      job,
      written: this.finish(job, outcome).finally(() => {
        this.writing.delete(writing);
        this.locks.unlock(job.request_id);
      }),
    };
    this.writing.add(writing);
  }

  /** Ids a svc_cancel notification named that the next release check asks about first. */
  private readonly toCheck = new Set<string>();
  private checking = false;

  /**
   * Asks which of the jobs it holds (`only`: those ids) it must let go (svc_worker_released), and lets
   * them go: dropped from the backlog, or stopped at their next token with nothing written.
   */
  private checkReleased(only?: readonly string[]): void {
    if (only) for (const id of only) this.toCheck.add(id);
    if (this.checking) return;
    // A check for notified jobs also asks about every job claimed ahead: a claim cancels all the
    // requests whose callers stopped waiting and announces each in a notification of its own, so a
    // running one released on its own notification would free its slot for a claimed-ahead one whose
    // notification is not checked yet, and that one would start.
    const claimedAhead = this.backlog.map((j) => j.request_id);
    const held = only ? [...new Set([...this.toCheck, ...claimedAhead])] : [...this.running.keys(), ...claimedAhead];
    this.toCheck.clear();
    if (held.length === 0) return;
    this.checking = true;
    protocol
      .released(this.pool, this.config.workerId, held)
      .then(
        (gone) => {
          this.reached();
          for (const id of gone) this.release(id);
        },
        (error: unknown) => {
          this.missed(error);
          log('warn', 'could not check for cancelled jobs', errorFields(error));
        },
      )
      .finally(() => {
        this.checking = false;
        if (this.toCheck.size > 0) this.checkReleased([]);
      });
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

  /**
   * The job's result: from the cache when the request allows it, else from the engine (then cached).
   * Only a job whose grammar is the one its parameters compile to runs at all (checkJobGrammar), and
   * only output that satisfies that constraint is returned (runJob): what goes into the shared cache
   * under the request's parameters is what those parameters produce.
   */
  private async execute(job: protocol.ClaimedJob, signal: AbortSignal): Promise<Ran> {
    checkJobGrammar(job);
    // The request's cache key, where it allows the cache (computing it costs a canonical JSON and a hash).
    const identity = job.parameters.use_cache === true ? cacheIdentity(job.function_name, job.parameters) : null;
    const engine = this.engineFor(job);
    // A synchronous call's request is not looked up again: its caller did, just before submitting it.
    if (identity !== null && !job.waited) {
      const cached = await protocol.cacheGet(this.pool, identity, engine.modelId);
      if (cached !== null) return cached;
    }
    // Streaming: an async generation's text so far, for svc_get_partial_result, and svc_generate_stream's (a sync caller waits for the result alone).
    const publisher =
      STREAMED.has(job.function_name) &&
      (!job.waited || (job.parameters as { stream?: unknown }).stream === true) &&
      this.config.progressIntervalMs > 0
        ? new ProgressPublisher(this.pool, job, this.config.progressIntervalMs)
        : undefined;
    let ran: JobResult;
    try {
      ran = await runJob(engine, job, signal, publisher?.onText);
    } finally {
      await publisher?.close();
    }
    // A job stopped (timed out or released) writes nothing, to the cache either, whatever its engine call returned.
    signal.throwIfAborted();
    // Stored with the completion, in one statement: when a caller has its answer, the next identical request finds it cached.
    return identity !== null
      ? { ...ran, cache: { identity, model: engine.modelId, functionName: job.function_name } }
      : ran;
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
      if (taken(answer) || this.abandon.signal.aborted) break;
      await sleep(ms, this.abandon.signal);
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
          this.reached();
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
          const fail = () => protocol.fail(this.pool, job, message, permanent ? 0 : this.config.maxRetries);
          const status = await this.writeAgainWhileRefused(await fail(), (taken) => taken !== null, fail);
          this.reached();
          if (status === 'pending') this.heardOfWork(); // its retry is work no notification announces
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
        this.missed(error);
        if (attempt >= 60 || this.abandon.signal.aborted) {
          log('error', 'giving up on writing a job outcome; its lease will expire and it will run again', {
            requestId: job.request_id,
            ...errorFields(error),
          });
          return;
        }
        await sleep(Math.min(100 * 2 ** attempt, 5000), this.abandon.signal);
      }
    }
  }

  private async renewLeases(): Promise<void> {
    // Jobs whose outcome is still being written keep their leases too.
    const held = [
      ...this.running.keys(),
      ...this.backlog.map((j) => j.request_id),
      ...[...this.writing].map((w) => w.job.request_id),
    ];
    if (held.length === 0) return;
    try {
      await protocol.renew(this.pool, this.config.workerId, held, this.config.leaseSeconds);
      this.reached();
    } catch (error) {
      this.missed(error);
      log('warn', 'lease renewal failed', errorFields(error));
    }
  }

  /**
   * Retention: after each heartbeat, deletes the requests finished longer ago than svc.retention, in
   * batches of RETENTION_BATCH while they come back full (at most RETENTION_BATCHES per heartbeat, so
   * a backlog of years goes away over a few beats, not in one long run).
   */
  private async cleanUp(): Promise<void> {
    try {
      for (let batch = 0; batch < RETENTION_BATCHES && !this.stopping; batch++) {
        if ((await protocol.cleanup(this.pool, RETENTION_BATCH)) < RETENTION_BATCH) return;
      }
    } catch (error) {
      this.missed(error);
      log('warn', 'retention cleanup failed', errorFields(error));
    }
  }

  /**
   * Reports the worker's state. Heartbeats go out one after another, so that a periodic one still in
   * flight cannot land after the final 'stopped' (each takes its own pool connection).
   */
  private beat(state: string): Promise<void> {
    this.lastBeat = this.lastBeat
      .then(() => this.sendBeat(state))
      .then(() => (state === 'running' ? this.cleanUp() : undefined));
    return this.lastBeat;
  }

  private async sendBeat(state: string): Promise<void> {
    try {
      await protocol.heartbeat(this.pool, {
        workerId: this.config.workerId,
        host: hostname(),
        pid: process.pid,
        state,
        concurrency: this.config.concurrency,
        model: this.engines.values().next().value!.modelId,
        models: this.identities(),
        capabilities: Object.fromEntries(
          [...this.engines].flatMap(([name, e]) =>
            e.capabilities
              ? [[name, { serves: servable(e.capabilities), dimension: e.dimension, context: e.contextSize }]]
              : [],
          ),
        ),
        jobsDone: this.jobsDone,
        jobsFailed: this.jobsFailed,
        jobsInFlight: this.running.size,
      });
      this.reached();
    } catch (error) {
      this.missed(error);
      log('warn', 'heartbeat failed', errorFields(error));
    }
  }

  /** A submission was announced (or may have been, while the listener was away): claim again. */
  private heardOfWork(): void {
    this.heard++;
    this.drained = false;
    this.wake();
  }

  /** Keeps a LISTEN connection open, reconnecting with backoff; polling covers the gaps. */
  private async listen(): Promise<void> {
    for (let failures = 0; !this.stopping;) {
      const client = new pg.Client({ ...this.config.db, options: WORKER_SESSION });
      try {
        await client.connect();
        const closed = new Promise<void>((resolve) => {
          client.on('error', (error) => {
            log('warn', 'listen connection lost', errorFields(error));
            resolve();
          });
          client.on('end', () => resolve());
        });
        client.on('notification', (n) => {
          if (n.channel !== protocol.CANCEL_CHANNEL) this.heardOfWork();
          else if (n.payload && this.holds(n.payload)) this.checkReleased([n.payload]);
        });
        await client.query(`LISTEN ${protocol.WAKEUP_CHANNEL}; LISTEN ${protocol.CANCEL_CHANNEL}`);
        this.listener = client;
        failures = 0;
        this.heardOfWork(); // anything enqueued while we were away
        await closed;
      } catch (error) {
        log('warn', 'listen connection failed', errorFields(error));
      }
      await client.end().catch(() => undefined);
      if (!this.stopping) await sleep(Math.min(100 * 2 ** ++failures, 5000));
    }
  }
}
