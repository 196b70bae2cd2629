// Word vectors from co-occurrence counts: positive pointwise mutual information (PPMI, with the
// context distribution smoothed to the power 0.75), factored by a randomized truncated SVD (Halko,
// Martinsson and Tropp 2011). This is the count-based counterpart of word2vec (Levy, Goldberg and
// Dagan 2015): on a million-word corpus it is as good, and unlike SGD it is one deterministic
// sequence of float64 operations, so the same counts give the same bytes on every run.
//
// Pure and single-threaded: the embedder's training (scripts/train-embedder.ts) runs it in about a
// minute on one core for 30k tokens.

import { prng } from './gguf.js';

/** Symmetric co-occurrence weights between token ids, one sparse row per token. */
export class Cooccurrence {
  readonly rows: Map<number, number>[];

  constructor(readonly size: number) {
    this.rows = Array.from({ length: size }, () => new Map<number, number>());
  }

  /** Adds `weight` to (a, b) and (b, a). */
  add(a: number, b: number, weight: number): void {
    if (a === b) return;
    const ra = this.rows[a];
    ra.set(b, (ra.get(b) ?? 0) + weight);
    const rb = this.rows[b];
    rb.set(a, (rb.get(a) ?? 0) + weight);
  }

  /** Every token of `tokens` with every other within `window` places, weighted by 1/distance. */
  addWindow(tokens: readonly number[], window: number, weight = 1): void {
    for (let i = 0; i < tokens.length; i++) {
      for (let d = 1; d <= window && i + d < tokens.length; d++) this.add(tokens[i], tokens[i + d], weight / d);
    }
  }

  /** Every token of `a` with every token of `b`. */
  addAll(a: readonly number[], b: readonly number[], weight: number): void {
    for (const x of a) for (const y of b) this.add(x, y, weight);
  }
}

/** A sparse matrix in compressed rows. */
export interface Csr {
  n: number;
  start: Int32Array;
  cols: Int32Array;
  values: Float64Array;
}

/**
 * The PPMI matrix of the counts over the tokens `keep` (rows and columns both; other tokens are
 * dropped): max(0, log(p(i,j) / (p(i) p_α(j)))) with p_α(j) ∝ count(j)^0.75.
 */
export function ppmi(counts: Cooccurrence, keep: readonly number[]): Csr {
  const index = new Map<number, number>(keep.map((t, i) => [t, i]));
  const n = keep.length;
  const rowSum = new Float64Array(n);
  let total = 0;
  keep.forEach((t, i) => {
    for (const [c, w] of counts.rows[t]) {
      if (!index.has(c)) continue;
      rowSum[i] += w;
      total += w;
    }
  });
  const smoothed = rowSum.map((s) => s ** 0.75);
  const smoothedTotal = smoothed.reduce((a, b) => a + b, 0);
  const start = new Int32Array(n + 1);
  const cols: number[] = [];
  const values: number[] = [];
  keep.forEach((t, i) => {
    const row: [number, number][] = [];
    for (const [c, w] of counts.rows[t]) {
      const j = index.get(c);
      if (j === undefined) continue;
      const v = Math.log((w * smoothedTotal) / (rowSum[i] * smoothed[j]));
      if (v > 0) row.push([j, v]);
    }
    row.sort((a, b) => a[0] - b[0]);
    for (const [j, v] of row) {
      cols.push(j);
      values.push(v);
    }
    start[i + 1] = cols.length;
  });
  return { n, start, cols: Int32Array.from(cols), values: Float64Array.from(values) };
}

/** Y = A X (transpose: Aᵀ X), X an n×k dense matrix stored row-major. */
function multiply(a: Csr, x: Float64Array, k: number, transpose: boolean): Float64Array {
  const y = new Float64Array(a.n * k);
  for (let i = 0; i < a.n; i++) {
    for (let p = a.start[i]; p < a.start[i + 1]; p++) {
      const j = a.cols[p];
      const v = a.values[p];
      const [to, from] = transpose ? [j * k, i * k] : [i * k, j * k];
      for (let c = 0; c < k; c++) y[to + c] += v * x[from + c];
    }
  }
  return y;
}

/** Orthonormalizes the k columns of the n×k row-major matrix in place (modified Gram-Schmidt, twice, on contiguous columns). */
function orthonormalize(m: Float64Array, n: number, k: number): void {
  const cols = Array.from({ length: k }, (_, c) => Float64Array.from({ length: n }, (_, i) => m[i * k + c]));
  for (let pass = 0; pass < 2; pass++) {
    for (let c = 0; c < k; c++) {
      const x = cols[c];
      for (let prev = 0; prev < c; prev++) {
        const y = cols[prev];
        let dot = 0;
        for (let i = 0; i < n; i++) dot += x[i] * y[i];
        for (let i = 0; i < n; i++) x[i] -= dot * y[i];
      }
      let norm = 0;
      for (let i = 0; i < n; i++) norm += x[i] * x[i];
      norm = Math.sqrt(norm) || 1;
      for (let i = 0; i < n; i++) x[i] /= norm;
    }
  }
  for (let c = 0; c < k; c++) for (let i = 0; i < n; i++) m[i * k + c] = cols[c][i];
}

/** Eigenvalues (descending) and eigenvectors (columns of a k×k row-major matrix) of a symmetric matrix: cyclic Jacobi. */
export function symmetricEigen(s: Float64Array, k: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(s);
  const v = new Float64Array(k * k);
  for (let i = 0; i < k; i++) v[i * k + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < k; p++) for (let q = p + 1; q < k; q++) off += a[p * k + q] ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < k; p++) {
      for (let q = p + 1; q < k; q++) {
        const apq = a[p * k + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * k + q] - a[p * k + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const sn = t * c;
        for (let r = 0; r < k; r++) {
          const arp = a[r * k + p];
          const arq = a[r * k + q];
          a[r * k + p] = c * arp - sn * arq;
          a[r * k + q] = sn * arp + c * arq;
        }
        for (let r = 0; r < k; r++) {
          const apr = a[p * k + r];
          const aqr = a[q * k + r];
          a[p * k + r] = c * apr - sn * aqr;
          a[q * k + r] = sn * apr + c * aqr;
        }
        for (let r = 0; r < k; r++) {
          const vrp = v[r * k + p];
          const vrq = v[r * k + q];
          v[r * k + p] = c * vrp - sn * vrq;
          v[r * k + q] = sn * vrp + c * vrq;
        }
      }
    }
  }
  const order = Array.from({ length: k }, (_, i) => i).sort((x, y) => a[y * k + y] - a[x * k + x] || x - y);
  const values = Float64Array.from(order, (i) => a[i * k + i]);
  const vectors = new Float64Array(k * k);
  for (let r = 0; r < k; r++) order.forEach((i, c) => (vectors[r * k + c] = v[r * k + i]));
  return { values, vectors };
}

/**
 * The rank-`rank` truncated SVD's left factor of `a`, each column scaled by its singular value to
 * the power `power` (0.5 is the usual choice for word vectors): an n×rank row-major matrix.
 */
export function truncatedSvd(a: Csr, rank: number, power: number, seed: number, iterations = 4): Float64Array {
  const k = rank + 10; // oversampling
  const n = a.n;
  const rand = prng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rand() || 1e-300)) * Math.cos(2 * Math.PI * rand());
  let q: Float64Array = Float64Array.from({ length: n * k }, gauss);
  q = multiply(a, q, k, false);
  orthonormalize(q, n, k);
  for (let it = 0; it < iterations; it++) {
    const z = multiply(a, q, k, true);
    orthonormalize(z, n, k);
    q = multiply(a, z, k, false);
    orthonormalize(q, n, k);
  }
  // B = Qᵀ A (k×n); B Bᵀ = Qᵀ A Aᵀ Q = (Aᵀ Q)ᵀ (Aᵀ Q).
  const atq = multiply(a, q, k, true);
  const gram = new Float64Array(k * k);
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < k; r++) {
      const x = atq[i * k + r];
      if (x === 0) continue;
      for (let c = 0; c < k; c++) gram[r * k + c] += x * atq[i * k + c];
    }
  }
  const { values, vectors } = symmetricEigen(gram, k);
  const out = new Float64Array(n * rank);
  for (let c = 0; c < rank; c++) {
    const scale = Math.max(values[c], 0) ** (power / 2); // singular value = sqrt(eigenvalue)
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let r = 0; r < k; r++) s += q[i * k + r] * vectors[r * k + c];
      out[i * rank + c] = s * scale;
    }
  }
  return out;
}
