-- svc's tables, views and sequences belong to svc_owner (schema.sql; docs/security.md, "Who owns svc's
-- objects"): every relation of the extension's, but a table's own sequences, which go with it. Emitted
-- after everything else, with the functions' and aggregates' ALTER ... OWNER (scripts/build-extension.ts).
-- The SECURITY DEFINER functions svc_owner owns run as their table's owner, so past row-level security,
-- as they did under the superuser.
DO $owner$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT c.oid::regclass AS rel, c.relkind FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
    WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
      AND d.refobjid = (SELECT e.oid FROM pg_extension e WHERE e.extname = 'svc')
      AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
      AND NOT EXISTS (SELECT FROM pg_depend o WHERE o.classid = 'pg_class'::regclass AND o.objid = c.oid AND o.deptype IN ('a', 'i'))
  LOOP
    EXECUTE format('ALTER %s %s OWNER TO svc_owner',
      CASE r.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END, r.rel);
  END LOOP;
END
$owner$;
