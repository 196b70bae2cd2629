// Vectorizers: svc_vectorize declares that a table's text column is kept embedded, chunk by chunk,
// in a destination table; svc_vectorize_drop undoes it; svc_search finds the rows nearest a query.
// The declaration is checked whole before anything is created, and runs in the caller's transaction,
// so a bad one leaves nothing behind. What is created (vectorizer-sql.ts): the destination, svc_owner's,
// of built-in types, readable by the declaring role; the catalog row; the functions that read the
// role's tables (the source's trigger function, the backfill), owned by that role's proxy; svc's
// gate, the one way they hand svc what they found (jsonb); the source's statement triggers; then the
// backfill runs, as the proxy, and is dropped. svc's own code here reads only catalogs and runs DDL;
// it evaluates nothing of the role's types (docs/security.md). docs/vectorizer.md.
import { one, rows, run } from './db.js';
import { QUERIES } from './queries.js';
import { isDataException, parameterError, SvcError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import * as v from './validate.js';
import { declarationProblem, MAX_CHUNK_SIZE, MAX_SEPARATORS, type Chunking } from '../vectorizer/chunk.js';
import { MAX_RENDERED_CHARS, renderedLengthWithoutFields, templateFields, templateProblem } from '../vectorizer/template.js';
import {
  backfillFunction, DESTINATION_COLUMNS, destinationTable, gateFunction, generatedPattern, proxyRoleName, searchQuery, SETTINGS_RESTORE, SETTINGS_SNAPSHOT,
  signature, TRIGGER_EVENTS, triggerFunction, triggerName, triggers, type KeyColumn, type VectorizerShape,
} from './vectorizer-sql.js';
import { qualified, quoteIdent } from './sql-text.js';
import { prepareEmbed } from './jobs.js';
import { runOne } from './sync.js';
import { requestModel } from './settings.js';

const NAME = /^[a-z_][a-z0-9_]{0,39}$/;
const SEARCH_MAX_K = 1000;
const MAX_COLUMNS = 50;
/** pgvector's HNSW indexes `vector` of at most this many dimensions. */
const HNSW_MAX_DIMENSIONS = 2000;

interface Relation {
  oid: string;
  schema: string;
  name: string;
  kind: string;
  owner_is_role: boolean;
  row_security: boolean;
  force_row_security: boolean;
}

interface Column {
  name: string;
  type: string;
  category: string;
}

/** The schema an installed extension lives in (svc's own, pgvector's), or null when it is not installed. */
const extensionSchema = (name: string): string | null => one<{ schema: string }>(QUERIES.extensionSchema, name)?.schema ?? null;

/** The role a vectorizer belongs to: the session's (its SET ROLE), as for requests. */
const sessionRole = () => one<{ role: string; oid: string }>(QUERIES.sessionRole)!;

function checkedName(fn: string, name: unknown): string {
  const n = v.text(fn, 'name', name);
  if (!NAME.test(n)) throw parameterError(fn, 'name', `must be a lower-case identifier of at most 40 characters ([a-z_][a-z0-9_]*; got "${n}")`);
  return n;
}

function checkedChunking(fn: string, by: unknown, size: unknown, overlap: unknown, separators: unknown): Chunking {
  const list = v.array(fn, 'separators', separators, { maxItems: MAX_SEPARATORS, allowEmpty: true }).map((item, i) => {
    if (typeof item !== 'string') throw parameterError(fn, v.itemName('separators', i), 'must not be NULL', {}, SQLSTATE.null_value_not_allowed);
    return item;
  });
  const chunking = { by: v.text(fn, 'chunk_by', by), size: v.integerInRange(fn, 'chunk_size', size, 1, MAX_CHUNK_SIZE), overlap: v.integerInRange(fn, 'chunk_overlap', overlap, 0, MAX_CHUNK_SIZE - 1), separators: list };
  const problem = declarationProblem(chunking);
  if (problem === undefined) return chunking as Chunking;
  // chunkingProblem names its field (by, size, overlap, separators); the SQL parameter is chunk_<field>, or separators.
  const field = /^(by|size|overlap|separators)\b/.exec(problem)?.[1];
  const parameter = field === undefined ? 'chunking' : field === 'separators' ? 'separators' : `chunk_${field}`;
  throw parameterError(fn, parameter, problem.replace(/^(by|size|overlap|separators)\s*/, '').replace(/\b(size|overlap)\b/g, 'chunk_$1'));
}

/** What svc_vectorize was given, checked, with what it names in the catalogs. */
interface Declaration {
  name: string;
  role: { role: string; oid: string };
  source: Relation;
  column: string;
  keys: KeyColumn[];
  fields: string[];
  format: string;
  chunking: Chunking;
  model: string;
  destination: { schema: string; name: string };
  embeddingType: string;
  vectorSchema: string | null;
  dimensions: number | null;
  batchSize: number;
  /** Whether svc builds an HNSW index on the embedding (pgvector, a dimension of at most HNSW_MAX_DIMENSIONS). */
  hnsw: boolean;
}

function declaration(source: unknown, columnName: unknown, name: unknown, model: unknown, chunkBy: unknown, chunkSize: unknown, chunkOverlap: unknown,
  separators: unknown, format: unknown, destination: unknown, dimensions: unknown, batchSize: unknown, index: unknown): Declaration {
  const fn = 'svc_vectorize';
  // Every argument but model, destination and dimensions (whose NULL means the default) is needed: a NULL is the first error.
  const given = { source, column_name: columnName, name, chunk_by: chunkBy, chunk_size: chunkSize, chunk_overlap: chunkOverlap, separators, format, batch_size: batchSize, index };
  for (const [parameter, value] of Object.entries(given)) {
    if (value === null || value === undefined) throw parameterError(fn, parameter, 'must not be NULL', {}, SQLSTATE.null_value_not_allowed);
  }
  const relation = one<Relation>(QUERIES.relation, String(source));
  if (!relation) throw parameterError(fn, 'source', `names no relation (${String(source)})`, {}, SQLSTATE.undefined_table);
  const sourceOid = relation.oid;
  const sourceName = qualified(relation.schema, relation.name);
  if (relation.kind !== 'r') throw parameterError(fn, 'source', `must be an ordinary table (${sourceName} is ${relationKind(relation.kind)})`, {}, SQLSTATE.wrong_object_type);

  const column = v.text(fn, 'column_name', columnName);
  const columns = new Map(rows<Column>(QUERIES.tableColumns, sourceOid).map((c) => [c.name, c]));
  const embedded = columns.get(column);
  if (!embedded) throw parameterError(fn, 'column_name', `"${column}" is no column of ${sourceName}`, {}, SQLSTATE.undefined_column);
  if (embedded.category !== 'S') throw parameterError(fn, 'column_name', `must be a text column ("${column}" is ${embedded.type})`, {}, SQLSTATE.datatype_mismatch);
  const keys = rows<KeyColumn & { trusted: boolean }>(QUERIES.primaryKey, sourceOid);
  if (keys.length === 0) throw parameterError(fn, 'source', `must have a primary key (${sourceName} has none): chunks are kept per source row`, {}, SQLSTATE.object_not_in_prerequisite_state);
  // The destination is written by svc and the worker: no function of a role's may run there (docs/security.md).
  const untrusted = keys.find((k) => !k.trusted);
  if (untrusted) {
    throw parameterError(fn, 'source', `has a primary key column "${untrusted.name}" of type ${untrusted.type}: a vectorizer's key columns must be of base types or enums `
      + `(or domains over them, stored as their base type), whose input and comparison run no role's function`, {}, SQLSTATE.feature_not_supported);
  }
  if (keys.length > MAX_COLUMNS) throw parameterError(fn, 'source', `must have a primary key of at most ${MAX_COLUMNS} columns (has ${keys.length})`, {}, SQLSTATE.program_limit_exceeded);
  const clash = keys.find((k) => (DESTINATION_COLUMNS as readonly string[]).includes(k.name));
  if (clash) throw parameterError(fn, 'source', `has a primary key column named "${clash.name}", which the destination uses for itself (chunk_index, chunk, embedding)`, {}, SQLSTATE.object_not_in_prerequisite_state);

  const vectorizerName = checkedName(fn, name);
  const template = v.text(fn, 'format', format);
  const templateError = templateProblem(template);
  if (templateError) throw parameterError(fn, 'format', templateError);
  const fields = templateFields(template);
  // Each row's key and format columns are built with jsonb_build_object, which takes 100 arguments (50 pairs).
  if (fields.length > MAX_COLUMNS) throw parameterError(fn, 'format', `may refer to at most ${MAX_COLUMNS} columns (refers to ${fields.length})`, {}, SQLSTATE.program_limit_exceeded);
  const missing = fields.find((f) => !columns.has(f));
  if (missing !== undefined) throw parameterError(fn, 'format', `refers to $${missing}, which is no column of ${sourceName}`, {}, SQLSTATE.undefined_column);

  const chunking = checkedChunking(fn, chunkBy, chunkSize, chunkOverlap, separators);
  // What the format makes of a chunk of chunk_size characters, columns aside, must be embeddable at all (the worker checks each row's).
  const rendered = chunking.by === 'characters' ? renderedLengthWithoutFields(template, chunking.size) : 0;
  if (rendered > MAX_RENDERED_CHARS) {
    throw parameterError(fn, 'format', `makes a text of at least ${rendered} characters of a chunk of chunk_size ${chunking.size}, more than the ${MAX_RENDERED_CHARS} a vectorizer embeds`);
  }
  // NULL: the embedding model svc_embed would use in this session (docs/models.md, "Which model serves a request").
  const modelName = model === null || model === undefined ? requestModel(fn, 'embed') : v.text(fn, 'model', model);
  const declared = one<{ serves: string[]; dimension: number | null }>(QUERIES.modelServes, modelName);
  const serves = declared?.serves;
  if (!serves) throw parameterError(fn, 'model', `"${modelName}" is not declared in svc_models`, { hint: `Start a worker with --model ${modelName}=PATH, or declare it with svc_model_declare.` });
  if (!serves.includes('embed')) throw parameterError(fn, 'model', `"${modelName}" does not serve embed (it serves ${serves.join(', ')})`);
  const givenDims = dimensions === null || dimensions === undefined ? null : v.integerInRange(fn, 'dimensions', dimensions, 1, 16000);
  // The model's own length, as its worker loaded it (svc_models.dimension): any other would fail every row later.
  if (givenDims !== null && declared?.dimension != null && givenDims !== declared.dimension) {
    throw parameterError(fn, 'dimensions', `must be the length of "${modelName}"'s embeddings, ${declared.dimension} (got ${givenDims}): pass ${declared.dimension}, or NULL for the model's`);
  }
  // NULL: the model's, once a worker has loaded it (else none: a vector column of any length, which no index takes).
  const dims = givenDims ?? (declared?.dimension != null ? Number(declared.dimension) : null);
  const batch = v.integerInRange(fn, 'batch_size', batchSize, 1, 1000);
  const indexKind = v.text(fn, 'index', index);
  if (indexKind !== 'hnsw' && indexKind !== 'none') throw parameterError(fn, 'index', `must be 'hnsw' or 'none' (got "${indexKind}")`);

  const target = destinationName(fn, destination, relation.schema, vectorizerName);
  const vectorSchema = extensionSchema('vector');
  const embeddingType = vectorSchema === null ? 'real[]' : `${qualified(vectorSchema, 'vector')}${dims === null ? '' : `(${dims})`}`;
  const role = sessionRole();
  checkPrivileges(fn, role.role, relation, [...new Set([...keys.map((k) => k.name), column, ...fields])], target.schema);
  if (one(QUERIES.vectorizerExists, vectorizerName)) throw parameterError(fn, 'name', `"${vectorizerName}" is taken: a vectorizer of that name exists`, {}, SQLSTATE.duplicate_object);
  if (one(QUERIES.relationByName, target.schema, target.name)) {
    throw parameterError(fn, 'destination', `${qualified(target.schema, target.name)} exists: svc creates the destination (drop it, or name another)`, {}, SQLSTATE.duplicate_table);
  }
  return {
    name: vectorizerName, role, source: relation, column, keys: keys.map(({ name, type, storage }) => ({ name, type, storage })), fields, format: template, chunking, model: modelName, destination: target,
    embeddingType, vectorSchema, dimensions: dims, batchSize: batch, hnsw: indexKind === 'hnsw' && vectorSchema !== null && dims !== null && dims <= HNSW_MAX_DIMENSIONS,
  };
}

const relationKind = (kind: string) =>
  ({ v: 'a view', m: 'a materialized view', p: 'a partitioned table', f: 'a foreign table', S: 'a sequence', i: 'an index', c: 'a composite type', t: 'a TOAST table' })[kind] ?? `of kind ${kind}`;

/** The destination's schema and name: `name` or `schema.name` as given (an identifier as SQL reads it), or `<vectorizer>_chunks` beside the source. */
function destinationName(fn: string, destination: unknown, sourceSchema: string, vectorizer: string): { schema: string; name: string } {
  if (destination === null || destination === undefined) return { schema: sourceSchema, name: `${vectorizer}_chunks` };
  const text = v.text(fn, 'destination', destination);
  let parts: string[];
  try {
    parts = one<{ parts: string[] }>(QUERIES.parseIdent, text)!.parts;
  } catch (error) {
    if (!isDataException(error)) throw error;
    throw parameterError(fn, 'destination', `must be a table name, optionally schema-qualified (got "${text}")`, {}, SQLSTATE.invalid_name);
  }
  if (parts.length > 2) throw parameterError(fn, 'destination', `must be a table name, optionally schema-qualified (got "${text}")`, {}, SQLSTATE.invalid_name);
  if (parts.length === 1) return { schema: sourceSchema, name: parts[0] };
  if (!one(QUERIES.schemaExists, parts[0])) throw parameterError(fn, 'destination', `names a schema that does not exist ("${parts[0]}")`, {}, SQLSTATE.invalid_schema_name);
  return { schema: parts[0], name: parts[1] };
}

/**
 * A role vectorizes only what it could read itself and puts triggers only where it may: SELECT on
 * every column read, TRIGGER on the source, CREATE on the destination's schema. A source under
 * row-level security that applies to the role is refused: the triggers see every row written, and
 * the role's chunks would hold rows its policies hide from it.
 */
function checkPrivileges(fn: string, role: string, source: Relation, columns: string[], destinationSchema: string): void {
  const denied = one<{ select: string | null; trigger: boolean; create: boolean; usage: boolean }>(QUERIES.vectorizerPrivileges, role, source.oid, columns, destinationSchema)!;
  const table = qualified(source.schema, source.name);
  if (denied.select !== null) throw parameterError(fn, 'source', `must be readable by role ${role}: it may not read column "${denied.select}" of ${table}`, {}, SQLSTATE.insufficient_privilege);
  if (!denied.trigger) throw parameterError(fn, 'source', `must allow role ${role} to create triggers on ${table} (the TRIGGER privilege): its changes are queued by triggers`, {}, SQLSTATE.insufficient_privilege);
  if (!denied.create || !denied.usage) throw parameterError(fn, 'destination', `must be in a schema where role ${role} may create tables ("${destinationSchema}")`, {}, SQLSTATE.insufficient_privilege);
  if (source.row_security && (!source.owner_is_role || source.force_row_security)) {
    throw parameterError(fn, 'source', `has row-level security that applies to role ${role}: a vectorizer sees every row written, which its policies would hide`, {}, SQLSTATE.feature_not_supported);
  }
}

function shape(id: number, d: Declaration, svcSchema: string): VectorizerShape {
  return {
    id, svcSchema, proxy: proxyRoleName(d.role.oid), source: qualified(d.source.schema, d.source.name), destination: qualified(d.destination.schema, d.destination.name),
    keys: d.keys, column: d.column, fields: d.fields, embeddingType: d.embeddingType, dimensions: d.dimensions,
  };
}

/** svc_vectorize: declares, creates and backfills a vectorizer; returns how many source rows were queued. */
export function vectorize(source: unknown, columnName: unknown, name: unknown, model: unknown, chunkBy: unknown, chunkSize: unknown, chunkOverlap: unknown,
  separators: unknown, format: unknown, destination: unknown, dimensions: unknown, batchSize: unknown, index: unknown): number {
  // Runs as the superuser (docs/security.md, "Who owns svc's objects"): svc_owner's tables first checked as svc made them.
  one(QUERIES.tablesAsMade, 'svc_vectorize');
  const d = declaration(source, columnName, name, model, chunkBy, chunkSize, chunkOverlap, separators, format, destination, dimensions, batchSize, index);
  const svcSchema = extensionSchema('svc')!;
  const proxy = proxyRoleName(d.role.oid);
  if (!one(QUERIES.roleExists, proxy)) {
    run(`CREATE ROLE ${quoteIdent(proxy)} NOLOGIN INHERIT`);
    run(`GRANT ${quoteIdent(d.role.role)} TO ${quoteIdent(proxy)}`);
  }
  // The proxy's functions stay as svc wrote them only while it may not create in svc's schema.
  if (one<{ may: boolean }>(QUERIES.mayCreateIn, proxy, svcSchema, d.role.role)?.may) {
    throw parameterError('svc_vectorize', 'source', `cannot be vectorized for role ${d.role.role}: it may create objects in svc's schema "${svcSchema}", where svc keeps the functions that run as it`, {}, SQLSTATE.insufficient_privilege);
  }
  const target = qualified(d.destination.schema, d.destination.name);
  // The id names the generated functions; the destination is created first so the catalog row can name it.
  // svc_owner's, so that the role can attach nothing to it; the role reads it, and may let others read it.
  const draft = shape(0, d, svcSchema);
  run(destinationTable(draft));
  run(`ALTER TABLE ${target} OWNER TO svc_owner`);
  run(`GRANT SELECT ON ${target} TO ${quoteIdent(d.role.role)} WITH GRANT OPTION`);
  // svc's writes reach it by its qualified name (and nothing else there: svc's search_path never names the schema).
  run(`GRANT USAGE ON SCHEMA ${quoteIdent(d.destination.schema)} TO svc_owner`);
  // What the role could have added itself, were the table its own: pgvector's HNSW index, unless index := 'none'.
  if (d.hnsw && d.vectorSchema !== null) run(`CREATE INDEX ON ${target} USING hnsw (embedding ${qualified(d.vectorSchema, 'vector_cosine_ops')})`);
  const { id } = one<{ id: number }>(QUERIES.vectorizerInsert, d.name, d.role.oid, d.source.oid, d.column, d.keys.map((k) => k.name), d.format,
    JSON.stringify(d.chunking), d.model, target, d.vectorSchema === null ? 'real[]' : 'vector', d.batchSize)!;
  const s = { ...draft, id };
  // svc's gate, svc_owner's as svc's other functions (docs/security.md, "Who owns svc's objects"): it
  // runs as svc_owner, never as the superuser who runs this, and only the proxy may run it.
  run(gateFunction(s));
  const gate = signature(svcSchema, id, 'gate');
  run(`ALTER FUNCTION ${gate} OWNER TO svc_owner`);
  run(`REVOKE ALL ON FUNCTION ${gate} FROM PUBLIC`);
  run(`GRANT EXECUTE ON FUNCTION ${gate} TO ${quoteIdent(proxy)}`);
  // The proxy's: nobody else may run them (svc's owner and superusers aside).
  for (const [fn, sql] of [['changed', triggerFunction(s)], ['backfill', backfillFunction(s)]] as const) {
    run(sql);
    run(`REVOKE ALL ON FUNCTION ${signature(svcSchema, id, fn)} FROM PUBLIC`);
    run(`ALTER FUNCTION ${signature(svcSchema, id, fn)} OWNER TO ${quoteIdent(proxy)}`);
  }
  // Members of the extension: DROP EXTENSION svc then needs CASCADE, which takes the triggers too
  // (a trigger left behind would call functions that are gone, and fail every write to the source).
  for (const fn of ['gate', 'changed'] as const) run(`ALTER EXTENSION svc ADD FUNCTION ${signature(svcSchema, id, fn)}`);
  for (const statement of triggers(s, d.name)) run(statement);
  // Last: the backfill runs the role's casts and key types as the proxy, then goes.
  const backfill = signature(svcSchema, id, 'backfill');
  const settings = run<{ settings: unknown }>(SETTINGS_SNAPSHOT)[0].settings;
  const queued = Number(run<{ queued: number | string }>(`SELECT ${backfill} AS queued`)[0].queued);
  run(SETTINGS_RESTORE, settings);
  run(`DROP FUNCTION ${backfill}`);
  return queued;
}

interface Vectorizer {
  id: number;
  /** The destination's schema, NULL once the destination is gone (svc_vectorize_drop's query only). */
  destination_schema?: string | null;
  name: string;
  /** NULL for svc_vectorize_drop once the role is dropped. */
  owner: string | null;
  owner_id: string;
  source: string | null;
  destination: string | null;
  key_columns: string[];
  model: string;
  embedding_type: string;
}

function ownVectorizer(fn: string, name: unknown, query = QUERIES.vectorizerOfSession): Vectorizer {
  const n = v.text(fn, 'name', name);
  const found = one<Vectorizer>(query, n);
  if (!found) throw parameterError(fn, 'name', `"${n}" is no vectorizer of role ${sessionRole().role}`, {}, SQLSTATE.undefined_object);
  return found;
}

/**
 * svc_vectorize_drop: removes the triggers, the functions, the vectorizer's queued work and (unless told
 * not to) its destination; the source is untouched. An svc_admin member may drop any, a dropped role's too.
 */
export function vectorizeDrop(name: unknown, dropDestination: unknown): boolean {
  const fn = 'svc_vectorize_drop';
  one(QUERIES.tablesAsMade, fn); // as in vectorize()
  const keepDestination = !v.boolean(fn, 'drop_destination', dropDestination);
  const vz = ownVectorizer(fn, name, QUERIES.vectorizerToDrop);
  // In the order the other writers take them, so that none deadlocks with this: the source (its writes
  // queue and forget through the triggers), then the vectorizer's row (a worker completing its jobs
  // holds it shared, svc__vectorizer_apply); the pending jobs a claim holds are left to be written as
  // the vectorizer's that was dropped.
  if (vz.source !== null) for (const event of TRIGGER_EVENTS) run(`DROP TRIGGER IF EXISTS ${quoteIdent(triggerName(vz.name, event))} ON ${vz.source}`);
  one(QUERIES.vectorizerLock, vz.id);
  one(QUERIES.vectorizerCancelJobs, vz.id);
  one(QUERIES.vectorizerDelete, vz.id);
  // Wherever they are now (the proxy may have moved its own): the extension's members of the vectorizer's names.
  for (const { fn } of rows<{ fn: string }>(QUERIES.vectorizerFunctions, generatedPattern(vz.id))) {
    run(`ALTER EXTENSION svc DROP FUNCTION ${fn}`);
    run(`DROP FUNCTION ${fn}`);
  }
  if (vz.destination !== null) {
    // Kept, it is svc's no more: it becomes the declaring role's (an administrator dropping a dropped role's vectorizer takes it).
    if (!keepDestination) run(`DROP TABLE ${vz.destination}`);
    else run(`ALTER TABLE ${vz.destination} OWNER TO ${vz.owner !== null ? quoteIdent(vz.owner) : 'CURRENT_USER'}`);
    // svc_owner reached it through USAGE on its schema: taken back once no vectorizer's destination is there (svc's own schema aside).
    if (vz.destination_schema != null && vz.destination_schema !== extensionSchema('svc') && !one(QUERIES.destinationInSchema, vz.destination_schema)) {
      run(`REVOKE USAGE ON SCHEMA ${quoteIdent(vz.destination_schema)} FROM svc_owner`);
    }
  }
  const proxy = proxyRoleName(vz.owner_id);
  const left = one<{ others: number | string; elsewhere: boolean }>(QUERIES.vectorizerOwnerLeft, vz.owner_id, proxy)!;
  if (Number(left.others) === 0) {
    // Its vectorizers in other databases keep it (it owns their functions); the last of them drops it.
    if (one(QUERIES.roleExists, proxy)) {
      // What the role's own code made as the proxy (in its schemas) becomes the role's; the proxy's grants go with it.
      if (vz.owner !== null) run(`REASSIGN OWNED BY ${quoteIdent(proxy)} TO ${quoteIdent(vz.owner)}`);
      run(`DROP OWNED BY ${quoteIdent(proxy)}`);
      if (!left.elsewhere) run(`DROP ROLE ${quoteIdent(proxy)}`);
    }
  }
  return true;
}

/** svc_vectorizer_embed: a text's embedding under the vectorizer's model, through the sync path (cache first), as its chunks were embedded. */
export function vectorizerEmbed(name: unknown, query: unknown): number[] {
  const fn = 'svc_vectorizer_embed';
  const text = v.text(fn, 'query', query);
  const vz = ownVectorizer(fn, name);
  return JSON.parse(runOne(fn, prepareEmbed(fn, text, true, vz.model))) as number[];
}

/** svc_search: the k source rows nearest the query (each by its nearest chunk), as the caller reads the destination. */
export function search(name: unknown, query: unknown, k: unknown): Array<Record<string, unknown>> {
  const fn = 'svc_search';
  const n = v.text(fn, 'name', name);
  v.text(fn, 'query', query);
  const count = v.integerInRange(fn, 'k', k, 1, SEARCH_MAX_K);
  const vz = one<Vectorizer>(QUERIES.vectorizerForSearch, n);
  if (!vz) throw parameterError(fn, 'name', `"${n}" is no vectorizer of role ${sessionRole().role}`, {}, SQLSTATE.undefined_object);
  if (vz.destination === null) throw new SvcError(SQLSTATE.undefined_table, `${fn}: the destination of vectorizer "${n}" no longer exists`);
  const embedding = one<{ embedding: number[] }>(QUERIES.vectorizerEmbedding, n, query)!.embedding;
  const sql = searchQuery({
    destination: vz.destination, svcSchema: extensionSchema('svc')!, keys: vz.key_columns.map((name) => ({ name })),
    vectorSchema: vz.embedding_type === 'vector' ? extensionSchema('vector') : null,
  });
  return run(sql, `[${embedding.join(',')}]`, String(count));
}
