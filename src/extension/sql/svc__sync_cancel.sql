-- A sync call's pending requests cancelled from its autonomous session when its wait ends in an error
-- or a timeout (the caller's own transaction may be about to roll back): only those submitted with
-- this call's token. Returns how many were cancelled.
WITH cancelled AS (
  UPDATE svc_queue q SET status = 'cancelled', cancelled_at = now(), waiter = NULL
  WHERE q.request_id = ANY ($1) AND q.status = 'pending' AND q.sync_token = sha256(convert_to($2, 'UTF8'))
  RETURNING 1
)
SELECT count(*)::integer FROM cancelled
