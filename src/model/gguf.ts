// A minimal GGUF (v3) reader and writer, shared by the model synthesizers (test-model.ts,
// vocab-model.ts) and the edge (which sets one metadata key of a model it serves: withGgufMeta).
//
// The writer emits metadata and random-weight tensors; the reader returns the metadata (and f32/f16
// tensors for tests), so a real vocabulary (llama.cpp's vocab-only GGUFs) can be copied key by key,
// with its exact value types, into a synthesized model. Pure: no Node APIs, so it also runs in
// workerd or a browser.

/** Scalar kinds of GGUF metadata values, named after their GGUF type. */
export type GgufScalarKind =
  'u8' | 'i8' | 'u16' | 'i16' | 'u32' | 'i32' | 'f32' | 'bool' | 'str' | 'u64' | 'i64' | 'f64';
/** An array of one scalar kind is the kind with an `s`: `strs`, `f32s`, `i32s`, … */
export type GgufKind = GgufScalarKind | `${GgufScalarKind}s`;
/** One metadata entry: key, kind, value (number, boolean, string, or an array of one of them). */
export type GgufMeta = [string, GgufKind, unknown];

// GGUF value type ids, indexed by kind.
const TYPE_IDS: Record<GgufScalarKind, number> = {
  u8: 0,
  i8: 1,
  u16: 2,
  i16: 3,
  u32: 4,
  i32: 5,
  f32: 6,
  bool: 7,
  str: 8,
  u64: 10,
  i64: 11,
  f64: 12,
};
const T_ARRAY = 9;
const KIND_OF = new Map<number, GgufScalarKind>(Object.entries(TYPE_IDS).map(([k, v]) => [v, k as GgufScalarKind]));

/** ggml tensor storage types this writer emits. */
export const GGML_F32 = 0;
export const GGML_F16 = 1;

/** llama.cpp token types (tokenizer.ggml.token_type). */
export const TOKEN_NORMAL = 1;
export const TOKEN_UNKNOWN = 2;
export const TOKEN_CONTROL = 3;
export const TOKEN_BYTE = 6;

export const GGUF_ALIGN = 32;

/** A tensor of the synthesized model: norms are ones, biases zeros, matrices random; or given values (`data`, in ggml order). */
export interface GgufTensor {
  name: string;
  dims: number[];
  type: number;
  init: 'ones' | 'zeros' | 'rand' | 'data';
  data?: Float32Array;
}

/** mulberry32: tiny, fast, and identical on every platform. */
export function prng(seed: number): () => number {
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
const halfScratch = new Float32Array(1);
const halfBits = new Uint32Array(halfScratch.buffer);
export function toHalf(v: number): number {
  halfScratch[0] = v; // one shared scratch: a fresh array per value made 152k-token models slow
  const x = halfBits[0];
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
  private buf: Uint8Array;
  private view: DataView;
  len = 0;
  constructor(capacity = 1 << 16) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }
  private ensure(n: number) {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number) {
    this.ensure(1);
    this.buf[this.len++] = v;
  }
  i8(v: number) {
    this.ensure(1);
    this.view.setInt8(this.len, v);
    this.len += 1;
  }
  u16(v: number) {
    this.ensure(2);
    this.view.setUint16(this.len, v, true);
    this.len += 2;
  }
  i16(v: number) {
    this.ensure(2);
    this.view.setInt16(this.len, v, true);
    this.len += 2;
  }
  u32(v: number) {
    this.ensure(4);
    this.view.setUint32(this.len, v, true);
    this.len += 4;
  }
  i32(v: number) {
    this.ensure(4);
    this.view.setInt32(this.len, v, true);
    this.len += 4;
  }
  u64(v: number | bigint) {
    this.ensure(8);
    this.view.setBigUint64(this.len, BigInt(v), true);
    this.len += 8;
  }
  i64(v: number | bigint) {
    this.ensure(8);
    this.view.setBigInt64(this.len, BigInt(v), true);
    this.len += 8;
  }
  f32(v: number) {
    this.ensure(4);
    this.view.setFloat32(this.len, v, true);
    this.len += 4;
  }
  f64(v: number) {
    this.ensure(8);
    this.view.setFloat64(this.len, v, true);
    this.len += 8;
  }
  bytes(b: Uint8Array) {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
  str(s: string) {
    const b = new TextEncoder().encode(s);
    this.u64(b.length);
    this.bytes(b);
  }
  pad(align: number) {
    while (this.len % align) this.u8(0);
  }
  result() {
    return this.buf.slice(0, this.len);
  }
}

function writeScalar(w: Writer, kind: GgufScalarKind, v: unknown): void {
  switch (kind) {
    case 'bool':
      w.u8(v ? 1 : 0);
      break;
    case 'str':
      w.str(v as string);
      break;
    case 'u64':
      w.u64(v as number | bigint);
      break;
    case 'i64':
      w.i64(v as number | bigint);
      break;
    default:
      (w[kind] as (x: number) => void).call(w, v as number);
  }
}

function writeMeta(w: Writer, [key, kind, value]: GgufMeta): void {
  w.str(key);
  if (kind.endsWith('s')) {
    const item = kind.slice(0, -1) as GgufScalarKind;
    const values = value as unknown[];
    w.u32(T_ARRAY);
    w.u32(TYPE_IDS[item]);
    w.u64(values.length);
    for (const v of values) writeScalar(w, item, v);
  } else {
    w.u32(TYPE_IDS[kind as GgufScalarKind]);
    writeScalar(w, kind as GgufScalarKind, value);
  }
}

const elementCount = (t: GgufTensor) => t.dims.reduce((a, b) => a * b, 1);
const byteSize = (t: GgufTensor) => elementCount(t) * (t.type === GGML_F16 ? 2 : 4);

/**
 * GGUF v3 bytes of `meta` and `tensors`, in the order given. Random matrices draw from one
 * mulberry32 stream seeded with `seed`, in tensor order, scaled ~1/sqrt(fan-in) so activations stay
 * in range and logits are varied rather than flat. Same arguments → same bytes.
 */
export function writeGguf(meta: GgufMeta[], tensors: GgufTensor[], seed: number): Uint8Array {
  const padded = (n: number) => Math.ceil(n / GGUF_ALIGN) * GGUF_ALIGN;
  const dataSize = tensors.reduce((s, t) => s + padded(byteSize(t)), 0);
  const w = new Writer(Math.max(1 << 16, dataSize + (1 << 20)));
  w.bytes(new Uint8Array([0x47, 0x47, 0x55, 0x46])); // "GGUF"
  w.u32(3);
  w.u64(tensors.length);
  w.u64(meta.length);
  for (const m of meta) writeMeta(w, m);

  let offset = 0;
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(t.type);
    w.u64(offset);
    offset += padded(byteSize(t));
  }
  w.pad(GGUF_ALIGN);

  const rand = prng(seed);
  for (const t of tensors) {
    const n = elementCount(t);
    const scale = t.init === 'rand' ? 1 / Math.sqrt(t.dims[0]) : 0;
    const constant = t.init === 'ones' ? 1 : 0;
    if (t.init === 'data' && t.data?.length !== n) throw new Error(`GGUF: tensor ${t.name} needs ${n} values`);
    for (let k = 0; k < n; k++) {
      const v = t.init === 'data' ? t.data![k] : t.init === 'rand' ? (rand() * 2 - 1) * scale * 1.7 : constant;
      if (t.type === GGML_F16) w.u16(toHalf(v));
      else w.f32(v);
    }
    w.pad(GGUF_ALIGN);
  }
  return w.result();
}

/** A tensor read back from a GGUF file: f32 and f16 are decoded to numbers, other types are not. */
export interface GgufTensorData {
  name: string;
  dims: number[];
  type: number;
  data?: Float32Array;
}

/** The metadata of a GGUF file (v2 or v3), in file order and with each value's GGUF type. */
export function readGgufMeta(bytes: Uint8Array): GgufMeta[] {
  return readGguf(bytes, false).meta;
}

/** f16 bits → number. */
function fromHalf(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/**
 * Metadata and, with `withTensors`, tensors of a GGUF file (v2 or v3). Tests use the tensors to
 * compute a model's output independently of llama.cpp.
 */
export function readGguf(bytes: Uint8Array, withTensors = true): { meta: GgufMeta[]; tensors: GgufTensorData[] } {
  const { meta, tensors } = parseGguf(bytes, withTensors ? 'data' : 'meta');
  return { meta, tensors };
}

/** Where the parts of a GGUF file lie: each metadata entry's bytes, the tensor infos', and the data's start. */
interface GgufLayout {
  meta: GgufMeta[];
  tensors: GgufTensorData[];
  /** [start, end) of each metadata entry, in `meta`'s order. */
  spans: Array<[number, number]>;
  /** The bytes of the tensor infos: from the end of the metadata to here. */
  infoEnd: number;
  /** Where the tensor data begins (the tensor infos' end, aligned). */
  dataStart: number;
  alignment: number;
}

/** Parses the metadata, then (`infos`) the tensor infos, then (`data`) decodes f32 and f16 tensors. */
function parseGguf(bytes: Uint8Array, depth: 'meta' | 'infos' | 'data'): GgufLayout {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // ignoreBOM: a token that is U+FEFF (phi-3 has one) is a string starting with it, not empty.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let at = 0;
  const u32 = () => {
    const v = view.getUint32(at, true);
    at += 4;
    return v;
  };
  const u64 = () => {
    const v = view.getBigUint64(at, true);
    at += 8;
    return Number(v);
  };
  const str = () => {
    const n = u64();
    const s = decoder.decode(bytes.subarray(at, at + n));
    at += n;
    return s;
  };
  const scalar = (kind: GgufScalarKind): unknown => {
    let v: unknown;
    switch (kind) {
      case 'u8':
        v = view.getUint8(at);
        at += 1;
        break;
      case 'i8':
        v = view.getInt8(at);
        at += 1;
        break;
      case 'u16':
        v = view.getUint16(at, true);
        at += 2;
        break;
      case 'i16':
        v = view.getInt16(at, true);
        at += 2;
        break;
      case 'u32':
        v = view.getUint32(at, true);
        at += 4;
        break;
      case 'i32':
        v = view.getInt32(at, true);
        at += 4;
        break;
      case 'f32':
        v = view.getFloat32(at, true);
        at += 4;
        break;
      case 'bool':
        v = view.getUint8(at) !== 0;
        at += 1;
        break;
      case 'str':
        v = str();
        break;
      case 'u64':
        v = view.getBigUint64(at, true);
        at += 8;
        break;
      case 'i64':
        v = view.getBigInt64(at, true);
        at += 8;
        break;
      case 'f64':
        v = view.getFloat64(at, true);
        at += 8;
        break;
    }
    return v;
  };
  const kindOf = (id: number): GgufScalarKind => {
    const kind = KIND_OF.get(id);
    if (!kind) throw new Error(`GGUF: unknown value type ${id} at byte ${at}`);
    return kind;
  };

  if (decoder.decode(bytes.subarray(0, 4)) !== 'GGUF') throw new Error('not a GGUF file');
  at = 4;
  const version = u32();
  if (version < 2 || version > 3) throw new Error(`GGUF version ${version} is not supported (2 or 3)`);
  const tensorCount = u64();
  const count = u64();
  const meta: GgufMeta[] = [];
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    const start = at;
    const key = str();
    const type = u32();
    if (type === T_ARRAY) {
      const item = kindOf(u32());
      const n = u64();
      const values = new Array<unknown>(n);
      for (let k = 0; k < n; k++) values[k] = scalar(item);
      meta.push([key, `${item}s`, values]);
    } else {
      const kind = kindOf(type);
      meta.push([key, kind, scalar(kind)]);
    }
    spans.push([start, at]);
  }
  const tensors: GgufTensorData[] = [];
  const alignment = Number(meta.find(([key]) => key === 'general.alignment')?.[2] ?? GGUF_ALIGN);
  if (depth === 'meta') return { meta, tensors, spans, infoEnd: at, dataStart: at, alignment };

  const offsets: number[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = str();
    const dims = Array.from({ length: u32() }, () => u64());
    const type = u32();
    offsets.push(u64());
    tensors.push({ name, dims, type });
  }
  const infoEnd = at;
  const base = Math.ceil(at / alignment) * alignment;
  if (depth === 'infos') return { meta, tensors, spans, infoEnd, dataStart: base, alignment };
  tensors.forEach((t, i) => {
    const n = t.dims.reduce((a, b) => a * b, 1);
    const start = base + offsets[i];
    if (t.type === GGML_F32) {
      t.data = new Float32Array(n);
      for (let k = 0; k < n; k++) t.data[k] = view.getFloat32(start + 4 * k, true);
    } else if (t.type === GGML_F16) {
      t.data = new Float32Array(n);
      for (let k = 0; k < n; k++) t.data[k] = fromHalf(view.getUint16(start + 2 * k, true));
    }
  });
  return { meta, tensors, spans, infoEnd, dataStart: base, alignment };
}

/**
 * The GGUF `bytes` with the metadata entry `entry` set (replaced where the key is there, else added
 * last), as two parts to join: the new header and the tensor data, a view of `bytes` (tensor offsets
 * count from the data's start, so they stay as they are). Pure; copies only the header.
 */
export function withGgufMeta(bytes: Uint8Array, entry: GgufMeta): [Uint8Array, Uint8Array] {
  const layout = parseGguf(bytes, 'infos');
  const at = layout.meta.findIndex(([key]) => key === entry[0]);
  const w = new Writer(layout.infoEnd + 1024);
  w.bytes(bytes.subarray(0, 16)); // magic, version, tensor count
  w.u64(layout.meta.length + (at < 0 ? 1 : 0));
  layout.spans.forEach(([start, end], i) => (i === at ? writeMeta(w, entry) : w.bytes(bytes.subarray(start, end))));
  if (at < 0) writeMeta(w, entry);
  const metaEnd = layout.spans.length > 0 ? layout.spans[layout.spans.length - 1][1] : 24;
  w.bytes(bytes.subarray(metaEnd, layout.infoEnd));
  w.pad(layout.alignment);
  return [w.result(), bytes.subarray(layout.dataStart)];
}
