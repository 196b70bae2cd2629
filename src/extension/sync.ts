// The synchronous functions (svc_generate, svc_embed, svc_generate_json/_regex/_choice, svc_rerank):
// cache first; on a miss the request is enqueued through an autonomous connection (dblink) so a
// worker sees it before the caller's transaction ends, and the call waits for it with a deadline.
// They run as the extension's owner (SECURITY DEFINER); the request belongs to the session's role.
// Nothing is left queued for nobody: settings are checked before anything is enqueued; a wait that
// times out or fails cancels the request; and a caller that stops waiting for a reason its JavaScript
// cannot catch (a statement cancel or timeout, a lost connection) frees the waiter lock it holds, so
// the next claim cancels the request if it has not started (SYNC_WAITER_LOCK in queries.ts).
import { one, rows } from './db.js';
import { QUERIES, REMOTE } from './queries.js';
import { SvcError, SQLSTATE } from './errors.js';
import { integerSetting, intervalSetting } from './settings.js';
import { cacheIdentity } from './cache-key.js';
import * as jobs from './jobs.js';
import { enqueueOne } from './submit.js';
import { awaitOutcome, type JobState } from './results.js';

interface Plv8Quote { quote_literal(text: string): string }
declare const plv8: Plv8Quote;

/** Waiting callers go before queued async work. */
const SYNC_PRIORITY = 100;

// This session's waiter-lock key. Taken again by every call: re-entrant within a transaction (one
// lock per transaction, however many calls), and replaced when another session holds the same key.
let waiterKey = 0;

function holdWaiterLock(): number {
  while (waiterKey === 0 || !one<{ locked: boolean }>(QUERIES.waiterLock, waiterKey)!.locked) {
    waiterKey = (Math.random() * 0x100000000) | 0;
  }
  return waiterKey;
}

/** Runs a statement in the autonomous session, (re)connecting once if the connection was lost. */
function remote<T>(query: typeof QUERIES.syncState, statement: string): T[] {
  for (let attempt = 0; ; attempt++) {
    if (!one<{ connected: boolean }>(QUERIES.syncConnected)?.connected) one(QUERIES.syncConnect);
    try {
      return rows<T>(query, statement);
    } catch (error) {
      const code = String((error as { sqlerrcode?: string }).sqlerrcode ?? '');
      if (attempt > 0 || !code.startsWith('08')) throw error;
      try { one(QUERIES.syncDisconnect); } catch { /* already gone */ }
    }
  }
}

/** Who could serve a request for `model`: the live workers, and how many of them serve it. */
function workersSummary(model: string): { text: string; live: number; serving: number } {
  const s = one<{ live: string; serving: string; known: string; pending: string }>(QUERIES.workersSummary, model)!;
  const live = Number(s.live);
  const serving = Number(s.serving);
  const forModel = model === 'default' ? '' : ` for model "${model}"`;
  let text: string;
  if (live === 0) text = Number(s.known) === 0 ? 'no worker has ever connected (start svc-worker)' : 'no worker is running (none sent a heartbeat in the last minute)';
  else if (serving === 0) text = `none of the ${live} running worker(s) serves model "${model}"`;
  else text = `${serving} worker(s) running${forModel}, ${s.pending} request(s) pending${forModel}`;
  return { text, live, serving };
}

function wait(fn: string, id: string, quotedId: string, timeout: number, model: string): string {
  const read = () => remote<JobState>(QUERIES.syncState, REMOTE.state(quotedId))[0];
  const result = awaitOutcome(fn, id, timeout, 0.02, read, (state) => {
    throw new SvcError(SQLSTATE.timedOut, `${fn}: timed out: no result within ${timeout} s (svc.sync_timeout); ${workersSummary(model).text}`, {
      detail: `request ${id} was ${state?.status ?? 'not found'}; it is cancelled if it had not started`,
      hint: 'Start a worker (svc-worker), raise svc.sync_timeout, or use the _async functions.',
    });
  });
  return result ?? '';
}

/** Cancels the request if it is still pending; an error doing so must not hide the one that ended the wait. */
function cancelQuietly(quotedId: string): void {
  try {
    remote(QUERIES.syncCancel, REMOTE.cancel(quotedId));
  } catch {
    // the autonomous session is gone: the request stays as it is
  }
}

function run(fn: string, job: jobs.PreparedJob): string {
  // The caller's settings, checked before anything is enqueued; its queue bound applies in the
  // autonomous session too, which does not see this session's SETs.
  const timeout = intervalSetting('svc.sync_timeout');
  const maxQueueSize = integerSetting('svc.max_queue_size', 1);
  const identity = cacheIdentity(job.functionName, job.parameters);
  const model = typeof job.parameters.model === 'string' ? job.parameters.model : 'default';
  if (job.parameters.use_cache === true) {
    const hit = one<{ result: string | null }>(QUERIES.cacheGet, identity, model)?.result;
    if (hit !== null && hit !== undefined) return hit;
  }
  // Workers are running but none serves this model: waiting would only time out. (With none running
  // at all the call waits, as one may be starting.)
  const workers = workersSummary(model);
  if (workers.live > 0 && workers.serving === 0) {
    throw new SvcError(SQLSTATE.noWorkerForModel, `${fn}: ${workers.text}`, {
      hint: `Start a worker with --model ${model}=PATH, choose another model (SET svc.model), or use the _async functions: their requests wait for a worker of the model.`,
    });
  }
  const owner = one<{ name: string }>(QUERIES.sessionRole)!.name;
  const waiter = holdWaiterLock();
  const payload = JSON.stringify({ caller: fn, function_name: job.functionName, parameters: job.parameters, owner, waiter, max_queue_size: maxQueueSize });
  const [{ request_id: id }] = remote<{ request_id: string }>(QUERIES.syncEnqueue, REMOTE.enqueue(plv8.quote_literal(payload)));
  const quotedId = plv8.quote_literal(id);
  try {
    return wait(fn, id, quotedId, timeout, model);
  } catch (error) {
    cancelQuietly(quotedId);
    throw error;
  }
}

export function generate(prompt: unknown, maxTokens: unknown, useCache: unknown, seed: unknown): string {
  return run('svc_generate', jobs.prepareGenerate('svc_generate', prompt, maxTokens, useCache, seed));
}

export function embed(textInput: unknown, useCache: unknown): number[] {
  return JSON.parse(run('svc_embed', jobs.prepareEmbed('svc_embed', textInput, useCache))) as number[];
}

export function generateJson(prompt: unknown, schema: unknown, maxTokens: unknown, useCache: unknown, seed: unknown): string {
  return run('svc_generate_json', jobs.prepareJson('svc_generate_json', prompt, schema, maxTokens, useCache, seed));
}

export function generateRegex(prompt: unknown, pattern: unknown, maxTokens: unknown, useCache: unknown, seed: unknown): string {
  return run('svc_generate_regex', jobs.prepareRegex('svc_generate_regex', prompt, pattern, maxTokens, useCache, seed));
}

export function generateChoice(prompt: unknown, choices: unknown, maxTokens: unknown, useCache: unknown, seed: unknown): string {
  return run('svc_generate_choice', jobs.prepareChoice('svc_generate_choice', prompt, choices, maxTokens, useCache, seed));
}

export function rerank(query: unknown, documents: unknown, task: unknown, useCache: unknown, seed: unknown): Array<{ document: string; score: number }> {
  const ranked = JSON.parse(run('svc_rerank', jobs.prepareRerank('svc_rerank', query, documents, task, useCache, seed))) as Array<{ document: string; score: number }>;
  return ranked.map(({ document, score }) => ({ document, score }));
}

/**
 * svc__enqueue_as: runs in the autonomous session, as the extension's owner, for a sync function
 * (payload.caller, which errors name); checks the request again.
 */
export function enqueueAs(payload: unknown): string {
  const { caller, function_name, parameters, owner, waiter, max_queue_size } = (payload ?? {}) as Record<string, unknown>;
  const fn = typeof caller === 'string' && /^svc_[a-z_]+$/.test(caller) ? caller : 'svc__enqueue_as';
  if (typeof owner !== 'string' || owner === '') throw new SvcError(SQLSTATE.invalidParameterValue, `${fn}: payload.owner must be a role name`);
  for (const [name, value] of [['waiter', waiter], ['max_queue_size', max_queue_size]] as const) {
    if (!Number.isInteger(value)) throw new SvcError(SQLSTATE.invalidParameterValue, `${fn}: payload.${name} must be an integer`);
  }
  const job = jobs.prepareFromParameters(fn, function_name, parameters);
  return enqueueOne(fn, QUERIES.insertJobAs, job, SYNC_PRIORITY, { owner, waiter: waiter as number, maxQueueSize: max_queue_size as number });
}
