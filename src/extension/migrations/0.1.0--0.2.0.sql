-- svc 0.1.0 → 0.2.0: the result cache, the synchronous functions (which need dblink), and a
-- faster queue (PL/pgSQL worker protocol, a bound on the queue depth instead of a count).
-- `@include FILE` pulls in a schema file of src/extension as it is today; functions are (re)created
-- by the generated part of the upgrade script that follows this file.
-- @include cache.sql

-- The cheap bound on the queue's depth (svc__queue_depth_bound) and the index it reads.
-- @include queue-bound.sql

-- As in schema.sql: no statistics on status: how many rows are pending swings from none to all between two ANALYZEs,
-- and stats taken while the queue was drained (say 99.9% 'completed') make the planner expect no
-- pending row when a burst arrives; it then claims through another partial index plus a sort of every
-- active row (1.5 ms with 5,000 pending) instead of the first entries of svc_queue_claim_idx. Without
-- stats it assumes a small fraction (0.5% per status), for which the partial indexes always win.
ALTER TABLE svc_queue ALTER COLUMN status SET STATISTICS 0;

-- Only svc's functions write svc_queue (see schema.sql): no INSERT or UPDATE for PUBLIC, and the
-- submitters name the owner. Each request records the transaction that submitted it.
DROP POLICY svc_queue_submit ON svc_queue;
DROP POLICY svc_queue_cancel ON svc_queue;
REVOKE INSERT, UPDATE ON svc_queue FROM PUBLIC;
REVOKE INSERT (function_name, parameters, grammar, priority, batch_id, batch_index), UPDATE (status, cancelled_at) ON svc_queue FROM PUBLIC;
ALTER TABLE svc_queue ADD COLUMN submitted_xact xid8 NOT NULL DEFAULT pg_current_xact_id();
-- Synchronous calls hold an advisory lock while they wait; a claim cancels requests whose caller is gone.
ALTER TABLE svc_queue ADD COLUMN waiter integer;
CREATE INDEX svc_queue_waiter_idx ON svc_queue (waiter) WHERE waiter IS NOT NULL;
