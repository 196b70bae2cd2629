-- The version of svc installed in this database, as ALTER EXTENSION svc UPDATE left it.
SELECT e.extversion::text FROM pg_extension e WHERE e.extname = 'svc'
