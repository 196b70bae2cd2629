-- Called by the completion of a 'vectorize' job (svc__complete): writes the chunks of the items that
-- this request still stands for into the vectorizer's destination through its writer (the declaring
-- role's privileges), marks them done, and returns what the queue row keeps as its result: counts,
-- not vectors. The worker's result lists each item's chunks in the order of the job's items; the
-- keys are taken from the job's parameters, as svc wrote them (a key that went through JavaScript
-- could come back changed: a bigint beyond 2^53). Items that a later change gave a newer request, or
-- whose source row is gone, are skipped. Their rows are locked first, so a change committing meanwhile
-- waits for this write and then queues its own. A writer that fails (the destination dropped, a
-- privilege revoked, a constraint the role added) marks the items failed with its message instead of
-- failing the completion.
DECLARE
  v svc_vectorizers;
  mine jsonb;
  given integer := jsonb_array_length(job_parameters->'items');
  result_items jsonb;
  pairs jsonb;
  chunk_rows jsonb;
  written integer;
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
    SELECT jsonb_agg(jsonb_build_object('key', p.item->'key', 'chunks', r.item->'chunks')) INTO pairs
    FROM jsonb_array_elements(job_parameters->'items') WITH ORDINALITY AS p(item, n)
    JOIN jsonb_array_elements(result_items) WITH ORDINALITY AS r(item, n) USING (n)
    WHERE p.item->'key' IN (SELECT jsonb_array_elements(mine));
    SELECT coalesce(jsonb_agg(x.item->'key' || jsonb_build_object('chunk_index', c.ord - 1, 'chunk', c.chunk->'text', 'embedding', c.chunk->'embedding')), '[]')
    INTO chunk_rows
    FROM jsonb_array_elements(pairs) AS x(item), jsonb_array_elements(x.item->'chunks') WITH ORDINALITY AS c(chunk, ord);
    -- regproc prints the writer's name as svc's pinned search_path resolves it.
    EXECUTE format('SELECT %s($1, $2)', v.writer::regproc) USING mine, chunk_rows;
    UPDATE svc_vectorizer_rows r SET state = 'done', chunks = jsonb_array_length(x.item->'chunks'), error = NULL, done_at = clock_timestamp()
    FROM jsonb_array_elements(pairs) AS x(item)
    WHERE r.vectorizer = v.id AND r.request_id = request AND r.key = x.item->'key';
    GET DIAGNOSTICS written = ROW_COUNT;
  EXCEPTION WHEN OTHERS THEN
    UPDATE svc_vectorizer_rows SET state = 'failed', error = SQLERRM, done_at = clock_timestamp() WHERE vectorizer = v.id AND request_id = request;
    RETURN jsonb_build_object('rows', 0, 'chunks', 0, 'failed', jsonb_array_length(mine), 'error', SQLERRM)::text;
  END;
  RETURN jsonb_build_object('rows', written, 'chunks', jsonb_array_length(chunk_rows), 'skipped', given - written)::text;
END
