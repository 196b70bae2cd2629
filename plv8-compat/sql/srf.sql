-- set-returning functions: return_next and returned arrays
CREATE EXTENSION IF NOT EXISTS plv8;
CREATE FUNCTION srf_next(n int) RETURNS SETOF int LANGUAGE plv8 AS $$
  for (var i = 1; i <= n; i++) plv8.return_next(i * 10);
$$;
SELECT * FROM srf_next(3);
SELECT srf_next(2);
SELECT count(*) FROM srf_next(0);
CREATE FUNCTION srf_array() RETURNS SETOF text LANGUAGE plv8 AS $$ return ['a', null, 'c']; $$;
SELECT * FROM srf_array();
-- return_next rows first, then the returned array's rows
CREATE FUNCTION srf_both() RETURNS SETOF int LANGUAGE plv8 AS $$ plv8.return_next(1); return [2, 3]; $$;
SELECT * FROM srf_both();
-- RETURNS TABLE with several columns takes objects keyed by column name
CREATE FUNCTION srf_table(n int) RETURNS TABLE (id int, label text) LANGUAGE plv8 AS $$
  for (var i = 0; i < n; i++) plv8.return_next({id: i, label: 'L' + i});
$$;
SELECT * FROM srf_table(3);
-- single-column RETURNS TABLE is a scalar set
CREATE FUNCTION srf_table1() RETURNS TABLE (x int) LANGUAGE plv8 AS $$ plv8.return_next(5); plv8.return_next(6); $$;
SELECT * FROM srf_table1();
-- SETOF composite
CREATE TYPE srf_pair AS (k text, v int);
CREATE FUNCTION srf_comp() RETURNS SETOF srf_pair LANGUAGE plv8 AS $$ return [{k: 'a', v: 1}, {k: 'b', v: null}]; $$;
SELECT * FROM srf_comp();
-- SETOF record with a column definition list
CREATE FUNCTION srf_rec() RETURNS SETOF record LANGUAGE plv8 AS $$ plv8.return_next({a: 1, b: 'x'}); $$;
SELECT * FROM srf_rec() AS t(a int, b text);
-- OUT parameters with SETOF
CREATE FUNCTION srf_out(OUT n int, OUT sq int) RETURNS SETOF record LANGUAGE plv8 AS $$
  for (var i = 1; i <= 3; i++) plv8.return_next({n: i, sq: i * i});
$$;
SELECT * FROM srf_out();
-- a single non-array value is one row; null/undefined means no more rows
CREATE FUNCTION srf_single() RETURNS SETOF int LANGUAGE plv8 AS $$ return 7; $$;
SELECT * FROM srf_single();
CREATE FUNCTION srf_nothing() RETURNS SETOF int LANGUAGE plv8 AS $$ return null; $$;
SELECT count(*) FROM srf_nothing();
-- lateral use, many rows
SELECT g, s FROM generate_series(1, 3) g, LATERAL srf_next(g) s ORDER BY 1, 2;
SELECT count(*), sum(x) FROM srf_next(10000) x;
-- errors: return_next outside an SRF, bad rows, a throw in the middle
CREATE FUNCTION srf_not_set() RETURNS int LANGUAGE plv8 AS $$ plv8.return_next(1); return 1; $$;
SELECT srf_not_set();
CREATE FUNCTION srf_not_set_caught() RETURNS text LANGUAGE plv8 AS $$
  try { plv8.return_next(1); } catch (e) { return 'caught: ' + e.message; }
$$;
SELECT srf_not_set_caught();
CREATE FUNCTION srf_bad_row() RETURNS TABLE (id int, label text) LANGUAGE plv8 AS $$ plv8.return_next({id: 1}); $$;
SELECT * FROM srf_bad_row();
CREATE FUNCTION srf_bad_value() RETURNS SETOF int LANGUAGE plv8 AS $$ plv8.return_next('x'); $$;
SELECT * FROM srf_bad_value();
CREATE FUNCTION srf_catch_bad() RETURNS SETOF int LANGUAGE plv8 AS $$
  try { plv8.return_next('x'); } catch (e) { plv8.elog(NOTICE, 'caught', e.message, e.code); }
  plv8.return_next(1);
$$;
SELECT * FROM srf_catch_bad();
CREATE FUNCTION srf_throw() RETURNS SETOF int LANGUAGE plv8 AS $$
  plv8.return_next(1);
  throw new Error('failed after one row');
$$;
SELECT * FROM srf_throw();
-- an SRF where a set is not allowed
SELECT 1 WHERE srf_next(1) = 10;
-- an SRF calling SQL that calls another SRF
CREATE FUNCTION srf_nested() RETURNS SETOF int LANGUAGE plv8 AS $$
  var rows = plv8.execute('SELECT x FROM srf_next(2) x');
  for (var i = 0; i < rows.length; i++) plv8.return_next(rows[i].x + 1);
$$;
SELECT * FROM srf_nested();
