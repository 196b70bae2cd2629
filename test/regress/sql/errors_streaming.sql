-- svc's errors: streaming (regress.err: surface.sql)
\pset pager off
\pset format unaligned
-- The first call of a SECURITY DEFINER function in a session creates the plv8 context of svc's
-- owner, under plv8.start_proc pinned empty: the genuine plv8 warns there that '' names no function
-- (plv8-compat does not). It is made here, quietly, so that the rest reads the same on both handlers.
SET client_min_messages = error;
SELECT regress.err($$SELECT svc_generate_async(NULL)$$) IS NOT NULL AS owner_context;
RESET client_min_messages;
\pset tuples_only on

-- Streaming: a request's text so far (a pending one has none), an unknown one no row, and the worker
-- protocol's write of partial text (refused for an attempt that is not processing)
SELECT regress.err($$SELECT * FROM svc_get_partial_result(NULL)$$);
SELECT count(*) AS unknown FROM svc_get_partial_result('00000000-0000-0000-0000-000000000000');
SELECT status, partial_result, tokens, error, updated_at FROM svc_get_partial_result(svc_generate_async('streamed'));
SELECT regress.err($$SELECT svc_worker_progress(NULL, 1, 'x', 1)$$);
SELECT regress.err($$SELECT svc_worker_progress('00000000-0000-0000-0000-000000000000', 1, 'x', -1)$$);
SELECT svc_worker_progress('00000000-0000-0000-0000-000000000000', 1, 'x', 1) AS stored;
