-- The session's own vectorizers (svc_admin members: all), with how far each is.
SELECT v.name, v.source, v.source_column, v.destination, v.model,
  count(*) FILTER (WHERE r.state = 'pending'), count(*) FILTER (WHERE r.state = 'done'), count(*) FILTER (WHERE r.state = 'failed'),
  coalesce(sum(r.chunks) FILTER (WHERE r.state = 'done'), 0),
  clock_timestamp() - min(r.queued_at) FILTER (WHERE r.state = 'pending'),
  (array_agg(r.error ORDER BY r.done_at DESC) FILTER (WHERE r.state = 'failed'))[1]
FROM svc_vectorizers v LEFT JOIN svc_vectorizer_rows r ON r.vectorizer = v.id
WHERE v.owner = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END)
  OR pg_has_role((CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END), 'svc_admin', 'MEMBER')
GROUP BY v.name
ORDER BY v.name
