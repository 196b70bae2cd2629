// Property names against patternProperties patterns, without a backtracking RegExp: whether a name
// matches a pattern is decided by the token masker's automaton (src/automaton/automaton.ts, a lazily
// built DFA over the regex's grammar, linear in the name), and the keys a pattern writes exclude
// the names the object declares (a declared name is written and validated with its own schema
// only), built from derivatives of the regex along the declared names' trie.
//
// A JS RegExp here took 9.5 s for `^(a+)+$` against 28 a's and `!` (issue #43); writing `{"id":12}`
// under `^[a-z]+$` where `id` is declared a hex string was allowed (issue #48).

import { Automaton, AutomatonLimitError, DEAD } from '../automaton/automaton.js';
import { ConstraintError } from './errors.js';
import type { CharRanges, Expr } from '../automaton/expr.js';
import {
  EMPTY,
  GENERATABLE,
  altOf,
  charClass,
  codePointsOf,
  complementRanges,
  intersectRanges,
  isNullable,
  literal,
  normalizeRanges,
  rangesContain,
  repeat,
  seqOf,
} from '../automaton/expr.js';
import { regexToExpr, toJsonStringContent } from './regex.js';

/** A pattern's code point expression as JSON Schema reads it (searched, unanchored), or undefined where the regex compiler cannot express it. */
export function patternExpr(pattern: string): Expr | undefined {
  try {
    return regexToExpr(pattern, '', { semantics: 'search' });
  } catch (error) {
    if (error instanceof ConstraintError) return undefined;
    throw error;
  }
}

/** Stacks of new automaton states per unit of compile work (json-schema.ts's spend: about 15 µs a unit). */
const STACKS_PER_UNIT = 32;

/** Decides names against patterns, one automaton per pattern, built once per compile. */
export class PatternMatcher {
  private readonly automata = new Map<string, Automaton | null>();

  /**
   * Whether the pattern matches the name; undefined where the regex compiler cannot express the
   * pattern. The automaton's new states are counted through `spend`, a unit per STACKS_PER_UNIT
   * stacks they hold: `.{0,5000}x` against 3,000 characters builds a state of thousands of stacks
   * per character (2.8 s), refused by the compile's work bound instead.
   */
  matches(pattern: string, name: string, pointer: string, spend: (units: number) => void): boolean | undefined {
    try {
      let automaton = this.automata.get(pattern);
      if (automaton === undefined) {
        const expr = patternExpr(pattern);
        automaton = expr ? new Automaton({ rules: new Map([['root', expr]]), root: 'root' }) : null;
        this.automata.set(pattern, automaton);
      }
      if (automaton === null) return undefined;
      let state = automaton.initial;
      for (const ch of name) {
        const known = automaton.states;
        state = automaton.step(state, automaton.classOf(ch.codePointAt(0)!));
        if (state === DEAD) return false;
        if (automaton.states > known) spend(Math.ceil(automaton.stacksOf(state).length / STACKS_PER_UNIT));
      }
      return automaton.isAccepting(state);
    } catch (error) {
      if (error instanceof AutomatonLimitError) {
        throw new ConstraintError(
          'too-large',
          `patternProperties pattern '${pattern}' is too ambiguous to test the name '${name.slice(0, 40)}' against`,
          {
            pointer,
            keyword: 'patternProperties',
          },
        );
      }
      throw error;
    }
  }
}

// ---- keys of a pattern that are none of some names ----------------------------------------------

/** Nodes the derivatives of one pattern may create before its keys are given up (not generated). */
const MAX_DERIVATIVE_NODES = 20_000;

/** Derivative nodes per unit of compile work (json-schema.ts's spend: about 15 µs a unit). */
const NODES_PER_UNIT = 16;

class TooLarge extends Error {}

interface Trie {
  terminal: boolean;
  children: Map<number, Trie>;
}

/**
 * The JSON strings (quotes included) whose text the pattern's expression matches and that are none
 * of `names`, or undefined when that takes more than MAX_DERIVATIVE_NODES nodes (the pattern then
 * writes no keys: the grammar allows less, never more). For each node of the names' trie: the
 * empty rest where the pattern accepts there and no name ends there, each next character of a name
 * followed by the node below (the derivative by that character), and every other character the
 * pattern allows there followed by whatever the pattern allows after it (its first character
 * restricted). `share` turns a deep part into a rule, every `nesting` levels.
 */
export function patternKeyExcluding(
  expr: Expr,
  names: readonly string[],
  nesting: number,
  share: (body: Expr) => Expr,
  spend: (units: number) => void,
): Expr | undefined {
  const root: Trie = { terminal: false, children: new Map() };
  for (const name of names) {
    let node = root;
    for (const cp of codePointsOf(name)) {
      let child = node.children.get(cp);
      if (!child) node.children.set(cp, (child = { terminal: false, children: new Map() }));
      node = child;
    }
    node.terminal = true;
  }
  const d = new Derivatives(spend);
  try {
    // Top-down: each trie node's expression; then bottom-up (reverse order): each node's keys.
    const order: { node: Trie; expr: Expr; depth: number }[] = [];
    const pending = [{ node: root, expr, depth: 0 }];
    while (pending.length) {
      const entry = pending.pop()!;
      order.push(entry);
      for (const [cp, child] of entry.node.children) {
        const next = d.derive(entry.expr, cp);
        if (next) pending.push({ node: child, expr: next, depth: entry.depth + 1 });
      }
    }
    const built = new Map<Trie, Expr | null>();
    for (let k = order.length - 1; k >= 0; k--) {
      const { node, expr: here, depth } = order[k];
      const options: Expr[] = [];
      if (!node.terminal && isNullable(here)) options.push(EMPTY);
      for (const [cp, child] of node.children) {
        const below = built.get(child);
        if (below) options.push(seqOf([toJsonStringContent(literal(String.fromCodePoint(cp))), below]));
      }
      const others = complementRanges(
        normalizeRanges([...node.children.keys()].map((cp) => [cp, cp] as [number, number])),
        GENERATABLE,
      );
      const rest = d.restrictFirst(here, others);
      if (rest) options.push(sharedTails(rest, share));
      const body = options.length ? altOf(options) : null;
      built.set(node, body && depth > 0 && depth % nesting === 0 ? share(body) : body);
    }
    const keys = built.get(root);
    return keys ? seqOf([literal('"'), keys, literal('"')]) : undefined;
  } catch (error) {
    if (error instanceof TooLarge) return undefined;
    throw error;
  }
}

/**
 * A key's continuation as JSON string content, each alternative's tail after its first character
 * a shared rule: the tails are derivatives of the pattern, the same few at every node of the names'
 * trie, and written inline each was repeated per node (24 overlapping patterns beside 30 names:
 * 654,000 grammar characters).
 */
function sharedTails(rest: Expr, share: (body: Expr) => Expr): Expr {
  const one = (e: Expr): Expr =>
    e.kind === 'seq' && e.items.length > 1
      ? seqOf([toJsonStringContent(e.items[0]), share(toJsonStringContent(seqOf(e.items.slice(1))))])
      : toJsonStringContent(e);
  return rest.kind === 'alt' ? altOf(rest.options.map(one)) : one(rest);
}

/**
 * Brzozowski derivatives of regex expressions (literals, classes, sequences, alternations and
 * repetitions of non-nullable bodies, as regexToExpr writes them), with equal alternatives merged
 * so that repeated derivatives stay small. Null is the empty language.
 */
class Derivatives {
  private nodes = 0;
  private readonly keys = new WeakMap<Expr, string>();

  /** `spend` counts the work in the compile's work bound: a unit per NODES_PER_UNIT nodes. */
  constructor(private readonly spend: (units: number) => void) {}

  private made(): void {
    if (++this.nodes > MAX_DERIVATIVE_NODES) throw new TooLarge();
    if (this.nodes % NODES_PER_UNIT === 0) this.spend(1);
  }

  /** The strings w such that c·w is matched by e. */
  derive(e: Expr, c: number): Expr | null {
    return this.lead(e, (x) => {
      if (x.kind === 'literal')
        return x.text !== '' && x.text.codePointAt(0) === c ? literal(x.text.slice(c > 0xffff ? 2 : 1)) : null;
      if (x.kind === 'class') return rangesContain(x.ranges, c) !== x.negated ? EMPTY : null;
      return undefined;
    });
  }

  /** The non-empty strings of e whose first character is in `set`. */
  restrictFirst(e: Expr, set: CharRanges): Expr | null {
    return this.lead(e, (x) => {
      if (x.kind === 'literal') return x.text !== '' && rangesContain(set, x.text.codePointAt(0)!) ? x : null;
      if (x.kind === 'class') {
        const members = intersectRanges(x.negated ? complementRanges(x.ranges, GENERATABLE) : x.ranges, set);
        return members.length ? charClass(members) : null;
      }
      return undefined;
    });
  }

  /**
   * What e matches after its first character is taken by `atom` (on literals and classes: the rest
   * after that character, or the atom restricted to it, or null), the rest of e unchanged.
   */
  private lead(e: Expr, atom: (x: Expr) => Expr | null | undefined): Expr | null {
    this.made();
    const own = atom(e);
    if (own !== undefined) return own;
    switch (e.kind) {
      case 'seq': {
        const options: Expr[] = [];
        for (let i = 0; i < e.items.length; i++) {
          const head = this.lead(e.items[i], atom);
          if (head) options.push(seqOf([head, ...e.items.slice(i + 1)]));
          if (!isNullable(e.items[i])) break;
        }
        return this.union(options);
      }
      case 'alt':
        return this.union(e.options.map((o) => this.lead(o, atom)).filter((o): o is Expr => o !== null));
      case 'repeat': {
        if (e.max === 0) return null;
        const head = this.lead(e.body, atom);
        return head && seqOf([head, repeat(e.body, Math.max(0, e.min - 1), e.max === null ? null : e.max - 1)]);
      }
      default:
        throw new Error('internal: a regex expression has no rule references');
    }
  }

  /** An alternation of distinct options (flattened), or null when there are none. */
  private union(options: Expr[]): Expr | null {
    const seen = new Set<string>();
    const out: Expr[] = [];
    for (const option of options.flatMap((o) => (o.kind === 'alt' ? o.options : [o]))) {
      const key = this.keyOf(option);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(option);
    }
    return out.length ? altOf(out) : null;
  }

  private keyOf(e: Expr): string {
    let key = this.keys.get(e);
    if (key !== undefined) return key;
    this.made();
    switch (e.kind) {
      case 'literal':
        key = JSON.stringify(e.text);
        break;
      case 'class':
        key = `[${e.negated ? '^' : ''}${e.ranges.map(([lo, hi]) => `${lo}-${hi}`).join(',')}]`;
        break;
      case 'seq':
        key = `(${e.items.map((i) => this.keyOf(i)).join(' ')})`;
        break;
      case 'alt':
        key = `(${e.options.map((o) => this.keyOf(o)).join('|')})`;
        break;
      case 'repeat':
        key = `${this.keyOf(e.body)}{${e.min},${e.max ?? ''}}`;
        break;
      case 'ref':
        key = e.name;
        break;
    }
    this.keys.set(e, key);
    return key;
  }
}
