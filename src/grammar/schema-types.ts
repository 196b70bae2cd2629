// The typed schema the compiler works on: what parse (schema-parse.ts) reads out of a schema
// object, what intersection (schema-intersect.ts) combines, and what emission (schema-emit.ts)
// turns into grammar rules. "Unsatisfiable" is a value with its reason, not an exception: a part
// that matches nothing is dropped where it is optional and an error only where the value must exist.
//
// Subschemas stay lazy: a property's schema is a Schema, intersected only when it is emitted, so a
// recursive schema is never unfolded further than the grammar needs.

import type { ConstraintError } from './errors.js';
import type { TypeName } from './schema-policy.js';

export interface Unsatisfiable {
  readonly kind: 'unsatisfiable';
  readonly reason: string;
  readonly pointer: string;
  readonly keyword?: string;
}

/** `true`, `{}`, or a schema of annotations only: any JSON value. */
export interface AnySchema {
  readonly kind: 'any';
}

/** A `$ref` with nothing beside it: one rule per target, so recursion stays linear. */
export interface RefSchema {
  readonly kind: 'ref';
  readonly id: number;
  readonly ref: string;
  /** Where the `$ref` is written. */
  readonly pointer: string;
}

/** `anyOf`/`oneOf`: any option (oneOf's "exactly one" is the validator's). */
export interface UnionSchema {
  readonly kind: 'union';
  readonly id: number;
  readonly keyword: 'anyOf' | 'oneOf';
  readonly options: readonly Schema[];
  readonly pointer: string;
}

/** A lazy intersection (allOf, a `$ref` or a union beside other keywords, two parts' property). */
export interface AndSchema {
  readonly kind: 'and';
  readonly id: number;
  readonly parts: readonly Schema[];
  readonly pointer: string;
}

/** A bound and where it was written (an error or an approximation names it). */
export interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
  readonly pointer: string;
}

/** A keyword's value and where it was written. */
export interface Located<T> {
  readonly value: T;
  readonly pointer: string;
}

export interface NumberPart {
  readonly min?: Bound;
  readonly max?: Bound;
  readonly multipleOf: readonly Located<number>[];
  readonly formats: readonly Located<string>[];
}

export interface StringPart {
  readonly minLength?: number;
  readonly maxLength?: number;
  /** Every pattern must match (searched, as JSON Schema reads patterns). */
  readonly patterns: readonly Located<string>[];
  /** Every format must hold. */
  readonly formats: readonly Located<string>[];
}

export interface ArrayPart {
  readonly prefix?: readonly Schema[];
  /** Items beyond the prefix; undefined when no part says (a tuple for the model, anything for the specification). */
  readonly items?: Schema;
  readonly minItems?: number;
  readonly maxItems?: number;
}

/** Keys that match every one of `patterns` take `schema`. */
export interface PatternProperty {
  readonly patterns: readonly string[];
  readonly schema: Schema;
  /** The pointer of the pattern's schema (a single pattern), else of the object. */
  readonly pointer: string;
}

export interface ObjectPart {
  /** Declared properties, in order. */
  readonly properties: ReadonlyMap<string, Schema>;
  readonly required: readonly string[];
  readonly patterns: readonly PatternProperty[];
  /** undefined when no part says (closed beside declared members for the model, open for the specification). */
  readonly additional?: Schema;
  readonly minProperties?: number;
  readonly maxProperties?: number;
}

/** The keywords of one schema object (or of several, intersected) that constrain a value. */
export interface Node {
  readonly kind: 'node';
  readonly id: number;
  readonly pointer: string;
  /** Declared types; undefined when no part declares any. */
  readonly types?: readonly TypeName[];
  /** The types the keywords talk about (what a schema without `type` generates). */
  readonly mentions: ReadonlySet<TypeName>;
  /** enum/const values as compact JSON texts, in order; undefined without either. */
  readonly values?: readonly string[];
  readonly number: NumberPart;
  readonly string: StringPart;
  readonly array: ArrayPart;
  readonly object: ObjectPart;
  /** A malformed keyword of a type, reported when that type is emitted (the grammar looked at it). */
  readonly invalid?: Partial<Record<'number' | 'string' | 'array' | 'object', ConstraintError>>;
}

export type Schema = AnySchema | Unsatisfiable | RefSchema | UnionSchema | AndSchema | Node;

export const ANY: AnySchema = { kind: 'any' };

export const unsatisfiable = (reason: string, pointer: string, keyword?: string): Unsatisfiable => ({
  kind: 'unsatisfiable',
  reason,
  pointer,
  keyword,
});

export const isUnsatisfiable = (value: unknown): value is Unsatisfiable =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'unsatisfiable';

export const EMPTY_NUMBER: NumberPart = { multipleOf: [], formats: [] };
export const EMPTY_STRING: StringPart = { patterns: [], formats: [] };
export const EMPTY_ARRAY: ArrayPart = {};
export const EMPTY_OBJECT: ObjectPart = { properties: new Map(), required: [], patterns: [] };
