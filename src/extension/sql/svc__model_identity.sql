-- The file a worker last loaded under a model name (svc_models.identity): the cache keeps answers
-- per identity, so the synchronous functions look up a request's answer under its model's.
SELECT identity FROM @extschema@.svc_models WHERE name = $1
