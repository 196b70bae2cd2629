import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { startCluster } from '../scripts/cluster.js';
import { useCluster } from './helpers/cluster.js';

const cluster = useCluster();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(predicate: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return predicate();
}

test('hands out a connection to a PostgreSQL 15 server on a unix socket only', async () => {
  const client = await cluster().connect();
  try {
    const { rows } = await client.query(`select current_setting('server_version_num')::int as v,
      current_setting('listen_addresses') as listen, current_user as who`);
    expect(rows[0].v).toBeGreaterThanOrEqual(150000);
    expect(rows[0].v).toBeLessThan(160000);
    expect(rows[0].listen).toBe('');
    expect(rows[0].who).toBe('postgres');
  } finally {
    await client.end();
  }
});

test('stop() shuts the server down and removes its directory', async () => {
  const other = await startCluster();
  expect(existsSync(other.dataDir)).toBe(true);
  expect(other.port).not.toBe(cluster().port);
  await other.stop();
  expect(existsSync(other.dataDir)).toBe(false);
  // pg_ctl returns once postmaster.pid is gone, a moment before the process itself exits.
  expect(await waitFor(() => !isAlive(other.postmasterPid), 5_000)).toBe(true);
});

test('a cluster whose owner process is killed is stopped and removed anyway', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`cluster script exited with ${code}`)));
  });
  const started = JSON.parse(line) as { dataDir: string; postmasterPid: number };
  expect(isAlive(started.postmasterPid)).toBe(true);
  child.kill('SIGKILL');
  expect(await waitFor(() => !isAlive(started.postmasterPid) && !existsSync(started.dataDir), 20_000)).toBe(true);
}, 60_000);

// The README's `npx tsx scripts/cluster.ts`, stopped as a user stops it with `kill -INT %1` or
// `kill <pid>`: the signal reaches only npx. npm forwards it to the shell it runs the command in;
// dash would keep it, so .npmrc makes that shell bash, which runs tsx in its own place, and tsx
// relays the signal to the script.
test.each(['SIGINT', 'SIGTERM'] as const)(
  'npx tsx scripts/cluster.ts stops and removes the cluster on %s to the npx process',
  async (signal) => {
    const npx = spawn('npx', ['tsx', 'scripts/cluster.ts'], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: npx.stdout! }).once('line', resolve);
      npx.once('exit', (code) => reject(new Error(`npx exited with ${code}`)));
    });
    const started = JSON.parse(line) as { dataDir: string; postmasterPid: number };
    expect(isAlive(started.postmasterPid)).toBe(true);
    const exited = new Promise<number | null>((resolve) => npx.once('exit', (code) => resolve(code)));
    try {
      npx.kill(signal);
      expect(await waitFor(() => !isAlive(started.postmasterPid) && !existsSync(started.dataDir), 15_000)).toBe(true);
      expect(await exited).toBe(0);
    } finally {
      // Failed: the script's group is killed, and its reaper removes the cluster.
      if (npx.exitCode === null) process.kill(-npx.pid!, 'SIGKILL');
    }
  },
  60_000,
);
