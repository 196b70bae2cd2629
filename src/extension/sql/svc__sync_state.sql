-- The states of a sync call's requests, for the autonomous session of a caller waiting under
-- REPEATABLE READ or SERIALIZABLE (whose own snapshot would not show the answers): only those of an
-- owner the waiting backend may act as (checked once per owner, not per row).
#variable_conflict use_column
DECLARE
  allowed name[];
BEGIN
  SELECT array_agg(d.owner) INTO allowed
  FROM (SELECT DISTINCT q.owner FROM svc_queue q WHERE q.request_id = ANY (request_ids)) d
  WHERE svc__sync_waiter_may_act_as(backend_pid, svc__sync_state.waiter, d.owner);
  RETURN QUERY
    SELECT q.request_id, q.status, q.result, q.error FROM svc_queue q
    WHERE q.request_id = ANY (request_ids) AND q.owner = ANY (allowed);
END
