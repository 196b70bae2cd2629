#variable_conflict use_column
BEGIN
  IF $1 IS NULL THEN
    RAISE EXCEPTION 'svc_check_async: request_id must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  RETURN QUERY
    SELECT status, result, error, created_at::timestamp, started_at::timestamp, completed_at::timestamp, priority
    FROM @extschema@.svc_queue WHERE request_id = $1;
END
