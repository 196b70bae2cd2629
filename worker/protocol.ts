// The worker side of svc's queue protocol: typed calls of the svc_worker_* SQL functions. The
// connection's role must be a member of svc_worker. Used by the worker, the test claimer and bench/.
import type pg from 'pg';
import { requestLockKeys } from '../src/queue/locks.js';
import type { StopReasonName } from '../src/engine/outcomes.js';

export interface ClaimedJob {
  request_id: string;
  function_name:
    | 'generate'
    | 'embed'
    | 'embed_many'
    | 'generate_many'
    | 'generate_json'
    | 'generate_regex'
    | 'generate_choice'
    | 'rerank'
    | 'vectorize';
  parameters: Record<string, unknown>;
  grammar: string | null;
  attempt: number;
  retry_count: number;
  priority: number;
  /** A synchronous call waits for it (and looked the cache up just before submitting it). */
  waited: boolean;
}

export interface ClaimOptions {
  workerId: string;
  maxJobs: number;
  leaseSeconds: number;
  maxRetries: number;
  /** The svc_models names claimed for (default: ['default']). */
  models?: readonly string[];
}

type Queryable = Pick<pg.Client, 'query'>;

const CLAIM =
  'svc_worker_claim(worker_id => $1::text, max_jobs => $2::integer, lease_seconds => $3::float8, max_retries => $4::integer, models => $5::text[])';

/**
 * `holdLocks`: the statement also takes the lock of each request claimed (but a vectorize job's, which
 * nobody waits for), held by this connection until unlockRequests; `locked` says which it holds
 * (worker/request-locks.ts).
 */
export async function claim(
  db: Queryable,
  o: ClaimOptions,
  holdLocks = false,
): Promise<Array<ClaimedJob & { locked?: boolean }>> {
  const { rows } = await db.query<ClaimedJob & { locked?: boolean }>({
    // prepared once per connection: a busy worker claims often
    name: holdLocks ? 'svc_worker_claim_locked' : 'svc_worker_claim',
    text: holdLocks
      ? `SELECT c.*, CASE WHEN c.function_name <> 'vectorize' THEN pg_catalog.pg_try_advisory_lock(${requestLockKeys('c.request_id')}) ELSE false END AS locked FROM ${CLAIM} c`
      : `SELECT * FROM ${CLAIM}`,
    values: [o.workerId, o.maxJobs, o.leaseSeconds, o.maxRetries, o.models ?? ['default']],
  });
  return rows;
}

/** The session's hold let go of the lock of each request in the uuid[] parameter `ids` (how many), as an expression. */
const unlockEach = (ids: string) =>
  `(SELECT count(pg_catalog.pg_advisory_unlock(${requestLockKeys('id')})) FROM unnest(${ids}::uuid[]) AS id)`;

/** Lets go of the locks claim() took on these requests (once each per id given). */
export async function unlockRequests(db: Queryable, requestIds: readonly string[]): Promise<void> {
  await db.query({
    name: 'svc_worker_unlock_requests',
    text: `SELECT ${unlockEach('$1')}`,
    values: [requestIds],
  });
}

/** True when stored; false when refused (the job is no longer this attempt's to complete). */
export async function complete(
  db: Queryable,
  job: Pick<ClaimedJob, 'request_id' | 'attempt'>,
  result: string,
  stopReason: StopReasonName | null = null,
): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>(
    'SELECT svc_worker_complete($1::uuid, $2::integer, $3::text, $4::text) AS ok',
    [job.request_id, job.attempt, result, stopReason],
  );
  return rows[0].ok;
}

export interface Completion {
  job: Pick<ClaimedJob, 'request_id' | 'attempt'>;
  result: string;
  /** How a generation ended (svc_queue.stop_reason); none for the other functions. */
  stopReason?: StopReasonName;
}

export interface CompleteAndClaimResult {
  /** The request ids whose results were stored; the others were refused (as complete()). */
  completed: Set<string>;
  /** The jobs claimed for the freed slots (the claim runs whether or not a completion was stored). */
  jobs: ClaimedJob[];
}

/**
 * complete() of each completion, then claim() of up to `claimJobs` jobs (default: one per completion)
 * for the slots that freed: one round trip and one transaction (svc_worker_complete_and_claim).
 */
export async function completeAndClaim(
  db: Queryable,
  completions: readonly Completion[],
  o: Omit<ClaimOptions, 'maxJobs'> & { claimJobs?: number },
): Promise<CompleteAndClaimResult> {
  const { rows } = await db.query<ClaimedJob & { refused: string[] }>({
    name: 'svc_worker_complete_and_claim',
    text: 'SELECT * FROM svc_worker_complete_and_claim($1::uuid[], $2::integer[], $3::text[], $4::text, $5::float8, $6::integer, $7::integer, $8::text[], $9::text[])',
    values: [
      completions.map((c) => c.job.request_id),
      completions.map((c) => c.job.attempt),
      completions.map((c) => c.result),
      o.workerId,
      o.leaseSeconds,
      o.maxRetries,
      o.claimJobs ?? null,
      o.models ?? ['default'],
      completions.map((c) => c.stopReason ?? null),
    ],
  });
  const jobs: ClaimedJob[] = [];
  for (const { refused: _, ...claimed } of rows) if (claimed.request_id !== null) jobs.push(claimed);
  const refused = new Set(rows[0].refused);
  return { completed: new Set(completions.map((c) => c.job.request_id).filter((id) => !refused.has(id))), jobs };
}

/** A result's cache entry: the request's identity (src/queue/cache-key.ts), the model's identity and the function. */
export interface CacheEntry {
  identity: string;
  model: string;
  functionName: string;
  /** The entry's answer and how it ended, where it is not its completion's (an input of a request of many). */
  result?: string;
  stopReason?: StopReasonName;
}

const COMPLETE_CACHED =
  'SELECT svc_worker_complete_cached($1::uuid[], $2::integer[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS refused';

/**
 * complete() of each completion and cachePut() of each cache entry it carries (a request's own, or
 * each input's of a request of many), in one statement (svc_worker_complete_cached); returns the ids
 * whose completion was refused. `release`: requests
 * whose locks this connection holds (claim's holdLocks), let go in the same transaction: each lock is
 * taken again for the transaction, after the completions, and the session's hold let go, so that it
 * is free as the outcomes commit, with no statement after them (worker/request-locks.ts).
 */
export async function completeCached(
  db: Queryable,
  completions: ReadonlyArray<Completion & { cache?: readonly CacheEntry[] }>,
  release: readonly string[] = [],
): Promise<Set<string>> {
  const entries = completions.flatMap((c) =>
    (c.cache ?? []).map((e) => ({
      ...e,
      result: e.result ?? c.result,
      stopReason: e.stopReason ?? c.stopReason ?? null,
    })),
  );
  const { rows } = await db.query<{ refused: string[] }>({
    name: release.length === 0 ? 'svc_worker_complete_cached' : 'svc_worker_complete_cached_release',
    // The target list is evaluated in order: the completions, then the transaction's locks, then the session's let go.
    // Tried, never waited for (any role may take any key): this session holds each, so the try succeeds.
    text:
      release.length === 0
        ? COMPLETE_CACHED
        : `${COMPLETE_CACHED}, (SELECT count(*) FILTER (WHERE pg_catalog.pg_try_advisory_xact_lock(${requestLockKeys('id')})) FROM unnest($10::uuid[]) AS id) AS held,
                ${unlockEach('$10')} AS released`,
    values: [
      completions.map((c) => c.job.request_id),
      completions.map((c) => c.job.attempt),
      completions.map((c) => c.result),
      completions.map((c) => c.stopReason ?? null),
      entries.map((e) => e.identity),
      entries.map((e) => e.model),
      entries.map((e) => e.functionName),
      entries.map((e) => e.result),
      entries.map((e) => e.stopReason),
      ...(release.length === 0 ? [] : [release]),
    ],
  });
  return new Set(rows[0].refused);
}

/** The job's new status ('pending' for a retry, 'failed'), or null when refused. */
export async function fail(
  db: Queryable,
  job: Pick<ClaimedJob, 'request_id' | 'attempt'>,
  error: string,
  maxRetries: number,
): Promise<'pending' | 'failed' | null> {
  const { rows } = await db.query<{ status: 'pending' | 'failed' | null }>(
    'SELECT svc_worker_fail($1::uuid, $2::integer, $3::text, $4::integer) AS status',
    [job.request_id, job.attempt, error, maxRetries],
  );
  return rows[0].status;
}

/**
 * Of the jobs this worker holds, those it must let go (svc_worker_released): cancelled by their owner,
 * their lease lost, or synchronous requests whose caller stopped waiting (cancelled by this call).
 */
export async function released(db: Queryable, workerId: string, requestIds: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ ids: string[] }>({
    name: 'svc_worker_released',
    text: 'SELECT svc_worker_released($1::text, $2::uuid[]) AS ids',
    values: [workerId, requestIds],
  });
  return rows[0].ids;
}

/** Streaming: the text generated so far for a job this attempt runs; false when refused (the attempt no longer runs it). */
export async function progress(
  db: Queryable,
  job: Pick<ClaimedJob, 'request_id' | 'attempt'>,
  partialResult: string,
  tokens: number,
): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>({
    name: 'svc_worker_progress',
    text: 'SELECT svc_worker_progress($1::uuid, $2::integer, $3::text, $4::integer) AS ok',
    values: [job.request_id, job.attempt, partialResult, tokens],
  });
  return rows[0].ok;
}

export async function renew(
  db: Queryable,
  workerId: string,
  requestIds: string[],
  leaseSeconds: number,
): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT svc_worker_renew($1::text, $2::uuid[], $3::float8) AS n', [
    workerId,
    requestIds,
    leaseSeconds,
  ]);
  return rows[0].n;
}

export interface Heartbeat {
  workerId: string;
  host: string;
  pid: number;
  state: string;
  concurrency: number;
  /** The identity of the (first) model loaded. */
  model: string | null;
  /** Each served svc_models name with the identity of the file loaded for it (default: {default: model}; null while it loads). */
  models?: Readonly<Record<string, string | null>>;
  /** What each served name's GGUF can serve (generate, embed, rerank) and the length of its embeddings, where known: svc_models' serves is narrowed to it. */
  capabilities?: Readonly<Record<string, { serves: readonly string[]; dimension?: number; context?: number }>>;
  jobsDone: number;
  jobsFailed: number;
  jobsInFlight: number;
}

export async function heartbeat(db: Queryable, h: Heartbeat): Promise<void> {
  await db.query(
    'SELECT svc_worker_heartbeat($1::text, $2::text, $3::integer, $4::text, $5::integer, $6::text, $7::bigint, $8::bigint, $9::integer, $10::jsonb, $11::jsonb)',
    [
      h.workerId,
      h.host,
      h.pid,
      h.state,
      h.concurrency,
      h.model,
      h.jobsDone,
      h.jobsFailed,
      h.jobsInFlight,
      h.models ?? null,
      h.capabilities ?? null,
    ],
  );
}

/** The channel workers LISTEN on: a notification per enqueue, delivered when the submitter commits. */
export const WAKEUP_CHANNEL = 'svc_jobs';
export const COMPLETED_CHANNEL = 'svc_completed';
/**
 * A processing request's id when it was cancelled (svc_cancel_async, or its synchronous caller gone):
 * the worker holding it asks svc_worker_released, since any role may NOTIFY this channel too.
 */
export const CANCEL_CHANNEL = 'svc_cancel';
/** Streaming: {"request_id","tokens"} each time a running request's partial text is written (svc_worker_progress). */
export const PROGRESS_CHANNEL = 'svc_progress';

/** The cached result (and how it ended, for a generation) of a request identity (src/queue/cache-key.ts) under `model`, or null. */
export async function cacheGet(
  db: Queryable,
  identity: string,
  model: string,
): Promise<{ result: string; stopReason?: StopReasonName } | null> {
  const { rows } = await db.query<{ result: string | null; stop_reason: StopReasonName | null }>(
    'SELECT * FROM svc_worker_cache_get($1::text, $2::text)',
    [identity, model],
  );
  const { result, stop_reason } = rows[0];
  if (result === null) return null;
  return stop_reason === null ? { result } : { result, stopReason: stop_reason };
}

export async function cachePut(
  db: Queryable,
  identity: string,
  model: string,
  functionName: string,
  result: string,
  stopReason: StopReasonName | null = null,
): Promise<void> {
  await db.query('SELECT svc_worker_cache_put($1::text, $2::text, $3::text, $4::text, $5::text)', [
    identity,
    model,
    functionName,
    result,
    stopReason,
  ]);
}

/** Deletes up to `maxRows` requests finished longer ago than svc.retention; returns how many (svc_worker_cleanup). */
export async function cleanup(db: Queryable, maxRows: number): Promise<number> {
  const { rows } = await db.query<{ removed: number }>({
    name: 'svc_worker_cleanup',
    text: 'SELECT svc_worker_cleanup($1::integer) AS removed',
    values: [maxRows],
  });
  return rows[0].removed;
}
