-- Behaviours of plv8 3.2 that its own regression suite shows (issue #21, point 10).  Each case
-- names where plv8 gets it from: plv8_type.cc (ToScalarDatum), plv8_func.cc, plv8.cc, and its
-- tests expected/plv8.out, find_function_perms.out, startup.out, startup_perms.out, guc.out,
-- memory_limits.out.
CREATE EXTENSION IF NOT EXISTS plv8;
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_plv8_fid;
RESET client_min_messages;
CREATE ROLE regress_plv8_fid;

-- 1. A fractional number returned as an integer type is truncated, not rounded: plv8 converts
-- numbers with V8's Int32Value (int2, int4), Uint32Value (oid) and IntegerValue (int8).
-- plv8's own test: numeric_to_int8(1234.56) is 1234.
CREATE FUNCTION fid_int4() RETURNS int4 LANGUAGE plv8 AS $$ return 1234.56 $$;
CREATE FUNCTION fid_numeric_to_int8(x numeric) RETURNS int8 LANGUAGE plv8 AS $$ return x; $$;
CREATE FUNCTION fid_to_int2(x float8) RETURNS int2 LANGUAGE plv8 AS $$ return x; $$;
CREATE FUNCTION fid_to_oid(x float8) RETURNS oid LANGUAGE plv8 AS $$ return x; $$;
SELECT fid_int4(), fid_numeric_to_int8(1234.56), fid_numeric_to_int8(-1234.56),
       fid_to_int2(-2.9), fid_to_oid(7.9);
CREATE FUNCTION fid_to_int4(x float8) RETURNS int4 LANGUAGE plv8 AS $$ return x; $$;
SELECT fid_to_int4(0.5), fid_to_int4(1.5), fid_to_int4(2.5), fid_to_int4(-0.5), fid_to_int4(-2.5);

-- 2. int4 overflow wraps as ToInt32 does (modulo 2^32): no error.  NaN and Infinity give 0;
-- int2 keeps the low 16 bits; oid is ToUint32; int8 from a number saturates.
SELECT fid_to_int4(2147483648), fid_to_int4(-2147483649), fid_to_int4(4294967297),
       fid_to_int4('NaN'), fid_to_int4('Infinity');
SELECT fid_to_int2(32768), fid_to_int2(65537), fid_to_oid(-1), fid_to_oid(4294967298);
CREATE FUNCTION fid_to_int8(x float8) RETURNS int8 LANGUAGE plv8 AS $$ return x; $$;
SELECT fid_to_int8(1e19), fid_to_int8(-1e19), fid_to_int8('NaN');
-- the same conversions apply to query parameters, array elements and row columns
CREATE FUNCTION fid_run(expr text) RETURNS text LANGUAGE plv8 AS $$
  return JSON.stringify(eval(expr), function (k, v) { return typeof v === 'bigint' ? v + 'n' : v; });
$$;
SELECT fid_run($$plv8.execute('SELECT $1::int4 AS a, $2::int2 AS b, $3::int8 AS c', [2147483648.7, -32769, 1234.56])$$);
CREATE FUNCTION fid_int_array() RETURNS int4[] LANGUAGE plv8 AS $$ return [1.9, -1.9, 2147483648]; $$;
SELECT fid_int_array();
CREATE TYPE fid_pair AS (a int4, b int8);
CREATE FUNCTION fid_row() RETURNS fid_pair LANGUAGE plv8 AS $$ return { a: 4294967295.5, b: -0.5 }; $$;
SELECT * FROM fid_row();

-- 3. plv8.quote_literal quotes String(v): null is 'null' (plv8's plv8_quotes(NULL) gives
-- 'null':NULL:"null"); quote_nullable makes null and undefined NULL; no argument: undefined.
CREATE FUNCTION fid_quotes(s text) RETURNS text LANGUAGE plv8 AS $$
  return [plv8.quote_literal(s), plv8.quote_nullable(s), plv8.quote_ident(s)].join(":");
$$;
SELECT fid_quotes('select'), fid_quotes('kevin''s name'), fid_quotes(NULL);
SELECT fid_run($$[plv8.quote_literal(undefined), plv8.quote_nullable(undefined), typeof plv8.quote_literal(), typeof plv8.quote_ident()]$$);

-- 4. plv8.find_function of a function the user may not execute: a WARNING, and the result is
-- undefined (plv8's find_function_perms test); a missing one is still an error, and so is one
-- in another language.
CREATE FUNCTION fid_perm() RETURNS void LANGUAGE plv8 AS $$ plv8.elog(NOTICE, 'nope'); $$;
REVOKE EXECUTE ON FUNCTION fid_perm() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION fid_run(text) TO regress_plv8_fid;
SET ROLE regress_plv8_fid;
DO $$ const func = plv8.find_function('fid_perm') $$ LANGUAGE plv8;
DO $$ const func = plv8.find_function('fid_perm()') $$ LANGUAGE plv8;
SELECT fid_run($$typeof plv8.find_function('fid_perm')$$);
SELECT fid_run($$plv8.find_function('fid_no_such_function')$$);
RESET ROLE;
CREATE FUNCTION fid_sql() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;
SELECT fid_run($$plv8.find_function('fid_sql')$$);
SELECT fid_run($$plv8.find_function('fid_int4')()$$);

-- 5. plv8.start_proc runs when a user's context is created, and only if the user may execute it.
-- A deliberate difference (README): plv8 lets any user set it (PGC_USERSET, its guc and startup
-- tests), here it is superuser-only unless granted, as below; the rest is plv8's behaviour.
SELECT context FROM pg_settings WHERE name = 'plv8.start_proc';
GRANT SET ON PARAMETER plv8.start_proc TO regress_plv8_fid;
CREATE FUNCTION fid_start() RETURNS void LANGUAGE plv8 AS $$ this.fid_started = 'started'; $$;
CREATE FUNCTION fid_started() RETURNS text LANGUAGE plv8 AS $$
  return typeof fid_started === 'undefined' ? 'not started' : fid_started;
$$;
GRANT EXECUTE ON FUNCTION fid_started() TO regress_plv8_fid;
SET ROLE regress_plv8_fid;
SET plv8.start_proc = 'fid_start';
SHOW plv8.start_proc;
SELECT plv8_reset();
SELECT fid_started();
RESET plv8.start_proc;
RESET ROLE;
-- not permitted (plv8's startup_perms test): a WARNING, and the call goes on
REVOKE EXECUTE ON FUNCTION fid_start() FROM PUBLIC;
SET ROLE regress_plv8_fid;
SELECT plv8_reset();
SET plv8.start_proc = 'fid_start';
DO $$ plv8.elog(NOTICE, 'hello') $$ LANGUAGE plv8;
SELECT fid_started();
RESET plv8.start_proc;
RESET ROLE;
REVOKE SET ON PARAMETER plv8.start_proc FROM regress_plv8_fid;

-- 6. plv8.memory_limit counts the heap in use plus every ArrayBuffer: a buffer that does not fit
-- is the RangeError `new ArrayBuffer` throws, which JS can catch (plv8's memory_limits test).
SHOW plv8.memory_limit;
SELECT plv8_reset();
DO $$
  const limit = plv8.execute(`select setting from pg_settings where name = $1`, ['plv8.memory_limit'])[0].setting;
  const a = new ArrayBuffer(limit*1024*1024/2);
$$ LANGUAGE plv8;
DO $$
  const limit = plv8.execute(`select setting from pg_settings where name = $1`, ['plv8.memory_limit'])[0].setting;
  const a = new ArrayBuffer(limit*1024*1024/2);
$$ LANGUAGE plv8;
DO $$
  const limit = plv8.execute(`select setting from pg_settings where name = $1`, ['plv8.memory_limit'])[0].setting;
  const a = new ArrayBuffer(limit*1024*1024);
$$ LANGUAGE plv8;
DO $$
  const limit = plv8.execute(`select setting from pg_settings where name = $1`, ['plv8.memory_limit'])[0].setting;
  try {
    const a = new ArrayBuffer(limit*1024*1024);
    plv8.elog(NOTICE, 'allocated');
  } catch (e) {
    plv8.elog(NOTICE, 'caught:', e instanceof RangeError, e.message);
  }
$$ LANGUAGE plv8;
-- the heap counts: with most of the limit in JS objects, a buffer of the rest does not fit
DO $$
  const limit = plv8.execute(`select setting from pg_settings where name = $1`, ['plv8.memory_limit'])[0].setting;
  const keep = [];
  while (plv8.memory_usage().used_heap_size < limit * 1024 * 1024 / 2)
    keep.push(new Array(1 << 16).fill(keep.length + 0.5));
  try {
    const a = new ArrayBuffer(limit*1024*1024/2);
    plv8.elog(NOTICE, 'allocated');
  } catch (e) {
    plv8.elog(NOTICE, 'caught:', String(e));
  }
$$ LANGUAGE plv8;
-- where plv8 ends the backend (FATAL: plv8: OOM in ArrayAllocator), this is the same RangeError
DO $$
  const limit = plv8.execute(`select setting from pg_settings where name = $1`, ['plv8.memory_limit'])[0].setting;
  const a = new ArrayBuffer(limit*1024*1024/1.01);
  const s = [];
  try {
    while (true) s.push(new ArrayBuffer(63));
  } catch (e) {
    plv8.elog(NOTICE, 'caught:', String(e));
  }
$$ LANGUAGE plv8;
-- a bytea too big for what is left: the same RangeError, from plv8.execute
DO $$
  const a = new ArrayBuffer(250*1024*1024);
  try {
    plv8.execute(`SELECT repeat('x', 8*1024*1024)::bytea AS b`);
    plv8.elog(NOTICE, 'converted');
  } catch (e) {
    plv8.elog(NOTICE, 'caught:', String(e));
  }
$$ LANGUAGE plv8;
SELECT plv8_reset();
SELECT 'backend alive' AS status;

DROP FUNCTION fid_run(text);
DROP FUNCTION fid_started();
DROP ROLE regress_plv8_fid;
