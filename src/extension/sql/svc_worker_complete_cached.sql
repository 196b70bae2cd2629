-- Results that finished together, and cache entries, in one statement and one transaction:
-- svc__complete's completion of each (request, attempt, result, stop reason), then one insert of
-- every entry (cache_identities[i], cache_models[i], cache_functions[i], cache_results[i],
-- cache_stop_reasons[i]: a request's own result, or each input's of a request of many, embed_many),
-- then one eviction beyond svc.cache_size. A caller has its answer and the cache holds it in the same
-- commit, so the next identical request finds it cached. Returns the ids whose completion was refused
-- (usually none); the cache entries are stored either way: they are what the requests' parameters produce.
#variable_conflict use_column
DECLARE
  n integer := cardinality(request_ids);
  m integer := cardinality(cache_identities);
  refused uuid[];
BEGIN
  IF request_ids IS NULL OR attempts IS NULL OR results IS NULL OR cardinality(attempts) <> n OR cardinality(results) <> n
    OR coalesce(cardinality(stop_reasons), n) <> n THEN
    RAISE EXCEPTION 'svc_worker_complete_cached: request_ids, attempts, results and stop_reasons (unless NULL) must be arrays of the same length'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF cache_identities IS NULL OR cache_models IS NULL OR cache_functions IS NULL OR cache_results IS NULL
    OR cardinality(cache_models) <> m OR cardinality(cache_functions) <> m OR cardinality(cache_results) <> m
    OR coalesce(cardinality(cache_stop_reasons), m) <> m THEN
    RAISE EXCEPTION 'svc_worker_complete_cached: cache_identities, cache_models, cache_functions, cache_results and cache_stop_reasons (unless NULL) must be arrays of the same length'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF array_position(request_ids, NULL) IS NOT NULL OR array_position(attempts, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'svc_worker_complete_cached: request_ids and attempts must not contain NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  refused := @extschema@.svc__complete(request_ids, attempts, results, stop_reasons);
  IF m > 0 THEN
    INSERT INTO @extschema@.svc_cache (cache_key, model, function_name, result, stop_reason)
    SELECT encode(sha256(convert_to(c.identity, 'UTF8')), 'hex'), c.model, c.function_name, c.result, cache_stop_reasons[c.i]
    FROM unnest(cache_identities, cache_models, cache_functions, cache_results) WITH ORDINALITY AS c(identity, model, function_name, result, i)
    WHERE c.identity IS NOT NULL AND c.model IS NOT NULL AND c.function_name IS NOT NULL AND c.result IS NOT NULL
      -- Not inserted when there already (see svc_worker_cache_put.sql: no wait on a role's open hit).
      AND NOT EXISTS (SELECT FROM @extschema@.svc_cache e WHERE e.cache_key = encode(sha256(convert_to(c.identity, 'UTF8')), 'hex') AND e.model = c.model)
    ON CONFLICT (cache_key, model) DO NOTHING;
    PERFORM @extschema@.svc__cache_trim();
  END IF;
  RETURN refused;
END
