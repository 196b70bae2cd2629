WITH removed AS (DELETE FROM svc_cache RETURNING 1)
SELECT count(*) FROM removed
WHERE setval('svc_cache_hits', 1, false) > 0 AND setval('svc_cache_misses', 1, false) > 0
