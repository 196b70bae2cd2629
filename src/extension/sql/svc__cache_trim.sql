-- Evicts the lowest-frecency entries beyond svc.cache_size (after svc_worker_cache_put and
-- svc_worker_complete_cached store theirs), but those whose row another transaction holds (a hit in
-- a role's open transaction): the worker never waits on that; the next trim takes them.
DELETE FROM @extschema@.svc_cache WHERE (cache_key, model) IN (
  SELECT cache_key, model FROM @extschema@.svc_cache
  ORDER BY (hits + 1) / (extract(epoch FROM clock_timestamp() - last_hit_at) + 3600)
  LIMIT greatest(0, (SELECT count(*) FROM @extschema@.svc_cache) - @extschema@.svc__setting_integer('svc.cache_size', 0))
  FOR UPDATE SKIP LOCKED)
