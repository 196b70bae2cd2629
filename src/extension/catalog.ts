// The declarative list of svc's SQL functions: names, parameters, SQL types and defaults exactly as in
// SPEC.md 4.2 (plus DESIGN.md's choices), and where each one's body comes from. scripts/
// build-extension.ts turns this list into the extension script; nothing else declares a function.
// The body of an SQL or PL/pgSQL function is src/extension/sql/<name>.sql, as it runs.
import { SETTINGS } from './settings-catalog.js';
import type { api } from './index.js';
import { quoteLiteral as literal } from './sql-text.js';
import { SYNC_WAITER_LOCK } from '../queue/locks.js';

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
  /** DEFINER functions run as their owner (svc_owner, see `owner`), past row-level security. */
  readonly security: 'INVOKER' | 'DEFINER';
  /**
   * Who may call it; PUBLIC unless said otherwise ('nobody': only its owner and superusers;
   * 'svc_sync': the role the sync functions' autonomous session logs in as). Internal functions
   * (svc__*) are 'nobody' unless docs/security.md says why PUBLIC may run them.
   */
  readonly grantTo?: 'PUBLIC' | 'svc_worker' | 'svc_admin' | 'svc_sync' | 'svc_owner' | 'nobody';
  /**
   * Who owns it: svc_owner (NOLOGIN, no attribute), unless 'superuser': the superuser who ran CREATE
   * EXTENSION keeps it because what it does needs a superuser. Each such function is listed in
   * docs/security.md ("Who owns svc's objects") with the reason, and test/extension/security-owner.test.ts
   * holds the list to it.
   */
  readonly owner?: 'superuser';
  /** Settings for the duration of each call (a SET clause), besides the pinned search_path. */
  readonly settings?: Readonly<Record<string, string>>;
  /**
   * `ts`: a plv8 stub calling the bundle's api; `language`: the body is src/extension/sql/<name>.sql (or
   * `generated`); `c`: the symbol of that name in svc.so (src/native), for what runs once per row of a
   * scan. A C function runs no SQL and reads nothing but its arguments, so it takes no settings: a SET
   * clause would cost more per call than its work (docs/security.md, "What svc's owner never evaluates").
   */
  readonly body: { readonly ts: keyof typeof api } | { readonly language: 'sql' | 'plpgsql'; readonly generated?: string } | { readonly c: string };
  /** PARALLEL SAFE where a parallel scan may call it (PostgreSQL's default is UNSAFE). */
  readonly parallel?: 'SAFE';
  readonly comment: string;
}

/** An aggregate over catalog functions (build-extension.ts emits it after them). Aggregates take no defaults and no named arguments. */
export interface SqlAggregate {
  readonly name: string;
  readonly params: readonly Param[];
  readonly sfunc: string;
  readonly stype: 'jsonb';
  readonly finalfunc: string;
  readonly combinefunc: string;
  readonly parallel: 'SAFE' | 'RESTRICTED' | 'UNSAFE';
  readonly comment: string;
}

const p = (name: string, type: string, defaultValue?: string): Param => ({ name, type, default: defaultValue });
// Seeded sampling and stop strings (src/decode/sampling.ts, src/decode/stop.ts): greedy at temperature 0, the
// default; top_k, top_p and min_p (llama.cpp's defaults) only matter above it. stop NULL: none.
const DECODING = [
  p('temperature', 'double precision', '0'), p('top_k', 'integer', '40'), p('top_p', 'double precision', '0.95'), p('min_p', 'double precision', '0.05'),
  p('stop', 'text[]', 'NULL'),
];
const GENERATION = [p('max_tokens', 'integer', '512'), p('use_cache', 'boolean', 'true'), p('seed', 'integer', '42'), ...DECODING];
/** The generation arguments passed on, as a generated SQL body passes them. */
const GENERATION_ARGS = GENERATION.map((param) => param.name).join(', ');
const PRIORITY = p('priority', 'integer', '0');
// The svc_models names a worker claims for: one model, 'default', unless it serves several.
const MODELS = p('models', 'text[]', `'{default}'`);
// Plans cached while the queue was empty must still use its indexes once it is not (see
// sql/svc_worker_claim.sql). The worker protocol's PL/pgSQL and every plv8 function (db.ts prepares each
// statement once per session) keep their plans, so they run with these settings. JIT is off: a scan
// with no alternative (the one-row sequence read by svc__queue_depth_bound) keeps its disabled cost
// (1e10), far above jit_above_cost, and compiling it took 115 ms a call.
const INDEX_PLANS = { plan_cache_mode: 'force_generic_plan', enable_seqscan: 'off', enable_bitmapscan: 'off', jit: 'off' };
const RERANK_TASK = p('task', 'text', `'Given a web search query, retrieve relevant passages that answer the query'`);
// How many of the ranked documents to return (NULL: all); applied after the ranking, so scores and order are those of the call without it.
const TOP_K = p('top_k', 'integer', 'NULL');
// A set-based sync call: one row per input, its position first.
const SET_RESULT = 'TABLE(ord integer, result text, error text)';
// It may run longer than plv8's 300 s default: svc.sync_timeout bounds each wait, statement_timeout the call.
const SET_CALL = { 'plv8.execution_timeout': '65536' };
const REQUEST_RECORD = 'TABLE(status text, result text, error text, created_at timestamp, started_at timestamp, completed_at timestamp, priority integer)';


/** svc_settings' body, generated from settings-catalog.ts (the one list of settings and defaults). */
function settingsBody(): string {
  const rows = Object.entries(SETTINGS).map(([name, { default: d, meaning }]) => `  (${literal(name)}, ${d === null ? 'NULL' : literal(d)}, ${literal(meaning)})`);
  return `-- Generated by scripts/build-extension.ts from src/extension/settings-catalog.ts.
SELECT s.name, coalesce(nullif(current_setting(s.name, true), ''), s.default_value), s.default_value, s.meaning
FROM (VALUES
${rows.join(',\n')}
) AS s(name, default_value, meaning)
ORDER BY s.name`;
}

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
    name: 'svc_generate_json', params: [p('prompt', 'text'), p('schema', 'text'), ...GENERATION], returns: 'text',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'generateJsonText' },
    comment: 'Generate JSON matching a JSON Schema given as text (a literal): its properties in the order written.',
  },
  // A schema of type json (a json column keeps its text as written) is the text overload's schema, in the order written.
  {
    name: 'svc_generate_json', params: [p('prompt', 'text'), p('schema', 'json'), ...GENERATION], returns: 'text', volatility: 'VOLATILE', security: 'INVOKER',
    body: { language: 'sql', generated: `SELECT @extschema@.svc_generate_json(prompt, schema::text, ${GENERATION_ARGS})` },
    comment: 'Generate JSON matching a JSON Schema of type json: its properties in the order written, as the text overload.',
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
    name: 'svc_rerank', params: [p('query', 'text'), p('documents', 'text[]'), RERANK_TASK, p('use_cache', 'boolean', 'true'), p('seed', 'integer', '42'), TOP_K],
    returns: 'TABLE(document text, score double precision)', volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'rerank' },
    comment: 'The documents ranked for the query, best first (the first top_k of them; NULL: all).',
  },
  {
    name: 'svc_rerank_docs_only', params: [p('query', 'text'), p('documents', 'text[]'), RERANK_TASK, p('use_cache', 'boolean', 'true'), p('seed', 'integer', '42'), TOP_K],
    returns: 'SETOF text', volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'rerankDocsOnly' },
    comment: "svc_rerank's documents alone, best first (the first top_k of them; NULL: all).",
  },
  // Set-based forms of the synchronous functions: many inputs in one call, one row per input in input
  // order (ord, from 1), the inputs' errors in their own rows (README, "Set-based calls").
  {
    name: 'svc_generate', params: [p('prompts', 'text[]'), ...GENERATION], returns: SET_RESULT, volatility: 'VOLATILE', security: 'DEFINER',
    settings: SET_CALL, body: { ts: 'generateMany' }, comment: 'Generate text for each prompt: one row per prompt, in order (ord), with its result or its error.',
  },
  {
    name: 'svc_embed', params: [p('texts', 'text[]'), p('use_cache', 'boolean', 'true')], returns: 'TABLE(ord integer, embedding real[], error text)',
    volatility: 'VOLATILE', security: 'DEFINER', settings: SET_CALL, body: { ts: 'embedMany' },
    comment: 'The embedding of each text: one row per text, in order (ord), with its embedding or its error.',
  },
  {
    name: 'svc_generate_json', params: [p('prompts', 'text[]'), p('schema', 'jsonb'), ...GENERATION], returns: SET_RESULT, volatility: 'VOLATILE',
    security: 'DEFINER', settings: SET_CALL, body: { ts: 'generateJsonMany' }, comment: 'JSON matching the schema for each prompt: one row per prompt, in order (ord).',
  },
  {
    name: 'svc_generate_json', params: [p('prompts', 'text[]'), p('schema', 'text'), ...GENERATION], returns: SET_RESULT, volatility: 'VOLATILE',
    security: 'DEFINER', settings: SET_CALL, body: { ts: 'generateJsonManyText' },
    comment: 'JSON matching the schema (text: its properties in the order written) for each prompt: one row per prompt, in order (ord).',
  },
  {
    name: 'svc_generate_json', params: [p('prompts', 'text[]'), p('schema', 'json'), ...GENERATION], returns: SET_RESULT, volatility: 'VOLATILE', security: 'INVOKER',
    body: { language: 'sql', generated: `SELECT * FROM @extschema@.svc_generate_json(prompts, schema::text, ${GENERATION_ARGS})` },
    comment: 'JSON matching the schema (json: its properties in the order written) for each prompt: one row per prompt, in order (ord).',
  },
  {
    name: 'svc_generate_regex', params: [p('prompts', 'text[]'), p('pattern', 'text'), ...GENERATION], returns: SET_RESULT, volatility: 'VOLATILE',
    security: 'DEFINER', settings: SET_CALL, body: { ts: 'generateRegexMany' }, comment: 'Text matching the pattern for each prompt: one row per prompt, in order (ord).',
  },
  {
    name: 'svc_generate_choice', params: [p('prompts', 'text[]'), p('choices', 'text[]'), ...GENERATION], returns: SET_RESULT, volatility: 'VOLATILE',
    security: 'DEFINER', settings: SET_CALL, body: { ts: 'generateChoiceMany' }, comment: 'One of the choices for each prompt: one row per prompt, in order (ord).',
  },
  {
    name: 'svc_rerank', params: [p('queries', 'text[]'), p('documents', 'text[]'), RERANK_TASK, p('use_cache', 'boolean', 'true'), p('seed', 'integer', '42'), TOP_K],
    returns: 'TABLE(ord integer, document text, score double precision, error text)', volatility: 'VOLATILE', security: 'DEFINER', settings: SET_CALL,
    body: { ts: 'rerankMany' }, comment: 'The documents ranked for each query, best first (its first top_k): rows of query ord, or one row of its error.',
  },
  {
    name: 'svc_rerank_batch',
    params: [p('queries', 'text[]'), p('documents', 'text[]'), RERANK_TASK, p('use_cache', 'boolean', 'true'), p('seed', 'integer', '42'), TOP_K],
    returns: 'TABLE(ord integer, query text, rank integer, doc_index integer, document text, score double precision, error text)', volatility: 'VOLATILE',
    security: 'DEFINER', settings: SET_CALL, body: { ts: 'rerankBatch' },
    comment: 'Many queries over the same documents: for each query (ord) its documents best first (its first top_k), with their rank and position in documents '
      + '(both from 1), or one row of its error. Scores as svc_rerank gives them.',
  },
  // Facts (facts.ts): a list of facts under a JSON Schema, and near-repeats merged by embedding similarity.
  {
    name: 'svc_extract_facts', params: [p('text_input', 'text'), p('max_facts', 'integer', '10'), ...GENERATION], returns: 'text[]',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'extractFacts' },
    comment: 'At most max_facts short facts stated in the text, by the model under a JSON Schema (so always a list): each trimmed, blank ones and repeats left out.',
  },
  {
    name: 'svc_deduplicate_facts', params: [p('facts', 'text[]'), p('threshold', 'double precision', '0.8'), p('use_cache', 'boolean', 'true')],
    returns: 'text[]', volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'deduplicateFacts' },
    comment: "The facts in order, each left out whose embedding (svc_embed's model) has a cosine similarity of threshold or more to one kept before it.",
  },
  // A generation as rows, each the text written since the last (stream.ts): in a SELECT list, a row at a time as the worker writes it.
  {
    name: 'svc_generate_stream', params: [p('prompt', 'text'), ...GENERATION], returns: 'SETOF text', volatility: 'VOLATILE', security: 'DEFINER',
    settings: SET_CALL, body: { language: 'sql' },
    comment: "svc_generate's text as rows, each what the worker wrote since the last (whole characters), joined exactly svc_generate's result; "
      + 'called in a SELECT list (a cursor fetches each as it comes); cancelling the statement cancels the request.',
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
    name: 'svc_generate_json_async', params: [p('prompt', 'text'), p('schema', 'text'), ...GENERATION, PRIORITY], returns: 'uuid',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'generateJsonAsyncText' },
    comment: 'Queue a generation constrained to JSON matching a JSON Schema given as text (a literal): its properties in the order written.',
  },
  {
    name: 'svc_generate_json_async', params: [p('prompt', 'text'), p('schema', 'json'), ...GENERATION, PRIORITY], returns: 'uuid', volatility: 'VOLATILE',
    security: 'INVOKER', body: { language: 'sql', generated: `SELECT @extschema@.svc_generate_json_async(prompt, schema::text, ${GENERATION_ARGS}, priority)` },
    comment: 'Queue a generation constrained to JSON matching a JSON Schema of type json: its properties in the order written.',
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
    name: 'svc_rerank_batch_async',
    params: [p('queries', 'text[]'), p('documents', 'text[]'), RERANK_TASK, p('use_cache', 'boolean', 'true'), p('seed', 'integer', '42'), PRIORITY],
    returns: 'uuid[]', volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'rerankBatchAsync' },
    comment: "Queue one reranking per query over the same documents; returns one request id per query, in order (each result as svc_rerank_async's).",
  },
  {
    name: 'svc_check_async', params: [p('request_id', 'uuid')], returns: REQUEST_RECORD,
    volatility: 'VOLATILE', security: 'INVOKER', body: { language: 'plpgsql' },
    comment: 'The state of one request (no row when it does not exist or is not yours).',
  },
  {
    name: 'svc_check_async_batch', params: [p('request_ids', 'uuid[]')],
    returns: 'TABLE(request_id uuid, status text, result text, error text, created_at timestamp, completed_at timestamp)',
    volatility: 'VOLATILE', security: 'INVOKER', body: { language: 'plpgsql' },
    comment: 'The state of several requests: one row per id, in the order given (NULL columns for an id that is unknown or not yours).',
  },
  {
    name: 'svc_get_async_result', params: [p('request_id', 'uuid'), p('timeout_seconds', 'integer', '30')], returns: 'text',
    volatility: 'VOLATILE', security: 'INVOKER', body: { ts: 'getAsyncResult' },
    comment: 'Wait up to timeout_seconds for a request and return its result; an error when it failed, was cancelled, is unknown or time ran out.',
  },
  {
    name: 'svc_get_async_results', params: [p('request_ids', 'uuid[]'), p('timeout_seconds', 'integer', '30')],
    returns: 'TABLE(ord integer, request_id uuid, status text, result text, error text)', volatility: 'VOLATILE', security: 'INVOKER',
    body: { ts: 'getAsyncResults' },
    comment: 'Wait up to timeout_seconds for all the requests; one row per id in input order (ord) with its result, or its error (failed, cancelled, unknown, still waiting).',
  },
  {
    name: 'svc_get_partial_result', params: [p('request_id', 'uuid')],
    returns: 'TABLE(status text, partial_result text, tokens integer, error text, updated_at timestamp)',
    volatility: 'VOLATILE', security: 'INVOKER', body: { language: 'plpgsql' },
    comment: 'Streaming: the text a generation has so far (processing: as a worker last published it, with its tokens; completed: the result; '
      + 'failed or cancelled: the error). No row when the request does not exist or is not yours.',
  },
  {
    name: 'svc_cancel_async', params: [p('request_id', 'uuid')], returns: 'boolean',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'cancelAsync' },
    comment: 'Cancel a pending or processing request of yours: true when it is now cancelled (a worker running it stops at its next token and writes nothing).',
  },
  // Vectorizers (docs/vectorizer.md): a table's text column kept embedded in a destination table.
  {
    name: 'svc_vectorize',
    params: [
      p('source', 'regclass'), p('column_name', 'text'), p('name', 'text'), p('model', 'text', 'NULL'), p('chunk_by', 'text', `'none'`),
      p('chunk_size', 'integer', '1000'), p('chunk_overlap', 'integer', '0'), p('separators', 'text[]', `ARRAY[chr(10) || chr(10), chr(10), '. ', ' ', '']`), p('format', 'text', `'$chunk'`),
      p('destination', 'text', 'NULL'), p('dimensions', 'integer', 'NULL'), p('batch_size', 'integer', '64'), p('index', 'text', `'hnsw'`),
    ],
    // The backfill of a large table may queue for longer than plv8's 300 s default (statement_timeout bounds it).
    returns: 'bigint', volatility: 'VOLATILE', security: 'DEFINER', owner: 'superuser', settings: SET_CALL, body: { ts: 'vectorize' },
    comment: "Keep source's column_name embedded, chunk by chunk, in a destination table svc keeps and the calling role reads: triggers queue inserts, updates and deletes, "
      + 'and the rows already there are queued now; model NULL: the embedding model svc_embed would use. Returns how many rows were queued.',
  },
  {
    name: 'svc_vectorize_drop', params: [p('name', 'text'), p('drop_destination', 'boolean', 'true')], returns: 'boolean',
    volatility: 'VOLATILE', security: 'DEFINER', owner: 'superuser', body: { ts: 'vectorizeDrop' },
    comment: "Remove one of the calling role's vectorizers: its triggers, its queued work and (unless drop_destination is false) its destination; the source is untouched.",
  },
  {
    name: 'svc_vectorizer_status', params: [],
    returns: 'TABLE(name text, source regclass, column_name text, destination regclass, model text, rows_pending bigint, rows_done bigint, rows_failed bigint, chunks bigint, lag interval, last_error text)',
    // No JIT: over 100,000 rows its plan passes jit_above_cost, and compiling cost 12–45 ms of a 28 ms call.
    volatility: 'VOLATILE', security: 'DEFINER', settings: { jit: 'off' }, body: { language: 'sql' },
    comment: "The calling role's vectorizers (svc_admin: all): source rows waiting, embedded and failed, chunks written, how long the oldest has waited, the last error.",
  },
  {
    name: 'svc_search', params: [p('name', 'text'), p('query', 'text'), p('k', 'integer', '10')],
    returns: 'TABLE(key jsonb, chunk_index integer, chunk text, distance double precision)',
    volatility: 'VOLATILE', security: 'INVOKER', body: { ts: 'search' },
    comment: "The k source rows nearest the query (each by its nearest chunk, cosine distance) in a vectorizer's destination, read as the caller; the query is embedded with the vectorizer's model.",
  },
  {
    name: 'svc_vectorizer_embed', params: [p('name', 'text'), p('query', 'text')], returns: 'real[]',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'vectorizerEmbed' },
    comment: "A text's embedding under the model of one of the calling role's vectorizers, as svc_embed computes it (what svc_search compares chunks with).",
  },
  {
    name: 'svc_cosine_distance', params: [p('a', 'real[]'), p('b', 'real[]')], returns: 'double precision',
    volatility: 'IMMUTABLE', security: 'INVOKER', parallel: 'SAFE', body: { c: 'svc_cosine_distance' },
    comment: "1 - cosine similarity of two real[] vectors of one length (pgvector's <=>); NULL for a zero vector.",
  },
  {
    // PUBLIC: svc_search (SECURITY INVOKER) orders a real[] destination's chunks by it as its caller (docs/security.md).
    // PARALLEL UNSAFE on purpose, so that the statement it is in runs in one process: svc_search runs it
    // from plv8, and a parallel worker loads every library its leader has loaded (plv8-compat's libnode),
    // which took longer than the whole scan (bench/search.ts: 150 ms against 36 serial).
    name: 'svc__cosine_distance_lower_bound', params: [p('a', 'real[]'), p('b', 'real[]')], returns: 'double precision',
    volatility: 'IMMUTABLE', security: 'INVOKER', body: { c: 'svc_cosine_distance_lower_bound' },
    comment: "At most svc_cosine_distance(a, b), and within (cardinality(a) + 8) * 2e-15 of it (the same sums, added in an order that runs faster); svc_search's exact scan orders chunks by it.",
  },
  {
    name: 'svc_worker_status', params: [],
    returns: 'TABLE(worker_id text, host text, pid integer, state text, started_at timestamptz, last_heartbeat timestamptz, jobs_done bigint, jobs_failed bigint, jobs_in_flight integer, concurrency integer, model text, models text[])',
    volatility: 'VOLATILE', security: 'INVOKER', body: { language: 'sql' },
    comment: 'One row per worker heard from: a stopped one for 10 minutes, a silent one for a day.',
  },
  {
    name: 'svc_queue_stats', params: [],
    returns: 'TABLE(model text, function_name text, status text, requests bigint, oldest_pending_age interval, mean_wait interval, mean_run interval)',
    volatility: 'VOLATILE', security: 'DEFINER', body: { language: 'sql' },
    comment: 'Counts per model, function and status over the whole queue, with waiting and running times.',
  },
  {
    name: 'svc_cleanup', params: [p('retention', 'interval', `'7 days'`)], returns: 'bigint',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_admin', body: { language: 'plpgsql' },
    comment: 'Delete finished (completed, failed, cancelled) requests that finished longer ago than retention, and workers silent that long; returns how many requests.',
  },
  {
    name: 'svc_version', params: [], returns: 'text', volatility: 'STABLE', security: 'INVOKER', body: { language: 'sql' },
    comment: "The version of svc installed in this database (pg_extension's extversion), e.g. 0.2.0.",
  },
  {
    name: 'svc_settings', params: [], returns: 'TABLE(name text, value text, default_value text, meaning text)',
    volatility: 'STABLE', security: 'INVOKER', body: { language: 'sql', generated: settingsBody() },
    comment: "svc's settings: each one's effective value in this session, its default and what it means.",
  },
  // The prompt registry (README, "Prompt registry"): each role's own named, versioned templates.
  {
    name: 'svc_prompt_create', params: [p('name', 'text'), p('template', 'text'), p('description', 'text', 'NULL'), p('metadata', 'jsonb', 'NULL')],
    returns: 'integer', volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'promptCreate' },
    comment: 'Store a new prompt template of the calling role under name (version 1), with a description and metadata (a JSON object, NULL: {}); '
      + 'the template is checked now. Returns the version.',
  },
  {
    name: 'svc_prompt_update', params: [p('name', 'text'), p('template', 'text'), p('description', 'text', 'NULL'), p('metadata', 'jsonb', 'NULL')],
    returns: 'integer', volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'promptUpdate' },
    comment: "Store the next version of one of the calling role's prompts (description or metadata NULL: the latest's). Returns the new version.",
  },
  {
    name: 'svc_prompt_get', params: [p('name', 'text'), p('version', 'integer', 'NULL')],
    returns: 'TABLE(prompt_name text, prompt_version integer, template text, description text, variables text[], created_at timestamptz, metadata jsonb)',
    volatility: 'STABLE', security: 'DEFINER', body: { language: 'plpgsql' },
    comment: "One version of one of the calling role's prompts (version NULL: the latest), with the variables its template reads.",
  },
  {
    name: 'svc_prompt_list', params: [],
    returns:
      'TABLE(prompt_name text, latest_version integer, versions integer, description text, variables text[], created_at timestamptz, updated_at timestamptz, metadata jsonb)',
    volatility: 'STABLE', security: 'DEFINER', body: { language: 'sql' },
    comment: "The calling role's prompts: each one's latest version, description, variables and metadata, how many versions, when created and last updated.",
  },
  {
    name: 'svc_prompt_versions', params: [p('name', 'text')],
    returns: 'TABLE(prompt_version integer, is_active boolean, description text, metadata jsonb, variables text[], created_at timestamptz)',
    volatility: 'STABLE', security: 'DEFINER', body: { language: 'plpgsql' },
    comment: "Every version of one of the calling role's prompts, oldest first; is_active marks the one svc_prompt_render and svc_prompt_get use "
      + 'when no version is named (the latest).',
  },
  {
    name: 'svc_prompt_render', params: [p('name', 'text'), p('variables', 'jsonb', `'{}'`), p('version', 'integer', 'NULL'), p('strict', 'boolean', 'true')],
    returns: 'text', volatility: 'STABLE', security: 'DEFINER', body: { ts: 'promptRender' },
    comment: "The text of one of the calling role's prompts (version NULL: the latest) with variables (a JSON object) filled in; an error names a variable it lacks "
      + '(strict := false: a missing variable renders nothing, a loop over one runs no turn).',
  },
  {
    name: 'svc_prompt_delete', params: [p('name', 'text')], returns: 'integer', volatility: 'VOLATILE', security: 'DEFINER', body: { language: 'plpgsql' },
    comment: "Remove every version of one of the calling role's prompts; returns how many.",
  },
  // The worker protocol: only members of svc_worker may claim, complete, fail and renew jobs.
  {
    name: 'svc_worker_claim',
    params: [p('worker_id', 'text'), p('max_jobs', 'integer'), p('lease_seconds', 'double precision'), p('max_retries', 'integer', '3'), MODELS],
    returns: 'TABLE(request_id uuid, function_name text, parameters jsonb, grammar text, attempt integer, retry_count integer, priority integer, waited boolean)',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', settings: INDEX_PLANS, body: { language: 'plpgsql' },
    comment: 'Worker protocol: claim up to max_jobs pending jobs of the given models (svc_models names) under a lease; expired leases are requeued first. '
      + 'As its transaction\'s first write it commits without waiting for the disk (synchronous_commit off): a claim lost in a crash is claimed again.',
  },
  {
    name: 'svc_worker_complete', params: [p('request_id', 'uuid'), p('attempt', 'integer'), p('result', 'text'), p('stop_reason', 'text', 'NULL')],
    returns: 'boolean',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', settings: INDEX_PLANS, body: { language: 'plpgsql' },
    comment: 'Worker protocol: store a result (and how a generation ended: end, max_tokens, stop or context); false (refused) unless the job is still processing under this attempt.',
  },
  {
    name: 'svc_worker_complete_and_claim',
    params: [p('complete_request_ids', 'uuid[]'), p('complete_attempts', 'integer[]'), p('results', 'text[]'), p('worker_id', 'text'),
      p('lease_seconds', 'double precision'), p('max_retries', 'integer', '3'), p('claim_jobs', 'integer', 'NULL'), MODELS, p('stop_reasons', 'text[]', 'NULL')],
    returns: 'TABLE(refused uuid[], request_id uuid, function_name text, parameters jsonb, grammar text, attempt integer, retry_count integer, priority integer, waited boolean)',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', settings: INDEX_PLANS, body: { language: 'plpgsql' },
    comment: 'Worker protocol: svc_worker_complete of each (request, attempt, result, stop reason) given, then svc_worker_claim of up to claim_jobs jobs '
      + '(default: one per completion) for the freed slots, in one call. Every row carries refused, the ids whose completion was refused '
      + '(as by svc_worker_complete; the others were stored); with no job claimed, one row of NULL job columns.',
  },
  {
    name: 'svc_worker_fail', params: [p('request_id', 'uuid'), p('attempt', 'integer'), p('error', 'text'), p('max_retries', 'integer', '3')], returns: 'text',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', settings: INDEX_PLANS, body: { language: 'plpgsql' },
    comment: 'Worker protocol: record a failure; the job goes back to pending with a backoff while retries remain, else fails. Returns the new status (NULL when refused).',
  },
  {
    name: 'svc_worker_renew', params: [p('worker_id', 'text'), p('request_ids', 'uuid[]'), p('lease_seconds', 'double precision')], returns: 'integer',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', body: { language: 'sql' },
    comment: 'Worker protocol: extend the leases of jobs this worker still holds; returns how many.',
  },
  {
    name: 'svc_worker_released', params: [p('worker_id', 'text'), p('request_ids', 'uuid[]')], returns: 'uuid[]',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', settings: INDEX_PLANS, body: { language: 'plpgsql' },
    comment: 'Worker protocol: of these jobs, those the worker must drop or stop: no longer processing under it (cancelled by their owner, lease lost), '
      + 'or synchronous requests whose caller stopped waiting (cancelled now).',
  },
  {
    name: 'svc_worker_progress', params: [p('request_id', 'uuid'), p('attempt', 'integer'), p('partial_result', 'text'), p('tokens', 'integer')],
    returns: 'boolean', volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', body: { language: 'plpgsql' },
    comment: 'Worker protocol: the text generated so far for a job this attempt still processes (else false), '
      + 'announced on svc_progress as {"request_id", "tokens"}.',
  },
  {
    name: 'svc_worker_cleanup', params: [p('max_rows', 'integer', '1000')], returns: 'integer',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', settings: INDEX_PLANS, body: { language: 'plpgsql' },
    comment: 'Worker protocol: delete up to max_rows requests finished longer ago than svc.retention, oldest first; returns how many.',
  },
  {
    name: 'svc_worker_heartbeat',
    params: [p('worker_id', 'text'), p('host', 'text'), p('pid', 'integer'), p('state', 'text'), p('concurrency', 'integer'), p('model', 'text'),
      p('jobs_done', 'bigint'), p('jobs_failed', 'bigint'), p('jobs_in_flight', 'integer'), p('models', 'jsonb', 'NULL'), p('capabilities', 'jsonb', 'NULL')],
    returns: 'void', volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', body: { language: 'sql' },
    comment: 'Worker protocol: report that a worker is alive, for svc_worker_status(), and the models it serves ({"name": identity}; NULL: {"default": model}), declared in svc_models when missing; capabilities ({"name": {"serves": [functions], "dimension": n}}, from each GGUF) is what each can serve and the length of its embeddings: recorded, and serves narrowed to it.',
  },
  {
    name: 'svc_model_declare', params: [p('name', 'text'), p('serves', 'text[]', `ARRAY['generate', 'embed', 'rerank']`)], returns: 'void',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_admin', body: { language: 'plpgsql' },
    comment: 'Declare a model name in svc_models, or change the functions it serves (generate, embed, rerank); requests choose it with SET svc.model.',
  },
  {
    name: 'svc_cache_stats', params: [],
    returns: 'TABLE(entries bigint, hits bigint, misses bigint, hit_rate double precision, max_entries bigint, bytes bigint, disk_bytes bigint)',
    volatility: 'VOLATILE', security: 'DEFINER', body: { language: 'sql' },
    comment: 'Entries in the result cache, hits and misses since the last clear, the size limit (svc.cache_size), '
      + 'the bytes its entries take and the bytes its table, TOAST and index take on disk.',
  },
  {
    name: 'svc_cache_evict',
    params: [
      p('older_than', 'interval', 'NULL'), p('unused_for', 'interval', 'NULL'), p('max_hits', 'bigint', 'NULL'), p('keep', 'bigint', 'NULL'),
      p('target_bytes', 'bigint', 'NULL'), p('order_by', 'text', `'recency'`), p('dry_run', 'boolean', 'true'),
    ],
    returns: 'TABLE(cache_key text, model text, function_name text, created_at timestamptz, last_hit_at timestamptz, hits bigint, bytes bigint, result_preview text)',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_admin', body: { language: 'plpgsql' },
    comment: 'Remove (dry_run := false) or list (dry_run, the default) the cache entries that meet every criterion given: created longer ago than older_than, '
      + "not used for unused_for, hit at most max_hits times, not among the keep most recently ('recency') or most often ('frequency') used, "
      + "and, with target_bytes, only the least valuable of them needed to bring the cache's bytes down to target_bytes. Least valuable first.",
  },
  {
    name: 'svc_cache_usage', params: [],
    returns: 'TABLE(function_name text, model text, entries bigint, bytes bigint, hits bigint, last_used_at timestamptz)',
    volatility: 'STABLE', security: 'DEFINER', grantTo: 'svc_admin', body: { language: 'sql' },
    comment: "The result cache by function and model: entries, the bytes they take (svc_cache_stats().bytes, split), their hits and latest use; "
      + 'the largest first.',
  },
  {
    name: 'svc_cache_clear', params: [], returns: 'bigint', volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_admin',
    body: { language: 'sql' }, comment: 'Empty the result cache and reset its counters; returns how many entries were removed.',
  },
  {
    name: 'svc_worker_cache_get', params: [p('identity', 'text'), p('model', 'text')], returns: 'TABLE(result text, stop_reason text)',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', body: { language: 'sql' },
    comment: 'Worker protocol: the cached result (and stop reason) for a request identity and model, or NULLs (counted as a hit or a miss).',
  },
  {
    name: 'svc_worker_cache_put', params: [p('identity', 'text'), p('model', 'text'), p('function_name', 'text'), p('result', 'text'), p('stop_reason', 'text', 'NULL')],
    returns: 'void',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', body: { language: 'sql' },
    comment: 'Worker protocol: store a result in the cache, evicting the least used entries beyond svc.cache_size.',
  },
  {
    name: 'svc_worker_complete_cached',
    params: [p('request_ids', 'uuid[]'), p('attempts', 'integer[]'), p('results', 'text[]'), p('stop_reasons', 'text[]'),
      p('cache_identities', 'text[]'), p('cache_models', 'text[]'), p('cache_functions', 'text[]'), p('cache_results', 'text[]'), p('cache_stop_reasons', 'text[]')],
    returns: 'uuid[]', volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_worker', settings: INDEX_PLANS, body: { language: 'plpgsql' },
    comment: 'Worker protocol: svc_worker_complete of each (request, attempt, result, stop reason), and svc_worker_cache_put of each cache entry '
      + '(identity, model, function, result, stop reason: a request\'s, or each input\'s of a request of many), in one call; returns the ids whose completion was refused.',
  },
  {
    name: 'svc__cache_trim', params: [], returns: 'void', volatility: 'VOLATILE', security: 'INVOKER', grantTo: 'nobody', body: { language: 'sql' },
    comment: 'Internal: evict the least used cache entries beyond svc.cache_size (svc_worker_cache_put, svc_worker_complete_cached).',
  },
  // Limits across roles (quotas.ts; docs/security.md, "Limits across roles"): only svc_admin sets them.
  {
    name: 'svc_set_role_limits', params: [p('role_name', 'text', 'NULL'), p('max_pending', 'bigint', 'NULL'), p('max_stored_bytes', 'bigint', 'NULL')], returns: 'void',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_admin', body: { ts: 'setRoleLimits' },
    comment: "A role's quotas: its requests pending or processing, and the bytes their parameters and grammars store (NULL: the default); "
      + 'role_name NULL sets the default of every role without its own. A session cannot raise them; beyond them submission fails (53400).',
  },
  {
    name: 'svc_set_queue_limits', params: [p('max_queue_size', 'bigint', 'NULL')], returns: 'void',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_admin', body: { ts: 'setQueueLimits' },
    comment: "Requests pending or processing over all roles (NULL: 10000); a session's svc.max_queue_size may only lower its own bound.",
  },
  {
    name: 'svc_queue_limits', params: [],
    returns: 'TABLE(role_name text, max_queue_size bigint, queue_depth bigint, max_pending bigint, pending bigint, max_stored_bytes bigint, stored_bytes bigint)',
    volatility: 'VOLATILE', security: 'DEFINER', body: { ts: 'queueLimits' },
    comment: "The limits that bind the session's role (the queue's, its quotas) and what it uses of them now.",
  },
  // Internal helpers used by the functions above.
  {
    name: 'svc_set_sync_connection', params: [p('conninfo', 'text')], returns: 'text', volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_admin',
    body: { ts: 'setSyncConnection' },
    comment: "Where the synchronous functions' autonomous session connects: libpq keyword/value pairs (host, hostaddr, port, password, connect_timeout, sslmode, channel_binding); "
      + 'NULL or empty: this server\'s first unix socket. It always logs in as svc_sync to this database. Returns the connection string used, the password masked.',
  },
  // The autonomous session's functions: only svc_sync may run them, and they act only for one waiting
  // call, named by its token (docs/security.md).
  {
    name: 'svc__sync_submit', params: [p('payload', 'jsonb')], returns: 'uuid[]', volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_sync',
    body: { ts: 'syncSubmit' },
    comment: 'Internal: enqueue a sync call\'s requests for payload.owner, checked again, for the backend that holds the call\'s locks; run in the autonomous session.',
  },
  {
    name: 'svc__sync_state', params: [p('request_ids', 'uuid[]'), p('token', 'text')],
    returns: 'TABLE(request_id uuid, status text, result text, error text)', volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_sync',
    body: { language: 'sql' }, comment: 'Internal: the states of the requests a sync call submitted with its token; run in the autonomous session.',
  },
  {
    name: 'svc__sync_cancel', params: [p('request_ids', 'uuid[]'), p('token', 'text')], returns: 'integer',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'svc_sync', body: { language: 'sql' },
    comment: 'Internal: cancel the pending or processing requests a sync call submitted with its token (the processing ones announced on svc_cancel); run in the autonomous session.',
  },
  {
    name: 'svc__sync_dblink', params: [p('action', 'text'), p('target', 'jsonb'), p('application_name', 'text'), p('statement', 'text')], returns: 'SETOF text',
    volatility: 'VOLATILE', security: 'DEFINER', owner: 'superuser', grantTo: 'svc_owner', body: { language: 'plpgsql' },
    comment: "Internal: svc's one door to dblink (svc_owner's only): the autonomous session, always as svc_sync to this database, where target says.",
  },
  {
    name: 'svc__tables_as_made', params: [p('caller', 'text')], returns: 'void', volatility: 'VOLATILE', security: 'INVOKER', owner: 'superuser',
    grantTo: 'nobody', body: { language: 'plpgsql' },
    comment: "Internal: refuses, naming it, anything svc did not make on the svc_owner tables the superuser's functions write (a trigger, a rule, a default, ...).",
  },
  {
    // The queue's lock keys, generated from their one definition (src/queue/locks.ts); immutable, so a call folds to the constant.
    name: 'svc__sync_waiter_lock_key', params: [], returns: 'integer', volatility: 'IMMUTABLE', security: 'INVOKER', grantTo: 'nobody',
    body: { language: 'sql', generated: `SELECT ${SYNC_WAITER_LOCK}` },
    comment: "Internal: the first key of the advisory lock a sync call holds while it waits ('svcw'; the second is its waiter key).",
  },
  {
    name: 'svc__sync_token_key', params: [p('token', 'text')], returns: 'bigint', volatility: 'IMMUTABLE', security: 'INVOKER', grantTo: 'nobody',
    body: { language: 'sql' }, comment: "Internal: the advisory lock key of a sync call's token (the first 64 bits of its SHA-256).",
  },
  {
    name: 'svc__sync_waiter_may_act_as', params: [p('backend_pid', 'integer'), p('waiter', 'integer'), p('token', 'text'), p('owner', 'oid')], returns: 'boolean',
    volatility: 'VOLATILE', security: 'INVOKER', grantTo: 'nobody', body: { language: 'plpgsql' },
    comment: "Internal: whether backend backend_pid of this database holds the waiter lock and the token's lock, and its login role may act as owner.",
  },
  {
    name: 'svc__model_identity', params: [p('name', 'text')], returns: 'text', volatility: 'STABLE', security: 'INVOKER', grantTo: 'nobody',
    body: { language: 'sql' }, comment: 'Internal: the identity of the file a worker last loaded under a model name, under which the cache keeps answers.',
  },
  {
    name: 'svc__queue_depth', params: [], returns: 'bigint', volatility: 'STABLE', security: 'DEFINER', grantTo: 'nobody',
    settings: INDEX_PLANS, body: { language: 'plpgsql' }, comment: 'Internal: requests pending or processing, over all roles (for svc.max_queue_size).',
  },

  {
    name: 'svc__setting', params: [p('name', 'text')], returns: 'text', volatility: 'STABLE', security: 'INVOKER', grantTo: 'nobody',
    body: { language: 'sql' }, comment: "Internal: a setting's value in this session, or its default (as svc_settings lists them).",
  },
  {
    name: 'svc__setting_integer', params: [p('name', 'text'), p('minimum', 'bigint')], returns: 'bigint', volatility: 'STABLE', security: 'INVOKER',
    grantTo: 'nobody', body: { language: 'plpgsql' }, comment: 'Internal: an integer setting of at least minimum, or an error naming it.',
  },
  {
    name: 'svc__setting_interval', params: [p('name', 'text')], returns: 'interval', volatility: 'STABLE', security: 'INVOKER',
    grantTo: 'nobody', body: { language: 'plpgsql' }, comment: 'Internal: an interval setting of zero or more, or an error naming it.',
  },
  {
    name: 'svc__completed_payload', params: [p('request_id', 'uuid'), p('function_name', 'text'), p('status', 'text')], returns: 'text',
    volatility: 'STABLE', security: 'INVOKER', grantTo: 'nobody', body: { language: 'sql' },
    comment: 'Internal: the svc_completed notification payload of a request.',
  },
  {
    name: 'svc__claim',
    params: [
      p('claimer', 'text'), p('max_jobs', 'integer'), p('lease_seconds', 'double precision'), p('max_retries', 'integer'), p('relax_commit', 'boolean'),
      p('models', 'text[]'),
    ],
    returns: 'TABLE(request_id uuid, function_name text, parameters jsonb, grammar text, attempt integer, retry_count integer, priority integer, waited boolean)',
    volatility: 'VOLATILE', security: 'INVOKER', grantTo: 'nobody', body: { language: 'plpgsql' },
    // No INDEX_PLANS of its own: it runs under its callers' (the settings of a SET clause last until the call that set them returns).
    comment: 'Internal: the claim of svc_worker_claim and svc_worker_complete_and_claim (abandoned sync requests, expired leases, then pending jobs).',
  },
  {
    name: 'svc__complete', params: [p('ids', 'uuid[]'), p('attempts', 'integer[]'), p('results', 'text[]'), p('stop_reasons', 'text[]')], returns: 'uuid[]',
    volatility: 'VOLATILE', security: 'INVOKER', grantTo: 'nobody', body: { language: 'plpgsql' },
    comment: 'Internal: the completion of svc_worker_complete and svc_worker_complete_and_claim; returns the ids whose completion was refused.',
  },
  {
    name: 'svc__vectorizer_enqueue', params: [p('vectorizer_id', 'integer'), p('new_items', 'jsonb')], returns: 'integer',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'nobody', body: { language: 'plpgsql' },
    comment: "Internal (a vectorizer's trigger and backfill): queue the items whose input changed, in jobs of the vectorizer's batch size; returns how many.",
  },
  {
    name: 'svc__vectorizer_forget', params: [p('vectorizer_id', 'integer'), p('gone_keys', 'jsonb')], returns: 'void',
    volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'nobody', body: { language: 'plpgsql' },
    comment: "Internal (a vectorizer's trigger): forget source rows that are gone (NULL: all) and delete their chunks, so no job still running writes them.",
  },
  {
    name: 'svc__vectorizer_apply', params: [p('request', 'uuid'), p('job_parameters', 'jsonb'), p('job_result', 'text')], returns: 'text',
    volatility: 'VOLATILE', security: 'INVOKER', grantTo: 'nobody', body: { language: 'plpgsql' },
    comment: "Internal (svc__complete): write a vectorize job's chunks into the vectorizer's destination, for the rows it still stands for; returns the counts the queue keeps.",
  },
  {
    // svc__vectorizer_apply's: a job's vectors come as the worker's float32 bytes (src/native/reals.c).
    name: 'svc__reals', params: [p('bytes', 'bytea')], returns: 'real[]',
    volatility: 'IMMUTABLE', security: 'INVOKER', grantTo: 'nobody', body: { c: 'svc_reals_from_bytes' },
    comment: "Internal (svc__vectorizer_apply): the real[] of these bytes, float32s little-endian, as a vectorize job's result carries each vector.",
  },
  {
    name: 'svc__role_quota_check', params: [p('fn', 'text'), p('role', 'oid'), p('added', 'integer')], returns: 'void',
    volatility: 'VOLATILE', security: 'INVOKER', grantTo: 'nobody', body: { ts: 'roleQuotaCheck' },
    comment: "Internal (svc__vectorizer_enqueue): refuses (53400) when the role's requests pending or processing, the added ones counted, pass its quotas.",
  },
  {
    name: 'svc__vectorizer_delete_chunks', params: [p('destination', 'text'), p('key_columns', 'text[]'), p('keys', 'jsonb')], returns: 'void',
    volatility: 'VOLATILE', security: 'INVOKER', grantTo: 'nobody', body: { language: 'plpgsql' },
    comment: "Internal: delete the chunks of these source keys from a destination svc__vectorizer_destination named and locked.",
  },
  {
    name: 'svc__vectorizer_destination', params: [p('destination', 'regclass')], returns: 'text',
    volatility: 'VOLATILE', security: 'INVOKER', grantTo: 'nobody', body: { language: 'plpgsql' },
    comment: "Internal: a vectorizer's destination named from its oid and locked (ROW EXCLUSIVE), only while it is the table svc made; NULL when gone.",
  },
  // svc_summarize's support functions (summarize.ts): SECURITY DEFINER, as svc_generate, since they
  // enqueue; run only through the aggregate (PostgreSQL checks the aggregate owner's right to call them).
  ...[[], [p('max_tokens', 'integer')], [p('max_tokens', 'integer'), p('seed', 'integer')]].map(
    (rest): SqlFunction => ({
      name: 'svc__summarize_step', params: [p('state', 'jsonb'), p('body', 'text'), ...rest], returns: 'jsonb', volatility: 'VOLATILE', security: 'DEFINER',
      grantTo: 'nobody', body: { ts: 'summarizeStep' }, comment: "Internal: svc_summarize's transition: one row's text taken, each chunk that fills summarized.",
    }),
  ),
  {
    name: 'svc__summarize_step', params: [p('state', 'jsonb'), p('body', 'text'), p('options', 'jsonb')], returns: 'jsonb', volatility: 'VOLATILE',
    security: 'DEFINER', grantTo: 'nobody', body: { ts: 'summarizeStepOptions' },
    comment: "Internal: svc_summarize(body, options)'s transition: svc_summarize's, its options (max_tokens, seed) as jsonb.",
  },
  // svc_summarize_partial and svc_summarize_final (continuous aggregates): a group's state as a value to store, and stored ones combined.
  ...[[], [p('options', 'jsonb')]].map(
    (rest): SqlFunction => ({
      name: 'svc__summarize_partial_step', params: [p('state', 'jsonb'), p('body', 'text'), ...rest], returns: 'jsonb', volatility: 'VOLATILE',
      security: 'DEFINER', grantTo: 'nobody', body: { ts: 'summarizePartialStep' },
      comment: "Internal: svc_summarize_partial's transition: svc_summarize's, its options as jsonb.",
    }),
  ),
  {
    name: 'svc__summarize_partial', params: [p('state', 'jsonb')], returns: 'jsonb', volatility: 'VOLATILE', security: 'DEFINER',
    grantTo: 'nobody', body: { ts: 'summarizePartial' },
    comment: "Internal: svc_summarize_partial's final: the group's state as a storable value (NULL for no text).",
  },
  {
    name: 'svc__summarize_merge', params: [p('state', 'jsonb'), p('partial', 'jsonb')], returns: 'jsonb', volatility: 'VOLATILE', security: 'DEFINER',
    grantTo: 'nobody', body: { ts: 'summarizeMerge' },
    comment: "Internal: svc_summarize_final's transition: a stored partial, checked, combined after the state.",
  },
  {
    name: 'svc__summarize_combine', params: [p('a', 'jsonb'), p('b', 'jsonb')], returns: 'jsonb', volatility: 'VOLATILE', security: 'DEFINER',
    grantTo: 'nobody', body: { ts: 'summarizeCombine' }, comment: "Internal: svc_summarize's combine: the rows of a, then those of b.",
  },
  {
    name: 'svc__summarize_final', params: [p('state', 'jsonb')], returns: 'text', volatility: 'VOLATILE', security: 'DEFINER',
    grantTo: 'nobody', body: { ts: 'summarizeFinal' }, comment: "Internal: svc_summarize's final: the partial summaries and the text left combined into one summary.",
  },
  // svc_generate_stream's steps (stream.ts): run only through it, as svc's owner.
  {
    name: 'svc__stream_start', params: [p('prompt', 'text'), ...GENERATION.map(({ name, type }) => p(name, type))], returns: 'jsonb', volatility: 'VOLATILE',
    security: 'DEFINER', grantTo: 'nobody', body: { ts: 'streamStart' },
    comment: "Internal: svc_generate_stream's first row: the request submitted (as a sync call's, marked stream), or the whole text from the cache.",
  },
  {
    name: 'svc__stream_next', params: [p('state', 'jsonb')], returns: 'jsonb', volatility: 'VOLATILE', security: 'DEFINER', grantTo: 'nobody',
    settings: SET_CALL, body: { ts: 'streamNext' },
    comment: "Internal: svc_generate_stream's next row: the text the request's worker wrote since the last one, or the rest of its result.",
  },
  {
    name: 'svc__backoff', params: [p('retry_count', 'integer')], returns: 'interval', volatility: 'STABLE', security: 'INVOKER',
    grantTo: 'nobody', body: { language: 'sql' }, comment: 'Internal: the delay before retry n, svc.retry_backoff * 2^n, at most 5 minutes.',
  },
];

export const FUNCTIONS: readonly SqlFunction[] = DECLARED.map((fn) => ('ts' in fn.body ? { ...fn, settings: { ...INDEX_PLANS, ...fn.settings } } : fn));

// svc_summarize(body[, max_tokens[, seed]]): positional only (PostgreSQL takes no named arguments in an
// aggregate call); max_tokens 512 and seed 42 when left out. PARALLEL UNSAFE, as svc_generate: its
// transitions enqueue model calls (writes and subtransactions), which PostgreSQL refuses anywhere in a
// parallel query, leader included ("cannot start subtransactions during a parallel operation"), so a
// query that uses it is planned without workers. Its combine function serves partial aggregation
// where PostgreSQL does it in one backend (partitionwise aggregation).
const SUMMARIZE_COMMENT =
  "A summary of the group's texts by the model: chunks of svc.summarize_chunk_size characters summarized, partial summaries combined (map-reduce), "
  + 'bounded in memory and model calls by the text; deterministic for the same rows in the same order (use ORDER BY inside the call).';
const PARTIAL_COMMENT =
  "svc_summarize's state of the group as a value to store (a continuous aggregate's column, a table of partials): its text not yet summarized and "
  + 'the partial summaries of the rest; svc_summarize_final combines stored partials into the summary without reading their rows again.';
const FINAL_COMMENT =
  'The summary of stored svc_summarize_partial values, combined in the order given (use ORDER BY inside the call): the summary of all their rows, '
  + 'from their text and partial summaries, never from their rows.';
export const AGGREGATES: readonly SqlAggregate[] = [
  ...[[], [p('max_tokens', 'integer')], [p('max_tokens', 'integer'), p('seed', 'integer')], [p('options', 'jsonb')]].map(
    (rest): SqlAggregate => ({
      name: 'svc_summarize', params: [p('body', 'text'), ...rest], sfunc: 'svc__summarize_step', stype: 'jsonb', finalfunc: 'svc__summarize_final',
      combinefunc: 'svc__summarize_combine', parallel: 'UNSAFE', comment: SUMMARIZE_COMMENT,
    }),
  ),
  ...[[], [p('options', 'jsonb')]].map(
    (rest): SqlAggregate => ({
      name: 'svc_summarize_partial', params: [p('body', 'text'), ...rest], sfunc: 'svc__summarize_partial_step', stype: 'jsonb',
      finalfunc: 'svc__summarize_partial', combinefunc: 'svc__summarize_combine', parallel: 'UNSAFE', comment: PARTIAL_COMMENT,
    }),
  ),
  {
    name: 'svc_summarize_final', params: [p('partial', 'jsonb')], sfunc: 'svc__summarize_merge', stype: 'jsonb', finalfunc: 'svc__summarize_final',
    combinefunc: 'svc__summarize_combine', parallel: 'UNSAFE', comment: FINAL_COMMENT,
  },
];
