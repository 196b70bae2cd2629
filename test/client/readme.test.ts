// The README's library and `svc` examples run as they are written, on the committed stories260K: the
// TypeScript block through tsx, the shell block through bash with `svc` as `node bin/svc.js`.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { fencedBlocks } from '../helpers/docs.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..');

const readmeBlocks = (heading: string, lang: string) => fencedBlocks('README.md', heading, lang);

const SECTION = 'The library and the `svc` command';
const env = { ...process.env, SVC_THREADS: '1', SVC_MODEL: '' };

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
  const script = `set -euo pipefail\nsvc() { node bin/svc.js "$@"; }\n${block}`;
  const { stdout } = await run('bash', ['-c', script], { cwd: root, env, timeout: 120_000, maxBuffer: 16 << 20 });
  expect(stdout).toContain(', there was a little girl named Lily. She loved to play');
  expect(stdout).toMatch(/^, there was a little girl named Lily\.$/m);
  expect(stdout).toMatch(/^(play|sleep|cry)$/m);
  expect(stdout).toMatch(/^root ::= /m);
  rmSync(join(root, '.tmp/any-character.gguf'), { force: true });
}, 150_000);
