-- The claim shared by svc_worker_claim and svc_worker_complete_and_claim (which run it under their
-- settings: generic plans, index scans only; see svc_worker_claim.sql): three statements, each
-- written so that one index alone serves it, whatever the table held when its plan was made.
--
-- 1. Synchronous requests whose caller stopped waiting (its transaction ended, freeing its waiter
--    lock) are cancelled rather than run for nobody: pending ones, and processing ones (claimed ahead
--    or running), announced on svc_cancel so that the worker holding each drops it or stops it at its
--    next token (svc_worker_released confirms it). Taking the lock here succeeds only when no
--    session holds it; this transaction then holds it until it commits, which harms nobody. The
--    lock is tried once per waiting session, not once per request (a set-based call has up to
--    1,000 requests waiting under one key): the keys are read from svc_queue_waiter_idx by a loose
--    index scan (the next key above the last, one index descent each). The statuses are compared with
--    variables (pending_, processing_) so that the update too is served by that index. The lock's first key is 'svcw'
--    (svc__sync_waiter_lock_key(), from SYNC_WAITER_LOCK in src/queue/locks.ts), the second the waiting session's, stored in `waiter`. Rows
--    locked by another transaction are skipped, as in every statement of the worker protocol: it
--    never waits on a lock a role's open transaction may hold (see svc__complete.sql).
-- 2. Expired leases go back to pending with a retry counted (or fail when retries are spent,
--    announced on svc_completed). The probe reads the earliest lease, the first entry of
--    svc_queue_lease_idx (an EXISTS over status and lease looks as cheap on an empty table, through
--    svc_queue_active_idx, and then filters every active row on each call; min() may be planned as
--    an aggregate over every lease), so the sweep runs only when a lease has expired.
-- 3. Up to max_jobs pending jobs of the claimer's models, highest priority first, then oldest: the
--    first entries of svc_queue_claim_idx (model, priority DESC, seq) for its model, one index scan
--    and no sort. A worker of several models scans each model's entries and merges them, sorting at
--    most max_jobs rows per model; the rows locked beyond max_jobs are released when the claim
--    commits. `now_` is a variable of each statement, so the lease index can seek on it
--    (clock_timestamp() in a WHERE clause cannot be an index condition).
--
-- relax_commit: when this is the transaction's first write and no job failed for good, the
-- transaction commits without waiting for its WAL to reach the disk (synchronous_commit off). Lost
-- in a crash, a claim leaves the job as it was (pending, or processing under a lease that expires);
-- a worker's completion of that attempt is then refused or stores the same bytes, and any durable
-- commit after it makes it durable too. Not when the transaction had written before, whose writes
-- the caller may want durable, nor when the sweep failed a job for good: that is announced.
#variable_conflict use_column
DECLARE
  first_write boolean := relax_commit AND pg_current_xact_id_if_assigned() IS NULL;
  now_ timestamptz := clock_timestamp();
  announced integer;
  released integer; -- processing requests cancelled (their workers are told on svc_cancel; a lost commit loses nothing)
  pending_ text := 'pending';
  processing_ text := 'processing';
  picked uuid[];
BEGIN
  IF models IS NULL OR cardinality(models) = 0 OR array_position(models, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'svc_worker_claim: models must be a non-empty array of model names' USING ERRCODE = 'invalid_parameter_value';
  END IF;

  WITH RECURSIVE waiting AS (
    (SELECT w.waiter FROM @extschema@.svc_queue w WHERE w.waiter IS NOT NULL ORDER BY w.waiter LIMIT 1)
    UNION ALL
    SELECT (SELECT w.waiter FROM @extschema@.svc_queue w WHERE w.waiter > k.waiter ORDER BY w.waiter LIMIT 1) FROM waiting k WHERE k.waiter IS NOT NULL
  )
  , gone AS (
    UPDATE @extschema@.svc_queue w SET status = 'cancelled', cancelled_at = now_, waiter = NULL, lease_expires_at = NULL,
      error = 'cancelled: its synchronous caller stopped waiting'
    WHERE w.request_id = ANY (ARRAY(
      SELECT l.request_id FROM @extschema@.svc_queue l
      WHERE l.waiter IN (SELECT k.waiter FROM waiting k WHERE k.waiter IS NOT NULL AND pg_try_advisory_xact_lock(@extschema@.svc__sync_waiter_lock_key(), k.waiter))
        AND (l.status = pending_ OR l.status = processing_)
      FOR UPDATE SKIP LOCKED))
    RETURNING w.request_id, w.worker_id
  )
  SELECT count(pg_notify('svc_cancel', g.request_id::text)) INTO released FROM gone g WHERE g.worker_id IS NOT NULL;

  IF (SELECT e.lease_expires_at FROM @extschema@.svc_queue e WHERE e.status = 'processing' ORDER BY e.lease_expires_at LIMIT 1) < now_ THEN
    WITH requeued AS (
      UPDATE @extschema@.svc_queue q SET
        status = CASE WHEN q.retry_count < max_retries THEN 'pending' ELSE 'failed' END,
        retry_count = CASE WHEN q.retry_count < max_retries THEN q.retry_count + 1 ELSE q.retry_count END,
        run_after = clock_timestamp() + @extschema@.svc__backoff(q.retry_count),
        failed_at = CASE WHEN q.retry_count < max_retries THEN NULL ELSE clock_timestamp() END,
        waiter = CASE WHEN q.retry_count < max_retries THEN q.waiter END,
        error = 'lease expired: worker ' || coalesce(q.worker_id, '?') || ' stopped renewing it',
        lease_expires_at = NULL, worker_id = NULL
      WHERE q.request_id = ANY (ARRAY(
        SELECT e.request_id FROM @extschema@.svc_queue e
        WHERE e.status = 'processing' AND e.lease_expires_at < now_
        ORDER BY e.lease_expires_at
        FOR UPDATE SKIP LOCKED))
      RETURNING q.request_id, q.function_name, q.status
    )
    SELECT count(pg_notify('svc_completed', @extschema@.svc__completed_payload(request_id, function_name, 'failed'))) INTO announced
    FROM requeued WHERE status = 'failed';
    now_ := clock_timestamp(); -- requeued jobs whose backoff is zero may be claimed right away
  END IF;

  IF first_write AND coalesce(announced, 0) = 0 THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;

  IF cardinality(models) = 1 THEN
    picked := ARRAY(
      SELECT p.request_id FROM @extschema@.svc_queue p
      WHERE p.model = models[1] AND p.status = 'pending' AND p.run_after <= now_
      ORDER BY p.priority DESC, p.seq
      LIMIT max_jobs
      FOR UPDATE SKIP LOCKED);
  ELSE
    picked := ARRAY(
      SELECT p.request_id FROM unnest(models) AS m(name), LATERAL (
        SELECT p.request_id, p.priority, p.seq FROM @extschema@.svc_queue p
        WHERE p.model = m.name AND p.status = 'pending' AND p.run_after <= now_
        ORDER BY p.priority DESC, p.seq
        LIMIT max_jobs
        FOR UPDATE SKIP LOCKED) p
      ORDER BY p.priority DESC, p.seq
      LIMIT max_jobs);
  END IF;

  RETURN QUERY
  WITH claimed AS (
    UPDATE @extschema@.svc_queue q SET
      status = 'processing', started_at = now_, attempt = q.attempt + 1,
      worker_id = claimer, lease_expires_at = now_ + make_interval(secs => lease_seconds)
    WHERE q.request_id = ANY (picked)
    RETURNING q.request_id, q.function_name, q.parameters, q.grammar, q.attempt, q.retry_count, q.priority, q.waiter IS NOT NULL AS waited, q.seq,
      q.documents_id
  )
  -- A request whose documents are stored once for its batch (svc_documents, svc_rerank_batch_async)
  -- gets them back: its parameters are then exactly svc_rerank_async's, and so are its answer and cache key.
  SELECT c.request_id, c.function_name,
    CASE WHEN c.documents_id IS NULL THEN c.parameters
      ELSE c.parameters || jsonb_build_object('documents', (SELECT d.documents FROM @extschema@.svc_documents d WHERE d.id = c.documents_id)) END,
    c.grammar, c.attempt, c.retry_count, c.priority, c.waited
  FROM claimed c ORDER BY c.priority DESC, c.seq;
END
