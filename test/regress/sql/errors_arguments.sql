-- svc's errors: each argument's and setting's rule (regress.err: surface.sql)
\pset pager off
\pset format unaligned
-- The first call of a SECURITY DEFINER function in a session creates the plv8 context of svc's
-- owner, under plv8.start_proc pinned empty: the genuine plv8 warns there that '' names no function
-- (plv8-compat does not). It is made here, quietly, so that the rest reads the same on both handlers.
SET client_min_messages = error;
SELECT regress.err($$SELECT svc_generate_async(NULL)$$) IS NOT NULL AS owner_context;
RESET client_min_messages;
\pset tuples_only on

-- 22004: an explicit NULL is never a default
SELECT regress.err($$SELECT svc_generate_async(NULL)$$);
SELECT regress.err($$SELECT svc_generate_async('x', max_tokens := NULL)$$);
SELECT regress.err($$SELECT svc_generate_async('x', temperature := NULL)$$);
SELECT regress.err($$SELECT svc_generate_async('x', stop := ARRAY['a', NULL])$$);
SELECT regress.err($$SELECT svc_generate_json_async('x', NULL)$$);
SELECT regress.err($$SELECT svc_generate_choice_async('x', ARRAY['a', NULL])$$);
SELECT regress.err($$SELECT svc_embed_batch_async(ARRAY['a', NULL])$$);
SELECT regress.err($$SELECT * FROM svc_check_async(NULL)$$);
SELECT regress.err($$SELECT svc_cleanup(NULL)$$);

-- 22023: a value outside its rule
SELECT regress.err($$SELECT svc_generate_async('x', max_tokens := 0)$$);
SELECT regress.err($$SELECT svc_generate_async('x', priority := 101)$$);
SELECT regress.err($$SELECT svc_generate_async('x', max_tokens := 32769)$$);
-- seeded sampling and stop strings (#56): each option's rule
SELECT regress.err($$SELECT svc_generate_async('x', temperature := 2.5)$$);
SELECT regress.err($$SELECT svc_generate_async('x', top_k := -1)$$);
SELECT regress.err($$SELECT svc_generate_async('x', top_p := 0)$$);
SELECT regress.err($$SELECT svc_generate_async('x', min_p := 1)$$);
SELECT regress.err($$SELECT svc_generate_async('x', stop := ARRAY[''])$$);
SELECT regress.err($$SELECT svc_generate_async('x', stop := array_fill('s'::text, ARRAY[17]))$$);
SELECT regress.err($$SELECT svc_generate_json_async('x', '{"type":"foo"}')$$);
SELECT regress.err($$SELECT svc_generate_json_async('x', '{"type":"string","minLength":3,"maxLength":2}')$$);
SELECT regress.err($$SELECT svc_generate_regex_async('x', 'a(b')$$);
SELECT regress.err($$SELECT svc_generate_regex_async('x', 'a(?=b)')$$);
SELECT regress.err($$SELECT svc_generate_choice_async('x', ARRAY[]::text[])$$);
SELECT regress.err($$SELECT svc_generate_choice_async('x', ARRAY['a', 'a'])$$);
SELECT regress.err($$SELECT svc_rerank_async('q', ARRAY['a', ''])$$);
SELECT regress.err($$SELECT svc_rerank_async('', ARRAY['a'])$$);
SELECT regress.err($$SELECT svc_get_async_result('00000000-0000-0000-0000-000000000000', -1)$$);
SELECT regress.err($$SELECT svc_get_async_result('not a uuid')$$);
SET svc.prompt_format = 'markdown';
SELECT regress.err($$SELECT svc_generate_async('x')$$);
RESET svc.prompt_format;
SET svc.sync_timeout = 'soon';
SELECT regress.err($$SELECT svc_generate('x')$$);
RESET svc.sync_timeout;
-- models: one not declared, one that does not serve the function; svc_model_declare's own checks
SET svc.model = 'nope';
SELECT regress.err($$SELECT svc_generate_async('x')$$);
RESET svc.model;
SELECT svc_model_declare('regress-embedder', ARRAY['embed']);
SET svc.generate_model = 'regress-embedder';
SELECT regress.err($$SELECT svc_generate_async('x')$$);
RESET svc.generate_model;
SELECT regress.err($$SELECT svc_model_declare('has space')$$);
SELECT regress.err($$SELECT svc_model_declare('m', ARRAY['chat'])$$);
-- settings read in SQL: each named with its rule
SET svc.cache_size = 'abc';
SELECT regress.err($$SELECT max_entries FROM svc_cache_stats()$$);
SET svc.cache_size = '-5';
SELECT regress.err($$SELECT max_entries FROM svc_cache_stats()$$);
RESET svc.cache_size;
-- cache eviction: each argument's rule, checked before anything is removed
SELECT regress.err($$SELECT * FROM svc_cache_evict()$$);
SELECT regress.err($$SELECT * FROM svc_cache_evict(older_than := '-1 day')$$);
SELECT regress.err($$SELECT * FROM svc_cache_evict(unused_for := '-1 second')$$);
SELECT regress.err($$SELECT * FROM svc_cache_evict(max_hits := -1)$$);
SELECT regress.err($$SELECT * FROM svc_cache_evict(keep := -1)$$);
SELECT regress.err($$SELECT * FROM svc_cache_evict(target_bytes := -1)$$);
SELECT regress.err($$SELECT * FROM svc_cache_evict(keep := 1, order_by := 'size')$$);
SELECT regress.err($$SELECT * FROM svc_cache_evict(keep := 1, order_by := NULL)$$);
SELECT regress.err($$SELECT * FROM svc_cache_evict(keep := 1, dry_run := NULL)$$);
SELECT count(*) AS evicted FROM svc_cache_evict(keep := 0, dry_run := false);
SELECT entries, bytes FROM svc_cache_stats();
SET svc.retry_backoff = 'abc';
SELECT regress.err($$SELECT svc__backoff(1)$$);
RESET svc.retry_backoff;
-- the autonomous session's target: libpq keyword/value pairs of where, never who
SELECT regress.err($$SELECT svc_set_sync_connection(NULL)$$);
SELECT regress.err($$SELECT svc_set_sync_connection('user=postgres')$$);
SELECT regress.err($$SELECT svc_set_sync_connection('sslkey=/etc/ssl/private/x.key')$$);
SELECT regress.err($$SELECT svc_set_sync_connection('port=one')$$);

-- 54000: over a limit
SELECT regress.err($$SELECT svc_generate_async(repeat('a', 1000001))$$);
SELECT regress.err($$SELECT svc_generate_batch_async(array_fill('a'::text, ARRAY[10001]))$$);
SELECT regress.err($$SELECT svc_rerank_async('q', array_fill('a'::text, ARRAY[1001]))$$);
SELECT regress.err($$SELECT svc_generate_regex_async('x', repeat('a', 100001))$$);
SELECT regress.err($$SELECT svc_generate_json('x', ('{"const":' || repeat('[', 6000) || repeat(']', 6000) || '}')::jsonb)$$);
SELECT regress.err($$SELECT svc_generate_json_async('x', ('{"const":' || repeat('[', 512) || repeat(']', 512) || '}')::jsonb)$$);
SELECT regress.err($$SELECT svc_generate_json_async('x', (SELECT jsonb_build_object('type', 'object', 'properties', jsonb_object_agg('p' || i, '{"type":"string"}'::jsonb)) FROM generate_series(1, 100000) i))$$);

SET svc.max_queue_size = 0;
SELECT regress.err($$SELECT svc_generate_async('x')$$);
RESET svc.max_queue_size;

-- set-based calls: an input's error is in its row (nothing to run here, so nothing enqueued); a
-- shared argument's error is the call's
\pset tuples_only off
SELECT * FROM svc_generate(ARRAY[NULL, '  ']::text[]);
SELECT * FROM svc_embed(ARRAY[NULL]::text[]);
SELECT ord, request_id, status, error FROM svc_get_async_results(ARRAY['00000000-0000-0000-0000-000000000000']::uuid[], 0);
\pset tuples_only on
SELECT regress.err($$SELECT * FROM svc_generate_choice(ARRAY['x'], ARRAY['a', 'a'])$$);
SELECT regress.err($$SELECT * FROM svc_generate(ARRAY[]::text[])$$);
SELECT regress.err($$SELECT * FROM svc_rerank(ARRAY['q'], ARRAY['a'], task := NULL)$$);
-- rerank options: top_k, documents only, many queries (sync and async)
SELECT regress.err($$SELECT * FROM svc_rerank('q', ARRAY['a'], top_k := 0)$$);
SELECT regress.err($$SELECT * FROM svc_rerank(ARRAY['q'], ARRAY['a'], top_k := -1)$$);
SELECT regress.err($$SELECT * FROM svc_rerank_docs_only('q', ARRAY['a', ''])$$);
SELECT regress.err($$SELECT * FROM svc_rerank_docs_only('q', ARRAY['a'], top_k := 0)$$);
SELECT regress.err($$SELECT * FROM svc_rerank_batch(ARRAY[]::text[], ARRAY['a'])$$);
SELECT regress.err($$SELECT * FROM svc_rerank_batch(ARRAY['q'], ARRAY['a'], top_k := 0)$$);
SELECT regress.err($$SELECT svc_rerank_batch_async(ARRAY['q', NULL], ARRAY['a'])$$);
SELECT regress.err($$SELECT svc_rerank_batch_async(ARRAY['q'], ARRAY[]::text[])$$);
SELECT regress.err($$SELECT svc_rerank_batch_async(array_fill('q'::text, ARRAY[1001]), ARRAY['a'])$$);
SELECT regress.err($$SELECT svc_rerank_batch_async(ARRAY['q'], ARRAY['a'], priority := -101)$$);
\pset tuples_only off
SELECT * FROM svc_rerank_batch(ARRAY[NULL, ' ']::text[], ARRAY['a']);
\pset tuples_only on

-- Nothing above was enqueued.
SELECT count(*) AS queued FROM svc_queue;
