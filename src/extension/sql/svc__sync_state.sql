-- The states of a sync call's requests, for the autonomous session of a caller waiting under
-- REPEATABLE READ or SERIALIZABLE (whose own snapshot would not show the answers): only those of an
-- owner the waiting backend may act as.
SELECT q.request_id, q.status, q.result, q.error FROM svc_queue q
WHERE q.request_id = ANY ($1) AND q.owner = ANY (svc__sync_owners($1, $2, $3))
