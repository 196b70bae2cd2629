-- The source rows with these keys are gone (deleted, or their key changed): nothing is kept for them,
-- their chunks are deleted, and a job still embedding them writes nothing (svc__vectorizer_apply finds
-- no row). NULL keys: all of them (TRUNCATE). The keys are compared typed, as the destination stores
-- them (its key columns are of base types or enums: built-in input and equality only).
DECLARE
  v svc_vectorizers;
  dest text;
BEGIN
  SELECT * INTO v FROM svc_vectorizers WHERE id = vectorizer_id;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  DELETE FROM svc_vectorizer_rows r
  WHERE r.vectorizer = vectorizer_id AND (gone_keys IS NULL OR r.key IN (SELECT jsonb_array_elements(gone_keys)));
  -- A destination dropped by its schema's owner keeps nothing to delete (and fails no write to the source).
  dest := svc__vectorizer_destination(v.destination);
  IF dest IS NULL THEN
    RETURN;
  ELSIF gone_keys IS NULL THEN
    EXECUTE format('TRUNCATE %s', dest);
  ELSE
    EXECUTE format('DELETE FROM %s d USING pg_catalog.jsonb_populate_recordset(NULL::%s, $1) k WHERE %s', dest, dest,
      (SELECT string_agg(format('d.%I OPERATOR(pg_catalog.=) k.%I', c, c), ' AND ') FROM unnest(v.key_columns) AS c))
    USING gone_keys;
  END IF;
END
