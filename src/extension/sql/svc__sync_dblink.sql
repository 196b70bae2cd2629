-- svc's one door to dblink (autonomous.ts). Owned by the superuser who installed svc and executable by
-- svc_owner alone: dblink_connect_u, and a one-shot dblink() without a password, are a superuser's,
-- so svc_owner is given this instead (docs/security.md, "Who owns svc's objects"). Whatever it is
-- asked, it opens sessions only as svc_sync, to this database, with svc's options (search_path
-- pg_catalog and pg_temp, track_activities off), where the administrator's target says: `target` is
-- svc_config's value, read by svc_owner and passed in as a value; only the keywords svc_set_sync_
-- connection accepts are taken. It reads no table and calls nothing svc_owner owns or could change:
-- nothing of svc_owner's runs here as the superuser.
--   'connect': open the kept connection, named svc_sync; 'disconnect': close it;
--   'run': the statement on it; 'run_once': the statement in a session of its own, named
--   application_name, which dblink closes when the statement ends, however it ends;
--   'describe': the connection string of `target`, its password masked.
-- Statements return one text column; their rows come back as they are. dblink is called by its
-- schema, read from the catalog (an administrator's choice, wherever CREATE EXTENSION put it): the
-- search_path is pg_catalog's alone, and PostgreSQL 15 has no @extschema:dblink@.
DECLARE
  dblink_ text := (SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'dblink');
  conninfo text := '';
  part record;
  given record;
BEGIN
  IF action = 'disconnect' THEN
    EXECUTE format('SELECT %s.dblink_disconnect($1)', dblink_) USING 'svc_sync';
    RETURN;
  ELSIF action = 'run' THEN
    RETURN QUERY EXECUTE format('SELECT t.r FROM %s.dblink($1, $2) AS t(r text)', dblink_) USING 'svc_sync', statement;
    RETURN;
  ELSIF action IS NULL OR action NOT IN ('connect', 'run_once', 'describe') THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = format('svc__sync_dblink: action must be connect, disconnect, run, run_once or describe (is %L)', action);
  END IF;
  IF target IS NULL OR jsonb_typeof(target) <> 'object' THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'svc__sync_dblink: target must be a JSON object';
  END IF;
  FOR given IN SELECT e.key, jsonb_typeof(e.value) AS type FROM jsonb_each(target) e LOOP
    IF given.key NOT IN ('host', 'hostaddr', 'port', 'password', 'connect_timeout', 'sslmode', 'channel_binding') OR given.type <> 'string' THEN
      RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = format('svc__sync_dblink: the target may not set %I (or set it to a %s)', given.key, given.type);
    END IF;
  END LOOP;
  -- This server's first unix socket and port unless the target says otherwise; then svc's own.
  FOR part IN
    SELECT p.keyword, p.value FROM (VALUES
      (1, 'host', coalesce(target->>'host', nullif(btrim(split_part(current_setting('unix_socket_directories'), ',', 1)), ''), 'localhost')),
      (2, 'port', coalesce(target->>'port', current_setting('port'))),
      (3, 'hostaddr', target->>'hostaddr'),
      (4, 'connect_timeout', target->>'connect_timeout'),
      (5, 'password', CASE WHEN action = 'describe' AND target ? 'password' THEN '********' ELSE target->>'password' END),
      (6, 'sslmode', target->>'sslmode'),
      (7, 'channel_binding', target->>'channel_binding'),
      (8, 'dbname', current_database()::text),
      (9, 'user', 'svc_sync'),
      (10, 'options', '-c search_path=pg_catalog,pg_temp -c track_activities=off'),
      (11, 'application_name', coalesce(application_name, 'svc_sync'))
    ) AS p(ord, keyword, value)
    WHERE p.value IS NOT NULL ORDER BY p.ord
  LOOP
    -- libpq's quoting: single quotes, a backslash before a quote or a backslash.
    conninfo := conninfo || CASE WHEN conninfo = '' THEN '' ELSE ' ' END || part.keyword || '='''
      || replace(replace(part.value, E'\\', E'\\\\'), '''', E'\\''') || '''';
  END LOOP;
  IF action = 'describe' THEN
    RETURN NEXT conninfo;
  ELSIF action = 'connect' THEN
    EXECUTE format('SELECT %s.dblink_connect_u($1, $2)', dblink_) USING 'svc_sync', conninfo;
  ELSE
    RETURN QUERY EXECUTE format('SELECT t.r FROM %s.dblink($1, $2) AS t(r text)', dblink_) USING conninfo, statement;
  END IF;
  RETURN;
END
