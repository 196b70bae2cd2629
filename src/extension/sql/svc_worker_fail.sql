-- The status is compared with a variable, not a literal, and no row lock is waited for (see
-- svc__complete.sql): a row locked by its owner's cancel gives NULL, as a refused failure.
#variable_conflict use_column
DECLARE
  processing_ text := 'processing';
  new_status text;
  payload text;
BEGIN
  UPDATE @extschema@.svc_queue SET
    status = CASE WHEN retry_count < $4 THEN 'pending' ELSE 'failed' END,
    retry_count = CASE WHEN retry_count < $4 THEN retry_count + 1 ELSE retry_count END,
    run_after = clock_timestamp() + @extschema@.svc__backoff(retry_count),
    failed_at = CASE WHEN retry_count < $4 THEN NULL ELSE clock_timestamp() END,
    error = $3, lease_expires_at = NULL, worker_id = NULL,
    -- A request that failed for good waits for nobody (as completion clears it).
    waiter = CASE WHEN retry_count < $4 THEN waiter END
  WHERE request_id = (SELECT l.request_id FROM @extschema@.svc_queue l WHERE l.request_id = $1 AND l.status = processing_ AND l.attempt = $2 FOR UPDATE SKIP LOCKED)
  RETURNING status, @extschema@.svc__completed_payload(request_id, function_name, status) INTO new_status, payload;
  IF new_status = 'failed' THEN
    PERFORM pg_notify('svc_completed', payload);
    -- The source rows a failed vectorizer job was embedding (none for other jobs: an index probe), but
    -- those a role's write to the source holds (it queues them again, or forgets them, as it commits).
    UPDATE @extschema@.svc_vectorizer_rows r SET state = 'failed', error = $3, done_at = clock_timestamp()
    WHERE (r.vectorizer, r.key) IN (SELECT l.vectorizer, l.key FROM @extschema@.svc_vectorizer_rows l WHERE l.request_id = $1 FOR UPDATE SKIP LOCKED);
  END IF;
  RETURN new_status;
END
