-- A sync call's request cancelled from its autonomous session when the wait ends in an error (the
-- caller's own transaction is about to roll back): only for the backend that waits for it.
WITH cancelled AS (
  UPDATE svc_queue q SET status = 'cancelled', cancelled_at = now(), waiter = NULL
  WHERE q.request_id = $1 AND q.status = 'pending' AND svc__sync_waiter_may_act_as($2, $3, q.owner)
  RETURNING q.request_id
)
SELECT EXISTS (SELECT FROM cancelled)
