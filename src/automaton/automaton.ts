// An incremental recognizer of our GBNF (the Expr AST of src/grammar), advanced one code point at a
// time, for constrained decoding. It keeps llama.cpp's representation (llama-grammar.cpp): the
// grammar flattened into rule alternatives of character elements and rule references, and a parse
// state that is the set of stacks of positions still to match, each with a character element on
// top (an empty stack: the grammar is complete). Unlike llama.cpp, stacks and states are interned
// (hash-consed) and every transition is memoised, so a state met again — inside a string, after a
// comma — costs a table lookup, and the token masker (mask.ts) can cache per state.
//
// Characters are grouped into classes: code points that every character element of the grammar
// treats alike (same membership in every element) lead from any state to the same state, so the
// transition tables are indexed by class, not by code point (a JSON grammar has a few dozen).
//
// Pure: no Node or node-llama-cpp APIs.

import type { CharRanges, Expr, Grammar } from './expr.js';
import { MAX_CODE_POINT, codePointsOf, rangesContain } from './expr.js';

/** A state with more stacks than this is refused (an ambiguous grammar would make every step slow). */
export const MAX_STACKS_PER_STATE = 4096;
/** Distinct states one automaton may create before it refuses to grow (memory). */
export const MAX_STATES = 200_000;

export class AutomatonLimitError extends Error {
  readonly code = 'grammar-too-ambiguous';
  constructor(message: string) {
    super(message);
    this.name = 'AutomatonLimitError';
  }
}

const CHAR = 0;
const REF = 1;
const END = 2;

/** A dead state: no stack survives. */
export const DEAD = -1;
const UNKNOWN = -2;
/** A transition entry SAME_AS - c (c >= 0): the same next state as class c. */
const SAME_AS = -3;

/** A completion's text and its length in code points. */
interface Completion {
  text: string;
  length: number;
}

function sameStacks(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class Automaton {
  // ---- the flattened grammar: positions 0..n-1, each an element; an alternative ends at END ----
  private readonly kind: number[] = [];
  /** CHAR: index into charSets; REF: the rule index. */
  private readonly arg: number[] = [];
  private readonly charSets: Array<{ ranges: CharRanges; negated: boolean }> = [];
  /** Per rule: the start position of each alternative. */
  private readonly ruleAlts: number[][] = [];

  // ---- character classes --------------------------------------------------------------------
  /** Sorted class boundaries: class i holds [bounds[i], bounds[i+1]-1]. */
  readonly bounds: Int32Array;
  /** Per CHAR element: which classes it matches (Uint8Array over classes). */
  private readonly charMatches: Uint8Array[] = [];

  // ---- interned stacks: id 0 is the empty stack ----
  private readonly stackTop: number[] = [-1];
  private readonly stackRest: number[] = [-1];
  private readonly stackIds = new Map<number, number>();
  /** Canonical expansions of a stack (tops are CHAR elements or the empty stack). */
  private readonly expansions = new Map<number, readonly number[]>();

  // ---- interned states: a sorted set of canonical stacks ----
  private readonly stateStacks: Array<readonly number[]> = [];
  /** States by a hash of their stacks (a bucket of ids: hashes can collide). */
  private readonly stateIds = new Map<number, number[]>();
  /** Transitions, `classes` entries per state (one buffer, so a new state allocates no array of its own). */
  private transitions = new Int32Array(0);
  private readonly accepting: boolean[] = [];
  /** The state before any character. */
  readonly initial: number;

  constructor(grammar: Grammar) {
    const ruleIndex = new Map<string, number>();
    for (const name of grammar.rules.keys()) {
      ruleIndex.set(name, this.ruleAlts.length);
      this.ruleAlts.push([]);
    }
    const root = ruleIndex.get(grammar.root);
    if (root === undefined) throw new Error(`the grammar has no rule '${grammar.root}'`);
    for (const [name, body] of grammar.rules) this.defineRule(ruleIndex.get(name)!, body, ruleIndex);
    this.bounds = this.classBounds();
    for (const set of this.charSets) this.charMatches.push(this.matchTable(set));
    const start = this.expandFrom(root, 0);
    this.initial = this.internState(start);
  }

  /** Number of character classes. */
  get classes(): number {
    return this.bounds.length;
  }

  get states(): number {
    return this.stateStacks.length;
  }

  /** The class of a code point. */
  classOf(codePoint: number): number {
    const b = this.bounds;
    let lo = 0;
    let hi = b.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (b[mid] <= codePoint) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  isAccepting(state: number): boolean {
    return this.accepting[state];
  }

  /** Accepting, and no character can follow: every way through the grammar has ended. */
  isFinal(state: number): boolean {
    return this.stateStacks[state].every((stack) => stack === 0);
  }

  /**
   * A state that allows the same strings of up to `depth` - 1 characters as this one (so the same
   * tokens, where no token spells more): this one with every counted repetition that has more than
   * `depth` units left (each at least a character) cut to `depth` left. The characters of a long
   * bounded string are then one state to the token masker, not one each. Memoised for one depth.
   */
  equivalentState(state: number, depth: number): number {
    if (this.cut?.depth !== depth)
      this.cut = { depth, position: this.cutPositions(depth), stacks: new Map(), states: new Map() };
    const cut = this.cut;
    let equivalent = cut.states.get(state);
    if (equivalent === undefined) {
      const stacks = this.stateStacks[state];
      const cutStacks = stacks.map((stack) => this.cutStack(stack, cut));
      equivalent = cutStacks.every((stack, i) => stack === stacks[i]) ? state : this.internState(cutStacks);
      cut.states.set(state, equivalent);
    }
    return equivalent;
  }

  /** The state after one character of the given class, or DEAD. */
  step(state: number, cls: number): number {
    const at = state * this.bounds.length + cls;
    const cached = this.transitions[at];
    if (cached >= DEAD) return cached;
    if (cached !== UNKNOWN) {
      // A class that every stack top treats as a lower class does: the same state (see fillRow).
      const same = this.step(state, SAME_AS - cached);
      this.transitions[at] = same;
      return same;
    }
    const next: number[] = [];
    for (const stack of this.stateStacks[state]) {
      if (stack === 0) continue;
      const top = this.stackTop[stack];
      if (!this.charMatches[this.arg[top]][cls]) continue;
      const rest = this.stackRest[stack];
      const after = this.kind[top + 1] === END ? rest : this.pushStack(top + 1, rest);
      for (const s of this.expand(after)) next.push(s);
    }
    const result = next.length === 0 ? DEAD : this.internState(next);
    // After interning: a new state may have grown the buffer.
    this.transitions[at] = result;
    return result;
  }

  /** The state after a string, or DEAD. */
  stepText(state: number, text: string): number {
    for (const cp of codePointsOf(text)) {
      if (state === DEAD) return DEAD;
      state = this.step(state, this.classOf(cp));
    }
    return state;
  }

  /**
   * Whether some completion of a partial UTF-8 sequence could match a character the state expects,
   * exactly as llama.cpp's llama_grammar_match_partial_char decides it (a negated class refuses a
   * partial sequence whose range touches an excluded character).
   */
  acceptsPartial(state: number, value: number, remain: number): boolean {
    if (remain < 0 || (remain === 1 && value < 2)) return false;
    let low = value * 2 ** (remain * 6);
    const high = low + 2 ** (remain * 6) - 1;
    if (low === 0) {
      if (remain === 2) low = 1 << 11;
      else if (remain === 3) low = 1 << 16;
    }
    for (const stack of this.stateStacks[state]) {
      if (stack === 0) continue;
      const set = this.charSets[this.arg[this.stackTop[stack]]];
      let hit = false;
      for (const [lo, hi] of set.ranges) {
        if (lo <= high && low <= hi) {
          hit = true;
          break;
        }
      }
      if (hit !== set.negated) return true;
    }
    return false;
  }

  private readonly nextCounts = new Map<number, number>();

  /**
   * How many code points some parse of the state allows next (each distinct character element on
   * a stack's top counted whole; overlaps counted twice): few means few tokens can follow, and a
   * token mask of the state is cheap to compute. Memoised per state.
   */
  nextCodePoints(state: number): number {
    if (state === DEAD) return 0;
    let count = this.nextCounts.get(state);
    if (count === undefined) {
      count = 0;
      const seen = new Set<number>();
      for (const stack of this.stateStacks[state]) {
        if (stack === 0) continue;
        const set = this.arg[this.stackTop[stack]];
        if (seen.has(set)) continue;
        seen.add(set);
        const { ranges, negated } = this.charSets[set];
        let size = 0;
        for (const [lo, hi] of ranges) size += hi - lo + 1;
        count += negated ? MAX_CODE_POINT + 1 - size : size;
      }
      this.nextCounts.set(state, count);
    }
    return count;
  }

  /** The characters expected next (each stack's top element), for shortest completions. */
  stacksOf(state: number): readonly number[] {
    return this.stateStacks[state];
  }

  /**
   * A shortest string (in code points) that completes the grammar from this state, or null at a
   * dead state. Characters are the lowest code point of each class an element allows (ASCII where
   * the grammar allows it).
   */
  shortestCompletion(state: number): string | null {
    if (state === DEAD) return null;
    const lengths = this.minLengths();
    let best: Completion | null = null;
    for (const stack of this.stateStacks[state]) {
      const completion = this.completeStack(stack, lengths);
      if (completion !== null && (best === null || completion.length < best.length)) best = completion;
    }
    return best && best.text;
  }

  // ---- building ------------------------------------------------------------------------------

  private addPosition(kind: number, arg: number): void {
    this.kind.push(kind);
    this.arg.push(arg);
  }

  private newRule(): number {
    this.ruleAlts.push([]);
    return this.ruleAlts.length - 1;
  }

  /** Emits a rule's alternatives; nested alternations and repetitions become rules of their own (as llama.cpp's parser does). */
  private defineRule(rule: number, body: Expr, names: Map<string, number>): void {
    const options = body.kind === 'alt' ? body.options : [body];
    // Elements of every alternative first (they may create rules), then the positions, contiguous.
    const sequences = options.map((option) => this.elements(option, names));
    for (const elements of sequences) {
      this.ruleAlts[rule].push(this.kind.length);
      for (const [kind, arg] of elements) this.addPosition(kind, arg);
      this.addPosition(END, -1);
    }
  }

  private elements(expr: Expr, names: Map<string, number>): Array<[number, number]> {
    switch (expr.kind) {
      case 'literal':
        return codePointsOf(expr.text).map((cp) => [CHAR, this.charSet([[cp, cp]], false)]);
      case 'class':
        return [[CHAR, this.charSet(expr.ranges, expr.negated)]];
      case 'ref': {
        const target = names.get(expr.name);
        if (target === undefined) throw new Error(`undefined rule '${expr.name}'`);
        return [[REF, target]];
      }
      case 'seq':
        return expr.items.flatMap((item) => this.elements(item, names));
      case 'alt': {
        const rule = this.newRule();
        this.defineRule(rule, expr, names);
        return [[REF, rule]];
      }
      case 'repeat':
        return this.repetition(expr.body, expr.min, expr.max, names);
    }
  }

  /** x{min,max}: min copies, then `R ::= x R | ε` (unbounded) or nested optionals (llama.cpp's expansion). */
  private repetition(body: Expr, min: number, max: number | null, names: Map<string, number>): Array<[number, number]> {
    const unit = this.single(body, names);
    const out: Array<[number, number]> = [];
    for (let i = 0; i < min; i++) out.push(unit);
    if (max === null) {
      const rule = this.newRule();
      this.ruleAlts[rule].push(this.kind.length);
      this.addPosition(unit[0], unit[1]);
      this.addPosition(REF, rule);
      this.addPosition(END, -1);
      this.ruleAlts[rule].push(this.kind.length);
      this.addPosition(END, -1);
      out.push([REF, rule]);
    } else if (max > min) {
      let inner = -1;
      const chain: number[] = [];
      this.countedChains.push(chain);
      for (let k = 0; k < max - min; k++) {
        const rule = this.newRule();
        chain.push(rule);
        this.ruleAlts[rule].push(this.kind.length);
        this.addPosition(unit[0], unit[1]);
        if (inner >= 0) this.addPosition(REF, inner);
        this.addPosition(END, -1);
        this.ruleAlts[rule].push(this.kind.length);
        this.addPosition(END, -1);
        inner = rule;
      }
      out.push([REF, inner]);
    }
    return out;
  }

  /** One element standing for an expression: a character element, a rule reference, or a new rule. */
  private single(expr: Expr, names: Map<string, number>): [number, number] {
    const elements = this.elements(expr, names);
    if (elements.length === 1) return elements[0];
    const rule = this.newRule();
    this.ruleAlts[rule].push(this.kind.length);
    for (const [kind, arg] of elements) this.addPosition(kind, arg);
    this.addPosition(END, -1);
    return [REF, rule];
  }

  private readonly charSetIds = new Map<string, number>();

  private charSet(ranges: CharRanges, negated: boolean): number {
    const key = `${negated ? '^' : ''}${ranges.map(([lo, hi]) => `${lo}-${hi}`).join(',')}`;
    let id = this.charSetIds.get(key);
    if (id === undefined) {
      id = this.charSets.length;
      this.charSets.push({ ranges, negated });
      this.charSetIds.set(key, id);
    }
    return id;
  }

  private classBounds(): Int32Array {
    const cuts = new Set<number>([0]);
    for (const { ranges } of this.charSets) {
      for (const [lo, hi] of ranges) {
        cuts.add(lo);
        if (hi < MAX_CODE_POINT) cuts.add(hi + 1);
      }
    }
    return Int32Array.from([...cuts].sort((a, b) => a - b));
  }

  private matchTable(set: { ranges: CharRanges; negated: boolean }): Uint8Array {
    const table = new Uint8Array(this.bounds.length);
    for (let c = 0; c < this.bounds.length; c++)
      table[c] = rangesContain(set.ranges, this.bounds[c]) !== set.negated ? 1 : 0;
    return table;
  }

  // ---- stacks and states ---------------------------------------------------------------------

  private pushStack(top: number, rest: number): number {
    const key = rest * this.kind.length + top;
    let id = this.stackIds.get(key);
    if (id === undefined) {
      id = this.stackTop.length;
      this.stackTop.push(top);
      this.stackRest.push(rest);
      this.stackIds.set(key, id);
    }
    return id;
  }

  /** The stacks after entering rule `rule` with `rest` below it. */
  private expandFrom(rule: number, rest: number): number[] {
    const out = new Set<number>();
    for (const alt of this.ruleAlts[rule]) {
      const stack = this.kind[alt] === END ? rest : this.pushStack(alt, rest);
      for (const s of this.expand(stack)) out.add(s);
    }
    return [...out];
  }

  /**
   * llama_grammar_advance_stack, memoised: the canonical stacks (a character element on top, or
   * empty) a stack stands for. A cycle of empty alternatives adds nothing and is cut.
   */
  private expand(stack: number): readonly number[] {
    const cached = this.expansions.get(stack);
    if (cached) return cached;
    const out = new Set<number>();
    const visiting = new Set<number>();
    const walk = (s: number) => {
      if (s === 0 || this.kind[this.stackTop[s]] === CHAR) {
        out.add(s);
        return;
      }
      const done = this.expansions.get(s);
      if (done) {
        for (const d of done) out.add(d);
        return;
      }
      if (visiting.has(s)) return;
      visiting.add(s);
      const top = this.stackTop[s];
      const rest = this.kind[top + 1] === END ? this.stackRest[s] : this.pushStack(top + 1, this.stackRest[s]);
      for (const alt of this.ruleAlts[this.arg[top]]) walk(this.kind[alt] === END ? rest : this.pushStack(alt, rest));
      visiting.delete(s);
      if (out.size > MAX_STACKS_PER_STATE)
        throw new AutomatonLimitError(
          `the grammar is too ambiguous for constrained decoding: more than ${MAX_STACKS_PER_STATE} parses at one point`,
        );
    };
    walk(stack);
    const result = [...out];
    this.expansions.set(stack, result);
    return result;
  }

  /** The state of a set of stacks (sorted and deduplicated in place). */
  private internState(stacks: number[]): number {
    stacks.sort((a, b) => a - b);
    let n = 0;
    for (let i = 0; i < stacks.length; i++) if (i === 0 || stacks[i] !== stacks[n - 1]) stacks[n++] = stacks[i];
    stacks.length = n;
    if (n > MAX_STACKS_PER_STATE)
      throw new AutomatonLimitError(
        `the grammar is too ambiguous for constrained decoding: more than ${MAX_STACKS_PER_STATE} parses at one point`,
      );
    let hash = n;
    for (const stack of stacks) hash = Math.imul(hash ^ stack, 0x9e3779b1) ^ (hash >>> 15);
    let bucket = this.stateIds.get(hash);
    if (bucket) {
      for (const id of bucket) if (sameStacks(this.stateStacks[id], stacks)) return id;
    } else this.stateIds.set(hash, (bucket = []));
    if (this.stateStacks.length >= MAX_STATES)
      throw new AutomatonLimitError(`the grammar needs more than ${MAX_STATES} parse states`);
    const id = this.stateStacks.length;
    this.stateStacks.push(stacks);
    bucket.push(id);
    this.accepting.push(stacks[0] === 0);
    const classes = this.bounds.length;
    if (this.transitions.length < (id + 1) * classes) {
      const grown = new Int32Array(Math.max(64 * classes, this.transitions.length * 2));
      grown.set(this.transitions);
      this.transitions = grown;
    }
    this.fillRow(stacks, id * classes);
    return id;
  }

  /**
   * A state's transition row before any step: UNKNOWN for the lowest class of each group of classes
   * that every stack top treats alike, SAME_AS - c for the others (c their group's lowest), so a
   * group's next state is computed once (a string's character classes are dozens, one next state).
   */
  private fillRow(stacks: readonly number[], offset: number): void {
    const classes = this.bounds.length;
    const row = this.transitions.subarray(offset, offset + classes).fill(UNKNOWN);
    // Partition refinement over the distinct character elements on top, in scratch buffers (a
    // typed array of its own per state would be garbage at once).
    const { group, renumber, lowest, setSeen } = (this.rowScratch ??= {
      group: new Int32Array(classes),
      renumber: new Int32Array(2 * classes),
      lowest: new Int32Array(classes),
      setSeen: new Int32Array(this.charSets.length),
      epoch: 0,
    });
    const epoch = ++this.rowScratch.epoch;
    group.fill(0);
    let groups = 1;
    for (const stack of stacks) {
      if (stack === 0) continue;
      const set = this.arg[this.stackTop[stack]];
      if (setSeen[set] === epoch) continue;
      setSeen[set] = epoch;
      const matches = this.charMatches[set];
      renumber.fill(-1, 0, 2 * groups);
      let next = 0;
      for (let c = 0; c < classes; c++) {
        const k = group[c] * 2 + matches[c];
        if (renumber[k] < 0) renumber[k] = next++;
        group[c] = renumber[k];
      }
      groups = next;
      if (groups === classes) return;
    }
    lowest.fill(-1, 0, groups);
    for (let c = 0; c < classes; c++) {
      if (lowest[group[c]] < 0) lowest[group[c]] = c;
      else row[c] = SAME_AS - lowest[group[c]];
    }
  }

  private rowScratch?: {
    group: Int32Array;
    renumber: Int32Array;
    lowest: Int32Array;
    setSeen: Int32Array;
    epoch: number;
  };

  // ---- counted repetitions cut to a depth (equivalentState) ------------------------------------

  /** Per repetition expanded into nested optionals (x{0,n}): its rules, the innermost (one unit left) first. */
  private readonly countedChains: number[][] = [];
  private cut?: { depth: number; position: Int32Array; stacks: Map<number, number>; states: Map<number, number> };

  /**
   * Per position, the position it stands for when counted repetitions are cut to `depth` units
   * left: in a run of one element written n times in a row (x{n} and x{m,n} write their m copies
   * so, a literal "aaaa" too), a position with more than `depth` left goes to the one with
   * `depth` left; in nested optionals (x{0,n}), a rule with more than `depth` units left goes to
   * the one with `depth`. Only for units of at least one character, so no string of fewer than
   * `depth` characters reaches the end of either.
   */
  private cutPositions(depth: number): Int32Array {
    const n = this.kind.length;
    const position = Int32Array.from({ length: n }, (_, p) => p);
    const minRule = this.minLengths().rule;
    const consumes = (p: number) => this.kind[p] === CHAR || (this.kind[p] === REF && minRule[this.arg[p]] > 0);
    for (let p = 0; p < n;) {
      if (!consumes(p)) {
        p++;
        continue;
      }
      let end = p + 1;
      while (end < n && this.kind[end] === this.kind[p] && this.arg[end] === this.arg[p]) end++;
      for (let i = p; i < end - depth; i++) position[i] = end - depth;
      p = end;
    }
    for (const chain of this.countedChains) {
      // Each rule's first alternative is [unit, REF to the rule with one unit less, END] (the
      // innermost's [unit, END]); depth >= 2, so the target has the same layout.
      if (chain.length <= depth || !consumes(this.ruleAlts[chain[0]][0])) continue;
      const target = this.ruleAlts[chain[depth - 1]][0];
      for (let j = depth; j < chain.length; j++) {
        const start = this.ruleAlts[chain[j]][0];
        position[start] = target;
        position[start + 1] = target + 1;
      }
    }
    return position;
  }

  /** A stack with each position cut. */
  private cutStack(stack: number, cut: { position: Int32Array; stacks: Map<number, number> }): number {
    return this.overStack(stack, cut.stacks, 0, (s, below) => {
      const top = cut.position[this.stackTop[s]];
      return top === this.stackTop[s] && below === this.stackRest[s] ? s : this.pushStack(top, below);
    });
  }

  /**
   * A value of a stack made from its top and its rest's value, memoised per stack in `memo` and
   * filled from the deepest stack not yet known up (a loop: stacks run thousands deep).
   */
  private overStack<V>(stack: number, memo: Map<number, V>, empty: V, combine: (stack: number, below: V) => V): V {
    const pending: number[] = [];
    let s = stack;
    for (; s !== 0 && !memo.has(s); s = this.stackRest[s]) pending.push(s);
    let below = s === 0 ? empty : memo.get(s)!;
    for (let i = pending.length - 1; i >= 0; i--) {
      below = combine(pending[i], below);
      memo.set(pending[i], below);
    }
    return below;
  }

  // ---- shortest completions --------------------------------------------------------------------

  private lengths?: { rule: number[]; choice: number[] };

  /** Shortest string length per rule (code points), and which alternative gives it (fixpoint). */
  private minLengths(): { rule: number[]; choice: number[] } {
    if (this.lengths) return this.lengths;
    const rule = this.ruleAlts.map(() => Infinity);
    const choice = this.ruleAlts.map(() => -1);
    let changed = true;
    while (changed) {
      changed = false;
      this.ruleAlts.forEach((alts, r) => {
        alts.forEach((start, i) => {
          const length = this.restLength(start, rule);
          if (length < rule[r]) {
            rule[r] = length;
            choice[r] = i;
            changed = true;
          }
        });
      });
    }
    this.lengths = { rule, choice };
    return this.lengths;
  }

  private restLength(position: number, rule: number[]): number {
    let total = 0;
    for (let p = position; this.kind[p] !== END; p++) total += this.kind[p] === CHAR ? 1 : rule[this.arg[p]];
    return total;
  }

  private lowestChar(set: number): number {
    const { ranges, negated } = this.charSets[set];
    if (!negated) return ranges[0][0] === 0 && ranges[0][1] > 0 ? 1 : ranges[0][0];
    // The lowest code point outside the excluded ranges, from 0x20 (a control character is seldom wanted).
    for (const start of [0x20, 1]) {
      let c = start;
      for (const [lo, hi] of ranges) if (c >= lo && c <= hi) c = hi + 1;
      if (c <= MAX_CODE_POINT && !rangesContain(ranges, c) && !(c >= 0xd800 && c <= 0xdfff)) return c;
    }
    return 0x20;
  }

  /** completeStack's answers per stack: stacks are shared by many states (what follows a string, an object). */
  private readonly stackCompletions = new Map<number, Completion | null>();

  /** The completion of a stack: its top's, then its rest's. */
  private completeStack(stack: number, lengths: { rule: number[]; choice: number[] }): Completion | null {
    return this.overStack<Completion | null>(stack, this.stackCompletions, { text: '', length: 0 }, (s, below) => {
      if (below === null) return null;
      const piece = this.completeFrom(this.stackTop[s], lengths, 0);
      return piece === null ? null : { text: piece + below.text, length: codePointsOf(piece).length + below.length };
    });
  }

  private completeFrom(position: number, lengths: { rule: number[]; choice: number[] }, depth: number): string | null {
    if (depth > 10_000) return null;
    let text = '';
    for (let p = position; this.kind[p] !== END; p++) {
      if (this.kind[p] === CHAR) text += String.fromCodePoint(this.lowestChar(this.arg[p]));
      else {
        const r = this.arg[p];
        if (lengths.choice[r] < 0) return null;
        const piece = this.completeFrom(this.ruleAlts[r][lengths.choice[r]], lengths, depth + 1);
        if (piece === null) return null;
        text += piece;
      }
    }
    return text;
  }
}
