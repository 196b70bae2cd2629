-- The superuser's functions (svc_vectorize, svc_vectorize_drop: docs/security.md, "Who owns svc's
-- objects") read and write these tables of svc_owner's. What their owner could attach to a table runs
-- as whoever writes it: a trigger, a rule (a view in the table's place), a default, a constraint, an
-- index or a column type that calls a function, operator or type outside pg_catalog, an inheritance.
-- So before they touch them, this refuses (naming what it found and the function `caller`) unless the
-- tables are as svc made them: a slip in code running as svc_owner stays svc_owner's. The tables are
-- locked against DDL (ROW EXCLUSIVE) until the transaction ends, so nothing is attached in between.
-- Owned by the superuser and SECURITY INVOKER: svc_owner cannot change it, and it runs as its caller.
DECLARE
  tables regclass[] := ARRAY['@extschema@.svc_vectorizers', '@extschema@.svc_vectorizer_rows', '@extschema@.svc_queue', '@extschema@.svc_models']::regclass[];
  found text;
BEGIN
  LOCK TABLE @extschema@.svc_vectorizers, @extschema@.svc_vectorizer_rows, @extschema@.svc_queue, @extschema@.svc_models IN ROW EXCLUSIVE MODE;
  SELECT format('%s: %s', x.rel, x.what) INTO found FROM (
    SELECT c.oid::regclass AS rel, 'it is no longer a plain table' AS what FROM pg_class c WHERE c.oid = ANY (tables) AND c.relkind <> 'r'
    UNION ALL
    SELECT t.tgrelid::regclass, format('trigger %I', t.tgname) FROM pg_trigger t WHERE t.tgrelid = ANY (tables) AND NOT t.tgisinternal
    UNION ALL
    SELECT r.ev_class::regclass, format('rule %I', r.rulename) FROM pg_rewrite r WHERE r.ev_class = ANY (tables)
    UNION ALL
    SELECT i.inhrelid::regclass, format('inheritance from or by %s', i.inhparent::regclass) FROM pg_inherits i
    WHERE i.inhrelid = ANY (tables) OR i.inhparent = ANY (tables)
    UNION ALL
    -- Built-in objects are pinned and get no pg_depend rows: any row here names something else.
    SELECT o.rel::regclass, format('%s uses %s', o.kind, pg_describe_object(d.refclassid, d.refobjid, 0))
    FROM (
      SELECT c.oid AS rel, 'pg_class'::regclass AS classid, c.oid AS objid, 'a column' AS kind FROM pg_class c WHERE c.oid = ANY (tables)
      UNION ALL SELECT i.indrelid, 'pg_class'::regclass, i.indexrelid, 'an index' FROM pg_index i WHERE i.indrelid = ANY (tables)
      UNION ALL SELECT c.conrelid, 'pg_constraint'::regclass, c.oid, 'a constraint' FROM pg_constraint c WHERE c.conrelid = ANY (tables)
      UNION ALL SELECT a.adrelid, 'pg_attrdef'::regclass, a.oid, 'a default' FROM pg_attrdef a WHERE a.adrelid = ANY (tables)
    ) o
    JOIN pg_depend d ON d.classid = o.classid AND d.objid = o.objid
    WHERE d.refclassid IN ('pg_proc'::regclass, 'pg_type'::regclass, 'pg_operator'::regclass, 'pg_opclass'::regclass, 'pg_opfamily'::regclass, 'pg_collation'::regclass)
  ) x LIMIT 1;
  IF found IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'object_not_in_prerequisite_state',
      MESSAGE = format('%s: svc''s table %s, which svc did not make', caller, found),
      DETAIL = 'svc_owner owns svc''s tables; what it attaches to one would run as the superuser whose function writes it.',
      HINT = 'A superuser removes it (and finds out how it came there).';
  END IF;
END
