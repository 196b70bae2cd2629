-- A sync call's requests cancelled from its autonomous session when its wait ends in an error or a
-- timeout (the caller's own transaction may be about to roll back, or sit aborted, its waiter lock
-- still held): only those submitted with this call's token, pending or processing. A processing one
-- is announced on svc_cancel, so that the worker running it (or holding it claimed ahead) lets it go
-- (svc_worker_released). Returns how many were cancelled.
WITH cancelled AS (
  UPDATE @extschema@.svc_queue q SET status = 'cancelled', cancelled_at = now(), waiter = NULL, lease_expires_at = NULL
  WHERE q.request_id = ANY (ARRAY(
    SELECT l.request_id FROM @extschema@.svc_queue l
    WHERE l.request_id = ANY ($1) AND l.status IN ('pending', 'processing') AND l.sync_token = sha256(convert_to($2, 'UTF8'))
    -- A row its owner's svc_cancel_async holds is being cancelled already; waiting for that would
    -- hold the autonomous session on what the role controls.
    FOR UPDATE SKIP LOCKED))
  RETURNING q.request_id, q.worker_id
)
SELECT count(*)::integer FROM cancelled c WHERE c.worker_id IS NULL OR pg_notify('svc_cancel', c.request_id::text) IS NOT NULL
