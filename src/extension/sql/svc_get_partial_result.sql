-- Streaming: what a request has so far, read as the caller (row-level security: no row when the
-- request is unknown or not yours, as svc_check_async). While processing, the text a worker last
-- published for this attempt ('' and 0 before its first write); once completed, the result itself,
-- so a reader that prints each new end of partial_result ends with the exact result; failed or
-- cancelled, the error. Tokens are counted only while processing.
#variable_conflict use_column
BEGIN
  IF $1 IS NULL THEN
    RAISE EXCEPTION 'svc_get_partial_result: request_id must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  RETURN QUERY
    SELECT q.status,
      CASE q.status WHEN 'completed' THEN q.result WHEN 'processing' THEN coalesce(p.partial_result, '') WHEN 'pending' THEN '' END,
      CASE q.status WHEN 'processing' THEN coalesce(p.tokens, 0) WHEN 'pending' THEN 0 END,
      q.error,
      (CASE q.status WHEN 'processing' THEN coalesce(p.updated_at, q.started_at) ELSE coalesce(q.completed_at, q.failed_at, q.cancelled_at) END)::timestamp
    FROM @extschema@.svc_queue q
    LEFT JOIN @extschema@.svc_partial_results p ON p.request_id = q.request_id AND p.attempt = q.attempt
    WHERE q.request_id = $1;
END
