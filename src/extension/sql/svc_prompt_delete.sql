-- Removes every version of one of the session role's prompts; returns how many.
DECLARE
  removed integer;
BEGIN
  IF svc_prompt_delete.name IS NULL THEN
    RAISE EXCEPTION 'svc_prompt_delete: name must not be NULL' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  DELETE FROM @extschema@.svc_prompts p
  WHERE p.owner = (SELECT r.oid FROM pg_roles r WHERE r.rolname = (CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END))
    AND p.name = svc_prompt_delete.name;
  GET DIAGNOSTICS removed = ROW_COUNT;
  IF removed = 0 THEN
    RAISE EXCEPTION 'svc_prompt_delete: name ''%'' is no prompt of yours', svc_prompt_delete.name
      USING ERRCODE = 'undefined_object', HINT = 'svc_prompt_list() lists your prompts.';
  END IF;
  RETURN removed;
END
