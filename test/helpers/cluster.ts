// Jest glue for the throwaway cluster: one cluster per test file, started in beforeAll, stopped in
// afterAll (and by the reaper if the test process dies first).
import { startCluster, type Cluster, type ClusterOptions } from '../../scripts/cluster.js';

export function useCluster(options?: ClusterOptions): () => Cluster {
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    cluster = await startCluster(options);
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  return () => {
    if (!cluster) throw new Error('the cluster is not started: call useCluster() at the top of the test file');
    return cluster;
  };
}
