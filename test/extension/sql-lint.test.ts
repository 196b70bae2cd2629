// The extension's generated scripts and the bundle's statements, read with PostgreSQL's own parser
// (scripts/lint-sql.ts): every function pins its search_path to pg_catalog and pg_temp and names
// svc's objects by schema, the install script creates every object outright, an upgrade replaces only
// what the version it upgrades from made.
import { readFileSync, readdirSync } from 'node:fs';
import { controlVersion } from '../../scripts/build-extension.js';
import { lintScript, ownNames, routineNames, unqualifiedReferences } from '../../scripts/lint-sql.js';
import { QUERIES } from '../../src/extension/queries.js';
import {
  backfillFunction,
  gateFunction,
  searchQuery,
  triggerFunction,
  triggers,
  type VectorizerShape,
} from '../../src/extension/vectorizer-sql.js';

const version = controlVersion();
const script = (name: string) => readFileSync(`extension/${name}`, 'utf8');

test('the install script pins every search_path and replaces nothing', async () => {
  expect(await lintScript(script(`svc--${version}.sql`))).toEqual([]);
});

test.each(readdirSync('extension').filter((f) => new RegExp(`^svc--.+--${version.replaceAll('.', '\\.')}\\.sql$`).test(f)))(
  '%s replaces only functions and aggregates of the version it upgrades from',
  async (file) => {
    const from = /^svc--(.+)--/.exec(file)![1];
    const previous = await routineNames(readFileSync(`extension/releases/svc--${from}.sql`, 'utf8'));
    expect(previous.has('svc_generate_async')).toBe(true);
    expect(await lintScript(script(file), previous)).toEqual([]);
  },
);

test("every statement of the bundle names svc's objects by schema", async () => {
  const own = await ownNames(script(`svc--${version}.sql`));
  expect(own.has('svc_queue') && own.has('svc__claim')).toBe(true);
  const found = await Promise.all(
    Object.entries(QUERIES).map(async ([name, query]) => [name, await unqualifiedReferences(query.sql, own)]),
  );
  expect(found.filter(([, references]) => references.length > 0)).toEqual([]);
});

test("a vectorizer's generated functions and search pass the same lint", async () => {
  const v: VectorizerShape = {
    id: 7,
    svcSchema: 'svc',
    proxy: 'svc_vectorizer_16384',
    source: '"app"."docs"',
    destination: '"app"."docs_chunks"',
    keys: [{ name: 'id', type: 'integer', storage: 'integer' }],
    column: 'body',
    fields: ['body'],
    embeddingType: 'real[]',
    dimensions: null,
  } as VectorizerShape;
  const own = await ownNames(script(`svc--${version}.sql`));
  const ddl = [gateFunction(v), triggerFunction(v), backfillFunction(v), ...triggers(v, 'docs')];
  expect(await lintScript(ddl.join(';\n') + ';')).toEqual([]);
  for (const vectorSchema of [null, 'public'])
    expect(await unqualifiedReferences(searchQuery({ ...v, vectorSchema }), own)).toEqual([]);
});

test('the lint finds what it is for', async () => {
  const bad = `
CREATE OR REPLACE FUNCTION svc_x() RETURNS int LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$ SELECT 1 $$;
CREATE FUNCTION svc_y() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;
CREATE FUNCTION svc_z() RETURNS int LANGUAGE sql SET search_path = @extschema@, pg_catalog, pg_temp AS $$ SELECT 1 $$;
CREATE TABLE IF NOT EXISTS svc_t (a int);
CREATE FUNCTION svc_c() RETURNS int LANGUAGE c AS 'MODULE_PATHNAME', 'svc_c';`;
  expect(await lintScript(bad)).toEqual([
    'CreateFunctionStmt svc_x uses OR REPLACE over an object the extension did not make',
    'function svc_y does not pin search_path to pg_catalog, pg_temp (no SET search_path)',
    'function svc_z does not pin search_path to pg_catalog, pg_temp (extschema, pg_catalog, pg_temp)',
    'CreateStmt uses IF NOT EXISTS: it would adopt an object a role made first',
  ]);
  expect(await lintScript(bad.split('\n')[1], new Set(['svc_x']))).toEqual([]);
});

test('the lint finds a name a role could stand in for, in SQL and PL/pgSQL bodies', async () => {
  const pinned = 'SET search_path = pg_catalog, pg_temp';
  const bad = `
CREATE TABLE svc_t (a int);
CREATE FUNCTION svc_f() RETURNS int LANGUAGE sql ${pinned} AS $$ SELECT count(*)::int FROM svc_t $$;
CREATE FUNCTION svc_g() RETURNS int LANGUAGE sql ${pinned} AS $$ SELECT svc_f() + nextval('svc_s')::int $$;
CREATE FUNCTION svc_h() RETURNS void LANGUAGE plpgsql ${pinned} AS $$
DECLARE
  r svc_t;
  n int := svc_f();
BEGIN
  n := pg_total_relation_size('svc_t'::regclass);
  PERFORM 1 FROM documents;
  WITH w AS (SELECT 1) SELECT * INTO r FROM w, pg_class, @extschema@.svc_t;
END $$;
CREATE FUNCTION svc_ok() RETURNS int LANGUAGE sql ${pinned} AS $$ SELECT @extschema@.svc_f() + length('svc_t') $$;`;
  expect(await lintScript(bad)).toEqual([
    'function svc_f names relation svc_t without a schema',
    'function svc_g names function svc_f without a schema',
    "function svc_g names relation 'svc_s' in nextval() without a schema",
    'function svc_h names function svc_f without a schema',
    "function svc_h names relation 'svc_t' in pg_total_relation_size() without a schema",
    "function svc_h names relation 'svc_t' in a regclass literal without a schema",
    'function svc_h names relation documents without a schema',
    'function svc_h names type svc_t without a schema',
  ]);
});
