-- The prompt registry (svc_prompt_*, README "Prompt registry"): named, versioned templates, each
-- role's its own. Part of the generated extension script.

-- One row per version; a role's prompt `name` is the rows of (owner, name), the latest the highest
-- version. `metadata` is the caller's own JSON object (tags, an owner, a model: svc reads none of it).
-- `variables` are the names the template reads (src/prompt/template.ts), kept for listing.
-- Each role sees its own rows (svc_admin members all); only svc's functions write, for the session's
-- role, so no role creates, changes or renders another's prompts.
CREATE TABLE svc_prompts (
  owner       regrole NOT NULL,
  name        text NOT NULL CONSTRAINT svc_prompts_name CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._:-]{0,62}$'),
  version     integer NOT NULL CHECK (version > 0),
  template    text NOT NULL,
  description text,
  metadata    jsonb NOT NULL DEFAULT '{}' CONSTRAINT svc_prompts_metadata CHECK (jsonb_typeof(metadata) = 'object'),
  variables   text[] NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (owner, name, version)
);
ALTER TABLE svc_prompts ENABLE ROW LEVEL SECURITY;
CREATE POLICY svc_prompts_read ON svc_prompts FOR SELECT
  USING (owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user) OR pg_has_role(current_user, 'svc_admin', 'MEMBER'));
GRANT SELECT ON svc_prompts TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('svc_prompts', '');
