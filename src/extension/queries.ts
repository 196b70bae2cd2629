// Every SQL statement svc's functions run, in one place. `$n` parameters only: no statement is ever
// built from input strings. Statements run from TypeScript name their parameter types so plans are
// prepared once per session; SQL-language functions of the catalog take their bodies from here too.

import { SETTINGS } from './settings-catalog.js';

export interface Query {
  readonly sql: string;
  readonly types: readonly string[];
}

const q = (sql: string, ...types: string[]): Query => ({ sql, types });

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** PL/pgSQL statements that reject a NULL argument ($1, $2, … named `params` in order) with 22004. */
const rejectNull = (fn: string, ...params: string[]) => params
  .map((name, i) => `  IF $${i + 1} IS NULL THEN\n    RAISE EXCEPTION ${literal(`${fn}: ${name} must not be NULL`)} USING ERRCODE = '22004';\n  END IF;`)
  .join('\n');

/** A setting's value, or its default (settings-catalog.ts) when unset or empty, as SQL of `type`. */
const settingOrDefault = (name: keyof typeof SETTINGS, type: string) =>
  `coalesce(nullif(current_setting('${name}', true), ''), ${literal(SETTINGS[name].default ?? '')})::${type}`;

/**
 * The role a session acts as: SET ROLE's role, else the login role. A request belongs to it. The
 * submitters are SECURITY DEFINER (only they write svc_queue), where current_user is the extension's
 * owner; the `role` setting and session_user keep the caller's, and PostgreSQL lets a session set
 * `role` only to a role its login role is a member of, so nobody can submit as another role.
 */
const SESSION_ROLE = `(CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END)`;

/**
 * The first key of the advisory locks (two-key form) that synchronous calls hold while they wait,
 * 'svcw'; the second key is the session's, stored in the request's `waiter` column. Transaction
 * locks: a cancel, a timeout, an error or a lost connection ends the transaction and frees the lock,
 * and the next claim then cancels the request instead of running it for nobody (ABANDONED_SWEEP).
 */
export const SYNC_WAITER_LOCK = 0x73766377;

/**
 * The svc_completed payload of a queue row (DESIGN.md), for every completion and final failure: the
 * `function` field maps the queue function (constrained and batch generation count as generate).
 */
const completedPayload = (statusExpr: string) =>
  `json_build_object('request_id', request_id, 'function', CASE function_name WHEN 'embed' THEN 'embed' WHEN 'rerank' THEN 'rerank' ELSE 'generate' END, 'status', ${statusExpr})::text`;

// What a capacity check reads (submit.ts's Capacity), from the view svc__queue_depth_bound joined as
// `b` (see queue-bound.sql) and the setting.
const CAPACITY_COLUMNS = `b.depth AS bound, current_setting('svc.max_queue_size', true) AS max_queue_size`;

// The capacity figures are read in the statement's snapshot, so without the new row; the notification
// is delivered at commit, and dropped with the row should the capacity check or anything else fail.
const insertOneJob = (forWaiter: boolean): Query => q(
  `WITH job AS (
     INSERT INTO svc_queue (function_name, parameters, grammar, priority, owner${forWaiter ? ', waiter' : ''})
     VALUES ($1, $2, $3, $4, ${forWaiter ? '$5, $6' : SESSION_ROLE}) RETURNING request_id
   )
   SELECT job.request_id, pg_notify('svc_jobs', $1), ${CAPACITY_COLUMNS}
   FROM job, svc__queue_depth_bound b`,
  'text', 'jsonb', 'text', 'integer', ...(forWaiter ? ['name', 'integer'] : []),
);

export const QUERIES = {
  setting: q(`SELECT current_setting($1, true) AS value`, 'text'),
  promptSettings: q(`SELECT current_setting('svc.prompt_format', true) AS prompt_format, current_setting('svc.system_prompt', true) AS system_prompt`),
  intervalSeconds: q(`SELECT extract(epoch FROM $1::interval)::float8 AS seconds`, 'text'),

  queueDepth: q(`SELECT svc__queue_depth() AS depth`),
  capacity: q(`SELECT ${CAPACITY_COLUMNS} FROM svc__queue_depth_bound b`),

  // One request (owned by the session's role; svc__enqueue_as names the owner and the waiter), the workers' wakeup and
  // the capacity figures in one statement: one SPI call per submission.
  insertJob: insertOneJob(false),
  insertJobAs: insertOneJob(true),

  // One row per element of $2 (a JSON array of parameter objects), all in one new batch; ids come
  // back with their 1-based position so the caller can return them in input order.
  insertBatch: q(
    `WITH batch AS (SELECT gen_random_uuid() AS id)
     INSERT INTO svc_queue (function_name, parameters, grammar, priority, batch_id, batch_index, owner)
     SELECT $1, t.item, $3, $4, batch.id, t.ord, ${SESSION_ROLE}
     FROM batch, jsonb_array_elements($2) WITH ORDINALITY AS t(item, ord)
     ORDER BY t.ord
     RETURNING request_id, batch_index`,
    'text', 'jsonb', 'text', 'integer',
  ),

  notifyWorkers: q(`SELECT pg_notify('svc_jobs', $1)`, 'text'),

  // uncommitted: submitted by this very transaction, so no worker can see it before it commits.
  jobState: q(
    `SELECT status, result, error, submitted_xact = pg_current_xact_id_if_assigned() AS uncommitted
     FROM svc_queue WHERE request_id = $1`,
    'uuid',
  ),

  sleep: q(`SELECT pg_sleep($1)`, 'float8'),

  // --- the result cache -----------------------------------------------------------------------
  // A hit bumps the entry's frecency; hits and misses are counted (svc_cache_stats).
  cacheGet: q(`SELECT svc_worker_cache_get($1, svc__current_model()) AS result`, 'text'),

  // --- synchronous calls: an autonomous connection back to this database (dblink) --------------
  sessionRole: q(`SELECT ${SESSION_ROLE}::text AS name`),
  syncConnected: q(`SELECT 'svc_sync' = ANY (coalesce(dblink_get_connections(), '{}')) AS connected`),
  syncConnect: q(`SELECT dblink_connect_u('svc_sync', svc__sync_conninfo())`),
  syncDisconnect: q(`SELECT dblink_disconnect('svc_sync')`),
  // $1 is one of REMOTE's statements, with its arguments as quoted literals (dblink takes no parameters).
  syncEnqueue: q(`SELECT request_id FROM dblink('svc_sync', $1) AS t(request_id uuid)`, 'text'),
  syncState: q(`SELECT status, result, error FROM dblink('svc_sync', $1) AS t(status text, result text, error text)`, 'text'),
  syncCancel: q(`SELECT ok FROM dblink('svc_sync', $1) AS t(ok boolean)`, 'text'),
  // true when this transaction holds (or now takes) the waiter lock with this key; false when another
  // session holds it.
  waiterLock: q(`SELECT pg_try_advisory_xact_lock(${SYNC_WAITER_LOCK}, $1) AS locked`, 'integer'),
  workersSummary: q(
    `SELECT count(*) FILTER (WHERE state = 'running' AND last_heartbeat > clock_timestamp() - interval '1 minute') AS live,
            count(*) AS known,
            (SELECT count(*) FROM svc_queue WHERE status = 'pending') AS pending
     FROM svc_workers`,
  ),

  // Only the owner cancels. $2 is 'pending': a parameter, not a literal, so that the plan (generic,
  // made once) cannot take svc_queue_claim_idx for this lookup by id (see BY_ID_STATUS).
  cancel: q(
    `UPDATE svc_queue SET status = 'cancelled', cancelled_at = now()
     WHERE request_id = $1 AND status = $2 AND owner = ${SESSION_ROLE} RETURNING request_id`,
    'uuid', 'text',
  ),
} as const;

/**
 * Statements run in the autonomous (dblink) session. dblink takes no parameters, so arguments go in
 * as literals quoted by plv8.quote_literal: a JSON document or a UUID, never raw input.
 */
export const REMOTE = {
  enqueue: (quotedPayload: string) => `SELECT svc__enqueue_as(${quotedPayload}::jsonb)`,
  state: (quotedId: string) => `SELECT status, result, error FROM svc_queue WHERE request_id = ${quotedId}::uuid`,
  // The autonomous session runs as the extension's owner, for the caller's request.
  cancel: (quotedId: string) =>
    `UPDATE svc_queue SET status = 'cancelled', cancelled_at = now(), waiter = NULL WHERE request_id = ${quotedId}::uuid AND status = 'pending' RETURNING true`,
} as const;

// The two halves of a claim, shared by svc_worker_claim and svc_worker_complete_and_claim (the
// parameters are the functions' positional ones). Both are PL/pgSQL bodies with a variable now_
// (timestamptz) and announced (integer) declared, under #variable_conflict use_column.
//
// The sweep: expired leases go back to pending with a retry counted (or fail when retries are
// spent, announced on svc_completed). It runs only when the probe finds an expired lease.
//
// Each statement is written so that one index alone serves its order (the plans are generic, made
// whatever the table held then; see workerClaim): the probe reads the earliest lease, the first entry
// of svc_queue_lease_idx. (An EXISTS over status and lease looks as cheap, on an empty table, through
// svc_queue_active_idx, and then filters every active row on each call; min() may be planned as an
// aggregate over every lease.)
const leaseSweep = (maxRetries: string) => `  IF (SELECT e.lease_expires_at FROM svc_queue e WHERE e.status = 'processing' ORDER BY e.lease_expires_at LIMIT 1) < now_ THEN
    WITH requeued AS (
      UPDATE svc_queue q SET
        status = CASE WHEN q.retry_count < ${maxRetries} THEN 'pending' ELSE 'failed' END,
        retry_count = CASE WHEN q.retry_count < ${maxRetries} THEN q.retry_count + 1 ELSE q.retry_count END,
        run_after = clock_timestamp() + svc__backoff(q.retry_count),
        failed_at = CASE WHEN q.retry_count < ${maxRetries} THEN NULL ELSE clock_timestamp() END,
        error = 'lease expired: worker ' || coalesce(q.worker_id, '?') || ' stopped renewing it',
        lease_expires_at = NULL, worker_id = NULL
      WHERE q.request_id = ANY (ARRAY(
        SELECT e.request_id FROM svc_queue e
        WHERE e.status = 'processing' AND e.lease_expires_at < now_
        ORDER BY e.lease_expires_at
        FOR UPDATE SKIP LOCKED))
      RETURNING q.request_id, q.function_name, q.status
    )
    SELECT count(pg_notify('svc_completed', ${completedPayload("'failed'")})) INTO announced
    FROM requeued WHERE status = 'failed';
    now_ := clock_timestamp(); -- requeued jobs whose backoff is zero may be claimed right away
  END IF;`;

// Synchronous requests whose caller stopped waiting (its transaction ended, freeing its waiter lock)
// are cancelled before the claim rather than run for nobody. Taking the lock here succeeds only when
// no session holds it; this transaction then holds it until it commits, which harms nobody. The
// status is compared with a variable (pending_, declared by the claims) so that only
// svc_queue_waiter_idx, through its IS NOT NULL condition, serves this scan (see BY_ID_STATUS).
const ABANDONED_SWEEP = `  UPDATE svc_queue w SET status = 'cancelled', cancelled_at = now_, waiter = NULL
  WHERE w.waiter IS NOT NULL AND w.status = pending_ AND pg_try_advisory_xact_lock(${SYNC_WAITER_LOCK}, w.waiter);`;
const PENDING_VARIABLE = `  pending_ text := 'pending'; -- see ABANDONED_SWEEP in queries.ts`;

// The claim: up to `limit` pending jobs, highest priority first, then oldest, in that order;
// `lead` is a select-list prefix (e.g. a flag column) for functions returning more than the job.
const claimStatement = (lead: string, workerId: string, limit: string, leaseSeconds: string) => `  WITH claimed AS (
    UPDATE svc_queue q SET
      status = 'processing', started_at = now_, attempt = q.attempt + 1,
      worker_id = ${workerId}, lease_expires_at = now_ + make_interval(secs => ${leaseSeconds})
    WHERE q.request_id = ANY (ARRAY(
      SELECT p.request_id FROM svc_queue p
      WHERE p.status = 'pending' AND p.run_after <= now_
      ORDER BY p.priority DESC, p.seq
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED))
    RETURNING q.request_id, q.function_name, q.parameters, q.grammar, q.attempt, q.retry_count, q.priority, q.seq
  )
  SELECT ${lead}c.request_id, c.function_name, c.parameters, c.grammar, c.attempt, c.retry_count, c.priority
  FROM claimed c ORDER BY c.priority DESC, c.seq`;

// Statements that look a request up by id and check its status compare the status with a variable
// rather than a literal. Their plans are generic, made once: with status = 'processing' the
// lease index's predicate is implied, so the planner may take that index (tied with the primary key
// on an empty table) and filter every processing row on request_id, call after call.
const BY_ID_STATUS = `  processing_ text := 'processing'; -- see BY_ID_STATUS in queries.ts`;

// The completion: store the results of the listed attempts and announce each on svc_completed. An
// attempt that is no longer processing under that number (its lease expired and the job was taken
// again, or it was already completed) matches nothing and is refused. The arrays are matched by
// position; `= ANY (ids)` keeps the lookup on the primary key whatever plan is chosen. Assigns
// `dropped` (uuid[]: the ids given whose completion was refused) and `announced`, using `stored`
// (uuid[]) on the way: declare all three (COMPLETE_VARIABLES). Usually every completion is stored,
// and only otherwise is the list of refused ids built (a quarter of a busy worker's call, measured).
const COMPLETE_VARIABLES = `  dropped uuid[];
  stored uuid[];
  announced integer;`;
const completeStatement = (ids: string, attempts: string, results: string) => `  WITH done AS (
    UPDATE svc_queue q SET
      status = 'completed', result = (${results})[array_position(${ids}, q.request_id)], error = NULL,
      completed_at = clock_timestamp(), lease_expires_at = NULL, waiter = NULL
    WHERE q.request_id = ANY (${ids}) AND q.status = processing_
      AND q.attempt = (${attempts})[array_position(${ids}, q.request_id)]
    RETURNING q.request_id, q.function_name
  )
  SELECT array_agg(request_id), count(pg_notify('svc_completed', ${completedPayload("'completed'")}))
  INTO stored, announced FROM done;
  IF announced = cardinality(${ids}) THEN
    dropped := '{}';
  ELSE
    dropped := ARRAY(SELECT given.id FROM unnest(${ids}) AS given(id) WHERE NOT given.id = ANY (coalesce(stored, '{}')));
  END IF;`;

/** Bodies of the SQL-language functions in the catalog. */
export const SQL_BODIES = {
  checkAsync: `
#variable_conflict use_column
BEGIN
${rejectNull('svc_check_async', 'request_id')}
  RETURN QUERY
    SELECT status, result, error, created_at::timestamp, started_at::timestamp, completed_at::timestamp, priority
    FROM svc_queue WHERE request_id = $1;
END`,

  // One row per id given, in that order; an id that is unknown or not yours gives a row of NULLs
  // beside it, so results line up with the input.
  checkAsyncBatch: `
#variable_conflict use_column
BEGIN
${rejectNull('svc_check_async_batch', 'request_ids')}
  RETURN QUERY
    SELECT ids.id, q.status, q.result, q.error, q.created_at::timestamp, q.completed_at::timestamp
    FROM unnest($1) WITH ORDINALITY AS ids(id, ord)
    LEFT JOIN svc_queue q ON q.request_id = ids.id
    ORDER BY ids.ord;
END`,

  // PL/pgSQL so its plans are kept for the session: as an SQL function (SECURITY DEFINER, SET
  // search_path, so never inlined) each call from a plv8 plan parsed and planned the body again.
  queueDepth: `
BEGIN
  RETURN (SELECT count(*) FROM svc_queue WHERE status = 'pending') + (SELECT count(*) FROM svc_queue WHERE status = 'processing');
END`,

  // The model whose answers the cache serves: the one the most recently heard-from live worker runs.
  currentModel: `
    SELECT model FROM svc_workers
    WHERE state = 'running' AND model IS NOT NULL AND last_heartbeat > clock_timestamp() - interval '1 minute'
    ORDER BY last_heartbeat DESC LIMIT 1`,

  // svc.sync_connection, or this server's first unix socket as the extension's owner (libpq quoting).
  syncConninfo: `
    SELECT coalesce(nullif(current_setting('svc.sync_connection', true), ''),
      format('dbname=%s user=%s port=%s host=%s',
        svc__conninfo_quote(current_database()), svc__conninfo_quote(current_user), current_setting('port'),
        svc__conninfo_quote(coalesce(nullif(trim(split_part(current_setting('unix_socket_directories'), ',', 1)), ''), 'localhost'))))`,

  conninfoQuote: `SELECT '''' || replace(replace($1, '\\', '\\\\'), '''', '\\''') || ''''`,

  cacheGet: `
    WITH hit AS (
      UPDATE svc_cache SET hits = hits + 1, last_hit_at = clock_timestamp()
      WHERE cache_key = encode(sha256(convert_to($1, 'UTF8')), 'hex') AND model = $2
      RETURNING result
    )
    SELECT result FROM (SELECT (SELECT result FROM hit) AS result) AS r
    WHERE CASE WHEN result IS NULL THEN nextval('svc_cache_misses') ELSE nextval('svc_cache_hits') END > 0`,

  // Store, then evict the lowest-frecency entries beyond svc.cache_size (default 10000).
  cachePut: `
    INSERT INTO svc_cache (cache_key, model, function_name, result)
    VALUES (encode(sha256(convert_to($1, 'UTF8')), 'hex'), $2, $3, $4)
    ON CONFLICT (cache_key, model) DO NOTHING;

    DELETE FROM svc_cache WHERE (cache_key, model) IN (
      SELECT cache_key, model FROM svc_cache
      ORDER BY (hits + 1) / (extract(epoch FROM clock_timestamp() - last_hit_at) + 3600)
      LIMIT greatest(0, (SELECT count(*) FROM svc_cache)
        - ${settingOrDefault('svc.cache_size', 'bigint')}))`,

  cacheStats: `
    SELECT entries, hits, misses, CASE WHEN hits + misses > 0 THEN hits::float8 / (hits + misses) END, max_entries
    FROM (
      SELECT (SELECT count(*) FROM svc_cache) AS entries,
        h.last_value - CASE WHEN h.is_called THEN 0 ELSE 1 END AS hits,
        m.last_value - CASE WHEN m.is_called THEN 0 ELSE 1 END AS misses,
        ${settingOrDefault('svc.cache_size', 'bigint')} AS max_entries
      FROM svc_cache_hits h, svc_cache_misses m
    ) AS s`,

  cacheClear: `
    WITH removed AS (DELETE FROM svc_cache RETURNING 1)
    SELECT count(*) FROM removed
    WHERE setval('svc_cache_hits', 1, false) > 0 AND setval('svc_cache_misses', 1, false) > 0`,

  // The worker protocol is PL/pgSQL, whose plans are kept for the session: after five calls each
  // statement runs on a generic plan, built from the table's size at that moment. A worker polling an
  // idle queue (one just truncated, or vacuumed to zero pages) would fix plans that sequential-scan
  // svc_queue and sort it, cheapest on an empty table, and keep them when thousands of jobs arrive
  // (2-3 ms per claim with 5,000 rows, growing with the finished rows kept for svc_cleanup). Planning
  // every call costs 50-80 µs per statement instead. So these functions always run generic plans,
  // with sequential and bitmap scans disabled (the catalog's INDEX_PLANS), and each statement is
  // written so that one index alone serves it: ids through the primary key, the claim order only
  // from svc_queue_claim_idx, the earliest lease only from svc_queue_lease_idx. Their plan is then
  // the same whatever the table held when it was made.
  //
  // Claim: expired leases go back to pending with a retry counted (or fail when retries are spent,
  // announced on svc_completed); then up to max_jobs pending jobs are claimed, highest priority
  // first, then oldest. `now_` is a parameter of each statement, so the lease index can seek on it
  // (clock_timestamp() in a WHERE clause cannot be an index condition); the sweep runs only when the
  // earliest lease has expired, rather than on every claim. (Folding that probe into the claim
  // statement, through a loop over its rows, measured no faster.)
  //
  // A claim commits without waiting for its WAL to reach the disk (synchronous_commit off for its
  // transaction): lost in a crash, it leaves the job as it was (pending, or processing under a lease
  // that expires), a worker's completion of that attempt is then refused or stores the same bytes,
  // and any durable commit after it (a completion) makes it durable too. So a busy worker's claims
  // do not wait on the disk. Not when the transaction had written before the claim, whose writes
  // the caller may want durable, nor when the sweep failed a job for good: that is announced.
  workerClaim: `
#variable_conflict use_column
DECLARE
  now_ timestamptz := clock_timestamp();
  announced integer;
  first_write boolean := pg_current_xact_id_if_assigned() IS NULL;
${PENDING_VARIABLE}
BEGIN
${ABANDONED_SWEEP}
${leaseSweep('$4')}
  IF first_write AND coalesce(announced, 0) = 0 THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  RETURN QUERY
${claimStatement('', '$1', '$2', '$3')};
END`,

  // A completion names the attempt it ran; a late one from a worker whose lease expired (and whose
  // job was claimed again) matches nothing and is refused (false).
  workerComplete: `
#variable_conflict use_column
DECLARE
${BY_ID_STATUS}
${COMPLETE_VARIABLES}
BEGIN
${completeStatement('ARRAY[$1]', 'ARRAY[$2]', 'ARRAY[$3]')}
  RETURN cardinality(dropped) = 0;
END`,

  // Complete, then claim for the slots that freed: one round trip (and one transaction) for a busy
  // worker instead of two per job, and several jobs that finished together complete in one call. The
  // completion is svc_worker_complete's for each (request, attempt, result) of the three arrays; the
  // claim is svc_worker_claim's, for up to claim_jobs jobs (by default one per completion given: the
  // freed slots, whether or not a completion was stored, since the worker no longer runs that job
  // either way). Each row carries the ids whose completion was refused (refused, usually empty: cheap
  // to return on every row); when no job is claimed there is exactly one row, with refused and NULL
  // job columns.
  workerCompleteAndClaim: `
#variable_conflict use_column
DECLARE
${BY_ID_STATUS}
${COMPLETE_VARIABLES}
  now_ timestamptz;
  wanted integer := coalesce($7, cardinality($1));
${PENDING_VARIABLE}
BEGIN
  IF $1 IS NULL OR $2 IS NULL OR $3 IS NULL OR cardinality($1) <> cardinality($2) OR cardinality($1) <> cardinality($3) THEN
    RAISE EXCEPTION 'svc_worker_complete_and_claim: complete_request_ids, complete_attempts and results must be arrays of the same length'
      USING ERRCODE = '22023';
  END IF;
  IF array_position($1, NULL) IS NOT NULL OR array_position($2, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'svc_worker_complete_and_claim: complete_request_ids and complete_attempts must not contain NULL' USING ERRCODE = '22004';
  END IF;
  IF wanted < 0 THEN
    RAISE EXCEPTION 'svc_worker_complete_and_claim: claim_jobs must be at least 0' USING ERRCODE = '22023';
  END IF;
${completeStatement('$1', '$2', '$3')}
  IF wanted > 0 THEN
    now_ := clock_timestamp();
${ABANDONED_SWEEP}
${leaseSweep('$6')}
    RETURN QUERY
${claimStatement('dropped, ', '$4', 'wanted', '$5')};
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  refused := dropped;
  RETURN NEXT;
END`,

  workerFail: `
#variable_conflict use_column
DECLARE
${BY_ID_STATUS}
  new_status text;
  payload text;
BEGIN
  UPDATE svc_queue SET
    status = CASE WHEN retry_count < $4 THEN 'pending' ELSE 'failed' END,
    retry_count = CASE WHEN retry_count < $4 THEN retry_count + 1 ELSE retry_count END,
    run_after = clock_timestamp() + svc__backoff(retry_count),
    failed_at = CASE WHEN retry_count < $4 THEN NULL ELSE clock_timestamp() END,
    error = $3, lease_expires_at = NULL, worker_id = NULL
  WHERE request_id = $1 AND status = processing_ AND attempt = $2
  RETURNING status, ${completedPayload('status')} INTO new_status, payload;
  IF new_status = 'failed' THEN
    PERFORM pg_notify('svc_completed', payload);
  END IF;
  RETURN new_status;
END`,

  workerRenew: `
    WITH renewed AS (
      UPDATE svc_queue SET lease_expires_at = clock_timestamp() + make_interval(secs => $3)
      WHERE request_id = ANY ($2) AND worker_id = $1 AND status = 'processing'
      RETURNING 1
    )
    SELECT count(*)::integer FROM renewed`,

  workerHeartbeat: `
    INSERT INTO svc_workers AS w (worker_id, host, pid, state, concurrency, model, jobs_done, jobs_failed, jobs_in_flight)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
    ON CONFLICT (worker_id) DO UPDATE SET state = excluded.state, concurrency = excluded.concurrency,
      model = excluded.model, jobs_done = excluded.jobs_done, jobs_failed = excluded.jobs_failed,
      jobs_in_flight = excluded.jobs_in_flight, last_heartbeat = clock_timestamp()`,

  backoff: `
    SELECT least(
      ${settingOrDefault('svc.retry_backoff', 'interval')} * power(2, $1),
      interval '5 minutes')`,

  // A stopped worker is listed for 10 minutes after it stopped, a silent one (unresponsive after a
  // minute) for a day; svc_cleanup deletes the rows of workers silent for longer than its retention.
  workerStatus: `
    SELECT worker_id, host, pid,
      CASE WHEN state <> 'stopped' AND last_heartbeat < clock_timestamp() - interval '1 minute' THEN 'unresponsive' ELSE state END,
      started_at, last_heartbeat, jobs_done, jobs_failed, jobs_in_flight, concurrency, model
    FROM svc_workers
    WHERE last_heartbeat > clock_timestamp() - CASE WHEN state = 'stopped' THEN interval '10 minutes' ELSE interval '1 day' END
    ORDER BY started_at, worker_id`,

  queueStats: `
    SELECT function_name, status, count(*),
      clock_timestamp() - min(created_at) FILTER (WHERE status = 'pending'),
      avg(started_at - created_at) FILTER (WHERE started_at IS NOT NULL),
      avg(completed_at - started_at) FILTER (WHERE completed_at IS NOT NULL)
    FROM svc_queue GROUP BY function_name, status ORDER BY function_name, status`,

  // Finished requests, and the rows of workers not heard from, older than the retention.
  cleanup: `
DECLARE
  removed bigint;
BEGIN
${rejectNull('svc_cleanup', 'retention')}
  DELETE FROM svc_workers WHERE last_heartbeat < clock_timestamp() - $1;
  WITH finished AS (
    DELETE FROM svc_queue
    WHERE status IN ('completed', 'failed', 'cancelled')
      AND coalesce(completed_at, failed_at, cancelled_at) < clock_timestamp() - $1
    RETURNING 1
  )
  SELECT count(*) INTO removed FROM finished;
  RETURN removed;
END`,

  settings: `
    SELECT s.name, coalesce(nullif(current_setting(s.name, true), ''), s.default_value), s.default_value, s.meaning
    FROM (VALUES
${Object.entries(SETTINGS).map(([name, { default: d, meaning }]) => `      (${literal(name)}, ${d === null ? 'NULL' : literal(d)}, ${literal(meaning)})`).join(',\n')}
    ) AS s(name, default_value, meaning)
    ORDER BY s.name`,
} as const;
