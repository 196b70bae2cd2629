// Emits extension/svc--<version>.sql from src/extension: the schema, the TypeScript bundle (esbuild,
// ES2021, no Node APIs) as one plv8 function that installs it per session, and a thin SQL function
// per catalog entry. Run by `make`; the output is generated, never edited by hand.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGGREGATES, FUNCTIONS, type SqlAggregate, type SqlFunction } from '../src/extension/catalog.js';
import { api } from '../src/extension/index.js';
import { SQLSTATE } from '../src/queue/sqlstate.js';
import { routineNames } from './lint-sql.js';
// The one quoting module of svc's SQL (as format('%I') and format('%L'); dollar-quote tags that occur nowhere in the body).
import { dollarQuote, quoteIdent, quoteLiteral as sqlLiteral } from '../src/extension/sql-text.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function controlVersion(): string {
  const control = readFileSync(join(root, 'svc.control'), 'utf8');
  const match = /^default_version\s*=\s*'([^']+)'/m.exec(control);
  if (!match) throw new Error('svc.control has no default_version');
  return match[1];
}

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [join(root, 'src/extension/index.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: '__svc_exports',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2021',
    // Not minified: the code that runs as svc_owner keeps its names and reads as written
    // (extension/bundle.js, committed by scripts/dump-schema.ts, is this text).
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

function signature(fn: Pick<SqlFunction, 'params'>, withDefaults: boolean): string {
  return fn.params
    .map(
      (param) =>
        `${quoteIdent(param.name)} ${param.type}${withDefaults && param.default !== undefined ? ` DEFAULT ${param.default}` : ''}`,
    )
    .join(', ');
}

/** The body of an SQL or PL/pgSQL catalog function: src/extension/sql/<name>.sql, as it runs. */
function sqlBody(name: string, body: { generated?: string }): string {
  return body.generated ?? readFileSync(join(root, 'src/extension/sql', `${name}.sql`), 'utf8');
}

/**
 * The settings every svc function runs under, whoever calls it (docs/security.md, "What svc's owner
 * never evaluates"): the search_path is pg_catalog and pg_temp, last, alone, as pgai's, so an
 * unqualified function, operator or type can only be a built-in (PostgreSQL never looks in pg_temp for
 * functions or operators, and pg_catalog comes first for types) and svc's own objects are named
 * `@extschema@.name` (scripts/lint-sql.ts checks both): nothing a role creates, in svc's schema (say
 * public, where a database owner may create) or in her temporary one, can stand in for what svc calls.
 * Literals are read with standard_conforming_strings on, whatever the caller set.
 */
const PINNED = `SET search_path = pg_catalog, pg_temp SET standard_conforming_strings = on`;
/**
 * And for a SECURITY DEFINER function: plv8.start_proc empty, so that no function of a caller's
 * choosing runs when a call creates the owner's plv8 context (the genuine plv8 lets any role set it).
 * A function-level SET is applied before the language handler runs (fmgr_security_definer), so before
 * the context is created. Not on SECURITY INVOKER functions: they run in the caller's own context with
 * the caller's rights, and where plv8.start_proc is superuser-only (plv8-compat) PostgreSQL refuses a
 * function's SET of it to the role that runs the function.
 */
const DEFINER_PINNED = `${PINNED} SET plv8.start_proc = ''`;

/**
 * The functions svc_relay (src/native/relay.c) stands before: those with a JavaScript body, whose errors
 * plv8 would pass on with the line of JavaScript that threw as CONTEXT, and those granted to a role
 * (svc_admin, svc_worker), whose refusal it words with the grant that is missing. The catalog's
 * function is then the relay, under its name, signature and grants (a role's: PUBLIC's, the relay
 * checks the body's); its body, svc__run_<name> beside it, is what the catalog says, granted to that
 * role or to nobody: fmgr calls it for the relay without a privilege check of its own.
 */
export const relayed = (fn: SqlFunction): boolean =>
  !('c' in fn.body) && ('ts' in fn.body || fn.grantTo === 'svc_admin' || fn.grantTo === 'svc_worker');
/** A relayed function's body: svc__run_ and the name without its svc_ prefix (relay.c finds it by this name). */
export const bodyName = (name: string): string => `svc__run_${name.replace(/^svc_+/, '')}`;

/** A catalog function as the script emits it: its relay and body where it is relayed, else itself. */
function emitted(fn: SqlFunction): SqlFunction[] {
  if (!relayed(fn)) return [fn];
  const byRole = fn.grantTo === 'svc_admin' || fn.grantTo === 'svc_worker';
  const relay: SqlFunction = {
    name: fn.name,
    params: fn.params,
    returns: fn.returns,
    volatility: fn.volatility,
    security: 'INVOKER',
    parallel: fn.parallel,
    grantTo: byRole ? 'PUBLIC' : fn.grantTo,
    body: { c: 'svc_relay' },
    comment: fn.comment,
  };
  const body: SqlFunction = {
    ...fn,
    name: bodyName(fn.name),
    grantTo: byRole ? fn.grantTo : 'nobody',
    // Its relay passes every argument, defaults filled in: the body declares none.
    params: fn.params.map(({ name, type }) => ({ name, type })),
    // An SQL or PL/pgSQL body stays in the file of the function's own name.
    body: 'language' in fn.body ? { ...fn.body, generated: sqlBody(fn.name, fn.body) } : fn.body,
    comment: `Internal: the body of ${fn.name}, run by its relay (svc_relay).`,
  };
  return [relay, body];
}
/** Every function the script creates, relays and bodies included, in the catalog's order. */
export const EMITTED: readonly SqlFunction[] = FUNCTIONS.flatMap(emitted);

/**
 * Whether a script may replace a function or aggregate of this name: an upgrade, those the version it
 * upgrades from made; the install script, none (it creates each outright, so it fails where a role
 * made one of that name first instead of taking it over; scripts/lint-sql.ts checks both).
 */
type Replaceable = (name: string) => boolean;
const createOrReplace = (replaceable: Replaceable, name: string) =>
  replaceable(name) ? 'CREATE OR REPLACE' : 'CREATE';

function functionSql(fn: SqlFunction, buildId: string, replaceable: Replaceable): string {
  const head = `${createOrReplace(replaceable, fn.name)} FUNCTION ${quoteIdent(fn.name)}(${signature(fn, true)})\nRETURNS ${fn.returns}`;
  const settings = Object.entries(fn.settings ?? {})
    .map(([name, value]) => ` SET ${name} = ${sqlLiteral(value)}`)
    .join('');
  const parallel = fn.parallel ? ` PARALLEL ${fn.parallel}` : '';
  const options = `${fn.volatility}${parallel} SECURITY ${fn.security} ${fn.security === 'DEFINER' ? DEFINER_PINNED : PINNED}${settings}`;
  let body: string;
  if ('c' in fn.body) {
    // svc.so's symbol (svc.control's module_pathname). No settings: it evaluates nothing they steer.
    if (fn.security !== 'INVOKER' || fn.settings !== undefined)
      throw new Error(`${fn.name}: a C function is SECURITY INVOKER and takes no settings`);
    body = `LANGUAGE c ${fn.volatility}${parallel} SECURITY INVOKER\nAS 'MODULE_PATHNAME', ${sqlLiteral(fn.body.c)}`;
  } else if ('language' in fn.body) {
    body = `LANGUAGE ${fn.body.language} ${options}\nAS ${dollarQuote(sqlBody(fn.name, fn.body).trim() + '\n', 'svc')}`;
  } else {
    if (!(fn.body.ts in api))
      throw new Error(`${fn.name}: no implementation named ${fn.body.ts} in src/extension/index.ts`);
    const args = fn.params.map((param) => quoteIdentJs(param.name)).join(', ');
    // Its relay drops the line of JavaScript plv8 names as an error's CONTEXT (src/native/relay.c).
    const js = `
const svc = globalThis.__svc && globalThis.__svc.build === ${JSON.stringify(buildId)} ? globalThis.__svc : plv8.find_function('@extschema@.svc__bundle')();
return svc.api.${fn.body.ts}(${args});
`;
    body = `LANGUAGE plv8 ${options}\nAS ${dollarQuote(js, 'svc')}`;
  }
  const sigTypes = fn.params.map((param) => param.type).join(', ');
  const grants =
    fn.grantTo === undefined || fn.grantTo === 'PUBLIC'
      ? ''
      : `REVOKE ALL ON FUNCTION ${quoteIdent(fn.name)}(${sigTypes}) FROM PUBLIC;\n` +
        (fn.grantTo === 'nobody'
          ? ''
          : `GRANT EXECUTE ON FUNCTION ${quoteIdent(fn.name)}(${sigTypes}) TO ${fn.grantTo};\n`);
  const comment = `COMMENT ON FUNCTION ${quoteIdent(fn.name)}(${sigTypes}) IS ${sqlLiteral(fn.comment)};\n`;
  return `${head}\n${body};\n${grants}${comment}`;
}

/** An aggregate over catalog functions, after them (an upgrade re-creates it as it does functions). */
function aggregateSql(agg: SqlAggregate, replaceable: Replaceable): string {
  const sigTypes = agg.params.map((param) => param.type).join(', ');
  const options = [
    `SFUNC = ${quoteIdent(agg.sfunc)}`,
    `STYPE = ${agg.stype}`,
    `FINALFUNC = ${quoteIdent(agg.finalfunc)}`,
    `COMBINEFUNC = ${quoteIdent(agg.combinefunc)}`,
    `PARALLEL = ${agg.parallel}`,
  ];
  return (
    `${createOrReplace(replaceable, agg.name)} AGGREGATE ${quoteIdent(agg.name)}(${signature(agg, false)}) (\n  ${options.join(',\n  ')}\n);\n` +
    `COMMENT ON AGGREGATE ${quoteIdent(agg.name)}(${sigTypes}) IS ${sqlLiteral(agg.comment)};\n`
  );
}

/**
 * svc's objects handed to svc_owner, last (docs/security.md, "Who owns svc's objects"): the relations
 * (owner.sql), svc__bundle, and every function and aggregate of the catalog but those it keeps the
 * superuser's (`owner: 'superuser'`). Only the catalog's: a vectorizer's functions keep their owners.
 */
function ownershipSql(): string {
  const signatureTypes = (fn: Pick<SqlFunction, 'params'>) => fn.params.map((param) => param.type).join(', ');
  return [
    source('owner.sql'),
    'ALTER FUNCTION svc__bundle() OWNER TO svc_owner;',
    ...EMITTED.filter((fn) => fn.owner !== 'superuser').map(
      (fn) => `ALTER FUNCTION ${quoteIdent(fn.name)}(${signatureTypes(fn)}) OWNER TO svc_owner;`,
    ),
    ...AGGREGATES.map((agg) => `ALTER AGGREGATE ${quoteIdent(agg.name)}(${signatureTypes(agg)}) OWNER TO svc_owner;`),
    '',
  ].join('\n');
}

// plv8 names a function's JavaScript parameters after the SQL ones, so they must be JS identifiers.
function quoteIdentJs(name: string): string {
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) throw new Error(`parameter ${name} is not a JavaScript identifier`);
  return name;
}

/**
 * One spelling of each SQLSTATE: an SQL or PL/pgSQL body raises a condition by the name the table
 * (src/queue/sqlstate.ts) gives it, never by a number or a name the table lacks. PostgreSQL knows
 * its own names; svc's (class SV) are written here as their codes.
 */
export function spellErrcodes(sql: string): string {
  return sql.replace(/(ERRCODE\s*=\s*')([^']*)'/g, (_, head: string, name: string) => {
    if (!Object.hasOwn(SQLSTATE, name))
      throw new Error(
        `an SQL body raises ERRCODE '${name}': name a condition of src/queue/sqlstate.ts (add it there if it is new)`,
      );
    return `${head}${name.startsWith('svc_') ? SQLSTATE[name as keyof typeof SQLSTATE] : name}'`;
  });
}

const SCHEMA_FILES = [
  'schema.sql',
  'queue-bound.sql',
  'cache.sql',
  'sync.sql',
  'limits.sql',
  'vectorizer.sql',
  'prompts.sql',
  'progress.sql',
];
const source = (file: string) => readFileSync(join(root, 'src/extension', file), 'utf8');

/** Writes svc--<version>.sql and an upgrade script per migration into <version>. */
export async function emitExtension(): Promise<{ written: string[]; buildId: string; bundleBytes: number }> {
  const version = controlVersion();
  const code = await bundle();
  const buildId = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const loader = `${code}\nglobalThis.__svc = { build: ${JSON.stringify(buildId)}, api: __svc_exports.api };\nreturn globalThis.__svc;\n`;
  const functions = (replaceable: Replaceable) => [
    `-- The TypeScript bundle, installed into the session's plv8 context on first use of any svc function\n` +
      `-- (and again when a newer build is deployed: the stubs compare build ids).\n` +
      `${createOrReplace(replaceable, 'svc__bundle')} FUNCTION svc__bundle() RETURNS void LANGUAGE plv8 VOLATILE ${PINNED}\nAS ${dollarQuote(loader, 'svc_bundle')};\n`,
    ...EMITTED.map((fn) => functionSql(fn, buildId, replaceable)),
    ...AGGREGATES.map((agg) => aggregateSql(agg, replaceable)),
    ownershipSql(),
  ];
  const header = (what: string) => [
    `-- svc ${what}: generated by scripts/build-extension.ts from src/extension (build ${buildId}). Do not edit.`,
    `\\echo Use "${what.includes('--') ? 'ALTER EXTENSION svc UPDATE' : 'CREATE EXTENSION svc'}" to load this file. \\quit`,
  ];
  const outputs: Array<[string, string[]]> = [
    [`svc--${version}.sql`, [...header(version), ...SCHEMA_FILES.map(source), ...functions(() => false)]],
  ];
  for (const file of readdirSync(join(root, 'src/extension/migrations')).sort()) {
    const match = /^(.+)--(.+)\.sql$/.exec(file);
    if (!match || match[2] !== version) continue;
    const previous = await routineNames(readFileSync(join(root, 'extension/releases', `svc--${match[1]}.sql`), 'utf8'));
    outputs.push([
      `svc--${match[1]}--${version}.sql`,
      [
        ...header(`${match[1]}--${version}`),
        source(join('migrations', file)),
        ...functions((name) => previous.has(name)),
      ],
    ]);
  }
  mkdirSync(join(root, 'extension'), { recursive: true });
  const written = outputs.map(([name, parts]) => {
    const path = join(root, 'extension', name);
    writeFileSync(path, spellErrcodes(parts.join('\n')));
    return path;
  });
  return { written, buildId, bundleBytes: Buffer.byteLength(code) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { written, buildId, bundleBytes } = await emitExtension();
  console.error(`wrote ${written.join(', ')} (build ${buildId}, bundle ${(bundleBytes / 1024).toFixed(1)} KiB)`);
}
