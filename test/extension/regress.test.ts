// svc's pg_regress suite (test/regress/sql, expected/): `make svc-installcheck` against a throwaway
// cluster, as `make installcheck` runs it against a user's server. It pins \df svc_* (surface) and every
// documented error (SQLSTATE, message, detail, hint).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { useCluster } from '../helpers/cluster.js';

const cluster = useCluster();
const run = promisify(execFile);

test('the svc regression suite passes', async () => {
  try {
    await run('make', ['-s', '--no-print-directory', 'svc-installcheck'], { env: { ...process.env, ...cluster().env() }, maxBuffer: 64 << 20 });
  } catch (error) {
    const diffs = '.tmp/regress/regression.diffs';
    const detail = existsSync(diffs) ? readFileSync(diffs, 'utf8').slice(0, 20_000) : '';
    throw new Error(`${(error as { stdout?: string }).stdout ?? ''}\n${detail}`);
  }
}, 120_000);
