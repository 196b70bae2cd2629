-- PL/pgSQL so its plans are kept for the session: as an SQL function (SECURITY DEFINER, SET
-- search_path, so never inlined) each call from a plv8 plan parsed and planned the body again.
BEGIN
  RETURN (SELECT count(*) FROM @extschema@.svc_queue WHERE status = 'pending') + (SELECT count(*) FROM @extschema@.svc_queue WHERE status = 'processing');
END
