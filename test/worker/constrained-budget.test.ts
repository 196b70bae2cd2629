// End to end through SQL on the trained stories260K (issue #23): a JSON schema with free-text
// strings at a small max_tokens. The model writes stories and does not close a string by itself
// within such a budget; the decoder closes the output with the grammar's shortest completion where
// the budget would cut it, so svc_generate_json returns valid JSON instead of failing with SV001.
// A budget below the shortest output fails at once, naming the minimum.
import type pg from 'pg';
import { compileJsonSchema } from '../../src/grammar/index.js';
import { STORIES_MODEL } from '../helpers/real-models.js';
import { useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let db: pg.Client;
let worker: WorkerProcess;

beforeAll(async () => {
  db = await svc().connect();
  worker = startWorker(svc().cluster, {}, STORIES_MODEL);
  await eventually(
    'the worker to heartbeat',
    async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
}, 60_000);
afterAll(async () => {
  await worker?.stop();
});

const SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string' }, story: { type: 'string' } },
  required: ['title', 'story'],
};
const compiled = compileJsonSchema(SCHEMA);

test('svc_generate_json at max_tokens 24-60 returns JSON valid against the schema, the same bytes again', async () => {
  for (const maxTokens of [24, 40, 60]) {
    for (const prompt of ['Once upon a time', 'Tom had a big red ball. One day']) {
      const query = `SELECT svc_generate_json($1, $2::jsonb, max_tokens := $3, use_cache := false) AS out`;
      const first = (await db.query(query, [prompt, SCHEMA, maxTokens])).rows[0].out as string;
      expect({ maxTokens, first, ok: compiled.validate(first).ok }).toEqual({ maxTokens, first, ok: true });
      expect((await db.query(query, [prompt, SCHEMA, maxTokens])).rows[0].out).toBe(first);
    }
  }
}, 120_000);

test('a max_tokens below the shortest output fails at once: SV001 naming the minimum, no retry', async () => {
  await expect(
    db.query(`SELECT svc_generate_json('Once upon a time', $1::jsonb, max_tokens := 5, use_cache := false)`, [SCHEMA]),
  ).rejects.toMatchObject({
    code: 'SV001',
    message: expect.stringMatching(
      /max_tokens 5 is below the \d+ tokens the shortest output of this constraint takes on this model/,
    ),
  });
  const { rows } = await db.query(
    `SELECT status, retry_count FROM svc_queue WHERE (parameters->>'max_tokens')::int = 5`,
  );
  expect(rows).toEqual([{ status: 'failed', retry_count: 0 }]);
}, 60_000);
