// One spelling of each SQLSTATE (src/queue/sqlstate.ts): PostgreSQL's own condition names in the
// table are the ones it knows, with their codes; the build writes svc's own names (class SV) as codes
// and refuses a body that raises a code by number or by a name the table lacks.
import { SQLSTATE } from '../../src/queue/sqlstate.js';
import { spellErrcodes } from '../../scripts/build-extension.js';
import { useCluster } from '../helpers/cluster.js';

const cluster = useCluster();

test("every condition name of the table is PostgreSQL's, with its code; svc's own are of class SV", async () => {
  const db = await cluster().connect();
  try {
    for (const [name, code] of Object.entries(SQLSTATE)) {
      if (name.startsWith('svc_')) {
        expect([name, code]).toEqual([name, expect.stringMatching(/^SV\d{3}$/)]);
        continue;
      }
      const raised = await db.query(`DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = '${name}'; END $$`).catch((e: { code: string }) => e.code);
      expect([name, raised]).toEqual([name, code]);
    }
  } finally {
    await db.end();
  }
});

test('the build writes a body\'s condition as named, svc\'s own as its code, and refuses a number or an unknown name', () => {
  expect(spellErrcodes(`RAISE EXCEPTION 'x' USING ERRCODE = 'invalid_parameter_value';`)).toBe(`RAISE EXCEPTION 'x' USING ERRCODE = 'invalid_parameter_value';`);
  expect(spellErrcodes(`RAISE EXCEPTION USING ERRCODE = 'svc_timed_out', MESSAGE = 'late';`)).toBe(`RAISE EXCEPTION USING ERRCODE = 'SV003', MESSAGE = 'late';`);
  expect(() => spellErrcodes(`USING ERRCODE = '22023'`)).toThrow(/ERRCODE '22023': name a condition of src\/queue\/sqlstate.ts/);
  expect(() => spellErrcodes(`USING ERRCODE = 'invalid_paramter_value'`)).toThrow(/ERRCODE 'invalid_paramter_value'/);
});
