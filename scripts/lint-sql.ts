// Checks of the extension's generated scripts, read with PostgreSQL's own parser (libpg-query), as
// pgai lints its generated SQL: every function but a C one pins its search_path (pg_catalog first,
// pg_temp last), so no object a role creates shadows what svc's code names; the install script
// creates every object outright (no OR REPLACE, no IF NOT EXISTS), so it fails where a role made an
// object of that name first instead of adopting it; an upgrade replaces only functions and
// aggregates the version it upgrades from made. Run by test/extension/sql-lint.test.ts.
import { loadModule, parse } from 'libpg-query';

type Node = Record<string, unknown>;
interface Stmt {
  kind: string;
  node: Node;
}

/** An extension script's statements, as PostgreSQL parses them (psql's meta-commands and @extschema@ made plain). */
export async function statements(script: string): Promise<Stmt[]> {
  await loadModule();
  const sql = script
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n')
    .replaceAll('@extschema@', 'extschema');
  const parsed = (await parse(sql)) as { stmts: Array<{ stmt: Node }> };
  return parsed.stmts.map(({ stmt }) => {
    const kind = Object.keys(stmt)[0];
    return { kind, node: stmt[kind] as Node };
  });
}

const sval = (node: unknown): string => ((node as { String?: { sval: string } }).String?.sval ?? '') as string;
const lastName = (names: unknown): string => sval((names as unknown[]).at(-1));
const options = (fn: Node) => ((fn.options as Array<{ DefElem: Node }> | undefined) ?? []).map((o) => o.DefElem);

/** The name of what a statement creates as a function or an aggregate, or undefined. */
function routineName(stmt: Stmt): string | undefined {
  if (stmt.kind === 'CreateFunctionStmt') return lastName(stmt.node.funcname);
  if (stmt.kind === 'DefineStmt' && stmt.node.kind === 'OBJECT_AGGREGATE') return lastName(stmt.node.defnames);
  return undefined;
}

/** Names of the functions and aggregates a script creates (what an upgrade from it may replace). */
export async function routineNames(script: string): Promise<Set<string>> {
  return new Set((await statements(script)).map(routineName).filter((name): name is string => name !== undefined));
}

/** The search_path a function's SET clause pins, as its schemas in order, or undefined. */
function pinnedSearchPath(fn: Node): string[] | undefined {
  for (const option of options(fn)) {
    const set = (option.arg as { VariableSetStmt?: Node } | undefined)?.VariableSetStmt;
    if (option.defname === 'set' && set?.name === 'search_path') {
      return ((set.args as Array<{ A_Const?: { sval?: { sval: string } } }>) ?? []).map(
        (a) => a.A_Const?.sval?.sval ?? '',
      );
    }
  }
  return undefined;
}

/**
 * What is wrong with an extension script (none: an empty list). `replaceable`: the functions and
 * aggregates an upgrade may replace (those of the version it upgrades from); none for an install script.
 */
export async function lintScript(script: string, replaceable: ReadonlySet<string> = new Set()): Promise<string[]> {
  const problems: string[] = [];
  for (const stmt of await statements(script)) {
    const name = routineName(stmt);
    if (stmt.kind === 'CreateFunctionStmt') {
      const language = sval(options(stmt.node).find((o) => o.defname === 'language')?.arg);
      const path = pinnedSearchPath(stmt.node);
      if (language !== 'c' && (!path || path[0] !== 'pg_catalog' || path.at(-1) !== 'pg_temp')) {
        problems.push(
          `function ${name} does not pin search_path to pg_catalog first and pg_temp last (${path ? path.join(', ') : 'no SET search_path'})`,
        );
      }
    }
    const replaces = stmt.node.replace === true;
    if (replaces && !(name !== undefined && replaceable.has(name))) {
      problems.push(
        `${[stmt.kind, name].filter(Boolean).join(' ')} uses OR REPLACE over an object the extension did not make`,
      );
    }
    if (stmt.node.if_not_exists === true)
      problems.push(`${stmt.kind} uses IF NOT EXISTS: it would adopt an object a role made first`);
  }
  return problems;
}
