// The advisory lock keys of svc's queue: defined once here. TypeScript reads the constants; SQL and
// PL/pgSQL bodies call svc__sync_waiter_lock_key() and svc__request_lock_key(), which the catalog
// generates from them (immutable, so the planner folds each call into the constant). Pure.

/**
 * The first key of the advisory locks (two-key form) that synchronous calls hold while they wait,
 * 'svcw'; the second key is the session's, stored in the request's `waiter` column. Transaction
 * locks: a cancel, a timeout, an error or a lost connection ends the transaction and frees the lock,
 * and the next claim then cancels the request instead of running it for nobody (sql/svc__claim.sql).
 */
export const SYNC_WAITER_LOCK = 0x73766377;

/**
 * The first key of the advisory locks (two-key form) a worker holds on each request it has claimed,
 * 'svcr', from the claim's commit until the request's outcome has committed (worker/request-locks.ts);
 * the second key is hashtext of the request id. A waiting call waits on it (shared) to be woken when
 * the worker lets go, instead of polling (src/extension/results.ts waitForWorker).
 */
export const REQUEST_LOCK = 0x73766372;

/** The two keys of a request's lock; `id`: an SQL expression of the request id (uuid). */
export const requestLockKeys = (id: string) => `${REQUEST_LOCK}, pg_catalog.hashtext(${id}::text)`;
