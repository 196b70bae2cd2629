-- The source rows with these keys are gone (deleted, or their key changed): nothing is kept for them,
-- and a job still embedding them writes nothing (svc__vectorizer_apply finds no row). Their chunks
-- are deleted by the caller, the vectorizer's trigger, through the writer. NULL keys: all of them (TRUNCATE).
DELETE FROM svc_vectorizer_rows r
WHERE r.vectorizer = vectorizer_id AND (gone_keys IS NULL OR r.key IN (SELECT jsonb_array_elements(gone_keys)))
