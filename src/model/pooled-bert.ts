// A weighted average of word vectors, written as a one-layer BERT that llama.cpp runs like any
// mean-pooled embedding model (bge, MiniLM, nomic).
//
// llama.cpp's BERT graph: x = LayerNorm(token + position + type embedding); per layer, attention
// and a feed-forward block, each added to x and followed by a LayerNorm; then mean pooling over
// every token ([CLS] and [SEP] included) and, in svc's engine, L2 normalization. Here attention,
// feed-forward, position and type embeddings are all zero, so each token's output is
// LayerNorm(its embedding), and the text's vector is normalize(Σ weight_t · vector_t):
//
// - A token's embedding is [w·u (semantic block), √(1-w²)·s (sink block)], u its unit word vector
//   and s a fixed unit vector; both blocks sum to zero. LayerNorm subtracts the mean (zero) and
//   divides by the standard deviation, which is the same for every token (w² + 1 - w² = 1), so
//   the weight w survives normalization: the semantic block comes out as √D · w · u.
// - The last LayerNorm's gain is 1 on the semantic block and 0 on the sink, so the sink (which
//   carries the weight a frequent word gives up) adds nothing to the pooled vector, and [CLS] and
//   [SEP] (w = 0) add nothing at all.
//
// The word vectors are d-dimensional; the semantic block spends d+1 dimensions on them through an
// orthonormal (Helmert) basis of the zero-sum subspace, which keeps every dot product. Pure.

import { GGML_F16, GGML_F32, GGUF_ALIGN, writeGguf, type GgufMeta, type GgufTensor } from './gguf.js';
import { POOLING, tokenizerMeta } from './vocab-model.js';

export interface PooledBertOptions {
  /** general.name */
  name: string;
  /** Word vectors, `dimension` numbers per vocabulary token (row-major); a row's length does not matter, only its direction. */
  vectors: Float32Array;
  dimension: number;
  /** Each token's weight in [0, 1]: 0 adds nothing to a text's vector. */
  weights: Float32Array;
  /** Context length (default 512, as BERT). */
  contextLength?: number;
  /** Extra general.* metadata (description, licence, source). */
  meta?: GgufMeta[];
}

const SINK = 2;
// Entries of the token embeddings are this times a unit vector's: far from f16's subnormals.
const SCALE = 8;

/** Coordinates of `u` (length d) in the Helmert basis of the zero-sum subspace of R^(d+1). */
export function helmert(u: ArrayLike<number>, d: number): Float64Array {
  const out = new Float64Array(d + 1);
  for (let k = 1; k <= d; k++) {
    const c = u[k - 1] / Math.sqrt(k * (k + 1));
    for (let i = 0; i < k; i++) out[i] += c;
    out[k] -= k * c;
  }
  return out;
}

/** GGUF v3 bytes of the embedding model: `tokenizer` is a BERT vocabulary's metadata (tokenizerMeta). Same arguments → same bytes. */
export function makePooledBert(tokenizer: GgufMeta[], opts: PooledBertOptions): Uint8Array {
  const own = tokenizerMeta(tokenizer);
  const tokens = own.find(([key]) => key === 'tokenizer.ggml.tokens')?.[2] as string[] | undefined;
  if (!tokens) throw new Error('the vocabulary has no tokenizer.ggml.tokens');
  const vocab = tokens.length;
  const d = opts.dimension;
  if (opts.vectors.length !== vocab * d)
    throw new Error(`vectors: ${vocab} x ${d} numbers expected, got ${opts.vectors.length}`);
  if (opts.weights.length !== vocab) throw new Error(`weights: ${vocab} expected, got ${opts.weights.length}`);
  const width = d + 1 + SINK;
  const ctx = opts.contextLength ?? 512;

  const embd = new Float32Array(width * vocab);
  for (let t = 0; t < vocab; t++) {
    const u = opts.vectors.subarray(t * d, (t + 1) * d);
    const norm = Math.hypot(...u);
    const w = norm > 0 ? Math.min(1, Math.max(0, opts.weights[t])) : 0;
    const row = embd.subarray(t * width, (t + 1) * width);
    if (w > 0) helmert(u, d).forEach((v, i) => (row[i] = (SCALE * w * v) / norm));
    const sink = SCALE * Math.sqrt(1 - w * w) * Math.SQRT1_2;
    row[d + 1] = sink;
    row[d + 2] = -sink;
  }
  const outputGain = new Float32Array(width);
  outputGain.fill(1, 0, d + 1);

  const data = (name: string, dims: number[], values: Float32Array, type = GGML_F32): GgufTensor => ({
    name,
    dims,
    type,
    init: 'data',
    data: values,
  });
  const zeros = (name: string, dims: number[], type = GGML_F32): GgufTensor => ({ name, dims, type, init: 'zeros' });
  const norm = (name: string): GgufTensor[] => [
    { name: name + '.weight', dims: [width], type: GGML_F32, init: 'ones' },
    zeros(name + '.bias', [width]),
  ];
  const linear = (name: string, nIn: number, nOut: number): GgufTensor[] => [
    zeros(name + '.weight', [nIn, nOut], GGML_F16),
    zeros(name + '.bias', [nOut]),
  ];
  const tensors: GgufTensor[] = [
    data('token_embd.weight', [width, vocab], embd, GGML_F16),
    zeros('token_types.weight', [width, 2]),
    zeros('position_embd.weight', [width, ctx]),
    ...norm('token_embd_norm'),
    ...linear('blk.0.attn_q', width, width),
    ...linear('blk.0.attn_k', width, width),
    ...linear('blk.0.attn_v', width, width),
    ...linear('blk.0.attn_output', width, width),
    ...norm('blk.0.attn_output_norm'),
    ...linear('blk.0.ffn_up', width, width),
    ...linear('blk.0.ffn_down', width, width),
    data('blk.0.layer_output_norm.weight', [width], outputGain),
    zeros('blk.0.layer_output_norm.bias', [width]),
  ];
  const meta: GgufMeta[] = [
    ['general.architecture', 'str', 'bert'],
    ['general.name', 'str', opts.name],
    ['general.alignment', 'u32', GGUF_ALIGN],
    ...(opts.meta ?? []),
    ['bert.context_length', 'u32', ctx],
    ['bert.embedding_length', 'u32', width],
    ['bert.block_count', 'u32', 1],
    ['bert.feed_forward_length', 'u32', width],
    ['bert.attention.head_count', 'u32', 1],
    ['bert.attention.layer_norm_epsilon', 'f32', 1e-12],
    ['bert.attention.causal', 'bool', false],
    ['bert.pooling_type', 'u32', POOLING.mean],
  ];
  if (!own.some(([key]) => key === 'tokenizer.ggml.token_type_count'))
    own.push(['tokenizer.ggml.token_type_count', 'u32', 2]);
  return writeGguf([...meta, ...own], tensors, 0);
}
