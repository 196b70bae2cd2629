-- svc's errors: the queue's limits and a request's outcomes (regress.err: surface.sql)
\pset pager off
\pset format unaligned
-- The first call of a SECURITY DEFINER function in a session creates the plv8 context of svc's
-- owner, under plv8.start_proc pinned empty: the genuine plv8 warns there that '' names no function
-- (plv8-compat does not). It is made here, quietly, so that the rest reads the same on both handlers.
SET client_min_messages = error;
SELECT regress.err($$SELECT svc_generate_async(NULL)$$) IS NOT NULL AS owner_context;
RESET client_min_messages;
\pset tuples_only on

-- 53400: the queue is full (one request pending, at most one allowed)
SET svc.max_queue_size = 1;
SELECT svc_generate_async('fills the queue') AS id \gset
SELECT regress.err($$SELECT svc_generate_async('one too many')$$);
SELECT svc_cancel_async(:'id');
RESET svc.max_queue_size;

-- SV004 unknown request; SV003 timed out; SV002 cancelled; SV001 failed; SV005 not committed
SELECT regress.err($$SELECT svc_get_async_result('00000000-0000-0000-0000-000000000000', 0)$$);
SELECT svc_generate_async('waits') AS id \gset
SELECT regress.err(format('SELECT svc_get_async_result(%L, 0)', :'id'));
SELECT svc_cancel_async(:'id');
SELECT regress.err(format('SELECT svc_get_async_result(%L, 0)', :'id'));
SELECT svc_generate_async('fails') AS id \gset
-- (as a superuser: only a worker's svc_worker_fail writes this for real)
UPDATE svc_queue SET status = 'failed', error = 'output does not match its constraint' WHERE request_id = :'id';
SELECT regress.err(format('SELECT svc_get_async_result(%L, 0)', :'id'));
BEGIN;
SELECT svc_generate_async('uncommitted') AS id \gset
SELECT regress.err(format('SELECT svc_get_async_result(%L, 0)', :'id'));
ROLLBACK;

-- SV003 from a synchronous call with no worker: the request is cancelled, the message says why
SET svc.sync_timeout = '1s';
SELECT regress.err($$SELECT svc_generate('no worker here')$$);
RESET svc.sync_timeout;
SELECT function_name, status FROM svc_queue ORDER BY seq;

-- SV006 from a synchronous call for a model no running worker serves (one worker runs, serving
-- 'default'): at once, nothing enqueued
SELECT svc_worker_heartbeat('regress-worker', 'h', 1, 'running', 1, 'file', 0, 0, 0);
SET svc.model = 'regress-embedder';
SELECT regress.err($$SELECT svc_embed('x')$$);
RESET svc.model;
DELETE FROM svc_workers;
SELECT count(*) AS queued FROM svc_queue WHERE model <> 'default';
