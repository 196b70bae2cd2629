-- svc 0.2.0 as CREATE EXTENSION svc installs it, read back from the catalogs by scripts/dump-schema.ts
-- (the body of svc__bundle, the TypeScript bundle, left out). Generated: do not edit.

ROLE svc_admin NOLOGIN;
ROLE svc_worker NOLOGIN;

CREATE VIEW svc__queue_depth_bound AS
 SELECT COALESCE((( SELECT svc_queue_seq_seq.last_value
           FROM svc_queue_seq_seq)) - min(svc_queue.seq) + 1, 0::bigint) AS depth
   FROM svc_queue
  WHERE (svc_queue.status = ANY (ARRAY['pending'::text, 'processing'::text])) AND svc_queue.seq > 0;
-- grants on svc__queue_depth_bound: {postgres=arwdDxt/postgres,=r/postgres}

CREATE TABLE svc_cache (
  cache_key text NOT NULL,
  model text NOT NULL,
  function_name text NOT NULL,
  result text NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT clock_timestamp(),
  last_hit_at timestamp with time zone NOT NULL DEFAULT clock_timestamp(),
  hits bigint NOT NULL DEFAULT 0,
  CONSTRAINT svc_cache_pkey PRIMARY KEY (cache_key, model)
);
CREATE UNIQUE INDEX svc_cache_pkey ON public.svc_cache USING btree (cache_key, model);
-- grants on svc_cache: (owner only)

CREATE TABLE svc_queue (
  request_id uuid NOT NULL DEFAULT gen_random_uuid(),
  seq bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  function_name text NOT NULL,
  parameters jsonb NOT NULL,
  grammar text,
  status text NOT NULL DEFAULT 'pending'::text,
  priority integer NOT NULL DEFAULT 0,
  result text,
  error text,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  started_at timestamp with time zone,
  completed_at timestamp with time zone,
  failed_at timestamp with time zone,
  cancelled_at timestamp with time zone,
  retry_count integer NOT NULL DEFAULT 0,
  run_after timestamp with time zone NOT NULL DEFAULT now(),
  attempt integer NOT NULL DEFAULT 0,
  worker_id text,
  lease_expires_at timestamp with time zone,
  owner name NOT NULL DEFAULT CURRENT_USER,
  batch_id uuid,
  batch_index integer,
  submitted_xact xid8 NOT NULL DEFAULT pg_current_xact_id(),
  waiter integer,
  CONSTRAINT svc_queue_function_name_check CHECK ((function_name = ANY (ARRAY['generate'::text, 'embed'::text, 'generate_json'::text, 'generate_regex'::text, 'generate_choice'::text, 'rerank'::text]))),
  CONSTRAINT svc_queue_pkey PRIMARY KEY (request_id),
  CONSTRAINT svc_queue_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text, 'completed'::text, 'failed'::text, 'cancelled'::text])))
);
CREATE INDEX svc_queue_active_idx ON public.svc_queue USING btree (seq) WHERE ((status = ANY (ARRAY['pending'::text, 'processing'::text])) AND (seq > 0));
CREATE INDEX svc_queue_claim_idx ON public.svc_queue USING btree (priority DESC, seq) WHERE (status = 'pending'::text);
CREATE INDEX svc_queue_finished_idx ON public.svc_queue USING btree (COALESCE(completed_at, failed_at, cancelled_at)) WHERE (status = ANY (ARRAY['completed'::text, 'failed'::text, 'cancelled'::text]));
CREATE INDEX svc_queue_lease_idx ON public.svc_queue USING btree (lease_expires_at) WHERE (status = 'processing'::text);
CREATE UNIQUE INDEX svc_queue_pkey ON public.svc_queue USING btree (request_id);
CREATE INDEX svc_queue_waiter_idx ON public.svc_queue USING btree (waiter) WHERE (waiter IS NOT NULL);
ALTER TABLE svc_queue ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_queue_read ON svc_queue AS PERMISSIVE FOR SELECT TO public USING (((owner = CURRENT_USER) OR pg_has_role(CURRENT_USER, 'svc_admin'::name, 'MEMBER'::text)));
-- grants on svc_queue: {postgres=arwdDxt/postgres,=r/postgres}

CREATE TABLE svc_workers (
  worker_id text NOT NULL,
  host text NOT NULL,
  pid integer NOT NULL,
  state text NOT NULL,
  concurrency integer NOT NULL,
  model text,
  started_at timestamp with time zone NOT NULL DEFAULT now(),
  last_heartbeat timestamp with time zone NOT NULL DEFAULT now(),
  jobs_done bigint NOT NULL DEFAULT 0,
  jobs_failed bigint NOT NULL DEFAULT 0,
  jobs_in_flight integer NOT NULL DEFAULT 0,
  CONSTRAINT svc_workers_pkey PRIMARY KEY (worker_id)
);
CREATE UNIQUE INDEX svc_workers_pkey ON public.svc_workers USING btree (worker_id);
-- grants on svc_workers: {postgres=arwdDxt/postgres,=r/postgres}

CREATE SEQUENCE svc_cache_hits;
-- grants on svc_cache_hits: (owner only)

CREATE SEQUENCE svc_cache_misses;
-- grants on svc_cache_misses: (owner only)

CREATE SEQUENCE svc_queue_seq_seq;
-- grants on svc_queue_seq_seq: (owner only)

CREATE OR REPLACE FUNCTION public.svc__backoff(retry_count integer)
 RETURNS interval
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$SELECT least(
      coalesce(nullif(current_setting('svc.retry_backoff', true), ''), '1s')::interval * power(2, $1),
      interval '5 minutes')
$function$;
-- grants on svc__backoff(integer): {postgres=X/postgres}
-- comment: Internal: the delay before retry n, svc.retry_backoff * 2^n, at most 5 minutes.

CREATE OR REPLACE FUNCTION public.svc__bundle()
 RETURNS void
 LANGUAGE plv8
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $bundle$ (the TypeScript bundle) $bundle$;
-- grants on svc__bundle(): (default: PUBLIC may execute)

CREATE OR REPLACE FUNCTION public.svc__conninfo_quote(value text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$SELECT '''' || replace(replace($1, '\', '\\'), '''', '\''') || ''''
$function$;
-- grants on svc__conninfo_quote(text): (default: PUBLIC may execute)
-- comment: Internal: a libpq connection-string value, quoted.

CREATE OR REPLACE FUNCTION public.svc__current_model()
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$SELECT model FROM svc_workers
    WHERE state = 'running' AND model IS NOT NULL AND last_heartbeat > clock_timestamp() - interval '1 minute'
    ORDER BY last_heartbeat DESC LIMIT 1
$function$;
-- grants on svc__current_model(): (default: PUBLIC may execute)
-- comment: Internal: the model identity the cache serves (that of the most recently heard-from live worker).

CREATE OR REPLACE FUNCTION public.svc__enqueue_as(payload jsonb)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.enqueueAs(payload);
} catch (error) {
  throw error; // from svc__enqueue_as: see the message
}
$function$;
-- grants on svc__enqueue_as(jsonb): {postgres=X/postgres}
-- comment: Internal: enqueue a request for payload.owner; run by the sync functions in their autonomous session.

CREATE OR REPLACE FUNCTION public.svc__queue_depth()
 RETURNS bigint
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$BEGIN
  RETURN (SELECT count(*) FROM svc_queue WHERE status = 'pending') + (SELECT count(*) FROM svc_queue WHERE status = 'processing');
END
$function$;
-- grants on svc__queue_depth(): (default: PUBLIC may execute)
-- comment: Internal: requests pending or processing, over all roles (for svc.max_queue_size).

CREATE OR REPLACE FUNCTION public.svc__sync_conninfo()
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$SELECT coalesce(nullif(current_setting('svc.sync_connection', true), ''),
      format('dbname=%s user=%s port=%s host=%s',
        svc__conninfo_quote(current_database()), svc__conninfo_quote(current_user), current_setting('port'),
        svc__conninfo_quote(coalesce(nullif(trim(split_part(current_setting('unix_socket_directories'), ',', 1)), ''), 'localhost'))))
$function$;
-- grants on svc__sync_conninfo(): {postgres=X/postgres}
-- comment: Internal: where the sync functions connect back to (svc.sync_connection, else the local socket).

CREATE OR REPLACE FUNCTION public.svc_cache_clear()
 RETURNS bigint
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$WITH removed AS (DELETE FROM svc_cache RETURNING 1)
    SELECT count(*) FROM removed
    WHERE setval('svc_cache_hits', 1, false) > 0 AND setval('svc_cache_misses', 1, false) > 0
$function$;
-- grants on svc_cache_clear(): {postgres=X/postgres,svc_admin=X/postgres}
-- comment: Empty the result cache and reset its counters; returns how many entries were removed.

CREATE OR REPLACE FUNCTION public.svc_cache_stats()
 RETURNS TABLE(entries bigint, hits bigint, misses bigint, hit_rate double precision, max_entries bigint)
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$SELECT entries, hits, misses, CASE WHEN hits + misses > 0 THEN hits::float8 / (hits + misses) END, max_entries
    FROM (
      SELECT (SELECT count(*) FROM svc_cache) AS entries,
        h.last_value - CASE WHEN h.is_called THEN 0 ELSE 1 END AS hits,
        m.last_value - CASE WHEN m.is_called THEN 0 ELSE 1 END AS misses,
        coalesce(nullif(current_setting('svc.cache_size', true), ''), '10000')::bigint AS max_entries
      FROM svc_cache_hits h, svc_cache_misses m
    ) AS s
$function$;
-- grants on svc_cache_stats(): (default: PUBLIC may execute)
-- comment: Entries in the result cache, hits and misses since the last clear, and the size limit (svc.cache_size).

CREATE OR REPLACE FUNCTION public.svc_cancel_async(request_id uuid)
 RETURNS boolean
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.cancelAsync(request_id);
} catch (error) {
  throw error; // from svc_cancel_async: see the message
}
$function$;
-- grants on svc_cancel_async(uuid): (default: PUBLIC may execute)
-- comment: Cancel a pending request: true when it was pending and is now cancelled.

CREATE OR REPLACE FUNCTION public.svc_check_async(request_id uuid)
 RETURNS TABLE(status text, result text, error text, created_at timestamp without time zone, started_at timestamp without time zone, completed_at timestamp without time zone, priority integer)
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$#variable_conflict use_column
BEGIN
  IF $1 IS NULL THEN
    RAISE EXCEPTION 'svc_check_async: request_id must not be NULL' USING ERRCODE = '22004';
  END IF;
  RETURN QUERY
    SELECT status, result, error, created_at::timestamp, started_at::timestamp, completed_at::timestamp, priority
    FROM svc_queue WHERE request_id = $1;
END
$function$;
-- grants on svc_check_async(uuid): (default: PUBLIC may execute)
-- comment: The state of one request (no row when it does not exist or is not yours).

CREATE OR REPLACE FUNCTION public.svc_check_async_batch(request_ids uuid[])
 RETURNS TABLE(request_id uuid, status text, result text, error text, created_at timestamp without time zone, completed_at timestamp without time zone)
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$#variable_conflict use_column
BEGIN
  IF $1 IS NULL THEN
    RAISE EXCEPTION 'svc_check_async_batch: request_ids must not be NULL' USING ERRCODE = '22004';
  END IF;
  RETURN QUERY
    SELECT ids.id, q.status, q.result, q.error, q.created_at::timestamp, q.completed_at::timestamp
    FROM unnest($1) WITH ORDINALITY AS ids(id, ord)
    LEFT JOIN svc_queue q ON q.request_id = ids.id
    ORDER BY ids.ord;
END
$function$;
-- grants on svc_check_async_batch(uuid[]): (default: PUBLIC may execute)
-- comment: The state of several requests: one row per id, in the order given (NULL columns for an id that is unknown or not yours).

CREATE OR REPLACE FUNCTION public.svc_cleanup(retention interval DEFAULT '7 days'::interval)
 RETURNS bigint
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$DECLARE
  removed bigint;
BEGIN
  IF $1 IS NULL THEN
    RAISE EXCEPTION 'svc_cleanup: retention must not be NULL' USING ERRCODE = '22004';
  END IF;
  DELETE FROM svc_workers WHERE last_heartbeat < clock_timestamp() - $1;
  WITH finished AS (
    DELETE FROM svc_queue
    WHERE status IN ('completed', 'failed', 'cancelled')
      AND coalesce(completed_at, failed_at, cancelled_at) < clock_timestamp() - $1
    RETURNING 1
  )
  SELECT count(*) INTO removed FROM finished;
  RETURN removed;
END
$function$;
-- grants on svc_cleanup(interval): {postgres=X/postgres,svc_admin=X/postgres}
-- comment: Delete finished (completed, failed, cancelled) requests that finished longer ago than retention, and workers silent that long; returns how many requests.

CREATE OR REPLACE FUNCTION public.svc_embed(text_input text, use_cache boolean DEFAULT true)
 RETURNS real[]
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.embed(text_input, use_cache);
} catch (error) {
  throw error; // from svc_embed: see the message
}
$function$;
-- grants on svc_embed(text,boolean): (default: PUBLIC may execute)
-- comment: The L2-normalized embedding of a text (cast to vector where pgvector is installed).

CREATE OR REPLACE FUNCTION public.svc_embed_async(text_input text, use_cache boolean DEFAULT true, priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.embedAsync(text_input, use_cache, priority);
} catch (error) {
  throw error; // from svc_embed_async: see the message
}
$function$;
-- grants on svc_embed_async(text,boolean,integer): (default: PUBLIC may execute)
-- comment: Queue an embedding; the result is a vector literal [x1,x2,...].

CREATE OR REPLACE FUNCTION public.svc_embed_batch_async(texts text[], use_cache boolean DEFAULT true, priority integer DEFAULT 0)
 RETURNS uuid[]
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.embedBatchAsync(texts, use_cache, priority);
} catch (error) {
  throw error; // from svc_embed_batch_async: see the message
}
$function$;
-- grants on svc_embed_batch_async(text[],boolean,integer): (default: PUBLIC may execute)
-- comment: Queue one embedding per text; returns one request id per text, in order.

CREATE OR REPLACE FUNCTION public.svc_generate(prompt text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42)
 RETURNS text
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.generate(prompt, max_tokens, use_cache, seed);
} catch (error) {
  throw error; // from svc_generate: see the message
}
$function$;
-- grants on svc_generate(text,integer,boolean,integer): (default: PUBLIC may execute)
-- comment: Generate text and return it (waits for a worker on a cache miss).

CREATE OR REPLACE FUNCTION public.svc_generate_async(prompt text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.generateAsync(prompt, max_tokens, use_cache, seed, priority);
} catch (error) {
  throw error; // from svc_generate_async: see the message
}
$function$;
-- grants on svc_generate_async(text,integer,boolean,integer,integer): (default: PUBLIC may execute)
-- comment: Queue a text generation; returns its request id at once.

CREATE OR REPLACE FUNCTION public.svc_generate_batch_async(prompts text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, priority integer DEFAULT 0)
 RETURNS uuid[]
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.generateBatchAsync(prompts, max_tokens, use_cache, seed, priority);
} catch (error) {
  throw error; // from svc_generate_batch_async: see the message
}
$function$;
-- grants on svc_generate_batch_async(text[],integer,boolean,integer,integer): (default: PUBLIC may execute)
-- comment: Queue one generation per prompt; returns one request id per prompt, in order.

CREATE OR REPLACE FUNCTION public.svc_generate_choice(prompt text, choices text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42)
 RETURNS text
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.generateChoice(prompt, choices, max_tokens, use_cache, seed);
} catch (error) {
  throw error; // from svc_generate_choice: see the message
}
$function$;
-- grants on svc_generate_choice(text,text[],integer,boolean,integer): (default: PUBLIC may execute)
-- comment: Pick one of the choices and return it.

CREATE OR REPLACE FUNCTION public.svc_generate_choice_async(prompt text, choices text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.generateChoiceAsync(prompt, choices, max_tokens, use_cache, seed, priority);
} catch (error) {
  throw error; // from svc_generate_choice_async: see the message
}
$function$;
-- grants on svc_generate_choice_async(text,text[],integer,boolean,integer,integer): (default: PUBLIC may execute)
-- comment: Queue a generation constrained to one of the choices.

CREATE OR REPLACE FUNCTION public.svc_generate_json(prompt text, schema jsonb, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42)
 RETURNS text
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.generateJson(prompt, schema, max_tokens, use_cache, seed);
} catch (error) {
  throw error; // from svc_generate_json: see the message
}
$function$;
-- grants on svc_generate_json(text,jsonb,integer,boolean,integer): (default: PUBLIC may execute)
-- comment: Generate JSON matching a JSON Schema and return it.

CREATE OR REPLACE FUNCTION public.svc_generate_json_async(prompt text, schema jsonb, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.generateJsonAsync(prompt, schema, max_tokens, use_cache, seed, priority);
} catch (error) {
  throw error; // from svc_generate_json_async: see the message
}
$function$;
-- grants on svc_generate_json_async(text,jsonb,integer,boolean,integer,integer): (default: PUBLIC may execute)
-- comment: Queue a generation constrained to JSON matching a JSON Schema.

CREATE OR REPLACE FUNCTION public.svc_generate_regex(prompt text, pattern text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42)
 RETURNS text
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.generateRegex(prompt, pattern, max_tokens, use_cache, seed);
} catch (error) {
  throw error; // from svc_generate_regex: see the message
}
$function$;
-- grants on svc_generate_regex(text,text,integer,boolean,integer): (default: PUBLIC may execute)
-- comment: Generate text matching a regular expression and return it.

CREATE OR REPLACE FUNCTION public.svc_generate_regex_async(prompt text, pattern text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.generateRegexAsync(prompt, pattern, max_tokens, use_cache, seed, priority);
} catch (error) {
  throw error; // from svc_generate_regex_async: see the message
}
$function$;
-- grants on svc_generate_regex_async(text,text,integer,boolean,integer,integer): (default: PUBLIC may execute)
-- comment: Queue a generation constrained to match a regular expression.

CREATE OR REPLACE FUNCTION public.svc_get_async_result(request_id uuid, timeout_seconds integer DEFAULT 30)
 RETURNS text
 LANGUAGE plv8
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.getAsyncResult(request_id, timeout_seconds);
} catch (error) {
  throw error; // from svc_get_async_result: see the message
}
$function$;
-- grants on svc_get_async_result(uuid,integer): (default: PUBLIC may execute)
-- comment: Wait up to timeout_seconds for a request and return its result; an error when it failed, was cancelled, is unknown or time ran out.

CREATE OR REPLACE FUNCTION public.svc_queue_stats()
 RETURNS TABLE(function_name text, status text, requests bigint, oldest_pending_age interval, mean_wait interval, mean_run interval)
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$SELECT function_name, status, count(*),
      clock_timestamp() - min(created_at) FILTER (WHERE status = 'pending'),
      avg(started_at - created_at) FILTER (WHERE started_at IS NOT NULL),
      avg(completed_at - started_at) FILTER (WHERE completed_at IS NOT NULL)
    FROM svc_queue GROUP BY function_name, status ORDER BY function_name, status
$function$;
-- grants on svc_queue_stats(): (default: PUBLIC may execute)
-- comment: Counts per function and status over the whole queue, with waiting and running times.

CREATE OR REPLACE FUNCTION public.svc_rerank(query text, documents text[], task text DEFAULT 'Given a web search query, retrieve relevant passages that answer the query'::text, use_cache boolean DEFAULT true, seed integer DEFAULT 42)
 RETURNS TABLE(document text, score double precision)
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.rerank(query, documents, task, use_cache, seed);
} catch (error) {
  throw error; // from svc_rerank: see the message
}
$function$;
-- grants on svc_rerank(text,text[],text,boolean,integer): (default: PUBLIC may execute)
-- comment: The documents ranked for the query, best first.

CREATE OR REPLACE FUNCTION public.svc_rerank_async(query text, documents text[], task text DEFAULT 'Given a web search query, retrieve relevant passages that answer the query'::text, use_cache boolean DEFAULT true, seed integer DEFAULT 42, priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
try {
  return svc.api.rerankAsync(query, documents, task, use_cache, seed, priority);
} catch (error) {
  throw error; // from svc_rerank_async: see the message
}
$function$;
-- grants on svc_rerank_async(text,text[],text,boolean,integer,integer): (default: PUBLIC may execute)
-- comment: Queue a reranking; the result is a JSON array of {index, document, score}, best first.

CREATE OR REPLACE FUNCTION public.svc_settings()
 RETURNS TABLE(name text, value text, default_value text, meaning text)
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$SELECT s.name, coalesce(nullif(current_setting(s.name, true), ''), s.default_value), s.default_value, s.meaning
    FROM (VALUES
      ('svc.max_queue_size', '10000', 'requests pending or processing, over all roles; beyond it submission fails (53400)'),
      ('svc.worker_concurrency', '4', 'jobs a worker runs at once when SVC_WORKER_CONCURRENCY is unset'),
      ('svc.worker_poll_interval', '1s', 'a worker''s polling fallback when SVC_WORKER_POLL_INTERVAL is unset'),
      ('svc.sync_timeout', '60s', 'how long the synchronous functions wait for a worker'),
      ('svc.sync_connection', NULL, 'libpq connection string of the synchronous functions'' autonomous session (unset: this server''s first unix socket, as the extension''s owner)'),
      ('svc.cache_size', '10000', 'result cache entries kept (least used evicted first)'),
      ('svc.retry_backoff', '1s', 'base of the retry backoff: retry n waits svc.retry_backoff * 2^n, at most 5 minutes'),
      ('svc.prompt_format', 'chat', 'how generation prompts reach the model: ''chat'' sends the prompt as the user turn of the model''s chat template (raw on a model without one), ''raw'' sends it as is; recorded in the request''s parameters and part of its cache key'),
      ('svc.system_prompt', NULL, 'system turn of the chat template for generation requests in the ''chat'' format (unset or empty: none); recorded in the request''s parameters and part of its cache key')
    ) AS s(name, default_value, meaning)
    ORDER BY s.name
$function$;
-- grants on svc_settings(): (default: PUBLIC may execute)
-- comment: svc's settings: each one's effective value in this session, its default and what it means.

CREATE OR REPLACE FUNCTION public.svc_worker_cache_get(identity text, model text)
 RETURNS text
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$WITH hit AS (
      UPDATE svc_cache SET hits = hits + 1, last_hit_at = clock_timestamp()
      WHERE cache_key = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND model = $2
      RETURNING result
    )
    SELECT result FROM (SELECT (SELECT result FROM hit) AS result) AS r
    WHERE CASE WHEN result IS NULL THEN nextval('svc_cache_misses') ELSE nextval('svc_cache_hits') END > 0
$function$;
-- grants on svc_worker_cache_get(text,text): {postgres=X/postgres,svc_worker=X/postgres}
-- comment: Worker protocol: the cached result for a request identity and model, or NULL (counted as a hit or a miss).

CREATE OR REPLACE FUNCTION public.svc_worker_cache_put(identity text, model text, function_name text, result text)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$INSERT INTO svc_cache (cache_key, model, function_name, result)
    VALUES (encode(sha256(convert_to($1, 'UTF8')), 'hex'), $2, $3, $4)
    ON CONFLICT (cache_key, model) DO NOTHING;

    DELETE FROM svc_cache WHERE (cache_key, model) IN (
      SELECT cache_key, model FROM svc_cache
      ORDER BY (hits + 1) / (extract(epoch FROM clock_timestamp() - last_hit_at) + 3600)
      LIMIT greatest(0, (SELECT count(*) FROM svc_cache)
        - coalesce(nullif(current_setting('svc.cache_size', true), ''), '10000')::bigint))
$function$;
-- grants on svc_worker_cache_put(text,text,text,text): {postgres=X/postgres,svc_worker=X/postgres}
-- comment: Worker protocol: store a result in the cache, evicting the least used entries beyond svc.cache_size.

CREATE OR REPLACE FUNCTION public.svc_worker_claim(worker_id text, max_jobs integer, lease_seconds double precision, max_retries integer DEFAULT 3)
 RETURNS TABLE(request_id uuid, function_name text, parameters jsonb, grammar text, attempt integer, retry_count integer, priority integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$#variable_conflict use_column
DECLARE
  now_ timestamptz := clock_timestamp();
  announced integer;
  first_write boolean := pg_current_xact_id_if_assigned() IS NULL;
  pending_ text := 'pending'; -- see ABANDONED_SWEEP in queries.ts
BEGIN
  UPDATE svc_queue w SET status = 'cancelled', cancelled_at = now_, waiter = NULL
  WHERE w.waiter IS NOT NULL AND w.status = pending_ AND pg_try_advisory_xact_lock(1937138551, w.waiter);
  IF (SELECT e.lease_expires_at FROM svc_queue e WHERE e.status = 'processing' ORDER BY e.lease_expires_at LIMIT 1) < now_ THEN
    WITH requeued AS (
      UPDATE svc_queue q SET
        status = CASE WHEN q.retry_count < $4 THEN 'pending' ELSE 'failed' END,
        retry_count = CASE WHEN q.retry_count < $4 THEN q.retry_count + 1 ELSE q.retry_count END,
        run_after = clock_timestamp() + svc__backoff(q.retry_count),
        failed_at = CASE WHEN q.retry_count < $4 THEN NULL ELSE clock_timestamp() END,
        error = 'lease expired: worker ' || coalesce(q.worker_id, '?') || ' stopped renewing it',
        lease_expires_at = NULL, worker_id = NULL
      WHERE q.request_id = ANY (ARRAY(
        SELECT e.request_id FROM svc_queue e
        WHERE e.status = 'processing' AND e.lease_expires_at < now_
        ORDER BY e.lease_expires_at
        FOR UPDATE SKIP LOCKED))
      RETURNING q.request_id, q.function_name, q.status
    )
    SELECT count(pg_notify('svc_completed', json_build_object('request_id', request_id, 'function', CASE function_name WHEN 'embed' THEN 'embed' WHEN 'rerank' THEN 'rerank' ELSE 'generate' END, 'status', 'failed')::text)) INTO announced
    FROM requeued WHERE status = 'failed';
    now_ := clock_timestamp(); -- requeued jobs whose backoff is zero may be claimed right away
  END IF;
  IF first_write AND coalesce(announced, 0) = 0 THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  RETURN QUERY
  WITH claimed AS (
    UPDATE svc_queue q SET
      status = 'processing', started_at = now_, attempt = q.attempt + 1,
      worker_id = $1, lease_expires_at = now_ + make_interval(secs => $3)
    WHERE q.request_id = ANY (ARRAY(
      SELECT p.request_id FROM svc_queue p
      WHERE p.status = 'pending' AND p.run_after <= now_
      ORDER BY p.priority DESC, p.seq
      LIMIT $2
      FOR UPDATE SKIP LOCKED))
    RETURNING q.request_id, q.function_name, q.parameters, q.grammar, q.attempt, q.retry_count, q.priority, q.seq
  )
  SELECT c.request_id, c.function_name, c.parameters, c.grammar, c.attempt, c.retry_count, c.priority
  FROM claimed c ORDER BY c.priority DESC, c.seq;
END
$function$;
-- grants on svc_worker_claim(text,integer,double precision,integer): {postgres=X/postgres,svc_worker=X/postgres}
-- comment: Worker protocol: claim up to max_jobs pending jobs under a lease; expired leases are requeued first. As its transaction's first write it commits without waiting for the disk (synchronous_commit off): a claim lost in a crash is claimed again.

CREATE OR REPLACE FUNCTION public.svc_worker_complete(request_id uuid, attempt integer, result text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$#variable_conflict use_column
DECLARE
  processing_ text := 'processing'; -- see BY_ID_STATUS in queries.ts
  dropped uuid[];
  stored uuid[];
  announced integer;
BEGIN
  WITH done AS (
    UPDATE svc_queue q SET
      status = 'completed', result = (ARRAY[$3])[array_position(ARRAY[$1], q.request_id)], error = NULL,
      completed_at = clock_timestamp(), lease_expires_at = NULL, waiter = NULL
    WHERE q.request_id = ANY (ARRAY[$1]) AND q.status = processing_
      AND q.attempt = (ARRAY[$2])[array_position(ARRAY[$1], q.request_id)]
    RETURNING q.request_id, q.function_name
  )
  SELECT array_agg(request_id), count(pg_notify('svc_completed', json_build_object('request_id', request_id, 'function', CASE function_name WHEN 'embed' THEN 'embed' WHEN 'rerank' THEN 'rerank' ELSE 'generate' END, 'status', 'completed')::text))
  INTO stored, announced FROM done;
  IF announced = cardinality(ARRAY[$1]) THEN
    dropped := '{}';
  ELSE
    dropped := ARRAY(SELECT given.id FROM unnest(ARRAY[$1]) AS given(id) WHERE NOT given.id = ANY (coalesce(stored, '{}')));
  END IF;
  RETURN cardinality(dropped) = 0;
END
$function$;
-- grants on svc_worker_complete(uuid,integer,text): {postgres=X/postgres,svc_worker=X/postgres}
-- comment: Worker protocol: store a result; false (refused) unless the job is still processing under this attempt.

CREATE OR REPLACE FUNCTION public.svc_worker_complete_and_claim(complete_request_ids uuid[], complete_attempts integer[], results text[], worker_id text, lease_seconds double precision, max_retries integer DEFAULT 3, claim_jobs integer DEFAULT NULL::integer)
 RETURNS TABLE(refused uuid[], request_id uuid, function_name text, parameters jsonb, grammar text, attempt integer, retry_count integer, priority integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$#variable_conflict use_column
DECLARE
  processing_ text := 'processing'; -- see BY_ID_STATUS in queries.ts
  dropped uuid[];
  stored uuid[];
  announced integer;
  now_ timestamptz;
  wanted integer := coalesce($7, cardinality($1));
  pending_ text := 'pending'; -- see ABANDONED_SWEEP in queries.ts
BEGIN
  IF $1 IS NULL OR $2 IS NULL OR $3 IS NULL OR cardinality($1) <> cardinality($2) OR cardinality($1) <> cardinality($3) THEN
    RAISE EXCEPTION 'svc_worker_complete_and_claim: complete_request_ids, complete_attempts and results must be arrays of the same length'
      USING ERRCODE = '22023';
  END IF;
  IF array_position($1, NULL) IS NOT NULL OR array_position($2, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'svc_worker_complete_and_claim: complete_request_ids and complete_attempts must not contain NULL' USING ERRCODE = '22004';
  END IF;
  IF wanted < 0 THEN
    RAISE EXCEPTION 'svc_worker_complete_and_claim: claim_jobs must be at least 0' USING ERRCODE = '22023';
  END IF;
  WITH done AS (
    UPDATE svc_queue q SET
      status = 'completed', result = ($3)[array_position($1, q.request_id)], error = NULL,
      completed_at = clock_timestamp(), lease_expires_at = NULL, waiter = NULL
    WHERE q.request_id = ANY ($1) AND q.status = processing_
      AND q.attempt = ($2)[array_position($1, q.request_id)]
    RETURNING q.request_id, q.function_name
  )
  SELECT array_agg(request_id), count(pg_notify('svc_completed', json_build_object('request_id', request_id, 'function', CASE function_name WHEN 'embed' THEN 'embed' WHEN 'rerank' THEN 'rerank' ELSE 'generate' END, 'status', 'completed')::text))
  INTO stored, announced FROM done;
  IF announced = cardinality($1) THEN
    dropped := '{}';
  ELSE
    dropped := ARRAY(SELECT given.id FROM unnest($1) AS given(id) WHERE NOT given.id = ANY (coalesce(stored, '{}')));
  END IF;
  IF wanted > 0 THEN
    now_ := clock_timestamp();
  UPDATE svc_queue w SET status = 'cancelled', cancelled_at = now_, waiter = NULL
  WHERE w.waiter IS NOT NULL AND w.status = pending_ AND pg_try_advisory_xact_lock(1937138551, w.waiter);
  IF (SELECT e.lease_expires_at FROM svc_queue e WHERE e.status = 'processing' ORDER BY e.lease_expires_at LIMIT 1) < now_ THEN
    WITH requeued AS (
      UPDATE svc_queue q SET
        status = CASE WHEN q.retry_count < $6 THEN 'pending' ELSE 'failed' END,
        retry_count = CASE WHEN q.retry_count < $6 THEN q.retry_count + 1 ELSE q.retry_count END,
        run_after = clock_timestamp() + svc__backoff(q.retry_count),
        failed_at = CASE WHEN q.retry_count < $6 THEN NULL ELSE clock_timestamp() END,
        error = 'lease expired: worker ' || coalesce(q.worker_id, '?') || ' stopped renewing it',
        lease_expires_at = NULL, worker_id = NULL
      WHERE q.request_id = ANY (ARRAY(
        SELECT e.request_id FROM svc_queue e
        WHERE e.status = 'processing' AND e.lease_expires_at < now_
        ORDER BY e.lease_expires_at
        FOR UPDATE SKIP LOCKED))
      RETURNING q.request_id, q.function_name, q.status
    )
    SELECT count(pg_notify('svc_completed', json_build_object('request_id', request_id, 'function', CASE function_name WHEN 'embed' THEN 'embed' WHEN 'rerank' THEN 'rerank' ELSE 'generate' END, 'status', 'failed')::text)) INTO announced
    FROM requeued WHERE status = 'failed';
    now_ := clock_timestamp(); -- requeued jobs whose backoff is zero may be claimed right away
  END IF;
    RETURN QUERY
  WITH claimed AS (
    UPDATE svc_queue q SET
      status = 'processing', started_at = now_, attempt = q.attempt + 1,
      worker_id = $4, lease_expires_at = now_ + make_interval(secs => $5)
    WHERE q.request_id = ANY (ARRAY(
      SELECT p.request_id FROM svc_queue p
      WHERE p.status = 'pending' AND p.run_after <= now_
      ORDER BY p.priority DESC, p.seq
      LIMIT wanted
      FOR UPDATE SKIP LOCKED))
    RETURNING q.request_id, q.function_name, q.parameters, q.grammar, q.attempt, q.retry_count, q.priority, q.seq
  )
  SELECT dropped, c.request_id, c.function_name, c.parameters, c.grammar, c.attempt, c.retry_count, c.priority
  FROM claimed c ORDER BY c.priority DESC, c.seq;
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  refused := dropped;
  RETURN NEXT;
END
$function$;
-- grants on svc_worker_complete_and_claim(uuid[],integer[],text[],text,double precision,integer,integer): {postgres=X/postgres,svc_worker=X/postgres}
-- comment: Worker protocol: svc_worker_complete of each (request, attempt, result) given, then svc_worker_claim of up to claim_jobs jobs (default: one per completion) for the freed slots, in one call. Every row carries refused, the ids whose completion was refused (as by svc_worker_complete; the others were stored); with no job claimed, one row of NULL job columns.

CREATE OR REPLACE FUNCTION public.svc_worker_fail(request_id uuid, attempt integer, error text, max_retries integer DEFAULT 3)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$#variable_conflict use_column
DECLARE
  processing_ text := 'processing'; -- see BY_ID_STATUS in queries.ts
  new_status text;
  payload text;
BEGIN
  UPDATE svc_queue SET
    status = CASE WHEN retry_count < $4 THEN 'pending' ELSE 'failed' END,
    retry_count = CASE WHEN retry_count < $4 THEN retry_count + 1 ELSE retry_count END,
    run_after = clock_timestamp() + svc__backoff(retry_count),
    failed_at = CASE WHEN retry_count < $4 THEN NULL ELSE clock_timestamp() END,
    error = $3, lease_expires_at = NULL, worker_id = NULL
  WHERE request_id = $1 AND status = processing_ AND attempt = $2
  RETURNING status, json_build_object('request_id', request_id, 'function', CASE function_name WHEN 'embed' THEN 'embed' WHEN 'rerank' THEN 'rerank' ELSE 'generate' END, 'status', status)::text INTO new_status, payload;
  IF new_status = 'failed' THEN
    PERFORM pg_notify('svc_completed', payload);
  END IF;
  RETURN new_status;
END
$function$;
-- grants on svc_worker_fail(uuid,integer,text,integer): {postgres=X/postgres,svc_worker=X/postgres}
-- comment: Worker protocol: record a failure; the job goes back to pending with a backoff while retries remain, else fails. Returns the new status (NULL when refused).

CREATE OR REPLACE FUNCTION public.svc_worker_heartbeat(worker_id text, host text, pid integer, state text, concurrency integer, model text, jobs_done bigint, jobs_failed bigint, jobs_in_flight integer)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$INSERT INTO svc_workers AS w (worker_id, host, pid, state, concurrency, model, jobs_done, jobs_failed, jobs_in_flight)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
    ON CONFLICT (worker_id) DO UPDATE SET state = excluded.state, concurrency = excluded.concurrency,
      model = excluded.model, jobs_done = excluded.jobs_done, jobs_failed = excluded.jobs_failed,
      jobs_in_flight = excluded.jobs_in_flight, last_heartbeat = clock_timestamp()
$function$;
-- grants on svc_worker_heartbeat(text,text,integer,text,integer,text,bigint,bigint,integer): {postgres=X/postgres,svc_worker=X/postgres}
-- comment: Worker protocol: report that a worker is alive, for svc_worker_status().

CREATE OR REPLACE FUNCTION public.svc_worker_renew(worker_id text, request_ids uuid[], lease_seconds double precision)
 RETURNS integer
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$WITH renewed AS (
      UPDATE svc_queue SET lease_expires_at = clock_timestamp() + make_interval(secs => $3)
      WHERE request_id = ANY ($2) AND worker_id = $1 AND status = 'processing'
      RETURNING 1
    )
    SELECT count(*)::integer FROM renewed
$function$;
-- grants on svc_worker_renew(text,uuid[],double precision): {postgres=X/postgres,svc_worker=X/postgres}
-- comment: Worker protocol: extend the leases of jobs this worker still holds; returns how many.

CREATE OR REPLACE FUNCTION public.svc_worker_status()
 RETURNS TABLE(worker_id text, host text, pid integer, state text, started_at timestamp with time zone, last_heartbeat timestamp with time zone, jobs_done bigint, jobs_failed bigint, jobs_in_flight integer, concurrency integer, model text)
 LANGUAGE sql
 SET search_path TO 'public', 'pg_catalog', 'pg_temp'
AS $function$SELECT worker_id, host, pid,
      CASE WHEN state <> 'stopped' AND last_heartbeat < clock_timestamp() - interval '1 minute' THEN 'unresponsive' ELSE state END,
      started_at, last_heartbeat, jobs_done, jobs_failed, jobs_in_flight, concurrency, model
    FROM svc_workers
    WHERE last_heartbeat > clock_timestamp() - CASE WHEN state = 'stopped' THEN interval '10 minutes' ELSE interval '1 day' END
    ORDER BY started_at, worker_id
$function$;
-- grants on svc_worker_status(): (default: PUBLIC may execute)
-- comment: One row per worker heard from: a stopped one for 10 minutes, a silent one for a day.
