// Reading results back: waiting for one with a deadline, and cancelling a pending request.
import { one } from './db.js';
import { QUERIES } from './queries.js';
import { LIMITS } from './limits.js';
import { SvcError, SQLSTATE } from './errors.js';
import * as v from './validate.js';

interface JobState { status: string; result: string | null; error: string | null }

/** Polls the request's row (each poll sees newly committed rows) until it is finished or time is up. */
export function getAsyncResult(requestId: unknown, timeoutSeconds: unknown): string | null {
  const fn = 'svc_get_async_result';
  const id = v.uuid(fn, 'request_id', requestId);
  const timeout = v.integerInRange(fn, 'timeout_seconds', timeoutSeconds, 0, LIMITS.timeoutSecondsMax);
  const deadline = Date.now() + timeout * 1000;
  // Short first pauses: most answers of a small model come within milliseconds.
  let pause = 0.001;
  for (;;) {
    const job = one<JobState>(QUERIES.jobState, id);
    if (!job) {
      throw new SvcError(SQLSTATE.noDataFound, `${fn}: request ${id} does not exist or is not visible to the current role`);
    }
    switch (job.status) {
      case 'completed':
        return job.result;
      case 'failed':
        throw new SvcError('SV001', `${fn}: request ${id} failed: ${job.error ?? 'no error text'}`, { detail: job.error ?? undefined });
      case 'cancelled':
        throw new SvcError('SV002', `${fn}: request ${id} was cancelled`);
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new SvcError(SQLSTATE.queryCanceled, `${fn}: request ${id} is still ${job.status} after ${timeout} s`, {
        hint: 'Call svc_get_async_result again later, or check svc_worker_status() for running workers.',
      });
    }
    one(QUERIES.sleep, Math.min(pause, left / 1000));
    pause = Math.min(pause * 1.25, 0.05);
  }
}

export function cancelAsync(requestId: unknown): boolean {
  const id = v.uuid('svc_cancel_async', 'request_id', requestId);
  return one(QUERIES.cancel, id) !== undefined;
}
