-- Called by the completion of a 'vectorize' job (svc__complete): writes the chunks of the items that
-- this request still stands for into the vectorizer's destination through its writer (the declaring
-- role's privileges), marks them done, and returns what the queue row keeps as its result: counts,
-- not vectors. The worker's result lists each item's chunks in the order of the job's items; the
-- keys are taken from the job's parameters, as svc wrote them (a key that went through JavaScript
-- could come back changed: a bigint beyond 2^53). Items that a later change gave a newer request, or
-- whose source row is gone, are skipped. Their rows are locked first, so a change committing meanwhile
-- waits for this write and then queues its own. A writer that fails (the destination dropped, a
-- privilege revoked, a constraint the role added) marks the items failed with its message instead of
-- failing the completion; so does an item the worker refused (its "error": a text of more chunks
-- than a row may have), alone.
-- The writer is the proxy's, which code of the declaring role runs as: it is called by its name in
-- svc's schema and only while, in the statement that calls it, it is still there, SECURITY DEFINER,
-- owned by the proxy, with the settings svc gave it (its body the proxy cannot change; its first
-- statement refuses to run as anyone but the proxy). svc evaluates nothing here but jsonb. What the
-- role's code SETs while it runs (search_path, ...) outlives the writer: the settings any role may
-- change are put back before svc's next statement (vectorizer-sql.ts, SETTINGS_SNAPSHOT/_RESTORE,
-- which this repeats inline: a function of svc's would set its own search_path over the one to put
-- back), every name in between qualified.
DECLARE
  v svc_vectorizers;
  mine jsonb;
  given integer := jsonb_array_length(job_parameters->'items');
  result_items jsonb;
  pairs jsonb;
  chunk_rows jsonb;
  written integer;
  refused integer;
  called integer;
  svc_schema name;
  settings jsonb;
BEGIN
  SELECT * INTO v FROM svc_vectorizers WHERE id = (job_parameters->>'vectorizer')::integer;
  IF NOT FOUND OR v.writer IS NULL THEN
    RETURN jsonb_build_object('rows', 0, 'chunks', 0, 'skipped', given, 'note', 'the vectorizer was dropped')::text;
  END IF;
  SELECT jsonb_agg(r.key) INTO mine
  FROM (SELECT key FROM svc_vectorizer_rows WHERE vectorizer = v.id AND request_id = request FOR UPDATE) AS r;
  IF mine IS NULL THEN
    RETURN jsonb_build_object('rows', 0, 'chunks', 0, 'skipped', given)::text;
  END IF;
  BEGIN
    -- Parsed once, inside the block: a result that is not JSON fails these rows, not the completion.
    result_items := job_result::jsonb->'items';
    IF jsonb_array_length(result_items) IS DISTINCT FROM given THEN
      RAISE EXCEPTION 'the worker returned % items for a job of %', jsonb_array_length(result_items), given;
    END IF;
    -- Each item still this request's, with its chunks: [{key, chunks}].
    SELECT jsonb_agg(jsonb_build_object('key', p.item->'key', 'chunks', coalesce(r.item->'chunks', '[]'), 'error', r.item->'error')) INTO pairs
    FROM jsonb_array_elements(job_parameters->'items') WITH ORDINALITY AS p(item, n)
    JOIN jsonb_array_elements(result_items) WITH ORDINALITY AS r(item, n) USING (n)
    WHERE p.item->'key' IN (SELECT jsonb_array_elements(mine));
    SELECT coalesce(jsonb_agg(x.item->'key' || jsonb_build_object('chunk_index', c.ord - 1, 'chunk', c.chunk->'text', 'embedding', c.chunk->'embedding')), '[]')
    INTO chunk_rows
    FROM jsonb_array_elements(pairs) AS x(item), jsonb_array_elements(x.item->'chunks') WITH ORDINALITY AS c(chunk, ord);
    SELECT n.nspname INTO svc_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'svc';
    SELECT pg_catalog.jsonb_object_agg(s.name, s.setting) INTO settings FROM pg_catalog.pg_settings s WHERE s.context OPERATOR(pg_catalog.=) 'user';
    EXECUTE format('SELECT %I.%I($1, $2) FROM pg_catalog.pg_proc p WHERE p.oid = $3 AND p.pronamespace = (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = $4) '
        'AND p.prosecdef AND p.proconfig = $5 AND p.proowner = (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = $6)',
        svc_schema, 'svc__vz_' || v.id || '_write')
      USING mine, chunk_rows, v.writer, svc_schema, ARRAY['search_path=pg_catalog, pg_temp', 'standard_conforming_strings=on'],
        'svc_vectorizer_' || (SELECT r.oid FROM pg_roles r WHERE r.rolname = v.owner);
    GET DIAGNOSTICS called = ROW_COUNT;
    PERFORM pg_catalog.set_config(c.name, c.value, false) FROM (
      SELECT b.key AS name, b.value FROM pg_catalog.jsonb_each_text(settings) b
        JOIN pg_catalog.pg_settings s ON s.name OPERATOR(pg_catalog.=) b.key WHERE s.setting OPERATOR(pg_catalog.<>) b.value
      UNION ALL
      SELECT s.name, s.reset_val FROM pg_catalog.pg_settings s
      WHERE s.context OPERATOR(pg_catalog.=) 'user' AND NOT (settings OPERATOR(pg_catalog.?) s.name) AND s.setting IS DISTINCT FROM s.reset_val
    ) c;
    IF called <> 1 THEN
      RAISE EXCEPTION 'the writer of vectorizer % is not as svc made it (moved, altered or gone): svc_vectorize_drop it and declare it again', v.name;
    END IF;
    UPDATE svc_vectorizer_rows r SET state = CASE WHEN x.item->'error' IS NULL OR x.item->'error' = 'null' THEN 'done' ELSE 'failed' END,
      chunks = jsonb_array_length(x.item->'chunks'), error = x.item->>'error', done_at = clock_timestamp()
    FROM jsonb_array_elements(pairs) AS x(item)
    WHERE r.vectorizer = v.id AND r.request_id = request AND r.key = x.item->'key';
    GET DIAGNOSTICS written = ROW_COUNT;
    SELECT count(*) INTO refused FROM jsonb_array_elements(pairs) AS x(item) WHERE jsonb_typeof(x.item->'error') = 'string';
  EXCEPTION WHEN OTHERS THEN
    UPDATE svc_vectorizer_rows SET state = 'failed', error = SQLERRM, done_at = clock_timestamp() WHERE vectorizer = v.id AND request_id = request;
    RETURN jsonb_build_object('rows', 0, 'chunks', 0, 'failed', jsonb_array_length(mine), 'error', SQLERRM)::text;
  END;
  -- 'refused': the rows the worker refused (counted in rows, marked failed); absent when none.
  RETURN (jsonb_build_object('rows', written, 'chunks', jsonb_array_length(chunk_rows), 'skipped', given - written)
    || CASE WHEN refused > 0 THEN jsonb_build_object('refused', refused) ELSE '{}' END)::text;
END
