-- A hit bumps the entry's frecency; hits and misses are counted (svc_cache_stats). The bump skips an
-- entry whose row another transaction holds (SKIP LOCKED): the bump of a hit in a role's transaction
-- holds its row until that commits, and no other caller, sync session or worker waits for that; the
-- answer is read all the same.
WITH entry AS (
  SELECT c.result, c.stop_reason FROM @extschema@.svc_cache c WHERE c.cache_key = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND c.model = $2
), bump AS (
  UPDATE @extschema@.svc_cache SET hits = hits + 1, last_hit_at = clock_timestamp()
  WHERE (cache_key, model) IN (
    SELECT l.cache_key, l.model FROM @extschema@.svc_cache l WHERE l.cache_key = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND l.model = $2
    FOR UPDATE SKIP LOCKED)
  RETURNING 1
)
SELECT result, stop_reason FROM (
  SELECT (SELECT result FROM entry) AS result, (SELECT stop_reason FROM entry) AS stop_reason, (SELECT count(*) FROM bump) AS bumped) AS r
WHERE CASE WHEN result IS NULL THEN nextval('@extschema@.svc_cache_misses') ELSE nextval('@extschema@.svc_cache_hits') END > 0
