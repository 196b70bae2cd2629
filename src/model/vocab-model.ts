// Synthesizes a small random-weights model that carries a real tokenizer.
//
// The one-byte vocabulary of test-model.ts hides what real models do: multi-character BPE tokens,
// byte-level pieces that are partial UTF-8, vocabularies of 150k tokens, chat templates, BERT's
// WordPiece. llama.cpp ships vocab-only GGUFs of real models (tokenizer metadata, no tensors); this
// copies a vocabulary's `tokenizer.*` metadata, with its exact value types, into a tiny model of an
// architecture llama.cpp runs with it. Weights are random (seeded), so output is meaningless but
// deterministic, and every constraint still holds by construction.
//
// Pure: no Node APIs (the caller reads the vocabulary file and writes the model).

import { GGML_F16, GGML_F32, GGUF_ALIGN, writeGguf, type GgufMeta, type GgufTensor } from './gguf.js';

/**
 * `llama`: a decoder with SentencePiece or BPE vocabularies (phi-3's SentencePiece vocabulary runs
 * on it: phi3's own graph differs only in fused tensors). `qwen2`: a decoder with q/k/v biases, as
 * Qwen2. `bert`: a bidirectional encoder with position and token-type embeddings, pooled into one
 * vector per text (embedding models: bge, MiniLM, …).
 */
export type VocabArch = 'llama' | 'qwen2' | 'bert';

/**
 * llama.cpp's pooling types (`<arch>.pooling_type`): `mean` and `cls` make an embedding model;
 * `rank` a reranker, whose [CLS] vector goes through a classification head (cls, cls.output) to one
 * relevance logit per query-document pair.
 */
export const POOLING = { mean: 1, cls: 2, rank: 4 } as const;

export interface VocabModelOptions {
  arch: VocabArch;
  /** PRNG seed for the weights (default 42). */
  seed?: number;
  /** Embedding width (default 64). */
  embd?: number;
  /** Transformer blocks (default 2). */
  layers?: number;
  /** Storage of the 2-D matrices (default 'f16': a 152k vocabulary's embeddings are half the size). */
  dtype?: 'f32' | 'f16';
  /** general.name (default 'svc-<arch>-vocab'). */
  name?: string;
  /** bert only: how token vectors become one (default 'cls', as bge); 'rank' adds a ranking head. */
  pooling?: keyof typeof POOLING;
  /** Context length written to the model (default 2048 for decoders, 512 for bert). */
  contextLength?: number;
}

/** The `tokenizer.*` entries of a GGUF's metadata: the whole vocabulary, chat template included. */
export function tokenizerMeta(meta: GgufMeta[]): GgufMeta[] {
  return meta.filter(([key]) => key.startsWith('tokenizer.'));
}

function vocabSize(tokenizer: GgufMeta[]): number {
  const tokens = tokenizer.find(([key]) => key === 'tokenizer.ggml.tokens');
  if (!tokens || !Array.isArray(tokens[2])) throw new Error('the vocabulary has no tokenizer.ggml.tokens');
  return tokens[2].length;
}

function decoderTensors(
  arch: 'llama' | 'qwen2',
  embd: number,
  ff: number,
  layers: number,
  vocab: number,
  mat: number,
): GgufTensor[] {
  // The output projection is tied to the token embeddings (llama.cpp duplicates token_embd when
  // output.weight is absent): it halves the file for a 152k vocabulary.
  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [embd, vocab], type: mat, init: 'rand' },
    { name: 'output_norm.weight', dims: [embd], type: GGML_F32, init: 'ones' },
  ];
  for (let i = 0; i < layers; i++) {
    const b = `blk.${i}.`;
    tensors.push(
      { name: b + 'attn_norm.weight', dims: [embd], type: GGML_F32, init: 'ones' },
      { name: b + 'attn_q.weight', dims: [embd, embd], type: mat, init: 'rand' },
      { name: b + 'attn_k.weight', dims: [embd, embd], type: mat, init: 'rand' },
      { name: b + 'attn_v.weight', dims: [embd, embd], type: mat, init: 'rand' },
    );
    if (arch === 'qwen2') {
      tensors.push(
        { name: b + 'attn_q.bias', dims: [embd], type: GGML_F32, init: 'zeros' },
        { name: b + 'attn_k.bias', dims: [embd], type: GGML_F32, init: 'zeros' },
        { name: b + 'attn_v.bias', dims: [embd], type: GGML_F32, init: 'zeros' },
      );
    }
    tensors.push(
      { name: b + 'attn_output.weight', dims: [embd, embd], type: mat, init: 'rand' },
      { name: b + 'ffn_norm.weight', dims: [embd], type: GGML_F32, init: 'ones' },
      { name: b + 'ffn_gate.weight', dims: [embd, ff], type: mat, init: 'rand' },
      { name: b + 'ffn_down.weight', dims: [ff, embd], type: mat, init: 'rand' },
      { name: b + 'ffn_up.weight', dims: [embd, ff], type: mat, init: 'rand' },
    );
  }
  return tensors;
}

function bertTensors(
  embd: number,
  ff: number,
  layers: number,
  vocab: number,
  ctx: number,
  tokenTypes: number,
  mat: number,
  rankingHead: boolean,
): GgufTensor[] {
  const norm = (name: string): GgufTensor[] => [
    { name: name + '.weight', dims: [embd], type: GGML_F32, init: 'ones' },
    { name: name + '.bias', dims: [embd], type: GGML_F32, init: 'zeros' },
  ];
  const linear = (name: string, n_in: number, n_out: number): GgufTensor[] => [
    { name: name + '.weight', dims: [n_in, n_out], type: mat, init: 'rand' },
    { name: name + '.bias', dims: [n_out], type: GGML_F32, init: 'zeros' },
  ];
  // Embedding tables are f32: ggml_get_rows of position and type rows is simplest there.
  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [embd, vocab], type: mat, init: 'rand' },
    { name: 'token_types.weight', dims: [embd, tokenTypes], type: GGML_F32, init: 'rand' },
    { name: 'position_embd.weight', dims: [embd, ctx], type: GGML_F32, init: 'rand' },
    ...norm('token_embd_norm'),
  ];
  for (let i = 0; i < layers; i++) {
    const b = `blk.${i}.`;
    tensors.push(
      ...linear(b + 'attn_q', embd, embd),
      ...linear(b + 'attn_k', embd, embd),
      ...linear(b + 'attn_v', embd, embd),
      ...linear(b + 'attn_output', embd, embd),
      ...norm(b + 'attn_output_norm'),
      ...linear(b + 'ffn_up', embd, ff),
      ...linear(b + 'ffn_down', ff, embd),
      ...norm(b + 'layer_output_norm'),
    );
  }
  // A reranker's classification head: tanh(cls · h[CLS] + b), then one logit (llama.cpp's RANK pooling).
  if (rankingHead) tensors.push(...linear('cls', embd, embd), ...linear('cls.output', embd, 1));
  return tensors;
}

/**
 * GGUF v3 bytes of a random-weights model of `opts.arch` carrying `tokenizer` (the `tokenizer.*`
 * entries of a real vocabulary, see tokenizerMeta). Same arguments → same bytes.
 */
export function makeVocabModel(tokenizer: GgufMeta[], opts: VocabModelOptions): Uint8Array {
  const { arch } = opts;
  const embd = opts.embd ?? 64;
  const layers = opts.layers ?? 2;
  const heads = 4;
  const ff = embd * 2;
  const mat = (opts.dtype ?? 'f16') === 'f16' ? GGML_F16 : GGML_F32;
  const vocab = vocabSize(tokenizer);
  const ctx = opts.contextLength ?? (arch === 'bert' ? 512 : 2048);
  const own = tokenizerMeta(tokenizer);

  const meta: GgufMeta[] = [
    ['general.architecture', 'str', arch],
    ['general.name', 'str', opts.name ?? `svc-${arch}-vocab`],
    ['general.alignment', 'u32', GGUF_ALIGN],
    [`${arch}.context_length`, 'u32', ctx],
    [`${arch}.embedding_length`, 'u32', embd],
    [`${arch}.block_count`, 'u32', layers],
    [`${arch}.feed_forward_length`, 'u32', ff],
    [`${arch}.attention.head_count`, 'u32', heads],
  ];
  let tensors: GgufTensor[];
  if (arch === 'bert') {
    const typeCount = own.find(([key]) => key === 'tokenizer.ggml.token_type_count');
    const tokenTypes = typeCount ? Number(typeCount[2]) : 2;
    meta.push(
      ['bert.attention.layer_norm_epsilon', 'f32', 1e-12],
      ['bert.attention.causal', 'bool', false],
      ['bert.pooling_type', 'u32', POOLING[opts.pooling ?? 'cls']],
    );
    if (!typeCount) own.push(['tokenizer.ggml.token_type_count', 'u32', tokenTypes]);
    tensors = bertTensors(embd, ff, layers, vocab, ctx, tokenTypes, mat, opts.pooling === 'rank');
  } else {
    meta.push(
      [`${arch}.attention.head_count_kv`, 'u32', heads],
      [`${arch}.rope.dimension_count`, 'u32', embd / heads],
      [`${arch}.rope.freq_base`, 'f32', 10000],
      [`${arch}.attention.layer_norm_rms_epsilon`, 'f32', 1e-5],
      [`${arch}.vocab_size`, 'u32', vocab],
    );
    tensors = decoderTensors(arch, embd, ff, layers, vocab, mat);
  }
  return writeGguf([...meta, ...own], tensors, opts.seed ?? 42);
}
