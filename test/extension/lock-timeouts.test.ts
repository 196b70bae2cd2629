// A lock_timeout that ends a wait inside JS is the wait's error, which JS may catch, never a cancel of
// the statement: svc waits on a worker's lock a second at a time (src/extension/results.ts
// waitForWorker), so a call waiting on a long request takes many. plv8-compat's watchdog, which stops
// JS when a cancel is pending, saw the timeout's pending cancel while PostgreSQL was handling it and
// turned it into "canceling statement due to user request" (a set-based svc_generate on a 512-wide
// model failed so after 30 s). Now it leaves a pending cancel to PostgreSQL while JS is in a plv8.*
// call. A real cancel still stops JS, in a call and out of it (plv8-compat's watchdog: the genuine plv8
// leaves a loop of pure JS to plv8.execution_timeout).
import type pg from 'pg';
import { useSvc } from '../helpers/svc.js';

const svc = useSvc();
let su: pg.Client;
let holder: pg.Client;
const TIMEOUTS = 3000;
const SESSIONS = 4;

beforeAll(async () => {
  su = await svc().connect();
  holder = await svc().connect();
  await holder.query('SELECT pg_advisory_lock(4242)');
  await su.query(`CREATE FUNCTION lock_timeouts(n integer) RETURNS integer LANGUAGE plv8 AS $$
    let caught = 0;
    for (let i = 0; i < n; i++) {
      plv8.execute("SELECT set_config('lock_timeout', '1ms', true)");
      try { plv8.execute('SELECT pg_advisory_lock(4242)'); } catch (e) { if (e.sqlerrcode !== '55P03') throw e; caught++; }
    }
    return caught;
  $$`);
  await su.query(`CREATE FUNCTION spin_in_subtransaction() RETURNS integer LANGUAGE plv8 AS $$
    return plv8.subtransaction(() => { for (;;) {} });
  $$`);
});

test(`${TIMEOUTS} lock timeouts caught in JS in each of ${SESSIONS} sessions at once: each is 55P03, none a cancel of the statement`, async () => {
  // Sessions competing for the cores widen the moment between a timeout and PostgreSQL's handling of it.
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => svc().connect()));
  try {
    const counts = await Promise.all(sessions.map(async (s) => (await s.query('SELECT lock_timeouts($1) AS n', [TIMEOUTS])).rows[0].n));
    expect(counts).toEqual(sessions.map(() => TIMEOUTS));
  } finally {
    await Promise.all(sessions.map((s) => s.end()));
  }
});

test('plv8-compat: statement_timeout still stops JS, waiting in a plv8.execute and looping inside plv8.subtransaction', async () => {
  await su.query(`SET statement_timeout = '300ms'`);
  try {
    await expect(su.query(`SELECT lock_timeouts(1000000)`)).rejects.toMatchObject({ code: '57014' });
    await expect(su.query('SELECT spin_in_subtransaction()')).rejects.toMatchObject({ code: '57014' });
  } finally {
    await su.query('RESET statement_timeout');
  }
});
