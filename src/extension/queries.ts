// Every SQL statement svc's plv8 functions run, in one place (the bodies of the SQL and PL/pgSQL
// functions are in src/extension/sql/). `$n` parameters only: no statement is ever built from input
// strings. Statements name their parameter types so plans are prepared once per session.
import { SYNC_WAITER_LOCK, requestLockKeys } from '../queue/locks.js';

export interface Query {
  readonly sql: string;
  readonly types: readonly string[];
}

const q = (sql: string, ...types: string[]): Query => ({ sql, types });

/**
 * The role a session acts as: SET ROLE's role, else the login role. A request belongs to it. The
 * submitters are SECURITY DEFINER (only they write svc_queue), where current_user is the extension's
 * owner; the `role` setting and session_user keep the caller's, and PostgreSQL lets a session set
 * `role` only to a role its login role is a member of, so nobody can submit as another role.
 */
const SESSION_ROLE = `(CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END)`;
/**
 * That role's oid, which is what owns requests, vectorizers, prompts and quotas (regrole columns): a
 * role dropped and made again under the same name is another role, and inherits nothing.
 */
const SESSION_ROLE_ID = `(SELECT r.oid FROM pg_roles r WHERE r.rolname = ${SESSION_ROLE})`;

const REQUEST_KEY = requestLockKeys('$1');

// The limits that bind role `role` (an SQL expression of its oid): the ceiling and defaults an
// administrator set, and the role's own quotas (quotas.ts LimitColumns). Two primary-key lookups.
const LIMIT_COLUMNS = (role: string) =>
  `(SELECT c.value FROM @extschema@.svc_config c WHERE c.name = 'queue_limits') AS queue_limits,
   (SELECT jsonb_build_object('max_pending', l.max_pending, 'max_stored_bytes', l.max_stored_bytes) FROM @extschema@.svc_role_limits l WHERE l.role_name = ${role}) AS role_limits`;

// What a capacity check reads (submit.ts's Capacity), from the view svc__queue_depth_bound joined as
// `b` (see queue-bound.sql), the setting, and the limits of role `role`.
const CAPACITY_COLUMNS = (role: string) => `b.depth AS bound, b.last_seq, current_setting('svc.max_queue_size', true) AS max_queue_size, ${LIMIT_COLUMNS(role)}`;

// The bytes a request stores (svc_queue.stored_bytes, for max_stored_bytes): its parameters as jsonb
// (the datum's size: no serialization) and its grammar.
const STORED_BYTES = (parameters: string) => `pg_column_size(${parameters}) + coalesce(octet_length($3), 0)`;

/** A relation's schema-qualified, quoted name from its oid (`column`), or NULL once it is dropped. */
const qualifiedRelation = (column: string) =>
  `(SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = ${column})`;

export const QUERIES = {
  setting: q(`SELECT current_setting($1, true) AS value`, 'text'),
  promptSettings: q(`SELECT current_setting('svc.prompt_format', true) AS prompt_format, current_setting('svc.system_prompt', true) AS system_prompt`),
  intervalSeconds: q(`SELECT extract(epoch FROM $1::interval)::float8 AS seconds`, 'text'),

  // The model of a request of function $1 (generate, embed, rerank; settings.ts requestModel, the rule
  // of docs/models.md): svc.model, else the function's own setting (svc.<function>_model; for rerank,
  // svc.embed_model next), else for embed and rerank the model named 'embed' where one is declared that
  // serves it, else 'default'; with where the name came from, what svc_models says it serves (NULL:
  // undeclared) and the context it is served with.
  requestModel: q(
    `WITH given AS (
       SELECT * FROM (VALUES
         (1, nullif(btrim(current_setting('svc.model', true)), ''), 'svc.model'),
         (2, nullif(btrim(current_setting('svc.' || $1 || '_model', true)), ''), 'svc.' || $1 || '_model'),
         (3, CASE WHEN $1 = 'rerank' THEN nullif(btrim(current_setting('svc.embed_model', true)), '') END, 'svc.embed_model'),
         (4, (SELECT e.name FROM @extschema@.svc_models e WHERE e.name = 'embed' AND $1 IN ('embed', 'rerank') AND $1 = ANY (e.serves)), 'the embedding model, named embed'),
         (5, 'default', 'the default')) AS g(rank, name, source)
       WHERE g.name IS NOT NULL ORDER BY g.rank LIMIT 1
     )
     SELECT s.name, s.source, m.serves, m.context_size FROM given s LEFT JOIN @extschema@.svc_models m ON m.name = s.name`,
    'text',
  ),
  modelServes: q(`SELECT serves, dimension FROM @extschema@.svc_models WHERE name = $1`, 'text'),

  // The exact count, and the last submission number read before it (so that count plus the numbers given out since bounds the queue).
  queueDepth: q(`SELECT s.last_value AS last_seq, @extschema@.svc__queue_depth() AS depth FROM @extschema@.svc_queue_seq_seq s`),
  // $1: the oid of the role whose limits apply (NULL: the session's); its oid and name come back.
  capacity: q(
    `SELECT r.id::text AS role_id, pg_get_userbyid(r.id)::text AS role, ${CAPACITY_COLUMNS('r.id')}
     FROM (SELECT coalesce($1, ${SESSION_ROLE_ID}) AS id) r, @extschema@.svc__queue_depth_bound b`,
    'oid',
  ),
  // Role $1's requests pending or processing submitted after number $2 (0: all), counted by the inputs
  // they stand for (an embed_many request's texts), with the bytes they store, and the last number given out: one range of svc_queue_owner_active_idx (limits.sql).
  roleUsage: q(
    `SELECT coalesce(sum(q.inputs), 0) AS pending, coalesce(sum(q.stored_bytes), 0) AS bytes, (SELECT s.last_value FROM @extschema@.svc_queue_seq_seq s) AS last_seq
     FROM @extschema@.svc_queue q WHERE q.owner = $1 AND q.seq > $2 AND q.status IN ('pending', 'processing') AND q.stored_bytes >= 0`,
    'oid', 'bigint',
  ),
  // svc_queue_limits: the session's role, the exact queue depth and the role's limits.
  sessionLimits: q(`SELECT ${SESSION_ROLE}::text AS role, ${SESSION_ROLE_ID}::text AS role_id, @extschema@.svc__queue_depth() AS depth, ${LIMIT_COLUMNS(SESSION_ROLE_ID)}`),
  // $1: the role's oid.
  roleLimitsPut: q(
    `INSERT INTO @extschema@.svc_role_limits (role_name, max_pending, max_stored_bytes) VALUES ($1, $2, $3)
     ON CONFLICT (role_name) DO UPDATE SET max_pending = excluded.max_pending, max_stored_bytes = excluded.max_stored_bytes, set_at = now() RETURNING role_name`,
    'oid', 'bigint', 'bigint',
  ),
  roleLimitsDelete: q(`DELETE FROM @extschema@.svc_role_limits WHERE role_name = $1 RETURNING role_name`, 'oid'),

  // One request (owned by the session's role), the workers' wakeup and the capacity figures in one
  // statement: one SPI call per submission. The capacity figures are read in the statement's snapshot,
  // so without the new row; the notification is delivered at commit, and dropped with the row should
  // the capacity check or anything else fail.
  insertJob: q(
    `WITH job AS (
       INSERT INTO @extschema@.svc_queue (function_name, parameters, grammar, priority, owner, stored_bytes)
       VALUES ($1, $2, $3, $4, ${SESSION_ROLE_ID}, ${STORED_BYTES('$2')}) RETURNING request_id, owner
     )
     SELECT job.request_id, job.owner::oid::text AS role_id, ${SESSION_ROLE}::text AS role, pg_notify('svc_jobs', $1), ${CAPACITY_COLUMNS('job.owner')}
     FROM job, @extschema@.svc__queue_depth_bound b`,
    'text', 'jsonb', 'text', 'integer',
  ),

  // A sync call's requests (svc__sync_submit): one row per element of $2 (parameter objects) for the
  // role of oid $5, waited for under lock $6, submitted with token $7 (its digest kept: svc__sync_state and
  // svc__sync_cancel act on these rows for that token only); a batch when there are several. An
  // embed_many request stands for its texts in the role's quota (inputs), a generate_many request for its prompts. Ids come back with their
  // 1-based position and their inputs.
  insertForWaiter: q(
    `WITH batch AS (SELECT CASE WHEN jsonb_array_length($2) > 1 THEN gen_random_uuid() END AS id)
     INSERT INTO @extschema@.svc_queue (function_name, parameters, grammar, priority, batch_id, batch_index, owner, waiter, stored_bytes, sync_token, inputs)
     SELECT $1, t.item, $3, $4, batch.id, t.ord, $5, $6, ${STORED_BYTES('t.item')}, sha256(convert_to($7, 'UTF8')),
       CASE $1 WHEN 'embed_many' THEN jsonb_array_length(t.item->'texts') WHEN 'generate_many' THEN jsonb_array_length(t.item->'prompts') ELSE 1 END
     FROM batch, jsonb_array_elements($2) WITH ORDINALITY AS t(item, ord)
     ORDER BY t.ord
     RETURNING request_id, batch_index, inputs`,
    'text', 'jsonb', 'text', 'integer', 'oid', 'integer', 'text',
  ),

  // One row per element of $2 (a JSON array of parameter objects), all in one new batch; ids come
  // back with their 1-based position so the caller can return them in input order.
  insertBatch: q(
    `WITH batch AS (SELECT gen_random_uuid() AS id)
     INSERT INTO @extschema@.svc_queue (function_name, parameters, grammar, priority, batch_id, batch_index, owner, stored_bytes)
     SELECT $1, t.item, $3, $4, batch.id, t.ord, ${SESSION_ROLE_ID}, ${STORED_BYTES('t.item')}
     FROM batch, jsonb_array_elements($2) WITH ORDINALITY AS t(item, ord)
     ORDER BY t.ord
     RETURNING request_id, batch_index`,
    'text', 'jsonb', 'text', 'integer',
  ),

  // The same, the documents $5 stored once (svc_documents) and named by every row (documents_id):
  // svc_rerank_batch_async. The first row counts their bytes.
  insertBatchSharing: q(
    `WITH docs AS (INSERT INTO @extschema@.svc_documents (owner, documents) VALUES (${SESSION_ROLE_ID}, $5) RETURNING id, pg_column_size(documents) AS bytes),
          batch AS (SELECT gen_random_uuid() AS id)
     INSERT INTO @extschema@.svc_queue (function_name, parameters, grammar, priority, batch_id, batch_index, owner, stored_bytes, documents_id)
     SELECT $1, t.item, $3, $4, batch.id, t.ord, ${SESSION_ROLE_ID}, ${STORED_BYTES('t.item')} + CASE WHEN t.ord = 1 THEN docs.bytes ELSE 0 END, docs.id
     FROM batch, docs, jsonb_array_elements($2) WITH ORDINALITY AS t(item, ord)
     ORDER BY t.ord
     RETURNING request_id, batch_index`,
    'text', 'jsonb', 'text', 'integer', 'jsonb',
  ),

  notifyWorkers: q(`SELECT pg_notify('svc_jobs', $1)`, 'text'),

  // uncommitted: submitted by this very transaction, so no worker can see it before it commits.
  jobStates: q(
    `SELECT request_id, status, result, error, submitted_xact = pg_current_xact_id_if_assigned() AS uncommitted
     FROM @extschema@.svc_queue WHERE request_id = ANY ($1)`,
    'uuid[]',
  ),

  sleep: q(`SELECT pg_sleep($1)`, 'float8'),
  // svc_generate_stream (stream.ts): a request of the session's role and waiter, with the text its
  // worker last published for the attempt running it.
  streamState: q(
    `SELECT q.status, q.result, q.error, CASE q.status WHEN 'processing' THEN p.partial_result END AS partial
     FROM @extschema@.svc_queue q LEFT JOIN @extschema@.svc_partial_results p ON p.request_id = q.request_id AND p.attempt = q.attempt
     WHERE q.request_id = $1 AND q.owner = ${SESSION_ROLE_ID}`,
    'uuid',
  ),
  // Whether no session holds request $1's lock exclusively (no worker is running it, or one without
  // the lock): taken shared and given back at once; with the session's lock_timeout, which
  // awaitRequest changes and lockTimeout puts back.
  requestUnheld: q(
    `SELECT CASE WHEN pg_catalog.pg_try_advisory_lock_shared(${REQUEST_KEY}) THEN pg_catalog.pg_advisory_unlock_shared(${REQUEST_KEY}) ELSE false END AS unheld,
            pg_catalog.current_setting('lock_timeout') AS lock_timeout`,
    'uuid',
  ),
  // Waits up to $2 (lock_timeout, set first in the same statement) until the worker holding request
  // $1's lock lets go; given back at once.
  awaitRequest: q(
    `SELECT pg_catalog.set_config('lock_timeout', $2, true), pg_catalog.pg_advisory_lock_shared(${REQUEST_KEY}), pg_catalog.pg_advisory_unlock_shared(${REQUEST_KEY})`,
    'uuid',
    'text',
  ),
  lockTimeout: q(`SELECT pg_catalog.set_config('lock_timeout', $1, true) AS value`, 'text'),
  // A sync call's requests that keep its waiter key (svc_queue_waiter_idx): those not finished yet
  // (completing, failing for good and cancelling clear it), with their status alone.
  waiterStates: q(
    `SELECT request_id, status, submitted_xact = pg_current_xact_id_if_assigned() AS uncommitted FROM @extschema@.svc_queue WHERE waiter = $1`,
    'integer',
  ),

  // --- the result cache -----------------------------------------------------------------------
  // A hit bumps the entry's frecency; hits and misses are counted (svc_cache_stats).
  // $2: the request's model name; the cache keeps answers under the identity of its file.
  cacheGet: q(`SELECT result FROM @extschema@.svc_worker_cache_get($1, @extschema@.svc__model_identity($2))`, 'text', 'text'),
  // The same for many requests ($1 identities, $2 model names), a row per hit with its 1-based position.
  cacheGetMany: q(
    `SELECT t.ord, r.result FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(identity, model, ord),
       LATERAL @extschema@.svc_worker_cache_get(t.identity, @extschema@.svc__model_identity(t.model)) r
     WHERE r.result IS NOT NULL`,
    'text[]', 'text[]',
  ),

  // --- synchronous calls: an autonomous session back to this database (dblink; sync.ts) ----------
  // What a sync call needs to know of its session, in one statement. dblink_reachable: whether the
  // session's login role (or a role it may SET ROLE to) may execute any of dblink's functions, and so
  // could reach a connection svc left open in this backend (superusers could anyway, and gain nothing).
  syncContext: q(
    `SELECT ${SESSION_ROLE}::text AS owner, ${SESSION_ROLE_ID}::text AS owner_id, pg_backend_pid() AS pid, current_setting('transaction_isolation') AS isolation,
            (SELECT value FROM @extschema@.svc_config WHERE name = 'sync_connection') AS target,
            NOT (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) AND EXISTS (
              SELECT FROM pg_depend d
              JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'dblink'
              JOIN pg_proc p ON p.oid = d.objid
              CROSS JOIN LATERAL aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
              WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
                AND a.privilege_type = 'EXECUTE' AND (a.grantee = 0 OR pg_has_role(session_user, a.grantee, 'MEMBER'))
            ) AS dblink_reachable,
            (SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'svc') AS schema`,
  ),
  // The role the session logs in as must be able to do nothing but what svc grants it.
  syncRole: q(
    `SELECT r.rolcanlogin AND NOT (r.rolsuper OR r.rolcreaterole OR r.rolcreatedb OR r.rolreplication OR r.rolbypassrls)
            AND NOT EXISTS (SELECT FROM pg_auth_members m WHERE m.member = r.oid) AS powerless
     FROM pg_roles r WHERE r.rolname = $1`,
    'name',
  ),
  // Settings only an administrator makes (svc_config; svc_set_sync_connection).
  configPut: q(`INSERT INTO @extschema@.svc_config (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value, set_at = now() RETURNING name`, 'text', 'jsonb'),
  configGet: q(`SELECT value FROM @extschema@.svc_config WHERE name = $1`, 'text'),
  configDelete: q(`DELETE FROM @extschema@.svc_config WHERE name = $1 RETURNING name`, 'text'),
  // A fresh token for a one-shot session's application_name, so that no connection of the caller's
  // can carry its connection string as a name (dblink takes a named connection first).
  randomToken: q(`SELECT replace(gen_random_uuid()::text, '-', '') AS token`),
  // The autonomous session through svc's one door to dblink (sql/svc__sync_dblink.sql, autonomous.ts):
  // $1 the action, $2 the administrator's target, $3 a one-shot session's application_name, $4 one of
  // REMOTE's statements, its arguments quoted literals (dblink takes no parameters).
  syncDblink: q(`SELECT r FROM @extschema@.svc__sync_dblink($1, $2, $3, $4) AS r`, 'text', 'jsonb', 'text', 'text'),
  // In the autonomous session: whether backend $1 holds waiter lock $2 and the lock of token $3, and its login role may act as $4.
  syncWaiterMayActAs: q(`SELECT @extschema@.svc__sync_waiter_may_act_as($1, $2, $3, $4) AS ok`, 'integer', 'integer', 'text', 'oid'),
  // true when this transaction holds (or now takes) the waiter lock with this key; false when another
  // session holds it.
  waiterLock: q(`SELECT pg_try_advisory_xact_lock(${SYNC_WAITER_LOCK}, $1) AS locked`, 'integer'),
  // The same for the lock of a sync call's token $1 (svc__sync_token_key), which proves to
  // svc__sync_submit that the backend named is the one that holds the token.
  tokenLock: q(`SELECT pg_try_advisory_xact_lock(@extschema@.svc__sync_token_key($1)) AS locked`, 'text'),
  // A sync call's token: 244 random bits (two version-4 UUIDs), known only to the waiting backend's
  // plv8 context (the owner's) and the autonomous session it opens.
  syncToken: q(`SELECT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') AS token`),
  // Workers heard from in the last minute, running or starting (loading their models), and those of them
  // serving model $1 (read before every sync call's submission).
  workersSummary: q(
    `SELECT count(*) FILTER (WHERE state IN ('running', 'starting') AND last_heartbeat > clock_timestamp() - interval '1 minute') AS live,
            count(*) FILTER (WHERE state IN ('running', 'starting') AND last_heartbeat > clock_timestamp() - interval '1 minute' AND $1 = ANY (models)) AS serving,
            coalesce(sum(concurrency) FILTER (WHERE state IN ('running', 'starting') AND last_heartbeat > clock_timestamp() - interval '1 minute' AND $1 = ANY (models)), 0) AS slots,
            count(*) AS known
     FROM @extschema@.svc_workers`,
    'text',
  ),
  // The requests pending for model $1: only for a timeout's message (it counts them).
  pendingForModel: q(`SELECT count(*) AS pending FROM @extschema@.svc_queue WHERE status = 'pending' AND model = $1`, 'text'),

  // Only the owner cancels, a pending or a processing request ($2: the statuses, a parameter, not
  // literals, so that the plan (generic, made once) cannot take svc_queue_claim_idx for this lookup by
  // id, see BY_ID_STATUS). A processing one is announced on svc_cancel (CANCEL_CHANNEL in
  // worker/protocol.ts): the worker running it checks (svc_worker_released) and stops at its next token.
  cancel: q(
    `WITH cancelled AS (
       UPDATE @extschema@.svc_queue SET status = 'cancelled', cancelled_at = now(), lease_expires_at = NULL
       WHERE request_id = $1 AND status = ANY ($2) AND owner = ${SESSION_ROLE_ID} RETURNING request_id, worker_id
     )
     SELECT request_id, CASE WHEN worker_id IS NOT NULL THEN pg_notify('svc_cancel', request_id::text) END FROM cancelled`,
    'uuid', 'text[]',
  ),

  // --- vectorizers (vectorizer.ts) --------------------------------------------------------------
  // First in the superuser's functions: svc_owner's tables they touch carry nothing svc did not make ($1: the caller, for the error).
  tablesAsMade: q(`SELECT @extschema@.svc__tables_as_made($1)`, 'text'),
  sessionRole: q(`SELECT r.rolname AS role, r.oid::text AS oid FROM pg_roles r WHERE r.rolname = ${SESSION_ROLE}`),
  extensionSchema: q(`SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = $1`, 'text'),
  // $1: a regclass as plv8 hands it over (its oid, or its name as text).
  relation: q(
    `SELECT c.oid::text AS oid, n.nspname AS schema, c.relname AS name, c.relkind AS kind, c.relrowsecurity AS row_security,
            c.relforcerowsecurity AS force_row_security, pg_has_role(${SESSION_ROLE}, c.relowner, 'USAGE') AS owner_is_role
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = $1::regclass`,
    'text',
  ),
  tableColumns: q(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, t.typcategory AS category
     FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped`,
    'text',
  ),
  // The primary key's columns in order: each one's type, and what the destination stores it as:
  // domains stripped to their base type (with the innermost typmod given), so that no domain check of
  // a role's runs where svc writes; `trusted` is false for a type whose input or comparison could be a
  // role's function (composite, range, an array of a domain or of those).
  primaryKey: q(
    `WITH RECURSIVE keys AS (
       SELECT a.attname AS name, k.ord, a.atttypid AS declared, a.atttypmod AS declared_mod, a.atttypid AS typ, a.atttypmod AS typmod
       FROM pg_index i, unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord), pg_attribute a
       WHERE i.indrelid = $1::oid AND i.indisprimary AND a.attrelid = i.indrelid AND a.attnum = k.attnum
     ), base AS (
       SELECT * FROM keys
       UNION ALL
       SELECT b.name, b.ord, b.declared, b.declared_mod, t.typbasetype, CASE WHEN b.typmod = -1 THEN t.typtypmod ELSE b.typmod END
       FROM base b JOIN pg_type t ON t.oid = b.typ WHERE t.typtype = 'd'
     )
     SELECT b.name, format_type(b.declared, b.declared_mod) AS type, format_type(b.typ, b.typmod) AS storage,
       t.typtype = 'e' OR (t.typtype = 'b' AND (t.typcategory <> 'A' OR e.typtype IN ('b', 'e'))) AS trusted
     FROM base b JOIN pg_type t ON t.oid = b.typ LEFT JOIN pg_type e ON e.oid = t.typelem AND t.typcategory = 'A'
     WHERE t.typtype <> 'd' ORDER BY b.ord`,
    'text',
  ),
  // The first of the columns ($3) that role $1 may not read in table $2 (NULL: it may read them all),
  // whether it may create triggers there, and create tables in schema $4.
  vectorizerPrivileges: q(
    `SELECT (SELECT c FROM unnest($3) AS c WHERE NOT has_column_privilege($1, $2::oid, c, 'SELECT') LIMIT 1) AS select,
            has_table_privilege($1, $2::oid, 'TRIGGER') AS trigger,
            has_schema_privilege($1, $4, 'CREATE') AS create, has_schema_privilege($1, $4, 'USAGE') AS usage`,
    'text', 'text', 'text[]', 'text',
  ),
  parseIdent: q(`SELECT parse_ident($1) AS parts`, 'text'),
  schemaExists: q(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, 'text'),
  relationByName: q(`SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2`, 'text', 'text'),
  roleExists: q(`SELECT 1 FROM pg_roles WHERE rolname = $1`, 'text'),
  roleId: q(`SELECT oid::text AS id FROM pg_roles WHERE rolname = $1`, 'text'),
  vectorizerExists: q(`SELECT 1 FROM @extschema@.svc_vectorizers WHERE name = $1`, 'text'),
  vectorizerInsert: q(
    `INSERT INTO @extschema@.svc_vectorizers (name, owner, source, source_column, key_columns, format, chunking, model, destination, embedding_type, batch_size)
     VALUES ($1, $2, $3::oid, $4, $5, $6, $7::jsonb, $8, $9::regclass, $10, $11) RETURNING id`,
    'text', 'oid', 'text', 'text', 'text[]', 'text', 'text', 'text', 'text', 'text', 'integer',
  ),
  // Whether role $1 (a vectorizer's proxy) may create in schema $2 while role $3 (its declarer) is no superuser.
  mayCreateIn: q(`SELECT has_schema_privilege($1, $2, 'CREATE') AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = $3) AS may`, 'text', 'text', 'text'),
  // A vectorizer's generated functions (names LIKE $1), members of svc wherever they are, as DDL names them.
  vectorizerFunctions: q(
    `SELECT p.oid::regprocedure::text AS fn FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
     JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'svc' WHERE p.proname LIKE $1`,
    'text',
  ),
  // The session role's vectorizer named $1, its source and destination qualified (NULL once dropped).
  vectorizerOfSession: q(
    `SELECT v.id, v.name, v.owner::oid::text AS owner_id, pg_get_userbyid(v.owner)::text AS owner, v.key_columns, v.model, v.embedding_type,
       ${qualifiedRelation('v.source')} AS source, ${qualifiedRelation('v.destination')} AS destination
     FROM @extschema@.svc_vectorizers v WHERE v.name = $1 AND v.owner = ${SESSION_ROLE_ID}`,
    'text',
  ),
  // The same for svc_vectorize_drop: the session role's, or any for an svc_admin member (a dropped role's too).
  vectorizerToDrop: q(
    `SELECT v.id, v.name, v.owner::oid::text AS owner_id, r.rolname::text AS owner, v.key_columns, v.model, v.embedding_type,
       ${qualifiedRelation('v.source')} AS source, ${qualifiedRelation('v.destination')} AS destination,
       (SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = v.destination) AS destination_schema
     FROM @extschema@.svc_vectorizers v LEFT JOIN pg_roles r ON r.oid = v.owner
     WHERE v.name = $1 AND (v.owner = ${SESSION_ROLE_ID} OR pg_has_role(${SESSION_ROLE}, 'svc_admin', 'MEMBER'))`,
    'text',
  ),
  // The same as the caller sees it (svc_search runs as the caller: row-level security shows its own).
  vectorizerForSearch: q(
    `SELECT v.id, v.name, v.key_columns, v.embedding_type, ${qualifiedRelation('v.destination')} AS destination FROM @extschema@.svc_vectorizers v WHERE v.name = $1`,
    'text',
  ),
  vectorizerEmbedding: q(`SELECT @extschema@.svc_vectorizer_embed($1, $2) AS embedding`, 'text', 'text'),
  // Whether a vectorizer's destination is in schema $1 (then svc_owner keeps its USAGE there).
  destinationInSchema: q(
    `SELECT 1 FROM @extschema@.svc_vectorizers v JOIN pg_class c ON c.oid = v.destination JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 LIMIT 1`,
    'text',
  ),
  vectorizerLock: q(`SELECT 1 FROM @extschema@.svc_vectorizers WHERE id = $1 FOR UPDATE`, 'integer'),
  // Its pending jobs, but those a claim holds now (they run, and write nothing: the vectorizer is gone).
  vectorizerCancelJobs: q(
    `UPDATE @extschema@.svc_queue SET status = 'cancelled', cancelled_at = clock_timestamp(), lease_expires_at = NULL
     WHERE request_id = ANY (ARRAY(
       SELECT l.request_id FROM @extschema@.svc_queue l WHERE l.status = 'pending' AND l.function_name = 'vectorize' AND l.parameters->>'vectorizer' = $1::text
       FOR UPDATE SKIP LOCKED))`,
    'integer',
  ),
  vectorizerDelete: q(`DELETE FROM @extschema@.svc_vectorizers WHERE id = $1`, 'integer'),
  // How many vectorizers role $1 still has here, and whether its proxy ($2) owns or is granted anything in
  // another database (its vectorizers there): the proxy goes with the last of them all.
  vectorizerOwnerLeft: q(
    `SELECT (SELECT count(*) FROM @extschema@.svc_vectorizers WHERE owner = $1) AS others,
            EXISTS (SELECT FROM pg_shdepend d JOIN pg_roles r ON r.oid = d.refobjid
                    WHERE r.rolname = $2 AND d.refclassid = 'pg_authid'::regclass
                      AND d.dbid NOT IN (0, (SELECT oid FROM pg_database WHERE datname = current_database()))) AS elsewhere`,
    'oid', 'text',
  ),

  // --- the prompt registry (prompts.ts): the session role's own prompts only --------------------
  // Version 1 of a new prompt; no row when the role already has one of that name.
  promptInsertFirst: q(
    `INSERT INTO @extschema@.svc_prompts (owner, name, version, template, description, variables, metadata)
     VALUES (${SESSION_ROLE_ID}, $1, 1, $2, $3, $4, coalesce($5, '{}'))
     ON CONFLICT ON CONSTRAINT svc_prompts_pkey DO NOTHING RETURNING version`,
    'text', 'text', 'text', 'text[]', 'jsonb',
  ),
  // Serializes the updates of one prompt on its first version's row, so each reads the latest version
  // after the one before it committed (read committed: the next statement's snapshot is taken after
  // the lock). A row lock, not an advisory one: no other role can take it (FOR UPDATE needs UPDATE on
  // svc_prompts, and row-level security hides the row).
  promptLock: q(`SELECT p.version FROM @extschema@.svc_prompts p WHERE p.owner = ${SESSION_ROLE_ID} AND p.name = $1 ORDER BY p.version LIMIT 1 FOR UPDATE`, 'text'),
  // The next version, its description and metadata the latest's unless given; no row when there is no such prompt.
  promptInsertNext: q(
    `INSERT INTO @extschema@.svc_prompts (owner, name, version, template, description, variables, metadata)
     SELECT p.owner, p.name, p.version + 1, $2, coalesce($3, p.description), $4, coalesce($5, p.metadata) FROM @extschema@.svc_prompts p
     WHERE p.owner = ${SESSION_ROLE_ID} AND p.name = $1 ORDER BY p.version DESC LIMIT 1
     RETURNING version`,
    'text', 'text', 'text', 'text[]', 'jsonb',
  ),
  // Version $2 of the prompt, or its latest when $2 is NULL.
  promptVersion: q(
    `SELECT p.version, p.template FROM @extschema@.svc_prompts p WHERE p.owner = ${SESSION_ROLE_ID} AND p.name = $1 AND ($2::integer IS NULL OR p.version = $2)
     ORDER BY p.version DESC LIMIT 1`,
    'text', 'integer',
  ),
  promptLatestVersion: q(`SELECT max(p.version) AS version FROM @extschema@.svc_prompts p WHERE p.owner = ${SESSION_ROLE_ID} AND p.name = $1`, 'text'),
} as const;

/**
 * Statements run in the autonomous session (as svc_sync, search_path pg_catalog and pg_temp): each
 * names svc's schema (`schema`, quoted). dblink takes no parameters, so arguments go in as literals
 * quoted by sql-text.ts's quoteLiteral (a JSON document, a UUID, a token) or integers. Each returns
 * one text column (svc__sync_dblink hands back rows of one type): JSON, or a number.
 */
export const REMOTE = {
  submit: (schema: string, quotedPayload: string) =>
    `SELECT pg_catalog.array_to_json(${schema}.svc__sync_submit(${quotedPayload}::pg_catalog.jsonb))::pg_catalog.text`,
  state: (schema: string, quotedIds: string, quotedToken: string) =>
    `SELECT pg_catalog.row_to_json(s)::pg_catalog.text FROM ${schema}.svc__sync_state(${quotedIds}::pg_catalog.uuid[], ${quotedToken}::pg_catalog.text) s`,
  cancel: (schema: string, quotedIds: string, quotedToken: string) =>
    `SELECT ${schema}.svc__sync_cancel(${quotedIds}::pg_catalog.uuid[], ${quotedToken}::pg_catalog.text)::pg_catalog.text`,
} as const;
