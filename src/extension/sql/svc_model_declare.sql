-- Declares a model name, or changes which functions an existing one serves. Requests already queued
-- keep their model; new ones for a function the model no longer serves are refused at the call.
DECLARE
  known record;
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
  -- What the model's file can do, as its worker read it (svc_models.capabilities): an embedding model never serves generate.
  SELECT m.identity, m.capabilities INTO known FROM @extschema@.svc_models AS m WHERE m.name = $1;
  IF known.capabilities IS NOT NULL AND NOT serves <@ known.capabilities THEN
    RAISE EXCEPTION 'svc_model_declare: model % cannot serve %: the file its worker loaded (%) is an embedding model, which serves only %',
      quote_literal(name), array_to_string(ARRAY(SELECT f FROM unnest(serves) AS f WHERE NOT f = ANY (known.capabilities)), ', '),
      coalesce(known.identity, 'unknown'), array_to_string(known.capabilities, ', ')
      USING ERRCODE = 'invalid_parameter_value',
        HINT = 'Serve generation with a text-generation (decoder) model under another name: svc-worker --model NAME=PATH.';
  END IF;
  INSERT INTO @extschema@.svc_models AS m (name, serves) VALUES (name, ARRAY(SELECT f FROM unnest(ARRAY['generate', 'embed', 'rerank']) AS f WHERE f = ANY (serves)))
  ON CONFLICT ON CONSTRAINT svc_models_pkey DO UPDATE SET serves = excluded.serves;
END
