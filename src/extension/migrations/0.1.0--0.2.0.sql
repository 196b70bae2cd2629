-- svc 0.1.0 → 0.2.0: the result cache, the synchronous functions (which need dblink), and a
-- faster queue (PL/pgSQL worker protocol, a bound on the queue depth instead of a count).
-- Complete in itself: it creates what 0.2.0 adds as 0.2.0 defines it, not by including today's
-- schema files, so it never changes once 0.2.0 is released. Functions are (re)created by the
-- generated part of the upgrade script that follows this file.

-- The result cache (since 0.2.0): one row per (request, model). The key is the SHA-256 of the request's
-- canonical JSON (src/queue/cache-key.ts: function and every parameter but use_cache); the model
-- identity is part of the primary key, so switching models never serves a stale answer. Shared by all
-- roles: the same request gives the same bytes whoever asks.
CREATE TABLE svc_cache (
  cache_key     text NOT NULL,
  model         text NOT NULL,
  function_name text NOT NULL,
  result        text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
  last_hit_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  hits          bigint NOT NULL DEFAULT 0,
  stop_reason   text CHECK (stop_reason IN ('end', 'max_tokens', 'stop', 'context')), -- a generation's, as svc_queue.stop_reason
  PRIMARY KEY (cache_key, model)
);
-- Counters outside transactions: a lookup counts even when its transaction rolls back.
CREATE SEQUENCE svc_cache_hits;
CREATE SEQUENCE svc_cache_misses;

-- At least the number of requests pending or processing, over all roles (for svc.max_queue_size), read
-- from two index ends: submissions are numbered (seq), so none active is older than the oldest active
-- one nor newer than the last number. A view owned by the extension's owner, so row-level security
-- does not hide other roles' requests from it, and planned into the submitter's own statement (as a
-- SECURITY DEFINER function it was a call of its own, a fifth of a submission). It shows only that bound.
--
-- Its index serves it and nothing else: `seq > 0` (always true, seq counts from 1) is in the predicate
-- so that no other statement's WHERE clause implies it. A partial index whose predicate a query's
-- clauses imply is a candidate for that query even when it serves none of them, and the worker
-- protocol's generic plans, made on an empty table, took this one for the claim and the lease probe,
-- then filtered and sorted every active row on each call (4 ms per claim with 5,000 pending).
CREATE INDEX svc_queue_active_idx ON svc_queue (seq) WHERE status IN ('pending', 'processing') AND seq > 0;
CREATE VIEW svc__queue_depth_bound AS
  SELECT coalesce(s.last_value - (SELECT min(q.seq) FROM svc_queue q WHERE q.status IN ('pending', 'processing') AND q.seq > 0) + 1, 0) AS depth,
         s.last_value AS last_seq
  FROM svc_queue_seq_seq s;
GRANT SELECT ON svc__queue_depth_bound TO PUBLIC;

-- As in schema.sql: no statistics on status: how many rows are pending swings from none to all between two ANALYZEs,
-- and stats taken while the queue was drained (say 99.9% 'completed') make the planner expect no
-- pending row when a burst arrives; it then claims through another partial index plus a sort of every
-- active row (1.5 ms with 5,000 pending) instead of the first entries of svc_queue_claim_idx. Without
-- stats it assumes a small fraction (0.5% per status), for which the partial indexes always win.
ALTER TABLE svc_queue ALTER COLUMN status SET STATISTICS 0;

-- Each request's row is written three or four times (submitted, claimed, finished, then deleted by
-- retention), and a busy queue turns over its whole table in minutes: vacuum it often and without the
-- cost-based pauses (which let a 1,000,000-request soak grow the table to 1 GB of dead rows before a
-- single autovacuum finished; bench/queue-soak.ts).
ALTER TABLE svc_queue SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 1000,
  autovacuum_vacuum_insert_scale_factor = 0.05, autovacuum_vacuum_cost_delay = 0, autovacuum_analyze_scale_factor = 0.05);

-- Only svc's functions write svc_queue (see schema.sql): no INSERT or UPDATE for PUBLIC, and the
-- submitters name the owner. Each request records the transaction that submitted it.
DROP POLICY svc_queue_submit ON svc_queue;
DROP POLICY svc_queue_cancel ON svc_queue;
-- A request belongs to its role's oid, never its name: a role made later under the name of a dropped
-- one inherits nothing. The requests of roles dropped already belong to nobody, and go.
DROP POLICY svc_queue_read ON svc_queue;
DELETE FROM svc_queue WHERE to_regrole(quote_ident(owner)) IS NULL;
ALTER TABLE svc_queue ALTER COLUMN owner DROP DEFAULT, ALTER COLUMN owner TYPE regrole USING to_regrole(quote_ident(owner)),
  ALTER COLUMN owner SET DEFAULT to_regrole(quote_ident(current_user));
CREATE POLICY svc_queue_read ON svc_queue FOR SELECT
  USING (owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user) OR pg_has_role(current_user, 'svc_admin', 'MEMBER'));
REVOKE INSERT, UPDATE ON svc_queue FROM PUBLIC;
REVOKE INSERT (function_name, parameters, grammar, priority, batch_id, batch_index), UPDATE (status, cancelled_at) ON svc_queue FROM PUBLIC;
ALTER TABLE svc_queue ADD COLUMN submitted_xact xid8 NOT NULL DEFAULT pg_current_xact_id();
-- Synchronous calls hold an advisory lock while they wait; a claim cancels requests whose caller is gone.
ALTER TABLE svc_queue ADD COLUMN waiter integer;
CREATE INDEX svc_queue_waiter_idx ON svc_queue (waiter) WHERE waiter IS NOT NULL;

-- Several models (see schema.sql): the registry, each request's model, the claim index per model,
-- each worker's models. Functions whose signature or result changed are dropped here and re-created
-- by the generated part that follows.
ALTER TABLE svc_queue ADD COLUMN model text NOT NULL GENERATED ALWAYS AS (coalesce(parameters->>'model', 'default')) STORED;
DROP INDEX svc_queue_claim_idx;
CREATE INDEX svc_queue_claim_idx ON svc_queue (model, priority DESC, seq) WHERE status = 'pending';
ALTER TABLE svc_workers ADD COLUMN models text[] NOT NULL DEFAULT ARRAY['default'];
CREATE TABLE svc_models (
  name        text PRIMARY KEY,
  serves      text[] NOT NULL DEFAULT ARRAY['generate', 'embed', 'rerank'],
  identity    text,
  declared_at timestamptz NOT NULL DEFAULT now(),
  loaded_at   timestamptz,
  -- What the file last loaded under the name can serve, as its worker read the GGUF (an embedding model
  -- does not generate); NULL until a worker loaded it, or for an inference server. Never wider than this:
  -- serves (svc_worker_heartbeat narrows it, svc_model_declare refuses more).
  capabilities text[],
  -- The length of its embeddings, as its worker loaded it (NULL: not known yet): svc_vectorize refuses other dimensions.
  dimension   integer,
  -- The context its worker serves it with, in tokens (NULL: not known yet): svc_summarize cuts its text to fit it.
  context_size integer,
  CONSTRAINT svc_models_name CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._:-]{0,62}$'),
  CONSTRAINT svc_models_serves CHECK (cardinality(serves) > 0 AND serves <@ ARRAY['generate', 'embed', 'rerank']),
  CONSTRAINT svc_models_capabilities CHECK (capabilities <@ ARRAY['generate', 'embed', 'rerank'])
);
INSERT INTO svc_models (name) VALUES ('default');
GRANT SELECT ON svc_models TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('svc_models', '');
-- Their results gained a column (models, model) or their signature a parameter (models).
DROP FUNCTION svc_worker_status();
DROP FUNCTION svc_queue_stats();
DROP FUNCTION svc_worker_claim(text, integer, double precision, integer);
DROP FUNCTION svc_worker_heartbeat(text, text, integer, text, integer, text, bigint, bigint, integer);
-- Granted to one role in 0.1.0, these are relays granted to PUBLIC in 0.2.0 (src/native/relay.c checks
-- EXECUTE on their bodies and names the role): made again with 0.2.0's grants, not 0.1.0's.
DROP FUNCTION svc_cleanup(interval);
DROP FUNCTION svc_worker_complete(uuid, integer, text);
DROP FUNCTION svc_worker_fail(uuid, integer, text, integer);
DROP FUNCTION svc_worker_renew(text, uuid[], double precision);
-- The generation submitters gained seeded sampling and stop strings (temperature, top_k, top_p, min_p,
-- stop) before priority, which stays last: the 0.2.0 forms are created below, these must not stay
-- beside them as overloads.
DROP FUNCTION svc_generate_async(text, integer, boolean, integer, integer);
DROP FUNCTION svc_generate_json_async(text, jsonb, integer, boolean, integer, integer);
DROP FUNCTION svc_generate_regex_async(text, text, integer, boolean, integer, integer);
DROP FUNCTION svc_generate_choice_async(text, text[], integer, boolean, integer, integer);
DROP FUNCTION svc_generate_batch_async(text[], integer, boolean, integer, integer);

-- svc_owner (as schema.sql defines it in 0.2.0): the owner of svc's tables and of all its functions but those docs/security.md lists as
-- the superuser's ("Who owns svc's objects"), so that what runs with svc's owner's rights has svc's
-- rights, not the cluster's. NOLOGIN, no attribute, no membership either way; the install refuses
-- one that has more.
DO $owner_role$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'svc_owner') THEN
    CREATE ROLE svc_owner NOLOGIN NOINHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
  ELSIF EXISTS (
    SELECT FROM pg_roles r WHERE r.rolname = 'svc_owner'
      AND (r.rolsuper OR r.rolcreaterole OR r.rolcreatedb OR r.rolreplication OR r.rolbypassrls OR r.rolcanlogin
        OR EXISTS (SELECT FROM pg_auth_members m WHERE m.member = r.oid OR m.roleid = r.oid))
  ) THEN
    RAISE EXCEPTION 'role svc_owner must be NOLOGIN with no other attribute and no membership: it owns svc''s objects'
      USING HINT = 'ALTER ROLE svc_owner NOLOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS, and revoke its memberships.';
  END IF;
END
$owner_role$;
-- Its SECURITY DEFINER functions pin plv8.start_proc empty (scripts/build-extension.ts), a setting
-- plv8-compat keeps to superusers.
GRANT SET ON PARAMETER plv8.start_proc TO svc_owner;

-- The synchronous functions' autonomous session (as sync.sql defines it in 0.2.0).

-- svc_sync: the role that session logs in as. It may run svc__sync_submit, svc__sync_state and
-- svc__sync_cancel (granted with them) and nothing else of svc's; the sync functions refuse to use it
-- when it has any other attribute or a membership. Cluster-wide, so created only when missing.
DO $role$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'svc_sync') THEN
    CREATE ROLE svc_sync LOGIN NOINHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
  END IF;
END
$role$;
-- Its sessions run with track_activities off (their connection options, sql/svc__sync_dblink.sql): their statements
-- carry a waiting call's token and its prompts, and pg_stat_activity would show them to anyone else
-- logged in as svc_sync. A superuser-only setting, so granted (a parameter privilege, no attribute).
GRANT SET ON PARAMETER track_activities TO svc_sync;

-- The digest of the token of the sync call that submitted a request (autonomous.ts): svc__sync_state
-- and svc__sync_cancel act on a request only for the token it was submitted with.
ALTER TABLE svc_queue ADD COLUMN sync_token bytea;

-- Settings that only an administrator makes: no role but the extension's owner reads or writes this
-- table; svc_set_sync_connection (svc_admin) writes 'sync_connection'. A session's SET cannot reach it.
CREATE TABLE svc_config (
  name   text PRIMARY KEY,
  value  jsonb NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now()
);
SELECT pg_catalog.pg_extension_config_dump('svc_config', '');

-- dblink's functions are executable by PUBLIC as dblink installs them; through them any role could run
-- statements on a connection svc keeps in its backend. Only the roles a DBA grants them to may now
-- (superusers always may); the sync functions give a caller who may a one-shot session instead.
DO $dblink$
DECLARE
  f regprocedure;
BEGIN
  FOR f IN
    SELECT p.oid::regprocedure FROM pg_depend d
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'dblink'
    JOIN pg_proc p ON p.oid = d.objid
    WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
  END LOOP;
END
$dblink$;

-- Vectorizers (since 0.2.0): the queue takes their jobs, and two tables hold what they are and how far
-- each source row is (as src/extension/vectorizer.sql defines them in 0.2.0).
ALTER TABLE svc_queue DROP CONSTRAINT svc_queue_function_name_check,
  ADD CONSTRAINT svc_queue_function_name_check
  CHECK (function_name IN ('generate', 'embed', 'generate_json', 'generate_regex', 'generate_choice', 'rerank', 'vectorize', 'embed_many', 'generate_many'));
CREATE TABLE svc_vectorizers (
  id             integer GENERATED ALWAYS AS IDENTITY UNIQUE,
  name           text PRIMARY KEY CONSTRAINT svc_vectorizers_name CHECK (name ~ '^[a-z_][a-z0-9_]{0,39}$'),
  owner          regrole NOT NULL,
  source         regclass NOT NULL,
  source_column  text NOT NULL,
  key_columns    text[] NOT NULL,
  format         text NOT NULL,
  chunking       jsonb NOT NULL,
  model          text NOT NULL,
  destination    regclass NOT NULL,
  embedding_type text NOT NULL CHECK (embedding_type IN ('real[]', 'vector')),
  batch_size     integer NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE svc_vectorizers ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_vectorizers_read ON svc_vectorizers FOR SELECT
  USING (owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user) OR pg_has_role(current_user, 'svc_admin', 'MEMBER'));
GRANT SELECT ON svc_vectorizers TO PUBLIC;
CREATE TABLE svc_vectorizer_rows (
  vectorizer integer NOT NULL REFERENCES svc_vectorizers (id) ON DELETE CASCADE,
  key        jsonb NOT NULL,
  input_hash text NOT NULL,
  request_id uuid,
  state      text NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
  chunks     integer NOT NULL DEFAULT 0,
  error      text,
  queued_at  timestamptz NOT NULL DEFAULT now(),
  done_at    timestamptz,
  PRIMARY KEY (vectorizer, key)
) WITH (fillfactor = 80);
CREATE INDEX svc_vectorizer_rows_request_idx ON svc_vectorizer_rows (request_id);
CREATE INDEX svc_vectorizer_rows_failed_idx ON svc_vectorizer_rows (vectorizer, done_at) WHERE state = 'failed';

-- The prompt registry (since 0.2.0), as src/extension/prompts.sql defines it in 0.2.0.
CREATE TABLE svc_prompts (
  owner       regrole NOT NULL,
  name        text NOT NULL CONSTRAINT svc_prompts_name CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._:-]{0,62}$'),
  version     integer NOT NULL CHECK (version > 0),
  template    text NOT NULL,
  description text,
  metadata    jsonb NOT NULL DEFAULT '{}' CONSTRAINT svc_prompts_metadata CHECK (jsonb_typeof(metadata) = 'object'),
  variables   text[] NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (owner, name, version)
);
ALTER TABLE svc_prompts ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_prompts_read ON svc_prompts FOR SELECT
  USING (owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user) OR pg_has_role(current_user, 'svc_admin', 'MEMBER'));
GRANT SELECT ON svc_prompts TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('svc_prompts', '');

-- Streamed partial text (since 0.2.0), as src/extension/progress.sql defines it in 0.2.0.
CREATE UNLOGGED TABLE svc_partial_results (
  request_id     uuid PRIMARY KEY,
  attempt        integer NOT NULL,
  owner          regrole NOT NULL,
  partial_result text NOT NULL,
  tokens         integer NOT NULL,
  updated_at     timestamptz NOT NULL
) WITH (fillfactor = 50);
ALTER TABLE svc_partial_results ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_partial_results_read ON svc_partial_results FOR SELECT
  USING (owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user) OR pg_has_role(current_user, 'svc_admin', 'MEMBER'));
GRANT SELECT ON svc_partial_results TO PUBLIC;

-- Limits across roles (since 0.2.0), as src/extension/limits.sql defines them in 0.2.0.
ALTER TABLE svc_queue ADD COLUMN stored_bytes integer;
ALTER TABLE svc_queue ADD COLUMN inputs integer NOT NULL DEFAULT 1 CHECK (inputs >= 1);
CREATE INDEX svc_queue_owner_active_idx ON svc_queue (owner, seq) INCLUDE (stored_bytes, inputs)
  WHERE status IN ('pending', 'processing') AND stored_bytes >= 0;
CREATE TABLE svc_role_limits (
  role_name        regrole PRIMARY KEY,
  max_pending      bigint CHECK (max_pending >= 0),
  max_stored_bytes bigint CHECK (max_stored_bytes >= 0),
  set_at           timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE svc_role_limits ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_role_limits_read ON svc_role_limits FOR SELECT
  USING (role_name = (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user) OR pg_has_role(current_user, 'svc_admin', 'MEMBER'));
GRANT SELECT ON svc_role_limits TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('svc_role_limits', '');

-- svc_rerank_batch_async's documents (since 0.2.0), stored once for all the queries of a call (each query's request
-- names them in documents_id instead of carrying them; a 200 KB call over 190 queries stored 38 MB
-- before). The claim hands the worker each request's parameters with its documents put back, exactly
-- svc_rerank_async's parameters, so its answer and cache entry are the same bytes. A row goes when no
-- request names it any more (svc_worker_cleanup, svc_cleanup); each role reads its own.
CREATE TABLE svc_documents (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner      regrole NOT NULL,
  documents  jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE svc_documents ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_documents_read ON svc_documents FOR SELECT
  USING (owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user) OR pg_has_role(current_user, 'svc_admin', 'MEMBER'));
GRANT SELECT ON svc_documents TO PUBLIC;
ALTER TABLE svc_queue ADD COLUMN documents_id uuid;
CREATE INDEX svc_queue_documents_idx ON svc_queue (documents_id) WHERE documents_id IS NOT NULL;
SELECT pg_catalog.pg_extension_config_dump('svc_documents', '');

-- How a generation ended, so an output cut where the model's context was full is marked (#53).
ALTER TABLE svc_queue ADD COLUMN stop_reason text CHECK (stop_reason IN ('end', 'max_tokens', 'stop', 'context'));
