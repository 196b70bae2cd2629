-- The advisory lock (one bigint key) a sync call's waiting backend holds for its token: the first 64
-- bits of the token's SHA-256. pg_locks shows the key to every role, never the token.
SELECT ('x' || left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 16))::bit(64)::bigint
