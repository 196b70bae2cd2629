// extension/installed.sql is what CREATE EXTENSION svc installs (scripts/dump-schema.ts): a change to
// the schema or to any function must come with the regenerated file, so its diff shows in review.
import { readFileSync } from 'node:fs';
import { INSTALLED_SCHEMA, dumpSchema } from '../../scripts/dump-schema.js';
import { useCluster } from '../helpers/cluster.js';

const cluster = useCluster();

test('extension/installed.sql is current (else: npx tsx scripts/dump-schema.ts, and commit it)', async () => {
  const client = await cluster().connect();
  try {
    await client.query('CREATE EXTENSION svc CASCADE');
    expect(await dumpSchema(client)).toBe(readFileSync(INSTALLED_SCHEMA, 'utf8'));
  } finally {
    await client.end();
  }
});
