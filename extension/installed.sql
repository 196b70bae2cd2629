-- svc 0.2.0 as CREATE EXTENSION svc installs it, read back from the catalogs by scripts/dump-schema.ts
-- (the body of svc__bundle, the TypeScript bundle: extension/bundle.js). Generated: do not edit.

ROLE svc_admin NOLOGIN;
ROLE svc_owner NOLOGIN;
ROLE svc_sync LOGIN;
ROLE svc_worker NOLOGIN;

CREATE VIEW svc__queue_depth_bound AS
 SELECT COALESCE(s.last_value - (( SELECT min(q.seq) AS min
           FROM svc_queue q
          WHERE (q.status = ANY (ARRAY['pending'::text, 'processing'::text])) AND q.seq > 0)) + 1, 0::bigint) AS depth,
    s.last_value AS last_seq
   FROM svc_queue_seq_seq s;
-- grants on svc__queue_depth_bound: {svc_owner=arwdDxt/svc_owner,=r/svc_owner}

CREATE TABLE svc_cache (
  cache_key text NOT NULL,
  model text NOT NULL,
  function_name text NOT NULL,
  result text NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT clock_timestamp(),
  last_hit_at timestamp with time zone NOT NULL DEFAULT clock_timestamp(),
  hits bigint NOT NULL DEFAULT 0,
  stop_reason text,
  CONSTRAINT svc_cache_pkey PRIMARY KEY (cache_key, model),
  CONSTRAINT svc_cache_stop_reason_check CHECK ((stop_reason = ANY (ARRAY['end'::text, 'max_tokens'::text, 'stop'::text, 'context'::text])))
);
CREATE UNIQUE INDEX svc_cache_pkey ON public.svc_cache USING btree (cache_key, model);
-- grants on svc_cache: (owner only)

CREATE TABLE svc_config (
  name text NOT NULL,
  value jsonb NOT NULL,
  set_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT svc_config_pkey PRIMARY KEY (name)
);
CREATE UNIQUE INDEX svc_config_pkey ON public.svc_config USING btree (name);
-- grants on svc_config: (owner only)

CREATE TABLE svc_documents (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  owner regrole NOT NULL,
  documents jsonb NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT svc_documents_pkey PRIMARY KEY (id)
);
CREATE UNIQUE INDEX svc_documents_pkey ON public.svc_documents USING btree (id);
ALTER TABLE svc_documents ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_documents_read ON svc_documents AS PERMISSIVE FOR SELECT TO public USING ((((owner)::oid = ( SELECT r.oid
   FROM pg_roles r
  WHERE (r.rolname = CURRENT_USER))) OR pg_has_role(CURRENT_USER, 'svc_admin'::name, 'MEMBER'::text)));
-- grants on svc_documents: {svc_owner=arwdDxt/svc_owner,=r/svc_owner}

CREATE TABLE svc_models (
  name text NOT NULL,
  serves text[] NOT NULL DEFAULT ARRAY['generate'::text, 'embed'::text, 'rerank'::text],
  identity text,
  declared_at timestamp with time zone NOT NULL DEFAULT now(),
  loaded_at timestamp with time zone,
  capabilities text[],
  dimension integer,
  context_size integer,
  CONSTRAINT svc_models_capabilities CHECK ((capabilities <@ ARRAY['generate'::text, 'embed'::text, 'rerank'::text])),
  CONSTRAINT svc_models_name CHECK ((name ~ '^[A-Za-z0-9][A-Za-z0-9._:-]{0,62}$'::text)),
  CONSTRAINT svc_models_pkey PRIMARY KEY (name),
  CONSTRAINT svc_models_serves CHECK (((cardinality(serves) > 0) AND (serves <@ ARRAY['generate'::text, 'embed'::text, 'rerank'::text])))
);
CREATE UNIQUE INDEX svc_models_pkey ON public.svc_models USING btree (name);
-- grants on svc_models: {svc_owner=arwdDxt/svc_owner,=r/svc_owner}

CREATE TABLE svc_partial_results (
  request_id uuid NOT NULL,
  attempt integer NOT NULL,
  owner regrole NOT NULL,
  partial_result text NOT NULL,
  tokens integer NOT NULL,
  updated_at timestamp with time zone NOT NULL,
  CONSTRAINT svc_partial_results_pkey PRIMARY KEY (request_id)
);
CREATE UNIQUE INDEX svc_partial_results_pkey ON public.svc_partial_results USING btree (request_id);
ALTER TABLE svc_partial_results ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_partial_results_read ON svc_partial_results AS PERMISSIVE FOR SELECT TO public USING ((((owner)::oid = ( SELECT r.oid
   FROM pg_roles r
  WHERE (r.rolname = CURRENT_USER))) OR pg_has_role(CURRENT_USER, 'svc_admin'::name, 'MEMBER'::text)));
-- grants on svc_partial_results: {svc_owner=arwdDxt/svc_owner,=r/svc_owner}

CREATE TABLE svc_prompts (
  owner regrole NOT NULL,
  name text NOT NULL,
  version integer NOT NULL,
  template text NOT NULL,
  description text,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  variables text[] NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT svc_prompts_metadata CHECK ((jsonb_typeof(metadata) = 'object'::text)),
  CONSTRAINT svc_prompts_name CHECK ((name ~ '^[A-Za-z0-9][A-Za-z0-9._:-]{0,62}$'::text)),
  CONSTRAINT svc_prompts_pkey PRIMARY KEY (owner, name, version),
  CONSTRAINT svc_prompts_version_check CHECK ((version > 0))
);
CREATE UNIQUE INDEX svc_prompts_pkey ON public.svc_prompts USING btree (owner, name, version);
ALTER TABLE svc_prompts ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_prompts_read ON svc_prompts AS PERMISSIVE FOR SELECT TO public USING ((((owner)::oid = ( SELECT r.oid
   FROM pg_roles r
  WHERE (r.rolname = CURRENT_USER))) OR pg_has_role(CURRENT_USER, 'svc_admin'::name, 'MEMBER'::text)));
-- grants on svc_prompts: {svc_owner=arwdDxt/svc_owner,=r/svc_owner}

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
  owner regrole NOT NULL DEFAULT to_regrole(quote_ident((CURRENT_USER)::text)),
  batch_id uuid,
  batch_index integer,
  submitted_xact xid8 NOT NULL DEFAULT pg_current_xact_id(),
  waiter integer,
  model text NOT NULL DEFAULT COALESCE((parameters ->> 'model'::text), 'default'::text),
  stop_reason text,
  sync_token bytea,
  stored_bytes integer,
  inputs integer NOT NULL DEFAULT 1,
  documents_id uuid,
  CONSTRAINT svc_queue_function_name_check CHECK ((function_name = ANY (ARRAY['generate'::text, 'embed'::text, 'generate_json'::text, 'generate_regex'::text, 'generate_choice'::text, 'rerank'::text, 'vectorize'::text, 'embed_many'::text, 'generate_many'::text]))),
  CONSTRAINT svc_queue_inputs_check CHECK ((inputs >= 1)),
  CONSTRAINT svc_queue_pkey PRIMARY KEY (request_id),
  CONSTRAINT svc_queue_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text, 'completed'::text, 'failed'::text, 'cancelled'::text]))),
  CONSTRAINT svc_queue_stop_reason_check CHECK ((stop_reason = ANY (ARRAY['end'::text, 'max_tokens'::text, 'stop'::text, 'context'::text])))
);
CREATE INDEX svc_queue_active_idx ON public.svc_queue USING btree (seq) WHERE ((status = ANY (ARRAY['pending'::text, 'processing'::text])) AND (seq > 0));
CREATE INDEX svc_queue_claim_idx ON public.svc_queue USING btree (model, priority DESC, seq) WHERE (status = 'pending'::text);
CREATE INDEX svc_queue_documents_idx ON public.svc_queue USING btree (documents_id) WHERE (documents_id IS NOT NULL);
CREATE INDEX svc_queue_finished_idx ON public.svc_queue USING btree (COALESCE(completed_at, failed_at, cancelled_at)) WHERE (status = ANY (ARRAY['completed'::text, 'failed'::text, 'cancelled'::text]));
CREATE INDEX svc_queue_lease_idx ON public.svc_queue USING btree (lease_expires_at) WHERE (status = 'processing'::text);
CREATE INDEX svc_queue_owner_active_idx ON public.svc_queue USING btree (owner, seq) INCLUDE (stored_bytes, inputs) WHERE ((status = ANY (ARRAY['pending'::text, 'processing'::text])) AND (stored_bytes >= 0));
CREATE UNIQUE INDEX svc_queue_pkey ON public.svc_queue USING btree (request_id);
CREATE INDEX svc_queue_waiter_idx ON public.svc_queue USING btree (waiter) WHERE (waiter IS NOT NULL);
ALTER TABLE svc_queue ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_queue_read ON svc_queue AS PERMISSIVE FOR SELECT TO public USING ((((owner)::oid = ( SELECT r.oid
   FROM pg_roles r
  WHERE (r.rolname = CURRENT_USER))) OR pg_has_role(CURRENT_USER, 'svc_admin'::name, 'MEMBER'::text)));
-- grants on svc_queue: {svc_owner=arwdDxt/svc_owner,=r/svc_owner}

CREATE TABLE svc_role_limits (
  role_name regrole NOT NULL,
  max_pending bigint,
  max_stored_bytes bigint,
  set_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT svc_role_limits_max_pending_check CHECK ((max_pending >= 0)),
  CONSTRAINT svc_role_limits_max_stored_bytes_check CHECK ((max_stored_bytes >= 0)),
  CONSTRAINT svc_role_limits_pkey PRIMARY KEY (role_name)
);
CREATE UNIQUE INDEX svc_role_limits_pkey ON public.svc_role_limits USING btree (role_name);
ALTER TABLE svc_role_limits ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_role_limits_read ON svc_role_limits AS PERMISSIVE FOR SELECT TO public USING ((((role_name)::oid = ( SELECT r.oid
   FROM pg_roles r
  WHERE (r.rolname = CURRENT_USER))) OR pg_has_role(CURRENT_USER, 'svc_admin'::name, 'MEMBER'::text)));
-- grants on svc_role_limits: {svc_owner=arwdDxt/svc_owner,=r/svc_owner}

CREATE TABLE svc_vectorizer_rows (
  vectorizer integer NOT NULL,
  key jsonb NOT NULL,
  input_hash text NOT NULL,
  request_id uuid,
  state text NOT NULL,
  chunks integer NOT NULL DEFAULT 0,
  error text,
  queued_at timestamp with time zone NOT NULL DEFAULT now(),
  done_at timestamp with time zone,
  CONSTRAINT svc_vectorizer_rows_pkey PRIMARY KEY (vectorizer, key),
  CONSTRAINT svc_vectorizer_rows_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'done'::text, 'failed'::text]))),
  CONSTRAINT svc_vectorizer_rows_vectorizer_fkey FOREIGN KEY (vectorizer) REFERENCES svc_vectorizers(id) ON DELETE CASCADE
);
CREATE INDEX svc_vectorizer_rows_failed_idx ON public.svc_vectorizer_rows USING btree (vectorizer, done_at) WHERE (state = 'failed'::text);
CREATE UNIQUE INDEX svc_vectorizer_rows_pkey ON public.svc_vectorizer_rows USING btree (vectorizer, key);
CREATE INDEX svc_vectorizer_rows_request_idx ON public.svc_vectorizer_rows USING btree (request_id);
-- grants on svc_vectorizer_rows: (owner only)

CREATE TABLE svc_vectorizers (
  id integer NOT NULL GENERATED ALWAYS AS IDENTITY,
  name text NOT NULL,
  owner regrole NOT NULL,
  source regclass NOT NULL,
  source_column text NOT NULL,
  key_columns text[] NOT NULL,
  format text NOT NULL,
  chunking jsonb NOT NULL,
  model text NOT NULL,
  destination regclass NOT NULL,
  embedding_type text NOT NULL,
  batch_size integer NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT svc_vectorizers_embedding_type_check CHECK ((embedding_type = ANY (ARRAY['real[]'::text, 'vector'::text]))),
  CONSTRAINT svc_vectorizers_id_key UNIQUE (id),
  CONSTRAINT svc_vectorizers_name CHECK ((name ~ '^[a-z_][a-z0-9_]{0,39}$'::text)),
  CONSTRAINT svc_vectorizers_pkey PRIMARY KEY (name)
);
CREATE UNIQUE INDEX svc_vectorizers_id_key ON public.svc_vectorizers USING btree (id);
CREATE UNIQUE INDEX svc_vectorizers_pkey ON public.svc_vectorizers USING btree (name);
ALTER TABLE svc_vectorizers ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_vectorizers_read ON svc_vectorizers AS PERMISSIVE FOR SELECT TO public USING ((((owner)::oid = ( SELECT r.oid
   FROM pg_roles r
  WHERE (r.rolname = CURRENT_USER))) OR pg_has_role(CURRENT_USER, 'svc_admin'::name, 'MEMBER'::text)));
-- grants on svc_vectorizers: {svc_owner=arwdDxt/svc_owner,=r/svc_owner}

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
  models text[] NOT NULL DEFAULT ARRAY['default'::text],
  CONSTRAINT svc_workers_pkey PRIMARY KEY (worker_id)
);
CREATE UNIQUE INDEX svc_workers_pkey ON public.svc_workers USING btree (worker_id);
-- grants on svc_workers: {svc_owner=arwdDxt/svc_owner,=r/svc_owner}

CREATE SEQUENCE svc_cache_hits;
-- grants on svc_cache_hits: (owner only)

CREATE SEQUENCE svc_cache_misses;
-- grants on svc_cache_misses: (owner only)

CREATE SEQUENCE svc_queue_seq_seq;
-- grants on svc_queue_seq_seq: (owner only)

CREATE SEQUENCE svc_vectorizers_id_seq;
-- grants on svc_vectorizers_id_seq: (owner only)

CREATE OR REPLACE FUNCTION public.svc__backoff(retry_count integer)
 RETURNS interval
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$SELECT least(public.svc__setting_interval('svc.retry_backoff') * power(2, $1), interval '5 minutes')
$function$;
-- grants on svc__backoff(integer): {svc_owner=X/svc_owner}
-- comment: Internal: the delay before retry n, svc.retry_backoff * 2^n, at most 5 minutes.

CREATE OR REPLACE FUNCTION public.svc__bundle()
 RETURNS void
 LANGUAGE plv8
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $bundle$ (the TypeScript bundle) $bundle$;
-- grants on svc__bundle(): (default: PUBLIC may execute)

CREATE OR REPLACE FUNCTION public.svc__cache_trim()
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- Evicts the lowest-frecency entries beyond svc.cache_size (after svc_worker_cache_put and
-- svc_worker_complete_cached store theirs), but those whose row another transaction holds (a hit in
-- a role's open transaction): the worker never waits on that; the next trim takes them.
DELETE FROM public.svc_cache WHERE (cache_key, model) IN (
  SELECT cache_key, model FROM public.svc_cache
  ORDER BY (hits + 1) / (extract(epoch FROM clock_timestamp() - last_hit_at) + 3600)
  LIMIT greatest(0, (SELECT count(*) FROM public.svc_cache) - public.svc__setting_integer('svc.cache_size', 0))
  FOR UPDATE SKIP LOCKED)
$function$;
-- grants on svc__cache_trim(): {svc_owner=X/svc_owner}
-- comment: Internal: evict the least used cache entries beyond svc.cache_size (svc_worker_cache_put, svc_worker_complete_cached).

CREATE OR REPLACE FUNCTION public.svc__claim(claimer text, max_jobs integer, lease_seconds double precision, max_retries integer, relax_commit boolean, models text[])
 RETURNS TABLE(request_id uuid, function_name text, parameters jsonb, grammar text, attempt integer, retry_count integer, priority integer, waited boolean)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- The claim shared by svc_worker_claim and svc_worker_complete_and_claim (which run it under their
-- settings: generic plans, index scans only; see svc_worker_claim.sql): three statements, each
-- written so that one index alone serves it, whatever the table held when its plan was made.
--
-- 1. Synchronous requests whose caller stopped waiting (its transaction ended, freeing its waiter
--    lock) are cancelled rather than run for nobody: pending ones, and processing ones (claimed ahead
--    or running), announced on svc_cancel so that the worker holding each drops it or stops it at its
--    next token (svc_worker_released confirms it). Taking the lock here succeeds only when no
--    session holds it; this transaction then holds it until it commits, which harms nobody. The
--    lock is tried once per waiting session, not once per request (a set-based call has up to
--    1,000 requests waiting under one key): the keys are read from svc_queue_waiter_idx by a loose
--    index scan (the next key above the last, one index descent each). The statuses are compared with
--    variables (pending_, processing_) so that the update too is served by that index. The lock's first key is 'svcw'
--    (svc__sync_waiter_lock_key(), from SYNC_WAITER_LOCK in src/queue/locks.ts), the second the waiting session's, stored in `waiter`. Rows
--    locked by another transaction are skipped, as in every statement of the worker protocol: it
--    never waits on a lock a role's open transaction may hold (see svc__complete.sql).
-- 2. Expired leases go back to pending with a retry counted (or fail when retries are spent,
--    announced on svc_completed). The probe reads the earliest lease, the first entry of
--    svc_queue_lease_idx (an EXISTS over status and lease looks as cheap on an empty table, through
--    svc_queue_active_idx, and then filters every active row on each call; min() may be planned as
--    an aggregate over every lease), so the sweep runs only when a lease has expired.
-- 3. Up to max_jobs pending jobs of the claimer's models, highest priority first, then oldest: the
--    first entries of svc_queue_claim_idx (model, priority DESC, seq) for its model, one index scan
--    and no sort. A worker of several models scans each model's entries and merges them, sorting at
--    most max_jobs rows per model; the rows locked beyond max_jobs are released when the claim
--    commits. `now_` is a variable of each statement, so the lease index can seek on it
--    (clock_timestamp() in a WHERE clause cannot be an index condition).
--
-- relax_commit: when this is the transaction's first write and no job failed for good, the
-- transaction commits without waiting for its WAL to reach the disk (synchronous_commit off). Lost
-- in a crash, a claim leaves the job as it was (pending, or processing under a lease that expires);
-- a worker's completion of that attempt is then refused or stores the same bytes, and any durable
-- commit after it makes it durable too. Not when the transaction had written before, whose writes
-- the caller may want durable, nor when the sweep failed a job for good: that is announced.
#variable_conflict use_column
DECLARE
  first_write boolean := relax_commit AND pg_current_xact_id_if_assigned() IS NULL;
  now_ timestamptz := clock_timestamp();
  announced integer;
  released integer; -- processing requests cancelled (their workers are told on svc_cancel; a lost commit loses nothing)
  pending_ text := 'pending';
  processing_ text := 'processing';
  picked uuid[];
BEGIN
  IF models IS NULL OR cardinality(models) = 0 OR array_position(models, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'svc_worker_claim: models must be a non-empty array of model names' USING ERRCODE = 'invalid_parameter_value';
  END IF;

  WITH RECURSIVE waiting AS (
    (SELECT w.waiter FROM public.svc_queue w WHERE w.waiter IS NOT NULL ORDER BY w.waiter LIMIT 1)
    UNION ALL
    SELECT (SELECT w.waiter FROM public.svc_queue w WHERE w.waiter > k.waiter ORDER BY w.waiter LIMIT 1) FROM waiting k WHERE k.waiter IS NOT NULL
  )
  , gone AS (
    UPDATE public.svc_queue w SET status = 'cancelled', cancelled_at = now_, waiter = NULL, lease_expires_at = NULL,
      error = 'cancelled: its synchronous caller stopped waiting'
    WHERE w.request_id = ANY (ARRAY(
      SELECT l.request_id FROM public.svc_queue l
      WHERE l.waiter IN (SELECT k.waiter FROM waiting k WHERE k.waiter IS NOT NULL AND pg_try_advisory_xact_lock(public.svc__sync_waiter_lock_key(), k.waiter))
        AND (l.status = pending_ OR l.status = processing_)
      FOR UPDATE SKIP LOCKED))
    RETURNING w.request_id, w.worker_id
  )
  SELECT count(pg_notify('svc_cancel', g.request_id::text)) INTO released FROM gone g WHERE g.worker_id IS NOT NULL;

  IF (SELECT e.lease_expires_at FROM public.svc_queue e WHERE e.status = 'processing' ORDER BY e.lease_expires_at LIMIT 1) < now_ THEN
    WITH requeued AS (
      UPDATE public.svc_queue q SET
        status = CASE WHEN q.retry_count < max_retries THEN 'pending' ELSE 'failed' END,
        retry_count = CASE WHEN q.retry_count < max_retries THEN q.retry_count + 1 ELSE q.retry_count END,
        run_after = clock_timestamp() + public.svc__backoff(q.retry_count),
        failed_at = CASE WHEN q.retry_count < max_retries THEN NULL ELSE clock_timestamp() END,
        waiter = CASE WHEN q.retry_count < max_retries THEN q.waiter END,
        error = 'lease expired: worker ' || coalesce(q.worker_id, '?') || ' stopped renewing it',
        lease_expires_at = NULL, worker_id = NULL
      WHERE q.request_id = ANY (ARRAY(
        SELECT e.request_id FROM public.svc_queue e
        WHERE e.status = 'processing' AND e.lease_expires_at < now_
        ORDER BY e.lease_expires_at
        FOR UPDATE SKIP LOCKED))
      RETURNING q.request_id, q.function_name, q.status
    )
    SELECT count(pg_notify('svc_completed', public.svc__completed_payload(request_id, function_name, 'failed'))) INTO announced
    FROM requeued WHERE status = 'failed';
    now_ := clock_timestamp(); -- requeued jobs whose backoff is zero may be claimed right away
  END IF;

  IF first_write AND coalesce(announced, 0) = 0 THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;

  IF cardinality(models) = 1 THEN
    picked := ARRAY(
      SELECT p.request_id FROM public.svc_queue p
      WHERE p.model = models[1] AND p.status = 'pending' AND p.run_after <= now_
      ORDER BY p.priority DESC, p.seq
      LIMIT max_jobs
      FOR UPDATE SKIP LOCKED);
  ELSE
    picked := ARRAY(
      SELECT p.request_id FROM unnest(models) AS m(name), LATERAL (
        SELECT p.request_id, p.priority, p.seq FROM public.svc_queue p
        WHERE p.model = m.name AND p.status = 'pending' AND p.run_after <= now_
        ORDER BY p.priority DESC, p.seq
        LIMIT max_jobs
        FOR UPDATE SKIP LOCKED) p
      ORDER BY p.priority DESC, p.seq
      LIMIT max_jobs);
  END IF;

  RETURN QUERY
  WITH claimed AS (
    UPDATE public.svc_queue q SET
      status = 'processing', started_at = now_, attempt = q.attempt + 1,
      worker_id = claimer, lease_expires_at = now_ + make_interval(secs => lease_seconds)
    WHERE q.request_id = ANY (picked)
    RETURNING q.request_id, q.function_name, q.parameters, q.grammar, q.attempt, q.retry_count, q.priority, q.waiter IS NOT NULL AS waited, q.seq,
      q.documents_id
  )
  -- A request whose documents are stored once for its batch (svc_documents, svc_rerank_batch_async)
  -- gets them back: its parameters are then exactly svc_rerank_async's, and so are its answer and cache key.
  SELECT c.request_id, c.function_name,
    CASE WHEN c.documents_id IS NULL THEN c.parameters
      ELSE c.parameters || jsonb_build_object('documents', (SELECT d.documents FROM public.svc_documents d WHERE d.id = c.documents_id)) END,
    c.grammar, c.attempt, c.retry_count, c.priority, c.waited
  FROM claimed c ORDER BY c.priority DESC, c.seq;
END
$function$;
-- grants on svc__claim(text,integer,double precision,integer,boolean,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the claim of svc_worker_claim and svc_worker_complete_and_claim (abandoned sync requests, expired leases, then pending jobs).

CREATE OR REPLACE FUNCTION public.svc__complete(ids uuid[], attempts integer[], results text[], stop_reasons text[])
 RETURNS uuid[]
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- The completion shared by svc_worker_complete and svc_worker_complete_and_claim: store the results
-- of the listed attempts (and how each generation ended: stop_reasons, NULL for none) and announce
-- each on svc_completed; returns the ids whose completion was
-- refused. An attempt that is no longer processing under that number (its lease expired and the job
-- was taken again, or it was already completed) matches nothing and is refused. The arrays are
-- matched by position; `= ANY (ids)` keeps the lookup on the primary key whatever plan is chosen.
-- The status is compared with a variable (processing_), not a literal: with status = 'processing'
-- the lease index's predicate is implied, so a generic plan (made once) might take that index, tied
-- with the primary key on an empty table, and filter every processing row on request_id, call
-- after call. Usually every completion is stored, and only otherwise is the list of refused ids
-- built (a quarter of a busy worker's call, measured).
--
-- It never waits for a row lock (SKIP LOCKED): what holds a processing row's lock is a transaction
-- that cancels or requeues it (an owner's svc_cancel_async, which its owner may leave uncommitted
-- as long as it likes; a claim that finds its caller gone; another worker's expired-lease sweep). Its
-- completion is refused, as it would be once that commits; should it roll back instead, the lease
-- expires and the request runs again. Waiting would let one role's open transaction hold up the
-- completions of everyone's requests that finished with it.
#variable_conflict use_column
DECLARE
  processing_ text := 'processing';
  stored uuid[];
  announced integer;
BEGIN
  WITH done AS (
    UPDATE public.svc_queue q SET
      status = 'completed', error = NULL,
      -- A vectorizer's chunks go to its destination now; the row keeps what was written, not the vectors.
      result = CASE WHEN q.function_name = 'vectorize'
        THEN public.svc__vectorizer_apply(q.request_id, q.parameters, results[array_position(ids, q.request_id)])
        ELSE results[array_position(ids, q.request_id)] END,
      stop_reason = stop_reasons[array_position(ids, q.request_id)],
      completed_at = clock_timestamp(), lease_expires_at = NULL, waiter = NULL
    WHERE q.request_id = ANY (ARRAY(
        SELECT l.request_id FROM public.svc_queue l WHERE l.request_id = ANY (ids) AND l.status = processing_
          AND l.attempt = attempts[array_position(ids, l.request_id)]
        FOR UPDATE SKIP LOCKED))
    RETURNING q.request_id, q.function_name
  )
  SELECT array_agg(request_id), count(pg_notify('svc_completed', public.svc__completed_payload(request_id, function_name, 'completed')))
  INTO stored, announced FROM done;
  IF announced = cardinality(ids) THEN
    RETURN '{}';
  END IF;
  RETURN ARRAY(SELECT given.id FROM unnest(ids) AS given(id) WHERE NOT given.id = ANY (coalesce(stored, '{}')));
END
$function$;
-- grants on svc__complete(uuid[],integer[],text[],text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the completion of svc_worker_complete and svc_worker_complete_and_claim; returns the ids whose completion was refused.

CREATE OR REPLACE FUNCTION public.svc__completed_payload(request_id uuid, function_name text, status text)
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- The svc_completed payload of a queue row (DESIGN.md), for every completion and final failure: the
-- `function` field maps the queue function (constrained and batch generation count as generate, a
-- set-based svc_embed's requests of many texts as embed).
SELECT json_build_object('request_id', $1,
  'function', CASE $2 WHEN 'embed' THEN 'embed' WHEN 'embed_many' THEN 'embed' WHEN 'rerank' THEN 'rerank' ELSE 'generate' END,
  'status', $3)::text
$function$;
-- grants on svc__completed_payload(uuid,text,text): {svc_owner=X/svc_owner}
-- comment: Internal: the svc_completed notification payload of a request.

CREATE OR REPLACE FUNCTION public.svc__cosine_distance_lower_bound(a real[], b real[])
 RETURNS double precision
 LANGUAGE c
 IMMUTABLE
AS '$libdir/svc', $function$svc_cosine_distance_lower_bound$function$;
-- grants on svc__cosine_distance_lower_bound(real[],real[]): (default: PUBLIC may execute)
-- comment: At most svc_cosine_distance(a, b), and within (cardinality(a) + 8) * 2e-15 of it (the same sums, added in an order that runs faster); svc_search's exact scan orders chunks by it.

CREATE OR REPLACE FUNCTION public.svc__model_identity(name text)
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- The file a worker last loaded under a model name (svc_models.identity): the cache keeps answers
-- per identity, so the synchronous functions look up a request's answer under its model's.
SELECT identity FROM public.svc_models WHERE name = $1
$function$;
-- grants on svc__model_identity(text): {svc_owner=X/svc_owner}
-- comment: Internal: the identity of the file a worker last loaded under a model name, under which the cache keeps answers.

CREATE OR REPLACE FUNCTION public.svc__queue_depth()
 RETURNS bigint
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$-- PL/pgSQL so its plans are kept for the session: as an SQL function (SECURITY DEFINER, SET
-- search_path, so never inlined) each call from a plv8 plan parsed and planned the body again.
BEGIN
  RETURN (SELECT count(*) FROM public.svc_queue WHERE status = 'pending') + (SELECT count(*) FROM public.svc_queue WHERE status = 'processing');
END
$function$;
-- grants on svc__queue_depth(): {svc_owner=X/svc_owner}
-- comment: Internal: requests pending or processing, over all roles (for svc.max_queue_size).

CREATE OR REPLACE FUNCTION public.svc__reals(bytes bytea)
 RETURNS real[]
 LANGUAGE c
 IMMUTABLE
AS '$libdir/svc', $function$svc_reals_from_bytes$function$;
-- grants on svc__reals(bytea): {svc_owner=X/svc_owner}
-- comment: Internal (svc__vectorizer_apply): the real[] of these bytes, float32s little-endian, as a vectorize job's result carries each vector.

CREATE OR REPLACE FUNCTION public.svc__role_quota_check(fn text, role oid, added integer)
 RETURNS void
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__role_quota_check(text,oid,integer): {svc_owner=X/svc_owner}
-- comment: Internal (svc__vectorizer_enqueue): refuses (53400) when the role's requests pending or processing, the added ones counted, pass its quotas.

CREATE OR REPLACE FUNCTION public.svc__run_cache_clear()
 RETURNS bigint
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$WITH removed AS (DELETE FROM public.svc_cache RETURNING 1)
SELECT count(*) FROM removed
WHERE setval('public.svc_cache_hits', 1, false) > 0 AND setval('public.svc_cache_misses', 1, false) > 0
$function$;
-- grants on svc__run_cache_clear(): {svc_owner=X/svc_owner,svc_admin=X/svc_owner}
-- comment: Internal: the body of svc_cache_clear, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_cache_evict(older_than interval, unused_for interval, max_hits bigint, keep bigint, target_bytes bigint, order_by text, dry_run boolean)
 RETURNS TABLE(cache_key text, model text, function_name text, created_at timestamp with time zone, last_hit_at timestamp with time zone, hits bigint, bytes bigint, result_preview text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- Removes (or, with dry_run, lists) the cache entries that meet every criterion given: created longer
-- ago than older_than; not used (looked up with a hit, else since stored) for unused_for; hit at most
-- max_hits times; not among the `keep` entries used most recently (order_by 'recency') or most often
-- ('frequency', ties by recency); with target_bytes, only as many of those, least valuable first, as
-- bring the bytes of the whole cache down to target_bytes (none when it is there already). The rows
-- come least valuable first, as the keep order ranks them. A NULL criterion is not applied; with none
-- the call is refused, since svc_cache_clear empties it.
-- Each row shows the start of the cached answer (result_preview, 80 characters): the cache keeps no
-- prompt, only its request's hash (cache_key), so the answer is what tells one entry from another.
DECLARE
  now_at timestamptz := clock_timestamp();
BEGIN
  IF dry_run IS NULL OR order_by IS NULL THEN
    RAISE EXCEPTION 'svc_cache_evict: % must not be NULL', CASE WHEN dry_run IS NULL THEN 'dry_run' ELSE 'order_by' END
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF older_than IS NULL AND unused_for IS NULL AND max_hits IS NULL AND keep IS NULL AND target_bytes IS NULL THEN
    RAISE EXCEPTION 'svc_cache_evict: give at least one of older_than, unused_for, max_hits, keep or target_bytes'
      USING ERRCODE = 'invalid_parameter_value', HINT = 'svc_cache_clear() empties the whole cache.';
  END IF;
  IF older_than < interval '0' OR unused_for < interval '0' THEN
    RAISE EXCEPTION 'svc_cache_evict: % must be an interval of zero or more (got %)',
      CASE WHEN older_than < interval '0' THEN 'older_than' ELSE 'unused_for' END,
      CASE WHEN older_than < interval '0' THEN older_than ELSE unused_for END
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF max_hits < 0 OR keep < 0 OR target_bytes < 0 THEN
    RAISE EXCEPTION 'svc_cache_evict: % must be zero or more (got %)',
      CASE WHEN max_hits < 0 THEN 'max_hits' WHEN keep < 0 THEN 'keep' ELSE 'target_bytes' END,
      CASE WHEN max_hits < 0 THEN max_hits WHEN keep < 0 THEN keep ELSE target_bytes END
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF order_by NOT IN ('recency', 'frequency') THEN
    RAISE EXCEPTION 'svc_cache_evict: order_by must be ''recency'' or ''frequency'' (got %)', quote_literal(order_by)
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- One statement: the entries are chosen in one snapshot and a real run lists only those it removed
  -- (an entry another session removed first is not listed).
  RETURN QUERY
  WITH ranked AS (
    SELECT c.cache_key, c.model, c.function_name, c.created_at, c.last_hit_at, c.hits, pg_column_size(c.*)::bigint AS bytes,
      left(c.result, 80) AS result_preview,
      row_number() OVER (ORDER BY CASE WHEN order_by = 'frequency' THEN c.hits END DESC NULLS LAST,
                                  c.last_hit_at DESC, c.hits DESC, c.cache_key, c.model) AS rank
    FROM public.svc_cache c
  ), eligible AS (
    SELECT r.*,
      -- The bytes the cache still holds before this entry goes, the less valuable eligible ones gone first.
      (SELECT sum(a.bytes) FROM ranked a)
        - coalesce(sum(r.bytes) OVER (ORDER BY r.rank DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS left_before
    FROM ranked r
    WHERE (older_than IS NULL OR r.created_at < now_at - older_than)
      AND (unused_for IS NULL OR r.last_hit_at < now_at - unused_for)
      AND (max_hits IS NULL OR r.hits <= max_hits)
      AND (keep IS NULL OR r.rank > keep)
  ), chosen AS (
    SELECT * FROM eligible e WHERE target_bytes IS NULL OR e.left_before > target_bytes
  ), gone AS (
    DELETE FROM public.svc_cache c USING chosen e
    WHERE NOT dry_run AND c.cache_key = e.cache_key AND c.model = e.model
    RETURNING c.cache_key, c.model
  )
  SELECT e.cache_key, e.model, e.function_name, e.created_at, e.last_hit_at, e.hits, e.bytes, e.result_preview
  FROM chosen e
  WHERE dry_run OR (e.cache_key, e.model) IN (SELECT g.cache_key, g.model FROM gone g)
  ORDER BY e.rank DESC;
END
$function$;
-- grants on svc__run_cache_evict(interval,interval,bigint,bigint,bigint,text,boolean): {svc_owner=X/svc_owner,svc_admin=X/svc_owner}
-- comment: Internal: the body of svc_cache_evict, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_cache_usage()
 RETURNS TABLE(function_name text, model text, entries bigint, bytes bigint, hits bigint, last_used_at timestamp with time zone)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- The cache by function and model, the largest first: how many entries, the bytes they take (each
-- row as stored, as svc_cache_stats().bytes and svc_cache_evict's bytes count them), their hits and
-- their latest use (a hit, else when stored). What svc_cache_evict(target_bytes := …) weighs.
SELECT c.function_name, c.model, count(*), sum(pg_column_size(c.*))::bigint, sum(c.hits)::bigint, max(c.last_hit_at)
FROM public.svc_cache c
GROUP BY c.function_name, c.model
ORDER BY 4 DESC, 1, 2
$function$;
-- grants on svc__run_cache_usage(): {svc_owner=X/svc_owner,svc_admin=X/svc_owner}
-- comment: Internal: the body of svc_cache_usage, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_cancel_async(request_id uuid)
 RETURNS boolean
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.cancelAsync(request_id);
$function$;
-- grants on svc__run_cancel_async(uuid): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_cancel_async, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_cleanup(retention interval)
 RETURNS bigint
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- Finished requests, and the rows of workers not heard from, older than the retention.
DECLARE
  removed bigint;
BEGIN
  IF $1 IS NULL THEN
    RAISE EXCEPTION 'svc_cleanup: retention must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  DELETE FROM public.svc_workers WHERE last_heartbeat < clock_timestamp() - $1;
  WITH finished AS (
    DELETE FROM public.svc_queue
    WHERE status IN ('completed', 'failed', 'cancelled')
      AND coalesce(completed_at, failed_at, cancelled_at) < clock_timestamp() - $1
    RETURNING 1
  )
  SELECT count(*) INTO removed FROM finished;
  -- Documents stored once for a batch (svc_documents) go with the last request that names them.
  DELETE FROM public.svc_documents d WHERE NOT EXISTS (SELECT FROM public.svc_queue q WHERE q.documents_id = d.id);
  RETURN removed;
END
$function$;
-- grants on svc__run_cleanup(interval): {svc_owner=X/svc_owner,svc_admin=X/svc_owner}
-- comment: Internal: the body of svc_cleanup, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_deduplicate_facts(facts text[], threshold double precision, use_cache boolean)
 RETURNS text[]
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.deduplicateFacts(facts, threshold, use_cache);
$function$;
-- grants on svc__run_deduplicate_facts(text[],double precision,boolean): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_deduplicate_facts, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_embed(text_input text, use_cache boolean)
 RETURNS real[]
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.embed(text_input, use_cache);
$function$;
-- grants on svc__run_embed(text,boolean): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_embed, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_embed(texts text[], use_cache boolean)
 RETURNS TABLE(ord integer, embedding real[], error text)
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
 SET "plv8.execution_timeout" TO '65536'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.embedMany(texts, use_cache);
$function$;
-- grants on svc__run_embed(text[],boolean): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_embed, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_embed_async(text_input text, use_cache boolean, priority integer)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.embedAsync(text_input, use_cache, priority);
$function$;
-- grants on svc__run_embed_async(text,boolean,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_embed_async, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_embed_batch_async(texts text[], use_cache boolean, priority integer)
 RETURNS uuid[]
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.embedBatchAsync(texts, use_cache, priority);
$function$;
-- grants on svc__run_embed_batch_async(text[],boolean,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_embed_batch_async, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_extract_facts(text_input text, max_facts integer, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS text[]
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.extractFacts(text_input, max_facts, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop);
$function$;
-- grants on svc__run_extract_facts(text,integer,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_extract_facts, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate(prompt text, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS text
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generate(prompt, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop);
$function$;
-- grants on svc__run_generate(text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate(prompts text[], max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS TABLE(ord integer, result text, error text)
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
 SET "plv8.execution_timeout" TO '65536'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateMany(prompts, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop);
$function$;
-- grants on svc__run_generate(text[],integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_async(prompt text, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[], priority integer)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateAsync(prompt, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop, priority);
$function$;
-- grants on svc__run_generate_async(text,integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_async, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_batch_async(prompts text[], max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[], priority integer)
 RETURNS uuid[]
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateBatchAsync(prompts, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop, priority);
$function$;
-- grants on svc__run_generate_batch_async(text[],integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_batch_async, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_choice(prompt text, choices text[], max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS text
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateChoice(prompt, choices, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop);
$function$;
-- grants on svc__run_generate_choice(text,text[],integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_choice, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_choice(prompts text[], choices text[], max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS TABLE(ord integer, result text, error text)
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
 SET "plv8.execution_timeout" TO '65536'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateChoiceMany(prompts, choices, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop);
$function$;
-- grants on svc__run_generate_choice(text[],text[],integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_choice, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_choice_async(prompt text, choices text[], max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[], priority integer)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateChoiceAsync(prompt, choices, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop, priority);
$function$;
-- grants on svc__run_generate_choice_async(text,text[],integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_choice_async, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_json(prompt text, schema jsonb, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS text
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateJson(prompt, schema, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop);
$function$;
-- grants on svc__run_generate_json(text,jsonb,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_json, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_json(prompt text, schema text, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS text
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateJsonText(prompt, schema, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop);
$function$;
-- grants on svc__run_generate_json(text,text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_json, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_json(prompts text[], schema jsonb, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS TABLE(ord integer, result text, error text)
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
 SET "plv8.execution_timeout" TO '65536'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateJsonMany(prompts, schema, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop);
$function$;
-- grants on svc__run_generate_json(text[],jsonb,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_json, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_json(prompts text[], schema text, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS TABLE(ord integer, result text, error text)
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
 SET "plv8.execution_timeout" TO '65536'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateJsonManyText(prompts, schema, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop);
$function$;
-- grants on svc__run_generate_json(text[],text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_json, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_json_async(prompt text, schema jsonb, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[], priority integer)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateJsonAsync(prompt, schema, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop, priority);
$function$;
-- grants on svc__run_generate_json_async(text,jsonb,integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_json_async, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_json_async(prompt text, schema text, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[], priority integer)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateJsonAsyncText(prompt, schema, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop, priority);
$function$;
-- grants on svc__run_generate_json_async(text,text,integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_json_async, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_regex(prompt text, pattern text, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS text
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateRegex(prompt, pattern, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop);
$function$;
-- grants on svc__run_generate_regex(text,text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_regex, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_regex(prompts text[], pattern text, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS TABLE(ord integer, result text, error text)
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
 SET "plv8.execution_timeout" TO '65536'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateRegexMany(prompts, pattern, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop);
$function$;
-- grants on svc__run_generate_regex(text[],text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_regex, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_generate_regex_async(prompt text, pattern text, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[], priority integer)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.generateRegexAsync(prompt, pattern, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop, priority);
$function$;
-- grants on svc__run_generate_regex_async(text,text,integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_generate_regex_async, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_get_async_result(request_id uuid, timeout_seconds integer)
 RETURNS text
 LANGUAGE plv8
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.getAsyncResult(request_id, timeout_seconds);
$function$;
-- grants on svc__run_get_async_result(uuid,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_get_async_result, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_get_async_results(request_ids uuid[], timeout_seconds integer)
 RETURNS TABLE(ord integer, request_id uuid, status text, result text, error text)
 LANGUAGE plv8
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.getAsyncResults(request_ids, timeout_seconds);
$function$;
-- grants on svc__run_get_async_results(uuid[],integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_get_async_results, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_model_declare(name text, serves text[])
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- Declares a model name, or changes which functions an existing one serves. Requests already queued
-- keep their model; new ones for a function the model no longer serves are refused at the call.
DECLARE
  known record;
BEGIN
  IF name IS NULL OR serves IS NULL THEN
    RAISE EXCEPTION 'svc_model_declare: % must not be NULL', CASE WHEN name IS NULL THEN 'name' ELSE 'serves' END
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF name !~ '^[A-Za-z0-9][A-Za-z0-9._:-]{0,62}$' THEN
    RAISE EXCEPTION 'svc_model_declare: name must be 1 to 63 letters, digits, ".", "_", ":" or "-", starting with a letter or digit (got %)', quote_literal(name)
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF cardinality(serves) = 0 OR array_position(serves, NULL) IS NOT NULL OR NOT serves <@ ARRAY['generate', 'embed', 'rerank'] THEN
    RAISE EXCEPTION 'svc_model_declare: serves must be a non-empty array of generate, embed and rerank (got %)', serves
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- What the model's file can do, as its worker read it (svc_models.capabilities): an embedding model never serves generate.
  SELECT m.identity, m.capabilities INTO known FROM public.svc_models AS m WHERE m.name = $1;
  IF known.capabilities IS NOT NULL AND NOT serves <@ known.capabilities THEN
    RAISE EXCEPTION 'svc_model_declare: model % cannot serve %: the file its worker loaded (%) is an embedding model, which serves only %',
      quote_literal(name), array_to_string(ARRAY(SELECT f FROM unnest(serves) AS f WHERE NOT f = ANY (known.capabilities)), ', '),
      coalesce(known.identity, 'unknown'), array_to_string(known.capabilities, ', ')
      USING ERRCODE = 'invalid_parameter_value',
        HINT = 'Serve generation with a text-generation (decoder) model under another name: svc-worker --model NAME=PATH.';
  END IF;
  INSERT INTO public.svc_models AS m (name, serves) VALUES (name, ARRAY(SELECT f FROM unnest(ARRAY['generate', 'embed', 'rerank']) AS f WHERE f = ANY (serves)))
  ON CONFLICT ON CONSTRAINT svc_models_pkey DO UPDATE SET serves = excluded.serves;
END
$function$;
-- grants on svc__run_model_declare(text,text[]): {svc_owner=X/svc_owner,svc_admin=X/svc_owner}
-- comment: Internal: the body of svc_model_declare, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_prompt_create(name text, template text, description text, metadata jsonb)
 RETURNS integer
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.promptCreate(name, template, description, metadata);
$function$;
-- grants on svc__run_prompt_create(text,text,text,jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_prompt_create, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_prompt_render(name text, variables jsonb, version integer, strict boolean)
 RETURNS text
 LANGUAGE plv8
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.promptRender(name, variables, version, strict);
$function$;
-- grants on svc__run_prompt_render(text,jsonb,integer,boolean): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_prompt_render, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_prompt_update(name text, template text, description text, metadata jsonb)
 RETURNS integer
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.promptUpdate(name, template, description, metadata);
$function$;
-- grants on svc__run_prompt_update(text,text,text,jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_prompt_update, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_queue_limits()
 RETURNS TABLE(role_name text, max_queue_size bigint, queue_depth bigint, max_pending bigint, pending bigint, max_stored_bytes bigint, stored_bytes bigint)
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.queueLimits();
$function$;
-- grants on svc__run_queue_limits(): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_queue_limits, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_rerank(query text, documents text[], task text, use_cache boolean, seed integer, top_k integer)
 RETURNS TABLE(document text, score double precision)
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.rerank(query, documents, task, use_cache, seed, top_k);
$function$;
-- grants on svc__run_rerank(text,text[],text,boolean,integer,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_rerank, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_rerank(queries text[], documents text[], task text, use_cache boolean, seed integer, top_k integer)
 RETURNS TABLE(ord integer, document text, score double precision, error text)
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
 SET "plv8.execution_timeout" TO '65536'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.rerankMany(queries, documents, task, use_cache, seed, top_k);
$function$;
-- grants on svc__run_rerank(text[],text[],text,boolean,integer,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_rerank, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_rerank_async(query text, documents text[], task text, use_cache boolean, seed integer, priority integer)
 RETURNS uuid
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.rerankAsync(query, documents, task, use_cache, seed, priority);
$function$;
-- grants on svc__run_rerank_async(text,text[],text,boolean,integer,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_rerank_async, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_rerank_batch(queries text[], documents text[], task text, use_cache boolean, seed integer, top_k integer)
 RETURNS TABLE(ord integer, query text, rank integer, doc_index integer, document text, score double precision, error text)
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
 SET "plv8.execution_timeout" TO '65536'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.rerankBatch(queries, documents, task, use_cache, seed, top_k);
$function$;
-- grants on svc__run_rerank_batch(text[],text[],text,boolean,integer,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_rerank_batch, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_rerank_batch_async(queries text[], documents text[], task text, use_cache boolean, seed integer, priority integer)
 RETURNS uuid[]
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.rerankBatchAsync(queries, documents, task, use_cache, seed, priority);
$function$;
-- grants on svc__run_rerank_batch_async(text[],text[],text,boolean,integer,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_rerank_batch_async, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_rerank_docs_only(query text, documents text[], task text, use_cache boolean, seed integer, top_k integer)
 RETURNS SETOF text
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.rerankDocsOnly(query, documents, task, use_cache, seed, top_k);
$function$;
-- grants on svc__run_rerank_docs_only(text,text[],text,boolean,integer,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_rerank_docs_only, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_role_quota_check(fn text, role oid, added integer)
 RETURNS void
 LANGUAGE plv8
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.roleQuotaCheck(fn, role, added);
$function$;
-- grants on svc__run_role_quota_check(text,oid,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__role_quota_check, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_search(name text, query text, k integer)
 RETURNS TABLE(key jsonb, chunk_index integer, chunk text, distance double precision)
 LANGUAGE plv8
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.search(name, query, k);
$function$;
-- grants on svc__run_search(text,text,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_search, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_set_queue_limits(max_queue_size bigint)
 RETURNS void
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.setQueueLimits(max_queue_size);
$function$;
-- grants on svc__run_set_queue_limits(bigint): {svc_owner=X/svc_owner,svc_admin=X/svc_owner}
-- comment: Internal: the body of svc_set_queue_limits, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_set_role_limits(role_name text, max_pending bigint, max_stored_bytes bigint)
 RETURNS void
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.setRoleLimits(role_name, max_pending, max_stored_bytes);
$function$;
-- grants on svc__run_set_role_limits(text,bigint,bigint): {svc_owner=X/svc_owner,svc_admin=X/svc_owner}
-- comment: Internal: the body of svc_set_role_limits, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_set_sync_connection(conninfo text)
 RETURNS text
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.setSyncConnection(conninfo);
$function$;
-- grants on svc__run_set_sync_connection(text): {svc_owner=X/svc_owner,svc_admin=X/svc_owner}
-- comment: Internal: the body of svc_set_sync_connection, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_stream_next(state jsonb)
 RETURNS jsonb
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
 SET "plv8.execution_timeout" TO '65536'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.streamNext(state);
$function$;
-- grants on svc__run_stream_next(jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__stream_next, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_stream_start(prompt text, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS jsonb
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.streamStart(prompt, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop);
$function$;
-- grants on svc__run_stream_start(text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__stream_start, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_summarize_combine(a jsonb, b jsonb)
 RETURNS jsonb
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.summarizeCombine(a, b);
$function$;
-- grants on svc__run_summarize_combine(jsonb,jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__summarize_combine, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_summarize_final(state jsonb)
 RETURNS text
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.summarizeFinal(state);
$function$;
-- grants on svc__run_summarize_final(jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__summarize_final, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_summarize_merge(state jsonb, partial jsonb)
 RETURNS jsonb
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.summarizeMerge(state, partial);
$function$;
-- grants on svc__run_summarize_merge(jsonb,jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__summarize_merge, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_summarize_partial(state jsonb)
 RETURNS jsonb
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.summarizePartial(state);
$function$;
-- grants on svc__run_summarize_partial(jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__summarize_partial, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_summarize_partial_step(state jsonb, body text)
 RETURNS jsonb
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.summarizePartialStep(state, body);
$function$;
-- grants on svc__run_summarize_partial_step(jsonb,text): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__summarize_partial_step, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_summarize_partial_step(state jsonb, body text, options jsonb)
 RETURNS jsonb
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.summarizePartialStep(state, body, options);
$function$;
-- grants on svc__run_summarize_partial_step(jsonb,text,jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__summarize_partial_step, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_summarize_step(state jsonb, body text)
 RETURNS jsonb
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.summarizeStep(state, body);
$function$;
-- grants on svc__run_summarize_step(jsonb,text): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__summarize_step, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_summarize_step(state jsonb, body text, max_tokens integer)
 RETURNS jsonb
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.summarizeStep(state, body, max_tokens);
$function$;
-- grants on svc__run_summarize_step(jsonb,text,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__summarize_step, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_summarize_step(state jsonb, body text, max_tokens integer, seed integer)
 RETURNS jsonb
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.summarizeStep(state, body, max_tokens, seed);
$function$;
-- grants on svc__run_summarize_step(jsonb,text,integer,integer): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__summarize_step, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_summarize_step(state jsonb, body text, options jsonb)
 RETURNS jsonb
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.summarizeStepOptions(state, body, options);
$function$;
-- grants on svc__run_summarize_step(jsonb,text,jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__summarize_step, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_sync_submit(payload jsonb)
 RETURNS uuid[]
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.syncSubmit(payload);
$function$;
-- grants on svc__run_sync_submit(jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc__sync_submit, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_vectorize(source regclass, column_name text, name text, model text, chunk_by text, chunk_size integer, chunk_overlap integer, separators text[], format text, destination text, dimensions integer, batch_size integer, index text)
 RETURNS bigint
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
 SET "plv8.execution_timeout" TO '65536'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.vectorize(source, column_name, name, model, chunk_by, chunk_size, chunk_overlap, separators, format, destination, dimensions, batch_size, index);
$function$;
-- grants on svc__run_vectorize(regclass,text,text,text,text,integer,integer,text[],text,text,integer,integer,text): {postgres=X/postgres}
-- comment: Internal: the body of svc_vectorize, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_vectorize_drop(name text, drop_destination boolean)
 RETURNS boolean
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.vectorizeDrop(name, drop_destination);
$function$;
-- grants on svc__run_vectorize_drop(text,boolean): {postgres=X/postgres}
-- comment: Internal: the body of svc_vectorize_drop, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_vectorizer_embed(name text, query text)
 RETURNS real[]
 LANGUAGE plv8
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$
const svc = globalThis.__svc && globalThis.__svc.build === "<build id>" ? globalThis.__svc : plv8.find_function('public.svc__bundle')();
return svc.api.vectorizerEmbed(name, query);
$function$;
-- grants on svc__run_vectorizer_embed(text,text): {svc_owner=X/svc_owner}
-- comment: Internal: the body of svc_vectorizer_embed, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_worker_cache_get(identity text, model text)
 RETURNS TABLE(result text, stop_reason text)
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- A hit bumps the entry's frecency; hits and misses are counted (svc_cache_stats). The bump skips an
-- entry whose row another transaction holds (SKIP LOCKED): the bump of a hit in a role's transaction
-- holds its row until that commits, and no other caller, sync session or worker waits for that; the
-- answer is read all the same.
WITH entry AS (
  SELECT c.result, c.stop_reason FROM public.svc_cache c WHERE c.cache_key = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND c.model = $2
), bump AS (
  UPDATE public.svc_cache SET hits = hits + 1, last_hit_at = clock_timestamp()
  WHERE (cache_key, model) IN (
    SELECT l.cache_key, l.model FROM public.svc_cache l WHERE l.cache_key = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND l.model = $2
    FOR UPDATE SKIP LOCKED)
  RETURNING 1
)
SELECT result, stop_reason FROM (
  SELECT (SELECT result FROM entry) AS result, (SELECT stop_reason FROM entry) AS stop_reason, (SELECT count(*) FROM bump) AS bumped) AS r
WHERE CASE WHEN result IS NULL THEN nextval('public.svc_cache_misses') ELSE nextval('public.svc_cache_hits') END > 0
$function$;
-- grants on svc__run_worker_cache_get(text,text): {svc_owner=X/svc_owner,svc_worker=X/svc_owner}
-- comment: Internal: the body of svc_worker_cache_get, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_worker_cache_put(identity text, model text, function_name text, result text, stop_reason text)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- Store, then evict the lowest-frecency entries beyond svc.cache_size. An entry there already is not
-- inserted at all: ON CONFLICT alone would wait for a transaction whose hit bumped it (a role's,
-- left open); only workers insert entries, so no role's transaction holds one that is missing.
INSERT INTO public.svc_cache (cache_key, model, function_name, result, stop_reason)
SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex'), $2, $3, $4, $5
WHERE NOT EXISTS (SELECT FROM public.svc_cache c WHERE c.cache_key = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND c.model = $2)
ON CONFLICT (cache_key, model) DO NOTHING;

SELECT public.svc__cache_trim();
$function$;
-- grants on svc__run_worker_cache_put(text,text,text,text,text): {svc_owner=X/svc_owner,svc_worker=X/svc_owner}
-- comment: Internal: the body of svc_worker_cache_put, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_worker_claim(worker_id text, max_jobs integer, lease_seconds double precision, max_retries integer, models text[])
 RETURNS TABLE(request_id uuid, function_name text, parameters jsonb, grammar text, attempt integer, retry_count integer, priority integer, waited boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$-- The worker protocol is PL/pgSQL, whose plans are kept for the session: after five calls each
-- statement runs on a generic plan, built from the table's size at that moment. A worker polling an
-- idle queue (one just truncated, or vacuumed to zero pages) would fix plans that sequential-scan
-- svc_queue and sort it, cheapest on an empty table, and keep them when thousands of jobs arrive
-- (2-3 ms per claim with 5,000 rows, growing with the finished rows kept for svc_cleanup). Planning
-- every call costs 50-80 µs per statement instead. So these functions always run generic plans,
-- with sequential and bitmap scans disabled (the catalog's INDEX_PLANS), and each statement is
-- written so that one index alone serves it: ids through the primary key, the claim order only
-- from svc_queue_claim_idx, the earliest lease only from svc_queue_lease_idx. Their plan is then
-- the same whatever the table held when it was made. (Folding the lease probe into the claim
-- statement, through a loop over its rows, measured no faster.) The claim itself: svc__claim.
BEGIN
  RETURN QUERY SELECT * FROM public.svc__claim($1, $2, $3, $4, true, $5);
END
$function$;
-- grants on svc__run_worker_claim(text,integer,double precision,integer,text[]): {svc_owner=X/svc_owner,svc_worker=X/svc_owner}
-- comment: Internal: the body of svc_worker_claim, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_worker_cleanup(max_rows integer)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$-- Retention, done by the workers (worker/heartbeat.ts, after each heartbeat): up to max_rows finished
-- (completed, failed, cancelled) requests that finished longer ago than svc.retention are deleted, the
-- oldest first, through svc_queue_finished_idx; rows another worker is deleting are skipped. Small
-- batches keep each transaction short; the worker calls again while a batch comes back full.
-- Streamed partial text (svc_partial_results) counts only while its attempt runs: the rows of
-- requests no longer processed under that attempt go too (not counted in the result).
-- What belongs to a role that was dropped belongs to nobody (svc keeps roles' oids, never names, so a
-- role made later under that name inherits none of it): its requests still pending or processing are
-- cancelled (found by a loose scan of svc_queue_owner_active_idx: one descent per role with active
-- requests), its prompts and quotas deleted. Its vectorizers stay, queueing nothing, for an
-- svc_admin member to svc_vectorize_drop (their triggers need a superuser's function to go).
DECLARE
  removed integer;
  orphans integer;
  cutoff timestamptz := clock_timestamp() - public.svc__setting_interval('svc.retention');
BEGIN
  IF max_rows IS NULL OR max_rows < 1 THEN
    RAISE EXCEPTION 'svc_worker_cleanup: max_rows must be a positive integer' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  WITH old AS (
    SELECT q.request_id FROM public.svc_queue q
    WHERE q.status IN ('completed', 'failed', 'cancelled') AND coalesce(q.completed_at, q.failed_at, q.cancelled_at) < cutoff
    ORDER BY coalesce(q.completed_at, q.failed_at, q.cancelled_at)
    LIMIT max_rows
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM public.svc_queue q USING old WHERE q.request_id = old.request_id RETURNING 1
  )
  SELECT count(*) INTO removed FROM gone;
  -- Documents stored once for a batch (svc_documents) go with the last request that names them.
  DELETE FROM public.svc_documents d WHERE NOT EXISTS (SELECT FROM public.svc_queue q WHERE q.documents_id = d.id);
  DELETE FROM public.svc_partial_results p
  WHERE NOT EXISTS (SELECT FROM public.svc_queue q WHERE q.request_id = p.request_id AND q.status = 'processing' AND q.attempt = p.attempt);
  WITH RECURSIVE owners AS (
    (SELECT o.owner FROM public.svc_queue o WHERE o.status IN ('pending', 'processing') AND o.stored_bytes >= 0 ORDER BY o.owner LIMIT 1)
    UNION ALL
    SELECT (SELECT o.owner FROM public.svc_queue o WHERE o.status IN ('pending', 'processing') AND o.stored_bytes >= 0 AND o.owner > k.owner ORDER BY o.owner LIMIT 1)
    FROM owners k WHERE k.owner IS NOT NULL
  ), orphaned AS (
    UPDATE public.svc_queue q SET status = 'cancelled', cancelled_at = clock_timestamp(), lease_expires_at = NULL, waiter = NULL,
      error = 'cancelled: the role that submitted it was dropped'
    WHERE q.request_id = ANY (ARRAY(
      SELECT l.request_id FROM public.svc_queue l
      WHERE l.owner IN (SELECT k.owner FROM owners k WHERE k.owner IS NOT NULL AND NOT EXISTS (SELECT FROM pg_roles r WHERE r.oid = k.owner))
        AND l.status IN ('pending', 'processing') AND l.stored_bytes >= 0
      FOR UPDATE SKIP LOCKED))
    RETURNING q.request_id, q.worker_id
  )
  SELECT count(*) FILTER (WHERE pg_notify('svc_cancel', o.request_id::text) IS NOT NULL) INTO orphans FROM orphaned o WHERE o.worker_id IS NOT NULL;
  DELETE FROM public.svc_prompts p WHERE NOT EXISTS (SELECT FROM pg_roles r WHERE r.oid = p.owner);
  DELETE FROM public.svc_role_limits l WHERE NOT EXISTS (SELECT FROM pg_roles r WHERE r.oid = l.role_name);
  RETURN removed;
END
$function$;
-- grants on svc__run_worker_cleanup(integer): {svc_owner=X/svc_owner,svc_worker=X/svc_owner}
-- comment: Internal: the body of svc_worker_cleanup, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_worker_complete(request_id uuid, attempt integer, result text, stop_reason text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$-- A completion names the attempt it ran; a late one from a worker whose lease expired (and whose
-- job was claimed again) matches nothing and is refused (false).
BEGIN
  RETURN cardinality(public.svc__complete(ARRAY[$1], ARRAY[$2], ARRAY[$3], ARRAY[$4])) = 0;
END
$function$;
-- grants on svc__run_worker_complete(uuid,integer,text,text): {svc_owner=X/svc_owner,svc_worker=X/svc_owner}
-- comment: Internal: the body of svc_worker_complete, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_worker_complete_and_claim(complete_request_ids uuid[], complete_attempts integer[], results text[], worker_id text, lease_seconds double precision, max_retries integer, claim_jobs integer, models text[], stop_reasons text[])
 RETURNS TABLE(refused uuid[], request_id uuid, function_name text, parameters jsonb, grammar text, attempt integer, retry_count integer, priority integer, waited boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$-- Complete, then claim for the slots that freed: one round trip (and one transaction) for a busy
-- worker instead of two per job, and several jobs that finished together complete in one call. The
-- completion is svc_worker_complete's for each (request, attempt, result) of the three arrays; the
-- claim is svc_worker_claim's, for up to claim_jobs jobs (by default one per completion given: the
-- freed slots, whether or not a completion was stored, since the worker no longer runs that job
-- either way), without relaxing the commit (the completions must be durable). Each row carries the
-- ids whose completion was refused (refused, usually empty: cheap to return on every row); when no
-- job is claimed there is exactly one row, with refused and NULL job columns.
#variable_conflict use_column
DECLARE
  dropped uuid[];
  wanted integer := coalesce($7, cardinality($1));
BEGIN
  IF $1 IS NULL OR $2 IS NULL OR $3 IS NULL OR cardinality($1) <> cardinality($2) OR cardinality($1) <> cardinality($3)
    OR cardinality($1) <> coalesce(cardinality($9), cardinality($1)) THEN
    RAISE EXCEPTION 'svc_worker_complete_and_claim: complete_request_ids, complete_attempts, results and stop_reasons (unless NULL) must be arrays of the same length'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF array_position($1, NULL) IS NOT NULL OR array_position($2, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'svc_worker_complete_and_claim: complete_request_ids and complete_attempts must not contain NULL'
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF wanted < 0 THEN
    RAISE EXCEPTION 'svc_worker_complete_and_claim: claim_jobs must be at least 0' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  dropped := public.svc__complete($1, $2, $3, $9);
  IF wanted > 0 THEN
    RETURN QUERY SELECT dropped, c.* FROM public.svc__claim($4, wanted, $5, $6, false, $8) c;
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  refused := dropped;
  RETURN NEXT;
END
$function$;
-- grants on svc__run_worker_complete_and_claim(uuid[],integer[],text[],text,double precision,integer,integer,text[],text[]): {svc_owner=X/svc_owner,svc_worker=X/svc_owner}
-- comment: Internal: the body of svc_worker_complete_and_claim, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_worker_complete_cached(request_ids uuid[], attempts integer[], results text[], stop_reasons text[], cache_identities text[], cache_models text[], cache_functions text[], cache_results text[], cache_stop_reasons text[])
 RETURNS uuid[]
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$-- Results that finished together, and cache entries, in one statement and one transaction:
-- svc__complete's completion of each (request, attempt, result, stop reason), then one insert of
-- every entry (cache_identities[i], cache_models[i], cache_functions[i], cache_results[i],
-- cache_stop_reasons[i]: a request's own result, or each input's of a request of many, embed_many),
-- then one eviction beyond svc.cache_size. A caller has its answer and the cache holds it in the same
-- commit, so the next identical request finds it cached. Returns the ids whose completion was refused
-- (usually none); the cache entries are stored either way: they are what the requests' parameters produce.
#variable_conflict use_column
DECLARE
  n integer := cardinality(request_ids);
  m integer := cardinality(cache_identities);
  refused uuid[];
BEGIN
  IF request_ids IS NULL OR attempts IS NULL OR results IS NULL OR cardinality(attempts) <> n OR cardinality(results) <> n
    OR coalesce(cardinality(stop_reasons), n) <> n THEN
    RAISE EXCEPTION 'svc_worker_complete_cached: request_ids, attempts, results and stop_reasons (unless NULL) must be arrays of the same length'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF cache_identities IS NULL OR cache_models IS NULL OR cache_functions IS NULL OR cache_results IS NULL
    OR cardinality(cache_models) <> m OR cardinality(cache_functions) <> m OR cardinality(cache_results) <> m
    OR coalesce(cardinality(cache_stop_reasons), m) <> m THEN
    RAISE EXCEPTION 'svc_worker_complete_cached: cache_identities, cache_models, cache_functions, cache_results and cache_stop_reasons (unless NULL) must be arrays of the same length'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF array_position(request_ids, NULL) IS NOT NULL OR array_position(attempts, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'svc_worker_complete_cached: request_ids and attempts must not contain NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  refused := public.svc__complete(request_ids, attempts, results, stop_reasons);
  IF m > 0 THEN
    INSERT INTO public.svc_cache (cache_key, model, function_name, result, stop_reason)
    SELECT encode(sha256(convert_to(c.identity, 'UTF8')), 'hex'), c.model, c.function_name, c.result, cache_stop_reasons[c.i]
    FROM unnest(cache_identities, cache_models, cache_functions, cache_results) WITH ORDINALITY AS c(identity, model, function_name, result, i)
    WHERE c.identity IS NOT NULL AND c.model IS NOT NULL AND c.function_name IS NOT NULL AND c.result IS NOT NULL
      -- Not inserted when there already (see svc_worker_cache_put.sql: no wait on a role's open hit).
      AND NOT EXISTS (SELECT FROM public.svc_cache e WHERE e.cache_key = encode(sha256(convert_to(c.identity, 'UTF8')), 'hex') AND e.model = c.model)
    ON CONFLICT (cache_key, model) DO NOTHING;
    PERFORM public.svc__cache_trim();
  END IF;
  RETURN refused;
END
$function$;
-- grants on svc__run_worker_complete_cached(uuid[],integer[],text[],text[],text[],text[],text[],text[],text[]): {svc_owner=X/svc_owner,svc_worker=X/svc_owner}
-- comment: Internal: the body of svc_worker_complete_cached, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_worker_fail(request_id uuid, attempt integer, error text, max_retries integer)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$-- The status is compared with a variable, not a literal, and no row lock is waited for (see
-- svc__complete.sql): a row locked by its owner's cancel gives NULL, as a refused failure.
#variable_conflict use_column
DECLARE
  processing_ text := 'processing';
  new_status text;
  payload text;
BEGIN
  UPDATE public.svc_queue SET
    status = CASE WHEN retry_count < $4 THEN 'pending' ELSE 'failed' END,
    retry_count = CASE WHEN retry_count < $4 THEN retry_count + 1 ELSE retry_count END,
    run_after = clock_timestamp() + public.svc__backoff(retry_count),
    failed_at = CASE WHEN retry_count < $4 THEN NULL ELSE clock_timestamp() END,
    error = $3, lease_expires_at = NULL, worker_id = NULL,
    -- A request that failed for good waits for nobody (as completion clears it).
    waiter = CASE WHEN retry_count < $4 THEN waiter END
  WHERE request_id = (SELECT l.request_id FROM public.svc_queue l WHERE l.request_id = $1 AND l.status = processing_ AND l.attempt = $2 FOR UPDATE SKIP LOCKED)
  RETURNING status, public.svc__completed_payload(request_id, function_name, status) INTO new_status, payload;
  IF new_status = 'failed' THEN
    PERFORM pg_notify('svc_completed', payload);
    -- The source rows a failed vectorizer job was embedding (none for other jobs: an index probe), but
    -- those a role's write to the source holds (it queues them again, or forgets them, as it commits).
    UPDATE public.svc_vectorizer_rows r SET state = 'failed', error = $3, done_at = clock_timestamp()
    WHERE (r.vectorizer, r.key) IN (SELECT l.vectorizer, l.key FROM public.svc_vectorizer_rows l WHERE l.request_id = $1 FOR UPDATE SKIP LOCKED);
  END IF;
  RETURN new_status;
END
$function$;
-- grants on svc__run_worker_fail(uuid,integer,text,integer): {svc_owner=X/svc_owner,svc_worker=X/svc_owner}
-- comment: Internal: the body of svc_worker_fail, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_worker_heartbeat(worker_id text, host text, pid integer, state text, concurrency integer, model text, jobs_done bigint, jobs_failed bigint, jobs_in_flight integer, models jsonb, capabilities jsonb)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- `models`: the names this worker serves, each with the identity of the file it loaded (NULL: one
-- model, 'default', of identity `model`). A name not yet in svc_models is declared, serving every
-- function the file can serve; the identity of each is recorded there, for the cache. `capabilities`
-- ({"name": {"serves": [functions], "dimension": n}}, read from each GGUF; absent for an inference
-- server): recorded, and a name's serves narrowed to it, so that an embedding model is never offered
-- for generation, and a vectorizer's dimensions are checked against the model's (#45); `context`, the
-- context it is served with, for svc_summarize's chunks.
WITH served AS (
  SELECT key AS name, value AS identity,
    CASE WHEN jsonb_typeof($11 -> key -> 'serves') = 'array'
      THEN ARRAY(SELECT f FROM unnest(ARRAY['generate', 'embed', 'rerank']) AS f WHERE ($11 -> key -> 'serves') ? f) END AS capabilities,
    CASE WHEN jsonb_typeof($11 -> key -> 'dimension') = 'number' THEN ($11 -> key ->> 'dimension')::integer END AS dimension,
    CASE WHEN jsonb_typeof($11 -> key -> 'context') = 'number' THEN ($11 -> key ->> 'context')::integer END AS context_size
  FROM jsonb_each_text(coalesce($10, jsonb_build_object('default', $6)))
), declared AS (
  INSERT INTO public.svc_models AS m (name, identity, loaded_at, serves, capabilities, dimension, context_size)
  SELECT name, identity, clock_timestamp(), coalesce(nullif(capabilities, '{}'), ARRAY['generate', 'embed', 'rerank']), capabilities, dimension, context_size FROM served
  -- A worker still loading its models ('starting') knows their names, not what they are: it records nothing of them yet.
  WHERE $4 <> 'starting'
  ON CONFLICT (name) DO UPDATE SET identity = coalesce(excluded.identity, m.identity), loaded_at = excluded.loaded_at,
    capabilities = excluded.capabilities, dimension = excluded.dimension, context_size = excluded.context_size,
    serves = CASE WHEN excluded.capabilities IS NULL OR m.serves <@ excluded.capabilities THEN m.serves
      ELSE coalesce(nullif(ARRAY(SELECT f FROM unnest(m.serves) AS f WHERE f = ANY (excluded.capabilities)), '{}'), excluded.capabilities) END
  WHERE (excluded.identity IS NOT NULL AND m.identity IS DISTINCT FROM excluded.identity) OR m.capabilities IS DISTINCT FROM excluded.capabilities
    OR m.dimension IS DISTINCT FROM excluded.dimension OR m.context_size IS DISTINCT FROM excluded.context_size
)
INSERT INTO public.svc_workers AS w (worker_id, host, pid, state, concurrency, model, jobs_done, jobs_failed, jobs_in_flight, models)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ARRAY(SELECT name FROM served ORDER BY name))
ON CONFLICT (worker_id) DO UPDATE SET state = excluded.state, concurrency = excluded.concurrency,
  model = excluded.model, jobs_done = excluded.jobs_done, jobs_failed = excluded.jobs_failed,
  jobs_in_flight = excluded.jobs_in_flight, models = excluded.models, last_heartbeat = clock_timestamp()
$function$;
-- grants on svc__run_worker_heartbeat(text,text,integer,text,integer,text,bigint,bigint,integer,jsonb,jsonb): {svc_owner=X/svc_owner,svc_worker=X/svc_owner}
-- comment: Internal: the body of svc_worker_heartbeat, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_worker_progress(request_id uuid, attempt integer, partial_result text, tokens integer)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- Streaming: the text a worker has generated so far for a request it is running, stored while that
-- attempt still processes the request (else false: its lease was lost, or it finished), and announced
-- on svc_progress with the request and its token count only: the text stays in svc_partial_results,
-- where only the request's owner reads it (any role may LISTEN, and a payload holds 8000 bytes).
#variable_conflict use_column
DECLARE
  owner_ regrole;
BEGIN
  IF $1 IS NULL OR $2 IS NULL OR $3 IS NULL OR $4 IS NULL THEN
    RAISE EXCEPTION 'svc_worker_progress: request_id, attempt, partial_result and tokens must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF $4 < 0 THEN
    RAISE EXCEPTION 'svc_worker_progress: tokens must not be negative (got %)', $4 USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT q.owner INTO owner_ FROM public.svc_queue q WHERE q.request_id = $1 AND q.status = 'processing' AND q.attempt = $2;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  INSERT INTO public.svc_partial_results AS p (request_id, attempt, owner, partial_result, tokens, updated_at)
  VALUES ($1, $2, owner_, $3, $4, clock_timestamp())
  ON CONFLICT (request_id) DO UPDATE SET attempt = excluded.attempt, owner = excluded.owner,
    partial_result = excluded.partial_result, tokens = excluded.tokens, updated_at = excluded.updated_at;
  PERFORM pg_notify('svc_progress', json_build_object('request_id', $1, 'tokens', $4)::text);
  RETURN true;
END
$function$;
-- grants on svc__run_worker_progress(uuid,integer,text,integer): {svc_owner=X/svc_owner,svc_worker=X/svc_owner}
-- comment: Internal: the body of svc_worker_progress, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_worker_released(worker_id text, request_ids uuid[])
 RETURNS uuid[]
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET jit TO 'off'
AS $function$-- Of the jobs a worker holds (claimed ahead or running), those it must let go: no longer processing
-- under this worker (their owner cancelled them with svc_cancel_async, or their lease was lost), and
-- synchronous requests whose caller stopped waiting (its waiter lock is free), cancelled here. The
-- worker asks on each svc_cancel notification that names a job it holds (any role may NOTIFY, so the
-- notification alone proves nothing) and every second for what it holds; it drops what comes back
-- from its backlog and stops what runs at its next token, writing nothing (worker/releases.ts).
-- Lookups by id only; the status is compared with a variable, and no row lock is waited for (see
-- svc__complete.sql: a row locked by its owner's cancel is let go once that commits, announced).
#variable_conflict use_column
DECLARE
  processing_ text := 'processing';
BEGIN
  IF $1 IS NULL OR $2 IS NULL THEN
    RAISE EXCEPTION 'svc_worker_released: worker_id and request_ids must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  UPDATE public.svc_queue q SET status = 'cancelled', cancelled_at = clock_timestamp(), waiter = NULL, lease_expires_at = NULL,
    error = 'cancelled: its synchronous caller stopped waiting'
  WHERE q.request_id = ANY (ARRAY(
    SELECT l.request_id FROM public.svc_queue l
    WHERE l.request_id = ANY ($2)
      -- The lock is tried only for these rows (a CASE orders it after them; a NULL waiter gives NULL),
      -- and no clause names the waiter alone, so svc_queue_waiter_idx never serves this lookup by id.
      AND CASE WHEN l.status = processing_ AND l.worker_id = $1 THEN pg_try_advisory_xact_lock(public.svc__sync_waiter_lock_key(), l.waiter) ELSE false END
    FOR UPDATE SKIP LOCKED));
  RETURN ARRAY(
    SELECT given.id FROM unnest($2) AS given(id)
    WHERE NOT EXISTS (SELECT FROM public.svc_queue q WHERE q.request_id = given.id AND q.status = processing_ AND q.worker_id = $1));
END
$function$;
-- grants on svc__run_worker_released(text,uuid[]): {svc_owner=X/svc_owner,svc_worker=X/svc_owner}
-- comment: Internal: the body of svc_worker_released, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__run_worker_renew(worker_id text, request_ids uuid[], lease_seconds double precision)
 RETURNS integer
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- Never waits for a row lock (see svc__complete.sql): a row locked by its owner's cancel, left
-- uncommitted, would hold up the renewal of every lease the worker holds.
WITH renewed AS (
  UPDATE public.svc_queue SET lease_expires_at = clock_timestamp() + make_interval(secs => $3)
  WHERE request_id = ANY (ARRAY(
    SELECT l.request_id FROM public.svc_queue l WHERE l.request_id = ANY ($2) AND l.worker_id = $1 AND l.status = 'processing'
    FOR UPDATE SKIP LOCKED))
  RETURNING 1
)
SELECT count(*)::integer FROM renewed
$function$;
-- grants on svc__run_worker_renew(text,uuid[],double precision): {svc_owner=X/svc_owner,svc_worker=X/svc_owner}
-- comment: Internal: the body of svc_worker_renew, run by its relay (svc_relay).

CREATE OR REPLACE FUNCTION public.svc__setting(name text)
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- A setting's value in this session, or its default (svc_settings) when unset or empty.
SELECT value FROM public.svc_settings() WHERE name = $1
$function$;
-- grants on svc__setting(text): {svc_owner=X/svc_owner}
-- comment: Internal: a setting's value in this session, or its default (as svc_settings lists them).

CREATE OR REPLACE FUNCTION public.svc__setting_integer(name text, minimum bigint)
 RETURNS bigint
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- An integer setting (svc.cache_size) of at least `minimum`, or its default: a malformed value is an
-- error naming the setting, as settings.ts's integerSetting words it for the plv8 functions.
DECLARE
  raw text := public.svc__setting(name);
BEGIN
  IF raw IS NULL OR btrim(raw) !~ '^[+-]?[0-9]{1,18}$' OR btrim(raw)::bigint < minimum THEN
    RAISE EXCEPTION 'setting % must be an integer of at least % (is "%")', name, minimum, raw USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN btrim(raw)::bigint;
END
$function$;
-- grants on svc__setting_integer(text,bigint): {svc_owner=X/svc_owner}
-- comment: Internal: an integer setting of at least minimum, or an error naming it.

CREATE OR REPLACE FUNCTION public.svc__setting_interval(name text)
 RETURNS interval
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- An interval setting (svc.retry_backoff), zero or more, or its default: a malformed value is an
-- error naming the setting.
DECLARE
  raw text := public.svc__setting(name);
  value interval;
BEGIN
  BEGIN
    value := raw::interval;
  EXCEPTION WHEN invalid_datetime_format OR datetime_field_overflow OR interval_field_overflow OR syntax_error THEN
    value := NULL;
  END;
  IF value IS NULL OR value < interval '0' THEN
    RAISE EXCEPTION 'setting % must be an interval of zero or more such as ''1s'' (is "%")', name, raw USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN value;
END
$function$;
-- grants on svc__setting_interval(text): {svc_owner=X/svc_owner}
-- comment: Internal: an interval setting of zero or more, or an error naming it.

CREATE OR REPLACE FUNCTION public.svc__stream_next(state jsonb)
 RETURNS jsonb
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__stream_next(jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: svc_generate_stream's next row: the text the request's worker wrote since the last one, or the rest of its result.

CREATE OR REPLACE FUNCTION public.svc__stream_start(prompt text, max_tokens integer, use_cache boolean, seed integer, temperature double precision, top_k integer, top_p double precision, min_p double precision, stop text[])
 RETURNS jsonb
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__stream_start(text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): {svc_owner=X/svc_owner}
-- comment: Internal: svc_generate_stream's first row: the request submitted (as a sync call's, marked stream), or the whole text from the cache.

CREATE OR REPLACE FUNCTION public.svc__summarize_combine(a jsonb, b jsonb)
 RETURNS jsonb
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__summarize_combine(jsonb,jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: svc_summarize's combine: the rows of a, then those of b.

CREATE OR REPLACE FUNCTION public.svc__summarize_final(state jsonb)
 RETURNS text
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__summarize_final(jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: svc_summarize's final: the partial summaries and the text left combined into one summary.

CREATE OR REPLACE FUNCTION public.svc__summarize_merge(state jsonb, partial jsonb)
 RETURNS jsonb
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__summarize_merge(jsonb,jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: svc_summarize_final's transition: a stored partial, checked, combined after the state.

CREATE OR REPLACE FUNCTION public.svc__summarize_partial(state jsonb)
 RETURNS jsonb
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__summarize_partial(jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: svc_summarize_partial's final: the group's state as a storable value (NULL for no text).

CREATE OR REPLACE FUNCTION public.svc__summarize_partial_step(state jsonb, body text)
 RETURNS jsonb
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__summarize_partial_step(jsonb,text): {svc_owner=X/svc_owner}
-- comment: Internal: svc_summarize_partial's transition: svc_summarize's, its options as jsonb.

CREATE OR REPLACE FUNCTION public.svc__summarize_partial_step(state jsonb, body text, options jsonb)
 RETURNS jsonb
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__summarize_partial_step(jsonb,text,jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: svc_summarize_partial's transition: svc_summarize's, its options as jsonb.

CREATE OR REPLACE FUNCTION public.svc__summarize_step(state jsonb, body text)
 RETURNS jsonb
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__summarize_step(jsonb,text): {svc_owner=X/svc_owner}
-- comment: Internal: svc_summarize's transition: one row's text taken, each chunk that fills summarized.

CREATE OR REPLACE FUNCTION public.svc__summarize_step(state jsonb, body text, max_tokens integer)
 RETURNS jsonb
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__summarize_step(jsonb,text,integer): {svc_owner=X/svc_owner}
-- comment: Internal: svc_summarize's transition: one row's text taken, each chunk that fills summarized.

CREATE OR REPLACE FUNCTION public.svc__summarize_step(state jsonb, body text, max_tokens integer, seed integer)
 RETURNS jsonb
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__summarize_step(jsonb,text,integer,integer): {svc_owner=X/svc_owner}
-- comment: Internal: svc_summarize's transition: one row's text taken, each chunk that fills summarized.

CREATE OR REPLACE FUNCTION public.svc__summarize_step(state jsonb, body text, options jsonb)
 RETURNS jsonb
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__summarize_step(jsonb,text,jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: svc_summarize(body, options)'s transition: svc_summarize's, its options (max_tokens, seed) as jsonb.

CREATE OR REPLACE FUNCTION public.svc__sync_cancel(request_ids uuid[], token text)
 RETURNS integer
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- A sync call's requests cancelled from its autonomous session when its wait ends in an error or a
-- timeout (the caller's own transaction may be about to roll back, or sit aborted, its waiter lock
-- still held): only those submitted with this call's token, pending or processing. A processing one
-- is announced on svc_cancel, so that the worker running it (or holding it claimed ahead) lets it go
-- (svc_worker_released). Returns how many were cancelled.
WITH cancelled AS (
  UPDATE public.svc_queue q SET status = 'cancelled', cancelled_at = now(), waiter = NULL, lease_expires_at = NULL
  WHERE q.request_id = ANY (ARRAY(
    SELECT l.request_id FROM public.svc_queue l
    WHERE l.request_id = ANY ($1) AND l.status IN ('pending', 'processing') AND l.sync_token = sha256(convert_to($2, 'UTF8'))
    -- A row its owner's svc_cancel_async holds is being cancelled already; waiting for that would
    -- hold the autonomous session on what the role controls.
    FOR UPDATE SKIP LOCKED))
  RETURNING q.request_id, q.worker_id
)
SELECT count(*)::integer FROM cancelled c WHERE c.worker_id IS NULL OR pg_notify('svc_cancel', c.request_id::text) IS NOT NULL
$function$;
-- grants on svc__sync_cancel(uuid[],text): {svc_owner=X/svc_owner,svc_sync=X/svc_owner}
-- comment: Internal: cancel the pending or processing requests a sync call submitted with its token (the processing ones announced on svc_cancel); run in the autonomous session.

CREATE OR REPLACE FUNCTION public.svc__sync_dblink(action text, target jsonb, application_name text, statement text)
 RETURNS SETOF text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- svc's one door to dblink (autonomous.ts). Owned by the superuser who installed svc and executable by
-- svc_owner alone: dblink_connect_u, and a one-shot dblink() without a password, are a superuser's,
-- so svc_owner is given this instead (docs/security.md, "Who owns svc's objects"). Whatever it is
-- asked, it opens sessions only as svc_sync, to this database, with svc's options (search_path
-- pg_catalog and pg_temp, track_activities off), where the administrator's target says: `target` is
-- svc_config's value, read by svc_owner and passed in as a value; only the keywords svc_set_sync_
-- connection accepts are taken. It reads no table and calls nothing svc_owner owns or could change:
-- nothing of svc_owner's runs here as the superuser.
--   'connect': open the kept connection, named svc_sync; 'disconnect': close it;
--   'run': the statement on it; 'run_once': the statement in a session of its own, named
--   application_name, which dblink closes when the statement ends, however it ends;
--   'describe': the connection string of `target`, its password masked.
-- Statements return one text column; their rows come back as they are. dblink is called by its
-- schema, read from the catalog (an administrator's choice, wherever CREATE EXTENSION put it): the
-- search_path is pg_catalog's alone, and PostgreSQL 15 has no @extschema:dblink@.
DECLARE
  dblink_ text := (SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'dblink');
  conninfo text := '';
  part record;
  given record;
BEGIN
  IF action = 'disconnect' THEN
    EXECUTE format('SELECT %s.dblink_disconnect($1)', dblink_) USING 'svc_sync';
    RETURN;
  ELSIF action = 'run' THEN
    RETURN QUERY EXECUTE format('SELECT t.r FROM %s.dblink($1, $2) AS t(r text)', dblink_) USING 'svc_sync', statement;
    RETURN;
  ELSIF action IS NULL OR action NOT IN ('connect', 'run_once', 'describe') THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = format('svc__sync_dblink: action must be connect, disconnect, run, run_once or describe (is %L)', action);
  END IF;
  IF target IS NULL OR jsonb_typeof(target) <> 'object' THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'svc__sync_dblink: target must be a JSON object';
  END IF;
  FOR given IN SELECT e.key, jsonb_typeof(e.value) AS type FROM jsonb_each(target) e LOOP
    IF given.key NOT IN ('host', 'hostaddr', 'port', 'password', 'connect_timeout', 'sslmode', 'channel_binding') OR given.type <> 'string' THEN
      RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = format('svc__sync_dblink: the target may not set %I (or set it to a %s)', given.key, given.type);
    END IF;
  END LOOP;
  -- This server's first unix socket and port unless the target says otherwise; then svc's own.
  FOR part IN
    SELECT p.keyword, p.value FROM (VALUES
      (1, 'host', coalesce(target->>'host', nullif(btrim(split_part(current_setting('unix_socket_directories'), ',', 1)), ''), 'localhost')),
      (2, 'port', coalesce(target->>'port', current_setting('port'))),
      (3, 'hostaddr', target->>'hostaddr'),
      (4, 'connect_timeout', target->>'connect_timeout'),
      (5, 'password', CASE WHEN action = 'describe' AND target ? 'password' THEN '********' ELSE target->>'password' END),
      (6, 'sslmode', target->>'sslmode'),
      (7, 'channel_binding', target->>'channel_binding'),
      (8, 'dbname', current_database()::text),
      (9, 'user', 'svc_sync'),
      (10, 'options', '-c search_path=pg_catalog,pg_temp -c track_activities=off'),
      (11, 'application_name', coalesce(application_name, 'svc_sync'))
    ) AS p(ord, keyword, value)
    WHERE p.value IS NOT NULL ORDER BY p.ord
  LOOP
    -- libpq's quoting: single quotes, a backslash before a quote or a backslash.
    conninfo := conninfo || CASE WHEN conninfo = '' THEN '' ELSE ' ' END || part.keyword || '='''
      || replace(replace(part.value, E'\\', E'\\\\'), '''', E'\\''') || '''';
  END LOOP;
  IF action = 'describe' THEN
    RETURN NEXT conninfo;
  ELSIF action = 'connect' THEN
    EXECUTE format('SELECT %s.dblink_connect_u($1, $2)', dblink_) USING 'svc_sync', conninfo;
  ELSE
    RETURN QUERY EXECUTE format('SELECT t.r FROM %s.dblink($1, $2) AS t(r text)', dblink_) USING conninfo, statement;
  END IF;
  RETURN;
END
$function$;
-- grants on svc__sync_dblink(text,jsonb,text,text): {postgres=X/postgres,svc_owner=X/postgres}
-- comment: Internal: svc's one door to dblink (svc_owner's only): the autonomous session, always as svc_sync to this database, where target says.

CREATE OR REPLACE FUNCTION public.svc__sync_state(request_ids uuid[], token text)
 RETURNS TABLE(request_id uuid, status text, result text, error text)
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- The states of a sync call's requests, for the autonomous session of a caller waiting under
-- REPEATABLE READ or SERIALIZABLE (whose own snapshot would not show the answers): only those
-- submitted with this call's token (svc_queue.sync_token holds its digest), which only the waiting
-- backend and its autonomous session know.
SELECT q.request_id, q.status, q.result, q.error FROM public.svc_queue q
WHERE q.request_id = ANY ($1) AND q.sync_token = sha256(convert_to($2, 'UTF8'))
$function$;
-- grants on svc__sync_state(uuid[],text): {svc_owner=X/svc_owner,svc_sync=X/svc_owner}
-- comment: Internal: the states of the requests a sync call submitted with its token; run in the autonomous session.

CREATE OR REPLACE FUNCTION public.svc__sync_submit(payload jsonb)
 RETURNS uuid[]
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc__sync_submit(jsonb): {svc_owner=X/svc_owner,svc_sync=X/svc_owner}
-- comment: Internal: enqueue a sync call's requests for payload.owner, checked again, for the backend that holds the call's locks; run in the autonomous session.

CREATE OR REPLACE FUNCTION public.svc__sync_token_key(token text)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- The advisory lock (one bigint key) a sync call's waiting backend holds for its token: the first 64
-- bits of the token's SHA-256. pg_locks shows the key to every role, never the token.
SELECT ('x' || left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 16))::bit(64)::bigint
$function$;
-- grants on svc__sync_token_key(text): {svc_owner=X/svc_owner}
-- comment: Internal: the advisory lock key of a sync call's token (the first 64 bits of its SHA-256).

CREATE OR REPLACE FUNCTION public.svc__sync_waiter_lock_key()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$SELECT 1937138551
$function$;
-- grants on svc__sync_waiter_lock_key(): {svc_owner=X/svc_owner}
-- comment: Internal: the first key of the advisory lock a sync call holds while it waits ('svcw'; the second is its waiter key).

CREATE OR REPLACE FUNCTION public.svc__sync_waiter_may_act_as(backend_pid integer, waiter integer, token text, owner oid)
 RETURNS boolean
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- Whether backend `backend_pid`, connected to this database, waits for a sync call: it holds the waiter
-- lock `waiter` (svc__sync_waiter_lock_key(), 'svcw', and the session's key; a two-key
-- advisory lock shows as objsubid 2, its keys as unsigned classid and objid) and the lock of `token`
-- (svc__sync_token_key: one bigint key, objsubid 1, its high and low 32 bits as classid and objid),
-- and its login role may act as the role of oid `owner` (is a member of it: what SET ROLE requires). svc__sync_submit
-- acts only for such a backend, so whoever reaches the autonomous session can submit for nobody but a
-- call whose token it was given. The lock table is read once for both locks: each read copies all of
-- it, and this runs for every sync call (#55).
DECLARE
  holder oid;
  db oid := (SELECT d.oid FROM pg_database d WHERE d.datname = current_database());
  token_key bigint := public.svc__sync_token_key(token);
BEGIN
  IF backend_pid IS NULL OR waiter IS NULL OR token IS NULL OR owner IS NULL OR (
    SELECT count(DISTINCT l.objsubid) FROM pg_lock_status() l
    WHERE l.locktype = 'advisory' AND l.pid = backend_pid AND l.granted AND l.database = db
      AND ((l.objsubid = 2 AND l.classid = public.svc__sync_waiter_lock_key()::oid AND l.objid = (waiter::bigint & 4294967295)::oid)
        OR (l.objsubid = 1 AND l.classid = ((token_key >> 32) & 4294967295)::oid AND l.objid = (token_key & 4294967295)::oid))
  ) < 2 THEN
    RETURN false;
  END IF;
  SELECT a.usesysid INTO holder FROM pg_stat_get_activity(backend_pid) a;
  RETURN holder IS NOT NULL AND EXISTS (SELECT FROM pg_roles r WHERE r.oid = owner) AND pg_has_role(holder, owner, 'MEMBER');
END
$function$;
-- grants on svc__sync_waiter_may_act_as(integer,integer,text,oid): {svc_owner=X/svc_owner}
-- comment: Internal: whether backend backend_pid of this database holds the waiter lock and the token's lock, and its login role may act as owner.

CREATE OR REPLACE FUNCTION public.svc__tables_as_made(caller text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- The superuser's functions (svc_vectorize, svc_vectorize_drop: docs/security.md, "Who owns svc's
-- objects") read and write these tables of svc_owner's. What their owner could attach to a table runs
-- as whoever writes it: a trigger, a rule (a view in the table's place), a default, a constraint, an
-- index or a column type that calls a function, operator or type outside pg_catalog, an inheritance.
-- So before they touch them, this refuses (naming what it found and the function `caller`) unless the
-- tables are as svc made them: a slip in code running as svc_owner stays svc_owner's. The tables are
-- locked against DDL (ROW EXCLUSIVE) until the transaction ends, so nothing is attached in between.
-- Owned by the superuser and SECURITY INVOKER: svc_owner cannot change it, and it runs as its caller.
DECLARE
  tables regclass[] := ARRAY['public.svc_vectorizers', 'public.svc_vectorizer_rows', 'public.svc_queue', 'public.svc_models']::regclass[];
  found text;
BEGIN
  LOCK TABLE public.svc_vectorizers, public.svc_vectorizer_rows, public.svc_queue, public.svc_models IN ROW EXCLUSIVE MODE;
  SELECT format('%s: %s', x.rel, x.what) INTO found FROM (
    SELECT c.oid::regclass AS rel, 'it is no longer a plain table' AS what FROM pg_class c WHERE c.oid = ANY (tables) AND c.relkind <> 'r'
    UNION ALL
    SELECT t.tgrelid::regclass, format('trigger %I', t.tgname) FROM pg_trigger t WHERE t.tgrelid = ANY (tables) AND NOT t.tgisinternal
    UNION ALL
    SELECT r.ev_class::regclass, format('rule %I', r.rulename) FROM pg_rewrite r WHERE r.ev_class = ANY (tables)
    UNION ALL
    SELECT i.inhrelid::regclass, format('inheritance from or by %s', i.inhparent::regclass) FROM pg_inherits i
    WHERE i.inhrelid = ANY (tables) OR i.inhparent = ANY (tables)
    UNION ALL
    -- Built-in objects are pinned and get no pg_depend rows: any row here names something else.
    SELECT o.rel::regclass, format('%s uses %s', o.kind, pg_describe_object(d.refclassid, d.refobjid, 0))
    FROM (
      SELECT c.oid AS rel, 'pg_class'::regclass AS classid, c.oid AS objid, 'a column' AS kind FROM pg_class c WHERE c.oid = ANY (tables)
      UNION ALL SELECT i.indrelid, 'pg_class'::regclass, i.indexrelid, 'an index' FROM pg_index i WHERE i.indrelid = ANY (tables)
      UNION ALL SELECT c.conrelid, 'pg_constraint'::regclass, c.oid, 'a constraint' FROM pg_constraint c WHERE c.conrelid = ANY (tables)
      UNION ALL SELECT a.adrelid, 'pg_attrdef'::regclass, a.oid, 'a default' FROM pg_attrdef a WHERE a.adrelid = ANY (tables)
    ) o
    JOIN pg_depend d ON d.classid = o.classid AND d.objid = o.objid
    WHERE d.refclassid IN ('pg_proc'::regclass, 'pg_type'::regclass, 'pg_operator'::regclass, 'pg_opclass'::regclass, 'pg_opfamily'::regclass, 'pg_collation'::regclass)
  ) x LIMIT 1;
  IF found IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'object_not_in_prerequisite_state',
      MESSAGE = format('%s: svc''s table %s, which svc did not make', caller, found),
      DETAIL = 'svc_owner owns svc''s tables; what it attaches to one would run as the superuser whose function writes it.',
      HINT = 'A superuser removes it (and finds out how it came there).';
  END IF;
END
$function$;
-- grants on svc__tables_as_made(text): {postgres=X/postgres}
-- comment: Internal: refuses, naming it, anything svc did not make on the svc_owner tables the superuser's functions write (a trigger, a rule, a default, ...).

CREATE OR REPLACE FUNCTION public.svc__vectorizer_apply(request uuid, job_parameters jsonb, job_result text)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- Called by the completion of a 'vectorize' job (svc__complete): writes the chunks of the items that
-- this request still stands for into the vectorizer's destination, marks them done, and returns what
-- the queue row keeps as its result: counts, not vectors. The worker's result lists each item's chunks
-- in the order of the job's items; the keys are taken from the job's parameters, as svc wrote them (a
-- key that went through JavaScript could come back changed: a bigint beyond 2^53). Items that a later
-- change gave a newer request, or whose source row is gone, are skipped.
--
-- Nothing of any role's runs here: the destination is svc_owner's, of base types and enums only, named
-- from its oid (svc__vectorizer_destination). What a role can do is hold locks: the vectorizer's row
-- (svc_vectorize_drop, taken first here too, so the two never deadlock), its rows of
-- svc_vectorizer_rows (a write to the source, until it commits), the destination (its schema's owner
-- dropping it). The worker runs this under a lock and a statement timeout (worker/vectorize.ts): a
-- source row locked past it fails the completion, and the job is retried; a destination locked past
-- it, or gone, or any other failure of the write, marks this job's rows failed with the message.
DECLARE
  v public.svc_vectorizers;
  mine jsonb;
  given integer := jsonb_array_length(job_parameters->'items');
  result_items jsonb;
  pairs jsonb;
  chunk_rows jsonb;
  written integer;
  refused integer;
  dest text;
  svc_schema text := (SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'svc');
BEGIN
  SELECT * INTO v FROM public.svc_vectorizers WHERE id = (job_parameters->>'vectorizer')::integer FOR SHARE;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('rows', 0, 'chunks', 0, 'skipped', given, 'note', 'the vectorizer was dropped')::text;
  END IF;
  SELECT jsonb_agg(r.key) INTO mine
  FROM (SELECT key FROM public.svc_vectorizer_rows WHERE vectorizer = v.id AND request_id = request FOR UPDATE) AS r;
  IF mine IS NULL THEN
    RETURN jsonb_build_object('rows', 0, 'chunks', 0, 'skipped', given)::text;
  END IF;
  BEGIN
    -- Parsed once, inside the block: a result that is not JSON fails these rows, not the completion.
    result_items := job_result::jsonb->'items';
    IF jsonb_array_length(result_items) IS DISTINCT FROM given THEN
      RAISE EXCEPTION 'the worker returned % items for a job of %', jsonb_array_length(result_items), given;
    END IF;
    -- Each item still this request's, with its chunks: [{key, chunks}].
    SELECT jsonb_agg(jsonb_build_object('key', p.item->'key', 'chunks', coalesce(r.item->'chunks', '[]'), 'error', r.item->'error')) INTO pairs
    FROM jsonb_array_elements(job_parameters->'items') WITH ORDINALITY AS p(item, n)
    JOIN jsonb_array_elements(result_items) WITH ORDINALITY AS r(item, n) USING (n)
    WHERE p.item->'key' IN (SELECT jsonb_array_elements(mine));
    SELECT coalesce(jsonb_agg(x.item->'key' || jsonb_build_object('chunk_index', c.ord - 1, 'chunk', c.chunk->'text', 'embedding', c.chunk->'embedding')), '[]')
    INTO chunk_rows
    FROM jsonb_array_elements(pairs) AS x(item), jsonb_array_elements(x.item->'chunks') WITH ORDINALITY AS c(chunk, ord);
    dest := public.svc__vectorizer_destination(v.destination);
    IF dest IS NULL THEN
      RAISE EXCEPTION 'the destination of vectorizer % no longer exists: svc_vectorize_drop it and declare it again', v.name;
    END IF;
    -- The rows' old chunks go, then the new ones: each chunk's columns from its object but the
    -- embedding, which comes as the worker's float32 bytes in base64 (worker/vectorize.ts) and goes in
    -- through svc__reals (a vector column takes the real[] by pgvector's assignment cast).
    PERFORM public.svc__vectorizer_delete_chunks(dest, v.key_columns, mine);
    EXECUTE format('INSERT INTO %1$s (%2$s, chunk_index, chunk, embedding) SELECT %3$s, p.chunk_index, p.chunk, %4$s.svc__reals(pg_catalog.decode(r.value OPERATOR(pg_catalog.->>) ''embedding'', ''base64''))'
      ' FROM pg_catalog.jsonb_array_elements($1) AS r, pg_catalog.jsonb_populate_record(NULL::%1$s, r.value OPERATOR(pg_catalog.-) ''embedding''::text) AS p',
      dest,
      (SELECT string_agg(format('%I', c), ', ') FROM unnest(v.key_columns) AS c),
      (SELECT string_agg(format('p.%I', c), ', ') FROM unnest(v.key_columns) AS c),
      svc_schema) USING chunk_rows;
    UPDATE public.svc_vectorizer_rows r SET state = CASE WHEN x.item->'error' IS NULL OR x.item->'error' = 'null' THEN 'done' ELSE 'failed' END,
      chunks = jsonb_array_length(x.item->'chunks'), error = x.item->>'error', done_at = clock_timestamp()
    FROM jsonb_array_elements(pairs) AS x(item)
    WHERE r.vectorizer = v.id AND r.request_id = request AND r.key = x.item->'key';
    GET DIAGNOSTICS written = ROW_COUNT;
    SELECT count(*) INTO refused FROM jsonb_array_elements(pairs) AS x(item) WHERE jsonb_typeof(x.item->'error') = 'string';
  EXCEPTION WHEN OTHERS THEN
    UPDATE public.svc_vectorizer_rows SET state = 'failed', error = SQLERRM, done_at = clock_timestamp() WHERE vectorizer = v.id AND request_id = request;
    RETURN jsonb_build_object('rows', 0, 'chunks', 0, 'failed', jsonb_array_length(mine), 'error', SQLERRM)::text;
  END;
  -- 'refused': the rows the worker refused (counted in rows, marked failed); absent when none.
  RETURN (jsonb_build_object('rows', written, 'chunks', jsonb_array_length(chunk_rows), 'skipped', given - written)
    || CASE WHEN refused > 0 THEN jsonb_build_object('refused', refused) ELSE '{}' END)::text;
END
$function$;
-- grants on svc__vectorizer_apply(uuid,jsonb,text): {svc_owner=X/svc_owner}
-- comment: Internal (svc__complete): write a vectorize job's chunks into the vectorizer's destination, for the rows it still stands for; returns the counts the queue keeps.

CREATE OR REPLACE FUNCTION public.svc__vectorizer_delete_chunks(destination text, key_columns text[], keys jsonb)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- Deletes the chunks of these source keys (jsonb objects of the key columns) from a destination that
-- svc__vectorizer_destination named and locked. The keys are compared typed, as the destination stores
-- them: its key columns are of base types or enums, whose input and equality are PostgreSQL's own.
BEGIN
  EXECUTE format('DELETE FROM %s d USING pg_catalog.jsonb_populate_recordset(NULL::%s, $1) k WHERE %s', destination, destination,
    (SELECT string_agg(format('d.%I OPERATOR(pg_catalog.=) k.%I', c, c), ' AND ') FROM unnest(key_columns) AS c))
  USING keys;
END
$function$;
-- grants on svc__vectorizer_delete_chunks(text,text[],jsonb): {svc_owner=X/svc_owner}
-- comment: Internal: delete the chunks of these source keys from a destination svc__vectorizer_destination named and locked.

CREATE OR REPLACE FUNCTION public.svc__vectorizer_destination(destination regclass)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- A vectorizer's destination as SQL names it, locked against DDL (ROW EXCLUSIVE) until the transaction
-- ends, for svc's own writes (svc__vectorizer_forget, svc__vectorizer_apply); NULL when it is gone.
-- The name is taken from the table's oid and read back after the lock: the destination lives in the
-- role's schema, whose owner may drop it and make a table of that name, with triggers of hers, that a
-- name looked up once could reach. Only the table svc made, still svc_owner's, is ever named.
DECLARE
  rel text;
BEGIN
  SELECT format('%I.%I', n.nspname, c.relname) INTO rel
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.oid = destination AND c.relkind = 'r' AND c.relowner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = 'svc_owner');
  IF rel IS NULL THEN
    RETURN NULL;
  END IF;
  EXECUTE format('LOCK TABLE ONLY %s IN ROW EXCLUSIVE MODE', rel);
  IF to_regclass(rel) IS DISTINCT FROM destination THEN
    RAISE EXCEPTION 'the destination of a vectorizer was replaced while svc wrote it (%)', rel USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  RETURN rel;
END
$function$;
-- grants on svc__vectorizer_destination(regclass): {svc_owner=X/svc_owner}
-- comment: Internal: a vectorizer's destination named from its oid and locked (ROW EXCLUSIVE), only while it is the table svc made; NULL when gone.

CREATE OR REPLACE FUNCTION public.svc__vectorizer_enqueue(vectorizer_id integer, new_items jsonb)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- Queues the items of one statement on a vectorizer's source (its trigger) or of a part of its
-- backfill: each item {key, text, fields} whose input changed since it was last queued, or whose last
-- embedding failed, in jobs of the vectorizer's batch_size items, owned by the vectorizer's owner.
-- A row's newest request replaces the one it had (whose completion then writes nothing for it).
-- Returns how many items were queued. The jobs count against the vectorizer's owner's quotas as
-- every request does (stored_bytes: their parameters): past them the statement fails (53400, naming
-- the vectorizer), so that no role alone fills the queue. The queue's ceiling does not apply: a
-- write to the source must not fail because other roles made the queue long.
-- The items come from the proxy's functions (through the vectorizer's gate), where code of the
-- declaring role runs: their shape is checked, and only as jsonb.
DECLARE
  v public.svc_vectorizers;
  queued integer;
  jobs integer;
BEGIN
  SELECT * INTO v FROM public.svc_vectorizers WHERE id = vectorizer_id;
  -- A vectorizer whose role was dropped belongs to nobody: it queues nothing (svc_worker_cleanup).
  IF NOT FOUND OR new_items IS NULL OR NOT EXISTS (SELECT FROM pg_roles r WHERE r.oid = v.owner) THEN
    RETURN 0;
  END IF;
  IF jsonb_typeof(new_items) <> 'array' OR EXISTS (
    SELECT 1 FROM jsonb_array_elements(new_items) AS t(item)
    WHERE jsonb_typeof(t.item) <> 'object' OR jsonb_typeof(t.item->'key') IS DISTINCT FROM 'object' OR jsonb_typeof(t.item->'fields') IS DISTINCT FROM 'object'
      OR coalesce(jsonb_typeof(t.item->'text'), 'missing') NOT IN ('string', 'null')
  ) THEN
    RAISE EXCEPTION 'vectorizer %: items must be an array of {key: object, text: string or null, fields: object}', v.name USING ERRCODE = 'invalid_parameter_value';
  END IF;
  WITH given AS (
    SELECT t.item, t.item->'key' AS key, md5(t.item::text) AS hash, t.ord FROM jsonb_array_elements(new_items) WITH ORDINALITY AS t(item, ord)
  ), todo AS (
    SELECT g.*, (row_number() OVER (ORDER BY g.ord) - 1) / v.batch_size AS part
    FROM given g LEFT JOIN public.svc_vectorizer_rows r ON r.vectorizer = v.id AND r.key = g.key
    WHERE r.key IS NULL OR r.input_hash <> g.hash OR r.state = 'failed'
  ), parts AS (
    SELECT part, gen_random_uuid() AS request_id, jsonb_agg(item ORDER BY ord) AS items FROM todo GROUP BY part
  ), made AS (
    SELECT p.part, p.request_id, jsonb_build_object('vectorizer', v.id, 'chunking', v.chunking, 'format', v.format, 'items', p.items)
        || CASE WHEN v.model = 'default' THEN '{}' ELSE jsonb_build_object('model', v.model) END AS parameters
    FROM parts p
  ), jobs AS (
    INSERT INTO public.svc_queue (request_id, function_name, parameters, owner, stored_bytes)
    SELECT m.request_id, 'vectorize', m.parameters, v.owner, pg_column_size(m.parameters) FROM made m ORDER BY m.part
    RETURNING 1
  ), recorded AS (
    INSERT INTO public.svc_vectorizer_rows AS r (vectorizer, key, input_hash, request_id, state, queued_at)
    SELECT v.id, t.key, t.hash, p.request_id, 'pending', clock_timestamp() FROM todo t JOIN parts p USING (part)
    ON CONFLICT (vectorizer, key) DO UPDATE SET input_hash = excluded.input_hash, request_id = excluded.request_id,
      state = 'pending', error = NULL, queued_at = excluded.queued_at
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM recorded), (SELECT count(*) FROM jobs) INTO queued, jobs;
  IF queued > 0 THEN
    PERFORM public.svc__role_quota_check(format('vectorizer %s', v.name), v.owner, jobs);
    PERFORM pg_notify('svc_jobs', 'vectorize');
  END IF;
  RETURN queued;
END
$function$;
-- grants on svc__vectorizer_enqueue(integer,jsonb): {svc_owner=X/svc_owner}
-- comment: Internal (a vectorizer's trigger and backfill): queue the items whose input changed, in jobs of the vectorizer's batch size; returns how many.

CREATE OR REPLACE FUNCTION public.svc__vectorizer_forget(vectorizer_id integer, gone_keys jsonb)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- The source rows with these keys are gone (deleted, or their key changed): nothing is kept for them,
-- their chunks are deleted, and a job still embedding them writes nothing (svc__vectorizer_apply finds
-- no row). NULL keys: all of them (TRUNCATE).
DECLARE
  v public.svc_vectorizers;
  dest text;
BEGIN
  SELECT * INTO v FROM public.svc_vectorizers WHERE id = vectorizer_id;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  DELETE FROM public.svc_vectorizer_rows r
  WHERE r.vectorizer = vectorizer_id AND (gone_keys IS NULL OR r.key IN (SELECT jsonb_array_elements(gone_keys)));
  -- A destination dropped by its schema's owner keeps nothing to delete (and fails no write to the source).
  dest := public.svc__vectorizer_destination(v.destination);
  IF dest IS NULL THEN
    RETURN;
  ELSIF gone_keys IS NULL THEN
    EXECUTE format('TRUNCATE %s', dest);
  ELSE
    PERFORM public.svc__vectorizer_delete_chunks(dest, v.key_columns, gone_keys);
  END IF;
END
$function$;
-- grants on svc__vectorizer_forget(integer,jsonb): {svc_owner=X/svc_owner}
-- comment: Internal (a vectorizer's trigger): forget source rows that are gone (NULL: all) and delete their chunks, so no job still running writes them.

CREATE OR REPLACE FUNCTION public.svc_cache_clear()
 RETURNS bigint
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_cache_clear(): (default: PUBLIC may execute)
-- comment: Empty the result cache and reset its counters; returns how many entries were removed.

CREATE OR REPLACE FUNCTION public.svc_cache_evict(older_than interval DEFAULT NULL::interval, unused_for interval DEFAULT NULL::interval, max_hits bigint DEFAULT NULL::bigint, keep bigint DEFAULT NULL::bigint, target_bytes bigint DEFAULT NULL::bigint, order_by text DEFAULT 'recency'::text, dry_run boolean DEFAULT true)
 RETURNS TABLE(cache_key text, model text, function_name text, created_at timestamp with time zone, last_hit_at timestamp with time zone, hits bigint, bytes bigint, result_preview text)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_cache_evict(interval,interval,bigint,bigint,bigint,text,boolean): (default: PUBLIC may execute)
-- comment: Remove (dry_run := false) or list (dry_run, the default) the cache entries that meet every criterion given: created longer ago than older_than, not used for unused_for, hit at most max_hits times, not among the keep most recently ('recency') or most often ('frequency') used, and, with target_bytes, only the least valuable of them needed to bring the cache's bytes down to target_bytes. Least valuable first.

CREATE OR REPLACE FUNCTION public.svc_cache_stats()
 RETURNS TABLE(entries bigint, hits bigint, misses bigint, hit_rate double precision, max_entries bigint, bytes bigint, disk_bytes bigint)
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- bytes: what the live entries take (each row as stored, TOAST-compressed results included);
-- disk_bytes: the table, its TOAST and its index on disk, which eviction does not shrink (VACUUM
-- reuses the space freed; only VACUUM FULL gives it back to the operating system).
SELECT entries, hits, misses, CASE WHEN hits + misses > 0 THEN hits::float8 / (hits + misses) END, max_entries, bytes, disk_bytes
FROM (
  SELECT c.entries, c.bytes,
    h.last_value - CASE WHEN h.is_called THEN 0 ELSE 1 END AS hits,
    m.last_value - CASE WHEN m.is_called THEN 0 ELSE 1 END AS misses,
    public.svc__setting_integer('svc.cache_size', 0) AS max_entries,
    pg_total_relation_size('public.svc_cache'::regclass) AS disk_bytes
  FROM public.svc_cache_hits h, public.svc_cache_misses m,
    (SELECT count(*) AS entries, coalesce(sum(pg_column_size(e.*)), 0)::bigint AS bytes FROM public.svc_cache e) AS c
) AS s
$function$;
-- grants on svc_cache_stats(): (default: PUBLIC may execute)
-- comment: Entries in the result cache, hits and misses since the last clear, the size limit (svc.cache_size), the bytes its entries take and the bytes its table, TOAST and index take on disk.

CREATE OR REPLACE FUNCTION public.svc_cache_usage()
 RETURNS TABLE(function_name text, model text, entries bigint, bytes bigint, hits bigint, last_used_at timestamp with time zone)
 LANGUAGE c
 STABLE
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_cache_usage(): (default: PUBLIC may execute)
-- comment: The result cache by function and model: entries, the bytes they take (svc_cache_stats().bytes, split), their hits and latest use; the largest first.

CREATE OR REPLACE FUNCTION public.svc_cancel_async(request_id uuid)
 RETURNS boolean
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_cancel_async(uuid): (default: PUBLIC may execute)
-- comment: Cancel a pending or processing request of yours: true when it is now cancelled (a worker running it stops at its next token and writes nothing).

CREATE OR REPLACE FUNCTION public.svc_check_async(request_id uuid)
 RETURNS TABLE(status text, result text, error text, created_at timestamp without time zone, started_at timestamp without time zone, completed_at timestamp without time zone, priority integer)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$#variable_conflict use_column
BEGIN
  IF $1 IS NULL THEN
    RAISE EXCEPTION 'svc_check_async: request_id must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  RETURN QUERY
    SELECT status, result, error, created_at::timestamp, started_at::timestamp, completed_at::timestamp, priority
    FROM public.svc_queue WHERE request_id = $1;
END
$function$;
-- grants on svc_check_async(uuid): (default: PUBLIC may execute)
-- comment: The state of one request (no row when it does not exist or is not yours).

CREATE OR REPLACE FUNCTION public.svc_check_async_batch(request_ids uuid[])
 RETURNS TABLE(request_id uuid, status text, result text, error text, created_at timestamp without time zone, completed_at timestamp without time zone)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- One row per id given, in that order; an id that is unknown or not yours gives a row of NULLs
-- beside it, so results line up with the input.
#variable_conflict use_column
BEGIN
  IF $1 IS NULL THEN
    RAISE EXCEPTION 'svc_check_async_batch: request_ids must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  RETURN QUERY
    SELECT ids.id, q.status, q.result, q.error, q.created_at::timestamp, q.completed_at::timestamp
    FROM unnest($1) WITH ORDINALITY AS ids(id, ord)
    LEFT JOIN public.svc_queue q ON q.request_id = ids.id
    ORDER BY ids.ord;
END
$function$;
-- grants on svc_check_async_batch(uuid[]): (default: PUBLIC may execute)
-- comment: The state of several requests: one row per id, in the order given (NULL columns for an id that is unknown or not yours).

CREATE OR REPLACE FUNCTION public.svc_cleanup(retention interval DEFAULT '7 days'::interval)
 RETURNS bigint
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_cleanup(interval): (default: PUBLIC may execute)
-- comment: Delete finished (completed, failed, cancelled) requests that finished longer ago than retention, and workers silent that long; returns how many requests.

CREATE OR REPLACE FUNCTION public.svc_cosine_distance(a real[], b real[])
 RETURNS double precision
 LANGUAGE c
 IMMUTABLE PARALLEL SAFE
AS '$libdir/svc', $function$svc_cosine_distance$function$;
-- grants on svc_cosine_distance(real[],real[]): (default: PUBLIC may execute)
-- comment: 1 - cosine similarity of two real[] vectors of one length (pgvector's <=>); NULL for a zero vector.

CREATE OR REPLACE FUNCTION public.svc_deduplicate_facts(facts text[], threshold double precision DEFAULT 0.8, use_cache boolean DEFAULT true)
 RETURNS text[]
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_deduplicate_facts(text[],double precision,boolean): (default: PUBLIC may execute)
-- comment: The facts in order, each left out whose embedding (svc_embed's model) has a cosine similarity of threshold or more to one kept before it.

CREATE OR REPLACE FUNCTION public.svc_embed(text_input text, use_cache boolean DEFAULT true)
 RETURNS real[]
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_embed(text,boolean): (default: PUBLIC may execute)
-- comment: The L2-normalized embedding of a text (cast to vector where pgvector is installed).

CREATE OR REPLACE FUNCTION public.svc_embed(texts text[], use_cache boolean DEFAULT true)
 RETURNS TABLE(ord integer, embedding real[], error text)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_embed(text[],boolean): (default: PUBLIC may execute)
-- comment: The embedding of each text: one row per text, in order (ord), with its embedding or its error.

CREATE OR REPLACE FUNCTION public.svc_embed_async(text_input text, use_cache boolean DEFAULT true, priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_embed_async(text,boolean,integer): (default: PUBLIC may execute)
-- comment: Queue an embedding; the result is a vector literal [x1,x2,...].

CREATE OR REPLACE FUNCTION public.svc_embed_batch_async(texts text[], use_cache boolean DEFAULT true, priority integer DEFAULT 0)
 RETURNS uuid[]
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_embed_batch_async(text[],boolean,integer): (default: PUBLIC may execute)
-- comment: Queue one embedding per text; returns one request id per text, in order.

CREATE OR REPLACE FUNCTION public.svc_extract_facts(text_input text, max_facts integer DEFAULT 10, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS text[]
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_extract_facts(text,integer,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: At most max_facts short facts stated in the text, by the model under a JSON Schema (so always a list): each trimmed, blank ones and repeats left out.

CREATE OR REPLACE FUNCTION public.svc_generate(prompt text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS text
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate(text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: Generate text and return it (waits for a worker on a cache miss).

CREATE OR REPLACE FUNCTION public.svc_generate(prompts text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS TABLE(ord integer, result text, error text)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate(text[],integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: Generate text for each prompt: one row per prompt, in order (ord), with its result or its error.

CREATE OR REPLACE FUNCTION public.svc_generate_async(prompt text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[], priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_async(text,integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): (default: PUBLIC may execute)
-- comment: Queue a text generation; returns its request id at once.

CREATE OR REPLACE FUNCTION public.svc_generate_batch_async(prompts text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[], priority integer DEFAULT 0)
 RETURNS uuid[]
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_batch_async(text[],integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): (default: PUBLIC may execute)
-- comment: Queue one generation per prompt; returns one request id per prompt, in order.

CREATE OR REPLACE FUNCTION public.svc_generate_choice(prompt text, choices text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS text
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_choice(text,text[],integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: Pick one of the choices and return it.

CREATE OR REPLACE FUNCTION public.svc_generate_choice(prompts text[], choices text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS TABLE(ord integer, result text, error text)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_choice(text[],text[],integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: One of the choices for each prompt: one row per prompt, in order (ord).

CREATE OR REPLACE FUNCTION public.svc_generate_choice_async(prompt text, choices text[], max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[], priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_choice_async(text,text[],integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): (default: PUBLIC may execute)
-- comment: Queue a generation constrained to one of the choices.

CREATE OR REPLACE FUNCTION public.svc_generate_json(prompt text, schema json, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS text
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$SELECT public.svc_generate_json(prompt, schema::text, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop)
$function$;
-- grants on svc_generate_json(text,json,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: Generate JSON matching a JSON Schema of type json: its properties in the order written, as the text overload.

CREATE OR REPLACE FUNCTION public.svc_generate_json(prompt text, schema jsonb, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS text
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_json(text,jsonb,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: Generate JSON matching a JSON Schema and return it.

CREATE OR REPLACE FUNCTION public.svc_generate_json(prompt text, schema text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS text
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_json(text,text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: Generate JSON matching a JSON Schema given as text (a literal): its properties in the order written.

CREATE OR REPLACE FUNCTION public.svc_generate_json(prompts text[], schema json, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS TABLE(ord integer, result text, error text)
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$SELECT * FROM public.svc_generate_json(prompts, schema::text, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop)
$function$;
-- grants on svc_generate_json(text[],json,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: JSON matching the schema (json: its properties in the order written) for each prompt: one row per prompt, in order (ord).

CREATE OR REPLACE FUNCTION public.svc_generate_json(prompts text[], schema jsonb, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS TABLE(ord integer, result text, error text)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_json(text[],jsonb,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: JSON matching the schema for each prompt: one row per prompt, in order (ord).

CREATE OR REPLACE FUNCTION public.svc_generate_json(prompts text[], schema text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS TABLE(ord integer, result text, error text)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_json(text[],text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: JSON matching the schema (text: its properties in the order written) for each prompt: one row per prompt, in order (ord).

CREATE OR REPLACE FUNCTION public.svc_generate_json_async(prompt text, schema json, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[], priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$SELECT public.svc_generate_json_async(prompt, schema::text, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop, priority)
$function$;
-- grants on svc_generate_json_async(text,json,integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): (default: PUBLIC may execute)
-- comment: Queue a generation constrained to JSON matching a JSON Schema of type json: its properties in the order written.

CREATE OR REPLACE FUNCTION public.svc_generate_json_async(prompt text, schema jsonb, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[], priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_json_async(text,jsonb,integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): (default: PUBLIC may execute)
-- comment: Queue a generation constrained to JSON matching a JSON Schema.

CREATE OR REPLACE FUNCTION public.svc_generate_json_async(prompt text, schema text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[], priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_json_async(text,text,integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): (default: PUBLIC may execute)
-- comment: Queue a generation constrained to JSON matching a JSON Schema given as text (a literal): its properties in the order written.

CREATE OR REPLACE FUNCTION public.svc_generate_regex(prompt text, pattern text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS text
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_regex(text,text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: Generate text matching a regular expression and return it.

CREATE OR REPLACE FUNCTION public.svc_generate_regex(prompts text[], pattern text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS TABLE(ord integer, result text, error text)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_regex(text[],text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: Text matching the pattern for each prompt: one row per prompt, in order (ord).

CREATE OR REPLACE FUNCTION public.svc_generate_regex_async(prompt text, pattern text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[], priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_generate_regex_async(text,text,integer,boolean,integer,double precision,integer,double precision,double precision,text[],integer): (default: PUBLIC may execute)
-- comment: Queue a generation constrained to match a regular expression.

CREATE OR REPLACE FUNCTION public.svc_generate_stream(prompt text, max_tokens integer DEFAULT 512, use_cache boolean DEFAULT true, seed integer DEFAULT 42, temperature double precision DEFAULT 0, top_k integer DEFAULT 40, top_p double precision DEFAULT 0.95, min_p double precision DEFAULT 0.05, stop text[] DEFAULT NULL::text[])
 RETURNS SETOF text
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET "plv8.execution_timeout" TO '65536'
AS $function$-- A generation as rows (src/extension/stream.ts): the first row of the recursion submits the request
-- (or finds the whole text in the cache), each next one waits for the text its worker wrote since.
-- PostgreSQL evaluates this query a row at a time when the function is called in a SELECT list
-- (a cursor's FETCH then returns each piece as it is written); in FROM it gathers every row first.
WITH RECURSIVE s(state) AS (
  SELECT public.svc__stream_start(prompt, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop)
  UNION ALL
  SELECT public.svc__stream_next(s.state) FROM s WHERE NOT (s.state ->> 'done')::boolean
)
SELECT s.state ->> 'piece' FROM s WHERE coalesce(s.state ->> 'piece', '') <> ''
$function$;
-- grants on svc_generate_stream(text,integer,boolean,integer,double precision,integer,double precision,double precision,text[]): (default: PUBLIC may execute)
-- comment: svc_generate's text as rows, each what the worker wrote since the last (whole characters), joined exactly svc_generate's result; called in a SELECT list (a cursor fetches each as it comes); cancelling the statement cancels the request.

CREATE OR REPLACE FUNCTION public.svc_get_async_result(request_id uuid, timeout_seconds integer DEFAULT 30)
 RETURNS text
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_get_async_result(uuid,integer): (default: PUBLIC may execute)
-- comment: Wait up to timeout_seconds for a request and return its result; an error when it failed, was cancelled, is unknown or time ran out.

CREATE OR REPLACE FUNCTION public.svc_get_async_results(request_ids uuid[], timeout_seconds integer DEFAULT 30)
 RETURNS TABLE(ord integer, request_id uuid, status text, result text, error text)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_get_async_results(uuid[],integer): (default: PUBLIC may execute)
-- comment: Wait up to timeout_seconds for all the requests; one row per id in input order (ord) with its result, or its error (failed, cancelled, unknown, still waiting).

CREATE OR REPLACE FUNCTION public.svc_get_partial_result(request_id uuid)
 RETURNS TABLE(status text, partial_result text, tokens integer, error text, updated_at timestamp without time zone)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- Streaming: what a request has so far, read as the caller (row-level security: no row when the
-- request is unknown or not yours, as svc_check_async). While processing, the text a worker last
-- published for this attempt ('' and 0 before its first write); once completed, the result itself,
-- so a reader that prints each new end of partial_result ends with the exact result; failed or
-- cancelled, the error. Tokens are counted only while processing.
#variable_conflict use_column
BEGIN
  IF $1 IS NULL THEN
    RAISE EXCEPTION 'svc_get_partial_result: request_id must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  RETURN QUERY
    SELECT q.status,
      CASE q.status WHEN 'completed' THEN q.result WHEN 'processing' THEN coalesce(p.partial_result, '') WHEN 'pending' THEN '' END,
      CASE q.status WHEN 'processing' THEN coalesce(p.tokens, 0) WHEN 'pending' THEN 0 END,
      q.error,
      (CASE q.status WHEN 'processing' THEN coalesce(p.updated_at, q.started_at) ELSE coalesce(q.completed_at, q.failed_at, q.cancelled_at) END)::timestamp
    FROM public.svc_queue q
    LEFT JOIN public.svc_partial_results p ON p.request_id = q.request_id AND p.attempt = q.attempt
    WHERE q.request_id = $1;
END
$function$;
-- grants on svc_get_partial_result(uuid): (default: PUBLIC may execute)
-- comment: Streaming: the text a generation has so far (processing: as a worker last published it, with its tokens; completed: the result; failed or cancelled: the error). No row when the request does not exist or is not yours.

CREATE OR REPLACE FUNCTION public.svc_model_declare(name text, serves text[] DEFAULT ARRAY['generate'::text, 'embed'::text, 'rerank'::text])
 RETURNS void
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_model_declare(text,text[]): (default: PUBLIC may execute)
-- comment: Declare a model name in svc_models, or change the functions it serves (generate, embed, rerank); requests choose it with SET svc.model.

CREATE OR REPLACE FUNCTION public.svc_prompt_create(name text, template text, description text DEFAULT NULL::text, metadata jsonb DEFAULT NULL::jsonb)
 RETURNS integer
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_prompt_create(text,text,text,jsonb): (default: PUBLIC may execute)
-- comment: Store a new prompt template of the calling role under name (version 1), with a description and metadata (a JSON object, NULL: {}); the template is checked now. Returns the version.

CREATE OR REPLACE FUNCTION public.svc_prompt_delete(name text)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- Removes every version of one of the session role's prompts; returns how many.
DECLARE
  removed integer;
BEGIN
  IF svc_prompt_delete.name IS NULL THEN
    RAISE EXCEPTION 'svc_prompt_delete: name must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  DELETE FROM public.svc_prompts p
  WHERE p.owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END))
    AND p.name = svc_prompt_delete.name;
  GET DIAGNOSTICS removed = ROW_COUNT;
  IF removed = 0 THEN
    RAISE EXCEPTION 'svc_prompt_delete: name ''%'' is no prompt of yours', svc_prompt_delete.name
      USING ERRCODE = 'undefined_object', HINT = 'svc_prompt_list() lists your prompts.';
  END IF;
  RETURN removed;
END
$function$;
-- grants on svc_prompt_delete(text): (default: PUBLIC may execute)
-- comment: Remove every version of one of the calling role's prompts; returns how many.

CREATE OR REPLACE FUNCTION public.svc_prompt_get(name text, version integer DEFAULT NULL::integer)
 RETURNS TABLE(prompt_name text, prompt_version integer, template text, description text, variables text[], created_at timestamp with time zone, metadata jsonb)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- One version of one of the session role's prompts: version `version`, or the latest when it is NULL.
-- (The session's role, as the submitters name it: this function runs as the extension's owner.)
BEGIN
  IF svc_prompt_get.name IS NULL THEN
    RAISE EXCEPTION 'svc_prompt_get: name must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF svc_prompt_get.version < 1 THEN
    RAISE EXCEPTION 'svc_prompt_get: version must be between 1 and 2147483647 (got %)', svc_prompt_get.version USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN QUERY
  SELECT p.name, p.version, p.template, p.description, p.variables, p.created_at, p.metadata FROM public.svc_prompts p
  WHERE p.owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END))
    AND p.name = svc_prompt_get.name AND (svc_prompt_get.version IS NULL OR p.version = svc_prompt_get.version)
  ORDER BY p.version DESC LIMIT 1;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'svc_prompt_get: name ''%'' is no prompt of yours%', svc_prompt_get.name,
      CASE WHEN svc_prompt_get.version IS NULL THEN '' ELSE ' with a version ' || svc_prompt_get.version END
      USING ERRCODE = 'undefined_object', HINT = 'svc_prompt_list() lists your prompts.';
  END IF;
END
$function$;
-- grants on svc_prompt_get(text,integer): (default: PUBLIC may execute)
-- comment: One version of one of the calling role's prompts (version NULL: the latest), with the variables its template reads.

CREATE OR REPLACE FUNCTION public.svc_prompt_list()
 RETURNS TABLE(prompt_name text, latest_version integer, versions integer, description text, variables text[], created_at timestamp with time zone, updated_at timestamp with time zone, metadata jsonb)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- The session role's prompts, one row each: its latest version's description, variables and metadata.
SELECT l.name, l.version, n.versions, l.description, l.variables, n.created_at, l.created_at, l.metadata
FROM (SELECT p.name, count(*)::integer AS versions, min(p.created_at) AS created_at, max(p.version) AS latest
      FROM public.svc_prompts p
      WHERE p.owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END))
      GROUP BY p.name) AS n
JOIN public.svc_prompts l ON l.owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END))
  AND l.name = n.name AND l.version = n.latest
ORDER BY l.name
$function$;
-- grants on svc_prompt_list(): (default: PUBLIC may execute)
-- comment: The calling role's prompts: each one's latest version, description, variables and metadata, how many versions, when created and last updated.

CREATE OR REPLACE FUNCTION public.svc_prompt_render(name text, variables jsonb DEFAULT '{}'::jsonb, version integer DEFAULT NULL::integer, strict boolean DEFAULT true)
 RETURNS text
 LANGUAGE c
 STABLE
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_prompt_render(text,jsonb,integer,boolean): (default: PUBLIC may execute)
-- comment: The text of one of the calling role's prompts (version NULL: the latest) with variables (a JSON object) filled in; an error names a variable it lacks (strict := false: a missing variable renders nothing, a loop over one runs no turn).

CREATE OR REPLACE FUNCTION public.svc_prompt_update(name text, template text, description text DEFAULT NULL::text, metadata jsonb DEFAULT NULL::jsonb)
 RETURNS integer
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_prompt_update(text,text,text,jsonb): (default: PUBLIC may execute)
-- comment: Store the next version of one of the calling role's prompts (description or metadata NULL: the latest's). Returns the new version.

CREATE OR REPLACE FUNCTION public.svc_prompt_versions(name text)
 RETURNS TABLE(prompt_version integer, is_active boolean, description text, metadata jsonb, variables text[], created_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$-- Every version of one of the session role's prompts, oldest first. is_active marks the version that
-- svc_prompt_render and svc_prompt_get use when none is named: the latest.
-- (The session's role, as the submitters name it: this function runs as the extension's owner.)
BEGIN
  IF svc_prompt_versions.name IS NULL THEN
    RAISE EXCEPTION 'svc_prompt_versions: name must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  RETURN QUERY
  SELECT p.version, p.version = max(p.version) OVER (), p.description, p.metadata, p.variables, p.created_at FROM public.svc_prompts p
  WHERE p.owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END))
    AND p.name = svc_prompt_versions.name
  ORDER BY p.version;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'svc_prompt_versions: name ''%'' is no prompt of yours', svc_prompt_versions.name
      USING ERRCODE = 'undefined_object', HINT = 'svc_prompt_list() lists your prompts.';
  END IF;
END
$function$;
-- grants on svc_prompt_versions(text): (default: PUBLIC may execute)
-- comment: Every version of one of the calling role's prompts, oldest first; is_active marks the one svc_prompt_render and svc_prompt_get use when no version is named (the latest).

CREATE OR REPLACE FUNCTION public.svc_queue_limits()
 RETURNS TABLE(role_name text, max_queue_size bigint, queue_depth bigint, max_pending bigint, pending bigint, max_stored_bytes bigint, stored_bytes bigint)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_queue_limits(): (default: PUBLIC may execute)
-- comment: The limits that bind the session's role (the queue's, its quotas) and what it uses of them now.

CREATE OR REPLACE FUNCTION public.svc_queue_stats()
 RETURNS TABLE(model text, function_name text, status text, requests bigint, oldest_pending_age interval, mean_wait interval, mean_run interval)
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
AS $function$SELECT model, function_name, status, count(*),
  clock_timestamp() - min(created_at) FILTER (WHERE status = 'pending'),
  avg(started_at - created_at) FILTER (WHERE started_at IS NOT NULL),
  avg(completed_at - started_at) FILTER (WHERE completed_at IS NOT NULL)
FROM public.svc_queue GROUP BY model, function_name, status ORDER BY model, function_name, status
$function$;
-- grants on svc_queue_stats(): (default: PUBLIC may execute)
-- comment: Counts per model, function and status over the whole queue, with waiting and running times.

CREATE OR REPLACE FUNCTION public.svc_rerank(query text, documents text[], task text DEFAULT 'Given a web search query, retrieve relevant passages that answer the query'::text, use_cache boolean DEFAULT true, seed integer DEFAULT 42, top_k integer DEFAULT NULL::integer)
 RETURNS TABLE(document text, score double precision)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_rerank(text,text[],text,boolean,integer,integer): (default: PUBLIC may execute)
-- comment: The documents ranked for the query, best first (the first top_k of them; NULL: all).

CREATE OR REPLACE FUNCTION public.svc_rerank(queries text[], documents text[], task text DEFAULT 'Given a web search query, retrieve relevant passages that answer the query'::text, use_cache boolean DEFAULT true, seed integer DEFAULT 42, top_k integer DEFAULT NULL::integer)
 RETURNS TABLE(ord integer, document text, score double precision, error text)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_rerank(text[],text[],text,boolean,integer,integer): (default: PUBLIC may execute)
-- comment: The documents ranked for each query, best first (its first top_k): rows of query ord, or one row of its error.

CREATE OR REPLACE FUNCTION public.svc_rerank_async(query text, documents text[], task text DEFAULT 'Given a web search query, retrieve relevant passages that answer the query'::text, use_cache boolean DEFAULT true, seed integer DEFAULT 42, priority integer DEFAULT 0)
 RETURNS uuid
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_rerank_async(text,text[],text,boolean,integer,integer): (default: PUBLIC may execute)
-- comment: Queue a reranking; the result is a JSON array of {index, document, score}, best first.

CREATE OR REPLACE FUNCTION public.svc_rerank_batch(queries text[], documents text[], task text DEFAULT 'Given a web search query, retrieve relevant passages that answer the query'::text, use_cache boolean DEFAULT true, seed integer DEFAULT 42, top_k integer DEFAULT NULL::integer)
 RETURNS TABLE(ord integer, query text, rank integer, doc_index integer, document text, score double precision, error text)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_rerank_batch(text[],text[],text,boolean,integer,integer): (default: PUBLIC may execute)
-- comment: Many queries over the same documents: for each query (ord) its documents best first (its first top_k), with their rank and position in documents (both from 1), or one row of its error. Scores as svc_rerank gives them.

CREATE OR REPLACE FUNCTION public.svc_rerank_batch_async(queries text[], documents text[], task text DEFAULT 'Given a web search query, retrieve relevant passages that answer the query'::text, use_cache boolean DEFAULT true, seed integer DEFAULT 42, priority integer DEFAULT 0)
 RETURNS uuid[]
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_rerank_batch_async(text[],text[],text,boolean,integer,integer): (default: PUBLIC may execute)
-- comment: Queue one reranking per query over the same documents; returns one request id per query, in order (each result as svc_rerank_async's).

CREATE OR REPLACE FUNCTION public.svc_rerank_docs_only(query text, documents text[], task text DEFAULT 'Given a web search query, retrieve relevant passages that answer the query'::text, use_cache boolean DEFAULT true, seed integer DEFAULT 42, top_k integer DEFAULT NULL::integer)
 RETURNS SETOF text
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_rerank_docs_only(text,text[],text,boolean,integer,integer): (default: PUBLIC may execute)
-- comment: svc_rerank's documents alone, best first (the first top_k of them; NULL: all).

CREATE OR REPLACE FUNCTION public.svc_search(name text, query text, k integer DEFAULT 10)
 RETURNS TABLE(key jsonb, chunk_index integer, chunk text, distance double precision)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_search(text,text,integer): (default: PUBLIC may execute)
-- comment: The k source rows nearest the query (each by its nearest chunk, cosine distance) in a vectorizer's destination, read as the caller; the query is embedded with the vectorizer's model.

CREATE OR REPLACE FUNCTION public.svc_set_queue_limits(max_queue_size bigint DEFAULT NULL::bigint)
 RETURNS void
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_set_queue_limits(bigint): (default: PUBLIC may execute)
-- comment: Requests pending or processing over all roles (NULL: 10000); a session's svc.max_queue_size may only lower its own bound.

CREATE OR REPLACE FUNCTION public.svc_set_role_limits(role_name text DEFAULT NULL::text, max_pending bigint DEFAULT NULL::bigint, max_stored_bytes bigint DEFAULT NULL::bigint)
 RETURNS void
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_set_role_limits(text,bigint,bigint): (default: PUBLIC may execute)
-- comment: A role's quotas: its requests pending or processing, and the bytes their parameters and grammars store (NULL: the default); role_name NULL sets the default of every role without its own. A session cannot raise them; beyond them submission fails (53400).

CREATE OR REPLACE FUNCTION public.svc_set_sync_connection(conninfo text)
 RETURNS text
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_set_sync_connection(text): (default: PUBLIC may execute)
-- comment: Where the synchronous functions' autonomous session connects: libpq keyword/value pairs (host, hostaddr, port, password, connect_timeout, sslmode, channel_binding); NULL or empty: this server's first unix socket. It always logs in as svc_sync to this database. Returns the connection string used, the password masked.

CREATE OR REPLACE FUNCTION public.svc_settings()
 RETURNS TABLE(name text, value text, default_value text, meaning text)
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- Generated by scripts/build-extension.ts from src/extension/settings-catalog.ts.
SELECT s.name, coalesce(nullif(current_setting(s.name, true), ''), s.default_value), s.default_value, s.meaning
FROM (VALUES
  ('svc.max_queue_size', '10000', 'lowers this session''s bound of requests pending or processing over all roles, never above the queue''s (svc_set_queue_limits, 10000 by default); beyond it submission fails (53400)'),
  ('svc.worker_concurrency', '4', 'jobs a worker runs at once when SVC_WORKER_CONCURRENCY is unset'),
  ('svc.worker_poll_interval', '1s', 'a worker''s polling fallback when SVC_WORKER_POLL_INTERVAL is unset'),
  ('svc.sync_timeout', '60s', 'how long the synchronous functions wait for a worker'),
  ('svc.cache_size', '10000', 'result cache entries kept (least used evicted first)'),
  ('svc.retention', '1 day', 'how long finished (completed, failed, cancelled) requests are kept; the workers delete older ones in small batches. Read in the workers'' sessions: set it per database (ALTER DATABASE) or for their role'),
  ('svc.retry_backoff', '1s', 'base of the retry backoff: retry n waits svc.retry_backoff * 2^n, at most 5 minutes'),
  ('svc.prompt_format', 'chat', 'how generation prompts reach the model: ''chat'' sends the prompt as the user turn of the model''s chat template (raw on a model without one), ''raw'' sends it as is; recorded in the request''s parameters and part of its cache key'),
  ('svc.strict_schema', 'off', '''on'' refuses JSON Schema keywords of no standard vocabulary (x-*, readonly, id after draft-04) and unknown formats; ''off'' takes them as annotations, as the JSON Schema specification says; recorded in the request''s parameters (strict_schema) and part of its cache key'),
  ('svc.open_objects', 'off', '''on'' compiles JSON Schema objects without additionalProperties as open (any further members, as the JSON Schema specification reads them); ''off'' closes them (only the declared properties, what a model should write); recorded in the request''s parameters (open_objects) and part of its cache key'),
  ('svc.model', NULL, 'the model (svc_models) of this session''s requests, for every function (unset: svc.generate_model, svc.embed_model, svc.rerank_model); recorded in the request''s parameters unless ''default'', and part of its cache key'),
  ('svc.generate_model', NULL, 'the model of generation requests (svc_generate*, svc_generate_json/_regex/_choice*) when svc.model is unset (unset: ''default'')'),
  ('svc.embed_model', NULL, 'the model of embedding requests (svc_embed*, vectorizers declared without model) and, unless svc.rerank_model is set, of rerank requests, when svc.model is unset (unset: the model named ''embed'' where one serves embed, else ''default'')'),
  ('svc.rerank_model', NULL, 'the model of rerank requests (svc_rerank*) when svc.model is unset (unset: svc.embed_model''s, else the model named ''embed'' where one serves rerank, else ''default'')'),
  ('svc.summarize_chunk_size', NULL, 'characters of text per model call of svc_summarize (at least 100): a chunk of rows'' text is summarized at a time, and partial summaries are combined when together they pass it; unset, chunks are cut to fit the serving model''s context (in UTF-8 bytes, at most one token each)'),
  ('svc.system_prompt', NULL, 'system turn of the chat template for generation requests in the ''chat'' format (unset or empty: none); recorded in the request''s parameters and part of its cache key')
) AS s(name, default_value, meaning)
ORDER BY s.name
$function$;
-- grants on svc_settings(): (default: PUBLIC may execute)
-- comment: svc's settings: each one's effective value in this session, its default and what it means.

CREATE OR REPLACE FUNCTION public.svc_vectorize(source regclass, column_name text, name text, model text DEFAULT NULL::text, chunk_by text DEFAULT 'none'::text, chunk_size integer DEFAULT 1000, chunk_overlap integer DEFAULT 0, separators text[] DEFAULT ARRAY[(chr(10) || chr(10)), chr(10), '. '::text, ' '::text, ''::text], format text DEFAULT '$chunk'::text, destination text DEFAULT NULL::text, dimensions integer DEFAULT NULL::integer, batch_size integer DEFAULT 64, index text DEFAULT 'hnsw'::text)
 RETURNS bigint
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_vectorize(regclass,text,text,text,text,integer,integer,text[],text,text,integer,integer,text): (default: PUBLIC may execute)
-- comment: Keep source's column_name embedded, chunk by chunk, in a destination table svc keeps and the calling role reads: triggers queue inserts, updates and deletes, and the rows already there are queued now; model NULL: the embedding model svc_embed would use. Returns how many rows were queued.

CREATE OR REPLACE FUNCTION public.svc_vectorize_drop(name text, drop_destination boolean DEFAULT true)
 RETURNS boolean
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_vectorize_drop(text,boolean): (default: PUBLIC may execute)
-- comment: Remove one of the calling role's vectorizers: its triggers, its queued work and (unless drop_destination is false) its destination; the source is untouched.

CREATE OR REPLACE FUNCTION public.svc_vectorizer_embed(name text, query text)
 RETURNS real[]
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_vectorizer_embed(text,text): (default: PUBLIC may execute)
-- comment: A text's embedding under the model of one of the calling role's vectorizers, as svc_embed computes it (what svc_search compares chunks with).

CREATE OR REPLACE FUNCTION public.svc_vectorizer_status()
 RETURNS TABLE(name text, source regclass, column_name text, destination regclass, model text, rows_pending bigint, rows_done bigint, rows_failed bigint, chunks bigint, lag interval, last_error text)
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
 SET "plv8.start_proc" TO ''
 SET jit TO 'off'
AS $function$-- The session's own vectorizers (svc_admin members: all), with how far each is. The counts read
-- every row of a vectorizer (~30 ms per 100,000, without JIT: catalog.ts); the last error is one probe of the failed rows' index.
SELECT v.name, v.source, v.source_column, v.destination, v.model, c.pending, c.done, c.failed, c.chunks, c.lag,
  (SELECT r.error FROM public.svc_vectorizer_rows r WHERE r.vectorizer = v.id AND r.state = 'failed' ORDER BY r.done_at DESC LIMIT 1)
FROM (SELECT r.oid AS id, r.rolname AS role FROM pg_roles r
      WHERE r.rolname = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END)) AS me,
  public.svc_vectorizers v,
  LATERAL (
    SELECT count(*) FILTER (WHERE r.state = 'pending') AS pending, count(*) FILTER (WHERE r.state = 'done') AS done,
      count(*) FILTER (WHERE r.state = 'failed') AS failed, coalesce(sum(r.chunks) FILTER (WHERE r.state = 'done'), 0) AS chunks,
      clock_timestamp() - min(r.queued_at) FILTER (WHERE r.state = 'pending') AS lag
    FROM public.svc_vectorizer_rows r WHERE r.vectorizer = v.id
  ) AS c
-- The session's role (its SET ROLE) by oid, as svc's other functions name it (SESSION_ROLE_ID in queries.ts).
WHERE v.owner = me.id OR pg_has_role(me.role, 'svc_admin', 'MEMBER')
ORDER BY v.name
$function$;
-- grants on svc_vectorizer_status(): (default: PUBLIC may execute)
-- comment: The calling role's vectorizers (svc_admin: all): source rows waiting, embedded and failed, chunks written, how long the oldest has waited, the last error.

CREATE OR REPLACE FUNCTION public.svc_version()
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- The version of svc installed in this database, as ALTER EXTENSION svc UPDATE left it.
SELECT e.extversion::text FROM pg_extension e WHERE e.extname = 'svc'
$function$;
-- grants on svc_version(): (default: PUBLIC may execute)
-- comment: The version of svc installed in this database (pg_extension's extversion), e.g. 0.2.0.

CREATE OR REPLACE FUNCTION public.svc_worker_cache_get(identity text, model text)
 RETURNS TABLE(result text, stop_reason text)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_worker_cache_get(text,text): (default: PUBLIC may execute)
-- comment: Worker protocol: the cached result (and stop reason) for a request identity and model, or NULLs (counted as a hit or a miss).

CREATE OR REPLACE FUNCTION public.svc_worker_cache_put(identity text, model text, function_name text, result text, stop_reason text DEFAULT NULL::text)
 RETURNS void
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_worker_cache_put(text,text,text,text,text): (default: PUBLIC may execute)
-- comment: Worker protocol: store a result in the cache, evicting the least used entries beyond svc.cache_size.

CREATE OR REPLACE FUNCTION public.svc_worker_claim(worker_id text, max_jobs integer, lease_seconds double precision, max_retries integer DEFAULT 3, models text[] DEFAULT '{default}'::text[])
 RETURNS TABLE(request_id uuid, function_name text, parameters jsonb, grammar text, attempt integer, retry_count integer, priority integer, waited boolean)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_worker_claim(text,integer,double precision,integer,text[]): (default: PUBLIC may execute)
-- comment: Worker protocol: claim up to max_jobs pending jobs of the given models (svc_models names) under a lease; expired leases are requeued first. As its transaction's first write it commits without waiting for the disk (synchronous_commit off): a claim lost in a crash is claimed again.

CREATE OR REPLACE FUNCTION public.svc_worker_cleanup(max_rows integer DEFAULT 1000)
 RETURNS integer
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_worker_cleanup(integer): (default: PUBLIC may execute)
-- comment: Worker protocol: delete up to max_rows requests finished longer ago than svc.retention, oldest first; returns how many.

CREATE OR REPLACE FUNCTION public.svc_worker_complete(request_id uuid, attempt integer, result text, stop_reason text DEFAULT NULL::text)
 RETURNS boolean
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_worker_complete(uuid,integer,text,text): (default: PUBLIC may execute)
-- comment: Worker protocol: store a result (and how a generation ended: end, max_tokens, stop or context); false (refused) unless the job is still processing under this attempt.

CREATE OR REPLACE FUNCTION public.svc_worker_complete_and_claim(complete_request_ids uuid[], complete_attempts integer[], results text[], worker_id text, lease_seconds double precision, max_retries integer DEFAULT 3, claim_jobs integer DEFAULT NULL::integer, models text[] DEFAULT '{default}'::text[], stop_reasons text[] DEFAULT NULL::text[])
 RETURNS TABLE(refused uuid[], request_id uuid, function_name text, parameters jsonb, grammar text, attempt integer, retry_count integer, priority integer, waited boolean)
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_worker_complete_and_claim(uuid[],integer[],text[],text,double precision,integer,integer,text[],text[]): (default: PUBLIC may execute)
-- comment: Worker protocol: svc_worker_complete of each (request, attempt, result, stop reason) given, then svc_worker_claim of up to claim_jobs jobs (default: one per completion) for the freed slots, in one call. Every row carries refused, the ids whose completion was refused (as by svc_worker_complete; the others were stored); with no job claimed, one row of NULL job columns.

CREATE OR REPLACE FUNCTION public.svc_worker_complete_cached(request_ids uuid[], attempts integer[], results text[], stop_reasons text[], cache_identities text[], cache_models text[], cache_functions text[], cache_results text[], cache_stop_reasons text[])
 RETURNS uuid[]
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_worker_complete_cached(uuid[],integer[],text[],text[],text[],text[],text[],text[],text[]): (default: PUBLIC may execute)
-- comment: Worker protocol: svc_worker_complete of each (request, attempt, result, stop reason), and svc_worker_cache_put of each cache entry (identity, model, function, result, stop reason: a request's, or each input's of a request of many), in one call; returns the ids whose completion was refused.

CREATE OR REPLACE FUNCTION public.svc_worker_fail(request_id uuid, attempt integer, error text, max_retries integer DEFAULT 3)
 RETURNS text
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_worker_fail(uuid,integer,text,integer): (default: PUBLIC may execute)
-- comment: Worker protocol: record a failure; the job goes back to pending with a backoff while retries remain, else fails. Returns the new status (NULL when refused).

CREATE OR REPLACE FUNCTION public.svc_worker_heartbeat(worker_id text, host text, pid integer, state text, concurrency integer, model text, jobs_done bigint, jobs_failed bigint, jobs_in_flight integer, models jsonb DEFAULT NULL::jsonb, capabilities jsonb DEFAULT NULL::jsonb)
 RETURNS void
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_worker_heartbeat(text,text,integer,text,integer,text,bigint,bigint,integer,jsonb,jsonb): (default: PUBLIC may execute)
-- comment: Worker protocol: report that a worker is alive, for svc_worker_status(), and the models it serves ({"name": identity}; NULL: {"default": model}), declared in svc_models when missing; capabilities ({"name": {"serves": [functions], "dimension": n}}, from each GGUF) is what each can serve and the length of its embeddings: recorded, and serves narrowed to it.

CREATE OR REPLACE FUNCTION public.svc_worker_progress(request_id uuid, attempt integer, partial_result text, tokens integer)
 RETURNS boolean
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_worker_progress(uuid,integer,text,integer): (default: PUBLIC may execute)
-- comment: Worker protocol: the text generated so far for a job this attempt still processes (else false), announced on svc_progress as {"request_id", "tokens"}.

CREATE OR REPLACE FUNCTION public.svc_worker_released(worker_id text, request_ids uuid[])
 RETURNS uuid[]
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_worker_released(text,uuid[]): (default: PUBLIC may execute)
-- comment: Worker protocol: of these jobs, those the worker must drop or stop: no longer processing under it (cancelled by their owner, lease lost), or synchronous requests whose caller stopped waiting (cancelled now).

CREATE OR REPLACE FUNCTION public.svc_worker_renew(worker_id text, request_ids uuid[], lease_seconds double precision)
 RETURNS integer
 LANGUAGE c
AS '$libdir/svc', $function$svc_relay$function$;
-- grants on svc_worker_renew(text,uuid[],double precision): (default: PUBLIC may execute)
-- comment: Worker protocol: extend the leases of jobs this worker still holds; returns how many.

CREATE OR REPLACE FUNCTION public.svc_worker_status()
 RETURNS TABLE(worker_id text, host text, pid integer, state text, started_at timestamp with time zone, last_heartbeat timestamp with time zone, jobs_done bigint, jobs_failed bigint, jobs_in_flight integer, concurrency integer, model text, models text[])
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET standard_conforming_strings TO 'on'
AS $function$-- A stopped worker is listed for 10 minutes after it stopped, a silent one (unresponsive after a
-- minute) for a day; svc_cleanup deletes the rows of workers silent for longer than its retention.
SELECT worker_id, host, pid,
  CASE WHEN state <> 'stopped' AND last_heartbeat < clock_timestamp() - interval '1 minute' THEN 'unresponsive' ELSE state END,
  started_at, last_heartbeat, jobs_done, jobs_failed, jobs_in_flight, concurrency, model, models
FROM public.svc_workers
WHERE last_heartbeat > clock_timestamp() - CASE WHEN state = 'stopped' THEN interval '10 minutes' ELSE interval '1 day' END
ORDER BY started_at, worker_id
$function$;
-- grants on svc_worker_status(): (default: PUBLIC may execute)
-- comment: One row per worker heard from: a stopped one for 10 minutes, a silent one for a day.

CREATE AGGREGATE svc_summarize(text) (SFUNC = public.svc__summarize_step, STYPE = jsonb, FINALFUNC = svc__summarize_final, COMBINEFUNC = svc__summarize_combine, PARALLEL = UNSAFE);
-- grants on svc_summarize(text): (default: PUBLIC may execute)
-- comment: A summary of the group's texts by the model: chunks of svc.summarize_chunk_size characters summarized, partial summaries combined (map-reduce), bounded in memory and model calls by the text; deterministic for the same rows in the same order (use ORDER BY inside the call).

CREATE AGGREGATE svc_summarize(text,integer) (SFUNC = public.svc__summarize_step, STYPE = jsonb, FINALFUNC = svc__summarize_final, COMBINEFUNC = svc__summarize_combine, PARALLEL = UNSAFE);
-- grants on svc_summarize(text,integer): (default: PUBLIC may execute)
-- comment: A summary of the group's texts by the model: chunks of svc.summarize_chunk_size characters summarized, partial summaries combined (map-reduce), bounded in memory and model calls by the text; deterministic for the same rows in the same order (use ORDER BY inside the call).

CREATE AGGREGATE svc_summarize(text,integer,integer) (SFUNC = public.svc__summarize_step, STYPE = jsonb, FINALFUNC = svc__summarize_final, COMBINEFUNC = svc__summarize_combine, PARALLEL = UNSAFE);
-- grants on svc_summarize(text,integer,integer): (default: PUBLIC may execute)
-- comment: A summary of the group's texts by the model: chunks of svc.summarize_chunk_size characters summarized, partial summaries combined (map-reduce), bounded in memory and model calls by the text; deterministic for the same rows in the same order (use ORDER BY inside the call).

CREATE AGGREGATE svc_summarize(text,jsonb) (SFUNC = public.svc__summarize_step, STYPE = jsonb, FINALFUNC = svc__summarize_final, COMBINEFUNC = svc__summarize_combine, PARALLEL = UNSAFE);
-- grants on svc_summarize(text,jsonb): (default: PUBLIC may execute)
-- comment: A summary of the group's texts by the model: chunks of svc.summarize_chunk_size characters summarized, partial summaries combined (map-reduce), bounded in memory and model calls by the text; deterministic for the same rows in the same order (use ORDER BY inside the call).

CREATE AGGREGATE svc_summarize_final(jsonb) (SFUNC = svc__summarize_merge, STYPE = jsonb, FINALFUNC = svc__summarize_final, COMBINEFUNC = svc__summarize_combine, PARALLEL = UNSAFE);
-- grants on svc_summarize_final(jsonb): (default: PUBLIC may execute)
-- comment: The summary of stored svc_summarize_partial values, combined in the order given (use ORDER BY inside the call): the summary of all their rows, from their text and partial summaries, never from their rows.

CREATE AGGREGATE svc_summarize_partial(text) (SFUNC = public.svc__summarize_partial_step, STYPE = jsonb, FINALFUNC = svc__summarize_partial, COMBINEFUNC = svc__summarize_combine, PARALLEL = UNSAFE);
-- grants on svc_summarize_partial(text): (default: PUBLIC may execute)
-- comment: svc_summarize's state of the group as a value to store (a continuous aggregate's column, a table of partials): its text not yet summarized and the partial summaries of the rest; svc_summarize_final combines stored partials into the summary without reading their rows again.

CREATE AGGREGATE svc_summarize_partial(text,jsonb) (SFUNC = public.svc__summarize_partial_step, STYPE = jsonb, FINALFUNC = svc__summarize_partial, COMBINEFUNC = svc__summarize_combine, PARALLEL = UNSAFE);
-- grants on svc_summarize_partial(text,jsonb): (default: PUBLIC may execute)
-- comment: svc_summarize's state of the group as a value to store (a continuous aggregate's column, a table of partials): its text not yet summarized and the partial summaries of the rest; svc_summarize_final combines stored partials into the summary without reading their rows again.
