-- The synchronous functions' autonomous session (src/extension/sync.ts, docs/security.md). Part of the
-- generated extension script (scripts/build-extension.ts), after schema.sql.

-- svc_sync: the role that session logs in as. It may run svc__sync_submit, svc__sync_state and
-- svc__sync_cancel (granted with them) and nothing else of svc's; the sync functions refuse to use it
-- when it has any other attribute or a membership. Cluster-wide, so created only when missing.
DO $role$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'svc_sync') THEN
    CREATE ROLE svc_sync LOGIN NOINHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
  END IF;
END
$role$;
-- Its sessions run with track_activities off (their connection options, sql/svc__sync_dblink.sql): their statements
-- carry a waiting call's token and its prompts, and pg_stat_activity would show them to anyone else
-- logged in as svc_sync. A superuser-only setting, so granted (a parameter privilege, no attribute).
GRANT SET ON PARAMETER track_activities TO svc_sync;

-- The digest of the token of the sync call that submitted a request (autonomous.ts): svc__sync_state
-- and svc__sync_cancel act on a request only for the token it was submitted with.
ALTER TABLE svc_queue ADD COLUMN sync_token bytea;

-- Settings that only an administrator makes: no role but svc's owner (svc_owner) reads or writes this
-- table; svc_set_sync_connection (svc_admin) writes 'sync_connection'. A session's SET cannot reach it.
CREATE TABLE svc_config (
  name   text PRIMARY KEY,
  value  jsonb NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now()
);
SELECT pg_catalog.pg_extension_config_dump('svc_config', '');

-- dblink's functions are executable by PUBLIC as dblink installs them; through them any role could run
-- statements on a connection svc keeps in its backend. Only the roles a DBA grants them to may now
-- (superusers always may); the sync functions give a caller who may a one-shot session instead.
DO $dblink$
DECLARE
  f regprocedure;
BEGIN
  FOR f IN
    SELECT p.oid::regprocedure FROM pg_depend d
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'dblink'
    JOIN pg_proc p ON p.oid = d.objid
    WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
  END LOOP;
END
$dblink$;
