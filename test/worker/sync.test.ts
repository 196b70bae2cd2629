// End to end with a real worker process and the tiny model: the synchronous functions, the cache,
// and determinism (sync vs async, cached vs not, concurrency 1 vs 4, across a worker restart).
import type pg from 'pg';
import AjvModule from 'ajv';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';
import * as protocol from '../../worker/protocol.js';

/** A worker started and heard from: a sync call with no live worker is refused at once (SV006), so each restart waits for it. */
async function started(env: Record<string, string>): Promise<WorkerProcess> {
  const w = startWorker(svc().cluster, env);
  await eventually(
    'the worker to heartbeat',
    async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
  );
  return w;
}

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let db: pg.Client;
let worker: WorkerProcess;

beforeAll(async () => {
  db = await svc().connect();
  worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: '4' });
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
  properties: {
    name: { type: 'string', maxLength: 12 },
    age: { type: 'integer', minimum: 0, maximum: 120 },
    tags: { type: 'array', items: { enum: ['a', 'b'] }, maxItems: 3 },
  },
  required: ['name', 'age'],
  additionalProperties: false,
};

test('svc_generate_json returns JSON valid against the schema', async () => {
  const { rows } = await db.query(`SELECT svc_generate_json('A person as JSON', $1::jsonb, max_tokens := 200) AS out`, [
    SCHEMA,
  ]);
  // ajv is CommonJS: under ESM its class may sit on `default`.
  const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as unknown as new () => {
    compile(s: object): (v: unknown) => boolean;
  };
  const validate = new Ajv().compile(SCHEMA);
  expect(validate(JSON.parse(rows[0].out))).toBe(true);
});

test('svc_generate_regex returns text that fully matches the pattern', async () => {
  const pattern = '[A-Z][a-z]{2,8} (19|20)[0-9]{2}';
  const { rows } = await db.query(`SELECT svc_generate_regex('A name and a year', $1, max_tokens := 40) AS out`, [
    pattern,
  ]);
  expect(rows[0].out).toMatch(new RegExp(`^(?:${pattern})$`));
});

test('svc_generate_choice returns one of the choices', async () => {
  const choices = ['positive', 'negative', 'neutral', 'it\'s "complicated"'];
  const { rows } = await db.query(`SELECT svc_generate_choice('Sentiment?', $1::text[]) AS out`, [choices]);
  expect(choices).toContain(rows[0].out);
});

test('svc_embed returns a real[] of the model dimension, L2-normalized', async () => {
  const { rows } = await db.query(
    `SELECT svc_embed('hello world') AS v, array_length(svc_embed('hello world'), 1) AS n`,
  );
  expect(rows[0].n).toBe(64);
  const norm = Math.sqrt((rows[0].v as number[]).reduce((s, x) => s + x * x, 0));
  expect(norm).toBeCloseTo(1, 4);
});

test('an async embedding result casts to real[] of the model dimension', async () => {
  const id = (await db.query(`SELECT svc_embed_async('hello world') AS id`)).rows[0].id;
  const { rows } = await db.query(
    `SELECT array_length(translate(svc_get_async_result($1), '[]', '{}')::real[], 1) AS n`,
    [id],
  );
  expect(rows[0].n).toBe(64);
});

test('svc_rerank returns every document once, best first', async () => {
  const docs = ['Paris is the capital of France', 'Bananas are yellow', 'The Eiffel tower'];
  const { rows } = await db.query(`SELECT * FROM svc_rerank('capital of France', $1::text[])`, [docs]);
  expect(rows.map((r) => r.document).sort()).toEqual([...docs].sort());
  for (let i = 1; i < rows.length; i++) expect(rows[i].score).toBeLessThanOrEqual(rows[i - 1].score);
  const id = (await db.query(`SELECT svc_rerank_async('capital of France', $1::text[]) AS id`, [docs])).rows[0].id;
  const ranked = JSON.parse((await db.query('SELECT svc_get_async_result($1) AS r', [id])).rows[0].r);
  expect(ranked.map((r: { document: string }) => r.document)).toEqual(rows.map((r) => r.document));
  expect(Object.keys(ranked[0]).sort()).toEqual(['document', 'index', 'score']);
});

test('sync calls work inside explicit transactions, READ COMMITTED and REPEATABLE READ', async () => {
  for (const isolation of ['READ COMMITTED', 'REPEATABLE READ']) {
    await db.query(`BEGIN ISOLATION LEVEL ${isolation}`);
    const { rows } = await db.query(`SELECT svc_generate_choice('Pick', ARRAY['x','y'], use_cache := false) AS out`);
    expect(['x', 'y']).toContain(rows[0].out);
    await db.query('ROLLBACK');
  }
});

test('unconstrained output is stored whatever bytes the model produced (NUL becomes U+FFFD)', async () => {
  const prompts = Array.from({ length: 12 }, (_, i) => `raw ${i}`);
  const ids = (
    await db.query(`SELECT svc_generate_batch_async($1::text[], max_tokens := 48, use_cache := false) AS ids`, [
      prompts,
    ])
  ).rows[0].ids;
  for (const id of ids) {
    const out = (await db.query('SELECT svc_get_async_result($1) AS r', [id])).rows[0].r as string;
    expect(out).not.toContain('\u0000');
  }
});

describe('determinism', () => {
  const requests = [
    `svc_generate('Once upon a time', max_tokens := 24, use_cache := %s)`,
    `svc_generate_json('A person', '${JSON.stringify(SCHEMA)}'::jsonb, max_tokens := 120, use_cache := %s)`,
    `svc_generate_regex('Date', '[0-9]{4}-[0-9]{2}-[0-9]{2}', use_cache := %s)`,
    `svc_generate_choice('Color', ARRAY['red','green','blue'], use_cache := %s)`,
    `svc_embed('same text', use_cache := %s)::text`,
  ];
  const asyncOf = (sql: string) => sql.replace(/^svc_(\w+?)\(/, 'svc_$1_async(').replace('::text', '');

  async function syncResults(useCache: boolean): Promise<string[]> {
    const out: string[] = [];
    for (const r of requests)
      out.push((await db.query(`SELECT ${r.replace('%s', String(useCache))} AS out`)).rows[0].out);
    return out;
  }

  test('same bytes sync vs async, cached vs not, and across a worker restart', async () => {
    const uncached = await syncResults(false);
    const first = await syncResults(true); // fills the cache
    const cached = await syncResults(true); // served from it
    expect(first).toEqual(uncached);
    expect(cached).toEqual(uncached);

    const viaAsync: string[] = [];
    for (const r of requests.slice(0, 4)) {
      const id = (await db.query(`SELECT ${asyncOf(r.replace('%s', 'false'))} AS id`)).rows[0].id;
      viaAsync.push((await db.query('SELECT svc_get_async_result($1) AS r', [id])).rows[0].r);
    }
    expect(viaAsync).toEqual(uncached.slice(0, 4));

    await worker.stop();
    worker = await started({ SVC_WORKER_CONCURRENCY: '4' });
    expect(await syncResults(false)).toEqual(uncached);
  }, 120_000);

  test('concurrency 1 and 4 give the same bytes (batched decoding changes nothing)', async () => {
    const prompts = Array.from({ length: 8 }, (_, i) => `Prompt number ${i}:`);
    const run = async () => {
      const ids = (
        await db.query(`SELECT svc_generate_batch_async($1::text[], max_tokens := 32, use_cache := false) AS ids`, [
          prompts,
        ])
      ).rows[0].ids;
      const out: string[] = [];
      for (const id of ids) out.push((await db.query('SELECT svc_get_async_result($1) AS r', [id])).rows[0].r);
      return out;
    };
    const atFour = await run();
    await worker.stop();
    worker = await started({ SVC_WORKER_CONCURRENCY: '1' });
    const atOne = await run();
    expect(atOne).toEqual(atFour);
    await worker.stop();
    worker = await started({ SVC_WORKER_CONCURRENCY: '4' });
  }, 120_000);
});

describe('the result cache', () => {
  beforeEach(async () => {
    await db.query('SELECT svc_cache_clear()');
  });

  test('hits and misses are counted; use_cache := false bypasses it both ways', async () => {
    await db.query(`SELECT svc_generate('cache me', max_tokens := 8)`); // miss (the sync call's lookup; the worker does not look again), stored
    await db.query(`SELECT svc_generate('cache me', max_tokens := 8)`); // hit
    await db.query(`SELECT svc_generate('cache me', max_tokens := 8, use_cache := false)`); // neither
    await db.query(`SELECT svc_generate('not cached', max_tokens := 8, use_cache := false)`);
    const stats = (
      await db.query('SELECT entries::int, hits::int, misses::int, hit_rate, max_entries::int FROM svc_cache_stats()')
    ).rows[0];
    expect(stats).toEqual({ entries: 1, hits: 1, misses: 1, hit_rate: 1 / 2, max_entries: 10000 });
    const entry = (await db.query(`SELECT function_name, hits::int, model FROM svc_cache`)).rows[0];
    expect(entry.function_name).toBe('generate');
    expect(entry.hits).toBe(1);
    expect(entry.model).toMatch(/^test-model\.gguf:\d+:[0-9a-f]{16}:llama\.cpp-[^-]+-cpu$/);
  });

  test('any parameter that changes the output is part of the key', async () => {
    await db.query(`SELECT svc_generate('k', max_tokens := 4)`);
    await db.query(`SELECT svc_generate('k', max_tokens := 5)`);
    await db.query(`SELECT svc_generate('k', max_tokens := 4, seed := 7)`);
    await db.query(`SELECT svc_generate_choice('k', ARRAY['a','b'], max_tokens := 4)`);
    expect((await db.query('SELECT entries::int FROM svc_cache_stats()')).rows[0].entries).toBe(4);
  });

  test('answers of another model are never served', async () => {
    const out = (await db.query(`SELECT svc_generate('model switch', max_tokens := 6) AS out`)).rows[0].out;
    await db.query(`UPDATE svc_cache SET model = 'other-model', result = 'stale answer'`);
    expect((await db.query(`SELECT svc_generate('model switch', max_tokens := 6) AS out`)).rows[0].out).toBe(out);
  });

  test("a row inserted with a real request's parameters but a hand-written grammar fails, and nothing of it is cached", async () => {
    // The defence in depth: only the grammar the parameters compile to runs, so the answer cached
    // under those parameters is always theirs. The row is written as the superuser, past every policy.
    const schema = { type: 'object', properties: { email: { type: 'string', maxLength: 20 } }, required: ['email'] };
    const attack = { prompt: 'The contact address as JSON', schema, max_tokens: 48, use_cache: true, seed: 42 };
    const { rows } = await db.query(
      `INSERT INTO svc_queue (function_name, parameters, grammar)
      VALUES ('generate_json', $1, $2) RETURNING request_id`,
      [attack, 'root ::= "{\\"email\\":\\"attacker@example.com\\"}"'],
    );
    const done = await eventually('the inserted job to finish', async () => {
      const r = (
        await db.query('SELECT status, error, retry_count, result FROM svc_queue WHERE request_id = $1', [
          rows[0].request_id,
        ])
      ).rows[0];
      return ['completed', 'failed'].includes(r.status) ? r : undefined;
    });
    expect(done).toEqual({
      status: 'failed',
      error:
        "the job's grammar is not the one its parameters compile to (written by hand, or by an extension from another svc release than this worker)",
      retry_count: 0,
      result: null,
    });
    expect((await db.query('SELECT count(*)::int AS n FROM svc_cache')).rows[0].n).toBe(0);
    // Another role asking the same request gets what the request itself produces.
    const alice = await svc().connect(ROLES.alice);
    const out = (
      await alice.query(`SELECT svc_generate_json($1, $2::jsonb, max_tokens := 48) AS out`, [attack.prompt, schema])
    ).rows[0].out;
    expect(out).not.toContain('attacker@example.com');
    expect(JSON.parse(out)).toEqual({ email: expect.any(String) });
    expect((await db.query('SELECT function_name FROM svc_cache')).rows).toEqual([{ function_name: 'generate_json' }]);
  });

  test('frecency eviction keeps the cache at svc.cache_size', async () => {
    await db.query(`ALTER DATABASE postgres SET svc.cache_size = 3`);
    try {
      await worker.stop();
      worker = await started({ SVC_WORKER_CONCURRENCY: '4' });
      await db.query(`SELECT svc_generate('popular', max_tokens := 4)`);
      for (let i = 0; i < 3; i++) await db.query(`SELECT svc_generate('popular', max_tokens := 4)`);
      for (let i = 0; i < 5; i++) await db.query(`SELECT svc_generate($1, max_tokens := 4)`, [`rare ${i}`]);
      const kept = (await db.query(`SELECT hits::int FROM svc_cache ORDER BY hits DESC`)).rows;
      expect(kept).toHaveLength(3);
      expect(kept[0].hits).toBe(3); // the popular entry survived
    } finally {
      await db.query(`ALTER DATABASE postgres RESET svc.cache_size`);
    }
  });
});

test('with no live worker, a sync call fails at once with a clear error naming the worker status, and queues nothing', async () => {
  await worker.stop();
  try {
    await expect(db.query(`SELECT svc_generate('nobody home', use_cache := false)`)).rejects.toMatchObject({
      code: 'SV006',
      message: 'svc_generate: no worker is running (none sent a heartbeat in the last minute)',
      hint: 'Start a worker (svc-worker), or use the _async functions: their requests wait for one.',
    });
    expect(
      (await db.query(`SELECT count(*)::int AS n FROM svc_queue WHERE parameters->>'prompt' = 'nobody home'`)).rows[0]
        .n,
    ).toBe(0);
    // A worker that says it is starting (loading its models: worker/main.ts) is waited for, up to svc.sync_timeout.
    const starting = await svc().connect(ROLES.worker);
    await protocol.heartbeat(starting, {
      workerId: 'starting-worker',
      host: 'h',
      pid: 1,
      state: 'starting',
      concurrency: 1,
      model: null,
      models: { default: null },
      jobsDone: 0,
      jobsFailed: 0,
      jobsInFlight: 0,
    });
    await db.query(`SET svc.sync_timeout = '1s'`);
    await expect(db.query(`SELECT svc_generate('wait for it', use_cache := false)`)).rejects.toMatchObject({
      code: 'SV003',
      message: expect.stringMatching(
        /^svc_generate: timed out: no result within 1 s \(svc.sync_timeout\); 1 worker\(s\) running/,
      ),
    });
    await db.query(`RESET svc.sync_timeout; DELETE FROM svc_workers WHERE worker_id = 'starting-worker'`);
  } finally {
    worker = await started({ SVC_WORKER_CONCURRENCY: '4' });
  }
});

test('bad arguments to sync functions are rejected before anything is queued', async () => {
  const before = (await db.query('SELECT count(*)::int AS n FROM svc_queue')).rows[0].n;
  await expect(db.query(`SELECT svc_generate('')`)).rejects.toThrow(/svc_generate: prompt must not be empty/);
  await expect(db.query(`SELECT svc_generate_json('x', '{"type":"bogus"}')`)).rejects.toThrow(
    /svc_generate_json: schema is not a usable constraint/,
  );
  await expect(db.query(`SELECT svc_generate_regex('x', '(?<=a)b')`)).rejects.toThrow(
    /svc_generate_regex: pattern is not a usable constraint/,
  );
  await expect(db.query(`SELECT svc_generate_choice('x', ARRAY[]::text[])`)).rejects.toThrow(
    /svc_generate_choice: choices must not be empty/,
  );
  await expect(db.query(`SELECT svc_embed(NULL)`)).rejects.toThrow(/svc_embed: text_input must not be NULL/);
  await expect(db.query(`SELECT * FROM svc_rerank('q', ARRAY[]::text[])`)).rejects.toThrow(
    /svc_rerank: documents must not be empty/,
  );
  await expect(db.query(`SELECT svc_generate('x', max_tokens := 0)`)).rejects.toThrow(
    /svc_generate: max_tokens must be between 1 and 32768/,
  );
  expect((await db.query('SELECT count(*)::int AS n FROM svc_queue')).rows[0].n).toBe(before);
});
