-- svc's errors: svc_summarize (regress.err: surface.sql)
\pset pager off
\pset format unaligned
-- The first call of a SECURITY DEFINER function in a session creates the plv8 context of svc's
-- owner, under plv8.start_proc pinned empty: the genuine plv8 warns there that '' names no function
-- (plv8-compat does not). It is made here, quietly, so that the rest reads the same on both handlers.
SET client_min_messages = error;
SELECT regress.err($$SELECT svc_generate_async(NULL)$$) IS NOT NULL AS owner_context;
RESET client_min_messages;
\pset tuples_only on

-- svc_summarize, the aggregate: its arguments and setting named, nothing enqueued; a group of no
-- text is NULL without a model call
CREATE TABLE regress_texts (id integer, body text);
INSERT INTO regress_texts VALUES (1, 'one'), (2, 'two'), (3, NULL);
SELECT regress.err($$SELECT svc_summarize(body, 0) FROM regress_texts$$);
SELECT regress.err($$SELECT svc_summarize(body, NULL::integer) FROM regress_texts$$);
-- an untyped NULL or literal cannot tell the integer form from the jsonb one (#56)
SELECT regress.err($$SELECT svc_summarize(body, NULL) FROM regress_texts$$);
SELECT regress.err($$SELECT svc_summarize(body, '{"max_token": 5}'::jsonb) FROM regress_texts$$);
SELECT regress.err($$SELECT svc_summarize_final('{"format": "other"}'::jsonb)$$);
SELECT regress.err($$SELECT svc_summarize(body, 16, NULL) FROM regress_texts$$);
SELECT regress.err($$SELECT svc_summarize(body, 16, id ORDER BY id) FROM regress_texts$$);
SET svc.summarize_chunk_size = '50';
SELECT regress.err($$SELECT svc_summarize(body) FROM regress_texts$$);
RESET svc.summarize_chunk_size;
SELECT svc_summarize(body) IS NULL AS no_text FROM regress_texts WHERE body IS NULL;
SELECT count(*) AS queued FROM svc_queue WHERE function_name = 'generate' AND status = 'pending';
DROP TABLE regress_texts;
