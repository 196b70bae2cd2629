-- Deletes the chunks of these source keys (jsonb objects of the key columns) from a destination that
-- svc__vectorizer_destination named and locked. The keys are compared typed, as the destination stores
-- them: its key columns are of base types or enums, whose input and equality are PostgreSQL's own.
BEGIN
  EXECUTE format('DELETE FROM %s d USING pg_catalog.jsonb_populate_recordset(NULL::%s, $1) k WHERE %s', destination, destination,
    (SELECT string_agg(format('d.%I OPERATOR(pg_catalog.=) k.%I', c, c), ' AND ') FROM unnest(key_columns) AS c))
  USING keys;
END
