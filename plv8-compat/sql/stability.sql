-- many calls in one backend: memory stays flat (prints booleans only)
CREATE EXTENSION IF NOT EXISTS plv8;
CREATE TABLE stab_t (id int, payload jsonb);
CREATE FUNCTION stab_fn(i int, s text, j jsonb) RETURNS jsonb LANGUAGE plv8 AS $$
  return {i: i, s: s + i, n: j.n + i, arr: [i, String(i)]};
$$;
CREATE FUNCTION stab_exec(i int) RETURNS int LANGUAGE plv8 AS $$
  var r = plv8.execute('SELECT $1::int + 1 AS v', [i]);
  try { plv8.execute('SELECT 1/0'); } catch (e) { }
  return r[0].v;
$$;
CREATE FUNCTION stab_mem() RETURNS bigint LANGUAGE sql AS $$ SELECT sum(total_bytes)::bigint FROM pg_backend_memory_contexts $$;
CREATE TEMP TABLE stab_m (k text, v bigint);
-- warm up: contexts, compiled functions, caches
SELECT count(stab_fn(i, 'x', '{"n": 1}')) FROM generate_series(1, 200) i;
SELECT sum(stab_exec(i)) FROM generate_series(1, 200) i;
DO $$ BEGIN FOR i IN 1..200 LOOP PERFORM stab_fn(i, 'x', '{"n": 1}'); END LOOP; END $$;
INSERT INTO stab_m VALUES ('pg_before', stab_mem());
INSERT INTO stab_m SELECT 'heap_before', (plv8_info()->0->>'used_heap_size')::bigint;
-- 10,000 calls from one statement, 10,000 from a PL/pgSQL loop, 2,000 with SQL and caught errors
SELECT count(stab_fn(i, 'x', '{"n": 1}')) FROM generate_series(1, 10000) i;
DO $$ BEGIN FOR i IN 1..10000 LOOP PERFORM stab_fn(i, 'x', '{"n": 1}'); END LOOP; END $$;
SELECT sum(stab_exec(i)) FROM generate_series(1, 2000) i;
-- a JS loop calling plv8.execute 10,000 times inside one call
DO $$ for (var i = 0; i < 10000; i++) plv8.execute('SELECT $1::int AS v', [i]); $$ LANGUAGE plv8;
INSERT INTO stab_m VALUES ('pg_after', stab_mem());
DO $$ gc_hint = null; $$ LANGUAGE plv8;
INSERT INTO stab_m SELECT 'heap_after', (plv8_info()->0->>'used_heap_size')::bigint;
SELECT (SELECT v FROM stab_m WHERE k = 'pg_after') - (SELECT v FROM stab_m WHERE k = 'pg_before') < 1024 * 1024
       AS pg_memory_stable;
SELECT (SELECT v FROM stab_m WHERE k = 'heap_after') < (SELECT v FROM stab_m WHERE k = 'heap_before') + 16 * 1024 * 1024
       AS js_heap_bounded;
-- still one context for this user, still the same compiled functions
SELECT json_array_length(plv8_info()) AS contexts;
