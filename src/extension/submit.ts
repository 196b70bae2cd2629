// The svc_*_async submitters: validate every argument (priority first, then the others in order; the
// constraint is compiled last, jobs.ts), then enqueue. Nothing is written unless everything is valid;
// the workers' wakeup notification is delivered at commit.
import { one, rows } from './db.js';
import { QUERIES } from './queries.js';
import { LIMITS } from './limits.js';
import { SvcError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import { checkRoleQuota, effectiveLimits, sessionQueueBound, type LimitColumns, type Limits } from './quotas.js';
import * as v from './validate.js';
import * as jobs from './jobs.js';

interface Capacity extends LimitColumns {
  bound: string | number; // svc__queue_depth_bound: at least the requests pending or processing
  last_seq: string | number; // the last submission number given out
  max_queue_size: string | null; // current_setting('svc.max_queue_size', true)
}

// This session's last exact count of the queue, and the submission number given out when it was
// taken: the queue cannot have grown since by more than the numbers given out since, so that count
// carried forward bounds it too, and stays near the truth when the view's bound does not (one request
// pending for a model nobody serves makes every later submission count towards that bound).
let counted: { depth: number; lastSeq: number } | null = null;

/**
 * The queue's bound for this call: the ceiling an administrator set (svc_set_queue_limits), or the
 * session's svc.max_queue_size when that is lower (a session may lower its bound, never raise it).
 * `sessionMax`: the caller's setting when it was read elsewhere (a sync call's, from its own session).
 */
function queueBound(capacity: Capacity, limits: Limits, sessionMax?: number): { max: number; named: string } {
  const own = sessionMax ?? sessionQueueBound(capacity.max_queue_size);
  return own < limits.maxQueueSize ? { max: own, named: 'svc.max_queue_size' } : { max: limits.maxQueueSize, named: 'max_queue_size (svc_set_queue_limits)' };
}

/**
 * Refuses `adding` requests when the queue has no room for them. `capacity` was read before they
 * were inserted; `inserted` of them are in the table already (an exact recount sees them). Soft: a
 * submission another session has not committed yet may be missed.
 */
function checkCapacity(fn: string, capacity: Capacity, limits: Limits, adding: number, inserted: number, sessionMax?: number): void {
  const { max, named } = queueBound(capacity, limits, sessionMax);
  // Counting the queue costs as much as the rest of a submission (more, the more is waiting); the
  // bounds are two index lookups and arithmetic.
  const lastSeq = Number(capacity.last_seq);
  const carried = counted === null || counted.lastSeq > lastSeq ? Infinity : counted.depth + (lastSeq - counted.lastSeq);
  if (Math.min(Number(capacity.bound), carried) + adding <= max) return;
  const exact = one<{ depth: string | number; last_seq: string | number }>(QUERIES.queueDepth)!;
  counted = { depth: Number(exact.depth), lastSeq: Number(exact.last_seq) };
  const depth = counted.depth - inserted;
  if (depth + adding > max) {
    const fits = Math.max(0, max - depth);
    throw new SvcError(SQLSTATE.configuration_limit_exceeded, `${fn}: the queue is full (${depth} requests pending or processing, ${named} = ${max}${adding > 1 ? `; ${adding} submitted, ${fits} would fit` : ''})`, {
      hint: named === 'svc.max_queue_size'
        ? 'Wait for workers to drain the queue, cancel requests, or raise svc.max_queue_size.'
        : 'Wait for workers to drain the queue or cancel requests; an svc_admin member sets the limit (svc_set_queue_limits).',
    });
  }
}

/**
 * Inserts one request for the session's role, which also notifies the workers (svc_jobs, payload: the
 * function name) and reads the capacity figures; a full queue raises here, which takes the row and
 * the notification back.
 */
function enqueueOne(fn: string, job: jobs.PreparedJob, priority: number): string {
  const row = one<{ request_id: string; role_id: string; role: string } & Capacity>(QUERIES.insertJob, job.functionName, job.parameters, job.grammar, priority)!;
  const limits = effectiveLimits(row);
  checkCapacity(fn, row, limits, 1, 1);
  checkRoleQuota(fn, { id: row.role_id, name: row.role }, limits, 1);
  return row.request_id;
}

/**
 * Inserts a sync call's requests (one function, one grammar; a parameters object each) for the role of oid `ownerId`,
 * waited for under lock `waiter`, when the queue has room for them under `maxQueueSize` (the caller's
 * setting); returns their ids in order.
 */
export function enqueueForWaiter(fn: string, functionName: jobs.QueueFunction, parameters: object[], grammar: string | null, priority: number,
  as: { ownerId: string; waiter: number; token: string; maxQueueSize: number }): string[] {
  const capacity = one<Capacity & { role_id: string; role: string }>(QUERIES.capacity, as.ownerId)!;
  const limits = effectiveLimits(capacity);
  checkCapacity(fn, capacity, limits, parameters.length, 0, as.maxQueueSize);
  const inserted = rows<{ request_id: string; batch_index: number | string; inputs: number }>(QUERIES.insertForWaiter, functionName, parameters, grammar, priority, as.ownerId, as.waiter, as.token);
  // The role's quota counts inputs (svc_queue.inputs: an embed_many request's texts, a generate_many one's prompts).
  checkRoleQuota(fn, { id: capacity.role_id, name: capacity.role }, limits, inserted.reduce((n, r) => n + Number(r.inputs), 0));
  one(QUERIES.notifyWorkers, functionName);
  return inOrder(inserted, parameters.length);
}

/** Ids of inserted rows put back in input order by their batch_index (1-based). */
function inOrder(inserted: Array<{ request_id: string; batch_index: number | string }>, count: number): string[] {
  const ids = new Array<string>(count);
  for (const r of inserted) ids[Number(r.batch_index) - 1] = r.request_id;
  return ids;
}

/**
 * A submitter of one request: priority is checked first (every submitter reports it before its other
 * arguments), then `prepare` checks the rest and compiles the constraint, then the request is enqueued.
 */
function submit(fn: string, priority: unknown, prepare: (fn: string) => jobs.PreparedJob): string {
  const p = v.priority(fn, priority);
  return enqueueOne(fn, prepare(fn), p);
}

/**
 * A batch submitter: priority first, then `prepare` checks the items (one parameters object each) and
 * names the documents they share, stored once (svc_rerank_batch_async), if any.
 */
function submitBatch(fn: string, priority: unknown, functionName: jobs.QueueFunction, prepare: (fn: string) => { items: object[]; shared?: unknown[] }): string[] {
  const p = v.priority(fn, priority);
  const { items, shared } = prepare(fn);
  const capacity = one<Capacity & { role_id: string; role: string }>(QUERIES.capacity, null)!;
  const limits = effectiveLimits(capacity);
  checkCapacity(fn, capacity, limits, items.length, 0);
  const inserted = shared
    ? rows<{ request_id: string; batch_index: number | string }>(QUERIES.insertBatchSharing, functionName, items, null, p, shared)
    : rows<{ request_id: string; batch_index: number | string }>(QUERIES.insertBatch, functionName, items, null, p);
  checkRoleQuota(fn, { id: capacity.role_id, name: capacity.role }, limits, items.length);
  one(QUERIES.notifyWorkers, functionName);
  return inOrder(inserted, items.length);
}

/** The arguments of an async generation submitter after its prompt and constraint: the generation's, then priority. */
type AsyncArgs = [...jobs.GenerationArgList, priority: unknown];
const split = (a: AsyncArgs): [jobs.GenerationArgs, unknown] => [jobs.generationArgs(a.slice(0, 8) as jobs.GenerationArgList), a[8]];

export const generateAsync = (prompt: unknown, ...a: AsyncArgs): string => {
  const [g, priority] = split(a);
  return submit('svc_generate_async', priority, (fn) => jobs.prepareGenerate(fn, prompt, g));
};

export const embedAsync = (textInput: unknown, useCache: unknown, priority: unknown): string =>
  submit('svc_embed_async', priority, (fn) => jobs.prepareEmbed(fn, textInput, useCache));

export const generateJsonAsync = (prompt: unknown, schema: unknown, ...a: AsyncArgs): string => {
  const [g, priority] = split(a);
  return submit('svc_generate_json_async', priority, (fn) => jobs.prepareJson(fn, prompt, schema, g));
};

export const generateJsonAsyncText = (prompt: unknown, schema: unknown, ...a: AsyncArgs): string => generateJsonAsync(prompt, new jobs.SchemaText(schema), ...a);

export const generateRegexAsync = (prompt: unknown, pattern: unknown, ...a: AsyncArgs): string => {
  const [g, priority] = split(a);
  return submit('svc_generate_regex_async', priority, (fn) => jobs.prepareRegex(fn, prompt, pattern, g));
};

export const generateChoiceAsync = (prompt: unknown, choices: unknown, ...a: AsyncArgs): string => {
  const [g, priority] = split(a);
  return submit('svc_generate_choice_async', priority, (fn) => jobs.prepareChoice(fn, prompt, choices, g));
};

export const rerankAsync = (query: unknown, documents: unknown, task: unknown, useCache: unknown, seed: unknown, priority: unknown): string =>
  submit('svc_rerank_async', priority, (fn) => jobs.prepareRerank(fn, query, documents, task, useCache, seed));

export const generateBatchAsync = (prompts: unknown, ...a: AsyncArgs): string[] => {
  const [g, priority] = split(a);
  return submitBatch('svc_generate_batch_async', priority, 'generate', (fn) => {
    const checked = v.textArray(fn, 'prompts', prompts, { maxItems: LIMITS.batchMaxItems });
    const options = jobs.generationOptions(fn, g);
    return { items: checked.map((prompt) => ({ ...options, prompt })) };
  });
};

export const embedBatchAsync = (texts: unknown, useCache: unknown, priority: unknown): string[] =>
  submitBatch('svc_embed_batch_async', priority, 'embed', (fn) => {
    const checked = v.textArray(fn, 'texts', texts, { maxItems: LIMITS.batchMaxItems });
    const cache = v.boolean(fn, 'use_cache', useCache);
    const model = jobs.modelParameters(fn, 'embed');
    return { items: checked.map((text_input) => ({ text_input, use_cache: cache, ...model })) };
  });

/**
 * One rerank request per query, all over the same documents, stored once (svc_documents): each
 * request's parameters are svc_rerank_async's for its query but for the documents, which the claim
 * puts back (sql/svc__claim.sql), so each result and cache entry is svc_rerank_async's.
 */
export const rerankBatchAsync = (queries: unknown, documents: unknown, task: unknown, useCache: unknown, seed: unknown, priority: unknown): string[] =>
  submitBatch('svc_rerank_batch_async', priority, 'rerank', (fn) => {
    const checked = v.textArray(fn, 'queries', queries, { maxItems: LIMITS.rerankBatchMaxQueries });
    const { documents: shared, ...template } = jobs.prepareRerank(fn, checked[0], documents, task, useCache, seed).parameters;
    return { items: checked.map((query) => ({ ...template, query })), shared: shared as string[] };
  });
