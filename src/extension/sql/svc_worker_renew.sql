WITH renewed AS (
  UPDATE svc_queue SET lease_expires_at = clock_timestamp() + make_interval(secs => $3)
  WHERE request_id = ANY ($2) AND worker_id = $1 AND status = 'processing'
  RETURNING 1
)
SELECT count(*)::integer FROM renewed
