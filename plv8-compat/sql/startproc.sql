-- plv8.start_proc runs once when a user's context is created, with this = global
CREATE EXTENSION IF NOT EXISTS plv8;
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_plv8_carol;
RESET client_min_messages;
CREATE ROLE regress_plv8_carol;
CREATE FUNCTION sp_init() RETURNS void LANGUAGE plv8 AS $$
  this.sp_counter = (this.sp_counter || 0) + 1;
  this.greet = function (n) { return 'hello ' + n; };
  plv8.elog(NOTICE, 'start_proc ran');
$$;
CREATE FUNCTION sp_use() RETURNS text LANGUAGE plv8 AS $$
  return typeof greet === 'function' ? greet('world') + ' ' + sp_counter : 'no start_proc';
$$;
GRANT EXECUTE ON FUNCTION sp_use() TO PUBLIC;
SELECT plv8_reset();
SET plv8.start_proc = 'sp_init';
SELECT sp_use();
SELECT sp_use();
-- a new context runs it again
SELECT plv8_reset();
SELECT sp_use();
-- missing function: WARNING, and the call goes on
SET plv8.start_proc = 'sp_no_such_function';
SELECT plv8_reset();
SELECT sp_use();
-- not permitted for the user: WARNING, and the call goes on
SET plv8.start_proc = 'sp_init';
REVOKE EXECUTE ON FUNCTION sp_init() FROM PUBLIC;
SET ROLE regress_plv8_carol;
SELECT sp_use();
RESET ROLE;
-- not a plv8 function
CREATE FUNCTION sp_sql() RETURNS void LANGUAGE sql AS $$ SELECT 1 $$;
SET plv8.start_proc = 'sp_sql';
SELECT plv8_reset();
SELECT sp_use();
-- a start_proc that throws fails the call, and is tried again by the next one
CREATE FUNCTION sp_throws() RETURNS void LANGUAGE plv8 AS $$ throw new Error('start_proc failed'); $$;
SET plv8.start_proc = 'sp_throws';
SELECT plv8_reset();
SELECT sp_use();
SELECT sp_use();
RESET plv8.start_proc;
SELECT sp_use();
SELECT plv8_reset();
SELECT sp_use();
-- superusers only (plv8 lets any user set it): whoever could set it would have a function of theirs
-- run as the owner of the first SECURITY DEFINER plv8 function they call in a fresh backend
SET ROLE regress_plv8_carol;
SET plv8.start_proc = 'sp_init';
ALTER ROLE regress_plv8_carol SET plv8.start_proc = 'sp_init';
RESET ROLE;
-- unless a superuser grants it
GRANT SET ON PARAMETER plv8.start_proc TO regress_plv8_carol;
SET ROLE regress_plv8_carol;
SET plv8.start_proc = 'sp_init';
SHOW plv8.start_proc;
RESET plv8.start_proc;
RESET ROLE;
REVOKE SET ON PARAMETER plv8.start_proc FROM regress_plv8_carol;
-- a function-level SET is in force when the handler creates the owner's context: the pin that keeps a
-- SECURITY DEFINER function safe where any user may set plv8.start_proc
CREATE FUNCTION sp_definer() RETURNS text LANGUAGE plv8 SECURITY DEFINER SET plv8.start_proc = '' AS $$
  return typeof greet === 'function' ? 'start_proc ran' : 'no start_proc';
$$;
SET plv8.start_proc = 'sp_init';
SELECT plv8_reset();
SELECT sp_definer();
-- without the pin, in a fresh context, it runs
ALTER FUNCTION sp_definer() RESET plv8.start_proc;
SELECT plv8_reset();
SELECT sp_definer();
RESET plv8.start_proc;
DROP FUNCTION sp_definer();
DROP FUNCTION sp_use();
DROP ROLE regress_plv8_carol;
