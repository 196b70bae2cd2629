-- Never waits for a row lock (see svc__complete.sql): a row locked by its owner's cancel, left
-- uncommitted, would hold up the renewal of every lease the worker holds.
WITH renewed AS (
  UPDATE @extschema@.svc_queue SET lease_expires_at = clock_timestamp() + make_interval(secs => $3)
  WHERE request_id = ANY (ARRAY(
    SELECT l.request_id FROM @extschema@.svc_queue l WHERE l.request_id = ANY ($2) AND l.worker_id = $1 AND l.status = 'processing'
    FOR UPDATE SKIP LOCKED))
  RETURNING 1
)
SELECT count(*)::integer FROM renewed
