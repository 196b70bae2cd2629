-- JS exceptions -> PostgreSQL errors
CREATE EXTENSION IF NOT EXISTS plv8;
CREATE FUNCTION err_throw(code text) RETURNS void LANGUAGE plv8 AS $$
  var value = eval('(' + code + ')');
  throw value;
$$;
-- the message is String(e) without a leading "Error: "; the context names the function and line
SELECT err_throw($$new Error('plain error')$$);
SELECT err_throw($$new TypeError('type error keeps its name')$$);
SELECT err_throw($$new RangeError('range')$$);
-- non-Error values
SELECT err_throw($$'a string'$$);
SELECT err_throw($$42$$);
SELECT err_throw($$undefined$$);
SELECT err_throw($$null$$);
SELECT err_throw($${a: 1}$$);
SELECT err_throw($${message: 'object with a message', code: '22023'}$$);
SELECT err_throw($$Object.create(null)$$);
SELECT err_throw($${toString: function () { throw new Error('toString fails'); }}$$);
SELECT err_throw($$Symbol('sym')$$);
-- SQLSTATE from e.code (5 characters), detail and hint from e.detail / e.hint
SELECT err_throw($$Object.assign(new Error('with fields'), {code: '22023', detail: 'the detail', hint: 'the hint'})$$);
SELECT err_throw($$Object.assign(new Error('bad code ignored'), {code: 'nope'})$$);
DO $$
DECLARE s text; m text; d text; h text;
BEGIN
  PERFORM err_throw($q$Object.assign(new Error('diag'), {code: 'P0123', detail: 'D', hint: 'H'})$q$);
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
  RAISE NOTICE 'sqlstate=% message=% detail=% hint=%', s, m, d, h;
END $$;
-- default SQLSTATE
DO $$
DECLARE s text;
BEGIN
  PERFORM err_throw($q$new Error('x')$q$);
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE;
  RAISE NOTICE 'sqlstate=%', s;
END $$;
-- runtime errors report the failing line
CREATE FUNCTION err_line(x int) RETURNS int LANGUAGE plv8 AS $$
  var a = 1;
  var b = null;
  return b.field + x;
$$;
SELECT err_line(1);
-- errors from nested JS functions name the inner function
CREATE FUNCTION err_callee() RETURNS int LANGUAGE plv8 AS $$
  throw new Error('from the callee');
$$;
CREATE FUNCTION err_caller() RETURNS int LANGUAGE plv8 AS $$
  var f = plv8.find_function('err_callee');
  return f();
$$;
SELECT err_caller();
-- deep recursion is a RangeError, not a crash
CREATE FUNCTION err_recurse() RETURNS int LANGUAGE plv8 AS $$ function r(n) { return r(n + 1) + 1; } return r(0); $$;
SELECT err_recurse();
-- the context and the session still work afterwards
DO $$ plv8.elog(NOTICE, 'still alive') $$ LANGUAGE plv8;
-- errors in a PL/pgSQL exception block roll back cleanly and the session goes on
CREATE TABLE err_t (x int);
DO $$
BEGIN
  BEGIN
    INSERT INTO err_t VALUES (1);
    PERFORM err_throw($q$new Error('rolled back')$q$);
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'caught: %', SQLERRM;
  END;
END $$;
SELECT count(*) FROM err_t;
-- find_function
CREATE FUNCTION err_sq(x int) RETURNS int LANGUAGE plv8 AS $$ return x * x; $$;
CREATE FUNCTION err_sq(x text) RETURNS text LANGUAGE plv8 AS $$ return x + x; $$;
CREATE FUNCTION err_sql_func() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;
CREATE FUNCTION err_find(name text) RETURNS text LANGUAGE plv8 AS $$
  try {
    var f = plv8.find_function(name);
    return typeof f + ' ' + f(7);
  } catch (e) { return 'error: ' + e.message; }
$$;
SELECT err_find('err_sq(int)');
SELECT err_find('err_sq(text)');
SELECT err_find('err_sq');
SELECT err_find('no_such_function');
SELECT err_find('err_sql_func');
SELECT err_find('err_sq(int, int)');
-- the shape both handlers read: `code` as PostgreSQL's packed integer (the genuine plv8 reads only
-- that) and `sqlerrcode` as 5 characters; a number is never read as characters (53400 packs to 16581)
DO $$
DECLARE e text; s text;
BEGIN
  FOREACH e IN ARRAY ARRAY['{code: 16581, sqlerrcode: ''53400''}', '{code: 16581}', '{code: 50856066}', '{sqlerrcode: ''SV001'', code: 0}'] LOOP
    BEGIN
      PERFORM err_throw(format('Object.assign(new Error(''shape''), %s)', e));
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE;
      RAISE NOTICE '% -> %', e, s;
    END;
  END LOOP;
END $$;
