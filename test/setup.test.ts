// `npm test` has just run scripts/setup.sh; running it again must find everything in place and do
// nothing: no apt, no unpack, no npm ci, no install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

test('a second setup run is a no-op', () => {
  const stderr = execFileSync('bash', ['-c', 'bash scripts/setup.sh 2>&1 >/dev/null'], { encoding: 'utf8' });
  expect(stderr.trim()).toBe('[setup] ready');
}, 120_000);

test('libnode is unpacked project-locally, not over the system Node headers', () => {
  expect(existsSync('.deps/libnode/usr/include/node/v8-version.h')).toBe(true);
  const systemHeader = '/usr/include/node/v8-version.h';
  if (existsSync(systemHeader)) {
    const major = execFileSync('grep', ['-m1', 'define V8_MAJOR_VERSION', systemHeader], { encoding: 'utf8' });
    expect(major).not.toMatch(/\b10\s*$/); // Node 20's own V8 11.x headers are untouched
  }
});
