// The SQL a vectorizer is made of, built from its declaration: the destination table, the writer
// (the only code that writes the destination, run as the declaring role's proxy), the trigger
// function and triggers that queue the source's changes, the backfill, and the search. Pure: names
// are quoted here, values are passed as parameters where the statements run (vectorizer.ts).

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** A relation or function by schema and name, quoted. */
export const qualified = (schema: string, name: string) => `${quoteIdent(schema)}.${quoteIdent(name)}`;

export interface KeyColumn {
  readonly name: string;
  /** As format_type() spells it, e.g. `integer`, `character varying(20)`. */
  readonly type: string;
}

export interface VectorizerShape {
  readonly id: number;
  /** svc's schema, where the generated functions live. */
  readonly svcSchema: string;
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

const writerName = (id: number) => `svc__vz_${id}_write`;
const triggerFunctionName = (id: number) => `svc__vz_${id}_changed`;
/** The generated functions as DDL names them (ALTER, DROP, REVOKE): qualified, with their argument types. */
export const writerSignature = (svcSchema: string, id: number) => `${qualified(svcSchema, writerName(id))}(jsonb, jsonb)`;
export const triggerFunctionSignature = (svcSchema: string, id: number) => `${qualified(svcSchema, triggerFunctionName(id))}()`;
export const TRIGGER_EVENTS = ['insert', 'update', 'delete', 'truncate'] as const;
export const triggerName = (vectorizer: string, event: (typeof TRIGGER_EVENTS)[number]) => `svc_vectorize_${vectorizer}_${event}`;
export const proxyRoleName = (ownerOid: string) => `svc_vectorizer_${ownerOid}`;

const keyList = (v: VectorizerShape, alias?: string) => v.keys.map((k) => (alias ? `${alias}.${quoteIdent(k.name)}` : quoteIdent(k.name))).join(', ');

/** The source row's key as jsonb, {column: value}: composite and non-integer keys alike. */
const keyObject = (v: { keys: readonly { name: string }[] }, alias: string) =>
  `jsonb_build_object(${v.keys.map((k) => `${quoteLiteral(k.name)}, ${alias}.${quoteIdent(k.name)}`).join(', ')})`;

/** One row's work item, {key, text, fields}, as svc__vectorizer_enqueue and the worker take it. */
function itemExpression(v: VectorizerShape, alias: string): string {
  const fields = v.fields.map((f) => `${quoteLiteral(f)}, ${alias}.${quoteIdent(f)}::text`).join(', ');
  return `jsonb_build_object('key', ${keyObject(v, alias)}, 'text', ${alias}.${quoteIdent(v.column)}::text, 'fields', jsonb_build_object(${fields}))`;
}

export function destinationTable(v: VectorizerShape): string {
  const keys = v.keys.map((k) => `${quoteIdent(k.name)} ${k.type} NOT NULL`).join(', ');
  const check = v.dimensions !== null && v.embeddingType === 'real[]' ? ` CHECK (cardinality(embedding) = ${v.dimensions})` : '';
  return `CREATE TABLE ${v.destination} (${keys}, chunk_index integer NOT NULL, chunk text NOT NULL, embedding ${v.embeddingType} NOT NULL${check}, PRIMARY KEY (${keyList(v)}, chunk_index))`;
}

/**
 * The writer: deletes the chunks of the keys given (all of them for NULL: a TRUNCATE), then inserts the
 * chunk rows given ({key columns..., chunk_index, chunk, embedding}). It runs as the proxy of the
 * declaring role (owner of the function, which nobody else may run), so the destination is written
 * with that role's privileges and whatever the role attached to its table runs with no more.
 */
export function writerFunction(v: VectorizerShape): string {
  const name = qualified(v.svcSchema, writerName(v.id));
  const match = v.keys.map((k) => `d.${quoteIdent(k.name)} = k.${quoteIdent(k.name)}`).join(' AND ');
  const columns = `${keyList(v)}, chunk_index, chunk, embedding`;
  return `CREATE FUNCTION ${name}(keys jsonb, chunk_rows jsonb) RETURNS void LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $writer$
DELETE FROM ${v.destination} d WHERE $1 IS NULL;
DELETE FROM ${v.destination} d USING jsonb_populate_recordset(NULL::${v.destination}, $1) k WHERE ${match};
INSERT INTO ${v.destination} (${columns}) SELECT ${columns} FROM jsonb_populate_recordset(NULL::${v.destination}, $2);
$writer$`;
}

/**
 * The statement trigger function of the source: queues inserted and updated rows (their input
 * unchanged: nothing, see svc__vectorizer_enqueue), and forgets deleted rows, keys an update
 * replaced, and everything on TRUNCATE, deleting their chunks. It runs in the writer's transaction
 * and does no model work. svc's own (SECURITY DEFINER as the extension's owner): it reads only the
 * transition tables, and calls svc's functions and the writer.
 */
export function triggerFunction(v: VectorizerShape): string {
  const svc = (name: string) => qualified(v.svcSchema, name);
  const writer = svc(writerName(v.id));
  return `CREATE FUNCTION ${svc(triggerFunctionName(v.id))}() RETURNS trigger LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $changed$
DECLARE
  gone jsonb;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM ${svc('svc__vectorizer_forget')}(${v.id}, NULL);
    PERFORM ${writer}(NULL, '[]');
    RETURN NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(${keyObject(v, 'o')}) INTO gone FROM svc_old o;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT jsonb_agg(g.key) INTO gone FROM (SELECT ${keyObject(v, 'o')} FROM svc_old o EXCEPT SELECT ${keyObject(v, 'n')} FROM svc_new n) AS g(key);
  END IF;
  IF gone IS NOT NULL THEN
    PERFORM ${svc('svc__vectorizer_forget')}(${v.id}, gone);
    PERFORM ${writer}(gone, '[]');
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM ${svc('svc__vectorizer_enqueue')}(${v.id}, (SELECT jsonb_agg(${itemExpression(v, 'n')}) FROM svc_new n));
  END IF;
  RETURN NULL;
END
$changed$`;
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

/** Rows of the backfill queued per call of svc__vectorizer_enqueue (each call's items go into one jsonb). */
export const BACKFILL_PART = 5000;

/** Queues every row of the source; returns the number queued ($1: nothing). */
export function backfill(v: VectorizerShape): string {
  return `SELECT coalesce(sum(${qualified(v.svcSchema, 'svc__vectorizer_enqueue')}(${v.id}, p.items)), 0)::bigint AS queued
FROM (SELECT jsonb_agg(s.item ORDER BY s.ord) AS items FROM (
  SELECT ${itemExpression(v, 'r')} AS item, row_number() OVER (ORDER BY ${keyList(v, 'r')}) AS ord FROM ${v.source} r
) s GROUP BY (s.ord - 1) / ${BACKFILL_PART}) p`;
}

/**
 * The k nearest source rows to a query embedding for svc_search: each row's nearest chunk. $1: the
 * embedding as text in pgvector's form ([x,y,...]), $2: k. With pgvector, `<=>` (cosine distance)
 * over the k × 10 nearest chunks, which an HNSW or IVFFlat index on the embedding serves; with
 * real[], an exact scan computing svc_cosine_distance for every chunk.
 */
export function searchQuery(v: { destination: string; svcSchema: string; keys: readonly { name: string }[]; vectorSchema: string | null }): string {
  const key = keyObject(v, 'd');
  let candidates: string;
  if (v.vectorSchema === null) {
    const distance = `${qualified(v.svcSchema, 'svc_cosine_distance')}(d.embedding, q.embedding)`;
    candidates = `SELECT ${key} AS key, d.chunk_index, d.chunk, ${distance} AS distance
    FROM ${v.destination} d, (SELECT translate($1::text, '[]', '{}')::real[] AS embedding) q`;
  } else {
    const distance = `d.embedding OPERATOR(${quoteIdent(v.vectorSchema)}.<=>) q.embedding`;
    candidates = `SELECT ${key} AS key, d.chunk_index, d.chunk, (${distance})::double precision AS distance
    FROM ${v.destination} d, (SELECT $1::text::${qualified(v.vectorSchema, 'vector')} AS embedding) q ORDER BY ${distance} LIMIT $2::integer * 10`;
  }
  return `SELECT b.key, b.chunk_index, b.chunk, b.distance FROM (
  SELECT DISTINCT ON (c.key) c.* FROM (${candidates}) c ORDER BY c.key, c.distance, c.chunk_index
) b ORDER BY b.distance, b.key LIMIT $2::integer`;
}
