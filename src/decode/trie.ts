// The vocabulary's tokens in a trie over their code points, shared by every grammar's masker
// (mask.ts walks it). Pure: no Node or node-llama-cpp APIs.

import type { DecodedVocabulary } from './vocabulary.js';

/** A code point's symbol in the trie; an unfinished character at a token's end is symbol PARTIAL + its index. */
export const PARTIAL = 0x110000;

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
    const hash = (node: number, symbol: number) =>
      (Math.imul(node, 0x9e3779b1) ^ Math.imul(symbol + 1, 0x85ebca77)) >>> 0;
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
    for (let c = this.firstChild[node]; c >= 0; c = this.nextSibling[c])
      (this.symbol[c] >= PARTIAL ? partials : children).push(c);
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
export interface WideNode {
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
export interface Summary {
  ascii: Int32Array;
  low: number;
  high: number;
  partial: number;
  height: number;
}
