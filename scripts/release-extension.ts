// Freezes the current version of the svc extension as released: copies its generated install script
// and its upgrade scripts into extension/releases/ and records their SHA-256 in
// extension/releases/SHA256SUMS, which test/extension/releases.test.ts checks so a released script is
// never edited. Afterwards, before any other change to src/extension or src/grammar, bump
// default_version in svc.control and add src/extension/migrations/<released>--<next>.sql.
//
// Usage: npx tsx scripts/release-extension.ts
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { controlVersion, emitExtension } from './build-extension.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const RELEASES = join(root, 'extension/releases');
export const SUMS = join(RELEASES, 'SHA256SUMS');

export const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** The versions whose full install script is kept in extension/releases/, oldest first by name. */
export function releasedVersions(): string[] {
  return readdirSync(RELEASES)
    .map((f) => /^svc--(.+)\.sql$/.exec(f)?.[1])
    .filter((v): v is string => v !== undefined && !v.includes('--'))
    .sort();
}

/** SHA256SUMS as sha256sum writes it (`<hex>  <file>`), one line per released script, sorted. */
export function sumsText(dir: string): string {
  const files = readdirSync(dir)
    .filter((f) => /^svc--.+\.sql$/.test(f))
    .sort();
  return files.map((f) => `${sha256(join(dir, f))}  ${f}\n`).join('');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const version = controlVersion();
  if (existsSync(join(RELEASES, `svc--${version}.sql`))) {
    console.error(`svc ${version} is already released: bump default_version in svc.control first`);
    process.exit(1);
  }
  const { written } = await emitExtension();
  for (const path of written) copyFileSync(path, join(RELEASES, basename(path)));
  writeFileSync(SUMS, sumsText(RELEASES));
  console.error(`released svc ${version}: ${written.map((p) => `extension/releases/${basename(p)}`).join(', ')}`);
  console.error(`next: bump default_version in svc.control, add src/extension/migrations/${version}--<next>.sql`);
}
