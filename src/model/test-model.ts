// Synthesizes a tiny, deterministic llama-architecture GGUF for tests, the demo and benchmarks.
//
// No model weights can be downloaded where this project is built and tested, so the test model is
// generated: a real GGUF (v3) that llama.cpp (node-llama-cpp natively, @wllama/wllama in
// WebAssembly) loads like any other llama model. Weights come from a seeded PRNG, so every call
// returns the same bytes. Output of such a model is meaningless but fully deterministic; with a
// GBNF grammar it is valid by construction, without one it is arbitrary bytes (NUL and invalid
// UTF-8 included).
//
// Pure: no Node APIs, so the same module also runs in workerd or a browser.

import {
  GGML_F16,
  GGML_F32,
  GGUF_ALIGN,
  TOKEN_BYTE,
  TOKEN_CONTROL,
  TOKEN_NORMAL,
  TOKEN_UNKNOWN,
  writeGguf,
  type GgufMeta,
  type GgufTensor,
} from './gguf.js';

export interface TestModelOptions {
  /** PRNG seed for the weights (default 42). */
  seed?: number;
  /** Storage type of the 2-D weight matrices; norms are always f32 (default 'f32'). */
  dtype?: 'f32' | 'f16';
  /** Embedding width (default 64). */
  embd?: number;
  /** Transformer blocks (default 2). */
  layers?: number;
  /** Model name written to general.name (default 'svc-test'). */
  name?: string;
}

/** The vocabulary: <unk>, <s>, </s>, 256 byte tokens, then printable single characters. */
export function testModelVocab(): { tokens: string[]; types: number[]; scores: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_BYTE);
  }
  // SPM writes a space as U+2581 (▁); the other printable ASCII characters stand for themselves.
  // Plus newline and tab pieces so common whitespace has a direct token besides the byte fallback.
  const chars = ['\u2581'];
  for (let c = 0x21; c <= 0x7e; c++) chars.push(String.fromCharCode(c));
  chars.push('\n', '\t');
  for (const ch of chars) {
    tokens.push(ch);
    types.push(TOKEN_NORMAL);
  }
  // Scores only rank SPM merges; with single-character pieces there are none, so any order works.
  const scores = tokens.map((_, i) => -i);
  return { tokens, types, scores };
}

/** Returns the GGUF file bytes; same options → same bytes. */
export function makeTestModel(opts: TestModelOptions = {}): Uint8Array {
  const seed = opts.seed ?? 42;
  const n_embd = opts.embd ?? 64;
  const n_layer = opts.layers ?? 2;
  const n_head = 4;
  const n_ff = n_embd * 2;
  const matType = opts.dtype === 'f16' ? GGML_F16 : GGML_F32;
  const vocab = testModelVocab();
  const n_vocab = vocab.tokens.length;

  const meta: GgufMeta[] = [
    ['general.architecture', 'str', 'llama'],
    ['general.name', 'str', opts.name ?? 'svc-test'],
    ['general.alignment', 'u32', GGUF_ALIGN],
    ['llama.context_length', 'u32', 2048],
    ['llama.embedding_length', 'u32', n_embd],
    ['llama.block_count', 'u32', n_layer],
    ['llama.feed_forward_length', 'u32', n_ff],
    ['llama.attention.head_count', 'u32', n_head],
    ['llama.attention.head_count_kv', 'u32', n_head],
    ['llama.rope.dimension_count', 'u32', n_embd / n_head],
    ['llama.rope.freq_base', 'f32', 10000],
    ['llama.attention.layer_norm_rms_epsilon', 'f32', 1e-5],
    ['llama.vocab_size', 'u32', n_vocab],
    ['tokenizer.ggml.model', 'str', 'llama'],
    ['tokenizer.ggml.tokens', 'strs', vocab.tokens],
    ['tokenizer.ggml.scores', 'f32s', vocab.scores],
    ['tokenizer.ggml.token_type', 'i32s', vocab.types],
    ['tokenizer.ggml.unknown_token_id', 'u32', 0],
    ['tokenizer.ggml.bos_token_id', 'u32', 1],
    ['tokenizer.ggml.eos_token_id', 'u32', 2],
    ['tokenizer.ggml.add_bos_token', 'bool', true],
    ['tokenizer.ggml.add_eos_token', 'bool', false],
  ];

  // ggml dims are innermost-first: a [n_in, n_out] matrix maps n_in → n_out.
  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [n_embd, n_vocab], type: matType, init: 'rand' },
    { name: 'output_norm.weight', dims: [n_embd], type: GGML_F32, init: 'ones' },
    { name: 'output.weight', dims: [n_embd, n_vocab], type: matType, init: 'rand' },
  ];
  for (let i = 0; i < n_layer; i++) {
    const b = `blk.${i}.`;
    tensors.push(
      { name: b + 'attn_norm.weight', dims: [n_embd], type: GGML_F32, init: 'ones' },
      { name: b + 'attn_q.weight', dims: [n_embd, n_embd], type: matType, init: 'rand' },
      { name: b + 'attn_k.weight', dims: [n_embd, n_embd], type: matType, init: 'rand' },
      { name: b + 'attn_v.weight', dims: [n_embd, n_embd], type: matType, init: 'rand' },
      { name: b + 'attn_output.weight', dims: [n_embd, n_embd], type: matType, init: 'rand' },
      { name: b + 'ffn_norm.weight', dims: [n_embd], type: GGML_F32, init: 'ones' },
      { name: b + 'ffn_gate.weight', dims: [n_embd, n_ff], type: matType, init: 'rand' },
      { name: b + 'ffn_down.weight', dims: [n_ff, n_embd], type: matType, init: 'rand' },
      { name: b + 'ffn_up.weight', dims: [n_embd, n_ff], type: matType, init: 'rand' },
    );
  }

  return writeGguf(meta, tensors, seed);
}
