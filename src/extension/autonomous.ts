// The synchronous functions' autonomous session (docs/security.md): a second session, opened with
// dblink, through which a sync call enqueues so that workers see its requests before the caller's
// transaction ends, and reads them under REPEATABLE READ or SERIALIZABLE.
//
// It logs in as svc_sync, which may only run svc__sync_submit/_state/_cancel, and those act only for one
// waiting call, named by its token: submit for the backend that holds the call's waiter lock and the
// token's lock and whose login role may act as the request's owner, state and cancel on the requests
// submitted with the token (whoever else logs in as svc_sync has no token); it connects
// where an administrator said (svc_set_sync_connection), never where a caller's setting says. The
// connection is kept for the next call only when the caller cannot execute dblink's functions (svc's
// install revokes them from PUBLIC); for a caller who can, each statement opens a session of its own
// that dblink closes when the statement ends, whatever ends it.
import { one, rows } from './db.js';
import { QUERIES, REMOTE } from './queries.js';
import { sqlState, SvcError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import { SYNC_ROLE, parseConninfo, type SyncTarget } from './conninfo.js';
import * as jobs from './jobs.js';
import * as v from './validate.js';
import { enqueueForWaiter } from './submit.js';
import type { JobState } from './results.js';
import { quoteLiteral } from './sql-text.js';

/** Waiting callers go before queued async work. */
const SYNC_PRIORITY = 100;

// This session's waiter-lock key and sync token, with their locks taken again by every call:
// re-entrant within a transaction (one lock each per transaction, however many calls), and replaced
// when another session holds the same key. The token lives here, in the owner's plv8 context (no
// other role's code reaches it), and in the statements of the autonomous session, which runs with
// track_activities off (sql/svc__sync_dblink.sql) so that no other session of svc_sync's reads them.
let waiterKey = 0;
let syncToken = '';

/** What a waiting call names itself by: its waiter key (in its rows, for the claim) and its token. */
export interface Waiter {
  key: number;
  token: string;
}

export function holdWaiterLock(): Waiter {
  while (waiterKey === 0 || !one<{ locked: boolean }>(QUERIES.waiterLock, waiterKey)!.locked) {
    waiterKey = (Math.random() * 0x100000000) | 0;
  }
  while (syncToken === '' || !one<{ locked: boolean }>(QUERIES.tokenLock, syncToken)!.locked) {
    syncToken = one<{ token: string }>(QUERIES.syncToken)!.token;
  }
  return { key: waiterKey, token: syncToken };
}

export interface SyncContext {
  owner: string;
  /** The session's role's oid, which its requests belong to. */
  owner_id: string;
  pid: number;
  isolation: string;
  target: SyncTarget | null;
  dblink_reachable: boolean;
  schema: string;
}

/**
 * An autonomous session: the kept connection (`keep`), or one of its own per statement, named
 * `applicationName`. `target` is where the administrator said it connects (svc_config).
 */
export interface Session {
  fn: string;
  target: SyncTarget;
  applicationName: string;
  schema: string;
  keep: boolean;
}

// The target (as JSON) the kept connection ('svc_sync') was opened for; null: none is open.
let keptTarget: string | null = null;

/**
 * svc__sync_dblink, svc's one door to dblink (superuser-owned: svc_owner may not open a connection
 * without a password), which builds every connection string itself: always svc_sync to this
 * database with svc's options (sql/svc__sync_dblink.sql). Each row is the one text column of a
 * statement's row.
 */
function dblink(action: 'connect' | 'disconnect' | 'run' | 'run_once' | 'describe', target: SyncTarget | null, applicationName: string | null, statement: string | null): string[] {
  return rows<{ r: string }>(QUERIES.syncDblink, action, target, applicationName, statement).map((row) => row.r);
}

function dropKept(): void {
  if (keptTarget === null) return;
  keptTarget = null;
  try { dblink('disconnect', null, null, null); } catch { /* already gone */ }
}

function connectKept(fn: string, target: SyncTarget): void {
  try {
    dblink('connect', target, null, null);
  } catch (error) {
    // A connection named svc_sync this context did not know of (its state was reset): replace it.
    if (sqlState(error) !== SQLSTATE.duplicate_object) throw connectionError(fn, error);
    dblink('disconnect', null, null, null);
    try { dblink('connect', target, null, null); } catch (again) { throw connectionError(fn, again); }
  }
  keptTarget = JSON.stringify(target);
}

function connectionError(fn: string, error: unknown): SvcError {
  const e = error as { message?: string; detail?: string };
  return new SvcError(SQLSTATE.sqlclient_unable_to_establish_sqlconnection, `${fn}: the autonomous session could not log in as ${SYNC_ROLE}: ${(e.detail ?? e.message ?? String(error)).trim()}`, {
    hint: `pg_hba.conf must let this server log in as ${SYNC_ROLE} (e.g. "local all ${SYNC_ROLE} peer map=${SYNC_ROLE}" with pg_ident.conf "${SYNC_ROLE} postgres ${SYNC_ROLE}"), `
      + 'or an administrator sets where it connects with svc_set_sync_connection(); see docs/security.md. The _async functions need no autonomous session.',
  });
}

/** The session this call enqueues through: the kept connection, (re)opened when needed, or a one-shot one. */
export function openSession(fn: string, ctx: SyncContext): Session {
  const role = one<{ powerless: boolean }>(QUERIES.syncRole, SYNC_ROLE);
  if (!role) throw new SvcError(SQLSTATE.sqlclient_unable_to_establish_sqlconnection, `${fn}: role ${SYNC_ROLE} does not exist`, { hint: 'Reinstall svc (DROP EXTENSION svc; CREATE EXTENSION svc) to create it.' });
  if (!role.powerless) {
    throw new SvcError(SQLSTATE.sqlclient_unable_to_establish_sqlconnection, `${fn}: role ${SYNC_ROLE} must be a LOGIN role with no other attribute and no membership`, {
      detail: 'The synchronous functions\' autonomous session logs in as it; it must not be able to do more than svc grants it.',
      hint: `ALTER ROLE ${SYNC_ROLE} NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS, and revoke its memberships.`,
    });
  }
  const target = ctx.target ?? {};
  if (ctx.dblink_reachable) {
    // This caller could reach a kept connection through dblink: one that closes with the statement.
    dropKept();
    const token = one<{ token: string }>(QUERIES.randomToken)!.token;
    return { fn, target, applicationName: `${SYNC_ROLE}_${token}`, schema: ctx.schema, keep: false };
  }
  if (keptTarget !== JSON.stringify(target)) {
    dropKept();
    connectKept(fn, target);
  }
  return { fn, target, applicationName: SYNC_ROLE, schema: ctx.schema, keep: true };
}

/** Runs a statement in the autonomous session (its rows' one text column); a kept connection that was lost is opened again, once. */
function remote(session: Session, statement: string): string[] {
  for (let attempt = 0; ; attempt++) {
    try {
      return session.keep ? dblink('run', null, null, statement) : dblink('run_once', session.target, session.applicationName, statement);
    } catch (error) {
      const code = sqlState(error);
      if (!code.startsWith('08')) throw error;
      if (!session.keep || attempt > 0) throw connectionError(session.fn, error);
      dropKept();
      connectKept(session.fn, session.target);
    }
  }
}

/** The caller's session as a sync call needs it (one statement). */
export const syncContext = (): SyncContext => one<SyncContext>(QUERIES.syncContext)!;

/** A literal uuid[] of ids that came from svc_queue (UUIDs: nothing to escape but the quotes). */
const quotedIds = (ids: readonly string[]) => quoteLiteral(`{${ids.join(',')}}`);

/**
 * Enqueues a sync call's requests (one function, one constraint) for the caller through the session:
 * their ids, in order. The caller's queue bound applies: the session does not see its SETs.
 */
export function submitRemote(session: Session, ctx: SyncContext, waiter: Waiter, functionName: string, parameters: object[], maxQueueSize: number): string[] {
  const payload = JSON.stringify({
    caller: session.fn, function_name: functionName, requests: parameters, owner_id: ctx.owner_id, pid: ctx.pid, waiter: waiter.key, token: waiter.token, max_queue_size: maxQueueSize,
  });
  return JSON.parse(remote(session, REMOTE.submit(session.schema, quoteLiteral(payload)))[0]) as string[];
}

/** The states of the caller's requests, read in the session (by id; an id missing is gone). */
export function readRemote(session: Session, waiter: Waiter, ids: readonly string[]): Map<string, JobState> {
  const states = remote(session, REMOTE.state(session.schema, quotedIds(ids), quoteLiteral(waiter.token))).map((row) => JSON.parse(row) as JobState & { request_id: string });
  return new Map(states.map((s) => [s.request_id, s]));
}

/** Cancels those of the caller's requests that are still pending; an error doing so must not hide the one that ended the wait. */
export function cancelRemoteQuietly(session: Session, waiter: Waiter, ids: readonly string[]): void {
  if (ids.length === 0) return;
  try {
    remote(session, REMOTE.cancel(session.schema, quotedIds(ids), quoteLiteral(waiter.token)));
  } catch {
    // the autonomous session is gone: the requests stay as they are, and the next claim cancels them
  }
}

/**
 * svc__sync_submit: runs in the autonomous session (as svc_sync; the function as svc's owner,
 * svc_owner) for a sync function (payload.caller, which errors name). It trusts nothing it is given:
 * backend payload.pid must hold the waiter lock and the lock of payload.token (so whoever submits
 * knows the token that backend holds), its login role must be able to act as the role of oid payload.owner_id, and each
 * request is checked and its constraint compiled again (once: the requests of a call share it).
 */
export function syncSubmit(payload: unknown): string[] {
  const { caller, function_name, requests, owner_id: ownerId, pid, waiter, token, max_queue_size } = (payload ?? {}) as Record<string, unknown>;
  const fn = typeof caller === 'string' && /^svc_[a-z_]+$/.test(caller) ? caller : 'svc__sync_submit';
  if (typeof ownerId !== 'string' || !/^[1-9][0-9]{0,9}$/.test(ownerId)) throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: payload.owner_id must be a role's oid`);
  if (typeof token !== 'string' || !/^[0-9a-f]{64}$/.test(token)) throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: payload.token must be 64 hexadecimal digits`);
  for (const [name, value] of [['pid', pid], ['waiter', waiter], ['max_queue_size', max_queue_size]] as const) {
    if (!Number.isInteger(value)) throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: payload.${name} must be an integer`);
  }
  if (!one<{ ok: boolean }>(QUERIES.syncWaiterMayActAs, pid, waiter, token, ownerId)?.ok) {
    throw new SvcError(SQLSTATE.insufficient_privilege, `${fn}: no backend ${String(pid)} of this database waits with lock ${String(waiter)} and this token as a role that may act as role oid ${ownerId}`);
  }
  if (!Array.isArray(requests) || requests.length === 0) throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: payload.requests must be a non-empty array`);
  const prepared = requests.map((parameters) => jobs.prepareFromParameters(fn, function_name, parameters));
  if (prepared.some((job) => job.grammar !== prepared[0].grammar)) throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: payload.requests must share one constraint`);
  return enqueueForWaiter(fn, prepared[0].functionName, prepared.map((job) => job.parameters), prepared[0].grammar, SYNC_PRIORITY, {
    ownerId,
    waiter: waiter as number,
    token,
    maxQueueSize: max_queue_size as number,
  });
}

/**
 * svc_set_sync_connection (svc_admin): where the autonomous session connects, as libpq keyword/value
 * pairs of conninfo.ts's TARGET_KEYWORDS; empty: this server's first unix socket. Returns the
 * connection string svc will use, its password masked. This session's kept connection is closed.
 */
export function setSyncConnection(conninfo: unknown): string {
  const fn = 'svc_set_sync_connection';
  const text = v.text(fn, 'conninfo', conninfo, { allowEmpty: true, maxChars: 10_000 });
  const target = text.trim() === '' ? null : parseConninfo(fn, text);
  // Tried before it is kept: a wrong password or host fails here, naming why, and changes nothing.
  try {
    dblink('run_once', target ?? {}, `svc_check_${Date.now()}`, 'SELECT 1::text');
  } catch (error) {
    const reason = connectionError(fn, error);
    throw new SvcError(reason.sqlerrcode, `${reason.message}; the sync connection is unchanged`, { hint: reason.hint });
  }
  if (target === null) one(QUERIES.configDelete, 'sync_connection');
  else one(QUERIES.configPut, 'sync_connection', target);
  dropKept();
  return dblink('describe', target ?? {}, null, null)[0];
}
