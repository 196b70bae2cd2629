// The svc_*_async submitters: validate every argument, compile the constraint, then enqueue. Nothing
// is written unless everything is valid; the workers' wakeup notification is delivered at commit.
import { one, rows } from './db.js';
import { QUERIES } from './queries.js';
import { LIMITS } from './limits.js';
import { SvcError } from './errors.js';
import { integerSetting } from './settings.js';
import * as v from './validate.js';
import { choicesGrammar, regexGrammar, schemaGrammar } from './constraints.js';

export type QueueFunction = 'generate' | 'embed' | 'generate_json' | 'generate_regex' | 'generate_choice' | 'rerank';

function ensureCapacity(fn: string, adding: number): void {
  const max = integerSetting('svc.max_queue_size', 1);
  const depth = Number(one<{ depth: string | number }>(QUERIES.queueDepth)?.depth ?? 0);
  if (depth + adding > max) {
    throw new SvcError('53400', `${fn}: the queue is full (${depth} requests pending or processing, svc.max_queue_size = ${max})`, {
      hint: 'Wait for workers to drain the queue, cancel requests, or raise svc.max_queue_size.',
    });
  }
}

function enqueue(fn: string, functionName: QueueFunction, parameters: object, grammar: string | null, priority: number): string {
  ensureCapacity(fn, 1);
  const row = one<{ request_id: string }>(QUERIES.insertJob, functionName, parameters, grammar, priority)!;
  one(QUERIES.notifyWorkers, functionName);
  return row.request_id;
}

function enqueueBatch(fn: string, functionName: QueueFunction, items: object[], priority: number): string[] {
  ensureCapacity(fn, items.length);
  const inserted = rows<{ request_id: string; batch_index: number | string }>(QUERIES.insertBatch, functionName, items, null, priority);
  one(QUERIES.notifyWorkers, functionName);
  const ids = new Array<string>(items.length);
  for (const r of inserted) ids[Number(r.batch_index) - 1] = r.request_id;
  return ids;
}

interface GenerationOptions { max_tokens: number; use_cache: boolean; seed: number }

function generationOptions(fn: string, maxTokens: unknown, useCache: unknown, seed: unknown): GenerationOptions {
  return { max_tokens: v.maxTokens(fn, maxTokens), use_cache: v.boolean(fn, 'use_cache', useCache), seed: v.seed(fn, seed) };
}

export function generateAsync(prompt: unknown, maxTokens: unknown, useCache: unknown, seed: unknown, priority: unknown): string {
  const fn = 'svc_generate_async';
  const params = { prompt: v.text(fn, 'prompt', prompt), ...generationOptions(fn, maxTokens, useCache, seed) };
  return enqueue(fn, 'generate', params, null, v.priority(fn, priority));
}

export function embedAsync(textInput: unknown, useCache: unknown, priority: unknown): string {
  const fn = 'svc_embed_async';
  const params = { text_input: v.text(fn, 'text_input', textInput), use_cache: v.boolean(fn, 'use_cache', useCache) };
  return enqueue(fn, 'embed', params, null, v.priority(fn, priority));
}

export function generateJsonAsync(prompt: unknown, schema: unknown, maxTokens: unknown, useCache: unknown, seed: unknown, priority: unknown): string {
  const fn = 'svc_generate_json_async';
  const checkedPrompt = v.text(fn, 'prompt', prompt);
  const options = generationOptions(fn, maxTokens, useCache, seed);
  const p = v.priority(fn, priority);
  const grammar = schemaGrammar(fn, schema);
  return enqueue(fn, 'generate_json', { prompt: checkedPrompt, schema, ...options }, grammar, p);
}

export function generateRegexAsync(prompt: unknown, pattern: unknown, maxTokens: unknown, useCache: unknown, seed: unknown, priority: unknown): string {
  const fn = 'svc_generate_regex_async';
  const checkedPrompt = v.text(fn, 'prompt', prompt);
  const checkedPattern = v.text(fn, 'pattern', pattern, { maxChars: 100_000 });
  const options = generationOptions(fn, maxTokens, useCache, seed);
  const p = v.priority(fn, priority);
  const grammar = regexGrammar(fn, checkedPattern);
  return enqueue(fn, 'generate_regex', { prompt: checkedPrompt, pattern: checkedPattern, ...options }, grammar, p);
}

export function generateChoiceAsync(prompt: unknown, choices: unknown, maxTokens: unknown, useCache: unknown, seed: unknown, priority: unknown): string {
  const fn = 'svc_generate_choice_async';
  const checkedPrompt = v.text(fn, 'prompt', prompt);
  const checkedChoices = v.textArray(fn, 'choices', choices, { maxItems: LIMITS.choicesMaxItems });
  const options = generationOptions(fn, maxTokens, useCache, seed);
  const p = v.priority(fn, priority);
  const grammar = choicesGrammar(fn, checkedChoices);
  return enqueue(fn, 'generate_choice', { prompt: checkedPrompt, choices: checkedChoices, ...options }, grammar, p);
}

export function generateBatchAsync(prompts: unknown, maxTokens: unknown, useCache: unknown, seed: unknown, priority: unknown): string[] {
  const fn = 'svc_generate_batch_async';
  const checked = v.textArray(fn, 'prompts', prompts, { maxItems: LIMITS.batchMaxItems });
  const options = generationOptions(fn, maxTokens, useCache, seed);
  return enqueueBatch(fn, 'generate', checked.map((prompt) => ({ prompt, ...options })), v.priority(fn, priority));
}

export function embedBatchAsync(texts: unknown, useCache: unknown, priority: unknown): string[] {
  const fn = 'svc_embed_batch_async';
  const checked = v.textArray(fn, 'texts', texts, { maxItems: LIMITS.batchMaxItems });
  const cache = v.boolean(fn, 'use_cache', useCache);
  return enqueueBatch(fn, 'embed', checked.map((text_input) => ({ text_input, use_cache: cache })), v.priority(fn, priority));
}

export function rerankAsync(query: unknown, documents: unknown, task: unknown, useCache: unknown, seed: unknown, priority: unknown): string {
  const fn = 'svc_rerank_async';
  const params = {
    query: v.text(fn, 'query', query),
    documents: v.textArray(fn, 'documents', documents, { maxItems: LIMITS.rerankMaxDocuments, allowEmptyItems: true }),
    task: v.text(fn, 'task', task),
    use_cache: v.boolean(fn, 'use_cache', useCache),
    seed: v.seed(fn, seed),
  };
  return enqueue(fn, 'rerank', params, null, v.priority(fn, priority));
}
