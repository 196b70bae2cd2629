// The extension's generated scripts, read with PostgreSQL's own parser (scripts/lint-sql.ts): every
// function pins its search_path, the install script creates every object outright, an upgrade
// replaces only what the version it upgrades from made.
import { readFileSync, readdirSync } from 'node:fs';
import { controlVersion } from '../../scripts/build-extension.js';
import { lintScript, routineNames } from '../../scripts/lint-sql.js';

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

test('the lint finds what it is for', async () => {
  const bad = `
CREATE OR REPLACE FUNCTION svc_x() RETURNS int LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$ SELECT 1 $$;
CREATE FUNCTION svc_y() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;
CREATE FUNCTION svc_z() RETURNS int LANGUAGE sql SET search_path = @extschema@, pg_catalog, pg_temp AS $$ SELECT 1 $$;
CREATE TABLE IF NOT EXISTS svc_t (a int);
CREATE FUNCTION svc_c() RETURNS int LANGUAGE c AS 'MODULE_PATHNAME', 'svc_c';`;
  expect(await lintScript(bad)).toEqual([
    'CreateFunctionStmt svc_x uses OR REPLACE over an object the extension did not make',
    'function svc_y does not pin search_path to pg_catalog first and pg_temp last (no SET search_path)',
    'function svc_z does not pin search_path to pg_catalog first and pg_temp last (extschema, pg_catalog, pg_temp)',
    'CreateStmt uses IF NOT EXISTS: it would adopt an object a role made first',
  ]);
  expect(await lintScript(bad.split('\n')[1], new Set(['svc_x']))).toEqual([]);
});
