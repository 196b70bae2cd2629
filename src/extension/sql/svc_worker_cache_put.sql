-- Store, then evict the lowest-frecency entries beyond svc.cache_size.
INSERT INTO svc_cache (cache_key, model, function_name, result)
VALUES (encode(sha256(convert_to($1, 'UTF8')), 'hex'), $2, $3, $4)
ON CONFLICT (cache_key, model) DO NOTHING;

DELETE FROM svc_cache WHERE (cache_key, model) IN (
  SELECT cache_key, model FROM svc_cache
  ORDER BY (hits + 1) / (extract(epoch FROM clock_timestamp() - last_hit_at) + 3600)
  LIMIT greatest(0, (SELECT count(*) FROM svc_cache) - svc__setting_integer('svc.cache_size', 0)))
