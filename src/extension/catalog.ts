// The declarative list of svc's SQL functions: names, parameters, SQL types and defaults exactly as in
// SPEC.md 4.2 (plus DESIGN.md's choices), and where each one's body comes from. scripts/
// build-extension.ts turns this list into the extension script; nothing else declares a function.
import { SQL_BODIES } from './queries.js';
import type { api } from './index.js';

export interface Param {
  readonly name: string;
  readonly type: string;
  readonly default?: string;
}

export interface SqlFunction {
  readonly name: string;
  readonly params: readonly Param[];
  readonly returns: string;
  readonly volatility: 'VOLATILE' | 'STABLE' | 'IMMUTABLE';
  /** DEFINER functions run as the extension's owner, past row-level security. */
  readonly security: 'INVOKER' | 'DEFINER';
  /** Who may call it; PUBLIC unless said otherwise ('nobody': only the extension's owner and superusers). */
  readonly grantTo?: 'PUBLIC' | 'svc_worker' | 'svc_admin' | 'nobody';
  /** Settings for the duration of each call (a SET clause), besides the pinned search_path. */
  readonly settings?: Readonly<Record<string, string>>;
  readonly body: { readonly ts: keyof typeof api } | { readonly sql: string } | { readonly plpgsql: string };
  readonly comment: string;
}

const p = (name: string, type: string, defaultValue?: string): Param => ({ name, type, default: defaultValue });
const GENERATION = [p('max_tokens', 'integer', '512'), p('use_cache', 'boolean', 'true'), p('seed', 'integer', '42')];
const PRIORITY = p('priority', 'integer', '0');
// Plans cached while the queue was empty must still use its indexes once it is not (see
// SQL_BODIES.workerClaim). The worker protocol's PL/pgSQL and every plv8 function (db.ts prepares each
// statement once per session) keep their plans, so they run with these settings. JIT is off: a scan
// with no alternative (the one-row sequence read by svc__queue_depth_bound) keeps its disabled cost
// (1e10), far above jit_above_cost, and compiling it took 115 ms a call.
const INDEX_PLANS = { plan_cache_mode: 'force_generic_plan', enable_seqscan: 'off', enable_bitmapscan: 'off', jit: 'off' };
const RERANK_TASK = p('task', 'text', `'Given a web search query, retrieve relevant passages that answer the query'`);
const REQUEST_RECORD = 'TABLE(status text, result text, error text, created_at timestamp, started_at timestamp, completed_at timestamp, priority integer)';

const DECLARED: readonly SqlFunction[] = [
  // Synchronous: the result in the caller's statement (cache first, else a worker within svc.sync_timeout).
  {
    name: 'svc_generate', params: [p('prompt', 'text'), ...GENERATION], returns: 'text',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'generate' },
    comment: 'Generate text and return it (waits for a worker on a cache miss).',
  },
  {
    name: 'svc_embed', params: [p('text_input', 'text'), p('use_cache', 'boolean', 'true')], returns: 'real[]',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'embed' },
    comment: 'The L2-normalized embedding of a text (cast to vector where pgvector is installed).',
  },
  {
    name: 'svc_generate_json', params: [p('prompt', 'text'), p('schema', 'jsonb'), ...GENERATION], returns: 'text',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'generateJson' },
    comment: 'Generate JSON matching a JSON Schema and return it.',
  },
  {
    name: 'svc_generate_regex', params: [p('prompt', 'text'), p('pattern', 'text'), ...GENERATION], returns: 'text',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'generateRegex' },
    comment: 'Generate text matching a regular expression and return it.',
  },
  {
    name: 'svc_generate_choice', params: [p('prompt', 'text'), p('choices', 'text[]'), ...GENERATION], returns: 'text',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'generateChoice' },
    comment: 'Pick one of the choices and return it.',
  },
  {
    name: 'svc_rerank', params: [p('query', 'text'), p('documents', 'text[]'), RERANK_TASK, p('use_cache', 'boolean', 'true'), p('seed', 'integer', '42')],
    returns: 'TABLE(document text, score double precision)', volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'rerank' },
    comment: 'The documents ranked for the query, best first.',
  },
  {
    name: 'svc_generate_async', params: [p('prompt', 'text'), ...GENERATION, PRIORITY], returns: 'uuid',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'generateAsync' },
    comment: 'Queue a text generation; returns its request id at once.',
  },
  {
    name: 'svc_embed_async', params: [p('text_input', 'text'), p('use_cache', 'boolean', 'true'), PRIORITY], returns: 'uuid',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'embedAsync' },
    comment: 'Queue an embedding; the result is a vector literal [x1,x2,...].',
  },
  {
    name: 'svc_generate_json_async', params: [p('prompt', 'text'), p('schema', 'jsonb'), ...GENERATION, PRIORITY], returns: 'uuid',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'generateJsonAsync' },
    comment: 'Queue a generation constrained to JSON matching a JSON Schema.',
  },
  {
    name: 'svc_generate_regex_async', params: [p('prompt', 'text'), p('pattern', 'text'), ...GENERATION, PRIORITY], returns: 'uuid',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'generateRegexAsync' },
    comment: 'Queue a generation constrained to match a regular expression.',
  },
  {
    name: 'svc_generate_choice_async', params: [p('prompt', 'text'), p('choices', 'text[]'), ...GENERATION, PRIORITY], returns: 'uuid',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'generateChoiceAsync' },
    comment: 'Queue a generation constrained to one of the choices.',
  },
  {
    name: 'svc_generate_batch_async', params: [p('prompts', 'text[]'), ...GENERATION, PRIORITY], returns: 'uuid[]',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'generateBatchAsync' },
    comment: 'Queue one generation per prompt; returns one request id per prompt, in order.',
  },
  {
    name: 'svc_embed_batch_async', params: [p('texts', 'text[]'), p('use_cache', 'boolean', 'true'), PRIORITY], returns: 'uuid[]',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'embedBatchAsync' },
    comment: 'Queue one embedding per text; returns one request id per text, in order.',
  },
  {
    name: 'svc_rerank_async',
    params: [p('query', 'text'), p('documents', 'text[]'), RERANK_TASK, p('use_cache', 'boolean', 'true'), p('seed', 'integer', '42'), PRIORITY],
    returns: 'uuid', volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'rerankAsync' },
    comment: 'Queue a reranking; the result is a JSON array of {index, document, score}, best first.',
  },
  {
    name: 'svc_check_async', params: [p('request_id', 'uuid')], returns: REQUEST_RECORD,
    volatility: 'VOLATILE', security: 'INVOKER', body: { plpgsql: SQL_BODIES.checkAsync },
    comment: 'The state of one request (no row when it does not exist or is not yours).',
  },
  {
    name: 'svc_check_async_batch', params: [p('request_ids', 'uuid[]')],
    returns: 'TABLE(request_id uuid, status text, result text, error text, created_at timestamp, completed_at timestamp)',
    volatility: 'VOLATILE', security: 'INVOKER', body: { plpgsql: SQL_BODIES.checkAsyncBatch },
    comment: 'The state of several requests: one row per id, in the order given (NULL columns for an id that is unknown or not yours).',
  },
  {
    name: 'svc_get_async_result', params: [p('request_id', 'uuid'), p('timeout_seconds', 'integer', '30')], returns: 'text',
    volatility: 'VOLATILE', security: 'INVOKER', body: { ts: 'getAsyncResult' },
    comment: 'Wait up to timeout_seconds for a request and return its result; an error when it failed, was cancelled, is unknown or time ran out.',
  },
  {
    name: 'svc_cancel_async', params: [p('request_id', 'uuid')], returns: 'boolean',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'cancelAsync' },
    comment: 'Cancel a pending request: true when it was pending and is now cancelled.',
  },
  {
    name: 'svc_worker_status', params: [],
    returns: 'TABLE(worker_id text, host text, pid integer, state text, started_at timestamptz, last_heartbeat timestamptz, jobs_done bigint, jobs_failed bigint, jobs_in_flight integer, concurrency integer, model text)',
    volatility: 'VOLATILE', security: 'INVOKER', body: { sql: SQL_BODIES.workerStatus },
    comment: 'One row per worker heard from: a stopped one for 10 minutes, a silent one for a day.',
  },
  {
    name: 'svc_queue_stats', params: [],
    returns: 'TABLE(function_name text, status text, requests bigint, oldest_pending_age interval, mean_wait interval, mean_run interval)',
    volatility: 'VOLATILE', security: 'DEFINER', body: { sql: SQL_BODIES.queueStats },
    comment: 'Counts per function and status over the whole queue, with waiting and running times.',
  },
  {
    name: 'svc_cleanup', params: [p('retention', 'interval', `'7 days'`)], returns: 'bigint',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_admin', body: { plpgsql: SQL_BODIES.cleanup },
    comment: 'Delete finished (completed, failed, cancelled) requests that finished longer ago than retention, and workers silent that long; returns how many requests.',
  },
  {
    name: 'svc_settings', params: [], returns: 'TABLE(name text, value text, default_value text, meaning text)',
    volatility: 'STABLE', security: 'INVOKER', body: { sql: SQL_BODIES.settings },
    comment: "svc's settings: each one's effective value in this session, its default and what it means.",
  },
  // The worker protocol: only members of svc_worker may claim, complete, fail and renew jobs.
  {
    name: 'svc_worker_claim', params: [p('worker_id', 'text'), p('max_jobs', 'integer'), p('lease_seconds', 'double precision'), p('max_retries', 'integer', '3')],
    returns: 'TABLE(request_id uuid, function_name text, parameters jsonb, grammar text, attempt integer, retry_count integer, priority integer)',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', settings: INDEX_PLANS, body: { plpgsql: SQL_BODIES.workerClaim },
    comment: 'Worker protocol: claim up to max_jobs pending jobs under a lease; expired leases are requeued first. '
      + 'As its transaction\'s first write it commits without waiting for the disk (synchronous_commit off): a claim lost in a crash is claimed again.',
  },
  {
    name: 'svc_worker_complete', params: [p('request_id', 'uuid'), p('attempt', 'integer'), p('result', 'text')], returns: 'boolean',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', settings: INDEX_PLANS, body: { plpgsql: SQL_BODIES.workerComplete },
    comment: 'Worker protocol: store a result; false (refused) unless the job is still processing under this attempt.',
  },
  {
    name: 'svc_worker_complete_and_claim',
    params: [p('complete_request_ids', 'uuid[]'), p('complete_attempts', 'integer[]'), p('results', 'text[]'), p('worker_id', 'text'),
      p('lease_seconds', 'double precision'), p('max_retries', 'integer', '3'), p('claim_jobs', 'integer', 'NULL')],
    returns: 'TABLE(refused uuid[], request_id uuid, function_name text, parameters jsonb, grammar text, attempt integer, retry_count integer, priority integer)',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', settings: INDEX_PLANS, body: { plpgsql: SQL_BODIES.workerCompleteAndClaim },
    comment: 'Worker protocol: svc_worker_complete of each (request, attempt, result) given, then svc_worker_claim of up to claim_jobs jobs '
      + '(default: one per completion) for the freed slots, in one call. Every row carries refused, the ids whose completion was refused '
      + '(as by svc_worker_complete; the others were stored); with no job claimed, one row of NULL job columns.',
  },
  {
    name: 'svc_worker_fail', params: [p('request_id', 'uuid'), p('attempt', 'integer'), p('error', 'text'), p('max_retries', 'integer', '3')], returns: 'text',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', settings: INDEX_PLANS, body: { plpgsql: SQL_BODIES.workerFail },
    comment: 'Worker protocol: record a failure; the job goes back to pending with a backoff while retries remain, else fails. Returns the new status (NULL when refused).',
  },
  {
    name: 'svc_worker_renew', params: [p('worker_id', 'text'), p('request_ids', 'uuid[]'), p('lease_seconds', 'double precision')], returns: 'integer',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', body: { sql: SQL_BODIES.workerRenew },
    comment: 'Worker protocol: extend the leases of jobs this worker still holds; returns how many.',
  },
  {
    name: 'svc_worker_heartbeat',
    params: [p('worker_id', 'text'), p('host', 'text'), p('pid', 'integer'), p('state', 'text'), p('concurrency', 'integer'), p('model', 'text'),
      p('jobs_done', 'bigint'), p('jobs_failed', 'bigint'), p('jobs_in_flight', 'integer')],
    returns: 'void', volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', body: { sql: SQL_BODIES.workerHeartbeat },
    comment: 'Worker protocol: report that a worker is alive, for svc_worker_status().',
  },
  {
    name: 'svc_cache_stats', params: [],
    returns: 'TABLE(entries bigint, hits bigint, misses bigint, hit_rate double precision, max_entries bigint)',
    volatility: 'VOLATILE', security: 'DEFINER', body: { sql: SQL_BODIES.cacheStats },
    comment: 'Entries in the result cache, hits and misses since the last clear, and the size limit (svc.cache_size).',
  },
  {
    name: 'svc_cache_clear', params: [], returns: 'bigint', volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_admin',
    body: { sql: SQL_BODIES.cacheClear }, comment: 'Empty the result cache and reset its counters; returns how many entries were removed.',
  },
  {
    name: 'svc_worker_cache_get', params: [p('identity', 'text'), p('model', 'text')], returns: 'text',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', body: { sql: SQL_BODIES.cacheGet },
    comment: 'Worker protocol: the cached result for a request identity and model, or NULL (counted as a hit or a miss).',
  },
  {
    name: 'svc_worker_cache_put', params: [p('identity', 'text'), p('model', 'text'), p('function_name', 'text'), p('result', 'text')], returns: 'void',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', body: { sql: SQL_BODIES.cachePut },
    comment: 'Worker protocol: store a result in the cache, evicting the least used entries beyond svc.cache_size.',
  },
  // Internal helpers used by the functions above.
  {
    name: 'svc__enqueue_as', params: [p('payload', 'jsonb')], returns: 'uuid', volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'nobody',
    body: { ts: 'enqueueAs' }, comment: 'Internal: enqueue a request for payload.owner; run by the sync functions in their autonomous session.',
  },
  {
    name: 'svc__current_model', params: [], returns: 'text', volatility: 'STABLE', security: 'INVOKER',
    body: { sql: SQL_BODIES.currentModel }, comment: 'Internal: the model identity the cache serves (that of the most recently heard-from live worker).',
  },
  {
    name: 'svc__sync_conninfo', params: [], returns: 'text', volatility: 'STABLE', security: 'INVOKER', grantTo: 'nobody',
    body: { sql: SQL_BODIES.syncConninfo }, comment: 'Internal: where the sync functions connect back to (svc.sync_connection, else the local socket).',
  },
  {
    name: 'svc__conninfo_quote', params: [p('value', 'text')], returns: 'text', volatility: 'IMMUTABLE', security: 'INVOKER',
    body: { sql: SQL_BODIES.conninfoQuote }, comment: 'Internal: a libpq connection-string value, quoted.',
  },
  {
    name: 'svc__queue_depth', params: [], returns: 'bigint', volatility: 'STABLE', security: 'DEFINER',
    settings: INDEX_PLANS, body: { plpgsql: SQL_BODIES.queueDepth }, comment: 'Internal: requests pending or processing, over all roles (for svc.max_queue_size).',
  },

  {
    name: 'svc__backoff', params: [p('retry_count', 'integer')], returns: 'interval', volatility: 'STABLE', security: 'INVOKER',
    grantTo: 'nobody', body: { sql: SQL_BODIES.backoff }, comment: 'Internal: the delay before retry n, svc.retry_backoff * 2^n, at most 5 minutes.',
  },
];

export const FUNCTIONS: readonly SqlFunction[] = DECLARED.map((fn) => ('ts' in fn.body ? { ...fn, settings: { ...INDEX_PLANS, ...fn.settings } } : fn));
