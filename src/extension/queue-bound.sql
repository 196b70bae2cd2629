-- Part of the generated extension script (scripts/build-extension.ts), after schema.sql; also in the
-- 0.1.0 → 0.2.0 upgrade.

-- At least the number of requests pending or processing, over all roles (for svc.max_queue_size), read
-- from two index ends: submissions are numbered (seq), so none active is older than the oldest active
-- one nor newer than the last number. A view owned by the extension's owner, so row-level security
-- does not hide other roles' requests from it, and planned into the submitter's own statement (as a
-- SECURITY DEFINER function it was a call of its own, a fifth of a submission). It shows only that bound.
CREATE VIEW svc__queue_depth_bound AS
  SELECT coalesce((SELECT last_value FROM svc_queue_seq_seq) - min(seq) + 1, 0) AS depth
  FROM svc_queue WHERE status IN ('pending', 'processing');
GRANT SELECT ON svc__queue_depth_bound TO PUBLIC;
