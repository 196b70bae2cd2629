// JSON Schema drafts 04, 06, 07, 2019-09 and 2020-12, read as one: every schema is rewritten into
// 2020-12 spellings before anything else looks at it, so the grammar compiler and the validator
// (ajv's 2020-12 dialect) see the same schema and agree on what it means. Keywords no standard
// vocabulary defines are annotations (the specification's rule: `id` in later drafts, `x-*`,
// `readonly`, `_format`, ...); with `strict` they are errors naming the keyword and its pointer.

import { ConstraintError, pointerChild } from './errors.js';

export type Draft = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12';

type SchemaObject = { [keyword: string]: unknown };

/** Every keyword of the standard vocabularies of drafts 04 to 2020-12 (draft-04's `id` separately). */
export const STANDARD_KEYWORDS: ReadonlySet<string> = new Set([
  // core
  '$schema',
  '$id',
  '$ref',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$vocabulary',
  '$comment',
  '$defs',
  'definitions',
  // applicators
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependencies',
  'prefixItems',
  'items',
  'additionalItems',
  'contains',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  // validation
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  // meta-data, format, content
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'format',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);

// Where subschemas sit: the walk below visits only these, so a vendor keyword's value (or a property
// named like a keyword) is never taken for a schema.
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_VALUES = [
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];

const isObject = (value: unknown): value is SchemaObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** Sets an own property, also for `__proto__`, which assignment would take as the prototype. */
function setOwn(object: SchemaObject, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The draft a `$schema` URI names; undefined when it names none of them (or is absent). */
export function declaredDraft(schema: unknown): Draft | undefined {
  const uri = isObject(schema) && typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[34]\b/.test(uri)) return 'draft-04';
  if (/draft-06\b/.test(uri)) return 'draft-06';
  if (/draft-07\b/.test(uri)) return 'draft-07';
  if (/2019-09/.test(uri)) return '2019-09';
  if (/2020-12/.test(uri)) return '2020-12';
  return undefined;
}

export interface NormalizeOptions {
  /** Unknown keywords (and unknown formats, see json-schema.ts) are errors instead of annotations. */
  strict?: boolean;
  /** Keywords to take as annotations even when strict. */
  annotations?: readonly string[];
  /** Deepest nesting walked; deeper schemas are the compiler's `too-deep`, left as they are here. */
  maxDepth?: number;
}

export interface Normalized {
  /** The schema in 2020-12 spellings (a copy; the input is never changed). */
  schema: unknown;
  /** The draft the schema declares, else the one its spellings suggest (2020-12 when nothing does). */
  draft: Draft;
}

/**
 * The members an object schema may declare: the compiler's counting states (json-schema.ts) need at
 * least two per member. Checked here, on the first walk, so that a schema of 100,000 properties is
 * refused before anything is copied or compiled for them.
 */
export const MAX_OBJECT_PROPERTIES = 2000;

export function refuseTooManyProperties(count: number, pointer: string): void {
  if (count <= MAX_OBJECT_PROPERTIES) return;
  throw new ConstraintError(
    'too-large',
    `an object of ${count} properties (properties and required) is above the limit of ${MAX_OBJECT_PROPERTIES}`,
    {
      pointer,
      keyword: 'properties',
    },
  );
}

const ANCHOR_NAME = /^[A-Za-z_][-A-Za-z0-9._]*$/;

/**
 * Rewrites a schema of any supported draft into 2020-12: draft-04's `id` and boolean
 * `exclusiveMinimum`/`exclusiveMaximum`, array `items` with `additionalItems` (drafts 04 to
 * 2019-09), `dependencies`, `$id`s with a plain-name fragment (`$anchor`). `$schema` is dropped
 * (the draft is returned instead), so ajv never looks up an older meta-schema.
 */
export function normalizeSchema(input: unknown, options: NormalizeOptions = {}): Normalized {
  const declared = declaredDraft(input);
  const maxDepth = options.maxDepth ?? 64;
  const extra = new Set(options.annotations ?? []);
  // Without a declared draft, `id` is read as draft-04's when no `$id` is beside it: the common case
  // in older schema collections, and harmless otherwise (a base URI, or an anchor when `#name`).
  const idIsKeyword = declared === 'draft-04' || declared === undefined;
  let spellings: Draft | undefined;
  const saw = (draft: Draft) => (spellings ??= draft);

  /** The objects the walk wrote (schemas and their maps and lists), and every `$ref` it met. */
  const written = new WeakSet<object>();
  const refs: string[] = [];
  const anchors = new Set<string>();

  // Inside a subschema only the validator reads (under `not`, `if`, `contains`, ...), the compiler
  // checks nothing: the shapes ajv needs are checked here, and its `$ref`s must resolve.
  const validatorRefs: { ref: string; pointer: string }[] = [];

  const walk = (schema: unknown, pointer: string, depth: number, validatorOnly = false): unknown => {
    if (!isObject(schema) || depth > maxDepth) return schema;
    const out: SchemaObject = {};
    written.add(out);
    for (const [keyword, value] of Object.entries(schema)) {
      if (STANDARD_KEYWORDS.has(keyword) || extra.has(keyword)) setOwn(out, keyword, value);
      else if (keyword === 'id' && idIsKeyword && typeof value === 'string') saw('draft-04');
      else if (options.strict) {
        throw new ConstraintError(
          'unsupported-keyword',
          `unknown keyword '${keyword}' (strict: only the standard vocabularies' keywords are allowed)`,
          {
            pointer: pointerChild(pointer, keyword),
            keyword,
          },
        );
      }
      // Other unknown keywords are annotations, kept as they are (a `$ref` may point into one, as
      // into OpenAPI's `components`); the compiler and ajv give them no meaning. Not `$async`, which
      // would make ajv's validator asynchronous, nor `id`, which ajv refuses.
      else if (keyword !== '$async' && keyword !== 'id') setOwn(out, keyword, value);
    }
    delete out.$schema;
    if (typeof out.$ref === 'string') refs.push((out.$ref = movedRef(input, out.$ref)));
    if (validatorOnly) {
      checkCompiledShapes(out, pointer);
      if (typeof out.$ref === 'string') validatorRefs.push({ ref: out.$ref, pointer: pointerChild(pointer, '$ref') });
    }
    // draft-04 `id`: a base URI, or an anchor when it is `#name`.
    const id = idIsKeyword && typeof schema.id === 'string' && !hasOwn(schema, '$id') ? schema.id : undefined;
    splitId(out, id ?? (typeof out.$id === 'string' ? out.$id : undefined), depth === 0);
    for (const [exclusive, bound] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      if (typeof out[exclusive] !== 'boolean') continue;
      saw('draft-04');
      if (out[exclusive] === true && typeof out[bound] === 'number') {
        out[exclusive] = out[bound];
        delete out[bound];
      } else delete out[exclusive];
    }
    if (Array.isArray(out.items)) {
      saw('draft-07');
      out.prefixItems = out.items;
      if (hasOwn(out, 'additionalItems')) out.items = out.additionalItems;
      else delete out.items;
      delete out.additionalItems;
    } else if (hasOwn(out, 'additionalItems')) {
      // additionalItems without array items has no effect.
      saw('draft-07');
      delete out.additionalItems;
    }
    if (isObject(out.dependencies)) {
      saw('draft-07');
      const required: SchemaObject = isObject(out.dependentRequired) ? { ...out.dependentRequired } : {};
      const schemas: SchemaObject = isObject(out.dependentSchemas) ? { ...out.dependentSchemas } : {};
      for (const [name, dependency] of Object.entries(out.dependencies)) {
        // draft-03's string form names one property that must then be present.
        if (typeof dependency === 'string') setOwn(required, name, [dependency]);
        else if (
          Array.isArray(dependency)
            ? dependency.every((item) => typeof item === 'string')
            : typeof dependency === 'boolean' || isObject(dependency)
        ) {
          setOwn(Array.isArray(dependency) ? required : schemas, name, dependency);
        } else {
          throw new ConstraintError(
            'invalid-input',
            'dependencies must be an object of property-name arrays or schemas',
            {
              pointer: pointerChild(pointerChild(pointer, 'dependencies'), name),
              keyword: 'dependencies',
            },
          );
        }
      }
      delete out.dependencies;
      if (Object.keys(required).length) out.dependentRequired = required;
      if (Object.keys(schemas).length) out.dependentSchemas = schemas;
    }
    if (hasOwn(out, 'definitions')) saw('draft-07');
    if (typeof out.$anchor === 'string' && ANCHOR_NAME.test(out.$anchor)) {
      // The first of two equal anchors is the one (ajv refuses the schema, so the validator could check nothing).
      if (anchors.has(out.$anchor)) delete out.$anchor;
      else anchors.add(out.$anchor);
    }
    checkValidatedShapes(out, pointer);
    // Subschemas, each rewritten the same way.
    const child = (value: unknown, path: string, keyword: string) =>
      walk(
        value,
        path,
        depth + 1,
        validatorOnly ||
          VALIDATED_SUBSCHEMAS.includes(keyword) ||
          keyword === 'patternProperties' ||
          keyword === 'dependentSchemas',
      );
    for (const keyword of SCHEMA_MAPS) {
      const map = out[keyword];
      if (!isObject(map)) continue;
      if (keyword === 'properties') refuseTooManyProperties(Object.keys(map).length, pointer);
      const copy: SchemaObject = {};
      written.add(copy);
      for (const [name, sub] of Object.entries(map))
        setOwn(copy, name, child(sub, pointerChild(pointerChild(pointer, keyword), name), keyword));
      out[keyword] = copy;
      if (keyword === 'properties') hoistRequired(out, copy);
    }
    for (const keyword of SCHEMA_LISTS) {
      const list = out[keyword];
      if (!Array.isArray(list)) continue;
      const copy = list.map((sub, i) => child(sub, pointerChild(pointerChild(pointer, keyword), i), keyword));
      written.add(copy);
      out[keyword] = copy;
    }
    for (const keyword of SCHEMA_VALUES)
      if (hasOwn(out, keyword)) out[keyword] = child(out[keyword], pointerChild(pointer, keyword), keyword);
    return out;
  };

  const schema = walk(input, '', 0);
  // A `$ref` may point into what the walk left as it is, the value of an unknown keyword (OpenAPI's
  // `components/schemas`, any vendor container): its target is a schema all the same, rewritten the
  // same way (in a copy of the containers on its path), and so are the targets of its own `$ref`s.
  if (isObject(schema))
    for (let i = 0; i < refs.length; i++)
      adoptRefTarget(schema, refs[i], written, (target, pointer) => walk(target, pointer, 1));
  for (const { ref, pointer } of validatorRefs) {
    if (!resolves(schema, ref, anchors))
      throw new ConstraintError('unresolved-ref', `$ref '${ref}' points to nothing in this schema`, {
        pointer,
        keyword: '$ref',
      });
  }
  return { schema, draft: declared ?? spellings ?? '2020-12' };
}

/**
 * A `$id` (or draft-04 `id`) as 2020-12 wants it: a fragment that is a plain name becomes
 * `$anchor`; the rest stays the base URI, at the root only (the compiler resolves references
 * against the root, so nested base URIs would make the two disagree); an empty fragment is dropped.
 */
function splitId(out: SchemaObject, id: string | undefined, isRoot: boolean): void {
  delete out.$id;
  if (id === undefined) return;
  const hash = id.indexOf('#');
  const base = hash < 0 ? id : id.slice(0, hash);
  const fragment = hash < 0 ? '' : id.slice(hash + 1);
  if (isRoot && base !== '') out.$id = base;
  if (fragment !== '' && ANCHOR_NAME.test(fragment) && !hasOwn(out, '$anchor')) out.$anchor = fragment;
}

/**
 * A `$ref` whose JSON pointer runs through what normalizeSchema moves (array `items` to
 * `prefixItems`, `additionalItems` to `items`, `dependencies` to `dependentRequired` or
 * `dependentSchemas`), rewritten to point at the same subschema in the rewritten schema, so
 * `#/items/0/$defs/x` (ESLint's wrapping of a rule's option list) still resolves. The pointer is read
 * against the input, segment by segment, knowing where it is: a schema, a map of schemas (property
 * names are never taken for keywords), a list of schemas, or something else (left as it is).
 */
function movedRef(root: unknown, ref: string): string {
  const hash = ref.indexOf('#');
  if (hash < 0 || ref[hash + 1] !== '/') return ref;
  const segments = ref.slice(hash + 2).split('/');
  const decode = (segment: string): string | undefined => {
    try {
      return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
  };
  let node: unknown = root;
  type Place = 'schema' | 'map' | 'list' | 'dependencies' | 'other';
  let at = 'schema' as Place;
  let changed = false;
  const out: string[] = [];
  for (const segment of segments) {
    const key = decode(segment);
    if (key === undefined) return ref;
    let spelled = segment;
    let next: Place = 'other';
    if (at === 'schema' && isObject(node)) {
      if (key === 'items' && Array.isArray(node.items)) [spelled, next] = ['prefixItems', 'list'];
      else if (key === 'additionalItems' && Array.isArray(node.items)) [spelled, next] = ['items', 'schema'];
      else if (key === 'dependencies') next = 'dependencies';
      else if (SCHEMA_MAPS.includes(key)) next = 'map';
      else if (SCHEMA_LISTS.includes(key) || key === 'items') next = Array.isArray(node[key]) ? 'list' : 'schema';
      else if (SCHEMA_VALUES.includes(key)) next = 'schema';
    } else if (at === 'dependencies' && isObject(node)) {
      const dependency = hasOwn(node, key) ? node[key] : undefined;
      out[out.length - 1] = Array.isArray(dependency) ? 'dependentRequired' : 'dependentSchemas';
      changed = true;
      next = Array.isArray(dependency) ? 'other' : 'schema';
    } else if (at === 'map' || at === 'list') next = 'schema';
    if (spelled !== segment) changed = true;
    out.push(spelled);
    node = (isObject(node) || Array.isArray(node)) && hasOwn(node, key) ? (node as SchemaObject)[key] : undefined;
    at = next;
  }
  return changed ? `${ref.slice(0, hash)}#/${out.join('/')}` : ref;
}

/**
 * Rewrites in place the target of a local `$ref` that the walk did not write (it lies under an
 * unknown keyword of `root`, normalizeSchema's output). Containers on the path that the walk did not
 * write are copied first, so the input is never changed. Targets the walk wrote, dangling pointers
 * and other references are left alone.
 */
function adoptRefTarget(
  root: SchemaObject,
  ref: string,
  written: WeakSet<object>,
  walkTarget: (target: unknown, pointer: string) => unknown,
): void {
  if (!ref.startsWith('#/')) return;
  const segments: string[] = [];
  for (const segment of ref.slice(2).split('/')) {
    try {
      segments.push(decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
    } catch {
      return;
    }
  }
  let node: object = root;
  for (let i = 0; i < segments.length; i++) {
    const key = segments[i];
    if (!hasOwn(node, key)) return;
    const child = (node as SchemaObject)[key];
    if (typeof child !== 'object' || child === null) return;
    if (i === segments.length - 1) {
      if (!written.has(child) && isObject(child)) setOwn(node as SchemaObject, key, walkTarget(child, ref.slice(1)));
      return;
    }
    if (written.has(child)) {
      node = child;
      continue;
    }
    // A container the walk did not write: a copy takes its place before anything under it changes.
    const copy: object = Array.isArray(child)
      ? [...(child as unknown[])]
      : Object.defineProperties({}, Object.getOwnPropertyDescriptors(child));
    written.add(copy);
    setOwn(node as SchemaObject, key, copy);
    node = copy;
  }
}

/** Keywords whose value is a subschema that only the validator reads. */
const VALIDATED_SUBSCHEMAS = [
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
];

/**
 * The shapes the validator (ajv) needs of the keywords the grammar leaves to it (the compiler checks
 * those it compiles): a schema it cannot compile would fail every output, so a malformed one is
 * `invalid-input` here, naming keyword and pointer, like `minLength: "5"`.
 */
function checkValidatedShapes(out: SchemaObject, pointer: string): void {
  const refuse = (keyword: string, what: string, at = pointerChild(pointer, keyword)): never => {
    throw new ConstraintError('invalid-input', `${keyword} must be ${what}`, { pointer: at, keyword });
  };
  const isSchema = (value: unknown) => typeof value === 'boolean' || isObject(value);
  for (const keyword of VALIDATED_SUBSCHEMAS)
    if (hasOwn(out, keyword) && !isSchema(out[keyword])) refuse(keyword, 'a schema (an object or a boolean)');
  if (hasOwn(out, 'multipleOf') && !(typeof out.multipleOf === 'number' && out.multipleOf > 0))
    refuse('multipleOf', 'a number above 0');
  for (const keyword of ['minContains', 'maxContains']) {
    const value = out[keyword];
    if (hasOwn(out, keyword) && !(typeof value === 'number' && Number.isInteger(value) && value >= 0))
      refuse(keyword, 'a non-negative integer');
  }
  if (hasOwn(out, 'uniqueItems') && typeof out.uniqueItems !== 'boolean') refuse('uniqueItems', 'a boolean');
  if (hasOwn(out, 'format') && typeof out.format !== 'string') refuse('format', 'a string');
  if (hasOwn(out, '$anchor') && !(typeof out.$anchor === 'string' && ANCHOR_NAME.test(out.$anchor)))
    refuse('$anchor', 'a plain name (a letter or _, then letters, digits, -, _ and .)');
  if (hasOwn(out, 'dependentRequired')) {
    const map = out.dependentRequired;
    if (!isObject(map)) refuse('dependentRequired', 'an object');
    for (const [name, list] of Object.entries(map as SchemaObject)) {
      if (!Array.isArray(list) || list.some((item) => typeof item !== 'string')) {
        refuse(
          'dependentRequired',
          'an object of arrays of property names',
          pointerChild(pointerChild(pointer, 'dependentRequired'), name),
        );
      }
    }
  }
  for (const keyword of ['dependentSchemas', 'patternProperties']) {
    if (!hasOwn(out, keyword)) continue;
    const map = out[keyword];
    if (!isObject(map)) refuse(keyword, 'an object');
    for (const [name, sub] of Object.entries(map as SchemaObject)) {
      const at = pointerChild(pointerChild(pointer, keyword), name);
      if (!isSchema(sub)) refuse(keyword, 'an object of schemas', at);
      if (keyword === 'patternProperties' && !validPattern(name)) {
        throw new ConstraintError('invalid-regex', `patternProperties: '${name}' is not a valid regex`, {
          pointer: at,
          keyword,
        });
      }
    }
  }
}

/** Valid as the validator reads a pattern: with `u` when the pattern allows it, else without (validator.ts). */
function validPattern(pattern: string): boolean {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags);
      return true;
    } catch {
      // tried next without u
    }
  }
  return false;
}

/** draft-03's `required: true` on a property schema: the property is required by the object instead. */
function hoistRequired(out: SchemaObject, properties: SchemaObject): void {
  for (const [name, sub] of Object.entries(properties)) {
    if (!isObject(sub) || typeof sub.required !== 'boolean') continue;
    if (sub.required) out.required = [...(Array.isArray(out.required) ? out.required : []), name];
    delete sub.required;
  }
}

const TYPE_NAMES = ['null', 'boolean', 'object', 'array', 'string', 'number', 'integer'];

/**
 * In a subschema only the validator reads, the shapes ajv needs of the keywords the compiler checks
 * elsewhere (`minLength: "5"`, `type: "any"`, `enum: "a"`, a pattern that is no regex, ...), and
 * `$dynamicRef`/`$recursiveRef`, refused everywhere.
 */
function checkCompiledShapes(out: SchemaObject, pointer: string): void {
  const refuse = (keyword: string, what: string, at = pointerChild(pointer, keyword)): never => {
    throw new ConstraintError('invalid-input', `${keyword} must be ${what}`, { pointer: at, keyword });
  };
  const isSchema = (value: unknown) => typeof value === 'boolean' || isObject(value);
  for (const keyword of ['$dynamicRef', '$recursiveRef']) {
    if (hasOwn(out, keyword))
      throw new ConstraintError('unsupported-keyword', `${keyword} is not supported; use $ref`, {
        pointer: pointerChild(pointer, keyword),
        keyword,
      });
  }
  if (hasOwn(out, 'type')) {
    const types = Array.isArray(out.type) ? out.type : [out.type];
    if (types.length === 0 || types.some((type) => typeof type !== 'string' || !TYPE_NAMES.includes(type)))
      refuse('type', `one of ${TYPE_NAMES.join(', ')}, or a list of them`);
  }
  if (hasOwn(out, 'enum') && !Array.isArray(out.enum)) refuse('enum', 'an array');
  for (const keyword of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    if (hasOwn(out, keyword) && !(typeof out[keyword] === 'number' && Number.isFinite(out[keyword])))
      refuse(keyword, 'a number');
  }
  for (const keyword of ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties']) {
    const value = out[keyword];
    if (hasOwn(out, keyword) && !(typeof value === 'number' && Number.isInteger(value) && value >= 0))
      refuse(keyword, 'a non-negative integer');
  }
  if (hasOwn(out, 'pattern')) {
    if (typeof out.pattern !== 'string') refuse('pattern', 'a string');
    if (!validPattern(out.pattern as string)) {
      throw new ConstraintError('invalid-regex', `pattern '${String(out.pattern)}' is not a valid regex`, {
        pointer: pointerChild(pointer, 'pattern'),
        keyword: 'pattern',
      });
    }
  }
  if (
    hasOwn(out, 'required') &&
    !(Array.isArray(out.required) && out.required.every((name) => typeof name === 'string'))
  )
    refuse('required', 'an array of strings');
  if (hasOwn(out, '$ref') && typeof out.$ref !== 'string') refuse('$ref', 'a string');
  for (const keyword of ['items', 'additionalProperties'])
    if (hasOwn(out, keyword) && !isSchema(out[keyword])) refuse(keyword, 'a schema (an object or a boolean)');
  for (const keyword of ['properties', '$defs', 'definitions']) {
    if (!hasOwn(out, keyword)) continue;
    if (!isObject(out[keyword])) refuse(keyword, 'an object');
    for (const [name, sub] of Object.entries(out[keyword] as SchemaObject))
      if (!isSchema(sub)) refuse(keyword, 'an object of schemas', pointerChild(pointerChild(pointer, keyword), name));
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    if (!hasOwn(out, keyword)) continue;
    const list = out[keyword];
    if (!Array.isArray(list) || (list.length === 0 && keyword !== 'prefixItems') || !list.every(isSchema))
      refuse(keyword, 'a non-empty array of schemas');
  }
}

/** Whether a `$ref` in the rewritten schema resolves within it, as the compiler reads references. */
function resolves(root: unknown, ref: string, anchors: ReadonlySet<string>): boolean {
  let fragment = ref;
  const rootId = isObject(root) && typeof root.$id === 'string' ? root.$id.replace(/#$/, '') : undefined;
  if (rootId && fragment.startsWith(rootId)) fragment = fragment.slice(rootId.length);
  if (!fragment.startsWith('#')) return false;
  let body: string;
  try {
    body = decodeURIComponent(fragment.slice(1));
  } catch {
    return false;
  }
  if (body === '') return true;
  if (!body.startsWith('/')) return anchors.has(body);
  let target: unknown = root;
  for (const token of body
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if ((isObject(target) || Array.isArray(target)) && hasOwn(target, token)) target = (target as SchemaObject)[token];
    else return false;
  }
  return typeof target === 'boolean' || isObject(target);
}
