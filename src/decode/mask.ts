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
// Pure: no Node or node-llama-cpp APIs.

import { Automaton, DEAD } from './automaton.js';
import { decodeLlama, type Partial } from './utf8.js';

/** A position of a generation under a grammar: the automaton state and any unfinished character. */
export interface Position extends Partial {
  readonly state: number;
}

/** The vocabulary as the masker needs it: each token's bytes as the engine outputs them, and the end-of-generation tokens. */
export interface VocabularyInput {
  readonly size: number;
  bytes(token: number): Uint8Array;
  isEog(token: number): boolean;
}

const isNeverUtf8Byte = (byte: number) => byte === 0xc0 || byte === 0xc1 || byte >= 0xf5;

/** Grammar-independent facts about a vocabulary, computed once per model. */
export class DecodedVocabulary {
  readonly size: number;
  readonly bytes: Uint8Array[];
  readonly eog: Uint8Array;
  /** The end-of-generation tokens, listed. */
  readonly eogTokens: Int32Array;
  /** Tokens that can start a character sequence (decode from no partial without aborting), not EOG. */
  readonly startable: Int32Array;
  /** Per token: its complete code points (offset/length into codePoints) and the partial at its end. */
  readonly cpStart: Int32Array;
  readonly cpLength: Int32Array;
  readonly codePoints: Int32Array;
  readonly tailValue: Int32Array;
  readonly tailRemain: Int8Array;
  /** Tokens whose first byte is a continuation byte: the only ones that can finish a pending character. */
  readonly continuing: Int32Array;
  /** Bytes (as a latin1 string) to a token, for spelling a completion; tokens of at most MAX_SPELL_BYTES. */
  readonly spelling = new Map<string, number>();
  readonly maxSpell: number;
  /** The most bytes of a token a grammar can allow, so the most characters one token writes. */
  readonly maxBytes: number;
  private builtTrie?: VocabularyTrie;

  /** The tokens in a trie over their code points, shared by the maskers of every grammar (built on first use; an engine builds it at load). */
  get trie(): VocabularyTrie {
    return (this.builtTrie ??= new VocabularyTrie(this));
  }

  constructor(input: VocabularyInput) {
    this.size = input.size;
    this.bytes = [];
    this.eog = new Uint8Array(input.size);
    const startable: number[] = [];
    const continuing: number[] = [];
    const cps: number[] = [];
    this.cpStart = new Int32Array(input.size);
    this.cpLength = new Int32Array(input.size);
    this.tailValue = new Int32Array(input.size);
    this.tailRemain = new Int8Array(input.size);
    let maxSpell = 0;
    let maxBytes = 0;
    for (let t = 0; t < input.size; t++) {
      const bytes = input.bytes(t);
      this.bytes.push(bytes);
      if (input.isEog(t)) {
        this.eog[t] = 1;
        continue;
      }
      if (!usable(bytes)) continue;
      maxBytes = Math.max(maxBytes, bytes.length);
      if (bytes.length <= MAX_SPELL_BYTES) {
        const key = latin1(bytes);
        // The lowest id for the same bytes (deterministic).
        if (!this.spelling.has(key)) this.spelling.set(key, t);
        maxSpell = Math.max(maxSpell, bytes.length);
      }
      if (bytes[0] >> 6 === 2) continuing.push(t);
      const decoded = decodeLlama(bytes);
      if (decoded.aborted || decoded.codePoints.includes(0)) continue;
      this.cpStart[t] = cps.length;
      this.cpLength[t] = decoded.codePoints.length;
      for (const cp of decoded.codePoints) cps.push(cp);
      this.tailValue[t] = decoded.value;
      this.tailRemain[t] = decoded.remain;
      startable.push(t);
    }
    this.startable = Int32Array.from(startable);
    this.eogTokens = Int32Array.from(this.eog.keys()).filter((t) => this.eog[t] === 1);
    this.continuing = Int32Array.from(continuing);
    this.codePoints = Int32Array.from(cps);
    this.maxSpell = maxSpell;
    this.maxBytes = maxBytes;
  }
}

const MAX_SPELL_BYTES = 48;

/** Bytes a grammar can ever accept as a token: not empty, no NUL first (llama.cpp refuses those), no byte that never occurs in UTF-8. */
function usable(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || bytes[0] === 0) return false;
  for (const b of bytes) if (isNeverUtf8Byte(b)) return false;
  return true;
}

/** Bytes as a string of code points 0-255 (in chunks: a spread of a long completion's bytes would overflow the call stack). */
function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
}

/** A position's key in the per-position caches (the state alone where no character is unfinished). */
const positionKey = ({ state, value, remain }: Position): string | number => (remain === 0 ? state : `${state}:${value}:${remain}`);

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

/**
 * The tokens a grammar allows at one position, a bitset over the vocabulary: 19 KB on qwen2's
 * 151,936 tokens, where the list of banned tokens llama.cpp's logit bias takes is up to 600 KB (a
 * fresh one per mask made the garbage collector stop masks for 2-8 ms).
 */
export class TokenMask {
  /** How many tokens are allowed. */
  readonly allowed: number;
  /** The one token allowed, or -1 where none or several are. */
  readonly only: number;
  /** A hash of the allowed set (FNV-1a over the words), to find an equal mask. */
  readonly hash: number;

  constructor(
    readonly bits: Uint32Array,
    readonly size: number,
  ) {
    let allowed = 0;
    let last = -1;
    let hash = 0x811c9dc5;
    for (let w = 0; w < bits.length; w++) {
      const x = bits[w];
      hash = Math.imul(hash ^ x, 0x01000193);
      if (x === 0) continue;
      allowed += popcount(x);
      last = w;
    }
    this.allowed = allowed;
    this.only = allowed === 1 ? last * 32 + 31 - Math.clz32(bits[last]) : -1;
    this.hash = hash;
  }

  /** The same allowed set. */
  equals(other: TokenMask): boolean {
    if (other.hash !== this.hash || other.allowed !== this.allowed || other.size !== this.size) return false;
    for (let w = 0; w < this.bits.length; w++) if (this.bits[w] !== other.bits[w]) return false;
    return true;
  }

  /** The mask of a per-token allowed array (1 allowed). */
  static fromAllowed(allowed: Uint8Array): TokenMask {
    const bits = new Uint32Array((allowed.length + 31) >>> 5);
    for (let t = 0; t < allowed.length; t++) bits[t >>> 5] |= allowed[t] << (t & 31);
    return new TokenMask(bits, allowed.length);
  }

  allows(token: number): boolean {
    return ((this.bits[token >>> 5] >>> (token & 31)) & 1) === 1;
  }

  private listed?: number[];

  /** The allowed tokens in order (computed once per mask: meant for masks that allow few). */
  allowedTokens(): readonly number[] {
    if (this.listed) return this.listed;
    const out: number[] = [];
    for (let w = 0; w < this.bits.length; w++) {
      for (let x = this.bits[w]; x !== 0; x &= x - 1) out.push(w * 32 + 31 - Math.clz32(x & -x));
    }
    return (this.listed = out);
  }

  get bannedCount(): number {
    return this.size - this.allowed;
  }

  /**
   * The tokens the mask bans, in order (what llama.cpp's logit bias takes), in a buffer that the
   * next call on any mask overwrites: copy it to keep it.
   */
  banned(): Uint32Array {
    if (bannedScratch.length < this.size) bannedScratch = new Uint32Array(this.size);
    const out = bannedScratch;
    let k = 0;
    for (let w = 0; w < this.bits.length; w++) {
      const x = this.bits[w];
      if (x === -1 >>> 0) continue;
      const base = w * 32;
      const end = Math.min(32, this.size - base);
      for (let b = 0; b < end; b++) {
        out[k] = base + b;
        k += ((x >>> b) & 1) ^ 1;
      }
    }
    return out.subarray(0, k);
  }
}

/** Where TokenMask.banned writes (reused: a fresh 600 KB list per call is garbage at once). */
let bannedScratch = new Uint32Array(0);

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
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

/** A code point's symbol in the trie; an unfinished character at a token's end is symbol PARTIAL + its index. */
const PARTIAL = 0x110000;

/**
 * The vocabulary's tokens in a trie over their code points, built once per vocabulary and shared
 * by every grammar's masker: a grammar then costs nothing per token to set up (a trie per grammar,
 * over its character classes, took 30-165 ms at qwen2's 151,936 tokens, the first request's main
 * extra cost). Each node knows, whatever the grammar, which characters its subtree holds (the
 * ASCII ones exactly, the others as their lowest and highest), so a walk can take a whole subtree
 * a state accepts without descending into it.
 */
export class VocabularyTrie {
  /** Nodes in depth-first preorder (node 0 the root): a subtree is the node range [node, subtreeEnd[node]). */
  readonly nodes: number;
  readonly firstChild: Int32Array;
  readonly nextSibling: Int32Array;
  /** The code point leading to each node, or PARTIAL + p for an unfinished character (a leaf). */
  readonly symbol: Int32Array;
  readonly subtreeEnd: Int32Array;
  /** Per node: the most symbols on a path from it (itself included) down to a leaf. */
  readonly height: Int32Array;
  /** Tokens ending at each node: tokenStart[node]..tokenStart[node+1] in nodeTokens (a subtree's tokens are one range). */
  readonly tokenStart: Int32Array;
  readonly nodeTokens: Int32Array;
  /** Per node, 4 words: the ASCII code points in its subtree (its own symbol included). */
  readonly ascii: Int32Array;
  /** Per node: the lowest and highest code point above ASCII in its subtree, -1 where there is none. */
  readonly nonAsciiLow: Int32Array;
  readonly nonAsciiHigh: Int32Array;
  /** Per node: whether its subtree ends a token with an unfinished character. */
  readonly hasPartial: Uint8Array;
  /** The same of each node's children alone (a walk need not descend where none can follow). */
  readonly childAscii: Int32Array;
  readonly childLow: Int32Array;
  readonly childHigh: Int32Array;
  readonly partialChild: Uint8Array;
  /** The unfinished characters (value, bytes remaining) the vocabulary ends tokens with. */
  readonly partialValue: number[] = [];
  readonly partialRemain: number[] = [];
  /** Nodes of at least WIDE_CHILDREN children (the root: 18,793 on qwen2's vocabulary), by node. */
  readonly wide = new Map<number, WideNode>();
  /** The walk's stacks of (node, state), shared by the maskers of the vocabulary (walks never nest). */
  readonly walkNodes: Int32Array;
  readonly walkStates: Int32Array;

  constructor(v: DecodedVocabulary) {
    const partials = new Map<number, number>();
    // Children as first-child / next-sibling lists, found through an open-addressing hash of
    // (parent, symbol) in typed arrays (no Map per edge: qwen2's vocabulary makes a million lookups).
    let capacity = 1 << 16;
    let first = new Int32Array(capacity).fill(-1);
    let next = new Int32Array(capacity);
    let sym = new Int32Array(capacity);
    let up = new Int32Array(capacity);
    sym[0] = -1;
    let count = 1;
    let slots = new Int32Array(capacity * 2).fill(-1);
    let mask = slots.length - 1;
    const hash = (node: number, symbol: number) => (Math.imul(node, 0x9e3779b1) ^ Math.imul(symbol + 1, 0x85ebca77)) >>> 0;
    const child = (node: number, symbol: number) => {
      let i = hash(node, symbol) & mask;
      for (let c = slots[i]; c >= 0; c = slots[(i = (i + 1) & mask)]) if (up[c] === node && sym[c] === symbol) return c;
      if (count === capacity) {
        capacity *= 2;
        const grow = (a: Int32Array, fill: number) => {
          const b = new Int32Array(capacity).fill(fill);
          b.set(a);
          return b;
        };
        first = grow(first, -1);
        next = grow(next, 0);
        sym = grow(sym, 0);
        up = grow(up, 0);
        slots = new Int32Array(capacity * 2).fill(-1);
        mask = slots.length - 1;
        for (let c = 1; c < count; c++) {
          let j = hash(up[c], sym[c]) & mask;
          while (slots[j] >= 0) j = (j + 1) & mask;
          slots[j] = c;
        }
        i = hash(node, symbol) & mask;
        while (slots[i] >= 0) i = (i + 1) & mask;
      }
      const id = count++;
      sym[id] = symbol;
      up[id] = node;
      next[id] = first[node];
      first[node] = id;
      slots[i] = id;
      return id;
    };
    const tokens = v.startable;
    const tokenNode = new Int32Array(tokens.length);
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k];
      let node = 0;
      const start = v.cpStart[t];
      const end = start + v.cpLength[t];
      for (let i = start; i < end; i++) node = child(node, v.codePoints[i]);
      if (v.tailRemain[t] > 0) {
        const key = v.tailValue[t] * 8 + v.tailRemain[t];
        let p = partials.get(key);
        if (p === undefined) {
          p = this.partialValue.length;
          this.partialValue.push(v.tailValue[t]);
          this.partialRemain.push(v.tailRemain[t]);
          partials.set(key, p);
        }
        node = child(node, PARTIAL + p);
      }
      tokenNode[k] = node;
    }
    const n = count;
    this.nodes = n;
    // Renumber the nodes in depth-first preorder, children in ascending symbol order, so that
    // siblings of one character class are consecutive and their subtrees one node range ('up' and
    // 'slots', twice as long, are free now).
    const newId = up;
    const order = slots.subarray(0, n);
    {
      const todo = slots.subarray(n, 2 * n);
      let top = 0;
      let k = 0;
      todo[top++] = 0;
      const kids: number[] = [];
      while (top > 0) {
        const node = todo[--top];
        newId[node] = k;
        order[k++] = node;
        kids.length = 0;
        for (let c = first[node]; c >= 0; c = next[c]) kids.push(c);
        // Pushed highest first, so taken lowest first.
        if (kids.length > 1) kids.sort((x, y) => sym[y] - sym[x]);
        for (const c of kids) todo[top++] = c;
      }
    }
    this.firstChild = new Int32Array(n).fill(-1);
    this.nextSibling = new Int32Array(n).fill(-1);
    this.symbol = new Int32Array(n).fill(-1);
    for (let node = 0; node < n; node++) {
      const old = order[node];
      this.symbol[node] = old === 0 ? -1 : sym[old];
      const kids: number[] = [];
      for (let c = first[old]; c >= 0; c = next[c]) kids.push(newId[c]);
      kids.sort((x, y) => x - y);
      for (let i = 0; i < kids.length; i++) {
        if (i === 0) this.firstChild[node] = kids[0];
        else this.nextSibling[kids[i - 1]] = kids[i];
      }
    }
    // Tokens per node, in token order (a counting sort by preorder node).
    this.tokenStart = new Int32Array(n + 1);
    for (let k = 0; k < tokens.length; k++) this.tokenStart[newId[tokenNode[k]] + 1]++;
    for (let node = 0; node < n; node++) this.tokenStart[node + 1] += this.tokenStart[node];
    this.nodeTokens = new Int32Array(tokens.length);
    const fill = this.tokenStart.slice(0, n);
    for (let k = 0; k < tokens.length; k++) this.nodeTokens[fill[newId[tokenNode[k]]]++] = tokens[k];
    // What each subtree holds, bottom up (a child's number is above its parent's in preorder).
    this.subtreeEnd = new Int32Array(n);
    this.height = new Int32Array(n);
    this.ascii = new Int32Array(n * 4);
    this.nonAsciiLow = new Int32Array(n).fill(-1);
    this.nonAsciiHigh = new Int32Array(n).fill(-1);
    this.hasPartial = new Uint8Array(n);
    this.childAscii = new Int32Array(n * 4);
    this.childLow = new Int32Array(n).fill(-1);
    this.childHigh = new Int32Array(n).fill(-1);
    this.partialChild = new Uint8Array(n);
    for (let node = n - 1; node >= 0; node--) {
      let end = node + 1;
      let below = 0;
      let low = -1;
      let high = -1;
      let partial = 0;
      const base = node * 4;
      for (let c = this.firstChild[node]; c >= 0; c = this.nextSibling[c]) {
        below = Math.max(below, this.height[c]);
        end = Math.max(end, this.subtreeEnd[c]);
        for (let w = 0; w < 4; w++) this.ascii[base + w] |= this.ascii[c * 4 + w];
        if (this.nonAsciiLow[c] >= 0) {
          low = low < 0 ? this.nonAsciiLow[c] : Math.min(low, this.nonAsciiLow[c]);
          high = Math.max(high, this.nonAsciiHigh[c]);
        }
        partial |= this.hasPartial[c];
        const cs = this.symbol[c];
        if (cs >= PARTIAL) this.partialChild[node] = 1;
        else if (cs >= 0x80) {
          this.childLow[node] = this.childLow[node] < 0 ? cs : Math.min(this.childLow[node], cs);
          this.childHigh[node] = Math.max(this.childHigh[node], cs);
        } else this.childAscii[base + (cs >>> 5)] |= 1 << (cs & 31);
      }
      const s = this.symbol[node];
      if (s >= PARTIAL) partial = 1;
      else if (s >= 0x80) {
        low = low < 0 ? s : Math.min(low, s);
        high = Math.max(high, s);
      } else if (s >= 0) this.ascii[base + (s >>> 5)] |= 1 << (s & 31);
      this.subtreeEnd[node] = end;
      this.height[node] = below + 1;
      this.nonAsciiLow[node] = low;
      this.nonAsciiHigh[node] = high;
      this.hasPartial[node] = partial;
    }
    this.walkNodes = new Int32Array(n);
    this.walkStates = new Int32Array(n);
    for (let node = 0; node < n; node++) {
      let count = 0;
      for (let c = this.firstChild[node]; c >= 0 && count < WIDE_CHILDREN; c = this.nextSibling[c]) count++;
      if (count >= WIDE_CHILDREN) this.wide.set(node, this.wideNode(node));
    }
  }

  private wideNode(node: number): WideNode {
    const children: number[] = [];
    const partials: number[] = [];
    for (let c = this.firstChild[node]; c >= 0; c = this.nextSibling[c]) (this.symbol[c] >= PARTIAL ? partials : children).push(c);
    let size = 1;
    while (size < children.length) size *= 2;
    const w: WideNode = {
      children: Int32Array.from(children),
      codePoints: Int32Array.from(children, (c) => this.symbol[c]),
      partials: Int32Array.from(partials),
      size,
      ascii: new Int32Array(2 * size * 4),
      low: new Int32Array(2 * size).fill(-1),
      high: new Int32Array(2 * size).fill(-1),
      partial: new Uint8Array(2 * size),
      height: new Int32Array(2 * size),
    };
    children.forEach((c, k) => {
      const leaf = size + k;
      for (let i = 0; i < 4; i++) w.ascii[leaf * 4 + i] = this.ascii[c * 4 + i];
      w.low[leaf] = this.nonAsciiLow[c];
      w.high[leaf] = this.nonAsciiHigh[c];
      w.partial[leaf] = this.hasPartial[c];
      w.height[leaf] = this.height[c];
    });
    for (let k = size - 1; k >= 1; k--) {
      for (let i = 0; i < 4; i++) w.ascii[k * 4 + i] = w.ascii[2 * k * 4 + i] | w.ascii[(2 * k + 1) * 4 + i];
      const [l, r] = [2 * k, 2 * k + 1];
      w.low[k] = w.low[l] < 0 ? w.low[r] : w.low[r] < 0 ? w.low[l] : Math.min(w.low[l], w.low[r]);
      w.high[k] = Math.max(w.high[l], w.high[r]);
      w.partial[k] = w.partial[l] | w.partial[r];
      w.height[k] = Math.max(w.height[l], w.height[r]);
    }
    return w;
  }

  /** What the subtrees of a wide node's children i..j-1 hold together, into `out`. */
  summarize(w: WideNode, i: number, j: number, out: Summary): Summary {
    out.ascii.fill(0);
    out.low = -1;
    out.high = -1;
    out.partial = 0;
    out.height = 0;
    for (let l = i + w.size, r = j + w.size; l < r; l >>>= 1, r >>>= 1) {
      if (l & 1) addSegment(w, l++, out);
      if (r & 1) addSegment(w, --r, out);
    }
    return out;
  }
}

/** Adds what segment k of a wide node's tree holds to `out`. */
function addSegment(w: WideNode, k: number, out: Summary): void {
  for (let x = 0; x < 4; x++) out.ascii[x] |= w.ascii[k * 4 + x];
  if (w.low[k] >= 0) out.low = out.low < 0 ? w.low[k] : Math.min(out.low, w.low[k]);
  out.high = Math.max(out.high, w.high[k]);
  out.partial |= w.partial[k];
  out.height = Math.max(out.height, w.height[k]);
}

/** Children a node needs for its walk to go by runs of one character class rather than child by child. */
const WIDE_CHILDREN = 64;

/**
 * A node with many children, as runs of them are walked: its code-point children in ascending
 * order (those of one class are consecutive) and a segment tree of what their subtrees hold, so a
 * run a state accepts whole is found in a few steps, and a run that holds a few characters the
 * state refuses is split down to them.
 */
interface WideNode {
  children: Int32Array;
  codePoints: Int32Array;
  /** Children that end a token with an unfinished character. */
  partials: Int32Array;
  size: number;
  ascii: Int32Array;
  low: Int32Array;
  high: Int32Array;
  partial: Uint8Array;
  height: Int32Array;
}

/** What a set of subtrees holds: the ASCII code points, the span of the others, any unfinished character, the height. */
interface Summary {
  ascii: Int32Array;
  low: number;
  high: number;
  partial: number;
  height: number;
}

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
    for (let p = 0; p < partialValue.length && partialsOk; p++) partialsOk = a.acceptsPartial(state, partialValue[p], partialRemain[p]);
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
    for (let c = classes - 1; c >= 0; c--) runEnd[c] = member[c] ? (c + 1 < classes && member[c + 1] ? runEnd[c + 1] : c) : -1;
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
      for (let i = 0; i < v.cpLength[token] && state !== DEAD; i++) state = a.step(state, a.classOf(v.codePoints[start + i]));
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
    const { firstChild, nextSibling, symbol, subtreeEnd, partialValue, partialRemain, walkNodes: nodeStack, walkStates: stateStack } = this.trie;
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
    if (sum.height <= chain.length && this.holds(sum.ascii, 0, sum.low, sum.high, sum.partial, chain.classes)) return true;
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
