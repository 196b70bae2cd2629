-- Finished requests, and the rows of workers not heard from, older than the retention.
DECLARE
  removed bigint;
BEGIN
  IF $1 IS NULL THEN
    RAISE EXCEPTION 'svc_cleanup: retention must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  DELETE FROM @extschema@.svc_workers WHERE last_heartbeat < clock_timestamp() - $1;
  WITH finished AS (
    DELETE FROM @extschema@.svc_queue
    WHERE status IN ('completed', 'failed', 'cancelled')
      AND coalesce(completed_at, failed_at, cancelled_at) < clock_timestamp() - $1
    RETURNING 1
  )
  SELECT count(*) INTO removed FROM finished;
  -- Documents stored once for a batch (svc_documents) go with the last request that names them.
  DELETE FROM @extschema@.svc_documents d WHERE NOT EXISTS (SELECT FROM @extschema@.svc_queue q WHERE q.documents_id = d.id);
  RETURN removed;
END
