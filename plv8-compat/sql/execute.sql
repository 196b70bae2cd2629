-- plv8.execute: rows, counts, parameters, errors as JS exceptions
CREATE EXTENSION IF NOT EXISTS plv8;
CREATE TABLE ex_t (id int PRIMARY KEY, name text, score numeric, meta jsonb);
CREATE FUNCTION ex_run(code text) RETURNS text LANGUAGE plv8 AS $$
  var r = eval(code);
  return JSON.stringify(r, function (k, v) { return typeof v === 'bigint' ? v.toString() + 'n' : v; });
$$;
-- DML without RETURNING gives the affected-row count
SELECT ex_run($$plv8.execute("INSERT INTO ex_t VALUES (1, 'a', 1.5, '{\"x\": 1}'), (2, 'b', 2.5, null)")$$);
SELECT ex_run($$plv8.execute('UPDATE ex_t SET score = score + 1')$$);
SELECT ex_run($$plv8.execute('UPDATE ex_t SET score = 0 WHERE false')$$);
-- SELECT gives an array of row objects
SELECT ex_run($$plv8.execute('SELECT * FROM ex_t ORDER BY id')$$);
SELECT ex_run($$plv8.execute('SELECT 1 AS one WHERE false')$$);
SELECT ex_run($$plv8.execute('SELECT count(*) AS c FROM ex_t')$$);
-- RETURNING gives rows
SELECT ex_run($$plv8.execute("INSERT INTO ex_t VALUES (3, 'c', 0, null) RETURNING id, name")$$);
SELECT ex_run($$plv8.execute('DELETE FROM ex_t WHERE id = 3 RETURNING *')$$);
-- parameters: an array, or extra arguments; types deduced by the parser
SELECT ex_run($$plv8.execute('SELECT name FROM ex_t WHERE id = $1', [2])$$);
SELECT ex_run($$plv8.execute('SELECT name FROM ex_t WHERE id = $1 OR name = $2', 1, 'b')$$);
SELECT ex_run($$plv8.execute('SELECT $1::int + $2::int AS s', ['40', 2])$$);
SELECT ex_run($$plv8.execute('SELECT $1 AS untyped', ['hello'])$$);
SELECT ex_run($$plv8.execute('SELECT pg_typeof($1)::text AS t', ['hello'])$$);
SELECT ex_run($$plv8.execute('SELECT $1 IS NULL AS isnull', [null])$$);
SELECT ex_run($$plv8.execute('SELECT $1::jsonb -> $2 AS v', [{k: [1, 2]}, 'k'])$$);
SELECT ex_run($$plv8.execute('SELECT array_length($1::int[], 1) AS n', [[1, 2, 3]])$$);
SELECT ex_run($$plv8.execute('UPDATE ex_t SET meta = $1 WHERE id = $2', [{updated: true}, 2])$$);
SELECT meta FROM ex_t WHERE id = 2;
-- utility statements give 0; SHOW gives rows
SELECT ex_run($$plv8.execute('CREATE TEMP TABLE ex_tmp (x int)')$$);
SELECT ex_run($$plv8.execute('SHOW timezone').length$$);
-- too few arguments for the query's parameters
SELECT ex_run($$plv8.execute('SELECT $1::int + $2::int AS s', [1])$$);
-- extra arguments beyond the referenced parameters are ignored
SELECT ex_run($$plv8.execute('SELECT 1 AS one', [1, 2])$$);
-- no SQL string
SELECT ex_run($$plv8.execute()$$);
-- a failing statement is a catchable JS error with the PostgreSQL fields
CREATE FUNCTION ex_catch(sql text) RETURNS text LANGUAGE plv8 AS $$
  try {
    plv8.execute(sql);
    return 'no error';
  } catch (e) {
    return [e instanceof Error, e.message, e.sqlerrcode, e.code, e.detail, e.hint, e.schema_name,
            e.table_name, e.column_name, e.datatype_name, e.constraint_name, e.context].join(' | ');
  }
$$;
SELECT ex_catch($$INSERT INTO ex_t VALUES (1, 'dup', 0, null)$$);
SELECT ex_catch('SELECT 1/0');
SELECT ex_catch('SELECT * FROM no_such_table');
SELECT ex_catch('SELEC 1');
ALTER TABLE ex_t ADD CONSTRAINT ex_score_positive CHECK (score >= 0);
SELECT ex_catch('UPDATE ex_t SET score = -1');
CREATE DOMAIN ex_dom AS int CHECK (VALUE > 0);
SELECT ex_catch('SELECT (-1)::ex_dom');
SELECT ex_catch($q$DO $d$ BEGIN RAISE EXCEPTION 'custom' USING DETAIL = 'the detail', HINT = 'the hint', ERRCODE = 'P0099'; END $d$$q$);
-- after a caught error, the function goes on and its earlier work is kept
CREATE FUNCTION ex_go_on() RETURNS text LANGUAGE plv8 AS $$
  plv8.execute("INSERT INTO ex_t VALUES (10, 'kept', 0, null)");
  try { plv8.execute("INSERT INTO ex_t VALUES (10, 'dup', 0, null)"); } catch (e) { }
  plv8.execute("INSERT INTO ex_t VALUES (11, 'also kept', 0, null)");
  return plv8.execute('SELECT count(*) AS c FROM ex_t WHERE id >= 10')[0].c.toString();
$$;
SELECT ex_go_on();
-- an uncaught PostgreSQL error keeps its SQLSTATE and fields
CREATE FUNCTION ex_uncaught() RETURNS void LANGUAGE plv8 AS $$
  plv8.execute("INSERT INTO ex_t VALUES (10, 'dup', 0, null)");
$$;
SELECT ex_uncaught();
DO $$
DECLARE s text; t text; c text; sc text;
BEGIN
  PERFORM ex_uncaught();
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, t = TABLE_NAME, c = CONSTRAINT_NAME, sc = SCHEMA_NAME;
  RAISE NOTICE 'sqlstate=% schema=% table=% constraint=%', s, sc, t, c;
END $$;
-- read-only functions cannot modify data
CREATE FUNCTION ex_stable() RETURNS int LANGUAGE plv8 STABLE AS $$ return plv8.execute("DELETE FROM ex_t"); $$;
SELECT ex_stable();
-- nested plv8 calls through SQL
CREATE FUNCTION ex_inner(x int) RETURNS int LANGUAGE plv8 AS $$ return x * 3; $$;
CREATE FUNCTION ex_outer() RETURNS int LANGUAGE plv8 AS $$ return plv8.execute('SELECT ex_inner(14) AS v')[0].v; $$;
SELECT ex_outer();
CREATE FUNCTION ex_inner_err() RETURNS int LANGUAGE plv8 AS $$ throw new Error('inner failure'); $$;
CREATE FUNCTION ex_outer_catch() RETURNS text LANGUAGE plv8 AS $$
  try { plv8.execute('SELECT ex_inner_err()'); } catch (e) { return 'caught: ' + e.message + ' / ' + e.sqlerrcode; }
$$;
SELECT ex_outer_catch();
CREATE FUNCTION ex_outer_nocatch() RETURNS void LANGUAGE plv8 AS $$
  plv8.execute('SELECT ex_inner_err()');
$$;
SELECT ex_outer_nocatch();
-- quote helpers
SELECT ex_run($$[plv8.quote_literal("it's"), plv8.quote_literal(null), plv8.quote_nullable(null), plv8.quote_nullable('x'), plv8.quote_ident('a b'), plv8.quote_ident('plain'), plv8.quote_ident('Select')]$$);
SELECT ex_run($$plv8.execute('SELECT ' + plv8.quote_literal("O'Reilly \\ x") + ' AS q')$$);
-- elog levels
SELECT ex_run($$[DEBUG5, DEBUG4, DEBUG3, DEBUG2, DEBUG1, LOG, INFO, NOTICE, WARNING, ERROR]$$);
DO $$ plv8.elog(INFO, 'info', 1); plv8.elog(WARNING, 'warn', {a: 1}); plv8.elog(DEBUG1, 'not shown'); $$ LANGUAGE plv8;
DO $$ try { plv8.elog(ERROR, 'as error'); } catch (e) { plv8.elog(NOTICE, 'caught:', e.message); } $$ LANGUAGE plv8;
DO $$ plv8.elog(ERROR, 'uncaught', 'elog'); $$ LANGUAGE plv8;
DO $$ plv8.elog(12345, 'bad level'); $$ LANGUAGE plv8;
DO $$ plv8.elog(NOTICE); $$ LANGUAGE plv8;
