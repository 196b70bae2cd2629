// A throwaway cluster with `CREATE EXTENSION svc CASCADE` and the roles the tests play: a worker
// (member of svc_worker), two ordinary users and an admin (member of svc_admin).
import type pg from 'pg';
import { startCluster, type Cluster, type ClusterOptions } from '../../scripts/cluster.js';

export const ROLES = { worker: 'svc_test_worker', alice: 'alice', bob: 'bob', admin: 'svc_test_admin' } as const;

export interface SvcDatabase {
  cluster: Cluster;
  /** A connection as `role` (default: the superuser), closed after the test file. */
  connect(role?: string): Promise<pg.Client>;
}

export async function createSvcRoles(client: pg.Client): Promise<void> {
  await client.query(`CREATE ROLE ${ROLES.worker} LOGIN IN ROLE svc_worker;
    CREATE ROLE ${ROLES.alice} LOGIN; CREATE ROLE ${ROLES.bob} LOGIN;
    CREATE ROLE ${ROLES.admin} LOGIN IN ROLE svc_admin`);
}

export function useSvc(options?: ClusterOptions): () => SvcDatabase {
  const clients: pg.Client[] = [];
  let db: SvcDatabase | undefined;
  beforeAll(async () => {
    const cluster = await startCluster(options);
    const admin = await cluster.connect();
    try {
      await admin.query('CREATE EXTENSION svc CASCADE');
      await createSvcRoles(admin);
    } finally {
      await admin.end();
    }
    db = {
      cluster,
      async connect(role = cluster.user) {
        const client = await cluster.connect('postgres', role);
        client.on('error', () => undefined); // connections are torn down with the cluster
        clients.push(client);
        return client;
      },
    };
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await db?.cluster.stop();
  });
  return () => {
    if (!db) throw new Error('useSvc(): the database is not ready');
    return db;
  };
}
