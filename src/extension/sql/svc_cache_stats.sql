-- bytes: what the live entries take (each row as stored, TOAST-compressed results included);
-- disk_bytes: the table, its TOAST and its index on disk, which eviction does not shrink (VACUUM
-- reuses the space freed; only VACUUM FULL gives it back to the operating system).
SELECT entries, hits, misses, CASE WHEN hits + misses > 0 THEN hits::float8 / (hits + misses) END, max_entries, bytes, disk_bytes
FROM (
  SELECT c.entries, c.bytes,
    h.last_value - CASE WHEN h.is_called THEN 0 ELSE 1 END AS hits,
    m.last_value - CASE WHEN m.is_called THEN 0 ELSE 1 END AS misses,
    @extschema@.svc__setting_integer('svc.cache_size', 0) AS max_entries,
    pg_total_relation_size('@extschema@.svc_cache'::regclass) AS disk_bytes
  FROM @extschema@.svc_cache_hits h, @extschema@.svc_cache_misses m,
    (SELECT count(*) AS entries, coalesce(sum(pg_column_size(e.*)), 0)::bigint AS bytes FROM @extschema@.svc_cache e) AS c
) AS s
