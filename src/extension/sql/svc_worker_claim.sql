-- The worker protocol is PL/pgSQL, whose plans are kept for the session: after five calls each
-- statement runs on a generic plan, built from the table's size at that moment. A worker polling an
-- idle queue (one just truncated, or vacuumed to zero pages) would fix plans that sequential-scan
-- svc_queue and sort it, cheapest on an empty table, and keep them when thousands of jobs arrive
-- (2-3 ms per claim with 5,000 rows, growing with the finished rows kept for svc_cleanup). Planning
-- every call costs 50-80 µs per statement instead. So these functions always run generic plans,
-- with sequential and bitmap scans disabled (the catalog's INDEX_PLANS), and each statement is
-- written so that one index alone serves it: ids through the primary key, the claim order only
-- from svc_queue_claim_idx, the earliest lease only from svc_queue_lease_idx. Their plan is then
-- the same whatever the table held when it was made. (Folding the lease probe into the claim
-- statement, through a loop over its rows, measured no faster.) The claim itself: svc__claim.
BEGIN
  RETURN QUERY SELECT * FROM @extschema@.svc__claim($1, $2, $3, $4, true, $5);
END
