// For the validator: a subschema written out many times (a schema store's "min" files inline every
// definition: cityjson.min.schema.json holds 2,112 subschemas of over 200 characters, 170 of them
// distinct) becomes one `$defs` entry and `$ref`s to it, so ajv compiles each once. ajv generates
// code for every occurrence of an inline subschema; cityjson's first validate() took 3-7 s.
//
// Only where it cannot change what the schema means: a subschema holding an `$id`, `$anchor` or
// `$dynamicAnchor` stays (its identity is its place), and so does one on the path of a `$ref`'s JSON
// pointer (the pointer must still find what it names).

type SchemaObject = { [keyword: string]: unknown };

const isObject = (value: unknown): value is SchemaObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Subschemas shorter than this (as JSON text) are left inline: a `$ref` would cost more than it saves. */
const MIN_SHARED_CHARS = 200;

/** Keywords whose values are schemas, maps of schemas or lists of schemas (2020-12). */
const SCHEMA_VALUES = new Set([
  'additionalProperties',
  'items',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

const child = (pointer: string, token: string | number) =>
  `${pointer}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * Calls `visit` for each subschema directly below `node` (with its pointer), and returns a copy of
 * `node` with each such subschema replaced by what `visit` returns.
 */
function mapSubschemas(
  node: SchemaObject,
  pointer: string,
  visit: (sub: unknown, at: string) => unknown,
): SchemaObject {
  const out: SchemaObject = {};
  for (const [keyword, value] of Object.entries(node)) {
    const at = child(pointer, keyword);
    if (SCHEMA_VALUES.has(keyword)) out[keyword] = visit(value, at);
    else if (SCHEMA_MAPS.has(keyword) && isObject(value)) {
      const map: SchemaObject = {};
      for (const [name, sub] of Object.entries(value)) map[name] = visit(sub, child(at, name));
      out[keyword] = map;
    } else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value))
      out[keyword] = value.map((sub, i) => visit(sub, child(at, i)));
    else out[keyword] = value;
  }
  return out;
}

/**
 * The schema with each subschema written more than once (by JSON text) moved to one `$defs` entry;
 * the input is not changed. Returns the input itself when nothing repeats.
 */
export function shareRepeatedSubschemas(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const texts = new WeakMap<object, string>();
  // Bottom-up: each subschema's text once, from its children's (JSON.stringify per node would be quadratic in the depth).
  const textOf = (value: unknown): string => {
    if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
    const known = texts.get(value);
    if (known !== undefined) return known;
    const text = Array.isArray(value)
      ? `[${value.map(textOf).join(',')}]`
      : `{${Object.keys(value)
          .map((k) => `${JSON.stringify(k)}:${textOf((value as SchemaObject)[k])}`)
          .join(',')}}`;
    texts.set(value, text);
    return text;
  };
  const counts = new Map<string, number>();
  // Every `$ref` anywhere (also under keywords of no vocabulary, as OpenAPI's components), and every
  // subschema whose text names an identity anywhere inside it.
  const refs: string[] = [];
  const pending: unknown[] = [schema];
  while (pending.length) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (isObject(value)) {
      if (typeof value.$ref === 'string') refs.push(value.$ref);
      pending.push(...Object.values(value));
    }
  }
  const named = (text: string) => /"\$(id|anchor|dynamicAnchor)":/.test(text);
  const count = (node: unknown, pointer: string, top: boolean): void => {
    if (!isObject(node)) return;
    mapSubschemas(node, pointer, (sub, at) => {
      count(sub, at, false);
      return sub;
    });
    if (top) return;
    const text = textOf(node);
    if (text.length >= MIN_SHARED_CHARS && !named(text)) counts.set(text, (counts.get(text) ?? 0) + 1);
  };
  count(schema, '', true);
  if (![...counts.values()].some((n) => n > 1)) return schema;
  const targets = refs.filter((ref) => ref.startsWith('#/')).map((ref) => safeDecode(ref.slice(1)));
  const onRefPath = (pointer: string) => targets.some((t) => t === pointer || t.startsWith(pointer + '/'));
  let prefix = '__svc_shared_';
  while (isObject(schema.$defs) && Object.keys(schema.$defs).some((k) => k.startsWith(prefix))) prefix += '_';
  const names = new Map<string, string>();
  const defs: SchemaObject = {};
  const rewrite = (node: unknown, pointer: string, top: boolean): unknown => {
    if (!isObject(node)) return node;
    if (!top && !onRefPath(pointer)) {
      const text = textOf(node);
      if ((counts.get(text) ?? 0) > 1) {
        let name = names.get(text);
        if (name === undefined) {
          name = `${prefix}${names.size}`;
          names.set(text, name);
          defs[name] = mapSubschemas(node, pointer, (sub, at) => rewrite(sub, at, false));
        }
        return { $ref: `#/$defs/${name}` };
      }
    }
    return mapSubschemas(node, pointer, (sub, at) => rewrite(sub, at, false));
  };
  const root = rewrite(schema, '', true) as SchemaObject;
  root.$defs = { ...(isObject(root.$defs) ? root.$defs : {}), ...defs };
  return root;
}

function safeDecode(pointer: string): string {
  try {
    return decodeURIComponent(pointer);
  } catch {
    return pointer;
  }
}
