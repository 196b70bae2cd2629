-- The state of a request, for the autonomous session of a caller waiting under REPEATABLE READ or
-- SERIALIZABLE (whose own snapshot would not show the answer): only to the backend that waits for it.
SELECT q.status, q.result, q.error FROM svc_queue q
WHERE q.request_id = $1 AND svc__sync_waiter_may_act_as($2, $3, q.owner)
