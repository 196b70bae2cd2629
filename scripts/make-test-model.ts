// Writes the tiny deterministic test GGUF (src/model/test-model.ts) to PATH.
// Usage: npx tsx scripts/make-test-model.ts PATH [--f16] [--seed N]
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { makeTestModel } from '../src/model/test-model.ts';

export function writeTestModel(path: string, opts: Parameters<typeof makeTestModel>[0] = {}): string {
  const out = resolve(path);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, makeTestModel(opts));
  return out;
}

/** The default test model's path, written first if missing (atomically: tests run in parallel). */
export function ensureTestModel(path = '.tmp/test-model.gguf'): string {
  const out = resolve(path);
  if (!existsSync(out)) {
    const tmp = `${out}.${process.pid}`;
    writeTestModel(tmp);
    renameSync(tmp, out);
  }
  return out;
}

const isMain =
  process.argv[1] &&
  resolve(process.argv[1]).replace(/\.ts$/, '') === resolve(new URL(import.meta.url).pathname).replace(/\.ts$/, '');
if (isMain) {
  const args = process.argv.slice(2);
  const path = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
  if (!path) {
    console.error('usage: make-test-model PATH [--f16] [--seed N]');
    process.exit(2);
  }
  const seedIdx = args.indexOf('--seed');
  const seed = seedIdx >= 0 ? Number(args[seedIdx + 1]) : undefined;
  const out = writeTestModel(path, { dtype: args.includes('--f16') ? 'f16' : 'f32', seed });
  console.log(out);
}
