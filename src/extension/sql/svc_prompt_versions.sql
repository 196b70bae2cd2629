-- Every version of one of the session role's prompts, oldest first. is_active marks the version that
-- svc_prompt_render and svc_prompt_get use when none is named: the latest.
-- (The session's role, as the submitters name it: this function runs as the extension's owner.)
BEGIN
  IF svc_prompt_versions.name IS NULL THEN
    RAISE EXCEPTION 'svc_prompt_versions: name must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  RETURN QUERY
  SELECT p.version, p.version = max(p.version) OVER (), p.description, p.metadata, p.variables, p.created_at FROM @extschema@.svc_prompts p
  WHERE p.owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END))
    AND p.name = svc_prompt_versions.name
  ORDER BY p.version;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'svc_prompt_versions: name ''%'' is no prompt of yours', svc_prompt_versions.name
      USING ERRCODE = 'undefined_object', HINT = 'svc_prompt_list() lists your prompts.';
  END IF;
END
