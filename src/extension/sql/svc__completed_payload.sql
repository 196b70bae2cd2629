-- The svc_completed payload of a queue row (DESIGN.md), for every completion and final failure: the
-- `function` field maps the queue function (constrained and batch generation count as generate, a
-- set-based svc_embed's requests of many texts as embed).
SELECT json_build_object('request_id', $1,
  'function', CASE $2 WHEN 'embed' THEN 'embed' WHEN 'embed_many' THEN 'embed' WHEN 'rerank' THEN 'rerank' ELSE 'generate' END,
  'status', $3)::text
