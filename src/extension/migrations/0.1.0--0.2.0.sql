-- svc 0.1.0 → 0.2.0: the result cache, the synchronous functions (which need dblink), and a
-- faster queue (PL/pgSQL worker protocol, a bound on the queue depth instead of a count).
-- `@include FILE` pulls in a schema file of src/extension as it is today; functions are (re)created
-- by the generated part of the upgrade script that follows this file.
-- @include cache.sql

-- The cheap bound on the queue's depth (svc__queue_depth_bound) reads the oldest active request here.
CREATE INDEX svc_queue_active_idx ON svc_queue (seq) WHERE status IN ('pending', 'processing');
