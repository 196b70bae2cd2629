// Limits across roles (docs/security.md, "Limits across roles"): the queue's ceiling over all roles,
// and each role's quotas of requests pending or processing and of the bytes those requests store. Only
// svc_admin members set them (svc_set_queue_limits, svc_set_role_limits, into tables no other role
// writes); every submitter checks them (submit.ts), so a session cannot raise them: its
// svc.max_queue_size only lowers its own bound under the ceiling.
import { one } from './db.js';
import { QUERIES } from './queries.js';
import { LIMITS } from './limits.js';
import { SvcError, parameterError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import * as v from './validate.js';
import { integerSetting } from './settings.js';

export interface Limits {
  maxQueueSize: number;
  maxPending: number;
  maxStoredBytes: number;
}

/** What a capacity statement reads about the limits (queries.ts LIMIT_COLUMNS). */
export interface LimitColumns {
  queue_limits: Record<string, unknown> | null; // svc_config 'queue_limits': the ceiling and the roles' defaults
  role_limits: Record<string, unknown> | null; // the role's svc_role_limits row
}

const limitOf = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** The limits that bind a role: its own quotas, else the defaults an administrator set, else LIMITS'. */
export function effectiveLimits(c: LimitColumns): Limits {
  const d = LIMITS.queueDefaults;
  const q = c.queue_limits ?? {};
  const r = c.role_limits ?? {};
  return {
    maxQueueSize: limitOf(q.max_queue_size) ?? d.maxQueueSize,
    maxPending: limitOf(r.max_pending) ?? limitOf(q.max_pending) ?? d.maxPending,
    maxStoredBytes: limitOf(r.max_stored_bytes) ?? limitOf(q.max_stored_bytes) ?? d.maxStoredBytes,
  };
}

/**
 * The session's svc.max_queue_size (`current`: as the caller read it), which may only lower its own
 * bound under the queue's: unset, no bound of its own (the queue's applies).
 */
export function sessionQueueBound(current?: string | null): number {
  const value = current === undefined ? (one<{ value: string | null }>(QUERIES.setting, 'svc.max_queue_size')?.value ?? null) : current;
  return value === null || value.trim() === '' ? Number.MAX_SAFE_INTEGER : integerSetting('svc.max_queue_size', 1, value);
}

/** A role as quotas name it: its oid, which its requests belong to, and its name, for messages. */
export interface Role {
  id: string;
  name: string;
}

interface Usage {
  pending: number;
  bytes: number;
  lastSeq: number;
}

// Per role, this session's last bound of its requests pending or processing and of their bytes, and the
// submission number given out when it was taken. Requests submitted since (by any session) have higher
// numbers, so that bound plus theirs bounds the role's usage now (requests that finished meanwhile only
// make it looser); a submission then reads the role's few newest rows instead of all of them, and counts
// all of them only when the bound passes a limit. Soft as the queue's bound: a request another session
// has not committed yet may be missed until the next full count.
const carried = new Map<string, Usage>(); // by role oid

function usageSince(roleId: string, afterSeq: number): Usage {
  const u = one<{ pending: string | number; bytes: string | number; last_seq: string | number }>(QUERIES.roleUsage, roleId, afterSeq)!;
  return { pending: Number(u.pending), bytes: Number(u.bytes), lastSeq: Number(u.last_seq) };
}

const within = (u: Usage, limits: Limits) => u.pending <= limits.maxPending && u.bytes <= limits.maxStoredBytes;

/**
 * Refuses (53400, as a full queue, rolling back the statement's rows) when `role`'s requests pending or
 * processing, counting the `added` this call has just inserted, pass its quotas.
 */
export function checkRoleQuota(fn: string, role: Role, limits: Limits, added: number): void {
  const c = carried.get(role.id);
  if (c !== undefined) {
    const fresh = usageSince(role.id, c.lastSeq);
    const bound = { pending: c.pending + fresh.pending, bytes: c.bytes + fresh.bytes, lastSeq: Math.max(c.lastSeq, fresh.lastSeq) };
    if (within(bound, limits)) {
      carried.set(role.id, bound);
      return;
    }
  }
  const exact = usageSince(role.id, 0);
  carried.set(role.id, exact);
  if (within(exact, limits)) return;
  const hint = 'Wait for your requests to finish or cancel some (svc_cancel_async); an svc_admin member sets the quotas (svc_set_role_limits).';
  if (exact.pending > limits.maxPending) {
    const before = exact.pending - added;
    const fits = Math.max(0, limits.maxPending - before);
    throw new SvcError(SQLSTATE.configuration_limit_exceeded,
      `${fn}: role "${role.name}" has reached its quota of requests (${before} pending or processing, max_pending = ${limits.maxPending}${added > 1 ? `; ${added} submitted, ${fits} would fit` : ''})`,
      { hint });
  }
  throw new SvcError(SQLSTATE.configuration_limit_exceeded,
    `${fn}: role "${role.name}" has reached its quota of stored bytes (its requests pending or processing would store ${exact.bytes} bytes with this call's, max_stored_bytes = ${limits.maxStoredBytes})`,
    { hint });
}

/**
 * svc__role_quota_check: the quotas of `role` (not the queue's ceiling) checked after `added` jobs
 * of a vectorizer were queued for it, in the statement that wrote its source or in svc_vectorize's
 * backfill. Its jobs count against its owner as every request does, so no role alone fills the
 * queue for the others; a write that would pass its quota fails, as a submission would, rather than
 * queue without bound. The ceiling is not checked: the queue being long because of other roles must
 * not fail a role's own writes.
 */
export function roleQuotaCheck(fn: unknown, roleId: unknown, added: unknown): void {
  const capacity = one<LimitColumns & { role_id: string; role: string }>(QUERIES.capacity, String(roleId))!;
  checkRoleQuota(String(fn), { id: capacity.role_id, name: capacity.role }, effectiveLimits(capacity), Number(added));
}

/** A limit argument: NULL (the default), or a whole number of at least `min`. */
function limitArgument(fn: string, name: string, value: unknown, min: number): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'bigint' || typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min) throw parameterError(fn, name, `must be NULL (the default) or an integer of at least ${min}`);
  return n;
}

/** The configured 'queue_limits' with `changes` applied (a NULL value removes the key: its default applies). */
function putQueueLimits(changes: Record<string, number | null>): void {
  const current = one<{ value: Record<string, unknown> | null }>(QUERIES.configGet, 'queue_limits')?.value ?? {};
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  if (Object.keys(next).length === 0) one(QUERIES.configDelete, 'queue_limits');
  else one(QUERIES.configPut, 'queue_limits', next);
}

/**
 * svc_set_role_limits (svc_admin): a role's quotas, or (role_name NULL) the default of every role
 * without its own. A NULL quota takes the default (for the default: LIMITS'); a role given neither
 * goes back to the defaults.
 */
export function setRoleLimits(roleName: unknown, maxPending: unknown, maxStoredBytes: unknown): void {
  const fn = 'svc_set_role_limits';
  const pending = limitArgument(fn, 'max_pending', maxPending, 0);
  const bytes = limitArgument(fn, 'max_stored_bytes', maxStoredBytes, 0);
  if (roleName === null || roleName === undefined) {
    putQueueLimits({ max_pending: pending, max_stored_bytes: bytes });
    return;
  }
  const role = v.text(fn, 'role_name', roleName, { maxChars: 63 });
  const id = one<{ id: string }>(QUERIES.roleId, role)?.id;
  if (id === undefined) throw parameterError(fn, 'role_name', `must name an existing role (there is no role "${role}")`, {}, SQLSTATE.undefined_object);
  if (pending === null && bytes === null) one(QUERIES.roleLimitsDelete, id);
  else one(QUERIES.roleLimitsPut, id, pending, bytes);
}

/** svc_set_queue_limits (svc_admin): the most requests pending or processing over all roles (NULL: LIMITS' default). */
export function setQueueLimits(maxQueueSize: unknown): void {
  putQueueLimits({ max_queue_size: limitArgument('svc_set_queue_limits', 'max_queue_size', maxQueueSize, 1) });
}

export interface QueueLimitsRow {
  role_name: string;
  max_queue_size: number;
  queue_depth: number;
  max_pending: number;
  pending: number;
  max_stored_bytes: number;
  stored_bytes: number;
}

/** svc_queue_limits: the limits that bind the session's role, and how much of them it uses now. */
export function queueLimits(): QueueLimitsRow[] {
  const row = one<LimitColumns & { role: string; role_id: string; depth: string | number }>(QUERIES.sessionLimits)!;
  const limits = effectiveLimits(row);
  const usage = usageSince(row.role_id, 0);
  carried.set(row.role_id, usage);
  return [{
    role_name: row.role,
    max_queue_size: limits.maxQueueSize,
    queue_depth: Number(row.depth),
    max_pending: limits.maxPending,
    pending: usage.pending,
    max_stored_bytes: limits.maxStoredBytes,
    stored_bytes: usage.bytes,
  }];
}
