-- Vectorizers (svc_vectorize, docs/vectorizer.md): a source table's text column kept embedded, chunk by
-- chunk, in a destination table. Part of the generated extension script.

-- One row per vectorizer. Its destination is svc_owner's, of built-in types only, the declaring role
-- granted SELECT: nothing of any role's is attached to it, so the worker writes it without running
-- a role's code (docs/security.md, "Sessions with more rights than a role"). The source's triggers
-- call svc__vz_<id>_changed (owned by the declaring role's proxy, generated), which hands what it read
-- to the vectorizer's gate svc__vz_<id>_queue (svc_owner's) as jsonb.
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
-- Each role sees its own vectorizers (svc_admin members all); only svc's functions write.
ALTER TABLE svc_vectorizers ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_vectorizers_read ON svc_vectorizers FOR SELECT
  USING (owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user) OR pg_has_role(current_user, 'svc_admin', 'MEMBER'));
GRANT SELECT ON svc_vectorizers TO PUBLIC;

-- What each source row's embedding stands at: the hash of the input last queued (a row whose input
-- did not change is not queued again), the request that embeds it (a completion writes only when it
-- is still the row's request, so an older version never has the last word), and the outcome.
-- Read through svc_vectorizer_status(); no role reads it directly.
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
