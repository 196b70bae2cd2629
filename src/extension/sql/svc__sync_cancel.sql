-- A sync call's pending requests cancelled from its autonomous session when its wait ends in an error
-- or a timeout (the caller's own transaction may be about to roll back): only those of an owner the
-- waiting backend may act as. Returns how many were cancelled.
#variable_conflict use_column
DECLARE
  allowed name[];
  cancelled integer;
BEGIN
  SELECT array_agg(d.owner) INTO allowed
  FROM (SELECT DISTINCT q.owner FROM svc_queue q WHERE q.request_id = ANY (request_ids)) d
  WHERE svc__sync_waiter_may_act_as(backend_pid, svc__sync_cancel.waiter, d.owner);
  UPDATE svc_queue q SET status = 'cancelled', cancelled_at = now(), waiter = NULL
  WHERE q.request_id = ANY (request_ids) AND q.status = 'pending' AND q.owner = ANY (allowed);
  GET DIAGNOSTICS cancelled = ROW_COUNT;
  RETURN cancelled;
END
