// docs/vectorizer.md's complete example runs as written, with the worker it says to start: the shipped
// generator as 'default' and svc-embed as 'embed', which a vectorizer declared without a model uses;
// and with svc-embed, 'A red ball' finds the ball story first, as the page says.
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker } from '../helpers/worker.js';
import { EMBED_MODEL, STORIES_MODEL } from '../helpers/real-models.js';
import { fencedBlocks } from '../helpers/docs.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });

test("docs/vectorizer.md's psql example runs as written", async () => {
  const db = await svc().connect();
  const alice = await svc().connect(ROLES.alice);
  // The page's tables are unqualified: in a schema of alice's, first on her search_path.
  await db.query(`CREATE SCHEMA app AUTHORIZATION ${ROLES.alice}`);
  await alice.query('SET search_path = app, public');
  const worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '2' }, `${STORIES_MODEL},embed=${EMBED_MODEL}`);
  try {
    await eventually(
      'the worker serving both',
      async () =>
        (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running' AND 'embed' = ANY (models)`)).rows
          .length > 0,
    );
    const [declare, search] = fencedBlocks(
      'docs/vectorizer.md',
      'A complete example (psql, the bundled models)',
      'sql',
    );
    await alice.query(declare);
    expect((await alice.query(`SELECT model FROM svc_vectorizers WHERE name = 'stories_body'`)).rows).toEqual([
      { model: 'embed' },
    ]);
    await eventually(
      'the backfill',
      async () => (await alice.query(`SELECT rows_pending FROM svc_vectorizer_status()`)).rows[0]?.rows_pending === '0',
    );
    expect(Number((await alice.query(`SELECT count(*) AS n FROM stories_body_chunks`)).rows[0].n)).toBeGreaterThan(3);
    const found = (await alice.query(`SELECT key->>'id' AS id FROM svc_search('stories_body', 'A red ball', k := 2)`))
      .rows;
    expect(found[0]).toEqual({ id: '2' });
    await alice.query(search);
    expect((await alice.query(`SELECT count(*)::int AS n FROM stories`)).rows[0].n).toBe(2);
    expect(
      (await alice.query(`SELECT count(*)::int AS n FROM svc_vectorizers WHERE name = 'stories_body'`)).rows[0].n,
    ).toBe(0);
  } finally {
    await worker.stop();
  }
}, 120_000);
