// Released SQL never changes: every script in extension/releases/ is listed in SHA256SUMS with the
// hash it had when it was released (scripts/release-extension.ts), and every released version has an
// upgrade path to the version in development (svc.control).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RELEASES, SUMS, releasedVersions, sha256 } from '../../scripts/release-extension.js';

const current = /default_version\s*=\s*'([^']+)'/.exec(readFileSync('svc.control', 'utf8'))![1];
const listed = readFileSync(SUMS, 'utf8').trim().split('\n').map((line) => {
  const [hash, file] = line.split(/\s+/);
  return { hash, file };
});
const scripts = readdirSync(RELEASES).filter((f) => f.endsWith('.sql')).sort();
const installs = releasedVersions();
// Upgrade steps: the released ones, then the migrations into the version in development.
const steps = [
  ...scripts.map((f) => /^svc--(.+)--(.+)\.sql$/.exec(f)).filter((m) => m !== null).map((m) => [m![1], m![2]] as const),
  ...readdirSync('src/extension/migrations').map((f) => /^(.+)--(.+)\.sql$/.exec(f)).filter((m) => m !== null && m[2] === current).map((m) => [m![1], m![2]] as const),
];

test('every released script is listed in SHA256SUMS and unchanged since its release', () => {
  expect(listed.map((l) => l.file).sort()).toEqual(scripts);
  for (const { hash, file } of listed) expect({ file, hash: sha256(join(RELEASES, file)) }).toEqual({ file, hash });
});

test(`the version in development (${current}) is not released yet: bump svc.control after a release`, () => {
  expect(installs).not.toContain(current);
  expect(existsSync(join(RELEASES, `svc--${current}.sql`))).toBe(false);
});

test.each(installs)(`released %s has an upgrade path to ${current}`, (version) => {
  const reached = new Set([version]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [from, to] of steps) if (reached.has(from) && !reached.has(to)) (reached.add(to), (grew = true));
  }
  expect(reached.has(current)).toBe(true);
});
