-- One row per id given, in that order; an id that is unknown or not yours gives a row of NULLs
-- beside it, so results line up with the input.
#variable_conflict use_column
BEGIN
  IF $1 IS NULL THEN
    RAISE EXCEPTION 'svc_check_async_batch: request_ids must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  RETURN QUERY
    SELECT ids.id, q.status, q.result, q.error, q.created_at::timestamp, q.completed_at::timestamp
    FROM unnest($1) WITH ORDINALITY AS ids(id, ord)
    LEFT JOIN @extschema@.svc_queue q ON q.request_id = ids.id
    ORDER BY ids.ord;
END
