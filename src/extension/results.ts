// Reading results back: waiting for requests with a deadline, and cancelling a pending or processing request.
import { one, rows } from './db.js';
import { QUERIES } from './queries.js';
import { LIMITS } from './limits.js';
import { sqlState, SvcError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import * as v from './validate.js';

export interface JobState { status: string; result: string | null; error: string | null; uncommitted?: boolean }

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

/** Whether waiting longer can change this state: not when finished, unknown, or never to be seen by a worker. */
const settled = (state: JobState | undefined) => state === undefined || FINISHED.has(state.status) || state.uncommitted === true;

export interface AwaitOptions {
  /** Called after each read with the ids still waited for; returns more ids to wait for (the sync functions submit their next window). */
  onPoll?: (waiting: readonly string[]) => readonly string[];
  /** The timeout runs from the last request that settled, not from the start (a set call goes on while answers come). */
  deadlineMovesOnProgress?: boolean;
  /** Wait on the lock of the request this far into those still waited for (waitForWorker), not the first's. */
  wakeAt?: number;
}

/**
 * Polls `read` (the states of the ids given, by id; an id missing is unknown) until every request is
 * settled or the deadline passes; returns the last state of each. Pauses start short (most answers of
 * a small model come within milliseconds) and grow to `maxPause` seconds.
 */
export function awaitAll(ids: readonly string[], timeoutSeconds: number, maxPause: number,
  read: (ids: readonly string[]) => Map<string, JobState>, options: AwaitOptions = {}): Map<string, JobState | undefined> {
  let deadline = Date.now() + timeoutSeconds * 1000;
  const states = new Map<string, JobState | undefined>();
  let waiting = [...ids];
  // Short pauses first (0.5 ms, growing by 15% a poll: a poll at ~10 ms after 10 polls, ~45 ms after
  // 20), so that an answer of a few milliseconds is seen within a millisecond or two of it.
  let pause = 0.0005;
  for (;;) {
    const fresh = read(waiting);
    for (const id of waiting) states.set(id, fresh.get(id));
    const before = waiting.length;
    waiting = waiting.filter((id) => !settled(states.get(id)));
    if (waiting.length < before && options.deadlineMovesOnProgress) deadline = Date.now() + timeoutSeconds * 1000;
    const more = options.onPoll?.(waiting) ?? [];
    if (more.length > 0) {
      waiting.push(...more);
      pause = 0.0005;
      continue;
    }
    if (waiting.length === 0) return states;
    const left = deadline - Date.now();
    if (left <= 0) return states;
    if (waitForWorker(waiting, left, options.wakeAt ?? 0)) continue;
    one(QUERIES.sleep, Math.min(pause, Math.max(0.001, left / 1000)));
    pause = Math.min(pause * 1.15, maxPause);
  }
}

/**
 * The longest one wait on a worker's lock lasts: where a session other than the worker running the
 * request holds a lock of the same key (any role may take advisory locks), the call is late by at most
 * this much, never wrong, as it reads the states again after each wait.
 */
const LOCK_WAIT_MAX_MS = 1000;

/**
 * Instead of a pause: when a worker is running the request `wakeAt` into those waited for (or else
 * the first), waits for the lock the worker holds on it until its outcome has committed
 * (src/queue/locks.ts REQUEST_LOCK), so the call wakes as that answer lands rather than at its next
 * poll. False when no session holds either lock (not claimed yet, or its worker takes no lock or is
 * gone): the caller then polls. The lock is asked about rather than the request's state, which the
 * caller may not have read since the claim.
 */
function waitForWorker(waiting: readonly string[], leftMs: number, wakeAt: number): boolean {
  const probe = (id: string) => ({ id, ...one<{ unheld: boolean; lock_timeout: string }>(QUERIES.requestUnheld, id)! });
  let held = probe(waiting[Math.min(wakeAt, waiting.length - 1)]);
  if (held.unheld && held.id !== waiting[0]) held = probe(waiting[0]);
  if (held.unheld) return false;
  try {
    one(QUERIES.awaitRequest, held.id, `${Math.ceil(Math.min(leftMs, LOCK_WAIT_MAX_MS))}ms`);
  } catch (error) {
    if (sqlState(error) !== SQLSTATE.lock_not_available) throw error;
  } finally {
    one(QUERIES.lockTimeout, held.lock_timeout);
  }
  return true;
}

/** The error a settled or timed-out state stands for; null when it completed. */
export function stateError(fn: string, id: string, state: JobState | undefined, timedOut: () => SvcError): SvcError | null {
  if (state === undefined) return new SvcError(SQLSTATE.svc_unknown_request, `${fn}: request ${id} does not exist or is not visible to the current role`);
  switch (state.status) {
    case 'completed':
      return null;
    case 'failed':
      return new SvcError(SQLSTATE.svc_request_failed, `${fn}: request ${id} failed: ${state.error ?? 'no error text'}`);
    case 'cancelled':
      return new SvcError(SQLSTATE.svc_request_cancelled, `${fn}: request ${id} was cancelled`);
  }
  if (state.uncommitted) {
    return new SvcError(SQLSTATE.svc_not_committed, `${fn}: request ${id} was submitted in this transaction, which has not committed yet: no worker can see it`, {
      hint: 'Commit the transaction that submitted the request, then wait for its result.',
    });
  }
  return timedOut();
}

/** The states of these requests as this session sees them (row-level security: its own, or all for svc_admin). */
export function readStates(ids: readonly string[]): Map<string, JobState> {
  return new Map(rows<JobState & { request_id: string }>(QUERIES.jobStates, ids).map((s) => [s.request_id, s]));
}

/** Polls the request's row (each poll sees newly committed rows) until it is finished or time is up. */
export function getAsyncResult(requestId: unknown, timeoutSeconds: unknown): string | null {
  const fn = 'svc_get_async_result';
  const id = v.uuid(fn, 'request_id', requestId);
  const timeout = v.integerInRange(fn, 'timeout_seconds', timeoutSeconds, 0, LIMITS.timeoutSecondsMax);
  const state = awaitAll([id], timeout, 0.05, readStates).get(id);
  const error = stateError(fn, id, state, () => new SvcError(SQLSTATE.svc_timed_out, `${fn}: timed out after ${timeout} s: request ${id} is still ${state?.status}`, {
    hint: 'Call svc_get_async_result again later, or check svc_worker_status() for running workers.',
  }));
  if (error) throw error;
  return state!.result;
}

export interface RequestOutcome {
  ord: number;
  /** NULL for a NULL item of request_ids. */
  request_id: string | null;
  status: string | null;
  result: string | null;
  error: string | null;
}

/**
 * svc_get_async_results: waits up to the timeout for all the requests at once, and returns one row per
 * id in input order: its status and result, or its error (failed, cancelled, unknown, not committed,
 * or still waited for when time ran out). No request's condition is raised: each is reported in its row.
 */
export function getAsyncResults(requestIds: unknown, timeoutSeconds: unknown): RequestOutcome[] {
  const fn = 'svc_get_async_results';
  // A NULL item is a problem of that item: its row says so, as for a request that failed (#45).
  const ids = v.array(fn, 'request_ids', requestIds, { maxItems: LIMITS.batchMaxItems }).map((id, i) => (id === null ? null : v.uuid(fn, `request_ids[${i + 1}]`, id)));
  const timeout = v.integerInRange(fn, 'timeout_seconds', timeoutSeconds, 0, LIMITS.timeoutSecondsMax);
  const states = awaitAll([...new Set(ids.filter((id): id is string => id !== null))], timeout, 0.05, readStates);
  return ids.map((id, i) => {
    if (id === null) return { ord: i + 1, request_id: null, status: null, result: null, error: `${fn}: request_ids[${i + 1}] is NULL` };
    const state = states.get(id);
    const error = stateError(fn, id, state, () => new SvcError(SQLSTATE.svc_timed_out, `${fn}: timed out after ${timeout} s: request ${id} is still ${state?.status}`));
    return { ord: i + 1, request_id: id, status: state?.status ?? null, result: error ? null : state!.result, error: error?.message ?? null };
  });
}

export function cancelAsync(requestId: unknown): boolean {
  const id = v.uuid('svc_cancel_async', 'request_id', requestId);
  return one(QUERIES.cancel, id, ['pending', 'processing']) !== undefined;
}
