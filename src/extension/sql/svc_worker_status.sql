-- A stopped worker is listed for 10 minutes after it stopped, a silent one (unresponsive after a
-- minute) for a day; svc_cleanup deletes the rows of workers silent for longer than its retention.
SELECT worker_id, host, pid,
  CASE WHEN state <> 'stopped' AND last_heartbeat < clock_timestamp() - interval '1 minute' THEN 'unresponsive' ELSE state END,
  started_at, last_heartbeat, jobs_done, jobs_failed, jobs_in_flight, concurrency, model, models
FROM @extschema@.svc_workers
WHERE last_heartbeat > clock_timestamp() - CASE WHEN state = 'stopped' THEN interval '10 minutes' ELSE interval '1 day' END
ORDER BY started_at, worker_id
