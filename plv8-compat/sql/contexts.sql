-- one context per user: globals are per user, SECURITY DEFINER runs in the owner's context,
-- plv8_reset() drops the current user's context, plv8_info() describes them
CREATE EXTENSION IF NOT EXISTS plv8;
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_plv8_alice;
DROP ROLE IF EXISTS regress_plv8_bob;
RESET client_min_messages;
CREATE ROLE regress_plv8_alice;
CREATE ROLE regress_plv8_bob;
CREATE FUNCTION ctx_set(v text) RETURNS text LANGUAGE plv8 AS $$ var old = this.shared_value; shared_value = v; return String(old); $$;
CREATE FUNCTION ctx_get() RETURNS text LANGUAGE plv8 AS $$ return String(this.shared_value); $$;
CREATE FUNCTION ctx_get_definer() RETURNS text LANGUAGE plv8 SECURITY DEFINER AS $$ return String(this.shared_value); $$;
GRANT EXECUTE ON FUNCTION ctx_set(text), ctx_get(), ctx_get_definer() TO PUBLIC;
SELECT ctx_set('superuser value');
SELECT ctx_get();
SET ROLE regress_plv8_alice;
SELECT ctx_get();
SELECT ctx_set('alice value');
SELECT ctx_get(), ctx_get_definer();
SET ROLE regress_plv8_bob;
SELECT ctx_get();
SELECT ctx_set('bob value');
RESET ROLE;
SELECT ctx_get();
SET ROLE regress_plv8_alice;
SELECT ctx_get();
RESET ROLE;
-- plv8_info lists one entry per user context
SELECT json_array_length(plv8_info()) >= 3 AS three_contexts,
       (SELECT count(*) FROM json_array_elements(plv8_info()) e
         WHERE e->>'user' IN ('regress_plv8_alice', 'regress_plv8_bob')) AS role_contexts,
       (SELECT bool_and((e->>'used_heap_size')::bigint > 0) FROM json_array_elements(plv8_info()) e) AS heap_stats;
-- plv8_reset drops only the current user's context
SELECT plv8_reset();
SELECT ctx_get();
SET ROLE regress_plv8_alice;
SELECT ctx_get();
SELECT plv8_reset();
SELECT ctx_get();
RESET ROLE;
-- a context cannot be reset while its JS is running
CREATE FUNCTION ctx_reset_inside() RETURNS void LANGUAGE plv8 AS $$ plv8.execute('SELECT plv8_reset()'); $$;
SELECT ctx_reset_inside();
CREATE FUNCTION ctx_reset_inside_caught() RETURNS text LANGUAGE plv8 AS $$
  try { plv8.execute('SELECT plv8_reset()'); } catch (e) { return e.message; }
$$;
SELECT ctx_reset_inside_caught();
-- a SECURITY DEFINER function called from another user's JS runs in its owner's context
SELECT ctx_set('owner value');
SET ROLE regress_plv8_bob;
CREATE FUNCTION pg_temp.ctx_bob_calls() RETURNS text LANGUAGE plv8 AS $$
  return plv8.execute('SELECT ctx_get_definer() AS v')[0].v + ' / ' + String(this.shared_value);
$$;
SELECT pg_temp.ctx_bob_calls();
RESET ROLE;
-- recompiled per user: replacing a function is seen by every context
CREATE FUNCTION ctx_version() RETURNS int LANGUAGE plv8 AS $$ return 1; $$;
GRANT EXECUTE ON FUNCTION ctx_version() TO PUBLIC;
SET ROLE regress_plv8_alice;
SELECT ctx_version();
RESET ROLE;
CREATE OR REPLACE FUNCTION ctx_version() RETURNS int LANGUAGE plv8 AS $$ return 2; $$;
SET ROLE regress_plv8_alice;
SELECT ctx_version();
RESET ROLE;
SELECT ctx_version();
DROP FUNCTION ctx_set(text), ctx_get(), ctx_get_definer(), ctx_version(), pg_temp.ctx_bob_calls();
DROP ROLE regress_plv8_alice;
DROP ROLE regress_plv8_bob;
