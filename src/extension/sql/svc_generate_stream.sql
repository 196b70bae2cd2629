-- A generation as rows (src/extension/stream.ts): the first row of the recursion submits the request
-- (or finds the whole text in the cache), each next one waits for the text its worker wrote since.
-- PostgreSQL evaluates this query a row at a time when the function is called in a SELECT list
-- (a cursor's FETCH then returns each piece as it is written); in FROM it gathers every row first.
WITH RECURSIVE s(state) AS (
  SELECT @extschema@.svc__stream_start(prompt, max_tokens, use_cache, seed, temperature, top_k, top_p, min_p, stop)
  UNION ALL
  SELECT @extschema@.svc__stream_next(s.state) FROM s WHERE NOT (s.state ->> 'done')::boolean
)
SELECT s.state ->> 'piece' FROM s WHERE coalesce(s.state ->> 'piece', '') <> ''
