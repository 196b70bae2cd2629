-- Store, then evict the lowest-frecency entries beyond svc.cache_size. An entry there already is not
-- inserted at all: ON CONFLICT alone would wait for a transaction whose hit bumped it (a role's,
-- left open); only workers insert entries, so no role's transaction holds one that is missing.
INSERT INTO @extschema@.svc_cache (cache_key, model, function_name, result, stop_reason)
SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex'), $2, $3, $4, $5
WHERE NOT EXISTS (SELECT FROM @extschema@.svc_cache c WHERE c.cache_key = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND c.model = $2)
ON CONFLICT (cache_key, model) DO NOTHING;

SELECT @extschema@.svc__cache_trim();
