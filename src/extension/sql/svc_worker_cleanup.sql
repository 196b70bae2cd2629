-- Retention, done by the workers (worker/worker.ts, after each heartbeat): up to max_rows finished
-- (completed, failed, cancelled) requests that finished longer ago than svc.retention are deleted, the
-- oldest first, through svc_queue_finished_idx; rows another worker is deleting are skipped. Small
-- batches keep each transaction short; the worker calls again while a batch comes back full.
-- Streamed partial text (svc_partial_results) counts only while its attempt runs: the rows of
-- requests no longer processed under that attempt go too (not counted in the result).
DECLARE
  removed integer;
  cutoff timestamptz := clock_timestamp() - svc__setting_interval('svc.retention');
BEGIN
  IF max_rows IS NULL OR max_rows < 1 THEN
    RAISE EXCEPTION 'svc_worker_cleanup: max_rows must be a positive integer' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  WITH old AS (
    SELECT q.request_id FROM svc_queue q
    WHERE q.status IN ('completed', 'failed', 'cancelled') AND coalesce(q.completed_at, q.failed_at, q.cancelled_at) < cutoff
    ORDER BY coalesce(q.completed_at, q.failed_at, q.cancelled_at)
    LIMIT max_rows
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM svc_queue q USING old WHERE q.request_id = old.request_id RETURNING 1
  )
  SELECT count(*) INTO removed FROM gone;
  -- Documents stored once for a batch (svc_documents) go with the last request that names them.
  DELETE FROM svc_documents d WHERE NOT EXISTS (SELECT FROM svc_queue q WHERE q.documents_id = d.id);
  DELETE FROM svc_partial_results p
  WHERE NOT EXISTS (SELECT FROM svc_queue q WHERE q.request_id = p.request_id AND q.status = 'processing' AND q.attempt = p.attempt);
  RETURN removed;
END
