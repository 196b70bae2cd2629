// The synchronous functions (svc_generate, svc_embed, svc_generate_json/_regex/_choice, svc_rerank):
// cache first; on a miss the request is enqueued through an autonomous session (dblink) so a worker
// sees it before the caller's transaction ends, and the call waits for it with a deadline.
// They run as the extension's owner (SECURITY DEFINER); the request belongs to the session's role.
//
// The autonomous session is a privilege boundary (docs/security.md): it logs in as svc_sync, which may
// only run svc__sync_submit/_state/_cancel, and those act only for a backend that holds the waiter lock
// and whose login role may act as the request's owner; it connects where an administrator said
// (svc_set_sync_connection), never where a caller's setting says. The connection is kept for the next
// call only when the caller cannot execute dblink's functions (svc's install revokes them from
// PUBLIC); for a caller who can, each statement opens a session of its own that dblink closes when the
// statement ends, whatever ends it.
//
// Nothing is left queued for nobody: settings are checked before anything is enqueued; a wait that
// times out or fails cancels the request; and a caller that stops waiting for a reason its JavaScript
// cannot catch (a statement cancel or timeout, a lost connection) frees the waiter lock it holds, so
// the next claim cancels the request if it has not started (SYNC_WAITER_LOCK in queries.ts).
import { one, rows } from './db.js';
import { QUERIES, REMOTE } from './queries.js';
import { SvcError, SQLSTATE } from './errors.js';
import { integerSetting, intervalSetting } from './settings.js';
import { cacheIdentity } from './cache-key.js';
import { SYNC_ROLE, describeTarget, parseConninfo, syncConninfo, type SyncTarget } from './conninfo.js';
import * as jobs from './jobs.js';
import * as v from './validate.js';
import { enqueueOne } from './submit.js';
import { awaitOutcome, type JobState } from './results.js';

interface Plv8Quote { quote_literal(text: string): string }
declare const plv8: Plv8Quote;

/** Waiting callers go before queued async work. */
const SYNC_PRIORITY = 100;

// This session's waiter-lock key. Taken again by every call: re-entrant within a transaction (one
// lock per transaction, however many calls), and replaced when another session holds the same key.
let waiterKey = 0;

function holdWaiterLock(): number {
  while (waiterKey === 0 || !one<{ locked: boolean }>(QUERIES.waiterLock, waiterKey)!.locked) {
    waiterKey = (Math.random() * 0x100000000) | 0;
  }
  return waiterKey;
}

interface SyncContext {
  owner: string;
  pid: number;
  isolation: string;
  target: SyncTarget | null;
  dblink_reachable: boolean;
  database: string;
  port: string;
  socket_directories: string;
  schema: string;
}

/** An autonomous session: `link` is what dblink takes (the kept connection's name, or a connection string). */
interface Session {
  fn: string;
  link: string;
  schema: string;
  keep: boolean;
}

// The connection string the kept connection ('svc_sync') was opened with; null: none is open.
let keptConninfo: string | null = null;

function dropKept(): void {
  if (keptConninfo === null) return;
  keptConninfo = null;
  try { one(QUERIES.syncDisconnect); } catch { /* already gone */ }
}

function connectionError(fn: string, error: unknown): SvcError {
  const e = error as { message?: string; detail?: string };
  return new SvcError(SQLSTATE.syncConnection, `${fn}: the autonomous session could not log in as ${SYNC_ROLE}: ${(e.detail ?? e.message ?? String(error)).trim()}`, {
    hint: `pg_hba.conf must let this server log in as ${SYNC_ROLE} (e.g. "local all ${SYNC_ROLE} peer map=${SYNC_ROLE}" with pg_ident.conf "${SYNC_ROLE} postgres ${SYNC_ROLE}"), `
      + 'or an administrator sets where it connects with svc_set_sync_connection(); see docs/security.md. The _async functions need no autonomous session.',
  });
}

/** The session this call enqueues through: the kept connection, (re)opened when needed, or a one-shot one. */
function openSession(fn: string, ctx: SyncContext): Session {
  const role = one<{ powerless: boolean }>(QUERIES.syncRole, SYNC_ROLE);
  if (!role) throw new SvcError(SQLSTATE.syncConnection, `${fn}: role ${SYNC_ROLE} does not exist`, { hint: 'Reinstall svc (DROP EXTENSION svc; CREATE EXTENSION svc) to create it.' });
  if (!role.powerless) {
    throw new SvcError(SQLSTATE.syncConnection, `${fn}: role ${SYNC_ROLE} must be a LOGIN role with no other attribute and no membership`, {
      detail: 'The synchronous functions\' autonomous session logs in as it; it must not be able to do more than svc grants it.',
      hint: `ALTER ROLE ${SYNC_ROLE} NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS, and revoke its memberships.`,
    });
  }
  const local = { database: ctx.database, port: ctx.port, socketDirectories: ctx.socket_directories };
  const target = ctx.target ?? {};
  if (ctx.dblink_reachable) {
    // This caller could reach a kept connection through dblink: one that closes with the statement.
    dropKept();
    const token = one<{ token: string }>(QUERIES.randomToken)!.token;
    return { fn, link: syncConninfo(target, local, `${SYNC_ROLE}_${token}`), schema: ctx.schema, keep: false };
  }
  const conninfo = syncConninfo(target, local, SYNC_ROLE);
  if (keptConninfo !== conninfo) {
    dropKept();
    try {
      one(QUERIES.syncConnect, conninfo);
    } catch (error) {
      // A connection named svc_sync this context did not know of (its state was reset): replace it.
      if ((error as { sqlerrcode?: string }).sqlerrcode !== '42710') throw connectionError(fn, error);
      one(QUERIES.syncDisconnect);
      try { one(QUERIES.syncConnect, conninfo); } catch (again) { throw connectionError(fn, again); }
    }
    keptConninfo = conninfo;
  }
  return { fn, link: 'svc_sync', schema: ctx.schema, keep: true };
}

/** Runs a statement in the autonomous session; a kept connection that was lost is opened again, once. */
function remote<T>(session: Session, query: typeof QUERIES.syncState, statement: string): T[] {
  for (let attempt = 0; ; attempt++) {
    try {
      return rows<T>(query, session.link, statement);
    } catch (error) {
      const code = String((error as { sqlerrcode?: string }).sqlerrcode ?? '');
      if (!code.startsWith('08')) throw error;
      if (!session.keep || attempt > 0) throw connectionError(session.fn, error);
      const conninfo = keptConninfo!;
      dropKept();
      try { one(QUERIES.syncConnect, conninfo); } catch (again) { throw connectionError(session.fn, again); }
      keptConninfo = conninfo;
    }
  }
}

/** Who could serve a request for `model`: the live workers, and how many of them serve it. */
function workersSummary(model: string): { text: string; live: number; serving: number } {
  const s = one<{ live: string; serving: string; known: string; pending: string }>(QUERIES.workersSummary, model)!;
  const live = Number(s.live);
  const serving = Number(s.serving);
  const forModel = model === 'default' ? '' : ` for model "${model}"`;
  let text: string;
  if (live === 0) text = Number(s.known) === 0 ? 'no worker has ever connected (start svc-worker)' : 'no worker is running (none sent a heartbeat in the last minute)';
  else if (serving === 0) text = `none of the ${live} running worker(s) serves model "${model}"`;
  else text = `${serving} worker(s) running${forModel}, ${s.pending} request(s) pending${forModel}`;
  return { text, live, serving };
}

/**
 * Waits for the request. Under READ COMMITTED each statement of this call sees what committed before
 * it, so the row is read here; under REPEATABLE READ and SERIALIZABLE this transaction's snapshot
 * would never show the answer, so the autonomous session reads it.
 */
function wait(session: Session, ctx: SyncContext, id: string, quotedId: string, waiter: number, timeout: number, model: string): string {
  const read = ctx.isolation === 'read committed'
    ? () => one<JobState>(QUERIES.jobState, id)
    : () => remote<JobState>(session, QUERIES.syncState, REMOTE.state(session.schema, quotedId, ctx.pid, waiter))[0];
  const result = awaitOutcome(session.fn, id, timeout, 0.02, read, (state) => {
    throw new SvcError(SQLSTATE.timedOut, `${session.fn}: timed out: no result within ${timeout} s (svc.sync_timeout); ${workersSummary(model).text}`, {
      detail: `request ${id} was ${state?.status ?? 'not found'}; it is cancelled if it had not started`,
      hint: 'Start a worker (svc-worker), raise svc.sync_timeout, or use the _async functions.',
    });
  });
  return result ?? '';
}

/** Cancels the request if it is still pending; an error doing so must not hide the one that ended the wait. */
function cancelQuietly(session: Session, quotedId: string, pid: number, waiter: number): void {
  try {
    remote(session, QUERIES.syncCancel, REMOTE.cancel(session.schema, quotedId, pid, waiter));
  } catch {
    // the autonomous session is gone: the request stays as it is, and the next claim cancels it
  }
}

function run(fn: string, job: jobs.PreparedJob): string {
  // The caller's settings, checked before anything is enqueued; its queue bound applies in the
  // autonomous session too, which does not see this session's SETs.
  const timeout = intervalSetting('svc.sync_timeout');
  const maxQueueSize = integerSetting('svc.max_queue_size', 1);
  const identity = cacheIdentity(job.functionName, job.parameters);
  const model = typeof job.parameters.model === 'string' ? job.parameters.model : 'default';
  if (job.parameters.use_cache === true) {
    const hit = one<{ result: string | null }>(QUERIES.cacheGet, identity, model)?.result;
    if (hit !== null && hit !== undefined) return hit;
  }
  // Workers are running but none serves this model: waiting would only time out. (With none running
  // at all the call waits, as one may be starting.)
  const workers = workersSummary(model);
  if (workers.live > 0 && workers.serving === 0) {
    throw new SvcError(SQLSTATE.noWorkerForModel, `${fn}: ${workers.text}`, {
      hint: `Start a worker with --model ${model}=PATH, choose another model (SET svc.model), or use the _async functions: their requests wait for a worker of the model.`,
    });
  }
  const ctx = one<SyncContext>(QUERIES.syncContext)!;
  const waiter = holdWaiterLock();
  const session = openSession(fn, ctx);
  const payload = JSON.stringify({ caller: fn, function_name: job.functionName, parameters: job.parameters, owner: ctx.owner, pid: ctx.pid, waiter, max_queue_size: maxQueueSize });
  const [{ request_id: id }] = remote<{ request_id: string }>(session, QUERIES.syncEnqueue, REMOTE.submit(session.schema, plv8.quote_literal(payload)));
  const quotedId = plv8.quote_literal(id);
  try {
    return wait(session, ctx, id, quotedId, waiter, timeout, model);
  } catch (error) {
    cancelQuietly(session, quotedId, ctx.pid, waiter);
    throw error;
  }
}

export function generate(prompt: unknown, maxTokens: unknown, useCache: unknown, seed: unknown): string {
  return run('svc_generate', jobs.prepareGenerate('svc_generate', prompt, maxTokens, useCache, seed));
}

export function embed(textInput: unknown, useCache: unknown): number[] {
  return JSON.parse(run('svc_embed', jobs.prepareEmbed('svc_embed', textInput, useCache))) as number[];
}

export function generateJson(prompt: unknown, schema: unknown, maxTokens: unknown, useCache: unknown, seed: unknown): string {
  return run('svc_generate_json', jobs.prepareJson('svc_generate_json', prompt, schema, maxTokens, useCache, seed));
}

export function generateRegex(prompt: unknown, pattern: unknown, maxTokens: unknown, useCache: unknown, seed: unknown): string {
  return run('svc_generate_regex', jobs.prepareRegex('svc_generate_regex', prompt, pattern, maxTokens, useCache, seed));
}

export function generateChoice(prompt: unknown, choices: unknown, maxTokens: unknown, useCache: unknown, seed: unknown): string {
  return run('svc_generate_choice', jobs.prepareChoice('svc_generate_choice', prompt, choices, maxTokens, useCache, seed));
}

export function rerank(query: unknown, documents: unknown, task: unknown, useCache: unknown, seed: unknown): Array<{ document: string; score: number }> {
  const ranked = JSON.parse(run('svc_rerank', jobs.prepareRerank('svc_rerank', query, documents, task, useCache, seed))) as Array<{ document: string; score: number }>;
  return ranked.map(({ document, score }) => ({ document, score }));
}

/**
 * svc__sync_submit: runs in the autonomous session (as svc_sync; the function as the extension's
 * owner) for a sync function (payload.caller, which errors name). It trusts nothing it is given: the
 * waiter must hold its lock in backend payload.pid, whose login role may act as payload.owner, and the
 * request is checked and its constraint compiled again.
 */
export function syncSubmit(payload: unknown): string {
  const { caller, function_name, parameters, owner, pid, waiter, max_queue_size } = (payload ?? {}) as Record<string, unknown>;
  const fn = typeof caller === 'string' && /^svc_[a-z_]+$/.test(caller) ? caller : 'svc__sync_submit';
  if (typeof owner !== 'string' || owner === '') throw new SvcError(SQLSTATE.invalidParameterValue, `${fn}: payload.owner must be a role name`);
  for (const [name, value] of [['pid', pid], ['waiter', waiter], ['max_queue_size', max_queue_size]] as const) {
    if (!Number.isInteger(value)) throw new SvcError(SQLSTATE.invalidParameterValue, `${fn}: payload.${name} must be an integer`);
  }
  if (!one<{ ok: boolean }>(QUERIES.syncWaiterMayActAs, pid, waiter, owner)?.ok) {
    throw new SvcError(SQLSTATE.insufficientPrivilege, `${fn}: no backend ${String(pid)} of this database waits with lock ${String(waiter)} as a role that may act as "${owner}"`);
  }
  const job = jobs.prepareFromParameters(fn, function_name, parameters);
  return enqueueOne(fn, QUERIES.insertJobAs, job, SYNC_PRIORITY, { owner, waiter: waiter as number, maxQueueSize: max_queue_size as number });
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
  if (target === null) one(QUERIES.configDelete, 'sync_connection');
  else one(QUERIES.configPut, 'sync_connection', target);
  dropKept();
  const ctx = one<SyncContext>(QUERIES.syncContext)!;
  return describeTarget(target ?? {}, { database: ctx.database, port: ctx.port, socketDirectories: ctx.socket_directories });
}
