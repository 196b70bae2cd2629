-- A completion names the attempt it ran; a late one from a worker whose lease expired (and whose
-- job was claimed again) matches nothing and is refused (false).
BEGIN
  RETURN cardinality(@extschema@.svc__complete(ARRAY[$1], ARRAY[$2], ARRAY[$3], ARRAY[$4])) = 0;
END
