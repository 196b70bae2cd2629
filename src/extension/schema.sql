-- svc tables, roles and row-level security. Part of the generated extension script
-- (scripts/build-extension.ts); the functions that use them are emitted after this file.

-- Roles: svc_worker claims and completes jobs; svc_admin sees every request. Roles are cluster-wide
-- and outlive the extension, so they are created only when missing.
DO $roles$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'svc_worker') THEN CREATE ROLE svc_worker NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'svc_admin') THEN CREATE ROLE svc_admin NOLOGIN; END IF;
END
$roles$;

-- svc_owner: the owner of svc's tables and of all its functions but those docs/security.md lists as
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

CREATE TABLE svc_queue (
  request_id       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq              bigint GENERATED ALWAYS AS IDENTITY, -- submission order, for oldest-first claims
  function_name    text NOT NULL CHECK (function_name IN ('generate', 'embed', 'generate_json', 'generate_regex', 'generate_choice', 'rerank', 'vectorize', 'embed_many', 'generate_many')),
  parameters       jsonb NOT NULL,
  grammar          text,                    -- GBNF compiled at submission, for constrained generation
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'completed', 'failed', 'cancelled')),
  priority         integer NOT NULL DEFAULT 0,
  result           text,
  error            text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  started_at       timestamptz,
  completed_at     timestamptz,
  failed_at        timestamptz,
  cancelled_at     timestamptz,
  retry_count      integer NOT NULL DEFAULT 0,
  run_after        timestamptz NOT NULL DEFAULT now(), -- backoff: not claimed before this
  attempt          integer NOT NULL DEFAULT 0,         -- bumped per claim; a completion must name it
  worker_id        text,
  lease_expires_at timestamptz,
  -- The session's role, by oid (SESSION_ROLE_ID in queries.ts): a role made later under its name is
  -- another. Compare it as regrole: owner = 'alice'::regrole. (The default is for a superuser's INSERT.)
  owner            regrole NOT NULL DEFAULT to_regrole(quote_ident(current_user)),
  batch_id         uuid,
  batch_index      integer,
  submitted_xact   xid8 NOT NULL DEFAULT pg_current_xact_id(), -- so a wait on an uncommitted request fails at once
  waiter           integer, -- a synchronous call's advisory lock, held while it waits (SYNC_WAITER_LOCK in queries.ts)
  -- The model that serves the request (svc_models): recorded in its parameters when it is not
  -- 'default', so it is part of the cache key; a column for the claim's index.
  model            text NOT NULL GENERATED ALWAYS AS (coalesce(parameters->>'model', 'default')) STORED,
  -- How a generation ended (docs/sql.md, "How an output ended"): end, max_tokens, stop, or context
  -- (cut where the model's context was full, before max_tokens). NULL for other functions.
  stop_reason      text CHECK (stop_reason IN ('end', 'max_tokens', 'stop', 'context'))
);

-- The claim order (priority first, then age) of each model's pending rows, and expired-lease sweeps.
-- (The index the queue-depth bound reads is in queue-bound.sql.)
CREATE INDEX svc_queue_claim_idx ON svc_queue (model, priority DESC, seq) WHERE status = 'pending';
CREATE INDEX svc_queue_lease_idx ON svc_queue (lease_expires_at) WHERE status = 'processing';
-- Requests whose synchronous caller may have stopped waiting: pending or processing ones of sync calls
-- (completion clears waiter), checked on each claim through the IS NOT NULL index condition.
CREATE INDEX svc_queue_waiter_idx ON svc_queue (waiter) WHERE waiter IS NOT NULL;
CREATE INDEX svc_queue_finished_idx ON svc_queue (coalesce(completed_at, failed_at, cancelled_at)) WHERE status IN ('completed', 'failed', 'cancelled');

-- No statistics on status: how many rows are pending swings from none to all between two ANALYZEs,
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

-- Requests belong to the role that submitted them; svc_admin members see all. Nobody but svc's own
-- functions writes these tables: the submitters, cancel and the worker protocol are SECURITY DEFINER
-- and run as svc's owner (svc_owner, the tables' owner), past these policies. A role with INSERT
-- could queue a request with a grammar of its own whose answer the worker would cache under another
-- request's parameters.
ALTER TABLE svc_queue ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_queue_read ON svc_queue FOR SELECT
  USING (owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user) OR pg_has_role(current_user, 'svc_admin', 'MEMBER'));
GRANT SELECT ON svc_queue TO PUBLIC;

CREATE TABLE svc_workers (
  worker_id      text PRIMARY KEY,
  host           text NOT NULL,
  pid            integer NOT NULL,
  state          text NOT NULL,
  concurrency    integer NOT NULL,
  model          text,
  started_at     timestamptz NOT NULL DEFAULT now(),
  last_heartbeat timestamptz NOT NULL DEFAULT now(),
  jobs_done      bigint NOT NULL DEFAULT 0,
  jobs_failed    bigint NOT NULL DEFAULT 0,
  jobs_in_flight integer NOT NULL DEFAULT 0,
  models         text[] NOT NULL DEFAULT ARRAY['default'] -- the names (svc_models) it serves and claims for
);
GRANT SELECT ON svc_workers TO PUBLIC;

-- The models a deployment serves, by name. 'default' is what a worker started with one --model PATH
-- serves; a worker started with --model NAME=PATH declares NAME when it is missing. `identity` is
-- the file (name, size, digest) a worker last loaded under the name: the cache keeps answers per
-- identity, so a new file never serves an old one's answers. svc_model_declare() (svc_admin) sets
-- which functions a name serves; requests for a function it does not serve are refused at the call.
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

-- The queue-depth bound is in queue-bound.sql and the result cache in cache.sql, emitted after this file.

SELECT pg_catalog.pg_extension_config_dump('svc_queue', '');
SELECT pg_catalog.pg_extension_config_dump('svc_workers', '');
SELECT pg_catalog.pg_extension_config_dump('svc_models', '');
