-- Removes (or, with dry_run, lists) the cache entries that meet every criterion given: created longer
-- ago than older_than; not used (looked up with a hit, else since stored) for unused_for; hit at most
-- max_hits times; not among the `keep` entries used most recently (order_by 'recency') or most often
-- ('frequency', ties by recency); with target_bytes, only as many of those, least valuable first, as
-- bring the bytes of the whole cache down to target_bytes (none when it is there already). The rows
-- come least valuable first, as the keep order ranks them. A NULL criterion is not applied; with none
-- the call is refused, since svc_cache_clear empties it.
-- Each row shows the start of the cached answer (result_preview, 80 characters): the cache keeps no
-- prompt, only its request's hash (cache_key), so the answer is what tells one entry from another.
DECLARE
  now_at timestamptz := clock_timestamp();
BEGIN
  IF dry_run IS NULL OR order_by IS NULL THEN
    RAISE EXCEPTION 'svc_cache_evict: % must not be NULL', CASE WHEN dry_run IS NULL THEN 'dry_run' ELSE 'order_by' END
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF older_than IS NULL AND unused_for IS NULL AND max_hits IS NULL AND keep IS NULL AND target_bytes IS NULL THEN
    RAISE EXCEPTION 'svc_cache_evict: give at least one of older_than, unused_for, max_hits, keep or target_bytes'
      USING ERRCODE = 'invalid_parameter_value', HINT = 'svc_cache_clear() empties the whole cache.';
  END IF;
  IF older_than < interval '0' OR unused_for < interval '0' THEN
    RAISE EXCEPTION 'svc_cache_evict: % must be an interval of zero or more (got %)',
      CASE WHEN older_than < interval '0' THEN 'older_than' ELSE 'unused_for' END,
      CASE WHEN older_than < interval '0' THEN older_than ELSE unused_for END
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF max_hits < 0 OR keep < 0 OR target_bytes < 0 THEN
    RAISE EXCEPTION 'svc_cache_evict: % must be zero or more (got %)',
      CASE WHEN max_hits < 0 THEN 'max_hits' WHEN keep < 0 THEN 'keep' ELSE 'target_bytes' END,
      CASE WHEN max_hits < 0 THEN max_hits WHEN keep < 0 THEN keep ELSE target_bytes END
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF order_by NOT IN ('recency', 'frequency') THEN
    RAISE EXCEPTION 'svc_cache_evict: order_by must be ''recency'' or ''frequency'' (got %)', quote_literal(order_by)
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- One statement: the entries are chosen in one snapshot and a real run lists only those it removed
  -- (an entry another session removed first is not listed).
  RETURN QUERY
  WITH ranked AS (
    SELECT c.cache_key, c.model, c.function_name, c.created_at, c.last_hit_at, c.hits, pg_column_size(c.*)::bigint AS bytes,
      left(c.result, 80) AS result_preview,
      row_number() OVER (ORDER BY CASE WHEN order_by = 'frequency' THEN c.hits END DESC NULLS LAST,
                                  c.last_hit_at DESC, c.hits DESC, c.cache_key, c.model) AS rank
    FROM @extschema@.svc_cache c
  ), eligible AS (
    SELECT r.*,
      -- The bytes the cache still holds before this entry goes, the less valuable eligible ones gone first.
      (SELECT sum(a.bytes) FROM ranked a)
        - coalesce(sum(r.bytes) OVER (ORDER BY r.rank DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS left_before
    FROM ranked r
    WHERE (older_than IS NULL OR r.created_at < now_at - older_than)
      AND (unused_for IS NULL OR r.last_hit_at < now_at - unused_for)
      AND (max_hits IS NULL OR r.hits <= max_hits)
      AND (keep IS NULL OR r.rank > keep)
  ), chosen AS (
    SELECT * FROM eligible e WHERE target_bytes IS NULL OR e.left_before > target_bytes
  ), gone AS (
    DELETE FROM @extschema@.svc_cache c USING chosen e
    WHERE NOT dry_run AND c.cache_key = e.cache_key AND c.model = e.model
    RETURNING c.cache_key, c.model
  )
  SELECT e.cache_key, e.model, e.function_name, e.created_at, e.last_hit_at, e.hits, e.bytes, e.result_preview
  FROM chosen e
  WHERE dry_run OR (e.cache_key, e.model) IN (SELECT g.cache_key, g.model FROM gone g)
  ORDER BY e.rank DESC;
END
