// svc_generate_stream: a generation as rows, each the text its worker wrote since the last one
// (sql/svc_generate_stream.sql drives these two functions through a recursive query, which PostgreSQL
// evaluates a row at a time when the function is called in a SELECT list: a cursor's FETCH returns
// each piece as it is written). The request is svc_generate's, enqueued as a sync call's (through the
// autonomous session, under the transaction's waiter lock, so a cancelled statement cancels it) and
// marked `stream`, which asks the worker to publish its text as it comes (worker/progress.ts, every
// SVC_WORKER_PROGRESS_INTERVAL) and is no part of its cache key: the pieces joined are svc_generate's
// result, from the cache or into it.
import { one } from './db.js';
import { QUERIES } from './queries.js';
import { SvcError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import { intervalSetting } from './settings.js';
import { sessionQueueBound } from './quotas.js';
import { cacheIdentity } from '../queue/cache-key.js';
import * as jobs from './jobs.js';
import { stateError } from './results.js';
import { cancelRemoteQuietly, holdWaiterLock, openSession, submitRemote, syncContext, type Waiter } from './autonomous.js';
import { modelOf, noLiveWorker, workersSummary } from './sync.js';

const FN = 'svc_generate_stream';

/** What the recursive query carries from one row to the next: the request, how much of its text was given, and the piece of this row. */
interface StreamState {
  /** The request; absent when the answer came from the cache. */
  id?: string;
  /** Characters of the text given in the rows so far. */
  shown: number;
  piece: string | null;
  done: boolean;
}

/**
 * What a running stream was submitted through (to cancel its request when a wait times out), by
 * request id, in this session's plv8 context of svc's owner: never in the state, which is a value of
 * the caller's query.
 */
const submitted = new Map<string, { session: ReturnType<typeof openSession>; waiter: Waiter; model: string }>();

/** The first row: the answer from the cache (the whole text, done), or the request submitted and no piece yet. */
export function streamStart(prompt: unknown, ...g: jobs.GenerationArgList): StreamState {
  const job = jobs.prepareGenerate(FN, prompt, jobs.generationArgs(g));
  const ctx = syncContext();
  // Under REPEATABLE READ and SERIALIZABLE the transaction's snapshot would never show the text as it comes.
  if (ctx.isolation !== 'read committed') {
    throw new SvcError(SQLSTATE.feature_not_supported, `${FN}: runs under READ COMMITTED only (this transaction is ${ctx.isolation.toUpperCase()}, whose snapshot never shows the text as it comes)`, {
      hint: 'Call it in a READ COMMITTED transaction, or svc_generate for the whole text.',
    });
  }
  if (job.parameters.use_cache === true) {
    const hit = one<{ result: string | null }>(QUERIES.cacheGet, cacheIdentity(job.functionName, job.parameters), modelOf(job))?.result ?? null;
    if (hit !== null) return { shown: hit.length, piece: hit, done: true };
  }
  intervalSetting('svc.sync_timeout'); // checked before anything is enqueued
  const maxQueueSize = sessionQueueBound();
  const noWorker = noLiveWorker(FN, modelOf(job));
  if (noWorker) throw noWorker;
  const waiter = holdWaiterLock();
  const session = openSession(FN, ctx);
  const [id] = submitRemote(session, ctx, waiter, job.functionName, [{ ...job.parameters, stream: true }], maxQueueSize);
  submitted.set(id, { session, waiter, model: modelOf(job) });
  return { id, shown: 0, piece: null, done: false };
}

/**
 * The next row: waits until the worker has written more of the text (or finished it) and returns what
 * is new; done once the result is given. svc.sync_timeout bounds each wait: a request that shows no
 * new text for that long is cancelled (SV003), as a sync call's.
 */
export function streamNext(state: StreamState): StreamState {
  const id = state.id!;
  try {
    const next = waitForText(state, id);
    if (next.done) submitted.delete(id);
    return next;
  } catch (error) {
    submitted.delete(id);
    throw error;
  }
}

function waitForText(state: StreamState, id: string): StreamState {
  const timeout = intervalSetting('svc.sync_timeout');
  const deadline = Date.now() + timeout * 1000;
  let pause = 0.0005;
  for (;;) {
    const row = one<{ status: string; result: string | null; error: string | null; partial: string | null }>(QUERIES.streamState, id);
    if (row?.status === 'completed') {
      const result = row.result ?? '';
      return { ...state, shown: result.length, piece: result.slice(state.shown), done: true };
    }
    // A retried request writes its text again from the start: the same text, as each attempt gives the same bytes.
    if (row?.status === 'processing' && row.partial !== null && row.partial.length > state.shown) {
      return { ...state, shown: row.partial.length, piece: row.partial.slice(state.shown) };
    }
    const left = deadline - Date.now();
    if (row === undefined || row.status === 'failed' || row.status === 'cancelled' || left <= 0) {
      const error = stateError(FN, id, row && { status: row.status, result: row.result, error: row.error }, () =>
        new SvcError(SQLSTATE.svc_timed_out, `${FN}: timed out: no new text within ${timeout} s (svc.sync_timeout); ${workersSummary(submitted.get(id)?.model ?? 'default', true).text}`, {
          detail: `request ${id} was ${row?.status}; it is cancelled (a worker running it stops)`,
          hint: 'Start a worker (svc-worker), or raise svc.sync_timeout.',
        }),
      );
      const via = submitted.get(id);
      if (error?.sqlerrcode === SQLSTATE.svc_timed_out && via) cancelRemoteQuietly(via.session, via.waiter, [id]);
      throw error;
    }
    one(QUERIES.sleep, Math.min(pause, left / 1000));
    pause = Math.min(pause * 1.15, 0.02);
  }
}
