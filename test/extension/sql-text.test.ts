// Property: every SQL text svc builds names exactly what it was given, whatever the names hold
// (quotes, backslashes, `$`, `--`, `/*`, semicolons, newlines, non-ASCII, dollar-quote tags) and
// whichever standard_conforming_strings the session runs it under. Checked on a real cluster: each
// builder's statements are run and what they created is read back from the catalogs, and the
// vectorizer's generated functions are run (as its proxy) and what they hand on is compared.
import fc from 'fast-check';
import type pg from 'pg';
import { useCluster } from '../helpers/cluster.js';
import { dollarQuote, qualified, quoteIdent, quoteLiteral } from '../../src/extension/sql-text.js';
import {
  backfillFunction, destinationTable, gateFunction, GENERATED, searchQuery, signature, triggerFunction, triggers, type VectorizerShape,
} from '../../src/extension/vectorizer-sql.js';

const cluster = useCluster();
let db: pg.Client;
beforeAll(async () => {
  db = await cluster().connect();
});

const HOSTILE = ["'", '"', '\\', '$', '--', '/*', '*/', ';', '\n', 'é', '日', '😀', 'a', 'Z', '_', ' ', '}', '$$', '$gate$', '$changed$', '$backfill$', "E'", '%I'];
// At most 12 pieces of at most 4 bytes... the longest piece is 10 bytes: kept under PostgreSQL's 63-byte names.
const name = fc
  .array(fc.constantFrom(...HOSTILE), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''))
  .filter((n) => Buffer.byteLength(n) <= 60 && !['chunk_index', 'chunk', 'embedding'].includes(n));
const names = (n: number) => fc.uniqueArray(name, { minLength: n, maxLength: n });

const SETTINGS = ['on', 'off'] as const;

test.each(SETTINGS)('literals, identifiers and dollar quotes read back exactly (standard_conforming_strings = %s)', async (setting) => {
  await db.query(`SET standard_conforming_strings = ${setting}`);
  try {
    await fc.assert(
      fc.asyncProperty(name, name, async (schema, table) => {
        expect((await db.query(`SELECT ${quoteLiteral(schema)} AS v, ${dollarQuote(table, 'x')} AS d`)).rows[0]).toEqual({ v: schema, d: table });
        await db.query('BEGIN');
        try {
          await db.query(`CREATE SCHEMA ${quoteIdent(schema)}; CREATE TABLE ${qualified(schema, table)} (${quoteIdent(table)} text)`);
          const found = (
            await db.query(
              `SELECT n.nspname, c.relname, a.attname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = 1
               WHERE c.oid = to_regclass(${quoteLiteral(qualified(schema, table))})`,
            )
          ).rows;
          expect(found).toEqual([{ nspname: schema, relname: table, attname: table }]);
        } finally {
          await db.query('ROLLBACK');
        }
      }),
      { numRuns: 40 },
    );
  } finally {
    await db.query('RESET standard_conforming_strings');
  }
});

/** What the gate's callees were handed, recorded by stand-ins for svc's internal functions. */
async function stubs(svcSchema: string): Promise<void> {
  const s = (fn: string) => qualified(svcSchema, fn);
  await db.query(`CREATE TABLE ${s('handed')} (fn text, vectorizer integer, value jsonb);
    CREATE FUNCTION ${s('svc__vectorizer_forget')}(integer, jsonb) RETURNS void LANGUAGE sql
      AS ${dollarQuote(`INSERT INTO ${s('handed')} VALUES ('forget', $1, $2)`, 'stub')};
    CREATE FUNCTION ${s('svc__vectorizer_enqueue')}(integer, jsonb) RETURNS integer LANGUAGE sql
      AS ${dollarQuote(`INSERT INTO ${s('handed')} VALUES ('enqueue', $1, $2); SELECT coalesce(jsonb_array_length($2), 0)`, 'stub')};
    CREATE FUNCTION ${s('svc_cosine_distance')}(real[], real[]) RETURNS double precision LANGUAGE sql AS 'SELECT 0.5::double precision';
    CREATE FUNCTION ${s('svc__cosine_distance_lower_bound')}(real[], real[]) RETURNS double precision LANGUAGE sql AS 'SELECT 0.5::double precision'`);
}

test.each(SETTINGS)(
  "the vectorizer's statements and generated functions name exactly the schemas, tables, columns and roles given (standard_conforming_strings = %s)",
  async (setting) => {
    await fc.assert(
      fc.asyncProperty(names(9), async ([svcSchema, appSchema, source, destination, key1, key2, column, field, proxy]) => {
        await db.query('BEGIN');
        try {
          await db.query(`SET LOCAL standard_conforming_strings = ${setting}`);
          await db.query(`CREATE ROLE ${quoteIdent(proxy)} NOLOGIN`);
          await db.query(`CREATE SCHEMA ${quoteIdent(svcSchema)} AUTHORIZATION ${quoteIdent(proxy)}; CREATE SCHEMA ${quoteIdent(appSchema)} AUTHORIZATION ${quoteIdent(proxy)}`);
          await stubs(svcSchema);
          await db.query(`GRANT ALL ON ALL TABLES IN SCHEMA ${quoteIdent(svcSchema)} TO ${quoteIdent(proxy)}`);
          await db.query(
            `CREATE TABLE ${qualified(appSchema, source)} (${quoteIdent(key1)} text, ${quoteIdent(key2)} integer, ${quoteIdent(column)} text, ${quoteIdent(field)} text, PRIMARY KEY (${quoteIdent(key1)}, ${quoteIdent(key2)}))`,
          );
          await db.query(`ALTER TABLE ${qualified(appSchema, source)} OWNER TO ${quoteIdent(proxy)}`);
          const v: VectorizerShape = {
            id: 7, svcSchema, proxy, source: qualified(appSchema, source), destination: qualified(appSchema, destination),
            keys: [{ name: key1, type: 'text', storage: 'text' }, { name: key2, type: 'integer', storage: 'integer' }], column, fields: [field], embeddingType: 'real[]', dimensions: null,
          };
          await db.query(destinationTable(v));
          await db.query(`ALTER TABLE ${v.destination} OWNER TO ${quoteIdent(proxy)}`);
          const columns = (await db.query(`SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 ORDER BY attnum`, [v.destination])).rows;
          expect(columns.map((c) => c.attname)).toEqual([key1, key2, 'chunk_index', 'chunk', 'embedding']);
          await db.query(gateFunction(v));
          for (const [fn, sql] of [['changed', triggerFunction(v)], ['backfill', backfillFunction(v)]] as const) {
            await db.query(sql);
            await db.query(`ALTER FUNCTION ${signature(svcSchema, v.id, fn)} OWNER TO ${quoteIdent(proxy)}`);
          }
          const made = (await db.query(`SELECT p.proname, p.proowner::regrole::text AS owner FROM pg_proc p WHERE p.pronamespace = $1::regnamespace ORDER BY 1`, [quoteIdent(svcSchema)]))
            .rows;
          expect(made.map((p) => p.proname)).toEqual(expect.arrayContaining(Object.values(GENERATED).map((g) => g.name(v.id))));
          for (const statement of triggers(v, 'v')) await db.query(statement);
          expect((await db.query(`SELECT count(*)::int AS n FROM pg_trigger WHERE tgrelid = to_regclass($1)`, [v.source])).rows[0].n).toBe(4);

          // Run them: a write to the source reaches the gate's callees with the columns named as given.
          await db.query(`INSERT INTO ${v.source} VALUES ($1, 1, 'the text', 'the field')`, ["k'\\"]);
          expect((await db.query(`SELECT ${qualified(svcSchema, GENERATED.backfill.name(v.id))}() AS n`)).rows[0].n).toBe('1');
          const handed = (await db.query(`SELECT fn, vectorizer, value FROM ${qualified(svcSchema, 'handed')} ORDER BY fn`)).rows;
          const item = { key: { [key1]: "k'\\", [key2]: 1 }, text: 'the text', fields: { [field]: 'the field' } };
          expect(handed).toEqual([
            { fn: 'enqueue', vectorizer: 7, value: [item] },
            { fn: 'enqueue', vectorizer: 7, value: [item] },
          ]);
          // The search finds a chunk by the key columns named as given; the row's delete hands the gate its key.
          await db.query(`INSERT INTO ${v.destination} VALUES ($1, 1, 0, 'the text', '{1,0}')`, ["k'\\"]);
          const found = (await db.query(searchQuery({ ...v, vectorSchema: null }), ['[1,0]', 1])).rows;
          expect(found).toEqual([{ key: { [key1]: "k'\\", [key2]: 1 }, chunk_index: 0, chunk: 'the text', distance: 0.5 }]);
          await db.query(`DELETE FROM ${v.source}`);
          expect((await db.query(`SELECT value FROM ${qualified(svcSchema, 'handed')} WHERE fn = 'forget'`)).rows).toEqual([{ value: [item.key] }]);
          // Made SECURITY INVOKER (as code running as the proxy could), a proxy's function refuses to run as anyone else.
          await db.query(`ALTER FUNCTION ${signature(svcSchema, v.id, 'backfill')} SECURITY INVOKER`);
          await expect(db.query(`SELECT ${qualified(svcSchema, GENERATED.backfill.name(v.id))}()`)).rejects.toMatchObject({
            code: '42501',
            message: `${GENERATED.backfill.name(v.id)} must run as ${proxy}, its owner (SECURITY DEFINER): it was altered`,
          });
        } finally {
          await db.query('ROLLBACK');
        }
      }),
      { numRuns: 15 },
    );
  },
  120_000,
);
