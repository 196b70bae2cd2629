-- Whether backend `backend_pid`, connected to this database, waits for a sync call: it holds the waiter
-- lock `waiter` (svc__sync_waiter_lock_key(), 'svcw', and the session's key; a two-key
-- advisory lock shows as objsubid 2, its keys as unsigned classid and objid) and the lock of `token`
-- (svc__sync_token_key: one bigint key, objsubid 1, its high and low 32 bits as classid and objid),
-- and its login role may act as the role of oid `owner` (is a member of it: what SET ROLE requires). svc__sync_submit
-- acts only for such a backend, so whoever reaches the autonomous session can submit for nobody but a
-- call whose token it was given. The lock table is read once for both locks: each read copies all of
-- it, and this runs for every sync call (#55).
DECLARE
  holder oid;
  db oid := (SELECT d.oid FROM pg_database d WHERE d.datname = current_database());
  token_key bigint := @extschema@.svc__sync_token_key(token);
BEGIN
  IF backend_pid IS NULL OR waiter IS NULL OR token IS NULL OR owner IS NULL OR (
    SELECT count(DISTINCT l.objsubid) FROM pg_lock_status() l
    WHERE l.locktype = 'advisory' AND l.pid = backend_pid AND l.granted AND l.database = db
      AND ((l.objsubid = 2 AND l.classid = @extschema@.svc__sync_waiter_lock_key()::oid AND l.objid = (waiter::bigint & 4294967295)::oid)
        OR (l.objsubid = 1 AND l.classid = ((token_key >> 32) & 4294967295)::oid AND l.objid = (token_key & 4294967295)::oid))
  ) < 2 THEN
    RETURN false;
  END IF;
  SELECT a.usesysid INTO holder FROM pg_stat_get_activity(backend_pid) a;
  RETURN holder IS NOT NULL AND EXISTS (SELECT FROM pg_roles r WHERE r.oid = owner) AND pg_has_role(holder, owner, 'MEMBER');
END
