// Running one claimed job: its model's engine, the shared cache looked up first where the request
// allows it, the engine call (jobs.ts runJob) with its streamed progress, and the cache entry to write
// with its completion.
import type pg from 'pg';
import type { InferenceEngine } from '../src/queue/inference-engine.js';
import { cacheIdentity } from '../src/queue/cache-key.js';
import { checkJobGrammar, runJob, type JobResult } from './jobs.js';
import * as protocol from './protocol.js';
import { ProgressPublisher, STREAMED } from './progress.js';

/** A job's result (and how a generation ended), and its cache entries when its request allows the cache (written with the completion). */
export interface Ran extends JobResult {
  cache?: protocol.CacheEntry[];
}

/** Requests of many inputs: never looked up or cached themselves, each input's answer is, as its own request's. */
const MANY: ReadonlySet<string> = new Set(['embed_many', 'generate_many']);

export class JobExecutor {
  private readonly models: string[];

  constructor(
    private readonly pool: pg.Pool,
    /** An engine per svc_models name served (config.models). */
    private readonly engines: ReadonlyMap<string, InferenceEngine>,
    /** SVC_WORKER_PROGRESS_INTERVAL: how often a streamed generation's text so far is published (0: never). */
    private readonly progressIntervalMs: number,
  ) {
    this.models = [...engines.keys()];
  }

  /** The engine of a job's model: the one its parameters name, else 'default'. */
  private engineFor(job: protocol.ClaimedJob): InferenceEngine {
    const name = typeof job.parameters.model === 'string' ? job.parameters.model : 'default';
    const engine = this.engines.get(name);
    // The claim takes only this worker's models, so this is a request changed under it.
    if (!engine) throw new Error(`this worker does not serve model "${name}" (it serves ${this.models.join(', ')})`);
    return engine;
  }

  /**
   * The job's result: from the cache when the request allows it, else from the engine (then cached).
   * Only a job whose grammar is the one its parameters compile to runs at all (checkJobGrammar), and
   * only output that satisfies that constraint is returned (runJob): what goes into the shared cache
   * under the request's parameters is what those parameters produce.
   */
  async execute(job: protocol.ClaimedJob, signal: AbortSignal): Promise<Ran> {
    checkJobGrammar(job);
    const allowsCache = job.parameters.use_cache === true;
    // The request's cache key, where it allows the cache (computing it costs a canonical JSON and a hash).
    const identity =
      allowsCache && !MANY.has(job.function_name) ? cacheIdentity(job.function_name, job.parameters) : null;
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
      this.progressIntervalMs > 0
        ? new ProgressPublisher(this.pool, job, this.progressIntervalMs)
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
    if (!allowsCache) return ran;
    const model = engine.modelId;
    const cache = ran.answers
      ? ran.answers.map((a) => ({
          identity: cacheIdentity(a.functionName, a.parameters),
          model,
          functionName: a.functionName,
          result: a.result,
          stopReason: a.stopReason,
        }))
      : [{ identity: identity!, model, functionName: job.function_name }];
    return { ...ran, cache };
  }
}
