-- plv8.v8_flags is read once, when V8 starts in the backend (first plv8 use of the session)
CREATE EXTENSION IF NOT EXISTS plv8;
SET plv8.v8_flags = '--use-strict';
DO $$ plv8.elog(NOTICE, 'strict mode:', (function () { return this === undefined; })()); $$ LANGUAGE plv8;
DO $$ try { undeclared_global = 1; plv8.elog(NOTICE, 'sloppy'); } catch (e) { plv8.elog(NOTICE, String(e)); } $$ LANGUAGE plv8;
-- changing it later has no effect in this backend
SET plv8.v8_flags = '';
DO $$ plv8.elog(NOTICE, 'still strict:', (function () { return this === undefined; })()); $$ LANGUAGE plv8;
RESET plv8.v8_flags;
-- the other settings and their defaults
SELECT name, setting, unit, context FROM pg_settings WHERE name LIKE 'plv8.%' ORDER BY name;
