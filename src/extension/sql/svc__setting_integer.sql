-- An integer setting (svc.cache_size) of at least `minimum`, or its default: a malformed value is an
-- error naming the setting, as settings.ts's integerSetting words it for the plv8 functions.
DECLARE
  raw text := @extschema@.svc__setting(name);
BEGIN
  IF raw IS NULL OR btrim(raw) !~ '^[+-]?[0-9]{1,18}$' OR btrim(raw)::bigint < minimum THEN
    RAISE EXCEPTION 'setting % must be an integer of at least % (is "%")', name, minimum, raw USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN btrim(raw)::bigint;
END
