-- The owners of these requests that the waiting backend may act as (svc__sync_waiter_may_act_as,
-- checked once per owner, not per request: a set-based call's requests share theirs).
SELECT coalesce(array_agg(d.owner), '{}')
FROM (SELECT DISTINCT q.owner FROM svc_queue q WHERE q.request_id = ANY ($1)) d
WHERE svc__sync_waiter_may_act_as($2, $3, d.owner)
