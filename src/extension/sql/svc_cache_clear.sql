WITH removed AS (DELETE FROM @extschema@.svc_cache RETURNING 1)
SELECT count(*) FROM removed
WHERE setval('@extschema@.svc_cache_hits', 1, false) > 0 AND setval('@extschema@.svc_cache_misses', 1, false) > 0
