-- The cache by function and model, the largest first: how many entries, the bytes they take (each
-- row as stored, as svc_cache_stats().bytes and svc_cache_evict's bytes count them), their hits and
-- their latest use (a hit, else when stored). What svc_cache_evict(target_bytes := …) weighs.
SELECT c.function_name, c.model, count(*), sum(pg_column_size(c.*))::bigint, sum(c.hits)::bigint, max(c.last_hit_at)
FROM @extschema@.svc_cache c
GROUP BY c.function_name, c.model
ORDER BY 4 DESC, 1, 2
