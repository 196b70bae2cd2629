-- svc's errors: vectorizers, search and distance (regress.err: surface.sql)
\pset pager off
\pset format unaligned
-- The first call of a SECURITY DEFINER function in a session creates the plv8 context of svc's
-- owner, under plv8.start_proc pinned empty: the genuine plv8 warns there that '' names no function
-- (plv8-compat does not). It is made here, quietly, so that the rest reads the same on both handlers.
SET client_min_messages = error;
SELECT regress.err($$SELECT svc_generate_async(NULL)$$) IS NOT NULL AS owner_context;
-- And the superuser's, where svc_vectorize_drop runs (its owner is the superuser: docs/security.md).
SELECT regress.err($$SELECT svc_vectorize_drop(NULL)$$) IS NOT NULL AS superuser_context;
RESET client_min_messages;
\pset tuples_only on

-- Vectorizers: declarations that create nothing, and the search's and distance's own errors
CREATE TABLE regress_docs (id integer PRIMARY KEY, body text, n integer);
CREATE TABLE regress_nokey (body text);
SELECT regress.err($$SELECT svc_vectorize('regress_docs', 'nope', 'regress')$$);
SELECT regress.err($$SELECT svc_vectorize('regress_docs', 'n', 'regress')$$);
SELECT regress.err($$SELECT svc_vectorize('regress_nokey', 'body', 'regress')$$);
SELECT regress.err($$SELECT svc_vectorize('regress_docs', 'body', 'regress', chunk_by := 'characters', chunk_size := 10, chunk_overlap := 10)$$);
SELECT regress.err($$SELECT svc_vectorize('regress_docs', 'body', 'regress', format := '$title: $chunk')$$);
SELECT regress.err($$SELECT svc_vectorize('regress_docs', 'body', 'regress', model := 'regress-missing')$$);
SELECT count(*) AS vectorizers, (SELECT count(*) FROM pg_trigger WHERE tgrelid = 'regress_docs'::regclass) AS triggers FROM svc_vectorizers;
SELECT regress.err($$SELECT svc_vectorize_drop('regress')$$);
SELECT regress.err($$SELECT * FROM svc_search('regress', 'x', 0)$$);
SELECT regress.err($$SELECT svc_cosine_distance(ARRAY[1, 0]::real[], ARRAY[1]::real[])$$);
SELECT svc_cosine_distance(ARRAY[1, 0]::real[], ARRAY[0, 2]::real[]) AS orthogonal, svc_cosine_distance(ARRAY[0, 0]::real[], ARRAY[1, 1]::real[]) AS zero;
DROP TABLE regress_docs, regress_nokey;
