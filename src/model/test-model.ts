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

// GGUF metadata value types.
const T_U32 = 4;
const T_I32 = 5;
const T_F32 = 6;
const T_BOOL = 7;
const T_STRING = 8;
const T_ARRAY = 9;
// ggml tensor types.
const GGML_F32 = 0;
const GGML_F16 = 1;
// llama.cpp token types.
const TOKEN_NORMAL = 1;
const TOKEN_UNKNOWN = 2;
const TOKEN_CONTROL = 3;
const TOKEN_BYTE = 6;

const ALIGN = 32;

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

/** mulberry32: tiny, fast, and identical on every platform. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** float32 → IEEE half (round to nearest even), enough for weights in [-1, 1]. */
function toHalf(v: number): number {
  const f = new Float32Array([v]);
  const x = new Uint32Array(f.buffer)[0];
  const sign = (x >>> 16) & 0x8000;
  let exp = ((x >>> 23) & 0xff) - 127 + 15;
  let mant = x & 0x7fffff;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant = (mant | 0x800000) >>> (1 - exp);
    if (mant & 0x1000) mant += 0x2000;
    return sign | (mant >>> 13);
  }
  if (exp >= 31) return sign | 0x7c00;
  if (mant & 0x1000) {
    mant += 0x2000;
    if (mant & 0x800000) {
      mant = 0;
      exp += 1;
      if (exp >= 31) return sign | 0x7c00;
    }
  }
  return sign | (exp << 10) | (mant >>> 13);
}

class Writer {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  len = 0;
  private ensure(n: number) {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u32(v: number) { this.ensure(4); this.view.setUint32(this.len, v, true); this.len += 4; }
  i32(v: number) { this.ensure(4); this.view.setInt32(this.len, v, true); this.len += 4; }
  u64(v: number) { this.ensure(8); this.view.setBigUint64(this.len, BigInt(v), true); this.len += 8; }
  f32(v: number) { this.ensure(4); this.view.setFloat32(this.len, v, true); this.len += 4; }
  u16(v: number) { this.ensure(2); this.view.setUint16(this.len, v, true); this.len += 2; }
  u8(v: number) { this.ensure(1); this.buf[this.len++] = v; }
  bytes(b: Uint8Array) { this.ensure(b.length); this.buf.set(b, this.len); this.len += b.length; }
  str(s: string) { const b = new TextEncoder().encode(s); this.u64(b.length); this.bytes(b); }
  pad(align: number) { while (this.len % align) this.u8(0); }
  result() { return this.buf.slice(0, this.len); }
}

type Meta =
  | [string, 'u32', number]
  | [string, 'f32', number]
  | [string, 'bool', boolean]
  | [string, 'str', string]
  | [string, 'strs', string[]]
  | [string, 'f32s', number[]]
  | [string, 'i32s', number[]];

interface Tensor { name: string; dims: number[]; type: number; init: 'ones' | 'rand' }

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

  const meta: Meta[] = [
    ['general.architecture', 'str', 'llama'],
    ['general.name', 'str', opts.name ?? 'svc-test'],
    ['general.alignment', 'u32', ALIGN],
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
  const tensors: Tensor[] = [
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

  const w = new Writer();
  w.bytes(new Uint8Array([0x47, 0x47, 0x55, 0x46])); // "GGUF"
  w.u32(3);
  w.u64(tensors.length);
  w.u64(meta.length);
  for (const [key, kind, value] of meta) {
    w.str(key);
    switch (kind) {
      case 'u32': w.u32(T_U32); w.u32(value as number); break;
      case 'f32': w.u32(T_F32); w.f32(value as number); break;
      case 'bool': w.u32(T_BOOL); w.u8(value ? 1 : 0); break;
      case 'str': w.u32(T_STRING); w.str(value as string); break;
      case 'strs': w.u32(T_ARRAY); w.u32(T_STRING); w.u64((value as string[]).length);
        for (const s of value as string[]) w.str(s); break;
      case 'f32s': w.u32(T_ARRAY); w.u32(T_F32); w.u64((value as number[]).length);
        for (const v of value as number[]) w.f32(v); break;
      case 'i32s': w.u32(T_ARRAY); w.u32(T_I32); w.u64((value as number[]).length);
        for (const v of value as number[]) w.i32(v); break;
    }
  }

  const sizes = tensors.map((t) => t.dims.reduce((a, b) => a * b, 1) * (t.type === GGML_F16 ? 2 : 4));
  let offset = 0;
  tensors.forEach((t, i) => {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(t.type);
    w.u64(offset);
    offset += Math.ceil(sizes[i] / ALIGN) * ALIGN;
  });
  w.pad(ALIGN);

  const rand = prng(seed);
  tensors.forEach((t) => {
    const n = t.dims.reduce((a, b) => a * b, 1);
    // Scale ~ 1/sqrt(fan-in) keeps activations in range, so logits are varied rather than flat.
    const scale = t.init === 'rand' ? 1 / Math.sqrt(t.dims[0]) : 0;
    for (let k = 0; k < n; k++) {
      const v = t.init === 'ones' ? 1 : (rand() * 2 - 1) * scale * 1.7;
      if (t.type === GGML_F16) w.u16(toHalf(v));
      else w.f32(v);
    }
    w.pad(ALIGN);
  });
  return w.result();
}
