SELECT model, function_name, status, count(*),
  clock_timestamp() - min(created_at) FILTER (WHERE status = 'pending'),
  avg(started_at - created_at) FILTER (WHERE started_at IS NOT NULL),
  avg(completed_at - started_at) FILTER (WHERE completed_at IS NOT NULL)
FROM @extschema@.svc_queue GROUP BY model, function_name, status ORDER BY model, function_name, status
