-- Called by the completion of a 'vectorize' job (svc__complete): writes the chunks of the items that
-- this request still stands for into the vectorizer's destination, marks them done, and returns what
-- the queue row keeps as its result: counts, not vectors. The worker's result lists each item's chunks
-- in the order of the job's items; the keys are taken from the job's parameters, as svc wrote them (a
-- key that went through JavaScript could come back changed: a bigint beyond 2^53). Items that a later
-- change gave a newer request, or whose source row is gone, are skipped.
--
-- Nothing of any role's runs here: the destination is svc_owner's, of base types and enums only, named
-- from its oid (svc__vectorizer_destination). What a role can do is hold locks: the vectorizer's row
-- (svc_vectorize_drop, taken first here too, so the two never deadlock), its rows of
-- svc_vectorizer_rows (a write to the source, until it commits), the destination (its schema's owner
-- dropping it). The worker runs this under a lock and a statement timeout (worker/vectorize.ts): a
-- source row locked past it fails the completion, and the job is retried; a destination locked past
-- it, or gone, or any other failure of the write, marks this job's rows failed with the message.
DECLARE
  v @extschema@.svc_vectorizers;
  mine jsonb;
  given integer := jsonb_array_length(job_parameters->'items');
  result_items jsonb;
  pairs jsonb;
  chunk_rows jsonb;
  written integer;
  refused integer;
  dest text;
  svc_schema text := (SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'svc');
BEGIN
  SELECT * INTO v FROM @extschema@.svc_vectorizers WHERE id = (job_parameters->>'vectorizer')::integer FOR SHARE;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('rows', 0, 'chunks', 0, 'skipped', given, 'note', 'the vectorizer was dropped')::text;
  END IF;
  SELECT jsonb_agg(r.key) INTO mine
  FROM (SELECT key FROM @extschema@.svc_vectorizer_rows WHERE vectorizer = v.id AND request_id = request FOR UPDATE) AS r;
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
    dest := @extschema@.svc__vectorizer_destination(v.destination);
    IF dest IS NULL THEN
      RAISE EXCEPTION 'the destination of vectorizer % no longer exists: svc_vectorize_drop it and declare it again', v.name;
    END IF;
    -- The rows' old chunks go, then the new ones: each chunk's columns from its object but the
    -- embedding, which comes as the worker's float32 bytes in base64 (worker/vectorize.ts) and goes in
    -- through svc__reals (a vector column takes the real[] by pgvector's assignment cast).
    PERFORM @extschema@.svc__vectorizer_delete_chunks(dest, v.key_columns, mine);
    EXECUTE format('INSERT INTO %1$s (%2$s, chunk_index, chunk, embedding) SELECT %3$s, p.chunk_index, p.chunk, %4$s.svc__reals(pg_catalog.decode(r.value OPERATOR(pg_catalog.->>) ''embedding'', ''base64''))'
      ' FROM pg_catalog.jsonb_array_elements($1) AS r, pg_catalog.jsonb_populate_record(NULL::%1$s, r.value OPERATOR(pg_catalog.-) ''embedding''::text) AS p',
      dest,
      (SELECT string_agg(format('%I', c), ', ') FROM unnest(v.key_columns) AS c),
      (SELECT string_agg(format('p.%I', c), ', ') FROM unnest(v.key_columns) AS c),
      svc_schema) USING chunk_rows;
    UPDATE @extschema@.svc_vectorizer_rows r SET state = CASE WHEN x.item->'error' IS NULL OR x.item->'error' = 'null' THEN 'done' ELSE 'failed' END,
      chunks = jsonb_array_length(x.item->'chunks'), error = x.item->>'error', done_at = clock_timestamp()
    FROM jsonb_array_elements(pairs) AS x(item)
    WHERE r.vectorizer = v.id AND r.request_id = request AND r.key = x.item->'key';
    GET DIAGNOSTICS written = ROW_COUNT;
    SELECT count(*) INTO refused FROM jsonb_array_elements(pairs) AS x(item) WHERE jsonb_typeof(x.item->'error') = 'string';
  EXCEPTION WHEN OTHERS THEN
    UPDATE @extschema@.svc_vectorizer_rows SET state = 'failed', error = SQLERRM, done_at = clock_timestamp() WHERE vectorizer = v.id AND request_id = request;
    RETURN jsonb_build_object('rows', 0, 'chunks', 0, 'failed', jsonb_array_length(mine), 'error', SQLERRM)::text;
  END;
  -- 'refused': the rows the worker refused (counted in rows, marked failed); absent when none.
  RETURN (jsonb_build_object('rows', written, 'chunks', jsonb_array_length(chunk_rows), 'skipped', given - written)
    || CASE WHEN refused > 0 THEN jsonb_build_object('refused', refused) ELSE '{}' END)::text;
END
