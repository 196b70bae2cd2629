-- Called by the completion of a 'vectorize' job (svc__complete): writes the chunks of the items that
-- this request still stands for into the vectorizer's destination through its writer (the declaring
-- role's privileges), marks them done, and returns what the queue row keeps as its result: counts,
-- not vectors. Items that a later change gave a newer request, or whose source row is gone, are
-- skipped. Their rows are locked first, so a change committing meanwhile waits for this write and
-- then queues its own. A writer that fails (the destination dropped, a privilege revoked) marks the
-- items failed with its message instead of failing the completion.
DECLARE
  v svc_vectorizers;
  mine jsonb;
  given jsonb := job_result::jsonb->'items';
  chunk_rows jsonb;
  writer text;
  written integer;
BEGIN
  SELECT * INTO v FROM svc_vectorizers WHERE id = (job_parameters->>'vectorizer')::integer;
  IF NOT FOUND OR v.writer IS NULL THEN
    RETURN jsonb_build_object('rows', 0, 'chunks', 0, 'skipped', jsonb_array_length(given), 'note', 'the vectorizer was dropped')::text;
  END IF;
  SELECT jsonb_agg(r.key) INTO mine
  FROM (SELECT key FROM svc_vectorizer_rows WHERE vectorizer = v.id AND request_id = request FOR UPDATE) AS r;
  IF mine IS NULL THEN
    RETURN jsonb_build_object('rows', 0, 'chunks', 0, 'skipped', jsonb_array_length(given))::text;
  END IF;
  SELECT coalesce(jsonb_agg(i.item->'key' || jsonb_build_object('chunk_index', c.ord - 1, 'chunk', c.chunk->'text', 'embedding', c.chunk->'embedding')), '[]')
  INTO chunk_rows
  FROM jsonb_array_elements(given) AS i(item), jsonb_array_elements(i.item->'chunks') WITH ORDINALITY AS c(chunk, ord)
  WHERE i.item->'key' IN (SELECT jsonb_array_elements(mine));
  SELECT format('%I.%I', n.nspname, p.proname) INTO writer FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE p.oid = v.writer;
  BEGIN
    EXECUTE format('SELECT %s($1, $2)', writer) USING mine, chunk_rows;
    UPDATE svc_vectorizer_rows r SET state = 'done', chunks = coalesce(jsonb_array_length(i.item->'chunks'), 0), error = NULL, done_at = clock_timestamp()
    FROM jsonb_array_elements(given) AS i(item)
    WHERE r.vectorizer = v.id AND r.request_id = request AND r.key = i.item->'key';
    GET DIAGNOSTICS written = ROW_COUNT;
  EXCEPTION WHEN OTHERS THEN
    UPDATE svc_vectorizer_rows SET state = 'failed', error = SQLERRM, done_at = clock_timestamp() WHERE vectorizer = v.id AND request_id = request;
    RETURN jsonb_build_object('rows', 0, 'chunks', 0, 'failed', jsonb_array_length(mine), 'error', SQLERRM)::text;
  END;
  RETURN jsonb_build_object('rows', written, 'chunks', jsonb_array_length(chunk_rows), 'skipped', jsonb_array_length(given) - written)::text;
END
