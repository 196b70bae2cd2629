-- `models`: the names this worker serves, each with the identity of the file it loaded (NULL: one
-- model, 'default', of identity `model`). A name not yet in svc_models is declared, serving every
-- function; the identity of each is recorded there, for the cache.
WITH served AS (
  SELECT key AS name, value AS identity
  FROM jsonb_each_text(coalesce($10, jsonb_build_object('default', $6)))
), declared AS (
  INSERT INTO svc_models AS m (name, identity, loaded_at)
  SELECT name, identity, clock_timestamp() FROM served
  ON CONFLICT (name) DO UPDATE SET identity = excluded.identity, loaded_at = excluded.loaded_at
  WHERE excluded.identity IS NOT NULL AND m.identity IS DISTINCT FROM excluded.identity
)
INSERT INTO svc_workers AS w (worker_id, host, pid, state, concurrency, model, jobs_done, jobs_failed, jobs_in_flight, models)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ARRAY(SELECT name FROM served ORDER BY name))
ON CONFLICT (worker_id) DO UPDATE SET state = excluded.state, concurrency = excluded.concurrency,
  model = excluded.model, jobs_done = excluded.jobs_done, jobs_failed = excluded.jobs_failed,
  jobs_in_flight = excluded.jobs_in_flight, models = excluded.models, last_heartbeat = clock_timestamp()
