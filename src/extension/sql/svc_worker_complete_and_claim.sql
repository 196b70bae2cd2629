-- Complete, then claim for the slots that freed: one round trip (and one transaction) for a busy
-- worker instead of two per job, and several jobs that finished together complete in one call. The
-- completion is svc_worker_complete's for each (request, attempt, result) of the three arrays; the
-- claim is svc_worker_claim's, for up to claim_jobs jobs (by default one per completion given: the
-- freed slots, whether or not a completion was stored, since the worker no longer runs that job
-- either way), without relaxing the commit (the completions must be durable). Each row carries the
-- ids whose completion was refused (refused, usually empty: cheap to return on every row); when no
-- job is claimed there is exactly one row, with refused and NULL job columns.
#variable_conflict use_column
DECLARE
  dropped uuid[];
  wanted integer := coalesce($7, cardinality($1));
BEGIN
  IF $1 IS NULL OR $2 IS NULL OR $3 IS NULL OR cardinality($1) <> cardinality($2) OR cardinality($1) <> cardinality($3)
    OR cardinality($1) <> coalesce(cardinality($9), cardinality($1)) THEN
    RAISE EXCEPTION 'svc_worker_complete_and_claim: complete_request_ids, complete_attempts, results and stop_reasons (unless NULL) must be arrays of the same length'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF array_position($1, NULL) IS NOT NULL OR array_position($2, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'svc_worker_complete_and_claim: complete_request_ids and complete_attempts must not contain NULL'
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF wanted < 0 THEN
    RAISE EXCEPTION 'svc_worker_complete_and_claim: claim_jobs must be at least 0' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  dropped := @extschema@.svc__complete($1, $2, $3, $9);
  IF wanted > 0 THEN
    RETURN QUERY SELECT dropped, c.* FROM @extschema@.svc__claim($4, wanted, $5, $6, false, $8) c;
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  refused := dropped;
  RETURN NEXT;
END
