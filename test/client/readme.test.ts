// The README's tour runs as it is written, on the committed models: the SQL through psql against
// a throwaway cluster with a real worker, the TypeScript block through tsx, the shell block (`npx svc`)
// through bash.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { fencedBlocks } from '../helpers/docs.js';
import { useSvc } from '../helpers/svc.js';
import { eventually, startWorker } from '../helpers/worker.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..');

const readmeBlocks = (heading: string, lang: string) => fencedBlocks('README.md', heading, lang);

const SECTION = 'The library and the `svc` command';
const env = { ...process.env, SVC_THREADS: '1', SVC_MODEL: '' };
const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });

test('the SQL tour runs in psql as written, with a worker serving the models its shell block names', async () => {
  const [first, search] = readmeBlocks('SQL', 'sql');
  // The worker the tour starts: its --model arguments, as written.
  const [shell] = readmeBlocks('SQL', 'sh');
  const line = shell.split('\n').find((l) => l.startsWith('npx svc-worker '))!;
  const models = [...line.matchAll(/--model (\S+)/g)].map((m) => m[1]);
  expect(models).toEqual(['models/stories260K.gguf', 'embed=models/svc-embed.gguf']);
  const worker = startWorker(
    svc().cluster,
    {},
    models.map((m) => m.replace(/^(?:(\w+)=)?/, (_, name) => (name ? `${name}=${root}/` : `${root}/`))).join(','),
  );
  const db = await svc().connect();
  const psql = (sql: string) =>
    execFileSync('psql', ['-X', '-v', 'ON_ERROR_STOP=1', '-At', '-f', '-'], {
      input: sql,
      env: { ...process.env, ...svc().cluster.env() },
      encoding: 'utf8',
    });
  try {
    await eventually(
      'the worker to heartbeat',
      async () => (await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running'`)).rows.length > 0,
    );
    const out = psql(first);
    expect(out).toContain(', there was a little girl named Lily.');
    expect(out).toMatch(/^\{"name":"(Lily|Tom)","age":[2-9]\}$/m);
    expect(out).toMatch(/^ [0-9]{4}-[0-9]{2}-[0-9]{2}$/m);
    expect(out).toMatch(/^ (mom|dog|car)$/m);
    // svc_rerank through svc-embed, the model named embed: the dog first.
    expect(out).toMatch(/^Max the dog barked\|[0-9.]+\nThe cake was sweet\|/m);
    expect((await db.query(`SELECT label FROM tickets ORDER BY id`)).rows.map((r) => r.label)).toEqual([
      expect.stringMatching(/^(bug|question)$/),
      expect.stringMatching(/^(bug|question)$/),
    ]);
    await eventually(
      'the backfill',
      async () => (await db.query(`SELECT rows_pending FROM svc_vectorizer_status()`)).rows[0]?.rows_pending === '0',
    );
    const found = psql(search).trim().split('\n');
    expect(found).toHaveLength(3);
    expect(found[0]).toMatch(/^\{"id": 7\}\|/);
  } finally {
    await worker.stop();
  }
}, 150_000);

test('the TypeScript example runs and gives what its comments say', async () => {
  const [block] = readmeBlocks(SECTION, 'ts');
  expect(block).toContain("configure({ model: 'models/stories260K.gguf' })");
  // Written into .tmp/, so its relative imports point one level up; it prints what it computed.
  const dir = join(root, '.tmp');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `readme-example-${process.pid}.ts`);
  writeFileSync(
    file,
    `${block.replaceAll("from './src/", "from '../src/")}
console.log(JSON.stringify({ kid, who, happy }));
process.exit(0);
`,
  );
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: root, env, timeout: 120_000 });
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(out).toEqual({ kid: { name: 'Tom', age: 9 }, who: ' mom', happy: expect.any(Boolean) });
  } finally {
    rmSync(file, { force: true });
  }
}, 150_000);

test('the shell example runs, every command exiting 0', async () => {
  const [block] = readmeBlocks(SECTION, 'sh');
  expect(block).toContain('export SVC_MODEL=models/stories260K.gguf');
  expect(block).toMatch(/^npx svc /m);
  const script = `set -euo pipefail\n${block}`;
  const { stdout } = await run('bash', ['-c', script], { cwd: root, env, timeout: 120_000, maxBuffer: 16 << 20 });
  expect(stdout).toContain(', there was a little girl named Lily. She loved to play');
  expect(stdout).toMatch(/^, there was a little girl named Lily\.$/m);
  expect(stdout).toMatch(/^(play|sleep|cry)$/m);
  expect(stdout).toMatch(/^root ::= /m);
  rmSync(join(root, '.tmp/any-character.gguf'), { force: true });
}, 150_000);
