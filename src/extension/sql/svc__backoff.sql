SELECT least(svc__setting('svc.retry_backoff')::interval * power(2, $1), interval '5 minutes')
