// Parse: schema objects (the 2020-12 rewrite of drafts.ts) into the typed schema of schema-types.ts,
// each object once. The keywords of one object become a Node; `$ref`, `allOf`, `anyOf` and `oneOf`
// beside them become the parts of a lazy intersection, in the order the grammar lists properties:
// the `$ref`'s target, the `allOf` parts, the object's own keywords, then each union's branch.
//
// Before that, a pre-walk over everything the grammar may look at gives every keyword its policy
// (schema-policy.ts): validated ones are listed as approximations, refused ones are errors, and the
// shapes the compiler relies on are checked, with the JSON pointer of what is wrong.

import { ConstraintError, pointerChild } from './errors.js';
import { NUMBER_FORMATS } from './formats.js';
import type { TypeName } from './schema-policy.js';
import { TYPE_NAMES, hasConstraints, isConstraining, policyOf, validatedNote } from './schema-policy.js';
import type { RefResolver } from './schema-refs.js';
import type { AndSchema, Bound, Located, Node, PatternProperty, Schema } from './schema-types.js';
import { ANY, EMPTY_ARRAY, EMPTY_NUMBER, EMPTY_OBJECT, EMPTY_STRING, unsatisfiable } from './schema-types.js';
import type { WorkBudget } from './work.js';

export type SchemaObject = { [keyword: string]: unknown };

export const isObject = (value: unknown): value is SchemaObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

export function invalid(message: string, pointer: string, keyword?: string): never {
  throw new ConstraintError('invalid-input', message, { pointer, keyword });
}

export interface Approximation {
  pointer: string;
  keyword: string;
  note: string;
}

/** The keywords the grammar does not enforce exactly, each listed once with its pointer. */
export class Approximations {
  readonly list: Approximation[] = [];
  private readonly keys = new Set<string>();

  add(pointer: string, keyword: string, note: string): void {
    const key = `${pointer}\u0000${keyword}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.list.push({ pointer, keyword, note });
  }
}

/** The compact JSON text of an enum/const value; invalid-input for what JSON has no text for (a BigInt, a function). */
export function jsonText(value: unknown, pointer: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    invalid(`enum/const values must be JSON values (${(error as Error).message})`, pointer, 'enum');
  }
  if (text === undefined) invalid('enum/const values must be JSON values', pointer, 'enum');
  return text;
}

/** Rewrites draft-07 (and draft-04) spellings into 2020-12 ones, shallowly (drafts.ts did the rest). */
function normalizeDraft(schema: SchemaObject): SchemaObject {
  let out = schema;
  const edit = () => (out === schema ? (out = { ...schema }) : out);
  if (Array.isArray(schema.items)) {
    edit().prefixItems = schema.items;
    if ('additionalItems' in schema) out.items = schema.additionalItems;
    else delete out.items;
    delete out.additionalItems;
  } else if ('additionalItems' in schema) delete edit().additionalItems;
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[exclusive] !== 'boolean') continue;
    edit();
    if (schema[exclusive] === true && typeof schema[bound] === 'number') {
      out[exclusive] = schema[bound];
      delete out[bound];
    } else delete out[exclusive];
  }
  return out;
}

/** Compile work of one schema object: one, plus its enum values and properties, and one per 16 pattern characters. */
export function objectSize(schema: SchemaObject): number {
  const enumSize = Array.isArray(schema.enum) ? schema.enum.length : 0;
  const patternSize = typeof schema.pattern === 'string' ? Math.ceil(schema.pattern.length / 16) : 0;
  const propertiesSize = isObject(schema.properties) ? Object.keys(schema.properties).length : 0;
  return 1 + enumSize + patternSize + propertiesSize;
}

const APPLICATORS = new Set(['$ref', 'allOf', 'anyOf', 'oneOf']);

export class SchemaParser {
  private readonly parsed = new Map<object, Schema>();
  private readonly checked = new Set<object>();
  private readonly ands = new Map<string, AndSchema>();
  private nextId = 1;

  constructor(
    private readonly refs: RefResolver,
    private readonly work: WorkBudget,
    readonly approximations: Approximations,
    private readonly maxDepth: number,
  ) {}

  newId(): number {
    return this.nextId++;
  }

  /**
   * The intersection of parts, one object per list of parts (so a recursion through it is met again
   * as itself); a part that matches nothing is the answer, and parts that match anything drop out.
   */
  and(input: readonly Schema[], pointer: string): Schema {
    const unsat = input.find((p) => p.kind === 'unsatisfiable');
    if (unsat) return unsat;
    const parts = input.filter((p) => p.kind !== 'any');
    if (parts.length === 0) return ANY;
    if (parts.length === 1) return parts[0];
    const key = parts.map((p) => (p as { id: number }).id).join(',');
    let and = this.ands.get(key);
    if (!and) {
      and = { kind: 'and', id: this.newId(), parts, pointer };
      this.ands.set(key, and);
    }
    return and;
  }

  /** The schema a `$ref` names, pre-walked like the rest (a reference may point anywhere, also under `not`). */
  target(reference: string, pointer: string): { schema: Schema; pointer: string } {
    const target = this.refs.resolve(reference, pointer);
    if (isObject(target.schema) && !this.checked.has(target.schema)) this.check(target.schema, target.pointer, 0);
    return { schema: this.parse(target.schema, target.pointer), pointer: target.pointer };
  }

  // -- pre-walk --------------------------------------------------------------------------------

  /** Every keyword the grammar may look at gets its policy, or an error; the input's size is counted. */
  check(schema: unknown, pointer: string, depth: number): void {
    if (depth > this.maxDepth)
      throw new ConstraintError('too-deep', `schema nesting exceeds the limit of ${this.maxDepth}`, { pointer });
    if (typeof schema === 'boolean') return;
    if (!isObject(schema)) invalid('a schema must be an object or a boolean', pointer);
    if (this.checked.has(schema)) return;
    this.checked.add(schema);
    this.work.grow(objectSize(schema));
    for (const keyword of Object.keys(schema)) {
      const note = validatedNote(keyword);
      if (note !== undefined) this.approximations.add(pointer, keyword, note);
      else if (policyOf(keyword)?.status === 'refused') {
        throw new ConstraintError('unsupported-keyword', `${keyword} is not supported; use $ref`, {
          pointer: pointerChild(pointer, keyword),
          keyword,
        });
      }
    }
    const child = (value: unknown, path: string) => this.check(value, path, depth + 1);
    for (const keyword of ['properties', '$defs', 'definitions']) {
      const map = schema[keyword];
      if (map === undefined) continue;
      if (!isObject(map)) invalid(`${keyword} must be an object`, pointerChild(pointer, keyword), keyword);
      for (const [name, sub] of Object.entries(map)) child(sub, pointerChild(pointerChild(pointer, keyword), name));
    }
    for (const keyword of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
      const list = schema[keyword];
      if (list === undefined) continue;
      if (!Array.isArray(list) || (list.length === 0 && keyword !== 'prefixItems')) {
        invalid(`${keyword} must be a non-empty array`, pointerChild(pointer, keyword), keyword);
      }
      list.forEach((sub, i) => child(sub, pointerChild(pointerChild(pointer, keyword), i)));
    }
    if (Array.isArray(schema.items))
      schema.items.forEach((sub, i) => child(sub, pointerChild(pointerChild(pointer, 'items'), i)));
    else if (schema.items !== undefined) child(schema.items, pointerChild(pointer, 'items'));
    for (const keyword of ['additionalProperties', 'additionalItems']) {
      if (schema[keyword] !== undefined) child(schema[keyword], pointerChild(pointer, keyword));
    }
    if (
      schema.required !== undefined &&
      (!Array.isArray(schema.required) || schema.required.some((r) => typeof r !== 'string'))
    ) {
      invalid('required must be an array of strings', pointerChild(pointer, 'required'), 'required');
    }
    if (schema.enum !== undefined && !Array.isArray(schema.enum))
      invalid('enum must be an array', pointerChild(pointer, 'enum'), 'enum');
    if (schema.pattern !== undefined && typeof schema.pattern !== 'string')
      invalid('pattern must be a string', pointerChild(pointer, 'pattern'), 'pattern');
    if (schema.$ref !== undefined && typeof schema.$ref !== 'string')
      invalid('$ref must be a string', pointerChild(pointer, '$ref'), '$ref');
  }

  // -- parse -----------------------------------------------------------------------------------

  /** The typed schema of a schema object or boolean, once per object. */
  parse(raw: unknown, pointer: string, depth = 0): Schema {
    if (raw === true) return ANY;
    if (raw === false) return unsatisfiable('schema `false` matches nothing', pointer);
    if (!isObject(raw)) invalid('a schema must be an object or a boolean', pointer);
    const known = this.parsed.get(raw);
    if (known) return known;
    if (depth > this.maxDepth)
      throw new ConstraintError('too-deep', `schema nesting exceeds the limit of ${this.maxDepth}`, { pointer });
    this.work.spend(objectSize(raw), pointer);
    const schema = normalizeDraft(raw);
    const result = hasConstraints(schema) ? this.parseObject(schema, pointer, depth) : ANY;
    this.parsed.set(raw, result);
    return result;
  }

  private parseObject(schema: SchemaObject, pointer: string, depth: number): Schema {
    const parts: Schema[] = [];
    const at = (keyword: string, i: number) => pointerChild(pointerChild(pointer, keyword), i);
    if (typeof schema.$ref === 'string') parts.push({ kind: 'ref', id: this.newId(), ref: schema.$ref, pointer });
    if (Array.isArray(schema.allOf)) {
      schema.allOf.forEach((part, i) => {
        const parsed = this.parse(part, at('allOf', i), depth + 1);
        if (parsed.kind !== 'any') parts.push(parsed);
      });
    }
    if (Object.keys(schema).some((k) => isConstraining(k) && !APPLICATORS.has(k)))
      parts.push(this.node(schema, pointer, depth));
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const list = schema[keyword];
      if (!Array.isArray(list)) continue;
      const options = list.map((option, i) => this.parse(option, at(keyword, i), depth + 1));
      parts.push({ kind: 'union', id: this.newId(), keyword, options, pointer });
    }
    if (parts.length === 0) return ANY;
    return parts.length === 1 ? parts[0] : { kind: 'and', id: this.newId(), parts, pointer };
  }

  /** The keywords of one object other than $ref and the combinators. */
  private node(schema: SchemaObject, pointer: string, depth: number): Node {
    const child = (value: unknown, path: string) => this.parse(value, path, depth + 1);
    const mentions = new Set<TypeName>();
    for (const keyword of Object.keys(schema)) for (const type of policyOf(keyword)?.types ?? []) mentions.add(type);
    if (typeof schema.format === 'string') mentions.add(NUMBER_FORMATS.has(schema.format) ? 'number' : 'string');
    const invalidParts: Record<string, ConstraintError> = {};
    const deferred = (part: string, read: () => void) => {
      try {
        read();
      } catch (error) {
        if (!(error instanceof ConstraintError)) throw error;
        invalidParts[part] = error;
      }
    };

    let types: TypeName[] | undefined;
    if (schema.type !== undefined) {
      const list = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (list.length === 0) invalid('type must not be empty', pointerChild(pointer, 'type'), 'type');
      for (const type of list) {
        if (!(TYPE_NAMES as readonly unknown[]).includes(type))
          invalid(`unknown type '${String(type)}'`, pointerChild(pointer, 'type'), 'type');
      }
      types = [...new Set(list as TypeName[])];
    }

    let values: string[] | undefined;
    if (schema.const !== undefined || schema.enum !== undefined) {
      const constText = schema.const !== undefined ? jsonText(schema.const, pointer) : undefined;
      const enumTexts = Array.isArray(schema.enum) ? schema.enum.map((v) => jsonText(v, pointer)) : undefined;
      const list =
        constText !== undefined
          ? enumTexts === undefined || enumTexts.includes(constText)
            ? [constText]
            : []
          : enumTexts!;
      values = [...new Set(list)];
    }

    let number = EMPTY_NUMBER;
    deferred('number', () => {
      const bound = (keyword: string): number | undefined => {
        const value = schema[keyword];
        if (value === undefined) return undefined;
        if (typeof value !== 'number' || !Number.isFinite(value))
          invalid(`${keyword} must be a number`, pointerChild(pointer, keyword), keyword);
        return value;
      };
      const tighter = (a: Bound | undefined, b: Bound | undefined, lower: boolean) =>
        !a ? b : !b ? a : a.value === b.value ? (a.exclusive ? a : b) : a.value > b.value === lower ? a : b;
      const make = (keyword: string, exclusive: boolean): Bound | undefined => {
        const value = bound(keyword);
        return value === undefined ? undefined : { value, exclusive, pointer };
      };
      const min = tighter(make('minimum', false), make('exclusiveMinimum', true), true);
      const max = tighter(make('maximum', false), make('exclusiveMaximum', true), false);
      const multipleOf = typeof schema.multipleOf === 'number' ? [{ value: schema.multipleOf, pointer }] : [];
      const formats = typeof schema.format === 'string' ? [{ value: schema.format, pointer }] : [];
      number = { min, max, multipleOf, formats };
    });

    let string = EMPTY_STRING;
    deferred('string', () => {
      const minLength = nonNegativeInteger(schema, 'minLength', pointer);
      const maxLength = nonNegativeInteger(schema, 'maxLength', pointer);
      const patterns: Located<string>[] =
        typeof schema.pattern === 'string' ? [{ value: schema.pattern, pointer }] : [];
      const formats: Located<string>[] = typeof schema.format === 'string' ? [{ value: schema.format, pointer }] : [];
      string = { minLength, maxLength, patterns, formats };
    });

    let array = EMPTY_ARRAY;
    deferred('array', () => {
      const minItems = nonNegativeInteger(schema, 'minItems', pointer);
      const maxItems = nonNegativeInteger(schema, 'maxItems', pointer);
      const prefix = Array.isArray(schema.prefixItems)
        ? schema.prefixItems.map((p, i) => child(p, pointerChild(pointerChild(pointer, 'prefixItems'), i)))
        : undefined;
      const items = schema.items !== undefined ? child(schema.items, pointerChild(pointer, 'items')) : undefined;
      array = { prefix, items, minItems, maxItems };
    });

    let object = EMPTY_OBJECT;
    deferred('object', () => {
      const minProperties = nonNegativeInteger(schema, 'minProperties', pointer);
      const maxProperties = nonNegativeInteger(schema, 'maxProperties', pointer);
      const properties = new Map<string, Schema>();
      if (isObject(schema.properties)) {
        for (const [name, sub] of Object.entries(schema.properties))
          properties.set(name, child(sub, pointerChild(pointerChild(pointer, 'properties'), name)));
      }
      const patterns: PatternProperty[] = [];
      if (isObject(schema.patternProperties)) {
        for (const [pattern, sub] of Object.entries(schema.patternProperties)) {
          const at = pointerChild(pointerChild(pointer, 'patternProperties'), pattern);
          patterns.push({ patterns: [pattern], schema: child(sub, at), pointer: at });
        }
      }
      const required = Array.isArray(schema.required) ? [...new Set(schema.required as string[])] : [];
      const additional =
        schema.additionalProperties !== undefined
          ? child(schema.additionalProperties, pointerChild(pointer, 'additionalProperties'))
          : undefined;
      object = { properties, required, patterns, additional, minProperties, maxProperties };
    });

    const invalidEntries = Object.keys(invalidParts).length ? (invalidParts as Node['invalid']) : undefined;
    return {
      kind: 'node',
      id: this.newId(),
      pointer,
      types,
      mentions,
      values,
      number,
      string,
      array,
      object,
      invalid: invalidEntries,
    };
  }
}

function nonNegativeInteger(schema: SchemaObject, keyword: string, pointer: string): number | undefined {
  const value = schema[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    invalid(`${keyword} must be a non-negative integer`, pointerChild(pointer, keyword), keyword);
  }
  return value;
}
