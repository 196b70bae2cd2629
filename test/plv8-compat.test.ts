// plv8-compat's SQL regression suite (plv8-compat/sql, expected/) run by pg_regress against a real
// throwaway cluster, then a look at the server log: the error suite must not have crashed a backend.
// PLV8_COMPAT_BUILD (see the Makefile) runs the build made there, for another PostgreSQL.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { useCluster } from './helpers/cluster.js';

const cluster = useCluster({ settings: { log_min_messages: 'warning' } });
const run = promisify(execFile);

test('the plv8-compat regression suite passes', async () => {
  try {
    await run('make', ['-s', '--no-print-directory', 'plv8-compat-installcheck'], {
      env: { ...process.env, ...cluster().env() },
      maxBuffer: 64 << 20,
    });
  } catch (error) {
    const diffs = `${process.env.PLV8_COMPAT_BUILD || 'plv8-compat'}/regression.diffs`;
    const detail = existsSync(diffs) ? readFileSync(diffs, 'utf8').slice(0, 20_000) : '';
    throw new Error(`${(error as { stdout?: string }).stdout ?? ''}\n${detail}`);
  }
}, 600_000);

test('no backend crashed and the postmaster never restarted during the suite', () => {
  const log = cluster().log();
  expect(log).not.toMatch(/terminated by signal/);
  expect(log).not.toMatch(/was terminated by/);
  expect(log).not.toMatch(/terminating any other active server processes/);
  expect(log).not.toMatch(/all server processes terminated; reinitializing/);
  process.kill(cluster().postmasterPid, 0); // throws if the postmaster we started is gone
});
