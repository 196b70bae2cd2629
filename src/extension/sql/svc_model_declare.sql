-- Declares a model name, or changes which functions an existing one serves. Requests already queued
-- keep their model; new ones for a function the model no longer serves are refused at the call.
BEGIN
  IF name IS NULL OR serves IS NULL THEN
    RAISE EXCEPTION 'svc_model_declare: % must not be NULL', CASE WHEN name IS NULL THEN 'name' ELSE 'serves' END
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF name !~ '^[A-Za-z0-9][A-Za-z0-9._:-]{0,62}$' THEN
    RAISE EXCEPTION 'svc_model_declare: name must be 1 to 63 letters, digits, ".", "_", ":" or "-", starting with a letter or digit (got %)', quote_literal(name)
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF cardinality(serves) = 0 OR array_position(serves, NULL) IS NOT NULL OR NOT serves <@ ARRAY['generate', 'embed', 'rerank'] THEN
    RAISE EXCEPTION 'svc_model_declare: serves must be a non-empty array of generate, embed and rerank (got %)', serves
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  INSERT INTO svc_models AS m (name, serves) VALUES (name, ARRAY(SELECT f FROM unnest(ARRAY['generate', 'embed', 'rerank']) AS f WHERE f = ANY (serves)))
  ON CONFLICT ON CONSTRAINT svc_models_pkey DO UPDATE SET serves = excluded.serves;
END
