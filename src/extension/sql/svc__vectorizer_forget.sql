-- The source rows with these keys are gone (deleted, or their key changed): nothing is kept for them,
-- their chunks are deleted, and a job still embedding them writes nothing (svc__vectorizer_apply finds
-- no row). NULL keys: all of them (TRUNCATE).
DECLARE
  v @extschema@.svc_vectorizers;
  dest text;
BEGIN
  SELECT * INTO v FROM @extschema@.svc_vectorizers WHERE id = vectorizer_id;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  DELETE FROM @extschema@.svc_vectorizer_rows r
  WHERE r.vectorizer = vectorizer_id AND (gone_keys IS NULL OR r.key IN (SELECT jsonb_array_elements(gone_keys)));
  -- A destination dropped by its schema's owner keeps nothing to delete (and fails no write to the source).
  dest := @extschema@.svc__vectorizer_destination(v.destination);
  IF dest IS NULL THEN
    RETURN;
  ELSIF gone_keys IS NULL THEN
    EXECUTE format('TRUNCATE %s', dest);
  ELSE
    PERFORM @extschema@.svc__vectorizer_delete_chunks(dest, v.key_columns, gone_keys);
  END IF;
END
