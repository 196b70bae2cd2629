// Reading results back: waiting for one with a deadline, and cancelling a pending request.
import { one } from './db.js';
import { QUERIES } from './queries.js';
import { LIMITS } from './limits.js';
import { SvcError, SQLSTATE } from './errors.js';
import * as v from './validate.js';

export interface JobState { status: string; result: string | null; error: string | null; uncommitted?: boolean }

/**
 * Polls `read` until the request is finished: returns its result, or throws its failure or
 * cancellation; past the deadline `timedOut(lastState)` throws. Pauses start short (most answers of
 * a small model come within milliseconds) and grow to `maxPause` seconds.
 */
export function awaitOutcome(fn: string, id: string, timeoutSeconds: number, maxPause: number,
  read: () => JobState | undefined, timedOut: (state: JobState | undefined) => never): string | null {
  const deadline = Date.now() + timeoutSeconds * 1000;
  let pause = 0.001;
  for (;;) {
    const job = read();
    switch (job?.status) {
      case 'completed':
        return job.result;
      case 'failed':
        throw new SvcError(SQLSTATE.requestFailed, `${fn}: request ${id} failed: ${job.error ?? 'no error text'}`, { detail: job.error ?? undefined });
      case 'cancelled':
        throw new SvcError(SQLSTATE.requestCancelled, `${fn}: request ${id} was cancelled`);
    }
    if (job?.uncommitted) {
      throw new SvcError(SQLSTATE.notCommitted, `${fn}: request ${id} was submitted in this transaction, which has not committed yet: no worker can see it`, {
        hint: 'Commit the transaction that submitted the request, then wait for its result.',
      });
    }
    const left = deadline - Date.now();
    if (left <= 0) timedOut(job);
    one(QUERIES.sleep, Math.min(pause, Math.max(0.001, left / 1000)));
    pause = Math.min(pause * 1.25, maxPause);
  }
}

/** Polls the request's row (each poll sees newly committed rows) until it is finished or time is up. */
export function getAsyncResult(requestId: unknown, timeoutSeconds: unknown): string | null {
  const fn = 'svc_get_async_result';
  const id = v.uuid(fn, 'request_id', requestId);
  const timeout = v.integerInRange(fn, 'timeout_seconds', timeoutSeconds, 0, LIMITS.timeoutSecondsMax);
  const read = () => {
    const job = one<JobState>(QUERIES.jobState, id);
    if (!job) throw new SvcError(SQLSTATE.unknownRequest, `${fn}: request ${id} does not exist or is not visible to the current role`);
    return job;
  };
  return awaitOutcome(fn, id, timeout, 0.05, read, (job) => {
    throw new SvcError(SQLSTATE.timedOut, `${fn}: timed out after ${timeout} s: request ${id} is still ${job?.status}`, {
      hint: 'Call svc_get_async_result again later, or check svc_worker_status() for running workers.',
    });
  });
}

export function cancelAsync(requestId: unknown): boolean {
  const id = v.uuid('svc_cancel_async', 'request_id', requestId);
  return one(QUERIES.cancel, id, 'pending') !== undefined;
}
