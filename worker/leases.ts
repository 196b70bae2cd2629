// Lease renewal: every job the worker holds (running, claimed ahead, or its outcome being written)
// has its lease extended a third of the way through, so that no other worker claims it meanwhile.
import type pg from 'pg';
import { errorFields, log } from './log.js';
import * as protocol from './protocol.js';
import type { DatabaseReach } from './reach.js';

/** Renews the leases of `held` for `leaseSeconds`; a failure is logged (the next renewal tries again). */
export async function renewLeases(
  pool: pg.Pool,
  workerId: string,
  held: string[],
  leaseSeconds: number,
  reach: DatabaseReach,
): Promise<void> {
  if (held.length === 0) return;
  try {
    await protocol.renew(pool, workerId, held, leaseSeconds);
    reach.reached();
  } catch (error) {
    reach.missed(error);
    log('warn', 'lease renewal failed', errorFields(error));
  }
}
