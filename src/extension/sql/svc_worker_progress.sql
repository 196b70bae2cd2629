-- Streaming: the text a worker has generated so far for a request it is running, stored while that
-- attempt still processes the request (else false: its lease was lost, or it finished), and announced
-- on svc_progress with the request and its token count only: the text stays in svc_partial_results,
-- where only the request's owner reads it (any role may LISTEN, and a payload holds 8000 bytes).
#variable_conflict use_column
DECLARE
  owner_ regrole;
BEGIN
  IF $1 IS NULL OR $2 IS NULL OR $3 IS NULL OR $4 IS NULL THEN
    RAISE EXCEPTION 'svc_worker_progress: request_id, attempt, partial_result and tokens must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF $4 < 0 THEN
    RAISE EXCEPTION 'svc_worker_progress: tokens must not be negative (got %)', $4 USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT q.owner INTO owner_ FROM @extschema@.svc_queue q WHERE q.request_id = $1 AND q.status = 'processing' AND q.attempt = $2;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  INSERT INTO @extschema@.svc_partial_results AS p (request_id, attempt, owner, partial_result, tokens, updated_at)
  VALUES ($1, $2, owner_, $3, $4, clock_timestamp())
  ON CONFLICT (request_id) DO UPDATE SET attempt = excluded.attempt, owner = excluded.owner,
    partial_result = excluded.partial_result, tokens = excluded.tokens, updated_at = excluded.updated_at;
  PERFORM pg_notify('svc_progress', json_build_object('request_id', $1, 'tokens', $4)::text);
  RETURN true;
END
