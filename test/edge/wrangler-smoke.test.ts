// Smoke test: the real `wrangler dev` (custom build, local D1/KV/R2/DO) on loopback, real HTTP.
// Setup goes through wrangler's own commands: D1 migrations apply, kv key put, r2 object put.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../../scripts/free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './helpers.js';

const run = promisify(execFile);
const wrangler = join(ROOT, 'node_modules/.bin/wrangler');
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1' };

let dir: string;
let dev: ChildProcess | undefined;
let base: string;
let log = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-wrangler-'));
  const persist = join(dir, 'state');
  const w = (...args: string[]) => run(wrangler, args, { cwd: ROOT, env, timeout: 60_000 });
  await w('d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist);
  // wrangler.jsonc's two models, uploaded as docs/edge.md says.
  for (const name of ['stories260K', 'svc-embed']) {
    await w('kv', 'key', 'put', '--local', '--persist-to', persist, '--binding', 'CACHE', `model_version:${name}`, '1');
    await w(
      'r2',
      'object',
      'put',
      '--local',
      '--persist-to',
      persist,
      `svc-models/models/${name}-1.bin`,
      '--file',
      join(ROOT, `models/${name}.gguf`),
    );
  }

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // --var overrides a developer's .dev.vars (docs/edge.md): this test runs with auth and the limit off.
  const vars = ['--var', 'REQUIRE_API_KEY:false', '--var', 'RATE_LIMIT:false'];
  dev = spawn(
    wrangler,
    [
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--persist-to',
      persist,
      '--show-interactive-dev-session=false',
      ...vars,
    ],
    {
      cwd: ROOT,
      env,
      detached: true, // own process group, so teardown ends wrangler and its workerd together
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  dev.stdout!.on('data', (d) => (log += d));
  dev.stderr!.on('data', (d) => (log += d));
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || dev.exitCode !== null) throw new Error(`wrangler dev did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 180_000);

afterAll(async () => {
  if (dev?.pid && dev.exitCode === null) {
    try {
      process.kill(-dev.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

test('health, 404, 400', async () => {
  const h = await fetch(`${base}/health`);
  expect(await h.text()).toBe('OK');
  const nf = await fetch(`${base}/missing`);
  expect(nf.status).toBe(404);
  expect(await nf.text()).toBe('Not Found');
  const bad = await post('/generate', { prompt: '' });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual({ error: 'Prompt required' });
});

test('generate: miss then hit with the same text; embed', async () => {
  const a = (await (await post('/generate', { prompt: 'smoke', max_tokens: 12 })).json()) as {
    text: string;
    cached: boolean;
  };
  expect(a.cached).toBe(false);
  let b = a;
  for (let i = 0; i < 40 && !b.cached; i++) {
    await new Promise((r) => setTimeout(r, 100));
    b = (await (await post('/generate', { prompt: 'smoke', max_tokens: 12 })).json()) as typeof a;
  }
  expect(b).toEqual({ text: a.text, cached: true });
  const e = (await (await post('/embed', { text: 'smoke' })).json()) as { embedding: number[] };
  expect(e.embedding).toHaveLength(128); // svc-embed's (EMBED_MODEL), not stories260K's 64
});

test('metrics route', async () => {
  const m = await fetch(`${base}/metrics`);
  expect(m.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(await m.text()).toMatch(/svc_requests_total\{endpoint="\/generate",region="[^"]+"\} \d+/);
});
