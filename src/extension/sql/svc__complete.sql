-- The completion shared by svc_worker_complete and svc_worker_complete_and_claim: store the results
-- of the listed attempts (and how each generation ended: stop_reasons, NULL for none) and announce
-- each on svc_completed; returns the ids whose completion was
-- refused. An attempt that is no longer processing under that number (its lease expired and the job
-- was taken again, or it was already completed) matches nothing and is refused. The arrays are
-- matched by position; `= ANY (ids)` keeps the lookup on the primary key whatever plan is chosen.
-- The status is compared with a variable (processing_), not a literal: with status = 'processing'
-- the lease index's predicate is implied, so a generic plan (made once) might take that index, tied
-- with the primary key on an empty table, and filter every processing row on request_id, call
-- after call. Usually every completion is stored, and only otherwise is the list of refused ids
-- built (a quarter of a busy worker's call, measured).
--
-- It never waits for a row lock (SKIP LOCKED): what holds a processing row's lock is a transaction
-- that cancels or requeues it (an owner's svc_cancel_async, which its owner may leave uncommitted
-- as long as it likes; a claim that finds its caller gone; another worker's expired-lease sweep). Its
-- completion is refused, as it would be once that commits; should it roll back instead, the lease
-- expires and the request runs again. Waiting would let one role's open transaction hold up the
-- completions of everyone's requests that finished with it.
#variable_conflict use_column
DECLARE
  processing_ text := 'processing';
  stored uuid[];
  announced integer;
BEGIN
  WITH done AS (
    UPDATE @extschema@.svc_queue q SET
      status = 'completed', error = NULL,
      -- A vectorizer's chunks go to its destination now; the row keeps what was written, not the vectors.
      result = CASE WHEN q.function_name = 'vectorize'
        THEN @extschema@.svc__vectorizer_apply(q.request_id, q.parameters, results[array_position(ids, q.request_id)])
        ELSE results[array_position(ids, q.request_id)] END,
      stop_reason = stop_reasons[array_position(ids, q.request_id)],
      completed_at = clock_timestamp(), lease_expires_at = NULL, waiter = NULL
    WHERE q.request_id = ANY (ARRAY(
        SELECT l.request_id FROM @extschema@.svc_queue l WHERE l.request_id = ANY (ids) AND l.status = processing_
          AND l.attempt = attempts[array_position(ids, l.request_id)]
        FOR UPDATE SKIP LOCKED))
    RETURNING q.request_id, q.function_name
  )
  SELECT array_agg(request_id), count(pg_notify('svc_completed', @extschema@.svc__completed_payload(request_id, function_name, 'completed')))
  INTO stored, announced FROM done;
  IF announced = cardinality(ids) THEN
    RETURN '{}';
  END IF;
  RETURN ARRAY(SELECT given.id FROM unnest(ids) AS given(id) WHERE NOT given.id = ANY (coalesce(stored, '{}')));
END
