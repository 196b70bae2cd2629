-- Store, then evict the lowest-frecency entries beyond svc.cache_size.
INSERT INTO svc_cache (cache_key, model, function_name, result)
VALUES (encode(sha256(convert_to($1, 'UTF8')), 'hex'), $2, $3, $4)
ON CONFLICT (cache_key, model) DO NOTHING;

SELECT svc__cache_trim();
