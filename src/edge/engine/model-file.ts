// A model file for wllama made of parts (the header the edge rewrote, then the weights as R2 gave
// them), read a range at a time. wllama reads a model through `size` and
// `slice(start, end).arrayBuffer()` only (its files are read by JSPI-suspended async reads), and
// workerd refuses a Blob over 128 MiB ("Blob size 182528576 exceeds limit 134217728" for the 512-wide
// qwen2-vocabulary model), so the parts are never joined into one Blob or buffer.

/** The part of a Blob's interface wllama uses to read a model. */
export interface ModelFile {
  readonly size: number;
  slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** `parts` read as one file; each range read is a fresh copy (wllama transfers it to the wasm side). */
export function modelFile(parts: readonly Uint8Array[]): ModelFile {
  const size = parts.reduce((n, p) => n + p.byteLength, 0);
  const read = (start: number, end: number): ArrayBuffer => {
    const out = new Uint8Array(Math.max(0, end - start));
    let at = 0; // where the current part begins in the file
    for (const part of parts) {
      const from = Math.max(start, at);
      const to = Math.min(end, at + part.byteLength);
      if (from < to) out.set(part.subarray(from - at, to - at), from - start);
      at += part.byteLength;
    }
    return out.buffer;
  };
  const clamp = (n: number | undefined, fallback: number) =>
    Math.min(size, Math.max(0, n === undefined ? fallback : n < 0 ? size + n : n));
  return {
    size,
    slice(start, end) {
      const from = clamp(start, 0);
      const to = clamp(end, size);
      return { arrayBuffer: async () => read(from, to) };
    },
  };
}
