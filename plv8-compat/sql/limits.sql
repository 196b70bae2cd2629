-- cancel, statement_timeout, plv8.execution_timeout and plv8.memory_limit stop JS
-- with an ERROR; the backend and the context stay usable afterwards
CREATE EXTENSION IF NOT EXISTS plv8;
CREATE FUNCTION lim_spin() RETURNS int LANGUAGE plv8 AS $$ while (true) {} $$;
CREATE FUNCTION lim_ok() RETURNS text LANGUAGE plv8 AS $$ this.lim_calls = (this.lim_calls || 0) + 1; return 'ok ' + lim_calls; $$;
SELECT lim_ok();
-- statement_timeout interrupts an endless loop
SET statement_timeout = '300ms';
SELECT lim_spin();
RESET statement_timeout;
SELECT lim_ok();
-- ... also when the JS catches every error around a long SQL statement
CREATE FUNCTION lim_sleep_loop() RETURNS int LANGUAGE plv8 AS $$
  while (true) { try { plv8.execute('SELECT pg_sleep(10)'); } catch (e) { } }
$$;
SET statement_timeout = '300ms';
SELECT lim_sleep_loop();
RESET statement_timeout;
SELECT lim_ok();
-- ... and inside nested plv8 calls and subtransactions
CREATE FUNCTION lim_nested() RETURNS int LANGUAGE plv8 AS $$
  try { plv8.subtransaction(function () { plv8.execute('SELECT lim_spin()'); }); } catch (e) { }
  while (true) {}
$$;
SET statement_timeout = '300ms';
SELECT lim_nested();
RESET statement_timeout;
SELECT lim_ok();
-- a DO block too
SET statement_timeout = '300ms';
DO $$ for (;;) {} $$ LANGUAGE plv8;
RESET statement_timeout;
-- plv8.execution_timeout (seconds)
SET plv8.execution_timeout = 1;
SELECT lim_spin();
RESET plv8.execution_timeout;
SELECT lim_ok();
-- out of memory in the isolate is an ERROR, not a crash
SET plv8.memory_limit = 64;
SELECT plv8_reset();
CREATE FUNCTION lim_alloc() RETURNS int LANGUAGE plv8 AS $$
  var keep = [];
  while (true) keep.push(new Array(10000).fill(keep.length));
$$;
SELECT lim_alloc();
SELECT lim_ok();
SELECT lim_alloc();
SELECT lim_ok();
-- a big string loop
CREATE FUNCTION lim_strings() RETURNS int LANGUAGE plv8 AS $$
  var parts = [];
  for (var i = 0; ; i++) parts.push('x'.repeat(1000) + i);
$$;
SELECT lim_strings();
SELECT lim_ok();
-- ArrayBuffers count against the limit too
CREATE FUNCTION lim_buffers() RETURNS text LANGUAGE plv8 AS $$
  try { var big = new ArrayBuffer(128 * 1024 * 1024); return 'allocated'; } catch (e) { return String(e); }
$$;
SELECT lim_buffers();
-- back to the default limit in a fresh context
SELECT plv8_reset();
RESET plv8.memory_limit;
SELECT lim_ok();
SELECT 'backend alive' AS status;
