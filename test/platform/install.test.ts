// docs/install.md followed on a fresh cluster configured like production: its pg_hba.conf is
// Debian's default (peer on the socket, scram-sha-256 over TCP, no trust) with the guide's lines,
// the application, operator and worker roles are the guide's (no superuser among them), and every
// SQL and configuration block of the guide runs as written. Two changes, each because a test cluster
// is not a production one: the server listens on a free port rather than 5432 (so the scram target
// names it), and the peer mapping names the OS user the test cluster runs as where that is not
// `postgres`. The superuser's connection is opened before the guide's pg_hba.conf is loaded.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { startCluster, type Cluster } from '../../scripts/cluster.js';
import { STORIES_MODEL } from '../../scripts/real-models.js';
import { fencedBlocks } from '../helpers/docs.js';
import { eventually } from '../helpers/worker.js';

const GUIDE = 'docs/install.md';
const block = (heading: string, lang: string, index = 0) => {
  const blocks = fencedBlocks(GUIDE, heading, lang);
  if (blocks[index] === undefined) throw new Error(`${GUIDE}: no ${lang} block ${index} under "${heading}"`);
  return blocks[index];
};
/** The configuration lines of a block, comments and blank lines left out. */
const configLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);

let cluster: Cluster;
let admin: pg.Client; // the superuser, in the database `app`
let adminUpgraded: pg.Client; // the superuser, in the database `upgraded`
let worker: ChildProcess | undefined;
const clients: pg.Client[] = [];
const serverOsUser = () =>
  readFileSync('/proc/' + cluster.postmasterPid + '/status', 'utf8').match(/^Uid:\s+(\d+)/m)![1];

async function login(
  user: string,
  password: string | undefined,
  database = 'app',
  host = '127.0.0.1',
): Promise<pg.Client> {
  const client = new pg.Client({ host, port: cluster.port, user, password, database });
  client.on('error', () => undefined);
  await client.connect();
  clients.push(client);
  return client;
}

/** Debian's default pg_hba.conf with `lines` before `local all all peer`, as the guide says. */
function writeHba(lines: string[]): void {
  const hba = [
    'local all postgres peer',
    ...lines,
    'local all all peer',
    'host all all 127.0.0.1/32 scram-sha-256',
    'host all all ::1/128 scram-sha-256',
  ];
  writeFileSync(join(cluster.dataDir, 'pg_hba.conf'), hba.join('\n') + '\n');
}

async function reload(): Promise<void> {
  await admin.query('SELECT pg_reload_conf()');
  const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_hba_file_rules WHERE error IS NOT NULL`);
  expect(rows[0].n).toBe(0);
}

beforeAll(async () => {
  cluster = await startCluster({ settings: { listen_addresses: "'127.0.0.1'" } });
  const postgres = await cluster.connect();
  await postgres.query('CREATE DATABASE app');
  await postgres.query('CREATE DATABASE upgraded');
  await postgres.end();
  admin = await cluster.connect('app');
  adminUpgraded = await cluster.connect('upgraded');
  // The guide's peer lines; its pg_ident.conf mapping names the server's OS user.
  const osUser = (await import('node:os')).userInfo({ encoding: 'utf8' });
  const serverUser = serverOsUser() === String(osUser.uid) ? osUser.username : 'postgres';
  writeHba(configLines(block("Peer (Debian's default)", 'conf', 0)));
  const ident = configLines(block("Peer (Debian's default)", 'conf', 1)).map((line) =>
    line.replace(/^(\S+)\s+postgres\s+/, `$1 ${serverUser} `),
  );
  writeFileSync(join(cluster.dataDir, 'pg_ident.conf'), ident.join('\n') + '\n');
  await reload();
}, 120_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((resolve) => worker!.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
  }
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await admin?.end().catch(() => undefined);
  await cluster?.stop();
});

test('no trust: a role logs in only by peer mapping or password', async () => {
  const hba = readFileSync(join(cluster.dataDir, 'pg_hba.conf'), 'utf8');
  expect(hba).not.toMatch(/trust/);
  await expect(login('postgres', undefined, 'app', cluster.host)).rejects.toThrow(
    /Peer authentication failed|password authentication failed/,
  );
});

test("2: the guide's npm command is accepted by npm 11 and npm 10 (a dry run over the package files, which is where npm ci refused)", async () => {
  const shell = fencedBlocks(GUIDE, '2. Build and install the extension', 'sh')[0];
  const command = shell
    .split('\n')
    .find((line) => line.startsWith('npm '))!
    .replace(/#.*/, '')
    .trim();
  expect(command).toBe('npm install --no-save');
  const dir = mkdtempSync(join(tmpdir(), 'svc-npm-'));
  try {
    for (const file of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(file, join(dir, file));
    const run = promisify(execFile);
    const args = [...command.split(' ').slice(1), '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'];
    for (const npm of [['npm'], ['npx', '-y', 'npm@10']]) {
      const [bin, ...pre] = npm;
      await run(bin, [...pre, ...args], { cwd: dir, timeout: 240_000, maxBuffer: 16 << 20 });
    }
    expect(readFileSync(join(dir, 'package-lock.json'), 'utf8')).toBe(readFileSync('package-lock.json', 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 300_000);

test('3-4: the extension and the roles, as the guide writes them; none of the roles is a superuser', async () => {
  const vector = (await admin.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rows.length > 0;
  const create = block('3. Create the extension', 'sql');
  // pgvector is optional: where it is not installed its line is the one left out.
  await admin.query(vector ? create : create.replace(/^CREATE EXTENSION IF NOT EXISTS vector.*$/m, ''));
  await admin.query(block('4. Roles', 'sql'));
  const { rows } = await admin.query(
    `SELECT rolname, rolsuper, rolcreaterole, rolbypassrls FROM pg_roles WHERE rolname IN ('svc_worker_app', 'app', 'ops', 'svc_sync', 'svc_owner')`,
  );
  expect(rows).toHaveLength(5);
  for (const row of rows) expect(row).toMatchObject({ rolsuper: false, rolcreaterole: false, rolbypassrls: false });
});

test("6: the worker logs in with its password over TCP, and the guide's status query sees it", async () => {
  const password = /PGPASSWORD=([\w-]+)/.exec(readFileSync(GUIDE, 'utf8'))![1];
  worker = spawn(
    process.execPath,
    [
      'bin/svc-worker.js',
      '--model',
      STORIES_MODEL,
      '--db-host',
      '127.0.0.1',
      '--db-port',
      String(cluster.port),
      '--db-name',
      'app',
      '--db-user',
      'svc_worker_app',
      '--threads',
      '1',
    ],
    {
      env: { ...process.env, PGPASSWORD: password, SVC_WORKER_POLL_INTERVAL: '0.2', SVC_WORKER_HEARTBEAT: '0.5' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const logs: string[] = [];
  worker.stderr!.setEncoding('utf8').on('data', (chunk: string) => logs.push(chunk));
  const ops = await login('ops', 'ops-secret');
  const status = block('6. The worker as a service', 'sql');
  const running = await eventually(`the worker to heartbeat (its log: ${logs.join('')})`, async () =>
    (await ops.query(status)).rows.find((r) => r.state === 'running'),
  );
  expect(running.model).toMatch(/stories260K/);
});

test('5, peer: an application role calls a synchronous function (svc_sync logs in by the peer mapping)', async () => {
  const app = await login('app', 'app-secret');
  expect((await app.query(`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`)).rows[0].rolsuper).toBe(false);
  const text = (await app.query(`SELECT svc_generate('Once upon a time', max_tokens := 8) AS t`)).rows[0].t;
  expect(text.length).toBeGreaterThan(0);
  // Only the server's OS user logs in as svc_sync: not the test's, not by password (it has none yet).
  await expect(login('svc_sync', 'x')).rejects.toThrow(/password authentication failed/);
  expect((await app.query(`SELECT count(*)::int AS n FROM svc_queue`)).rows[0].n).toBe(1); // its own request only
});

test('5, scram-sha-256: with the peer line gone, svc_sync logs in with its password', async () => {
  writeHba([]);
  await reload();
  const app = await login('app', 'app-secret');
  await expect(app.query(`SELECT svc_generate('A cat', max_tokens := 8)`)).rejects.toMatchObject({
    code: '08001',
    message: expect.stringMatching(/svc_sync/),
  });
  // The guide's statements; the test cluster's port added to the target (the guide's server is on 5432).
  const sql = block('Passwords (scram-sha-256)', 'sql').replace(
    "'host=127.0.0.1 password=sync-secret'",
    `'host=127.0.0.1 port=${cluster.port} password=sync-secret'`,
  );
  expect(sql).toContain(`port=${cluster.port}`);
  // One statement at a time, as psql runs them: the password is committed before svc tries it.
  for (const statement of sql.split(/;\s*\n/).filter((s) => s.trim())) await admin.query(statement);
  const text = (await app.query(`SELECT svc_generate('A cat', max_tokens := 8) AS t`)).rows[0].t;
  expect(text.length).toBeGreaterThan(0);
});

test("7: an installation of the previous release is updated by the guide's statements", async () => {
  await adminUpgraded.query(`CREATE EXTENSION svc VERSION '0.1.0' CASCADE`);
  const results = (await adminUpgraded.query(block('7. Upgrades', 'sql'))) as unknown as pg.QueryResult[];
  const { rows } = results.at(-1)!;
  const current = /default_version = '([^']+)'/.exec(readFileSync('svc.control', 'utf8'))![1];
  expect(rows).toEqual([{ extversion: current }]);
});

test("8: uninstall drops the extension, then its roles and the guide's", async () => {
  const exited = new Promise((resolve) => worker!.once('exit', resolve));
  worker!.kill('SIGTERM');
  expect(await exited).toBe(0);
  await Promise.all(clients.splice(0).map((c) => c.end().catch(() => undefined)));
  // A vectorizer of the application's, in a schema of its own, declared before the uninstall.
  await admin.query(`CREATE SCHEMA app_data AUTHORIZATION app`);
  const app = await admin.query(`SET ROLE app; CREATE TABLE app_data.notes (id integer PRIMARY KEY, body text);
    SELECT svc_vectorize('app_data.notes', 'body', 'notes'); RESET ROLE`);
  expect(app).toBeDefined();
  const [dropExtension, dropRoles] = fencedBlocks(GUIDE, '8. Uninstall', 'sql');
  await admin.query(dropExtension);
  // Its destination stayed, the application's now; svc_owner keeps nothing there.
  expect(
    (await admin.query(`SELECT tableowner FROM pg_tables WHERE schemaname = 'app_data' ORDER BY tablename`)).rows,
  ).toEqual([{ tableowner: 'app' }, { tableowner: 'app' }]);
  await admin.query(`DROP SCHEMA app_data CASCADE`); // the test's own, so that the guide's DROP ROLE app finds nothing of it
  await adminUpgraded.query(dropExtension);
  await admin.query(dropRoles);
  const { rows } = await admin.query(
    `SELECT rolname FROM pg_roles WHERE rolname LIKE 'svc%' OR rolname IN ('app', 'ops')`,
  );
  expect(rows).toEqual([]);
});
