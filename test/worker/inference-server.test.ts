// A worker whose model is an inference server (svc-worker --model NAME=llama-server+URL): requests
// for that model go to the server with the job's own grammar, seed and budget; its answers are checked
// against the job's constraint before they are stored; a request the server rejects fails at once, a
// server error is retried. The server is a loopback one speaking llama-server's protocol (as
// test/engine/server-engine.test.ts), recording what it receives.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { ROLES, useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';

const svc = useSvc({ settings: { 'svc.retry_backoff': "'0'", 'svc.sync_timeout': "'30s'" } });
let db: pg.Client;
let alice: pg.Client;
let server: Server;
let worker: WorkerProcess;
const received: Array<{ path: string; body: Record<string, unknown> }> = [];

/** llama-server's answers: the completion's content depends on the prompt, so each test picks its case. */
function answer(path: string, body: Record<string, unknown>): { status?: number; body: unknown } {
  if (path === '/v1/models')
    return { body: { object: 'list', data: [{ id: 'tiny-remote', object: 'model', meta: { size: 4242 } }] } };
  if (path === '/apply-template') {
    const turns = (body.messages as Array<{ role: string; content: string }>).map(
      (m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`,
    );
    return { body: { prompt: `${turns.join('')}<|im_start|>assistant\n` } };
  }
  if (path === '/completion') {
    const prompt = String(body.prompt);
    if (prompt.includes('rejected'))
      return {
        status: 400,
        body: { error: { code: 400, message: 'the request is invalid', type: 'invalid_request_error' } },
      };
    if (prompt.includes('overloaded'))
      return { status: 503, body: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } } };
    const content = prompt.includes('wrong') ? '123' : 'abc';
    return { body: { content, tokens_predicted: 3, stop_type: 'eos', stopped_limit: false, truncated: false } };
  }
  if (path === '/v1/embeddings') {
    return {
      status: 501,
      body: {
        error: {
          code: 501,
          message: 'This server does not support embeddings. Start it with `--embeddings`',
          type: 'not_supported_error',
        },
      },
    };
  }
  return { status: 404, body: { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } } };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const path = (req.url ?? '').split('?')[0];
      received.push({ path, body });
      const out = answer(path, body);
      res.writeHead(out.status ?? 200, { 'Content-Type': 'application/json' }).end(JSON.stringify(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  db = await svc().connect();
  alice = await svc().connect(ROLES.alice);
  worker = startWorker(svc().cluster, { SVC_WORKER_MAX_RETRIES: '1' }, `remote=llama-server+${url}`);
  await eventually(
    'the worker serving remote',
    async () =>
      (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running' AND 'remote' = ANY (models)`)).rows
        .length > 0,
  );
  await alice.query(`SET svc.model = 'remote'`);
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await new Promise((resolve) => server.close(resolve));
});

const completions = () => received.filter((r) => r.path === '/completion');

test("the server gets the job's grammar as is, greedy with the job's seed and budget; its answer is the result", async () => {
  const out = (await alice.query(`SELECT svc_generate_regex('say hello', '[a-z]{3}', max_tokens := 7, seed := 5) AS t`))
    .rows[0].t;
  expect(out).toBe('abc');
  const grammar = (await db.query(`SELECT grammar FROM svc_queue WHERE parameters->>'prompt' = 'say hello'`)).rows[0]
    .grammar;
  const sent = completions().at(-1)!.body;
  expect(sent).toEqual({
    prompt: '<|im_start|>user\nsay hello<|im_end|>\n<|im_start|>assistant\n',
    n_predict: 7,
    seed: 5,
    temperature: 0,
    cache_prompt: false,
    grammar,
    model: 'tiny-remote',
  });
  // The identity the cache keeps its answers under: the server's kind, model and file size.
  expect((await db.query(`SELECT identity FROM svc_models WHERE name = 'remote'`)).rows[0].identity).toBe(
    'llama-server:tiny-remote:4242',
  );
});

test("an answer that breaks the job's constraint is not stored: the job fails, nothing cached", async () => {
  await expect(alice.query(`SELECT svc_generate_regex('wrong answer', '[a-z]{3}')`)).rejects.toThrow(
    /breaks its constraint/,
  );
  expect((await db.query(`SELECT count(*)::int AS n FROM svc_cache WHERE result = '123'`)).rows[0].n).toBe(0);
});

test('a request the server rejects (400) fails at once; a server error (503) is retried, then fails', async () => {
  const rejected = (await alice.query(`SELECT svc_generate_async('rejected please') AS id`)).rows[0].id;
  const overloaded = (await alice.query(`SELECT svc_generate_async('overloaded please') AS id`)).rows[0].id;
  const finished = (id: string) => async () => {
    const row = (await db.query(`SELECT status, retry_count, error FROM svc_queue WHERE request_id = $1`, [id]))
      .rows[0];
    return row.status === 'failed' ? row : undefined;
  };
  const a = await eventually('the rejected job to fail', finished(rejected));
  expect(a).toMatchObject({ retry_count: 0 });
  expect(a.error).toMatch(/400.*the request is invalid/);
  expect(a.error).toMatch(/127\.0\.0\.1/);
  const b = await eventually('the overloaded job to fail after its retry', finished(overloaded));
  expect(b).toMatchObject({ retry_count: 1 });
  expect(b.error).toMatch(/503.*Loading model/);
});

test('a function the server does not offer fails at once, saying so', async () => {
  await db.query(`SELECT svc_model_declare('remote', ARRAY['generate', 'embed'])`);
  await expect(alice.query(`SELECT svc_embed('x')`)).rejects.toThrow(/does not support embeddings/);
  const row = (await db.query(`SELECT retry_count FROM svc_queue WHERE function_name = 'embed'`)).rows[0];
  expect(row.retry_count).toBe(0);
});
