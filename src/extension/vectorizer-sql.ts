// The SQL a vectorizer is made of, built from its declaration: the destination table (svc_owner's,
// of built-in types only); the functions that read the role's tables, owned by the declaring role's
// proxy (the source's trigger function, the backfill); svc's gate, through which they hand svc plain
// jsonb; the triggers; and the search. Pure: names and literals are quoted by sql-text.ts, values are
// passed as parameters where the statements run (vectorizer.ts).
//
// The rule (docs/security.md): no session with more rights than a role runs what that role can
// attach. Reading the source's rows into items and keys (casts to text, the key types' conversion to
// json, their ordering and set operations) runs as the proxy, a member of the declaring role, so a
// cast or a type's function of that role's runs with that role's rights and no more. The destination
// has nothing of any role's: svc_owner owns it (a role can attach no trigger, rule, policy, default or
// index to it) and its key columns are of base types or enums (a domain stored as its base type), so
// the worker and svc's functions write it without running a role's code.
import { dollarQuote, qualified, quoteIdent, quoteLiteral } from './sql-text.js';

export interface KeyColumn {
  readonly name: string;
  /** As format_type() spells it, e.g. `integer`, `character varying(20)`. */
  readonly type: string;
  /** What the destination stores it as: `type`, or a domain's base type. */
  readonly storage: string;
}

export interface VectorizerShape {
  readonly id: number;
  /** svc's schema, where the generated functions live. */
  readonly svcSchema: string;
  /** The declaring role's proxy (proxyRoleName), which owns the functions that read its tables. */
  readonly proxy: string;
  /** The source table and the destination, qualified and quoted. */
  readonly source: string;
  readonly destination: string;
  readonly keys: readonly KeyColumn[];
  /** The embedded column. */
  readonly column: string;
  /** The columns the format template puts into each chunk's text. */
  readonly fields: readonly string[];
  /** `real[]`, `vector` or `vector(n)`, with the CHECK a real[] of known length gets. */
  readonly embeddingType: string;
  readonly dimensions: number | null;
}

/** The columns a destination adds after the source's key: a source key column may not be named so. */
export const DESTINATION_COLUMNS = ['chunk_index', 'chunk', 'embedding'] as const;

/** The generated functions: the proxy's trigger function and backfill; svc's gate. */
export const GENERATED = {
  changed: { name: (id: number) => `svc__vz_${id}_changed`, args: '' },
  backfill: { name: (id: number) => `svc__vz_${id}_backfill`, args: '' },
  gate: { name: (id: number) => `svc__vz_${id}_queue`, args: 'jsonb, jsonb, boolean' },
} as const;
type Generated = keyof typeof GENERATED;

/** A generated function as DDL names it (ALTER, DROP, GRANT): qualified, with its argument types. */
export const signature = (svcSchema: string, id: number, fn: Generated) => `${qualified(svcSchema, GENERATED[fn].name(id))}(${GENERATED[fn].args})`;
export const triggerFunctionSignature = (svcSchema: string, id: number) => signature(svcSchema, id, 'changed');
/** The name pattern (LIKE) of every function generated for a vectorizer, wherever it now is. */
export const generatedPattern = (id: number) => `svc\\_\\_vz\\_${id}\\_%`;
export const TRIGGER_EVENTS = ['insert', 'update', 'delete', 'truncate'] as const;
export const triggerName = (vectorizer: string, event: (typeof TRIGGER_EVENTS)[number]) => `svc_vectorize_${vectorizer}_${event}`;
export const proxyRoleName = (ownerOid: string) => `svc_vectorizer_${ownerOid}`;

/** Every generated function's settings: svc's own search_path, and literals read as written whatever the session set. */
const SETTINGS_CLAUSE = `SET search_path = pg_catalog, pg_temp SET standard_conforming_strings = on`;

/**
 * The first statement of each function owned by the proxy: it refuses to run as anyone else. Code of
 * the declaring role runs as the proxy (a cast of its type), and the proxy owns these functions, so it
 * could make one SECURITY INVOKER; it would then run as whoever writes the source (or declares). Its
 * body it cannot change (that takes CREATE on svc's schema), so this check stays, written so that no
 * setting of the function (search_path) changes what it calls.
 */
function proxyOnly(v: VectorizerShape, fn: string): string {
  const message = `${fn} must run as ${v.proxy}, its owner (SECURITY DEFINER): it was altered`;
  return `IF current_user OPERATOR(pg_catalog.<>) ${quoteLiteral(v.proxy)}::pg_catalog.name THEN
    RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = ${quoteLiteral(message)};
  END IF;`;
}

/** A function owned by the proxy (vectorizer.ts makes it so), PL/pgSQL, SECURITY DEFINER, its body dollar-quoted. */
function proxyFunction(v: VectorizerShape, fn: Generated, params: string, returns: string, declare: string, body: string): string {
  const name = GENERATED[fn].name(v.id);
  const text = `\n${declare}BEGIN\n  ${proxyOnly(v, name)}\n${body}\nEND\n`;
  return `CREATE FUNCTION ${qualified(v.svcSchema, name)}(${params}) RETURNS ${returns} LANGUAGE plpgsql VOLATILE SECURITY DEFINER
${SETTINGS_CLAUSE} AS ${dollarQuote(text, fn)}`;
}

const keyList = (v: { keys: readonly { name: string }[] }, alias?: string) =>
  v.keys.map((k) => (alias ? `${alias}.${quoteIdent(k.name)}` : quoteIdent(k.name))).join(', ');

/** The source row's key as jsonb, {column: value}: composite and non-integer keys alike. */
const keyObject = (v: { keys: readonly { name: string }[] }, alias: string) =>
  `pg_catalog.jsonb_build_object(${v.keys.map((k) => `${quoteLiteral(k.name)}, ${alias}.${quoteIdent(k.name)}`).join(', ')})`;

/** One row's work item, {key, text, fields}, as svc__vectorizer_enqueue and the worker take it. */
function itemExpression(v: VectorizerShape, alias: string): string {
  const fields = v.fields.map((f) => `${quoteLiteral(f)}, ${alias}.${quoteIdent(f)}::pg_catalog.text`).join(', ');
  return `pg_catalog.jsonb_build_object('key', ${keyObject(v, alias)}, 'text', ${alias}.${quoteIdent(v.column)}::pg_catalog.text, 'fields', pg_catalog.jsonb_build_object(${fields}))`;
}

/** The destination: the key (stored as KeyColumn.storage), the chunk's index and text, its embedding. */
export function destinationTable(v: VectorizerShape): string {
  const keys = v.keys.map((k) => `${quoteIdent(k.name)} ${k.storage} NOT NULL`).join(', ');
  const check = v.dimensions !== null && v.embeddingType === 'real[]' ? ` CHECK (cardinality(embedding) = ${v.dimensions})` : '';
  return `CREATE TABLE ${v.destination} (${keys}, chunk_index integer NOT NULL, chunk text NOT NULL, embedding ${v.embeddingType} NOT NULL${check}, PRIMARY KEY (${keyList(v)}, chunk_index))`;
}

/**
 * svc's gate for one vectorizer (svc's own, SECURITY DEFINER; only the proxy may run it): what the
 * proxy's trigger function and backfill found, handed over as jsonb: keys gone (forgotten, their
 * chunks deleted), or all of them (`everything`, a TRUNCATE), and items to queue. Returns how many
 * items were queued. The id is part of the function, so a proxy reaches only its own role's vectorizers.
 */
export function gateFunction(v: VectorizerShape): string {
  const svc = (name: string) => qualified(v.svcSchema, name);
  const body = `
BEGIN
  IF $3 THEN
    PERFORM ${svc('svc__vectorizer_forget')}(${v.id}, NULL);
    RETURN 0;
  END IF;
  IF $1 IS NOT NULL THEN
    PERFORM ${svc('svc__vectorizer_forget')}(${v.id}, $1);
  END IF;
  RETURN ${svc('svc__vectorizer_enqueue')}(${v.id}, $2);
END
`;
  // As svc's other SECURITY DEFINER functions (scripts/build-extension.ts): no plv8.start_proc of a caller's
  // runs should a call under it create svc_owner's plv8 context. (Not on the proxy's functions: the proxy may not set it.)
  return `CREATE FUNCTION ${svc(GENERATED.gate.name(v.id))}(gone jsonb, items jsonb, everything boolean) RETURNS integer LANGUAGE plpgsql VOLATILE SECURITY DEFINER
${SETTINGS_CLAUSE} SET plv8.start_proc = '' AS ${dollarQuote(body, 'gate')}`;
}

/**
 * The statement trigger function of the source (the proxy's): queues inserted and updated rows (their
 * input unchanged: nothing, see svc__vectorizer_enqueue), and forgets deleted rows, keys an update
 * replaced, and everything on TRUNCATE (the gate deletes their chunks). It runs in the writing
 * transaction and does no model work. It reads the transition tables as the proxy and hands svc's
 * gate only jsonb.
 */
export function triggerFunction(v: VectorizerShape): string {
  const gate = qualified(v.svcSchema, GENERATED.gate.name(v.id));
  return proxyFunction(v, 'changed', '', 'trigger', 'DECLARE\n  gone jsonb;\n  items jsonb;\n', `  IF TG_OP = 'TRUNCATE' THEN
    PERFORM ${gate}(NULL, NULL, true);
    RETURN NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT pg_catalog.jsonb_agg(${keyObject(v, 'o')}) INTO gone FROM svc_old o;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT pg_catalog.jsonb_agg(g.key) INTO gone FROM (SELECT ${keyObject(v, 'o')} FROM svc_old o EXCEPT SELECT ${keyObject(v, 'n')} FROM svc_new n) AS g(key);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT pg_catalog.jsonb_agg(${itemExpression(v, 'n')}) INTO items FROM svc_new n;
  END IF;
  PERFORM ${gate}(gone, items, false);
  RETURN NULL;`);
}

export function triggers(v: VectorizerShape, vectorizer: string): string[] {
  const fn = triggerFunctionSignature(v.svcSchema, v.id);
  const on = (event: (typeof TRIGGER_EVENTS)[number], referencing: string) =>
    `CREATE TRIGGER ${quoteIdent(triggerName(vectorizer, event))} AFTER ${event.toUpperCase()} ON ${v.source}${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}`;
  return [
    on('insert', ' REFERENCING NEW TABLE AS svc_new'),
    on('update', ' REFERENCING OLD TABLE AS svc_old NEW TABLE AS svc_new'),
    on('delete', ' REFERENCING OLD TABLE AS svc_old'),
    on('truncate', ''),
  ];
}

/**
 * The session's settings any role may change (context 'user'), as jsonb {name: setting}: taken before
 * svc runs a function of a role's proxy, whose code can SET them for the rest of the session (an
 * ordinary SET outlives the function's own SET clauses), then put back by SETTINGS_RESTORE before
 * svc's next statement, so that nothing svc runs after it reads names through the role's search_path.
 * Every name in both is qualified: they are parsed under whatever the role left.
 */
export const SETTINGS_SNAPSHOT = `SELECT pg_catalog.jsonb_object_agg(s.name, s.setting) AS settings FROM pg_catalog.pg_settings s WHERE s.context OPERATOR(pg_catalog.=) 'user'`;
/**
 * $1: SETTINGS_SNAPSHOT's jsonb. Settings changed since are set back; ones that appeared since go to
 * their reset value: a placeholder a role made (svc.*) is emptied, and a module's own settings (the
 * role's code can be what loads pgvector: hnsw.ef_search) keep their defaults, which '' is not.
 */
export const SETTINGS_RESTORE = `SELECT pg_catalog.count(pg_catalog.set_config(c.name, c.value, false)) AS restored FROM (
  SELECT b.key AS name, b.value FROM pg_catalog.jsonb_each_text($1::pg_catalog.jsonb) b
    JOIN pg_catalog.pg_settings s ON s.name OPERATOR(pg_catalog.=) b.key WHERE s.setting OPERATOR(pg_catalog.<>) b.value
  UNION ALL
  SELECT s.name, s.reset_val FROM pg_catalog.pg_settings s
  WHERE s.context OPERATOR(pg_catalog.=) 'user' AND NOT ($1::pg_catalog.jsonb OPERATOR(pg_catalog.?) s.name) AND s.setting IS DISTINCT FROM s.reset_val
) c`;

/** Rows of the backfill queued per call of the gate (each call's items go into one jsonb). */
export const BACKFILL_PART = 5000;

/**
 * The backfill (the proxy's, created, run once and dropped by svc_vectorize): reads every row of the
 * source as the proxy, in key order, and hands the gate their items in parts; returns how many were queued.
 */
export function backfillFunction(v: VectorizerShape): string {
  const gate = qualified(v.svcSchema, GENERATED.gate.name(v.id));
  return proxyFunction(v, 'backfill', '', 'bigint', '', `  RETURN (SELECT coalesce(sum(${gate}(NULL, p.items, false)), 0)::bigint
  FROM (SELECT pg_catalog.jsonb_agg(s.item ORDER BY s.ord) AS items FROM (
    SELECT ${itemExpression(v, 'r')} AS item, row_number() OVER (ORDER BY ${keyList(v, 'r')}) AS ord FROM ${v.source} r
  ) s GROUP BY (s.ord - 1) / ${BACKFILL_PART}) p);`);
}

/**
 * The k nearest source rows to a query embedding for svc_search: each row's nearest chunk. $1: the
 * embedding as text in pgvector's form ([x,y,...]), $2: k. With pgvector, `<=>` (cosine distance)
 * over the k × 10 nearest chunks, which an HNSW or IVFFlat index on the embedding serves; with
 * real[], an exact scan (exactScanQuery).
 */
export function searchQuery(v: { destination: string; svcSchema: string; keys: readonly { name: string }[]; vectorSchema: string | null }): string {
  if (v.vectorSchema === null) return exactScanQuery(v);
  const distance = `d.embedding OPERATOR(${quoteIdent(v.vectorSchema)}.<=>) q.embedding`;
  // The key columns are carried aliased and the key built as jsonb only for the k x 10 chunks kept:
  // built in the scan, an exact scan (no index) built it for every chunk before its sort.
  const candidates = `SELECT ${keyColumns(v, 'd')}, d.chunk_index, d.chunk, (${distance})::double precision AS distance
    FROM ${v.destination} d, (SELECT $1::text::${qualified(v.vectorSchema, 'vector')} AS embedding) q ORDER BY ${distance} LIMIT $2::integer * 10`;
  return `SELECT b.key, b.chunk_index, b.chunk, b.distance FROM (
  SELECT DISTINCT ON (k.key) k.* FROM (SELECT ${aliasedKeyObject(v, 'c')} AS key, c.chunk_index, c.chunk, c.distance FROM (${candidates}) c) k
  ORDER BY k.key, k.distance, k.chunk_index
) b ORDER BY b.distance, b.key LIMIT $2::integer`;
}

/** The search's name for the i-th key column (0-based): whatever the columns are called. */
const keyAlias = (i: number) => `svc_key_${i + 1}`;
/** The key columns of `table`, aliased (keyAlias). */
const keyColumns = (v: { keys: readonly { name: string }[] }, table: string) =>
  v.keys.map((k, i) => `${table}.${quoteIdent(k.name)} AS ${keyAlias(i)}`).join(', ');
/** The key as jsonb, {column: value}, from the aliased key columns of `table`. */
const aliasedKeyObject = (v: { keys: readonly { name: string }[] }, table: string) =>
  `pg_catalog.jsonb_build_object(${v.keys.map((k, i) => `${quoteLiteral(k.name)}, ${table}.${keyAlias(i)}`).join(', ')})`;

/**
 * svc_search over real[]: the k nearest rows by their nearest chunk, exact, in the order of the form
 * with pgvector's (distance, then the key as jsonb). Two phases. The scan orders every chunk by
 * svc__cosine_distance_lower_bound (C, src/native: the distance's sums in another order, as cheap as
 * pgvector's <=>, at most the distance and within ~1e-13 of it) and keeps the k × 10 least (a bounded
 * sort of each chunk's ctid and bound alone); those chunks are read again by ctid (a TID scan) and
 * their exact distances taken (svc_cosine_distance, whose values svc_search returns). Every chunk left
 * out is at least as far as the largest bound kept, so they decide the answer when at least k rows
 * have a kept chunk nearer than it: every chunk that near is kept, so those rows' nearest chunks are,
 * and any other row is farther than the k-th. Otherwise (rows of many near chunks, ties at the edge)
 * every chunk's exact distance is taken. It runs in one process (the bound is PARALLEL UNSAFE: see
 * catalog.ts). The query's text becomes a real[] once (q, read through scalar subqueries: parameters
 * of the scan, where a join with q was a node per chunk), rows are told
 * apart by their key columns (aliased, whatever they are called), and the key is built as jsonb only
 * for the k nearest and those tied with the k-th (WITH TIES). 100,000 chunks of 64 dimensions: as fast
 * as pgvector's exact scan of them, ~22 ms, where ordering every chunk by its exact distance took
 * 1.2–1.5× that and the form that sorted every chunk by its jsonb key ~860 ms (bench/search.ts).
 */
function exactScanQuery(v: { destination: string; svcSchema: string; keys: readonly { name: string }[] }): string {
  const query = '(SELECT q.embedding FROM q)';
  const distance = `${qualified(v.svcSchema, 'svc_cosine_distance')}(d.embedding, ${query})`;
  const bound = `${qualified(v.svcSchema, 'svc__cosine_distance_lower_bound')}(d.embedding, ${query})`;
  const aliases = (table: string) => v.keys.map((_, i) => `${table}.${keyAlias(i)}`).join(', ');
  const exact = `SELECT ${keyColumns(v, 'd')}, d.chunk_index, d.chunk, ${distance} AS distance FROM ${v.destination} d`;
  const key = aliasedKeyObject(v, 't');
  return `WITH q AS (SELECT translate($1::text, '[]', '{}')::real[] AS embedding),
bounds AS (SELECT d.ctid AS svc_ctid, ${bound} AS bound FROM ${v.destination} d ORDER BY bound LIMIT $2::integer * 10),
near AS (${exact} WHERE d.ctid OPERATOR(pg_catalog.=) ANY (ARRAY(SELECT b.svc_ctid FROM bounds b))),
enough AS (SELECT count(DISTINCT ROW(${aliases('n')})) FILTER (WHERE n.distance < (SELECT max(b.bound) FROM bounds b)) >= $2::integer AS yes FROM near n),
candidates AS (
  SELECT n.* FROM near n WHERE (SELECT e.yes FROM enough e)
  UNION ALL
  ${exact} WHERE NOT (SELECT e.yes FROM enough e)
)
SELECT ${key} AS key, t.chunk_index, t.chunk, t.distance FROM (
  SELECT b.* FROM (
    SELECT DISTINCT ON (${aliases('c')}) c.* FROM candidates c ORDER BY ${aliases('c')}, c.distance, c.chunk_index
  ) b ORDER BY b.distance FETCH FIRST ($2::integer) ROWS WITH TIES
) t ORDER BY t.distance, key LIMIT $2::integer`;
}
