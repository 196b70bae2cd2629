-- Streaming (README "Streaming"): the text a worker has generated so far for an async generation it
-- is running, written at most every SVC_WORKER_PROGRESS_INTERVAL (svc_worker_progress) and read with
-- svc_get_partial_result. Part of the generated extension script.

-- One row per request, whole text each time (a reader never joins pieces). UNLOGGED: text rewritten
-- every half second writes no WAL, and after a crash the table is empty, as the jobs run again anyway.
-- A row counts only while its attempt is processing the request; the workers' retention deletes the
-- others (svc_worker_cleanup). Readable under row-level security as svc_queue is (each role its own
-- requests' rows, svc_admin members all); only svc_worker_progress writes. fillfactor leaves room for
-- the rewrites to stay on their page (HOT updates).
CREATE UNLOGGED TABLE svc_partial_results (
  request_id     uuid PRIMARY KEY,
  attempt        integer NOT NULL,
  owner          regrole NOT NULL,
  partial_result text NOT NULL,
  tokens         integer NOT NULL,
  updated_at     timestamptz NOT NULL
) WITH (fillfactor = 50);
ALTER TABLE svc_partial_results ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_partial_results_read ON svc_partial_results FOR SELECT
  USING (owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user) OR pg_has_role(current_user, 'svc_admin', 'MEMBER'));
GRANT SELECT ON svc_partial_results TO PUBLIC;
