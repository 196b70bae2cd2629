-- Queues the items of one statement on a vectorizer's source (its trigger) or of a part of its
-- backfill: each item {key, text, fields} whose input changed since it was last queued, or whose last
-- embedding failed, in jobs of the vectorizer's batch_size items, owned by the vectorizer's owner.
-- A row's newest request replaces the one it had (whose completion then writes nothing for it).
-- Returns how many items were queued. The jobs count against the vectorizer's owner's quotas as
-- every request does (stored_bytes: their parameters): past them the statement fails (53400, naming
-- the vectorizer), so that no role alone fills the queue. The queue's ceiling does not apply: a
-- write to the source must not fail because other roles made the queue long.
-- The items come from the proxy's functions (through the vectorizer's gate), where code of the
-- declaring role runs: their shape is checked, and only as jsonb.
DECLARE
  v @extschema@.svc_vectorizers;
  queued integer;
  jobs integer;
BEGIN
  SELECT * INTO v FROM @extschema@.svc_vectorizers WHERE id = vectorizer_id;
  -- A vectorizer whose role was dropped belongs to nobody: it queues nothing (svc_worker_cleanup).
  IF NOT FOUND OR new_items IS NULL OR NOT EXISTS (SELECT FROM pg_roles r WHERE r.oid = v.owner) THEN
    RETURN 0;
  END IF;
  IF jsonb_typeof(new_items) <> 'array' OR EXISTS (
    SELECT 1 FROM jsonb_array_elements(new_items) AS t(item)
    WHERE jsonb_typeof(t.item) <> 'object' OR jsonb_typeof(t.item->'key') IS DISTINCT FROM 'object' OR jsonb_typeof(t.item->'fields') IS DISTINCT FROM 'object'
      OR coalesce(jsonb_typeof(t.item->'text'), 'missing') NOT IN ('string', 'null')
  ) THEN
    RAISE EXCEPTION 'vectorizer %: items must be an array of {key: object, text: string or null, fields: object}', v.name USING ERRCODE = 'invalid_parameter_value';
  END IF;
  WITH given AS (
    SELECT t.item, t.item->'key' AS key, md5(t.item::text) AS hash, t.ord FROM jsonb_array_elements(new_items) WITH ORDINALITY AS t(item, ord)
  ), todo AS (
    SELECT g.*, (row_number() OVER (ORDER BY g.ord) - 1) / v.batch_size AS part
    FROM given g LEFT JOIN @extschema@.svc_vectorizer_rows r ON r.vectorizer = v.id AND r.key = g.key
    WHERE r.key IS NULL OR r.input_hash <> g.hash OR r.state = 'failed'
  ), parts AS (
    SELECT part, gen_random_uuid() AS request_id, jsonb_agg(item ORDER BY ord) AS items FROM todo GROUP BY part
  ), made AS (
    SELECT p.part, p.request_id, jsonb_build_object('vectorizer', v.id, 'chunking', v.chunking, 'format', v.format, 'items', p.items)
        || CASE WHEN v.model = 'default' THEN '{}' ELSE jsonb_build_object('model', v.model) END AS parameters
    FROM parts p
  ), jobs AS (
    INSERT INTO @extschema@.svc_queue (request_id, function_name, parameters, owner, stored_bytes)
    SELECT m.request_id, 'vectorize', m.parameters, v.owner, pg_column_size(m.parameters) FROM made m ORDER BY m.part
    RETURNING 1
  ), recorded AS (
    INSERT INTO @extschema@.svc_vectorizer_rows AS r (vectorizer, key, input_hash, request_id, state, queued_at)
    SELECT v.id, t.key, t.hash, p.request_id, 'pending', clock_timestamp() FROM todo t JOIN parts p USING (part)
    ON CONFLICT (vectorizer, key) DO UPDATE SET input_hash = excluded.input_hash, request_id = excluded.request_id,
      state = 'pending', error = NULL, queued_at = excluded.queued_at
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM recorded), (SELECT count(*) FROM jobs) INTO queued, jobs;
  IF queued > 0 THEN
    PERFORM @extschema@.svc__role_quota_check(format('vectorizer %s', v.name), v.owner, jobs);
    PERFORM pg_notify('svc_jobs', 'vectorize');
  END IF;
  RETURN queued;
END
