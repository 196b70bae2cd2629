// The set of tokens a grammar allows next, for a whole vocabulary at once.
//
// Per vocabulary (once, at the engine's load): every token's bytes decoded as llama.cpp's grammar
// decodes them (utf8.ts), and the tokens in a trie over their code points (plus, at a token's end,
// an unfinished character), each node knowing which characters its subtree holds. Per grammar:
// nothing per token. A full mask is one walk of the shared trie from a state, each edge a memoised
// transition on the code point's class; a subtree whose characters all keep the walk alive (a
// string's characters, a number's digits) is taken whole without descending, so the walk stays far
// smaller than the vocabulary (like llguidance's and XGrammar's token tries, shared across grammars).
// Masks are cached per state (states repeat: inside a string, after a comma).
//
// What is allowed is what llama.cpp's grammar allows, with two differences on purpose: a token that
// prints nothing (control tokens, which llama.cpp's grammar reads as their special text) and a token
// with a byte that never occurs in UTF-8 are never allowed, and an end-of-generation token only
// where the grammar is complete.
//
// The vocabulary's bytes are vocabulary.ts, its trie trie.ts, a mask's bitset token-mask.ts; this
// file is the walk that makes a mask, and the caches that keep them.
//
// Pure: no Node or node-llama-cpp APIs.

import { Automaton, DEAD } from '../automaton/automaton.js';
import { TokenMask } from './token-mask.js';
import { PARTIAL, VocabularyTrie, type Summary, type WideNode } from './trie.js';
import { latin1, usable, type DecodedVocabulary } from './vocabulary.js';
import { decodeLlama, type Partial } from './utf8.js';

/** A position of a generation under a grammar: the automaton state and any unfinished character. */
export interface Position extends Partial {
  readonly state: number;
}

/** A position's key in the per-position caches (the state alone where no character is unfinished). */
const positionKey = ({ state, value, remain }: Position): string | number =>
  remain === 0 ? state : `${state}:${value}:${remain}`;

/** A state's chain (TokenMasker.chainOf) is looked at only for subtrees of at least this many nodes: smaller ones are walked faster. */
const CHAIN_MIN_NODES = 32;
/**
 * The most states a closure (TokenMasker.closureOf) explores: `.*end` needs a handful, and a counted
 * repetition or nesting never closes (with 64, a long bounded string's first mask built hundreds of
 * states to learn that, once per state walked).
 */
const CLOSURE_STATES = 16;
/** States whose chains and closures are cached per masker. */
const CHAIN_CACHE_STATES = 4096;

/** Keeps `value` for `key` in a cache of at most CHAIN_CACHE_STATES (cleared when full), and returns it. */
function keep<V>(cache: Map<number, V>, key: number, value: V): V {
  if (cache.size >= CHAIN_CACHE_STATES) cache.clear();
  cache.set(key, value);
  return value;
}

/** States whose answers for partial symbols are cached per masker (about 1 KiB each on qwen2's vocabulary). */
const PARTIAL_CACHE_STATES = 4096;

/**
 * Cached masks per masker: at most this many bytes of bitsets, the least recently used going first
 * (on qwen2's vocabulary 860 masks, more parse states than a generation of a few hundred tokens
 * meets; 8 maskers per engine hold 128 MiB at most).
 */
const MASK_CACHE_BYTES = 16 * 2 ** 20;
/** What a cached position costs besides its mask (a Map entry): positions sharing one mask are counted too. */
const MASK_KEY_BYTES = 64;

/**
 * A set of a grammar's character classes, in the form a trie node's subtree is checked against:
 * the ASCII code points it holds, the runs of consecutive classes in it (so a subtree's non-ASCII
 * span is inside when one run covers it), and whether it takes any unfinished character.
 */
interface ClassSet {
  ascii: Int32Array;
  /** Per class: the last class of the run of members it starts, or -1 where it is no member. */
  runEnd: Int32Array;
  partials: boolean;
  /** Per class c: how many members come before it (count[classes] in all). */
  count: Int32Array;
}

interface Chain {
  classes: ClassSet;
  length: number;
}

export class TokenMasker {
  private readonly trie: VocabularyTrie;
  /**
   * Per state, whether it accepts each partial symbol: 0 not yet known, 1 yes, 2 no. A cache of at
   * most PARTIAL_CACHE_STATES states (cleared when full): a long string passes through thousands of
   * states, and a vocabulary has hundreds of partials (991 in qwen2's); one Map entry per pair
   * outgrew a Map's 16.7M entries.
   */
  private readonly partialAccept = new Map<number, Uint8Array>();
  private readonly masks = new Map<string | number, TokenMask>();
  /**
   * The distinct masks held, by hash: positions that allow the same tokens share one mask, and so
   * its configured sampler (every character of a long string but the last few, many a comma).
   */
  private readonly distinct = new Map<number, TokenMask[]>();
  /** Per distinct mask held, the positions holding it. */
  private readonly holders = new Map<TokenMask, number>();
  private maskBytes = 0;
  private readonly plans = new Map<string | number, readonly number[] | null>();
  /** The class of each code point of the Basic Multilingual Plane, filled as the walks meet them (-1 not yet). */
  private readonly bmpClass = new Int32Array(0x10000).fill(-1);
  private readonly astralClass = new Map<number, number>();

  constructor(
    readonly automaton: Automaton,
    readonly vocabulary: DecodedVocabulary,
    /** Bytes of cached masks at most (a smaller budget lets the tests see masks evicted). */
    private readonly cacheBytes = MASK_CACHE_BYTES,
  ) {
    this.trie = vocabulary.trie;
  }

  /** Trie nodes (for the bench): the vocabulary's, shared by every grammar. */
  get nodes(): number {
    return this.trie.nodes;
  }

  private classOf(cp: number): number {
    if (cp < 0x10000) {
      let c = this.bmpClass[cp];
      if (c < 0) this.bmpClass[cp] = c = this.automaton.classOf(cp);
      return c;
    }
    let c = this.astralClass.get(cp);
    if (c === undefined) this.astralClass.set(cp, (c = this.automaton.classOf(cp)));
    return c;
  }

  /** Per state: the classes that lead back to it, and whether it accepts every unfinished character. */
  private readonly loops = new Map<number, ClassSet>();
  /** Closures (closureOf) of the states walked from, a cache of at most CHAIN_CACHE_STATES. */
  private readonly closures = new Map<number, ClassSet>();
  /** Chains (chainOf) of the states walked from, a cache of at most CHAIN_CACHE_STATES. */
  private readonly chains = new Map<number, Chain>();

  /** The self-loop set of a state: a subtree made only of these classes is accepted whole, staying in the state. */
  private loopsOf(state: number): ClassSet {
    let loop = this.loops.get(state);
    if (loop) return loop;
    const a = this.automaton;
    const staying: number[] = [];
    for (let c = 0; c < a.classes; c++) if (a.step(state, c) === state) staying.push(c);
    const { partialValue, partialRemain } = this.trie;
    let partialsOk = partialValue.length > 0;
    for (let p = 0; p < partialValue.length && partialsOk; p++)
      partialsOk = a.acceptsPartial(state, partialValue[p], partialRemain[p]);
    loop = this.classSet(staying, partialsOk);
    this.loops.set(state, loop);
    return loop;
  }

  /**
   * The chain of a state: the classes that all lead to one next state, from which they all lead to
   * one next state again, and so on, and for how many characters (at most the trie's height). A
   * counted repetition (a string with maxLength: every character a new state) is such a chain as
   * long as the count leaves room, so a subtree of those classes no deeper than the chain is
   * accepted whole, where the self-loop shortcut never applies.
   */
  private chainOf(state: number): Chain {
    return this.chains.get(state) ?? keep(this.chains, state, this.chainFrom(state));
  }

  private chainFrom(state: number): Chain {
    const a = this.automaton;
    const sharing = new Map<number, number>();
    for (let c = 0; c < a.classes; c++) {
      const next = a.step(state, c);
      if (next !== DEAD) sharing.set(next, (sharing.get(next) ?? 0) + 1);
    }
    let common = DEAD;
    let most = 0;
    for (const [next, count] of sharing) if (count > most) [common, most] = [next, count];
    const members: number[] = [];
    for (let c = 0; c < a.classes && common !== DEAD; c++) if (a.step(state, c) === common) members.push(c);
    let length = 0;
    for (let at = state; members.length > 0 && length < this.trie.height[0]; length++) {
      const next = a.step(at, members[0]);
      if (next === DEAD || members.some((c) => a.step(at, c) !== next)) break;
      at = next;
    }
    return { classes: this.classSet(members, false), length };
  }

  /**
   * The closure of a state: classes C such that from every state reachable from it through C, each
   * class of C leads to a live state (again within reach): a subtree of C's classes is then accepted
   * whole. Found by exploring at most CLOSURE_STATES states, again after a class that dies somewhere
   * is dropped, until none is (the states explored are always a superset of those C reaches, so what
   * is kept is sound); empty beyond that many states.
   */
  private closureOf(state: number): ClassSet {
    return this.closures.get(state) ?? keep(this.closures, state, this.closureFrom(state));
  }

  private closureFrom(state: number): ClassSet {
    const a = this.automaton;
    const members = new Set<number>();
    for (let c = 0; c < a.classes; c++) if (a.step(state, c) !== DEAD) members.add(c);
    // Explore again whenever a class was dropped: states reached only through it may hold others back.
    for (let dropped = true; dropped && members.size > 0;) {
      dropped = false;
      const reached = new Set<number>([state]);
      const todo = [state];
      while (todo.length > 0 && members.size > 0) {
        const at = todo.pop()!;
        for (const c of members) {
          const next = a.step(at, c);
          if (next === DEAD) {
            members.delete(c);
            dropped = true;
          } else if (!reached.has(next)) {
            reached.add(next);
            todo.push(next);
          }
        }
        if (reached.size > CLOSURE_STATES) members.clear();
      }
    }
    return this.classSet(members, false);
  }

  /** A set of character classes as trie subtrees are checked against it. */
  private classSet(members: Iterable<number>, partials: boolean): ClassSet {
    const classes = this.automaton.classes;
    const member = new Uint8Array(classes);
    for (const c of members) member[c] = 1;
    const ascii = new Int32Array(4);
    for (let cp = 0; cp < 0x80; cp++) if (member[this.classOf(cp)]) ascii[cp >>> 5] |= 1 << (cp & 31);
    const runEnd = new Int32Array(classes);
    for (let c = classes - 1; c >= 0; c--)
      runEnd[c] = member[c] ? (c + 1 < classes && member[c + 1] ? runEnd[c + 1] : c) : -1;
    const count = new Int32Array(classes + 1);
    for (let c = 0; c < classes; c++) count[c + 1] = count[c] + member[c];
    return { ascii, runEnd, partials, count };
  }

  /** Whether every symbol in the subtree at `node` is in `set`. */
  private within(node: number, set: ClassSet): boolean {
    const t = this.trie;
    return this.holds(t.ascii, node * 4, t.nonAsciiLow[node], t.nonAsciiHigh[node], t.hasPartial[node], set);
  }

  /** Whether subtrees holding these ASCII code points (4 words at ascii[base]), this span of others and maybe unfinished characters are inside `set`. */
  private holds(ascii: Int32Array, base: number, low: number, high: number, partial: number, set: ClassSet): boolean {
    for (let w = 0; w < 4; w++) if ((ascii[base + w] & ~set.ascii[w]) !== 0) return false;
    if (partial === 1 && !set.partials) return false;
    // Classes are ranges of code points: the span is inside when one run of member classes covers it.
    return low < 0 || set.runEnd[this.classOf(low)] >= this.classOf(high);
  }

  get initial(): Position {
    return { state: this.automaton.initial, value: 0, remain: 0 };
  }

  /** The output so far is complete: an accepting state, and no character left half-written. */
  isComplete(position: Position): boolean {
    return position.remain === 0 && this.automaton.isAccepting(position.state);
  }

  /** Complete, and the grammar allows no more: the only token the mask allows is end-of-generation. */
  isFinal(position: Position): boolean {
    return position.remain === 0 && this.automaton.isFinal(position.state);
  }

  /** The position after a token, or null when the grammar does not allow it there. */
  advance(position: Position, token: number): Position | null {
    const v = this.vocabulary;
    if (v.eog[token]) return this.isComplete(position) ? position : null;
    const bytes = v.bytes[token];
    if (!usable(bytes)) return null;
    const a = this.automaton;
    let state = position.state;
    let value: number;
    let remain: number;
    if (position.remain === 0) {
      if (v.cpLength[token] === 0 && v.tailRemain[token] === 0) return null; // not startable (aborts)
      const start = v.cpStart[token];
      for (let i = 0; i < v.cpLength[token] && state !== DEAD; i++)
        state = a.step(state, a.classOf(v.codePoints[start + i]));
      value = v.tailValue[token];
      remain = v.tailRemain[token];
    } else {
      const decoded = decodeLlama(bytes, position.value, position.remain);
      if (decoded.aborted || decoded.codePoints.includes(0)) return null;
      for (const cp of decoded.codePoints) {
        if (state === DEAD) break;
        state = a.step(state, a.classOf(cp));
      }
      value = decoded.value;
      remain = decoded.remain;
    }
    if (state === DEAD) return null;
    if (remain > 0 && !a.acceptsPartial(state, value, remain)) return null;
    return { state, value: remain > 0 ? value : 0, remain };
  }

  allows(position: Position, token: number): boolean {
    return this.advance(position, token) !== null;
  }

  /** The mask of a position when it is cached (the same object mask() returns), else undefined; computes nothing. */
  cachedMask(position: Position): TokenMask | undefined {
    return this.masks.get(positionKey({ ...position, state: this.cutState(position.state) }));
  }

  /**
   * A state that allows the same tokens: counted repetitions cut to one unit more than a token has
   * bytes (Automaton.equivalentState), so to more characters than any token writes.
   */
  private cutState(state: number): number {
    return this.automaton.equivalentState(state, this.vocabulary.maxBytes + 1);
  }

  /** The tokens the grammar allows at a position, cached per position. */
  mask(position: Position): TokenMask {
    // Keyed by the cut state, so the characters of a long bounded string share one key.
    const cut = this.cutState(position.state);
    const key = positionKey({ ...position, state: cut });
    const cached = this.masks.get(key);
    if (cached) {
      this.masks.delete(key);
      this.masks.set(key, cached);
      return cached;
    }
    const bits = new Uint32Array((this.vocabulary.size + 31) >>> 5);
    // The walk from the cut state: it allows the same tokens, and its subtrees repeat less.
    if (position.remain === 0) this.walk(cut, bits);
    else this.checkEach(position, bits);
    const mask = this.hold(new TokenMask(bits, this.vocabulary.size));
    this.masks.set(key, mask);
    this.maskBytes += MASK_KEY_BYTES;
    while (this.maskBytes > this.cacheBytes && this.masks.size > 1) {
      const [oldest, old] = this.masks.entries().next().value as [string | number, TokenMask];
      this.masks.delete(oldest);
      this.maskBytes -= MASK_KEY_BYTES;
      this.drop(old);
    }
    return mask;
  }

  /** The mask held that allows what `mask` allows (else `mask`, now held), held by one more position. */
  private hold(mask: TokenMask): TokenMask {
    let same = this.distinct.get(mask.hash);
    if (!same) this.distinct.set(mask.hash, (same = []));
    let held = same.find((m) => m.equals(mask));
    if (!held) {
      same.push((held = mask));
      this.maskBytes += mask.bits.byteLength;
    }
    this.holders.set(held, (this.holders.get(held) ?? 0) + 1);
    return held;
  }

  /** One position fewer holds `mask`; the last one lets it go. */
  private drop(mask: TokenMask): void {
    const left = this.holders.get(mask)! - 1;
    if (left > 0) {
      this.holders.set(mask, left);
      return;
    }
    this.holders.delete(mask);
    const same = this.distinct.get(mask.hash)!;
    same.splice(same.indexOf(mask), 1);
    if (same.length === 0) this.distinct.delete(mask.hash);
    this.maskBytes -= mask.bits.byteLength;
  }

  /** The allowed tokens computed token by token over the whole vocabulary, without the trie or any cache: the reference the tests compare against. */
  allowedByEachToken(position: Position): Uint8Array {
    const out = new Uint8Array(this.vocabulary.size);
    for (let t = 0; t < out.length; t++) if (this.advance(position, t)) out[t] = 1;
    return out;
  }

  /** Number of masks held (for the bench). */
  get cachedMasks(): number {
    return this.masks.size;
  }

  private allowEog(bits: Uint32Array, state: number): void {
    if (!this.automaton.isAccepting(state)) return;
    for (const t of this.vocabulary.eogTokens) bits[t >>> 5] |= 1 << (t & 31);
  }

  /** Allows the tokens ending at nodes from..to-1 (a subtree, in preorder). */
  private allowNodes(bits: Uint32Array, from: number, to: number): void {
    const { tokenStart, nodeTokens } = this.trie;
    for (let i = tokenStart[from]; i < tokenStart[to]; i++) {
      const t = nodeTokens[i];
      bits[t >>> 5] |= 1 << (t & 31);
    }
  }

  /** Whether every token of the subtree at `node`, reached from state `at` through `next`, is alive without walking it. */
  private acceptedWhole(node: number, at: number, next: number): boolean {
    // Every token below stays in this state (a string's characters, a number's digits).
    if (next === at && this.within(node, this.loopsOf(at))) return true;
    if (this.trie.subtreeEnd[node] - node < CHAIN_MIN_NODES) return false;
    // Every token below stays on the chain (a bounded string's characters, the bound not reached).
    const chain = this.chainOf(at);
    if (this.trie.height[node] <= chain.length && this.within(node, chain.classes)) return true;
    // Every token below stays among a few states that no class of it leaves (`.*end`).
    return this.within(node, this.closureOf(at));
  }

  /**
   * Puts (node, state) on the walk's stack, unless no child of the node can follow in that state:
   * then only the tokens ending at the node are allowed, without looking at each child (after a
   * broad class, most of the vocabulary's second characters are refused: `\D\W` walked 17 ms).
   * Returns the stack's new top.
   */
  private descend(node: number, state: number, bits: Uint32Array, top: number): number {
    const t = this.trie;
    if (t.partialChild[node] === 0 && !this.anyChildIn(node, this.aliveOf(state))) {
      this.allowNodes(bits, node, node + 1);
      return top;
    }
    t.walkNodes[top] = node;
    t.walkStates[top] = state;
    return top + 1;
  }

  /** Whether some child of `node` leads by a class of `set`. */
  private anyChildIn(node: number, set: ClassSet): boolean {
    const t = this.trie;
    const base = node * 4;
    for (let w = 0; w < 4; w++) if ((t.childAscii[base + w] & set.ascii[w]) !== 0) return true;
    const low = t.childLow[node];
    return low >= 0 && set.count[this.classOf(t.childHigh[node]) + 1] - set.count[this.classOf(low)] > 0;
  }

  /** The classes that lead somewhere from a state (a cache of at most CHAIN_CACHE_STATES). */
  private aliveOf(state: number): ClassSet {
    return this.alive.get(state) ?? keep(this.alive, state, this.aliveFrom(state));
  }

  private aliveFrom(state: number): ClassSet {
    const a = this.automaton;
    const members: number[] = [];
    for (let c = 0; c < a.classes; c++) if (a.step(state, c) !== DEAD) members.push(c);
    return this.classSet(members, true);
  }

  private readonly alive = new Map<number, ClassSet>();

  /** One walk of the trie from a state (no unfinished character), allowing into `bits`. */
  private walk(state: number, bits: Uint32Array): void {
    const a = this.automaton;
    const {
      firstChild,
      nextSibling,
      symbol,
      subtreeEnd,
      partialValue,
      partialRemain,
      walkNodes: nodeStack,
      walkStates: stateStack,
    } = this.trie;
    this.allowEog(bits, state);
    let top = 0;
    nodeStack[top] = 0;
    stateStack[top++] = state;
    while (top > 0) {
      const node = nodeStack[--top];
      const at = stateStack[top];
      this.allowNodes(bits, node, node + 1);
      const wide = this.trie.wide.get(node);
      if (wide) {
        top = this.walkWide(wide, at, bits, top);
        continue;
      }
      for (let c = firstChild[node]; c >= 0; c = nextSibling[c]) {
        const sym = symbol[c];
        if (sym < PARTIAL) {
          const next = a.step(at, this.classOf(sym));
          if (next === DEAD) continue;
          if (this.acceptedWhole(c, at, next)) {
            this.allowNodes(bits, c, subtreeEnd[c]);
            continue;
          }
          top = this.descend(c, next, bits, top);
        } else {
          const p = sym - PARTIAL;
          let known = this.partialAccept.get(at);
          if (!known) {
            if (this.partialAccept.size >= PARTIAL_CACHE_STATES) this.partialAccept.clear();
            this.partialAccept.set(at, (known = new Uint8Array(partialValue.length)));
          }
          if (known[p] === 0) known[p] = a.acceptsPartial(at, partialValue[p], partialRemain[p]) ? 1 : 2;
          if (known[p] === 1) this.allowNodes(bits, c, c + 1);
        }
      }
    }
  }

  /** A wide node's children from a state, by runs of one class; returns the stack's new top. */
  private walkWide(w: WideNode, at: number, bits: Uint32Array, top: number): number {
    const a = this.automaton;
    const bounds = a.bounds;
    const cps = w.codePoints;
    const n = cps.length;
    for (let i = 0; i < n;) {
      const cls = this.classOf(cps[i]);
      // The run: the children whose code points are in the class's range.
      const end = cls + 1 < bounds.length ? bounds[cls + 1] : PARTIAL;
      let lo = i + 1;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cps[mid] < end) lo = mid + 1;
        else hi = mid;
      }
      const next = a.step(at, cls);
      if (next !== DEAD) top = this.walkRun(w, i, lo, at, next, bits, top);
      i = lo;
    }
    const { partialValue, partialRemain, symbol } = this.trie;
    for (const c of w.partials) {
      const p = symbol[c] - PARTIAL;
      if (a.acceptsPartial(at, partialValue[p], partialRemain[p])) this.allowNodes(bits, c, c + 1);
    }
    return top;
  }

  /** Children i..j-1 of a wide node, all of one class leading from `at` to `next`: taken whole where they can be, else split. */
  private walkRun(w: WideNode, i: number, j: number, at: number, next: number, bits: Uint32Array, top: number): number {
    const t = this.trie;
    const first = w.children[i];
    const end = t.subtreeEnd[w.children[j - 1]];
    if (this.runAcceptedWhole(w, i, j, end - first, at, next)) {
      this.allowNodes(bits, first, end);
      return top;
    }
    if (j - i <= 4) {
      for (let k = i; k < j; k++) {
        const c = w.children[k];
        if (this.acceptedWhole(c, at, next)) this.allowNodes(bits, c, t.subtreeEnd[c]);
        else top = this.descend(c, next, bits, top);
      }
      return top;
    }
    const mid = (i + j) >>> 1;
    top = this.walkRun(w, i, mid, at, next, bits, top);
    return this.walkRun(w, mid, j, at, next, bits, top);
  }

  /** acceptedWhole for a run of a wide node's children, of `nodes` nodes in all. */
  private runAcceptedWhole(w: WideNode, i: number, j: number, nodes: number, at: number, next: number): boolean {
    const sum = this.trie.summarize(w, i, j, this.summary);
    if (next === at && this.holds(sum.ascii, 0, sum.low, sum.high, sum.partial, this.loopsOf(at))) return true;
    if (nodes < CHAIN_MIN_NODES) return false;
    const chain = this.chainOf(at);
    if (sum.height <= chain.length && this.holds(sum.ascii, 0, sum.low, sum.high, sum.partial, chain.classes))
      return true;
    return this.holds(sum.ascii, 0, sum.low, sum.high, sum.partial, this.closureOf(at));
  }

  /** runAcceptedWhole's summary, reused. */
  private readonly summary: Summary = { ascii: new Int32Array(4), low: -1, high: -1, partial: 0, height: 0 };

  /** With an unfinished character, only tokens starting with continuation bytes can follow: each is checked. */
  private checkEach(position: Position, bits: Uint32Array): void {
    // A character is half-written here (checkEach serves those positions only): no end of generation.
    for (const t of this.vocabulary.continuing) if (this.advance(position, t)) bits[t >>> 5] |= 1 << (t & 31);
  }

  /**
   * The fewest tokens this masker knows to complete the grammar from a position, in order: a
   * shortest completion (in characters) spelled with the longest tokens the grammar allows at each
   * step. Null when none is found (a vocabulary that cannot spell it). Cached per position.
   */
  completion(position: Position): readonly number[] | null {
    const key = positionKey(position);
    if (this.plans.has(key)) return this.plans.get(key)!;
    const plan = this.plan(position);
    this.plans.set(key, plan);
    return plan;
  }

  private plan(position: Position): number[] | null {
    const a = this.automaton;
    const tokens: number[] = [];
    let at = position;
    // First finish an unfinished character with single continuation bytes: the lowest that leads on.
    while (at.remain > 0) {
      let next: Position | null = null;
      for (let byte = 0x80; byte <= 0xbf && !next; byte++) {
        const token = this.vocabulary.spelling.get(String.fromCharCode(byte));
        if (token === undefined) continue;
        const after = this.advance(at, token);
        if (after && (after.remain > 0 || a.shortestCompletion(after.state) !== null)) {
          tokens.push(token);
          next = after;
        }
      }
      if (!next) return null;
      at = next;
    }
    const text = a.shortestCompletion(at.state);
    if (text === null) return null;
    // The bytes as one latin1 string: each candidate spelling is a slice of it.
    const bytes = latin1(new TextEncoder().encode(text));
    let i = 0;
    while (i < bytes.length) {
      let taken = false;
      for (let len = Math.min(this.vocabulary.maxSpell, bytes.length - i); len >= 1 && !taken; len--) {
        const token = this.vocabulary.spelling.get(bytes.slice(i, i + len));
        if (token === undefined) continue;
        const after = this.advance(at, token);
        if (!after) continue;
        tokens.push(token);
        at = after;
        i += len;
        taken = true;
      }
      if (!taken) return null;
    }
    return at.remain === 0 && a.isAccepting(at.state) ? tokens : null;
  }
}
