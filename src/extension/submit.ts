// The svc_*_async submitters: validate every argument (priority first, then the others in order; the
// constraint is compiled last, jobs.ts), then enqueue. Nothing is written unless everything is valid; the workers' wakeup notification is
// delivered at commit.
import { one, rows } from './db.js';
import { QUERIES, type Query } from './queries.js';
import { LIMITS } from './limits.js';
import { SvcError } from './errors.js';
import { integerSetting } from './settings.js';
import * as v from './validate.js';
import * as jobs from './jobs.js';

interface Capacity {
  bound: string | number; // svc__queue_depth_bound: at least the requests pending or processing
  max_queue_size: string | null; // current_setting('svc.max_queue_size', true)
}

/**
 * Refuses `adding` requests when the queue has no room for them. `capacity` was read before they
 * were inserted; `inserted` of them are in the table already (an exact recount sees them).
 */
function checkCapacity(fn: string, capacity: Capacity, adding: number, inserted: number): void {
  const max = integerSetting('svc.max_queue_size', 1, capacity.max_queue_size);
  // Counting the queue costs as much as the rest of a submission; the bound is two index lookups.
  if (Number(capacity.bound) + adding <= max) return;
  const depth = Number(one<{ depth: string | number }>(QUERIES.queueDepth)?.depth ?? 0) - inserted;
  if (depth + adding > max) {
    throw new SvcError('53400', `${fn}: the queue is full (${depth} requests pending or processing, svc.max_queue_size = ${max})`, {
      hint: 'Wait for workers to drain the queue, cancel requests, or raise svc.max_queue_size.',
    });
  }
}

/**
 * Inserts one request with `query` (QUERIES.insertJob, or insertJobAs with the owner last), which also
 * notifies the workers (svc_jobs, payload: the function name) and reads the capacity figures; a full
 * queue raises here, which takes the row and the notification back.
 */
export function enqueueOne(fn: string, query: Query, job: jobs.PreparedJob, priority: number, ...owner: string[]): string {
  const row = one<{ request_id: string } & Capacity>(query, job.functionName, job.parameters, job.grammar, priority, ...owner)!;
  checkCapacity(fn, row, 1, 1);
  return row.request_id;
}

const enqueue = (fn: string, job: jobs.PreparedJob, priority: number) => enqueueOne(fn, QUERIES.insertJob, job, priority);

function enqueueBatch(fn: string, functionName: jobs.QueueFunction, items: object[], priority: number): string[] {
  checkCapacity(fn, one<Capacity>(QUERIES.capacity)!, items.length, 0);
  const inserted = rows<{ request_id: string; batch_index: number | string }>(QUERIES.insertBatch, functionName, items, null, priority);
  one(QUERIES.notifyWorkers, functionName);
  const ids = new Array<string>(items.length);
  for (const r of inserted) ids[Number(r.batch_index) - 1] = r.request_id;
  return ids;
}

export function generateAsync(prompt: unknown, maxTokens: unknown, useCache: unknown, seed: unknown, priority: unknown): string {
  const fn = 'svc_generate_async';
  const p = v.priority(fn, priority);
  return enqueue(fn, jobs.prepareGenerate(fn, prompt, maxTokens, useCache, seed), p);
}

export function embedAsync(textInput: unknown, useCache: unknown, priority: unknown): string {
  const fn = 'svc_embed_async';
  const p = v.priority(fn, priority);
  return enqueue(fn, jobs.prepareEmbed(fn, textInput, useCache), p);
}

export function generateJsonAsync(prompt: unknown, schema: unknown, maxTokens: unknown, useCache: unknown, seed: unknown, priority: unknown): string {
  const fn = 'svc_generate_json_async';
  const p = v.priority(fn, priority);
  return enqueue(fn, jobs.prepareJson(fn, prompt, schema, maxTokens, useCache, seed), p);
}

export function generateRegexAsync(prompt: unknown, pattern: unknown, maxTokens: unknown, useCache: unknown, seed: unknown, priority: unknown): string {
  const fn = 'svc_generate_regex_async';
  const p = v.priority(fn, priority);
  return enqueue(fn, jobs.prepareRegex(fn, prompt, pattern, maxTokens, useCache, seed), p);
}

export function generateChoiceAsync(prompt: unknown, choices: unknown, maxTokens: unknown, useCache: unknown, seed: unknown, priority: unknown): string {
  const fn = 'svc_generate_choice_async';
  const p = v.priority(fn, priority);
  return enqueue(fn, jobs.prepareChoice(fn, prompt, choices, maxTokens, useCache, seed), p);
}

export function rerankAsync(query: unknown, documents: unknown, task: unknown, useCache: unknown, seed: unknown, priority: unknown): string {
  const fn = 'svc_rerank_async';
  const p = v.priority(fn, priority);
  return enqueue(fn, jobs.prepareRerank(fn, query, documents, task, useCache, seed), p);
}

export function generateBatchAsync(prompts: unknown, maxTokens: unknown, useCache: unknown, seed: unknown, priority: unknown): string[] {
  const fn = 'svc_generate_batch_async';
  const p = v.priority(fn, priority);
  const checked = v.textArray(fn, 'prompts', prompts, { maxItems: LIMITS.batchMaxItems });
  const options = jobs.generationOptions(fn, maxTokens, useCache, seed);
  return enqueueBatch(fn, 'generate', checked.map((prompt) => ({ ...options, prompt })), p);
}

export function embedBatchAsync(texts: unknown, useCache: unknown, priority: unknown): string[] {
  const fn = 'svc_embed_batch_async';
  const p = v.priority(fn, priority);
  const checked = v.textArray(fn, 'texts', texts, { maxItems: LIMITS.batchMaxItems });
  const cache = v.boolean(fn, 'use_cache', useCache);
  return enqueueBatch(fn, 'embed', checked.map((text_input) => ({ text_input, use_cache: cache })), p);
}
