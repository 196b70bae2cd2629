INSERT INTO svc_workers AS w (worker_id, host, pid, state, concurrency, model, jobs_done, jobs_failed, jobs_in_flight)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (worker_id) DO UPDATE SET state = excluded.state, concurrency = excluded.concurrency,
  model = excluded.model, jobs_done = excluded.jobs_done, jobs_failed = excluded.jobs_failed,
  jobs_in_flight = excluded.jobs_in_flight, last_heartbeat = clock_timestamp()
