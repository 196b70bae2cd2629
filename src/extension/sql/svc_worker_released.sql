-- Of the jobs a worker holds (claimed ahead or running), those it must let go: no longer processing
-- under this worker (their owner cancelled them with svc_cancel_async, or their lease was lost), and
-- synchronous requests whose caller stopped waiting (its waiter lock is free), cancelled here. The
-- worker asks on each svc_cancel notification that names a job it holds (any role may NOTIFY, so the
-- notification alone proves nothing) and every second for what it holds; it drops what comes back
-- from its backlog and stops what runs at its next token, writing nothing (worker/releases.ts).
-- Lookups by id only; the status is compared with a variable, and no row lock is waited for (see
-- svc__complete.sql: a row locked by its owner's cancel is let go once that commits, announced).
#variable_conflict use_column
DECLARE
  processing_ text := 'processing';
BEGIN
  IF $1 IS NULL OR $2 IS NULL THEN
    RAISE EXCEPTION 'svc_worker_released: worker_id and request_ids must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  UPDATE @extschema@.svc_queue q SET status = 'cancelled', cancelled_at = clock_timestamp(), waiter = NULL, lease_expires_at = NULL,
    error = 'cancelled: its synchronous caller stopped waiting'
  WHERE q.request_id = ANY (ARRAY(
    SELECT l.request_id FROM @extschema@.svc_queue l
    WHERE l.request_id = ANY ($2)
      -- The lock is tried only for these rows (a CASE orders it after them; a NULL waiter gives NULL),
      -- and no clause names the waiter alone, so svc_queue_waiter_idx never serves this lookup by id.
      AND CASE WHEN l.status = processing_ AND l.worker_id = $1 THEN pg_try_advisory_xact_lock(@extschema@.svc__sync_waiter_lock_key(), l.waiter) ELSE false END
    FOR UPDATE SKIP LOCKED));
  RETURN ARRAY(
    SELECT given.id FROM unnest($2) AS given(id)
    WHERE NOT EXISTS (SELECT FROM @extschema@.svc_queue q WHERE q.request_id = given.id AND q.status = processing_ AND q.worker_id = $1));
END
