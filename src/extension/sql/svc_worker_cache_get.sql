-- A hit bumps the entry's frecency; hits and misses are counted (svc_cache_stats).
WITH hit AS (
  UPDATE svc_cache SET hits = hits + 1, last_hit_at = clock_timestamp()
  WHERE cache_key = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND model = $2
  RETURNING result
)
SELECT result FROM (SELECT (SELECT result FROM hit) AS result) AS r
WHERE CASE WHEN result IS NULL THEN nextval('svc_cache_misses') ELSE nextval('svc_cache_hits') END > 0
