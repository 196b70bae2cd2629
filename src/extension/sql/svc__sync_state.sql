-- The states of a sync call's requests, for the autonomous session of a caller waiting under
-- REPEATABLE READ or SERIALIZABLE (whose own snapshot would not show the answers): only those
-- submitted with this call's token (svc_queue.sync_token holds its digest), which only the waiting
-- backend and its autonomous session know.
SELECT q.request_id, q.status, q.result, q.error FROM @extschema@.svc_queue q
WHERE q.request_id = ANY ($1) AND q.sync_token = sha256(convert_to($2, 'UTF8'))
