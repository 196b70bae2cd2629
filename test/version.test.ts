// One version: the package's is the extension's it speaks, and both commands print it.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { VERSION, EXTENSION_VERSIONS } from '../src/version.js';

const run = promisify(execFile);
const root = new URL('..', import.meta.url);

test("package.json's version and svc.control's default_version are src/version.ts's", () => {
  expect(JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).version).toBe(VERSION);
  expect(/^default_version\s*=\s*'([^']+)'/m.exec(readFileSync(new URL('svc.control', root), 'utf8'))![1]).toBe(
    VERSION,
  );
  expect(EXTENSION_VERSIONS).toContain(VERSION);
});

test('svc --version and svc-worker --version print the package and extension versions, exit 0', async () => {
  for (const [bin, name] of [
    ['bin/svc.js', 'svc'],
    ['bin/svc-worker.js', 'svc-worker'],
  ]) {
    for (const flag of ['--version', '-V']) {
      const { stdout } = await run(process.execPath, [bin, flag], { cwd: root, timeout: 60_000 });
      expect(stdout.trim()).toBe(`${name} ${VERSION} (svc extension ${VERSION})`);
    }
  }
}, 120_000);
