-- 1 − cosine similarity, as pgvector's <=> computes it (in double precision); NULL when either
-- vector is all zeros, as NaN would sort anywhere. An exact scan over real[] embeddings (svc_search
-- without pgvector) calls it once per chunk.
BEGIN
  IF a IS NULL OR b IS NULL THEN
    RAISE EXCEPTION 'svc_cosine_distance: % must not be NULL', CASE WHEN a IS NULL THEN 'a' ELSE 'b' END USING ERRCODE = '22004';
  END IF;
  IF cardinality(a) <> cardinality(b) THEN
    RAISE EXCEPTION 'svc_cosine_distance: a and b must have the same length (got % and %)', cardinality(a), cardinality(b) USING ERRCODE = '22023';
  END IF;
  RETURN (
    SELECT CASE WHEN sum(x::float8 * x) > 0 AND sum(y::float8 * y) > 0 THEN 1 - sum(x::float8 * y) / sqrt(sum(x::float8 * x) * sum(y::float8 * y)) END
    FROM unnest(a, b) AS t(x, y)
  );
END
