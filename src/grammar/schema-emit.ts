// Emit: a typed schema (schema-types.ts) as grammar rules, one rule per construct in the spirit of
// llama.cpp's json-schema-to-grammar. `$ref` targets get one rule each (recursion stays linear);
// intersections are forced (schema-intersect.ts) when reached and, met again inside themselves,
// become rules too; union branches and optional parts that match nothing drop out; enum values are
// kept where the rest of the schema, read as the specification reads it, accepts them.
//
// Two readings share this code: the model's (objects closed beside declared members, tuples closed,
// types narrowed to what the keywords talk about) for the grammar, and the specification's (open
// objects and tuples, any type) for judging enum values (issue #48).

import { ConstraintError } from './errors.js';
import type { Expr, Grammar } from '../automaton/expr.js';
import { EMPTY, altOf, literal, optional, ref, repeat, seq } from '../automaton/expr.js';
import type { DfaBudget } from './dfa.js';
import type { GrammarBuilder } from './grammar-builder.js';
import type { JsonRules } from './json-primitives.js';
import { recognizeWithin } from './gbnf-run.js';
import { factorAlternatives } from './factor.js';
import { PatternMatcher } from './pattern-keys.js';
import type { IntersectContext } from './schema-intersect.js';
import { force } from './schema-intersect.js';
import { NESTING_PER_RULE, listExpr, objectExpr } from './schema-objects.js';
import type { ObjectContext } from './schema-objects.js';
import type { Approximations, SchemaParser } from './schema-parse.js';
import type { TypeName } from './schema-policy.js';
import { TYPE_NAMES } from './schema-policy.js';
import type { ScalarContext } from './schema-scalars.js';
import { integerExpr, numberExpr, stringExpr } from './schema-scalars.js';
import type { AndSchema, Node, RefSchema, Schema, UnionSchema, Unsatisfiable } from './schema-types.js';
import { isUnsatisfiable, unsatisfiable } from './schema-types.js';
import type { WorkBudget } from './work.js';
import { pointerChild } from './errors.js';

/**
 * Matching steps (well under 1 µs each) for checking enum values against the rest of their schema:
 * nested repetitions cost a power of the value's length, so values past this are left to the
 * validator rather than hang the compiler.
 */
const MAX_ENUM_RECOGNITION_STEPS = 2_000_000;

/** States an automaton for one intersection (of patterns, of a range and multipleOf) may have. */
const MAX_DFA_STATES = 2_000;

export interface EmitOptions {
  readonly maxDepth: number;
  readonly maxBranches: number;
  /** Objects without additionalProperties allow extra members (the option), or not (the default). */
  readonly openObjects: boolean;
  readonly strict: boolean;
}

export type Emitted = Expr | Unsatisfiable;

const isExpr = (value: Emitted): value is Expr => !isUnsatisfiable(value);

const STRUCTURAL = new Set(['properties', '$defs', 'definitions', 'allOf', 'anyOf', 'oneOf', 'prefixItems']);

/**
 * A rule name's stem: the pointer's last two tokens that are no structural keyword, read from the
 * end (it is asked at every emission, and pointers of nested unions run long).
 */
export function hintFromPointer(pointer: string): string {
  const tokens: string[] = [];
  let end = pointer.length;
  while (end > 0 && tokens.length < 2) {
    const start = pointer.lastIndexOf('/', end - 1);
    const token = pointer
      .slice(start + 1, end)
      .replace(/~1/g, '/')
      .replace(/~0/g, '~');
    if (!STRUCTURAL.has(token)) tokens.unshift(token);
    end = start;
  }
  return tokens.join('-') || 'schema';
}

/** recognizeWithin, or null also when the recognizer's recursion (along a long $ref chain) runs out of stack. */
function recognizeBounded(grammar: Grammar, text: string, budget: { steps: number }): boolean | null {
  try {
    return recognizeWithin(grammar, text, budget);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

export class Emitter implements ScalarContext, ObjectContext {
  /** Rules per referenced location and reading, or what the location came to (it matches nothing, or failed). */
  private readonly refRules = new Map<string, string | Unsatisfiable | ConstraintError>();
  /** Intersections being emitted, per reading: met again inside themselves, they become a rule. */
  private readonly merging = new Map<string, { name?: string; failure?: Unsatisfiable | ConstraintError }>();
  private readonly patternMatcher = new PatternMatcher();
  readonly patternContents = new Map<string, Expr>();
  readonly extraKeys = new Map<string, Expr>();
  private readonly recognition = { steps: MAX_ENUM_RECOGNITION_STEPS };
  /** The specification's reading (judging enum values) rather than the model's. */
  private specMode = false;
  private readonly intersect: IntersectContext;

  constructor(
    readonly builder: GrammarBuilder,
    readonly json: JsonRules,
    private readonly parser: SchemaParser,
    private readonly work: WorkBudget,
    private readonly approximations: Approximations,
    private readonly options: EmitOptions,
  ) {
    this.intersect = {
      parser,
      work,
      maxBranches: options.maxBranches,
      maxDepth: options.maxDepth,
      patternMatches: (pattern, name, pointer) => this.patternMatch(pattern, name, pointer),
    };
  }

  get strict(): boolean {
    return this.options.strict;
  }

  get closedByDefault(): boolean {
    return !this.specMode && !this.options.openObjects;
  }

  approximate(pointer: string, keyword: string, note: string): void {
    this.approximations.add(pointer, keyword, note);
  }

  spend(units: number, pointer: string): void {
    this.work.spend(units, pointer);
  }

  dfaBudget(pointer: string): DfaBudget {
    return { maxStates: MAX_DFA_STATES, spend: (units) => this.work.spend(units, pointer) };
  }

  and(parts: readonly Schema[], pointer: string): Schema {
    return this.parser.and(parts, pointer);
  }

  /** PatternMatcher.matches, its automaton's work counted in the compile work. */
  patternMatch(pattern: string, name: string, pointer: string): boolean | undefined {
    return this.patternMatcher.matches(pattern, name, pointer, (units) => this.spend(units, pointer));
  }

  /** Work whose rules count toward the grammar's characters only if it is kept (GrammarBuilder.open/close). */
  tentative<T>(work: () => T | undefined): T | undefined {
    const mark = this.builder.open();
    let result: T | undefined;
    try {
      result = work();
      return result;
    } finally {
      this.builder.close(mark, result !== undefined);
    }
  }

  /** A part the value may leave out: compiled, or undefined when it matches nothing, so the rest stays usable. */
  optionalPart(schema: Schema, pointer: string, depth: number): Expr | undefined {
    if (schema.kind === 'unsatisfiable') return undefined;
    return this.tentative(() => {
      const emitted = this.emit(schema, pointer, depth);
      // Leaving it out narrows what the grammar allows (never widens it): nothing for the validator.
      return isExpr(emitted) ? emitted : undefined;
    });
  }

  // -- dispatch --------------------------------------------------------------------------------

  emit(schema: Schema, pointer: string, depth: number): Emitted {
    if (depth > this.options.maxDepth)
      throw new ConstraintError('too-deep', `schema nesting exceeds the limit of ${this.options.maxDepth}`, {
        pointer,
      });
    this.spend(schema.kind === 'node' ? nodeSize(schema) : 1, pointer);
    switch (schema.kind) {
      case 'any':
        return this.json.value();
      case 'unsatisfiable':
        return schema;
      case 'ref':
        return this.refExpr(schema, depth);
      case 'union':
        return this.unionExpr(schema, pointer, depth);
      case 'and':
        return this.mergedExpr(schema, pointer, depth);
      case 'node':
        return this.nodeExpr(schema, pointer, depth);
    }
  }

  /** A rule per referenced location, so recursion and repeated references cost one rule. */
  private refExpr(schema: RefSchema, depth: number): Emitted {
    const target = this.parser.target(schema.ref, schema.pointer);
    // A rule emitted in the specification's reading reads objects open: never the one a model writes through.
    const key = this.specMode ? `spec:${target.pointer}` : target.pointer;
    const known = this.refRules.get(key);
    if (known instanceof ConstraintError) throw known;
    if (typeof known === 'string') return ref(known);
    if (known) return known;
    const name = this.builder.reserve(hintFromPointer(target.pointer));
    this.refRules.set(key, name);
    let emitted: Emitted;
    try {
      emitted = this.emit(target.schema, target.pointer, depth + 1);
    } catch (error) {
      // A second reference to a target that failed got the rule's name though it was never defined.
      if (error instanceof ConstraintError) this.refRules.set(key, error);
      throw error;
    }
    if (!isExpr(emitted)) {
      this.refRules.set(key, emitted);
      return emitted;
    }
    this.builder.define(name, emitted);
    return ref(name);
  }

  /**
   * An intersection, forced when reached. Met again while it is being emitted (a definition that
   * refers to itself through a two-part allOf: `allOf: [{$ref: "#/$defs/n"}, {required: [...]}]`),
   * it becomes a rule the inner use refers to, so recursion stays linear instead of being merged open
   * level after level until too deep. One that does not recur is emitted inline.
   */
  private mergedExpr(schema: AndSchema, pointer: string, depth: number): Emitted {
    const key = `${this.specMode ? 'spec:' : ''}${schema.id}`;
    const entry = this.merging.get(key);
    if (entry) {
      if (entry.failure instanceof ConstraintError) throw entry.failure;
      if (entry.failure) return entry.failure;
      entry.name ??= this.builder.reserve(hintFromPointer(pointer));
      return ref(entry.name);
    }
    const mine: { name?: string; failure?: Unsatisfiable | ConstraintError } = {};
    this.merging.set(key, mine);
    try {
      // A merge counts one level; a union beside siblings counts it per branch instead.
      const forced = force(schema.parts, pointer, depth, this.intersect);
      const emitted = this.emit(forced, pointer, forced.kind === 'union' ? depth : depth + 1);
      if (!isExpr(emitted)) {
        mine.failure = emitted;
        return emitted;
      }
      if (mine.name === undefined) return emitted;
      this.builder.define(mine.name, emitted);
      return ref(mine.name);
    } catch (error) {
      // As refExpr: a reference reserved inside cannot be defined; later uses fail the same way.
      if (error instanceof ConstraintError) mine.failure = error;
      throw error;
    } finally {
      if (mine.failure === undefined) this.merging.delete(key);
    }
  }

  private unionExpr(schema: UnionSchema, pointer: string, depth: number): Emitted {
    const { keyword, options } = schema;
    if (options.length > this.options.maxBranches) {
      throw new ConstraintError(
        'too-large',
        `${keyword} has ${options.length} branches, above the limit of ${this.options.maxBranches}`,
        { pointer, keyword },
      );
    }
    const exprs: Expr[] = [];
    let last: Unsatisfiable | undefined;
    options.forEach((option, i) => {
      const expr = this.tentative(() => {
        // A branch merged with its siblings counts one level, as a branch alone does.
        const emitted = this.emit(
          option,
          pointerChild(pointerChild(pointer, keyword), i),
          option.kind === 'and' ? depth : depth + 1,
        );
        // A branch that cannot match (e.g. contradicts its siblings) just drops out of the union.
        if (isExpr(emitted)) return emitted;
        last = emitted;
        return undefined;
      });
      if (expr) exprs.push(expr);
    });
    if (exprs.length === 0) return last ?? unsatisfiable(`no ${keyword} branch can match`, pointer);
    return factorAlternatives(
      exprs,
      (name) => this.builder.bodyOf(name),
      (body) => this.builder.rule(`${hintFromPointer(pointer)}-branch`, body),
    );
  }

  // -- nodes -----------------------------------------------------------------------------------

  private nodeExpr(node: Node, pointer: string, depth: number): Emitted {
    if (node.values !== undefined) return this.enumExpr(node, pointer, depth);
    const types = this.allowedTypes(node);
    const options: Expr[] = [];
    let first: Unsatisfiable | undefined;
    for (const type of types) {
      if (type === 'integer' && types.includes('number')) continue;
      const emitted =
        types.length === 1
          ? this.typeExpr(type, node, pointer, depth)
          : this.tentative(() => this.typeExprOrUndefined(type, node, pointer, depth, (u) => (first ??= u)));
      if (emitted === undefined) continue;
      if (!isExpr(emitted)) return emitted;
      options.push(emitted);
    }
    if (options.length === 0) return first ?? unsatisfiable('no type can match', pointer, 'type');
    return altOf(options);
  }

  private typeExprOrUndefined(
    type: TypeName,
    node: Node,
    pointer: string,
    depth: number,
    failed: (u: Unsatisfiable) => void,
  ): Expr | undefined {
    const emitted = this.typeExpr(type, node, pointer, depth);
    if (isExpr(emitted)) return emitted;
    failed(emitted);
    return undefined;
  }

  private allowedTypes(node: Node): readonly TypeName[] {
    if (node.types) return node.types;
    // Without `type`, generate only the types the keywords talk about (a subset of what the schema
    // allows, so still sound); with no such keyword, any JSON value. In the specification's reading, any.
    const any = TYPE_NAMES.filter((t) => t !== 'integer');
    if (this.specMode || node.mentions.size === 0) return any;
    return [...node.mentions];
  }

  private typeExpr(type: TypeName, node: Node, pointer: string, depth: number): Emitted {
    const hint = hintFromPointer(pointer);
    const invalid = node.invalid?.[type === 'integer' ? 'number' : (type as 'number' | 'string' | 'array' | 'object')];
    if (invalid && type !== 'null' && type !== 'boolean') throw invalid;
    switch (type) {
      case 'null':
        return literal('null');
      case 'boolean':
        return this.json.boolean();
      // Errors and approximations name where the keywords are written (a lone allOf part's own pointer).
      case 'integer':
        return integerExpr(node.number, node.pointer, hint, this);
      case 'number':
        return numberExpr(node.number, node.pointer, hint, this);
      case 'string':
        return stringExpr(node.string, node.pointer, hint, this);
      case 'array':
        return this.arrayExpr(node, pointer, depth);
      case 'object':
        return objectExpr(node.object, pointer, hint, depth, this);
    }
  }

  /** enum/const: the values the rest of the schema accepts, read as the specification reads it. */
  private enumExpr(node: Node, pointer: string, depth: number): Emitted {
    const texts = node.values!;
    let allowed = texts;
    // Judged only as the types the values have: a value is only ever read by its own type's part
    // (an enum of strings emitted the rest's objects and arrays too, for every union branch).
    const valueTypes = new Set<TypeName>();
    for (const text of texts) valueTypes.add(jsonTypeOfText(text));
    const types = node.types
      ? node.types.filter((t) => valueTypes.has(t) || (t === 'integer' && valueTypes.has('number')))
      : [...valueTypes];
    if (types.length === 0)
      return unsatisfiable('no enum/const value satisfies the rest of the schema', pointer, 'enum');
    const rest: Node = { ...node, values: undefined, types };
    if (!unconstrained({ ...node, values: undefined })) {
      // Judged by a grammar for that rest (its rules are dropped after: they never reach the grammar).
      let restExpr: Emitted | undefined;
      let snapshot: Grammar | undefined;
      let tooLarge = false;
      this.tentative(() => {
        const outer = this.specMode;
        this.specMode = true;
        try {
          restExpr = this.nodeExpr(rest, pointer, depth + 1);
        } catch (error) {
          // Too large to judge by (open objects' extra keys): the values are kept for the validator.
          if (!(error instanceof ConstraintError) || error.code !== 'too-large') throw error;
          tooLarge = true;
        } finally {
          this.specMode = outer;
        }
        snapshot = restExpr && isExpr(restExpr) ? this.builder.snapshot(restExpr) : undefined;
        return undefined;
      });
      const note = 'values too costly to check against the rest of the schema are kept; the validator checks them';
      if (tooLarge) this.approximate(pointer, 'enum', note);
      else if (restExpr && !isExpr(restExpr)) return restExpr;
      else if (snapshot) {
        let unchecked = false;
        const judge = snapshot;
        allowed = texts.filter((text) => {
          const accepted = this.recognition.steps > 0 ? recognizeBounded(judge, text, this.recognition) : null;
          if (accepted === null) unchecked = true;
          return accepted !== false;
        });
        if (unchecked) this.approximate(pointer, 'enum', note);
      } else
        this.approximate(
          pointer,
          'enum',
          'values are not filtered by the recursive rest of the schema; the validator checks them',
        );
    }
    if (allowed.length === 0)
      return unsatisfiable('no enum/const value satisfies the rest of the schema', pointer, 'enum');
    return factorAlternatives(
      allowed.map(literal),
      () => undefined,
      (body) => this.builder.rule(`${hintFromPointer(pointer)}-enum`, body),
    );
  }

  // -- arrays ----------------------------------------------------------------------------------

  private arrayExpr(node: Node, pointer: string, depth: number): Emitted {
    const { array } = node;
    const minItems = array.minItems ?? 0;
    const maxItems = array.maxItems ?? null;
    if (maxItems !== null && minItems > maxItems)
      return unsatisfiable(`minItems ${minItems} exceeds maxItems ${maxItems}`, pointer, 'minItems');
    const hint = hintFromPointer(pointer);
    const prefix = array.prefix ?? [];
    // Positions whose schema matches nothing (`false`, or unsatisfiable) end the array there; an
    // array that must reach them is unsatisfiable below. Items beyond `prefixItems` default to none
    // (a tuple) for the model; a plain array defaults to any values.
    const rest: Schema | false =
      array.items !== undefined ? array.items : prefix.length && !this.specMode ? false : { kind: 'any' };
    let restExpr =
      rest === false || prefix.some((p) => p.kind === 'unsatisfiable')
        ? undefined
        : this.optionalPart(rest, pointerChild(pointer, 'items'), depth + 1);
    const prefixExprs: Expr[] = [];
    for (const [i, p] of prefix.entries()) {
      const expr = this.optionalPart(p, pointerChild(pointerChild(pointer, 'prefixItems'), i), depth + 1);
      if (!expr) break;
      prefixExprs.push(expr);
    }
    if (prefixExprs.length < prefix.length) restExpr = undefined;

    const k = prefixExprs.length;
    const sep = (i: number) => (i > 0 ? literal(',') : EMPTY);
    let tail: Expr | null;
    // Elements from index k on: the `items` schema, as many as the bounds allow.
    if (restExpr) {
      const needed = Math.max(0, minItems - k);
      const room = maxItems === null ? null : maxItems - k;
      if (room !== null && room < 0) tail = minItems <= k ? EMPTY : null;
      else if (k > 0) tail = repeat(seq(literal(','), restExpr), needed, room);
      else tail = listExpr(restExpr, needed, room);
    } else tail = minItems <= k ? EMPTY : null;
    // Prefix elements, nested from the end: the array may stop after any index >= minItems.
    for (let i = k - 1; i >= 0; i--) {
      const take =
        maxItems !== null && i + 1 > maxItems ? null : tail === null ? null : seq(sep(i), prefixExprs[i], tail);
      if (i >= minItems) tail = take ? optional(take) : EMPTY;
      else tail = take;
      // Optional positions nest one level each; a rule every NESTING_PER_RULE keeps a long tuple
      // shallow (a tuple of 2,000 $refs overflowed the stack).
      if (tail !== null && tail !== EMPTY && i > 0 && i % NESTING_PER_RULE === 0)
        tail = this.builder.rule(`${hint}-from-${i}`, tail);
    }
    if (tail === null)
      return unsatisfiable('no array satisfies prefixItems/items with minItems/maxItems', pointer, 'minItems');
    return this.builder.rule(`${hint}-array`, seq(literal('['), tail, literal(']')));
  }
}

/** The JSON type of a value's compact text (numbers as `number`). */
function jsonTypeOfText(text: string): TypeName {
  const c = text[0];
  return c === '"'
    ? 'string'
    : c === '{'
      ? 'object'
      : c === '['
        ? 'array'
        : c === 'n'
          ? 'null'
          : c === 't' || c === 'f'
            ? 'boolean'
            : 'number';
}

/** Compile work of emitting one node: one, plus its values, properties and pattern characters / 16. */
function nodeSize(node: Node): number {
  const patterns = node.string.patterns.reduce((sum, p) => sum + Math.ceil(p.value.length / 16), 0);
  return 1 + (node.values?.length ?? 0) + node.object.properties.size + patterns;
}

/** A node that constrains nothing (any JSON value): enum values need no judging against it. */
function unconstrained(node: Node): boolean {
  const { number: n, string: s, array: a, object: o } = node;
  return (
    node.types === undefined &&
    node.mentions.size === 0 &&
    !node.invalid &&
    !n.min &&
    !n.max &&
    n.multipleOf.length === 0 &&
    n.formats.length === 0 &&
    s.minLength === undefined &&
    s.maxLength === undefined &&
    s.patterns.length === 0 &&
    s.formats.length === 0 &&
    !a.prefix &&
    !a.items &&
    a.minItems === undefined &&
    a.maxItems === undefined &&
    o.properties.size === 0 &&
    o.required.length === 0 &&
    o.patterns.length === 0 &&
    !o.additional &&
    o.minProperties === undefined &&
    o.maxProperties === undefined
  );
}
