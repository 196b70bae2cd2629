-- The session's own vectorizers (svc_admin members: all), with how far each is. The counts read
-- every row of a vectorizer (~30 ms per 100,000, without JIT: catalog.ts); the last error is one probe of the failed rows' index.
SELECT v.name, v.source, v.source_column, v.destination, v.model, c.pending, c.done, c.failed, c.chunks, c.lag,
  (SELECT r.error FROM @extschema@.svc_vectorizer_rows r WHERE r.vectorizer = v.id AND r.state = 'failed' ORDER BY r.done_at DESC LIMIT 1)
FROM (SELECT r.oid AS id, r.rolname AS role FROM pg_roles r
      WHERE r.rolname = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END)) AS me,
  @extschema@.svc_vectorizers v,
  LATERAL (
    SELECT count(*) FILTER (WHERE r.state = 'pending') AS pending, count(*) FILTER (WHERE r.state = 'done') AS done,
      count(*) FILTER (WHERE r.state = 'failed') AS failed, coalesce(sum(r.chunks) FILTER (WHERE r.state = 'done'), 0) AS chunks,
      clock_timestamp() - min(r.queued_at) FILTER (WHERE r.state = 'pending') AS lag
    FROM @extschema@.svc_vectorizer_rows r WHERE r.vectorizer = v.id
  ) AS c
-- The session's role (its SET ROLE) by oid, as svc's other functions name it (SESSION_ROLE_ID in queries.ts).
WHERE v.owner = me.id OR pg_has_role(me.role, 'svc_admin', 'MEMBER')
ORDER BY v.name
