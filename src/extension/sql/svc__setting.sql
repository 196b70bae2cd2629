-- A setting's value in this session, or its default (svc_settings) when unset or empty.
SELECT value FROM @extschema@.svc_settings() WHERE name = $1
