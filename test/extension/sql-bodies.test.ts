// The SQL and PL/pgSQL bodies in src/extension/sql/ and the catalog agree: one file per function
// declared with a language body, no file without its function, and the constants the SQL spells out
// are the ones the TypeScript uses.
import { readdirSync, readFileSync } from 'node:fs';
import { FUNCTIONS } from '../../src/extension/catalog.js';
import { SYNC_WAITER_LOCK } from '../../src/queue/locks.js';

const DIR = 'src/extension/sql';
const withFile = FUNCTIONS.filter((fn) => 'language' in fn.body && fn.body.generated === undefined).map((fn) => `${fn.name}.sql`);

test('one file per SQL or PL/pgSQL function of the catalog, and no other', () => {
  expect(readdirSync(DIR).sort()).toEqual([...withFile].sort());
});

test('the claim takes the waiter lock under the key the sync functions hold: one definition, generated into SQL', () => {
  expect(readFileSync(`${DIR}/svc__claim.sql`, 'utf8')).toContain(`pg_try_advisory_xact_lock(@extschema@.svc__sync_waiter_lock_key(), k.waiter)`);
  expect(FUNCTIONS.find((fn) => fn.name === 'svc__sync_waiter_lock_key')?.body).toEqual({ language: 'sql', generated: `SELECT ${SYNC_WAITER_LOCK}` });
  // No body spells a lock key as a number.
  for (const file of readdirSync(DIR)) expect([file, readFileSync(`${DIR}/${file}`, 'utf8')]).not.toEqual([file, expect.stringMatching(/1937138551|1937138546/)]);
});
