// The worker's heartbeat (svc_workers: its state, models, what each serves, its counts) and, after
// each beat while running, retention: the requests finished longer ago than svc.retention deleted.
import type pg from 'pg';
import { hostname } from 'node:os';
import type { InferenceEngine } from '../src/queue/inference-engine.js';
import { servable } from '../src/engine/capabilities.js';
import { errorFields, log } from './log.js';
import * as protocol from './protocol.js';
import type { DatabaseReach } from './reach.js';
import { sleep } from './sleep.js';

/** How long the final 'stopped' heartbeat may take before the worker exits without it. */
const FINAL_BEAT_MS = 2000;

/** Retention: finished requests deleted per call, and calls at most per heartbeat (cleanUp). */
const RETENTION_BATCH = 1000;
const RETENTION_BATCHES = 20;

/** Each served name with the identity of its file (the cache's model). */
export function modelIdentities(engines: ReadonlyMap<string, InferenceEngine>): Record<string, string> {
  return Object.fromEntries([...engines].map(([name, engine]) => [name, engine.modelId]));
}

/** The worker's counts, as the heartbeat reports them. */
export interface WorkerCounts {
  jobsDone: number;
  jobsFailed: number;
  jobsInFlight: number;
}

export class Heartbeat {
  private lastBeat: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: pg.Pool,
    private readonly worker: { workerId: string; concurrency: number },
    private readonly engines: ReadonlyMap<string, InferenceEngine>,
    private readonly reach: DatabaseReach,
    private readonly counts: () => WorkerCounts,
    /** Whether the worker is stopping (retention then stops between batches). */
    private readonly stopping: () => boolean,
  ) {}

  /**
   * Retention: after each heartbeat, deletes the requests finished longer ago than svc.retention, in
   * batches of RETENTION_BATCH while they come back full (at most RETENTION_BATCHES per heartbeat, so
   * a backlog of years goes away over a few beats, not in one long run).
   */
  private async cleanUp(): Promise<void> {
    try {
      for (let batch = 0; batch < RETENTION_BATCHES && !this.stopping(); batch++) {
        if ((await protocol.cleanup(this.pool, RETENTION_BATCH)) < RETENTION_BATCH) return;
      }
    } catch (error) {
      this.reach.missed(error);
      log('warn', 'retention cleanup failed', errorFields(error));
    }
  }

  /**
   * Reports the worker's state. Heartbeats go out one after another, so that a periodic one still in
   * flight cannot land after the final 'stopped' (each takes its own pool connection).
   */
  beat(state: string): Promise<void> {
    this.lastBeat = this.lastBeat
      .then(() => this.sendBeat(state))
      .then(() => (state === 'running' ? this.cleanUp() : undefined));
    return this.lastBeat;
  }

  private async sendBeat(state: string): Promise<void> {
    try {
      await protocol.heartbeat(this.pool, {
        workerId: this.worker.workerId,
        host: hostname(),
        pid: process.pid,
        state,
        concurrency: this.worker.concurrency,
        model: this.engines.values().next().value!.modelId,
        models: modelIdentities(this.engines),
        capabilities: Object.fromEntries(
          [...this.engines].flatMap(([name, e]) =>
            e.capabilities
              ? [[name, { serves: servable(e.capabilities), dimension: e.dimension, context: e.contextSize }]]
              : [],
          ),
        ),
        ...this.counts(),
      });
      this.reach.reached();
    } catch (error) {
      this.reach.missed(error);
      log('warn', 'heartbeat failed', errorFields(error));
    }
  }

  /** The final 'stopped' beat, waited for FINAL_BEAT_MS at most. */
  stopped(): Promise<void> {
    return Promise.race([this.beat('stopped'), sleep(FINAL_BEAT_MS)]);
  }
}
