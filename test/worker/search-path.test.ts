// The worker's sessions name nothing a role can plant. A role that may create in svc's schema (public,
// where CREATE was PUBLIC's before PostgreSQL 15, or a database owner's) adds overloads of the worker
// protocol whose text parameters PostgreSQL prefers for untyped arguments, and a database default
// search_path that puts her schema first: the worker pins its search_path (pg_catalog, svc's schema)
// and types every argument, so it serves sync and async calls, heartbeats and renews as before, and
// none of hers runs with its rights.
import type pg from 'pg';
import * as protocol from '../../worker/protocol.js';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, heardFrom, workerSet } from '../helpers/worker.js';

const svc = useSvc();
let su: pg.Client;
let alice: pg.Client;
let bob: pg.Client;
const workers = workerSet(() => svc().cluster, { SVC_WORKER_CONCURRENCY: '2' });

// Each raises: run by anyone, it fails the statement that called it, naming who ran it.
const PLANTED = [
  'svc_worker_claim(worker_id text, max_jobs text, lease_seconds text, max_retries text, models text)',
  'svc_worker_complete(request_id text, attempt text, result text, stop_reason text)',
  'svc_worker_complete_and_claim(a text, b text, c text, d text, e text, f text, g text, h text, i text)',
  'svc_worker_fail(request_id text, attempt text, error text, max_retries text)',
  'svc_worker_renew(worker_id text, request_ids text, lease_seconds text)',
  'svc_worker_released(worker_id text, request_ids text)',
  'svc_worker_heartbeat(a text, b text, c text, d text, e text, f text, g text, h text, i text, j text, k text)',
];

beforeAll(async () => {
  su = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  bob = await svc().connect(ROLES.bob);
  await su.query(`GRANT CREATE ON SCHEMA public TO ${ROLES.bob}; CREATE SCHEMA bobs AUTHORIZATION ${ROLES.bob}`);
  for (const schema of ['public', 'bobs'])
    for (const signature of PLANTED)
      await bob.query(
        `CREATE FUNCTION ${schema}.${signature} RETURNS SETOF record LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'bob''s function ran as %', current_user; END $$`,
      );
  // Her schema first for every new session of the database, as its owner could set it.
  await su.query(`ALTER DATABASE postgres SET search_path = bobs, public`);
});
afterAll(() => workers.killAll());

test('an untyped call in a session on the default search_path would run them (what the worker no longer does)', async () => {
  const other = await svc().connect(ROLES.alice);
  await expect(
    other.query('SELECT svc_worker_complete($1, $2, $3, $4)', [crypto.randomUUID(), 1, 'x', null]),
  ).rejects.toThrow(/bob's function ran as alice/);
});

test('the worker serves sync and async calls, heartbeats and lets go of cancelled jobs; none of them runs', async () => {
  const w = workers.start();
  await heardFrom(su);
  expect((await alice.query(`SELECT svc_generate('Once upon a time', max_tokens := 8) AS text`)).rows[0].text).toEqual(
    expect.any(String),
  );
  const id = (await alice.query(`SELECT svc_generate_async('The cat', max_tokens := 8) AS id`)).rows[0].id;
  await eventually(
    'the async request to complete',
    async () => (await alice.query('SELECT status FROM svc_check_async($1)', [id])).rows[0].status === 'completed',
  );
  const long = (
    await alice.query(`SELECT svc_generate_async('keep going', max_tokens := 4000, use_cache := false) AS id`)
  ).rows[0].id;
  await eventually(
    'the long request to run',
    async () => (await alice.query('SELECT status FROM svc_check_async($1)', [long])).rows[0].status === 'processing',
  );
  expect((await alice.query('SELECT svc_cancel_async($1) AS ok', [long])).rows[0].ok).toBe(true);
  await eventually(
    'the cancelled request to be let go',
    async () =>
      (await su.query(`SELECT jobs_in_flight FROM svc_worker_status() WHERE jobs_done >= 2`, [])).rows[0]
        ?.jobs_in_flight === 0,
  );
  expect((await su.query(`SELECT jobs_failed::int FROM svc_worker_status()`)).rows).toEqual([{ jobs_failed: 0 }]);
  expect(w.logs.join('\n')).not.toMatch(/bob's function/);
  // The protocol's typed statements, from a session on bob's search_path, reach svc's functions too.
  const worker = await svc().connect(ROLES.worker);
  expect(await protocol.cacheGet(worker, 'no such identity', 'model')).toBeNull();
  expect(await protocol.renew(worker, 'nobody', [crypto.randomUUID()], 30)).toBe(0);
}, 300_000);
