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
