// A mask: the tokens a grammar allows at one position, as a bitset over the vocabulary.

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
