-- One version of one of the session role's prompts: version `version`, or the latest when it is NULL.
-- (The session's role, as the submitters name it: this function runs as the extension's owner.)
BEGIN
  IF svc_prompt_get.name IS NULL THEN
    RAISE EXCEPTION 'svc_prompt_get: name must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF svc_prompt_get.version < 1 THEN
    RAISE EXCEPTION 'svc_prompt_get: version must be between 1 and 2147483647 (got %)', svc_prompt_get.version USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN QUERY
  SELECT p.name, p.version, p.template, p.description, p.variables, p.created_at, p.metadata FROM @extschema@.svc_prompts p
  WHERE p.owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END))
    AND p.name = svc_prompt_get.name AND (svc_prompt_get.version IS NULL OR p.version = svc_prompt_get.version)
  ORDER BY p.version DESC LIMIT 1;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'svc_prompt_get: name ''%'' is no prompt of yours%', svc_prompt_get.name,
      CASE WHEN svc_prompt_get.version IS NULL THEN '' ELSE ' with a version ' || svc_prompt_get.version END
      USING ERRCODE = 'undefined_object', HINT = 'svc_prompt_list() lists your prompts.';
  END IF;
END
