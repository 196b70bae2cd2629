-- A vectorizer's destination as SQL names it, locked against DDL (ROW EXCLUSIVE) until the transaction
-- ends, for svc's own writes (svc__vectorizer_forget, svc__vectorizer_apply); NULL when it is gone.
-- The name is taken from the table's oid and read back after the lock: the destination lives in the
-- role's schema, whose owner may drop it and make a table of that name, with triggers of hers, that a
-- name looked up once could reach. Only the table svc made, still svc_owner's, is ever named.
DECLARE
  rel text;
BEGIN
  SELECT format('%I.%I', n.nspname, c.relname) INTO rel
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.oid = destination AND c.relkind = 'r' AND c.relowner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = 'svc_owner');
  IF rel IS NULL THEN
    RETURN NULL;
  END IF;
  EXECUTE format('LOCK TABLE ONLY %s IN ROW EXCLUSIVE MODE', rel);
  IF to_regclass(rel) IS DISTINCT FROM destination THEN
    RAISE EXCEPTION 'the destination of a vectorizer was replaced while svc wrote it (%)', rel USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  RETURN rel;
END
