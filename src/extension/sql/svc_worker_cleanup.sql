-- Retention, done by the workers (worker/heartbeat.ts, after each heartbeat): up to max_rows finished
-- (completed, failed, cancelled) requests that finished longer ago than svc.retention are deleted, the
-- oldest first, through svc_queue_finished_idx; rows another worker is deleting are skipped. Small
-- batches keep each transaction short; the worker calls again while a batch comes back full.
-- Streamed partial text (svc_partial_results) counts only while its attempt runs: the rows of
-- requests no longer processed under that attempt go too (not counted in the result).
-- What belongs to a role that was dropped belongs to nobody (svc keeps roles' oids, never names, so a
-- role made later under that name inherits none of it): its requests still pending or processing are
-- cancelled (found by a loose scan of svc_queue_owner_active_idx: one descent per role with active
-- requests), its prompts and quotas deleted. Its vectorizers stay, queueing nothing, for an
-- svc_admin member to svc_vectorize_drop (their triggers need a superuser's function to go).
DECLARE
  removed integer;
  orphans integer;
  cutoff timestamptz := clock_timestamp() - @extschema@.svc__setting_interval('svc.retention');
BEGIN
  IF max_rows IS NULL OR max_rows < 1 THEN
    RAISE EXCEPTION 'svc_worker_cleanup: max_rows must be a positive integer' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  WITH old AS (
    SELECT q.request_id FROM @extschema@.svc_queue q
    WHERE q.status IN ('completed', 'failed', 'cancelled') AND coalesce(q.completed_at, q.failed_at, q.cancelled_at) < cutoff
    ORDER BY coalesce(q.completed_at, q.failed_at, q.cancelled_at)
    LIMIT max_rows
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM @extschema@.svc_queue q USING old WHERE q.request_id = old.request_id RETURNING 1
  )
  SELECT count(*) INTO removed FROM gone;
  -- Documents stored once for a batch (svc_documents) go with the last request that names them.
  DELETE FROM @extschema@.svc_documents d WHERE NOT EXISTS (SELECT FROM @extschema@.svc_queue q WHERE q.documents_id = d.id);
  DELETE FROM @extschema@.svc_partial_results p
  WHERE NOT EXISTS (SELECT FROM @extschema@.svc_queue q WHERE q.request_id = p.request_id AND q.status = 'processing' AND q.attempt = p.attempt);
  WITH RECURSIVE owners AS (
    (SELECT o.owner FROM @extschema@.svc_queue o WHERE o.status IN ('pending', 'processing') AND o.stored_bytes >= 0 ORDER BY o.owner LIMIT 1)
    UNION ALL
    SELECT (SELECT o.owner FROM @extschema@.svc_queue o WHERE o.status IN ('pending', 'processing') AND o.stored_bytes >= 0 AND o.owner > k.owner ORDER BY o.owner LIMIT 1)
    FROM owners k WHERE k.owner IS NOT NULL
  ), orphaned AS (
    UPDATE @extschema@.svc_queue q SET status = 'cancelled', cancelled_at = clock_timestamp(), lease_expires_at = NULL, waiter = NULL,
      error = 'cancelled: the role that submitted it was dropped'
    WHERE q.request_id = ANY (ARRAY(
      SELECT l.request_id FROM @extschema@.svc_queue l
      WHERE l.owner IN (SELECT k.owner FROM owners k WHERE k.owner IS NOT NULL AND NOT EXISTS (SELECT FROM pg_roles r WHERE r.oid = k.owner))
        AND l.status IN ('pending', 'processing') AND l.stored_bytes >= 0
      FOR UPDATE SKIP LOCKED))
    RETURNING q.request_id, q.worker_id
  )
  SELECT count(*) FILTER (WHERE pg_notify('svc_cancel', o.request_id::text) IS NOT NULL) INTO orphans FROM orphaned o WHERE o.worker_id IS NOT NULL;
  DELETE FROM @extschema@.svc_prompts p WHERE NOT EXISTS (SELECT FROM pg_roles r WHERE r.oid = p.owner);
  DELETE FROM @extschema@.svc_role_limits l WHERE NOT EXISTS (SELECT FROM pg_roles r WHERE r.oid = l.role_name);
  RETURN removed;
END
