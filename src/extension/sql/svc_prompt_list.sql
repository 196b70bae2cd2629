-- The session role's prompts, one row each: its latest version's description, variables and metadata.
SELECT l.name, l.version, n.versions, l.description, l.variables, n.created_at, l.created_at, l.metadata
FROM (SELECT p.name, count(*)::integer AS versions, min(p.created_at) AS created_at, max(p.version) AS latest
      FROM @extschema@.svc_prompts p
      WHERE p.owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END))
      GROUP BY p.name) AS n
JOIN @extschema@.svc_prompts l ON l.owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END))
  AND l.name = n.name AND l.version = n.latest
ORDER BY l.name
