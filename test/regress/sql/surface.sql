-- svc's SQL surface, pinned by pg_regress: every function with its full signature, and every
-- documented error with its SQLSTATE, message, detail and hint. A change to either shows here as a
-- diff of expected/surface.out. (Run by `make installcheck` against a running server, and by
-- test/extension/regress.test.ts on a throwaway cluster.)
CREATE EXTENSION svc CASCADE;
\pset pager off
\pset format unaligned

\df svc_*

-- Errors are caught and printed by err() rather than with \set VERBOSITY verbose, whose LOCATION
-- line names a line of PostgreSQL's or plv8's C source and so changes with their minor versions.
-- Request ids are random: they print as <id>.
CREATE FUNCTION pg_temp.err(statement text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  s text; m text; d text; h text;
BEGIN
  EXECUTE statement;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
  RETURN regexp_replace(concat_ws(E'\n', s || ': ' || m, 'DETAIL: ' || nullif(d, ''), 'HINT: ' || nullif(h, '')),
    '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', '<id>', 'g');
END $$;
-- The first call of a SECURITY DEFINER function creates the plv8 context of svc's owner, under
-- plv8.start_proc pinned empty: the genuine plv8 warns there that '' names no function (plv8-compat
-- does not). It is made here, quietly, so that the rest reads the same on both handlers.
SET client_min_messages = error;
SELECT pg_temp.err($$SELECT svc_generate_async(NULL)$$) IS NOT NULL AS owner_context;
RESET client_min_messages;
\pset tuples_only on

-- 22004: an explicit NULL is never a default
SELECT pg_temp.err($$SELECT svc_generate_async(NULL)$$);
SELECT pg_temp.err($$SELECT svc_generate_async('x', max_tokens := NULL)$$);
SELECT pg_temp.err($$SELECT svc_generate_async('x', temperature := NULL)$$);
SELECT pg_temp.err($$SELECT svc_generate_async('x', stop := ARRAY['a', NULL])$$);
SELECT pg_temp.err($$SELECT svc_generate_json_async('x', NULL)$$);
SELECT pg_temp.err($$SELECT svc_generate_choice_async('x', ARRAY['a', NULL])$$);
SELECT pg_temp.err($$SELECT svc_embed_batch_async(ARRAY['a', NULL])$$);
SELECT pg_temp.err($$SELECT * FROM svc_check_async(NULL)$$);
SELECT pg_temp.err($$SELECT svc_cleanup(NULL)$$);

-- 22023: a value outside its rule
SELECT pg_temp.err($$SELECT svc_generate_async('x', max_tokens := 0)$$);
SELECT pg_temp.err($$SELECT svc_generate_async('x', priority := 101)$$);
SELECT pg_temp.err($$SELECT svc_generate_async('x', max_tokens := 32769)$$);
-- seeded sampling and stop strings (#56): each option's rule
SELECT pg_temp.err($$SELECT svc_generate_async('x', temperature := 2.5)$$);
SELECT pg_temp.err($$SELECT svc_generate_async('x', top_k := -1)$$);
SELECT pg_temp.err($$SELECT svc_generate_async('x', top_p := 0)$$);
SELECT pg_temp.err($$SELECT svc_generate_async('x', min_p := 1)$$);
SELECT pg_temp.err($$SELECT svc_generate_async('x', stop := ARRAY[''])$$);
SELECT pg_temp.err($$SELECT svc_generate_async('x', stop := array_fill('s'::text, ARRAY[17]))$$);
SELECT pg_temp.err($$SELECT svc_generate_json_async('x', '{"type":"foo"}')$$);
SELECT pg_temp.err($$SELECT svc_generate_json_async('x', '{"type":"string","minLength":3,"maxLength":2}')$$);
SELECT pg_temp.err($$SELECT svc_generate_regex_async('x', 'a(b')$$);
SELECT pg_temp.err($$SELECT svc_generate_regex_async('x', 'a(?=b)')$$);
SELECT pg_temp.err($$SELECT svc_generate_choice_async('x', ARRAY[]::text[])$$);
SELECT pg_temp.err($$SELECT svc_generate_choice_async('x', ARRAY['a', 'a'])$$);
SELECT pg_temp.err($$SELECT svc_rerank_async('q', ARRAY['a', ''])$$);
SELECT pg_temp.err($$SELECT svc_rerank_async('', ARRAY['a'])$$);
SELECT pg_temp.err($$SELECT svc_get_async_result('00000000-0000-0000-0000-000000000000', -1)$$);
SELECT pg_temp.err($$SELECT svc_get_async_result('not a uuid')$$);
SET svc.prompt_format = 'markdown';
SELECT pg_temp.err($$SELECT svc_generate_async('x')$$);
RESET svc.prompt_format;
SET svc.sync_timeout = 'soon';
SELECT pg_temp.err($$SELECT svc_generate('x')$$);
RESET svc.sync_timeout;
-- models: one not declared, one that does not serve the function; svc_model_declare's own checks
SET svc.model = 'nope';
SELECT pg_temp.err($$SELECT svc_generate_async('x')$$);
RESET svc.model;
SELECT svc_model_declare('regress-embedder', ARRAY['embed']);
SET svc.generate_model = 'regress-embedder';
SELECT pg_temp.err($$SELECT svc_generate_async('x')$$);
RESET svc.generate_model;
SELECT pg_temp.err($$SELECT svc_model_declare('has space')$$);
SELECT pg_temp.err($$SELECT svc_model_declare('m', ARRAY['chat'])$$);
-- settings read in SQL: each named with its rule
SET svc.cache_size = 'abc';
SELECT pg_temp.err($$SELECT max_entries FROM svc_cache_stats()$$);
SET svc.cache_size = '-5';
SELECT pg_temp.err($$SELECT max_entries FROM svc_cache_stats()$$);
RESET svc.cache_size;
-- cache eviction: each argument's rule, checked before anything is removed
SELECT pg_temp.err($$SELECT * FROM svc_cache_evict()$$);
SELECT pg_temp.err($$SELECT * FROM svc_cache_evict(older_than := '-1 day')$$);
SELECT pg_temp.err($$SELECT * FROM svc_cache_evict(unused_for := '-1 second')$$);
SELECT pg_temp.err($$SELECT * FROM svc_cache_evict(max_hits := -1)$$);
SELECT pg_temp.err($$SELECT * FROM svc_cache_evict(keep := -1)$$);
SELECT pg_temp.err($$SELECT * FROM svc_cache_evict(target_bytes := -1)$$);
SELECT pg_temp.err($$SELECT * FROM svc_cache_evict(keep := 1, order_by := 'size')$$);
SELECT pg_temp.err($$SELECT * FROM svc_cache_evict(keep := 1, order_by := NULL)$$);
SELECT pg_temp.err($$SELECT * FROM svc_cache_evict(keep := 1, dry_run := NULL)$$);
SELECT count(*) AS evicted FROM svc_cache_evict(keep := 0, dry_run := false);
SELECT entries, bytes FROM svc_cache_stats();
SET svc.retry_backoff = 'abc';
SELECT pg_temp.err($$SELECT svc__backoff(1)$$);
RESET svc.retry_backoff;
-- the autonomous session's target: libpq keyword/value pairs of where, never who
SELECT pg_temp.err($$SELECT svc_set_sync_connection(NULL)$$);
SELECT pg_temp.err($$SELECT svc_set_sync_connection('user=postgres')$$);
SELECT pg_temp.err($$SELECT svc_set_sync_connection('sslkey=/etc/ssl/private/x.key')$$);
SELECT pg_temp.err($$SELECT svc_set_sync_connection('port=one')$$);

-- 54000: over a limit
SELECT pg_temp.err($$SELECT svc_generate_async(repeat('a', 1000001))$$);
SELECT pg_temp.err($$SELECT svc_generate_batch_async(array_fill('a'::text, ARRAY[10001]))$$);
SELECT pg_temp.err($$SELECT svc_rerank_async('q', array_fill('a'::text, ARRAY[1001]))$$);
SELECT pg_temp.err($$SELECT svc_generate_regex_async('x', repeat('a', 100001))$$);
SELECT pg_temp.err($$SELECT svc_generate_json('x', ('{"const":' || repeat('[', 6000) || repeat(']', 6000) || '}')::jsonb)$$);
SELECT pg_temp.err($$SELECT svc_generate_json_async('x', ('{"const":' || repeat('[', 512) || repeat(']', 512) || '}')::jsonb)$$);
SELECT pg_temp.err($$SELECT svc_generate_json_async('x', (SELECT jsonb_build_object('type', 'object', 'properties', jsonb_object_agg('p' || i, '{"type":"string"}'::jsonb)) FROM generate_series(1, 100000) i))$$);

SET svc.max_queue_size = 0;
SELECT pg_temp.err($$SELECT svc_generate_async('x')$$);
RESET svc.max_queue_size;

-- set-based calls: an input's error is in its row (nothing to run here, so nothing enqueued); a
-- shared argument's error is the call's
\pset tuples_only off
SELECT * FROM svc_generate(ARRAY[NULL, '  ']::text[]);
SELECT * FROM svc_embed(ARRAY[NULL]::text[]);
SELECT ord, request_id, status, error FROM svc_get_async_results(ARRAY['00000000-0000-0000-0000-000000000000']::uuid[], 0);
\pset tuples_only on
SELECT pg_temp.err($$SELECT * FROM svc_generate_choice(ARRAY['x'], ARRAY['a', 'a'])$$);
SELECT pg_temp.err($$SELECT * FROM svc_generate(ARRAY[]::text[])$$);
SELECT pg_temp.err($$SELECT * FROM svc_rerank(ARRAY['q'], ARRAY['a'], task := NULL)$$);
-- rerank options: top_k, documents only, many queries (sync and async)
SELECT pg_temp.err($$SELECT * FROM svc_rerank('q', ARRAY['a'], top_k := 0)$$);
SELECT pg_temp.err($$SELECT * FROM svc_rerank(ARRAY['q'], ARRAY['a'], top_k := -1)$$);
SELECT pg_temp.err($$SELECT * FROM svc_rerank_docs_only('q', ARRAY['a', ''])$$);
SELECT pg_temp.err($$SELECT * FROM svc_rerank_docs_only('q', ARRAY['a'], top_k := 0)$$);
SELECT pg_temp.err($$SELECT * FROM svc_rerank_batch(ARRAY[]::text[], ARRAY['a'])$$);
SELECT pg_temp.err($$SELECT * FROM svc_rerank_batch(ARRAY['q'], ARRAY['a'], top_k := 0)$$);
SELECT pg_temp.err($$SELECT svc_rerank_batch_async(ARRAY['q', NULL], ARRAY['a'])$$);
SELECT pg_temp.err($$SELECT svc_rerank_batch_async(ARRAY['q'], ARRAY[]::text[])$$);
SELECT pg_temp.err($$SELECT svc_rerank_batch_async(array_fill('q'::text, ARRAY[1001]), ARRAY['a'])$$);
SELECT pg_temp.err($$SELECT svc_rerank_batch_async(ARRAY['q'], ARRAY['a'], priority := -101)$$);
\pset tuples_only off
SELECT * FROM svc_rerank_batch(ARRAY[NULL, ' ']::text[], ARRAY['a']);
\pset tuples_only on

-- Nothing above was enqueued.
SELECT count(*) AS queued FROM svc_queue;

-- 53400: the queue is full (one request pending, at most one allowed)
SET svc.max_queue_size = 1;
SELECT svc_generate_async('fills the queue') AS id \gset
SELECT pg_temp.err($$SELECT svc_generate_async('one too many')$$);
SELECT svc_cancel_async(:'id');
RESET svc.max_queue_size;

-- SV004 unknown request; SV003 timed out; SV002 cancelled; SV001 failed; SV005 not committed
SELECT pg_temp.err($$SELECT svc_get_async_result('00000000-0000-0000-0000-000000000000', 0)$$);
SELECT svc_generate_async('waits') AS id \gset
SELECT pg_temp.err(format('SELECT svc_get_async_result(%L, 0)', :'id'));
SELECT svc_cancel_async(:'id');
SELECT pg_temp.err(format('SELECT svc_get_async_result(%L, 0)', :'id'));
SELECT svc_generate_async('fails') AS id \gset
-- (as a superuser: only a worker's svc_worker_fail writes this for real)
UPDATE svc_queue SET status = 'failed', error = 'output does not match its constraint' WHERE request_id = :'id';
SELECT pg_temp.err(format('SELECT svc_get_async_result(%L, 0)', :'id'));
BEGIN;
SELECT svc_generate_async('uncommitted') AS id \gset
SELECT pg_temp.err(format('SELECT svc_get_async_result(%L, 0)', :'id'));
ROLLBACK;

-- SV003 from a synchronous call with no worker: the request is cancelled, the message says why
SET svc.sync_timeout = '1s';
SELECT pg_temp.err($$SELECT svc_generate('no worker here')$$);
RESET svc.sync_timeout;
SELECT function_name, status FROM svc_queue ORDER BY seq;

-- SV006 from a synchronous call for a model no running worker serves (one worker runs, serving
-- 'default'): at once, nothing enqueued
SELECT svc_worker_heartbeat('regress-worker', 'h', 1, 'running', 1, 'file', 0, 0, 0);
SET svc.model = 'regress-embedder';
SELECT pg_temp.err($$SELECT svc_embed('x')$$);
RESET svc.model;
DELETE FROM svc_workers;
SELECT count(*) AS queued FROM svc_queue WHERE model <> 'default';

-- The prompt registry: templates checked when stored (line and column), renders naming the variable
-- they lack; nothing stored by a refused call
SELECT svc_prompt_create('regress', E'Hi {{ who.name }}.\n{% for t in topics %}\n- {{ t }}\n{% endfor %}', 'a greeting');
SELECT svc_prompt_update('regress', 'Hello {{ who.name }}');
SELECT prompt_name, prompt_version, variables FROM svc_prompt_get('regress', 1);
SELECT prompt_name, latest_version, versions, description, variables FROM svc_prompt_list();
SELECT svc_prompt_render('regress', '{"who": {"name": "Tom"}, "topics": ["a", "b"]}', version := 1);
SELECT pg_temp.err($$SELECT svc_prompt_create(NULL, 'x')$$);
SELECT pg_temp.err($$SELECT svc_prompt_create('has space', 'x')$$);
SELECT pg_temp.err($$SELECT svc_prompt_create('x', 'Hi {{ name')$$);
SELECT pg_temp.err($$SELECT svc_prompt_create('x', '{% if a %}{% else %}{% else %}{% endif %}')$$);
SELECT pg_temp.err($$SELECT svc_prompt_create('x', '{% include "y" %}')$$);
SELECT pg_temp.err($$SELECT svc_prompt_create('x', repeat('a', 100001))$$);
SELECT pg_temp.err($$SELECT svc_prompt_create('regress', 'again')$$);
SELECT pg_temp.err($$SELECT svc_prompt_update('nope', 'x')$$);
SELECT pg_temp.err($$SELECT * FROM svc_prompt_get('regress', 0)$$);
SELECT pg_temp.err($$SELECT * FROM svc_prompt_get('regress', 7)$$);
SELECT pg_temp.err($$SELECT svc_prompt_render('regress', '{}')$$);
SELECT pg_temp.err($$SELECT svc_prompt_render('regress', '{"who": null}')$$);
SELECT pg_temp.err($$SELECT svc_prompt_render('regress', '{"who": {"name": "x"}, "topics": {}}', version := 1)$$);
SELECT pg_temp.err($$SELECT svc_prompt_render('regress', '[]')$$);
SELECT pg_temp.err($$SELECT svc_prompt_render('regress', NULL)$$);
SELECT pg_temp.err($$SELECT svc_prompt_delete('nope')$$);
-- metadata, versions with is_active, filters and non-strict rendering (#56)
SELECT svc_prompt_update('regress', '{{ who.name | trim | upper }} {{ topics | join(", ") | default("-") }} {{ who.nick | default("?") | truncate(3) }}', metadata := '{"team": "regress"}');
SELECT prompt_version, is_active, metadata, variables FROM svc_prompt_versions('regress');
SELECT svc_prompt_render('regress', '{"who": {"name": " Tom ", "nick": "Tommy"}, "topics": ["a", "b"]}');
SELECT svc_prompt_render('regress', '{}', strict := false);
SELECT pg_temp.err($$SELECT svc_prompt_render('regress', '{}', strict := NULL)$$);
SELECT pg_temp.err($$SELECT svc_prompt_render('regress', '{"who": {"name": "x"}, "topics": "a"}')$$);
SELECT pg_temp.err($$SELECT svc_prompt_update('regress', '{{ who | title }}')$$);
SELECT pg_temp.err($$SELECT svc_prompt_update('regress', '{{ who | truncate(-1) }}')$$);
SELECT pg_temp.err($$SELECT svc_prompt_update('regress', 'x', metadata := '[]')$$);
SELECT pg_temp.err($$SELECT * FROM svc_prompt_versions('nope')$$);
SELECT svc_prompt_delete('regress');
SELECT count(*) AS prompts FROM svc_prompts;

-- svc_summarize, the aggregate: its arguments and setting named, nothing enqueued; a group of no
-- text is NULL without a model call
CREATE TABLE regress_texts (id integer, body text);
INSERT INTO regress_texts VALUES (1, 'one'), (2, 'two'), (3, NULL);
SELECT pg_temp.err($$SELECT svc_summarize(body, 0) FROM regress_texts$$);
SELECT pg_temp.err($$SELECT svc_summarize(body, NULL::integer) FROM regress_texts$$);
-- an untyped NULL or literal cannot tell the integer form from the jsonb one (#56)
SELECT pg_temp.err($$SELECT svc_summarize(body, NULL) FROM regress_texts$$);
SELECT pg_temp.err($$SELECT svc_summarize(body, '{"max_token": 5}'::jsonb) FROM regress_texts$$);
SELECT pg_temp.err($$SELECT svc_summarize_final('{"format": "other"}'::jsonb)$$);
SELECT pg_temp.err($$SELECT svc_summarize(body, 16, NULL) FROM regress_texts$$);
SELECT pg_temp.err($$SELECT svc_summarize(body, 16, id ORDER BY id) FROM regress_texts$$);
SET svc.summarize_chunk_size = '50';
SELECT pg_temp.err($$SELECT svc_summarize(body) FROM regress_texts$$);
RESET svc.summarize_chunk_size;
SELECT svc_summarize(body) IS NULL AS no_text FROM regress_texts WHERE body IS NULL;
SELECT count(*) AS queued FROM svc_queue WHERE function_name = 'generate' AND status = 'pending';
DROP TABLE regress_texts;

-- Vectorizers: declarations that create nothing, and the search's and distance's own errors
CREATE TABLE regress_docs (id integer PRIMARY KEY, body text, n integer);
CREATE TABLE regress_nokey (body text);
SELECT pg_temp.err($$SELECT svc_vectorize('regress_docs', 'nope', 'regress')$$);
SELECT pg_temp.err($$SELECT svc_vectorize('regress_docs', 'n', 'regress')$$);
SELECT pg_temp.err($$SELECT svc_vectorize('regress_nokey', 'body', 'regress')$$);
SELECT pg_temp.err($$SELECT svc_vectorize('regress_docs', 'body', 'regress', chunk_by := 'characters', chunk_size := 10, chunk_overlap := 10)$$);
SELECT pg_temp.err($$SELECT svc_vectorize('regress_docs', 'body', 'regress', format := '$title: $chunk')$$);
SELECT pg_temp.err($$SELECT svc_vectorize('regress_docs', 'body', 'regress', model := 'regress-missing')$$);
SELECT count(*) AS vectorizers, (SELECT count(*) FROM pg_trigger WHERE tgrelid = 'regress_docs'::regclass) AS triggers FROM svc_vectorizers;
SELECT pg_temp.err($$SELECT svc_vectorize_drop('regress')$$);
SELECT pg_temp.err($$SELECT * FROM svc_search('regress', 'x', 0)$$);
SELECT pg_temp.err($$SELECT svc_cosine_distance(ARRAY[1, 0]::real[], ARRAY[1]::real[])$$);
SELECT svc_cosine_distance(ARRAY[1, 0]::real[], ARRAY[0, 2]::real[]) AS orthogonal, svc_cosine_distance(ARRAY[0, 0]::real[], ARRAY[1, 1]::real[]) AS zero;
DROP TABLE regress_docs, regress_nokey;

-- Streaming: a request's text so far (a pending one has none), an unknown one no row, and the worker
-- protocol's write of partial text (refused for an attempt that is not processing)
SELECT pg_temp.err($$SELECT * FROM svc_get_partial_result(NULL)$$);
SELECT count(*) AS unknown FROM svc_get_partial_result('00000000-0000-0000-0000-000000000000');
SELECT status, partial_result, tokens, error, updated_at FROM svc_get_partial_result(svc_generate_async('streamed'));
SELECT pg_temp.err($$SELECT svc_worker_progress(NULL, 1, 'x', 1)$$);
SELECT pg_temp.err($$SELECT svc_worker_progress('00000000-0000-0000-0000-000000000000', 1, 'x', -1)$$);
SELECT svc_worker_progress('00000000-0000-0000-0000-000000000000', 1, 'x', 1) AS stored;
