-- The model whose answers the cache serves: the one the most recently heard-from live worker runs.
SELECT model FROM svc_workers
WHERE state = 'running' AND model IS NOT NULL AND last_heartbeat > clock_timestamp() - interval '1 minute'
ORDER BY last_heartbeat DESC LIMIT 1
