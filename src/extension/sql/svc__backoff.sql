SELECT least(@extschema@.svc__setting_interval('svc.retry_backoff') * power(2, $1), interval '5 minutes')
