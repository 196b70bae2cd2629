// Emit: objects of a typed schema. Declared properties in order, then required names only patterns
// or additionalProperties allow, then extra members: keys each pattern writes (with that pattern's
// schema) and keys no property declares (with additionalProperties' schema), counted against
// minProperties/maxProperties in states that keep the grammar linear.

import { ConstraintError, pointerChild } from './errors.js';
import type { Expr } from '../automaton/expr.js';
import {
  EMPTY,
  GENERATABLE,
  alt,
  altOf,
  charClass,
  literal,
  normalizeRanges,
  optional,
  rangesContain,
  repeat,
  seq,
} from '../automaton/expr.js';
import type { Dfa, DfaBudget } from './dfa.js';
import { classBoundsOf, dfaIsEmpty, dfaOfExpr, dfaRules, intersectDfas, rangesExpr } from './dfa.js';
import type { GrammarBuilder } from './grammar-builder.js';
import { patternExpr, patternKeyExcluding } from './pattern-keys.js';
import { toJsonStringContent } from './regex.js';
import { refuseTooManyProperties } from './drafts.js';
import type { ObjectPart, PatternProperty, Schema, Unsatisfiable } from './schema-types.js';
import { unsatisfiable } from './schema-types.js';

/** Levels of nesting a key trie builds before continuing in a new rule. */
export const NESTING_PER_RULE = 64;

/** Bound on the (property, count) states an object with min/maxProperties may need. */
const MAX_OBJECT_STATES = 4000;

export interface ObjectContext {
  readonly builder: GrammarBuilder;
  /** Objects without additionalProperties are closed beside declared members (the model's reading), unless open. */
  readonly closedByDefault: boolean;
  /** Extra-key rules per set of excluded names, per compile. */
  readonly extraKeys: Map<string, Expr>;
  emit(schema: Schema, pointer: string, depth: number): Expr | Unsatisfiable;
  /** The intersection of schemas (one object per list of parts). */
  and(parts: readonly Schema[], pointer: string): Schema;
  /** A part the value may leave out: its expression, or undefined when it matches nothing. */
  optionalPart(schema: Schema, pointer: string, depth: number): Expr | undefined;
  /** Work whose rules count toward the grammar's characters only if it is kept (its result is not undefined). */
  tentative<T>(work: () => T | undefined): T | undefined;
  /** Whether a pattern matches a name; undefined where the regex compiler cannot express the pattern. */
  patternMatch(pattern: string, name: string, pointer: string): boolean | undefined;
  approximate(pointer: string, keyword: string, note: string): void;
  spend(units: number, pointer: string): void;
  dfaBudget(pointer: string): DfaBudget;
}

interface Member {
  key: string;
  value: Expr;
  required: boolean;
}

/** Whether every pattern of an entry matches the name (decided by automaton); a pattern that cannot be expressed is refused. */
function entryMatches(entry: PatternProperty, name: string, pointer: string, ctx: ObjectContext): boolean {
  ctx.spend(1 + Math.floor(name.length / 16), pointer);
  for (const pattern of entry.patterns) {
    const matches = ctx.patternMatch(pattern, name, pointer);
    if (matches === undefined) {
      throw new ConstraintError(
        'unsupported-regex',
        `required property '${name}' is declared only by patternProperties, and the regex compiler cannot express the pattern '${pattern}' to tell whether it applies`,
        { pointer: pointerChild(pointerChild(pointer, 'patternProperties'), pattern), keyword: 'patternProperties' },
      );
    }
    if (!matches) return false;
  }
  return true;
}

export function objectExpr(
  part: ObjectPart,
  pointer: string,
  hint: string,
  depth: number,
  ctx: ObjectContext,
): Expr | Unsatisfiable {
  const minProperties = part.minProperties ?? 0;
  const maxProperties = part.maxProperties ?? null;
  const required = new Set(part.required);
  const properties = part.properties;
  const additional = part.additional;
  const patterns = part.patterns;
  // Without additionalProperties: only the declared members when there are any (what a model should
  // produce); a free-form object when the schema declares none.
  const declaresMembers = properties.size > 0 || required.size > 0 || patterns.length > 0;
  const extrasSchema: Schema | boolean =
    additional !== undefined ? additional : declaresMembers && ctx.closedByDefault ? false : true;
  // Each member needs at least two counting states (below): refused before any member is compiled.
  refuseTooManyProperties(new Set([...properties.keys(), ...required]).size, pointer);

  const members: Member[] = [];
  for (const [key, declared] of properties) {
    const at = pointerChild(pointerChild(pointer, 'properties'), key);
    // The specification applies every patternProperties pattern the name matches as well: the
    // value is written with all those schemas (and the patterns write no key a member takes).
    const matching = patterns.filter((p) =>
      p.patterns.every((pattern) => ctx.patternMatch(pattern, key, pointer) === true),
    );
    const sub: Schema = matching.length === 0 ? declared : ctx.and([declared, ...matching.map((p) => p.schema)], at);
    if (required.has(key)) {
      if (declared.kind === 'unsatisfiable') return unsatisfiable(`required property '${key}' has schema false`, at);
      const value = ctx.emit(sub, at, depth + 1);
      if ('kind' in value && value.kind === 'unsatisfiable') return value;
      members.push({ key, value: value as Expr, required: true });
    } else {
      // An optional property that matches nothing is left out (its key stays excluded from extras).
      const value = ctx.optionalPart(sub, at, depth + 1);
      if (value) members.push({ key, value, required: false });
    }
  }
  for (const key of required) {
    if (properties.has(key)) continue;
    // A required name that is not declared takes the schemas of the patternProperties it matches
    // (all of them), or else the additionalProperties schema.
    const matching = patterns.filter((p) => entryMatches(p, key, pointer, ctx));
    let value: Expr | Unsatisfiable;
    if (matching.length > 0) {
      const schema: Schema =
        matching.length === 1
          ? matching[0].schema
          : ctx.and(
              matching.map((p) => p.schema),
              pointer,
            );
      value = ctx.emit(schema, matching.length === 1 ? matching[0].pointer : pointer, depth + 1);
    } else if (additional?.kind === 'unsatisfiable') {
      return unsatisfiable(
        `required property '${key}' is not allowed by additionalProperties: false (nor by patternProperties)`,
        pointer,
        'required',
      );
    } else {
      value = ctx.emit(additional ?? { kind: 'any' }, pointerChild(pointer, 'additionalProperties'), depth + 1);
    }
    if ('kind' in value && value.kind === 'unsatisfiable') return value;
    members.push({ key, value: value as Expr, required: true });
  }

  // Extra properties: keys each pattern writes, with that pattern's schema, and the keys no
  // property declares, with additionalProperties' schema. A key that matches several patterns or
  // also fits additionalProperties, or that repeats or spells a declared property, is the
  // validator's (the grammar cannot keep keys apart from a regex or from each other).
  const extraOptions: Expr[] = [];
  const memberNames = [...new Set([...members.map((m) => m.key), ...properties.keys()])];
  for (const entry of patterns) {
    const option = ctx.tentative(() => {
      const value = ctx.optionalPart(entry.schema, entry.pointer, depth + 1);
      const key = value && patternKey(entry, memberNames, hint, ctx);
      return key && seq(ctx.builder.rule(`${hint}-pattern-key`, key), literal(':'), value);
    });
    if (option) extraOptions.push(option);
  }
  if (extrasSchema !== false && !(typeof extrasSchema === 'object' && extrasSchema.kind === 'unsatisfiable')) {
    const option = ctx.tentative(() => {
      const names = members.map((m) => m.key).concat([...properties.keys()]);
      // Once per set of names and compile: a union re-emits its object for every branch.
      const namesKey = names.join('\u0000');
      let extraKey = ctx.extraKeys.get(namesKey);
      if (!extraKey) {
        extraKey = ctx.builder.rule(
          `${hint}-extra-key`,
          extraKeyExpr(names, pointer, (name, body) => ctx.builder.rule(`${hint}-extra-key-${name}`, body)),
        );
        ctx.extraKeys.set(namesKey, extraKey);
      }
      // Extra properties whose schema matches nothing are no extra properties.
      const extraValue = ctx.optionalPart(
        extrasSchema === true ? { kind: 'any' } : extrasSchema,
        pointerChild(pointer, 'additionalProperties'),
        depth + 1,
      );
      return extraValue && seq(extraKey, literal(':'), extraValue);
    });
    if (option) extraOptions.push(option);
  }
  const extraMember =
    extraOptions.length === 0
      ? undefined
      : extraOptions.length === 1
        ? extraOptions[0]
        : ctx.builder.rule(`${hint}-extra`, altOf(extraOptions));
  if (extraMember && minProperties > members.length) {
    ctx.approximate(
      pointer,
      'minProperties',
      'additional keys could repeat (a grammar cannot keep keys distinct); the validator checks the count',
    );
  }
  const body = countedMembers(members, extraMember, minProperties, maxProperties, pointer, hint, ctx);
  if (body === null)
    return unsatisfiable(
      'no object satisfies properties/required/additionalProperties with minProperties/maxProperties',
      pointer,
    );
  return ctx.builder.rule(`${hint}-object`, seq(literal('{'), body, literal('}')));
}

/** The members in order, each optional one present or not, then the extras: all within minProperties..maxProperties. */
function countedMembers(
  members: Member[],
  extraMember: Expr | undefined,
  minProperties: number,
  maxProperties: number | null,
  pointer: string,
  hint: string,
  ctx: ObjectContext,
): Expr | null {
  const n = members.length;
  // Counting states: one per (member, count) pair when maxProperties bounds the count.
  const counts = maxProperties !== null ? maxProperties + 1 : Math.max(minProperties, 1) + 1;
  if (n * counts > MAX_OBJECT_STATES) {
    throw new ConstraintError(
      'too-large',
      `minProperties/maxProperties over ${n} properties needs ${n * counts} counting rules, above the limit of ${MAX_OBJECT_STATES}`,
      {
        pointer,
        keyword: maxProperties !== null ? 'maxProperties' : 'minProperties',
      },
    );
  }
  const memo = new Map<string, Expr | null>();
  // Properties after `count` have been written: the extras, bounded by min/maxProperties.
  const extras = (count: number): Expr | null => {
    const needed = Math.max(0, minProperties - count);
    const room = maxProperties === null ? null : maxProperties - count;
    if (room !== null && room < needed) return null;
    if (!extraMember) return needed > 0 ? null : EMPTY;
    if (count > 0) return repeat(seq(literal(','), extraMember), needed, room);
    return listExpr(extraMember, needed, room);
  };
  // `state(i, count)`: members i.. given `count` written so far. Only count's relation to the
  // bounds matters, so without maxProperties counts above minProperties share one state.
  const state = (i: number, count: number): Expr | null => {
    const key = maxProperties === null ? Math.min(count, Math.max(minProperties, 1)) : count;
    const memoKey = `${i}:${key}`;
    if (memo.has(memoKey)) return memo.get(memoKey)!;
    let result: Expr | null;
    if (i === n) result = extras(count);
    else {
      const member = members[i];
      const next = maxProperties !== null && count + 1 > maxProperties ? null : state(i + 1, count + 1);
      const take =
        next === null
          ? null
          : seq(count > 0 ? literal(',') : EMPTY, literal(JSON.stringify(member.key) + ':'), member.value, next);
      if (member.required) result = take;
      else {
        const skip = state(i + 1, count);
        const options = [take, skip].filter((o): o is Expr => o !== null);
        // A choice is shared by the states that reach it: a rule keeps the grammar linear.
        result =
          options.length === 0
            ? null
            : options.length === 1
              ? options[0]
              : ctx.builder.rule(`${hint}-rest`, altOf(options));
      }
    }
    memo.set(memoKey, result);
    return result;
  };
  return state(0, 0);
}

/** `item ("," item){...}` with a total count in [min, max]; the empty list allowed when min = 0. */
export function listExpr(item: Expr, min: number, max: number | null): Expr {
  if (max === 0) return EMPTY;
  const list = seq(item, repeat(seq(literal(','), item), Math.max(0, min - 1), max === null ? null : max - 1));
  return min === 0 ? optional(list) : list;
}

// ---- keys of patterns -----------------------------------------------------------------------------

/**
 * The keys a pattern entry writes: the JSON strings every one of its regexes matches, except the
 * names the object's members take (a declared name is written with its own schema only). Undefined
 * where the regex compiler cannot express a pattern, or the exclusion would be too large: the entry
 * then writes no keys (the grammar allows less, never more).
 */
function patternKey(entry: PatternProperty, names: string[], hint: string, ctx: ObjectContext): Expr | undefined {
  const pointer = entry.pointer;
  const exprs = entry.patterns.map(patternExpr);
  if (exprs.some((e) => e === undefined)) return undefined;
  const taken = names.filter((name) =>
    entry.patterns.every((pattern) => ctx.patternMatch(pattern, name, pointer) === true),
  );
  ctx.spend(1 + names.length, pointer);
  if (exprs.length === 1) {
    if (taken.length === 0) return seq(literal('"'), toJsonStringContent(exprs[0]!), literal('"'));
    return patternKeyExcluding(
      exprs[0]!,
      taken,
      NESTING_PER_RULE,
      (body) => ctx.builder.rule(`${hint}-pattern-key-rest`, body),
      (units) => ctx.spend(units, pointer),
    );
  }
  // Keys several patterns must all match (a part closed to what the other's patterns allow): their automata's intersection.
  const budget = ctx.dfaBudget(pointer);
  const dfas: (Dfa | undefined)[] = exprs.map((e) => dfaOfExpr(e!, budget));
  if (taken.length) dfas.push(noneOf(taken, budget));
  const product = dfas.every((d) => d !== undefined) ? intersectDfas(dfas as Dfa[], budget) : undefined;
  if (!product || dfaIsEmpty(product)) return undefined;
  const content = dfaRules(product, ctx.builder, `${hint}-pattern-key-part`, (ranges) =>
    toJsonStringContent(rangesExpr(ranges)),
  );
  return content && seq(literal('"'), content, literal('"'));
}

/** Strings of generatable characters that are none of `names`: their trie, and a state for every string that left it. */
function noneOf(names: readonly string[], budget: DfaBudget): Dfa | undefined {
  const children: Map<number, number>[] = [new Map()];
  const terminal: boolean[] = [false];
  for (const name of names) {
    let node = 0;
    for (const ch of name) {
      const cp = ch.codePointAt(0)!;
      let child = children[node].get(cp);
      if (child === undefined) {
        child = children.length;
        children[node].set(cp, child);
        children.push(new Map());
        terminal.push(false);
      }
      node = child;
    }
    terminal[node] = true;
  }
  if (children.length + 1 > budget.maxStates) return undefined;
  budget.spend(1 + Math.floor(children.length / 8));
  const used = new Set<number>();
  for (const map of children) for (const cp of map.keys()) used.add(cp);
  const bounds = classBoundsOf([GENERATABLE, ...[...used].map((cp): [number, number][] => [[cp, cp]])]);
  const classes = bounds.length;
  const out = children.length;
  const next = new Int32Array((out + 1) * classes).fill(-1);
  for (let c = 0; c < classes; c++) {
    if (!rangesContain(GENERATABLE, bounds[c])) continue;
    for (let node = 0; node < out; node++)
      next[node * classes + c] = (used.has(bounds[c]) ? children[node].get(bounds[c]) : undefined) ?? out;
    next[out * classes + c] = out;
  }
  return { bounds, next, accepting: [...terminal.map((t) => !t), true] };
}

// ---- keys that are not declared ------------------------------------------------------------------

interface TrieNode {
  terminal: boolean;
  children: Map<string, TrieNode>;
}

// Extra keys use raw characters and the short escapes only (no `\u`, no `\/`), so each key has one
// spelling and "not a declared key" is decidable character by character.
const KEY_RAW = normalizeRanges([
  [0x00, 0x1f],
  [0x22, 0x22],
  [0x5c, 0x5c],
  [0x7f, 0x7f],
]);
const KEY_ESCAPES = ['"', '\\', 'b', 'f', 'n', 'r', 't'];

function keyTokens(key: string): string[] {
  const tokens: string[] = [];
  for (const ch of key) tokens.push(JSON.stringify(ch).slice(1, -1));
  return tokens;
}

// Each node of the excluded-key trie becomes about 100 grammar characters; past this many nodes the
// grammar would pass maxGrammarChars anyway, so say so before building it (a 100,000-character
// property name took 5 s to reach the same error).
const MAX_EXCLUDED_KEY_CHARS = 8_000;

/**
 * A JSON string (quotes included) that is not any of `names`: the complement of their trie. Built
 * bottom-up without recursion, one nesting level per character: every NESTING_PER_RULE levels the
 * rest goes to a rule (`share`), so a long name never nests deep (10,000 characters overflowed).
 */
export function extraKeyExpr(
  names: string[],
  pointer: string,
  share: (name: 'rest' | 'tail', body: Expr) => Expr,
): Expr {
  const root: TrieNode = { terminal: false, children: new Map() };
  let nodes = 0;
  for (const name of names) {
    let node = root;
    for (const token of keyTokens(name)) {
      let child = node.children.get(token);
      if (!child) {
        node.children.set(token, (child = { terminal: false, children: new Map() }));
        if (++nodes > MAX_EXCLUDED_KEY_CHARS) {
          throw new ConstraintError(
            'too-large',
            `additionalProperties beside property names of more than ${MAX_EXCLUDED_KEY_CHARS} characters in all (shared prefixes counted once): the grammar keeping extra keys apart from them would be too large`,
            { pointer, keyword: 'additionalProperties' },
          );
        }
      }
      node = child;
    }
    node.terminal = true;
  }
  const rawChar = (excluded: number[]) =>
    charClass(normalizeRanges([...KEY_RAW, ...excluded.map((c) => [c, c] as [number, number])]), true);
  const escapeChar = (excluded: string[]) => {
    const letters = KEY_ESCAPES.filter((e) => !excluded.includes(e));
    return letters.length
      ? seq(literal('\\'), charClass(normalizeRanges(letters.map((e) => [e.charCodeAt(0), e.charCodeAt(0)]))))
      : undefined;
  };
  const anyKeyChar = alt(rawChar([]), escapeChar([])!);
  const anyRest = share('tail', seq(repeat(anyKeyChar, 0, null), literal('"')));

  // Pre-order with depths; walked backwards, every child is built before its parent.
  const order: { node: TrieNode; depth: number }[] = [];
  const pending = [{ node: root, depth: 0 }];
  while (pending.length) {
    const entry = pending.pop()!;
    order.push(entry);
    for (const child of entry.node.children.values()) pending.push({ node: child, depth: entry.depth + 1 });
  }
  const built = new Map<TrieNode, Expr>();
  for (let k = order.length - 1; k >= 0; k--) {
    const { node, depth } = order[k];
    const options: Expr[] = [];
    if (!node.terminal) options.push(literal('"'));
    const rawChildren: number[] = [];
    const escapeChildren: string[] = [];
    for (const [token, child] of node.children) {
      if (token.length === 1) rawChildren.push(token.codePointAt(0)!);
      else if (token.length === 2) escapeChildren.push(token[1]);
      else continue; // a `\u00XX` spelling: extra keys cannot produce it anyway
      options.push(seq(literal(token), built.get(child)!));
    }
    options.push(seq(rawChar(rawChildren), anyRest));
    const escape = escapeChar(escapeChildren);
    if (escape) options.push(seq(escape, anyRest));
    const expr = altOf(options);
    built.set(node, depth > 0 && depth % NESTING_PER_RULE === 0 ? share('rest', expr) : expr);
  }
  return seq(literal('"'), built.get(root)!);
}
