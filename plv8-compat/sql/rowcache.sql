-- Row types cached with a compiled function (RETURNS TABLE, OUT parameters,
-- named composites) must live as long as the function, not in whatever memory
-- context happened to be current when it was compiled.  A stale tuple
-- descriptor used to turn a later call's thrown error into
-- "invalid memory alloc request size <garbage>".
CREATE EXTENSION IF NOT EXISTS plv8;
CREATE FUNCTION cache_tbl(n int) RETURNS TABLE (document text, score float8) LANGUAGE plv8 AS $$
  class ArgError extends Error {
    constructor(m) { super(m); this.code = '22023'; this.detail = undefined; this.hint = undefined; }
  }
  if (n < 0) throw new ArgError('cache_tbl: n must not be negative');
  var r = []; for (var i = 0; i < n; i++) r.push({document: 'd' + i, score: i / 2}); return r;
$$;
CREATE TYPE cache_pair AS (k text, v int);
CREATE FUNCTION cache_setof() RETURNS SETOF cache_pair LANGUAGE plv8 AS $$ return [{k: 'a', v: 1}, {k: 'b', v: 2}]; $$;
CREATE FUNCTION cache_one() RETURNS cache_pair LANGUAGE plv8 AS $$ return {k: 'z', v: 26}; $$;
CREATE FUNCTION cache_out(OUT a int, OUT b text) LANGUAGE plv8 AS $$ return {a: 1, b: 'one'}; $$;
-- compile them inside a plv8 callback, whose scratch memory is reset when it
-- returns, then let the next callbacks scribble over that memory
DO $$
  plv8.find_function('cache_tbl');
  plv8.find_function('cache_setof');
  plv8.find_function('cache_one');
  plv8.find_function('cache_out');
  for (var n of [500, 1000, 2000, 4000])
    try { plv8.find_function('x'.repeat(n)); } catch (e) {}
  plv8.quote_literal('y'.repeat(2000));
$$ LANGUAGE plv8;
SELECT * FROM cache_tbl(2);
SELECT * FROM cache_tbl(-1);
SELECT * FROM cache_setof();
SELECT * FROM cache_one();
SELECT * FROM cache_out();
-- compiled by its first call, in the executor's short-lived memory, then reused
CREATE FUNCTION cache_tbl2(n int) RETURNS TABLE (document text, score float8) LANGUAGE plv8 AS $$
  if (n < 0) { var e = new Error('cache_tbl2: n must not be negative'); e.code = '22023'; throw e; }
  return Array.from({length: n}, (_, i) => ({document: 'e' + i, score: i}));
$$;
SELECT * FROM cache_tbl2(1) UNION ALL SELECT * FROM cache_tbl2(2);
SELECT count(*) FROM (SELECT repeat('q', 100) FROM generate_series(1, 2000)) s;
SELECT * FROM cache_tbl2(-1);
SELECT * FROM cache_tbl2(2);
DROP FUNCTION cache_tbl(int), cache_tbl2(int), cache_setof(), cache_one(), cache_out();
DROP TYPE cache_pair;
