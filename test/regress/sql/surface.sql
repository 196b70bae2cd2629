-- svc's SQL surface, pinned by pg_regress: every function with its full signature here, and every
-- documented error with its SQLSTATE, message, detail and hint in the errors_* files, one per area.
-- A change to either shows as a diff of expected/*.out. (Run by `make installcheck` against a running
-- server, and by test/extension/regress.test.ts on a throwaway cluster.)
CREATE EXTENSION svc CASCADE;
\pset pager off
\pset format unaligned

\df svc_*

-- Errors are caught and printed by regress.err() rather than with \set VERBOSITY verbose, whose
-- LOCATION line names a line of PostgreSQL's or plv8's C source and so changes with their minor
-- versions. Request ids are random: they print as <id>. The errors_* files use it.
CREATE SCHEMA regress;
CREATE FUNCTION regress.err(statement text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  s text; m text; d text; h text;
BEGIN
  EXECUTE statement;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
  RETURN regexp_replace(concat_ws(E'\n', s || ': ' || m, 'DETAIL: ' || nullif(d, ''), 'HINT: ' || nullif(h, '')),
    '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', '<id>', 'g');
END $$;
