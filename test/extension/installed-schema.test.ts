// extension/installed.sql is what CREATE EXTENSION svc installs (scripts/dump-schema.ts), and
// extension/bundle.js the JavaScript its functions run: a change to the schema, to any function or to
// the TypeScript bundled into the extension must come with the regenerated files, so their diff shows
// in review.
import { readFileSync } from 'node:fs';
import { INSTALLED_BUNDLE, INSTALLED_SCHEMA, dumpBundle, dumpSchema } from '../../scripts/dump-schema.js';
import { FUNCTIONS } from '../../src/extension/catalog.js';
import { useCluster } from '../helpers/cluster.js';

const cluster = useCluster();

test('extension/installed.sql and bundle.js are current (else: npx tsx scripts/dump-schema.ts, and commit them)', async () => {
  const client = await cluster().connect();
  try {
    await client.query('CREATE EXTENSION svc CASCADE');
    expect(await dumpSchema(client)).toBe(readFileSync(INSTALLED_SCHEMA, 'utf8'));
    const bundle = await dumpBundle(client);
    expect(bundle).toBe(readFileSync(INSTALLED_BUNDLE, 'utf8'));
    // Names kept: each catalog function's JavaScript is found by the name its stub calls (api.<name>).
    const names = FUNCTIONS.flatMap((fn) => ('ts' in fn.body ? [fn.body.ts] : []));
    expect(names.length).toBeGreaterThan(40);
    expect(names.filter((name) => !new RegExp(`^\\s+(var|function|const|let) ${name}\\b`, 'm').test(bundle))).toEqual([]);
  } finally {
    await client.end();
  }
});
