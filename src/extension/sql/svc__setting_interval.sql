-- An interval setting (svc.retry_backoff), zero or more, or its default: a malformed value is an
-- error naming the setting.
DECLARE
  raw text := @extschema@.svc__setting(name);
  value interval;
BEGIN
  BEGIN
    value := raw::interval;
  EXCEPTION WHEN invalid_datetime_format OR datetime_field_overflow OR interval_field_overflow OR syntax_error THEN
    value := NULL;
  END;
  IF value IS NULL OR value < interval '0' THEN
    RAISE EXCEPTION 'setting % must be an interval of zero or more such as ''1s'' (is "%")', name, raw USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN value;
END
