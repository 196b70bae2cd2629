-- installation surface: language, handlers, helper functions
CREATE EXTENSION IF NOT EXISTS plv8;
SELECT lanname, lanpltrusted FROM pg_language WHERE lanname = 'plv8';
SELECT plv8_version();
SELECT proname FROM pg_proc WHERE proname LIKE 'plv8\_%' ORDER BY 1;

-- DO block: no arguments, result ignored, compiled each time
DO $$ plv8.elog(NOTICE, 'do block', typeof arguments, arguments.length); return 42; $$ LANGUAGE plv8;
DO $$ plv8.elog(NOTICE, 'version', plv8.version) $$ LANGUAGE plv8;

-- named and unnamed arguments, arguments object
CREATE FUNCTION init_add(a int, b int) RETURNS int LANGUAGE plv8 AS $$ return a + b; $$;
SELECT init_add(2, 3);
CREATE FUNCTION init_unnamed(int, text) RETURNS text LANGUAGE plv8 AS $$ return $2 + ':' + $1; $$;
SELECT init_unnamed(7, 'x');
CREATE FUNCTION init_mixed(a int, int) RETURNS text LANGUAGE plv8
AS $$ return [a, $2, arguments.length, arguments[0], arguments[1]].join(','); $$;
SELECT init_mixed(1, 2);
CREATE FUNCTION init_variadic(VARIADIC xs int[]) RETURNS text LANGUAGE plv8
AS $$ return Array.isArray(xs) + ' ' + JSON.stringify(xs); $$;
SELECT init_variadic(1, 2, 3);
SELECT init_variadic(VARIADIC ARRAY[4, 5]);
CREATE FUNCTION init_void() RETURNS void LANGUAGE plv8 AS $$ return 5; $$;
SELECT init_void();

-- this is the global object; globals persist across calls in a session
CREATE FUNCTION init_counter() RETURNS int LANGUAGE plv8
AS $$ this.counter = (this.counter || 0) + 1; return counter; $$;
SELECT init_counter(), init_counter(), init_counter();

-- no console, require or timers
DO $$ plv8.elog(NOTICE, typeof console, typeof require, typeof setTimeout, typeof setInterval, typeof process) $$ LANGUAGE plv8;

-- validator: syntax errors fail CREATE FUNCTION with the line of the error
CREATE FUNCTION init_bad() RETURNS int LANGUAGE plv8 AS $$
  var x = 1;
  return x +;
$$;
SELECT count(*) FROM pg_proc WHERE proname = 'init_bad';
SET check_function_bodies = off;
CREATE FUNCTION init_bad_unchecked() RETURNS int LANGUAGE plv8 AS $$ return +; $$;
RESET check_function_bodies;
SELECT init_bad_unchecked();

-- unsupported pseudo-types
CREATE FUNCTION init_anyelement(x anyelement) RETURNS anyelement LANGUAGE plv8 AS $$ return x; $$;
CREATE FUNCTION init_internal(x internal) RETURNS internal LANGUAGE plv8 AS $$ return 1; $$;
CREATE FUNCTION init_anyarg(x anyelement) RETURNS int LANGUAGE plv8 AS $$ return 1; $$;

-- CREATE OR REPLACE invalidates the compiled function
CREATE FUNCTION init_replace() RETURNS int LANGUAGE plv8 AS $$ return 1; $$;
SELECT init_replace();
CREATE OR REPLACE FUNCTION init_replace() RETURNS int LANGUAGE plv8 AS $$ return 2; $$;
SELECT init_replace();
BEGIN;
CREATE OR REPLACE FUNCTION init_replace() RETURNS int LANGUAGE plv8 AS $$ return 3; $$;
SELECT init_replace();
ROLLBACK;
SELECT init_replace();

-- a DO block's globals are the session's globals too
DO $$ this.from_do = 'yes' $$ LANGUAGE plv8;
CREATE FUNCTION init_read_global() RETURNS text LANGUAGE plv8 AS $$ return from_do; $$;
SELECT init_read_global();
CREATE FUNCTION init_event() RETURNS event_trigger LANGUAGE plv8 AS $$ $$;
-- trigger functions cannot be called directly
CREATE FUNCTION init_trig() RETURNS trigger LANGUAGE plv8 AS $$ return NEW; $$;
SELECT init_trig();
