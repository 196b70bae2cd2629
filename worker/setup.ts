// Is the database set up for this worker? The svc extension must be installed in it and the worker's
// role must be a member of svc_worker; anything else is a ConfigError whose message says what to run.
// Also tells database errors (a SQLSTATE from the server) from failures to reach it at all.
import pg from 'pg';
import { ConfigError } from './config.js';
import { EXTENSION_VERSIONS, VERSION } from '../src/version.js';
import { SQLSTATE } from '../src/queue/sqlstate.js';

type Queryable = Pick<pg.Client, 'query'>;

/** The server's SQLSTATE, or undefined when the error did not come from the server. */
export function sqlState(error: unknown): string | undefined {
  return error instanceof pg.DatabaseError ? error.code : undefined;
}

/**
 * The database could not be reached or went away (refused, no socket, timed out, the connection
 * dropped, the server shutting down or starting up) rather than refusing a statement.
 */
export function isUnreachable(error: unknown): boolean {
  const code = sqlState(error);
  if (code === undefined) return true;
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/**
 * Errors on connecting that waiting will not cure: no such database, no such role, a password or
 * pg_hba.conf refusal. Returned as a ConfigError that says what to check; else undefined.
 */
export function connectionConfigError(
  error: unknown,
  db: { database?: string; user?: string },
): ConfigError | undefined {
  const code = sqlState(error);
  const message = (error as Error).message;
  if (code === SQLSTATE.invalid_catalog_name)
    return new ConfigError(
      `${message}: point the worker at the database that has the svc extension (--db-name or PGDATABASE)`,
    );
  if (code === SQLSTATE.invalid_authorization_specification || code === SQLSTATE.invalid_password) {
    return new ConfigError(
      `cannot connect as role "${db.user ?? '(PGUSER / the OS user)'}": ${message}. ` +
        `The worker's role needs LOGIN and membership in svc_worker (CREATE ROLE <role> LOGIN IN ROLE svc_worker), ` +
        `a password in PGPASSWORD or ~/.pgpass where the server asks for one, and an entry in pg_hba.conf (--db-user or PGUSER)`,
    );
  }
  return undefined;
}

/**
 * The settings of every connection the worker opens: no statement of its waits more than 5 s for a
 * lock or runs more than 60 s. The worker protocol's statements never wait on a lock a role's
 * transaction can hold (they skip locked rows, docs/security.md) and take milliseconds; these bound
 * whatever that reasoning missed, so that no role's open transaction can hold the worker's
 * connections (four, shared by every role's jobs) for longer. A vectorize job's completion sets
 * tighter ones of its own (worker/vectorize.ts). PGOPTIONS, which libpq would read, comes after.
 *
 * The search_path is pg_catalog and then svc's schema (`schema`, quoted; pg_catalog alone until
 * checkSetup has found it), set at connection, so that neither the database's nor the role's defaults
 * (a database owner may set them) name anything, and the protocol's statements type every argument
 * (worker/protocol.ts): a role that may create in svc's schema (public, where CREATE was PUBLIC's
 * before PostgreSQL 15) could otherwise plant, say, svc_worker_complete(text, text, text, text),
 * which PostgreSQL prefers for untyped arguments, and run as the worker's role.
 */
export function workerSession(schema?: string): string {
  // The server splits options at spaces; a backslash keeps one (and itself) in a value.
  const path = ['pg_catalog', schema]
    .filter(Boolean)
    .join(',')
    .replace(/[\\\s]/g, (c) => `\\${c}`);
  return [`-c lock_timeout=5s -c statement_timeout=60s -c search_path=${path}`, process.env.PGOPTIONS]
    .filter(Boolean)
    .join(' ');
}

/** SQLSTATEs of a claim that may mean the extension is gone or the role lost svc_worker. */
export const SETUP_SQLSTATES: ReadonlySet<string> = new Set<string>([
  SQLSTATE.undefined_function,
  SQLSTATE.insufficient_privilege,
  SQLSTATE.undefined_table,
  SQLSTATE.invalid_schema_name,
  SQLSTATE.undefined_object,
]);

/**
 * Throws a ConfigError unless the svc extension is installed in the connected database, at a version
 * this worker speaks, and the connected role is a member of svc_worker; returns svc's schema, quoted. Other failures (e.g. the database is unreachable) are
 * thrown as they are.
 */
export async function checkSetup(db: Queryable): Promise<{ schema: string }> {
  const { rows } = await db.query<{
    role: string;
    database: string;
    installed: string | null;
    schema: string | null;
    member: boolean | null;
  }>(
    `SELECT quote_ident(current_user) AS role, quote_ident(current_database()) AS database,
      (SELECT extversion FROM pg_extension WHERE extname = 'svc') AS installed,
      (SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'svc') AS schema,
      (SELECT pg_has_role(current_user, oid, 'MEMBER') FROM pg_roles WHERE rolname = 'svc_worker') AS member`,
  );
  const { role, database, installed, schema, member } = rows[0];
  if (installed === null) {
    throw new ConfigError(
      `the database ${database} has no svc extension: run CREATE EXTENSION svc CASCADE in it ` +
        `(as a superuser), or point the worker at the database that has it (--db-name or PGDATABASE)`,
    );
  }
  if (!EXTENSION_VERSIONS.includes(installed)) {
    throw new ConfigError(
      `the database ${database} has svc extension ${installed}, and this worker (svc ${VERSION}) speaks ${EXTENSION_VERSIONS.join(', ')}: ` +
        `run ALTER EXTENSION svc UPDATE in it (as a superuser), or run the svc-worker of release ${installed}`,
    );
  }
  if (member !== true) {
    throw new ConfigError(
      `the role ${role} is not a member of svc_worker, so it may not serve the queue: ` +
        `run GRANT svc_worker TO ${role} (as a superuser), or connect as a role that is (--db-user or PGUSER)`,
    );
  }
  return { schema: schema! };
}
