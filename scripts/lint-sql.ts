// Checks of the extension's generated scripts, read with PostgreSQL's own parser (libpg-query), as
// pgai lints its generated SQL. Every function but a C one pins its search_path to pg_catalog and
// pg_temp alone, and the SQL it runs names svc's own objects `@extschema@.name`: an unqualified
// function or operator can then only be a built-in (PostgreSQL never looks for them in pg_temp) and an
// unqualified relation or type only pg_catalog's, so no object a role creates, in svc's schema or her
// temporary one, stands in for what svc's code names. The install script creates every object
// outright (no OR REPLACE, no IF NOT EXISTS), so it fails where a role made an object of that name
// first instead of adopting it; an upgrade replaces only functions and aggregates the version it
// upgrades from made. Run by test/extension/sql-lint.test.ts, on the scripts and on the bundle's
// statements (src/extension/queries.ts).
import { loadModule, parse, parsePlPgSQL } from 'libpg-query';

type Node = Record<string, unknown>;
interface Stmt {
  kind: string;
  node: Node;
  /** The statement as written (what parsePlPgSQL reads). */
  text: string;
}

/** An extension script's statements, as PostgreSQL parses them (psql's meta-commands and @extschema@ made plain). */
export async function statements(script: string): Promise<Stmt[]> {
  await loadModule();
  const sql = script
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n')
    .replaceAll('@extschema@', 'extschema');
  const bytes = Buffer.from(sql);
  const parsed = (await parse(sql)) as { stmts: Array<{ stmt: Node; stmt_location?: number; stmt_len?: number }> };
  return parsed.stmts.map(({ stmt, stmt_location = 0, stmt_len }) => {
    const kind = Object.keys(stmt)[0];
    const end = stmt_len === undefined || stmt_len === 0 ? bytes.length : stmt_location + stmt_len;
    return { kind, node: stmt[kind] as Node, text: bytes.subarray(stmt_location, end).toString() };
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

/** The names a script creates that an unqualified reference could mean: relations, routines, types. */
export async function ownNames(script: string): Promise<Set<string>> {
  const names = new Set<string>();
  for (const { kind, node } of await statements(script)) {
    const relation = (node.relation ?? node.view ?? node.sequence ?? node.typevar) as { relname?: string } | undefined;
    if (['CreateStmt', 'ViewStmt', 'CreateSeqStmt', 'CompositeTypeStmt'].includes(kind) && relation?.relname)
      names.add(relation.relname);
    if (kind === 'CreateFunctionStmt') names.add(lastName(node.funcname));
    if (kind === 'DefineStmt') names.add(lastName(node.defnames));
    if (kind === 'CreateEnumStmt' || kind === 'CreateDomainStmt') names.add(lastName(node.typeName ?? node.domainname));
  }
  return names;
}

const REGCLASS_TAKERS = new Set(['nextval', 'setval', 'currval', 'to_regclass', 'pg_total_relation_size']);

/**
 * What one statement of svc's names without a schema that a role could make: a relation other than
 * a CTE, a trigger's transition table (`transitionTables`: PostgreSQL looks for those before any
 * schema) or pg_catalog's (pg_temp is searched for relations, after pg_catalog), one of `own` as a
 * function or type (a type is looked for in pg_temp too), or a relation named in a string that becomes
 * a regclass. An unqualified operator or function that is not svc's is a built-in: with the pinned
 * search_path nothing else can be found.
 */
export async function unqualifiedReferences(
  sql: string,
  own: ReadonlySet<string>,
  transitionTables: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const tree = (await parse(sql.replaceAll('@extschema@', 'extschema'))) as Node;
  const ctes = new Set<string>(transitionTables);
  const found: string[] = [];
  const strings = (node: unknown): string[] =>
    Array.isArray(node)
      ? node.flatMap(strings)
      : node && typeof node === 'object'
        ? 'A_Const' in node
          ? [(node as { A_Const: { sval?: { sval: string } } }).A_Const.sval?.sval ?? '']
          : Object.values(node).flatMap(strings)
        : [];
  const relationStrings = (node: unknown, where: string) => {
    for (const name of strings(node))
      if (name !== '' && !name.includes('.') && !name.startsWith('pg_')) found.push(`relation '${name}' in ${where}`);
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    for (const cte of ((n.withClause as Node | undefined)?.ctes as Node[] | undefined) ?? [])
      ctes.add((cte.CommonTableExpr as { ctename: string }).ctename);
    const range = n.RangeVar as { schemaname?: string; relname: string } | undefined;
    if (range && !range.schemaname && !ctes.has(range.relname) && !range.relname.startsWith('pg_'))
      found.push(`relation ${range.relname}`);
    const call = n.FuncCall as { funcname: unknown[]; args?: unknown[] } | undefined;
    if (call && call.funcname.length === 1 && own.has(lastName(call.funcname)))
      found.push(`function ${lastName(call.funcname)}`);
    if (call && REGCLASS_TAKERS.has(lastName(call.funcname)))
      relationStrings(call.args?.[0], `${lastName(call.funcname)}()`);
    const type = n.TypeName as { names?: unknown[] } | undefined;
    if (type?.names?.length === 1 && own.has(lastName(type.names))) found.push(`type ${lastName(type.names)}`);
    const cast = n.TypeCast as { arg: unknown; typeName: { names: unknown[] } } | undefined;
    if (cast && lastName(cast.typeName.names) === 'regclass') relationStrings(cast.arg, 'a regclass literal');
    Object.values(n).forEach(walk);
  };
  walk(tree);
  return found;
}

/** The statements an SQL or PL/pgSQL function runs (its body's, or its PL/pgSQL's queries). */
async function bodyStatements(stmt: Stmt, language: string): Promise<{ sql: string[]; types: Set<string> }> {
  if (language === 'sql') {
    const body = options(stmt.node).find((o) => o.defname === 'as')?.arg as { List?: { items: unknown[] } } | undefined;
    return { sql: [sval(body?.List?.items[0])], types: new Set() };
  }
  const sql: string[] = [];
  const types = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    const expr = n.PLpgSQL_expr as { query: string; parseMode?: number } | undefined;
    // parseMode 0: a statement; 2: an expression; 3: `target := expression`.
    if (expr) {
      const text = expr.parseMode === 3 ? expr.query.replace(/^[^:]*:=/, '') : expr.query;
      sql.push(expr.parseMode ? `SELECT ${text}` : text);
    }
    const type = n.PLpgSQL_type as { typname: string } | undefined;
    if (type) types.add(type.typname);
    Object.values(n).forEach(walk);
  };
  walk(await parsePlPgSQL(stmt.text));
  return { sql, types };
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
  const own = await ownNames(script);
  const stmts = await statements(script);
  const transitionTables = new Set(
    stmts
      .filter((stmt) => stmt.kind === 'CreateTrigStmt')
      .flatMap((stmt) =>
        ((stmt.node.transitionRels as Node[] | undefined) ?? []).map(
          (t) => (t.TriggerTransition as { name: string }).name,
        ),
      ),
  );
  for (const stmt of stmts) {
    const name = routineName(stmt);
    if (stmt.kind === 'CreateFunctionStmt') {
      const language = sval(options(stmt.node).find((o) => o.defname === 'language')?.arg);
      const path = pinnedSearchPath(stmt.node);
      if (language !== 'c' && path?.join(', ') !== 'pg_catalog, pg_temp') {
        problems.push(
          `function ${name} does not pin search_path to pg_catalog, pg_temp (${path ? path.join(', ') : 'no SET search_path'})`,
        );
      }
      if (language === 'sql' || language === 'plpgsql') {
        const body = await bodyStatements(stmt, language);
        for (const sql of body.sql)
          for (const reference of await unqualifiedReferences(sql, own, transitionTables))
            problems.push(`function ${name} names ${reference} without a schema`);
        for (const type of body.types)
          if (!type.includes('.') && own.has(type))
            problems.push(`function ${name} names type ${type} without a schema`);
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
