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
-- any user may set it, as in plv8 (it runs only where that user may execute the function)
SET ROLE regress_plv8_carol;
SET plv8.start_proc = 'sp_init';
SHOW plv8.start_proc;
RESET plv8.start_proc;
RESET ROLE;
DROP FUNCTION sp_use();
DROP ROLE regress_plv8_carol;
