SELECT entries, hits, misses, CASE WHEN hits + misses > 0 THEN hits::float8 / (hits + misses) END, max_entries
FROM (
  SELECT (SELECT count(*) FROM svc_cache) AS entries,
    h.last_value - CASE WHEN h.is_called THEN 0 ELSE 1 END AS hits,
    m.last_value - CASE WHEN m.is_called THEN 0 ELSE 1 END AS misses,
    svc__setting_integer('svc.cache_size', 0) AS max_entries
  FROM svc_cache_hits h, svc_cache_misses m
) AS s
