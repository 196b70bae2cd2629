// A throwaway PostgreSQL 15 cluster for tests, the demo and benchmarks: a temporary data directory,
// a unix socket inside it (no TCP listener), a free port number, `postgres` as the OS user when we
// are root (the server refuses to run as root). It is always removed: by stop(), and, should this
// process die without calling it (a failed test, Ctrl-C, kill -9), by a detached reaper process that
// watches our pid.
//
// Run directly (`tsx scripts/cluster.ts`) it starts one, prints its connection as JSON and keeps it
// until interrupted.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync, chownSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

export interface ClusterOptions {
  /** Extra server settings, as `-c name=value`. */
  settings?: Record<string, string | number>;
}

export interface Cluster {
  readonly host: string; // the socket directory
  readonly port: number;
  readonly user: string;
  readonly dataDir: string;
  readonly logFile: string;
  readonly postmasterPid: number;
  /** Environment for libpq clients (psql, pg_regress, make installcheck). */
  env(database?: string): Record<string, string>;
  /** A connection, closed by stop() if the caller has not closed it. */
  connect(database?: string, user?: string): Promise<pg.Client>;
  /** Restarts the server (fast shutdown: connections are dropped), e.g. to test reconnection. */
  restart(): Promise<void>;
  /** The server log so far. */
  log(): string;
  stop(): Promise<void>;
}

const isRoot = process.getuid?.() === 0;

export function pgBinDir(): string {
  return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
}

/** Runs a server binary as the cluster's OS user. */
function asClusterUser(bin: string, args: string[]): [string, string[]] {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a detached shell that removes the cluster once `watchedPid` is gone. */
function startReaper(watchedPid: number, dataDir: string, baseDir: string): number {
  const script = `
    while kill -0 ${watchedPid} 2>/dev/null; do sleep 0.5; done
    pid=$(head -1 "${dataDir}/postmaster.pid" 2>/dev/null)
    if [ -n "$pid" ]; then
      kill -QUIT "$pid" 2>/dev/null
      for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null
    fi
    rm -rf "${baseDir}"`;
  const reaper = spawn('bash', ['-c', script], { detached: true, stdio: 'ignore' });
  reaper.unref();
  return reaper.pid!;
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const bin = pgBinDir();
  const baseDir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  const dataDir = join(baseDir, 'data');
  const logFile = join(baseDir, 'server.log');
  const user = 'postgres';
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(baseDir, uid, gid);
  }
  const reaperPid = startReaper(process.pid, dataDir, baseDir);
  const run = (binary: string, args: string[]) => {
    const [cmd, argv] = asClusterUser(join(bin, binary), args);
    execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  };
  try {
    run('initdb', ['-D', dataDir, '-A', 'trust', '-U', user, '-E', 'UTF8', '--locale=C', '--no-sync']);
    const port = await freePort();
    const settings: Record<string, string | number> = {
      listen_addresses: "''",
      unix_socket_directories: baseDir,
      port,
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
      max_connections: 50,
      ...options.settings,
    };
    const serverOptions = Object.entries(settings)
      .map(([k, v]) => `-c ${k}=${v}`)
      .join(' ');
    run('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start']);
    const postmasterPid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

    const env = (database = 'postgres') => ({
      PGHOST: baseDir,
      PGPORT: String(port),
      PGUSER: user,
      PGDATABASE: database,
    });
    let stopped = false;
    // Connections handed out are closed before the server stops, so no client sees it go away.
    const clients = new Set<pg.Client>();
    return {
      host: baseDir,
      port,
      user,
      dataDir,
      logFile,
      postmasterPid,
      env,
      async connect(database = 'postgres', role = user) {
        const client = new pg.Client({ host: baseDir, port, user: role, database });
        await client.connect();
        clients.add(client);
        client.once('end', () => clients.delete(client));
        return client;
      },
      async restart() {
        run('pg_ctl', ['-D', dataDir, '-l', logFile, '-m', 'fast', '-w', '-t', '60', 'restart']);
      },
      log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
      async stop() {
        if (stopped) return;
        stopped = true;
        await Promise.all([...clients].map((client) => client.end().catch(() => undefined)));
        try {
          run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
        } finally {
          rmSync(baseDir, { recursive: true, force: true });
          try {
            process.kill(reaperPid);
          } catch {
            /* already gone */
          }
        }
      },
    };
  } catch (error) {
    // The reaper would clean up when we exit; a caller that goes on gets the directory back now.
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']);
    } catch {
      /* not started */
    }
    rmSync(baseDir, { recursive: true, force: true });
    try {
      process.kill(reaperPid);
    } catch {
      /* already gone */
    }
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    throw new Error(`could not start a throwaway PostgreSQL cluster: ${(error as Error).message}\n${stderr}${log}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const cluster = await startCluster();
  console.log(
    JSON.stringify({
      host: cluster.host,
      port: cluster.port,
      user: cluster.user,
      dataDir: cluster.dataDir,
      postmasterPid: cluster.postmasterPid,
      osUser: userInfo().username,
    }),
  );
  const stop = async () => {
    await cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  setInterval(() => {}, 1 << 30);
}
