-- Limits across roles (docs/security.md, "Limits across roles"): how many requests a role may have
-- pending or processing, and how many bytes their parameters and grammars may take, whatever its
-- session sets. Only svc_admin members set them (svc_set_role_limits, svc_set_queue_limits); the
-- submitters enforce them (src/extension/submit.ts). Part of the generated extension script, after
-- sync.sql (svc_config), and of the 0.1.0 → 0.2.0 upgrade.

-- The bytes a request stores as submitted: its parameters (jsonb, as stored before compression) and
-- its grammar, written by svc's submitters and by a vectorizer's (svc__vectorizer_enqueue).
ALTER TABLE svc_queue ADD COLUMN stored_bytes integer;

-- The inputs a request stands for, which a role's quota of requests counts: 1, or the texts of an
-- embed_many request (a set-based svc_embed's texts, up to 64 a request: src/extension/sync.ts) or
-- the prompts of a generate_many one (a set-based generation's), so a role holds no more work in the
-- queue by submitting them together.
ALTER TABLE svc_queue ADD COLUMN inputs integer NOT NULL DEFAULT 1 CHECK (inputs >= 1);

-- A role's active requests in submission order with their bytes: a submission counts the role's
-- requests since its session last counted (one index descent when there are none), and recounts
-- them all only when that bound passes a limit (submit.ts checkRoleQuota). `stored_bytes >= 0` in
-- the predicate keeps other statements from taking this index (their clauses never imply it; see
-- queue-bound.sql) and leaves out the rows that do not count.
CREATE INDEX svc_queue_owner_active_idx ON svc_queue (owner, seq) INCLUDE (stored_bytes, inputs)
  WHERE status IN ('pending', 'processing') AND stored_bytes >= 0;

-- A role's own quotas; a NULL column takes the default (svc_config 'queue_limits', else LIMITS in
-- limits.ts). Each role reads its own row, svc_admin members all; only svc_set_role_limits writes.
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

-- svc_rerank_batch_async's documents, stored once for all the queries of a call (each query's request
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
