-- `models`: the names this worker serves, each with the identity of the file it loaded (NULL: one
-- model, 'default', of identity `model`). A name not yet in svc_models is declared, serving every
-- function the file can serve; the identity of each is recorded there, for the cache. `capabilities`
-- ({"name": {"serves": [functions], "dimension": n}}, read from each GGUF; absent for an inference
-- server): recorded, and a name's serves narrowed to it, so that an embedding model is never offered
-- for generation, and a vectorizer's dimensions are checked against the model's (#45); `context`, the
-- context it is served with, for svc_summarize's chunks.
WITH served AS (
  SELECT key AS name, value AS identity,
    CASE WHEN jsonb_typeof($11 -> key -> 'serves') = 'array'
      THEN ARRAY(SELECT f FROM unnest(ARRAY['generate', 'embed', 'rerank']) AS f WHERE ($11 -> key -> 'serves') ? f) END AS capabilities,
    CASE WHEN jsonb_typeof($11 -> key -> 'dimension') = 'number' THEN ($11 -> key ->> 'dimension')::integer END AS dimension,
    CASE WHEN jsonb_typeof($11 -> key -> 'context') = 'number' THEN ($11 -> key ->> 'context')::integer END AS context_size
  FROM jsonb_each_text(coalesce($10, jsonb_build_object('default', $6)))
), declared AS (
  INSERT INTO @extschema@.svc_models AS m (name, identity, loaded_at, serves, capabilities, dimension, context_size)
  SELECT name, identity, clock_timestamp(), coalesce(nullif(capabilities, '{}'), ARRAY['generate', 'embed', 'rerank']), capabilities, dimension, context_size FROM served
  -- A worker still loading its models ('starting') knows their names, not what they are: it records nothing of them yet.
  WHERE $4 <> 'starting'
  ON CONFLICT (name) DO UPDATE SET identity = coalesce(excluded.identity, m.identity), loaded_at = excluded.loaded_at,
    capabilities = excluded.capabilities, dimension = excluded.dimension, context_size = excluded.context_size,
    serves = CASE WHEN excluded.capabilities IS NULL OR m.serves <@ excluded.capabilities THEN m.serves
      ELSE coalesce(nullif(ARRAY(SELECT f FROM unnest(m.serves) AS f WHERE f = ANY (excluded.capabilities)), '{}'), excluded.capabilities) END
  WHERE (excluded.identity IS NOT NULL AND m.identity IS DISTINCT FROM excluded.identity) OR m.capabilities IS DISTINCT FROM excluded.capabilities
    OR m.dimension IS DISTINCT FROM excluded.dimension OR m.context_size IS DISTINCT FROM excluded.context_size
)
INSERT INTO @extschema@.svc_workers AS w (worker_id, host, pid, state, concurrency, model, jobs_done, jobs_failed, jobs_in_flight, models)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ARRAY(SELECT name FROM served ORDER BY name))
ON CONFLICT (worker_id) DO UPDATE SET state = excluded.state, concurrency = excluded.concurrency,
  model = excluded.model, jobs_done = excluded.jobs_done, jobs_failed = excluded.jobs_failed,
  jobs_in_flight = excluded.jobs_in_flight, models = excluded.models, last_heartbeat = clock_timestamp()
