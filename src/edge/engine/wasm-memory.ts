// The wasm heap llama.cpp runs in. Cloudflare counts it in the isolate's 128 MB (SPEC 8), so its
// size is ours to choose rather than the binary's.
//
// wllama 3.8.1's wllama.wasm imports a shared memory64 of at least 2048 pages (-sINITIAL_MEMORY=128MB),
// which alone is over the limit. Its static data and 5 MB stack end at 7.5 MiB (the initial
// __stack_pointer is 7,911,408), and it grows the heap on demand (-sALLOW_MEMORY_GROWTH), so it runs
// from 8 MiB up. src/edge/build.ts writes a copy whose import asks for WASM_INITIAL_PAGES, and the
// engine creates the memory itself with a hard maximum: a model or request that needs more fails
// inside llama.cpp (an allocation error) instead of taking the isolate past its limit.

export const WASM_PAGE_BYTES = 65536;
/** 8 MiB: the smallest whole MiB above the binary's data and stack. */
export const WASM_INITIAL_PAGES = 128;
/**
 * 64 MiB. stories260K and the test model run in 40 MiB (22 MiB of it llama.cpp's graph scheduler,
 * see docs/edge.md); the rest of the isolate's 128 MB is for the JS heap and the model bytes read
 * from R2.
 */
export const WASM_MAX_PAGES = 1024;

function readLeb(b: Uint8Array, p: number): { value: number; end: number } {
  let value = 0;
  let shift = 0;
  for (;;) {
    const x = b[p++];
    value += (x & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(x & 0x80)) return { value, end: p };
  }
}

function skipLimits(b: Uint8Array, p: number): number {
  const flags = b[p++];
  p = readLeb(b, p).end;
  return flags & 1 ? readLeb(b, p).end : p;
}

/**
 * Returns a copy of `wasm` whose imported memory asks for `pages` at least. The new minimum is written
 * in the same number of LEB128 bytes (padded), so no section size changes. Throws when the binary
 * has no imported memory or the number does not fit, naming what it expected.
 */
export function withMemoryMinimum(wasm: Uint8Array, pages: number): Uint8Array {
  const out = wasm.slice();
  let p = 8;
  while (p < out.length) {
    const id = out[p++];
    const size = readLeb(out, p);
    const start = size.end;
    if (id === 2) {
      let q = start;
      const count = readLeb(out, q);
      q = count.end;
      for (let i = 0; i < count.value; i++) {
        for (let s = 0; s < 2; s++) {
          const len = readLeb(out, q);
          q = len.end + len.value;
        }
        const kind = out[q++];
        if (kind === 0)
          q = readLeb(out, q).end; // function: type index
        else if (kind === 1)
          q = skipLimits(out, q + 1); // table: reftype, limits
        else if (kind === 3)
          q += 2; // global: valtype, mutability
        else if (kind === 4)
          q = readLeb(out, q + 1).end; // tag
        else if (kind === 2) {
          const at = q + 1; // after the flags byte
          const min = readLeb(out, at);
          const width = min.end - at;
          if (pages >= 2 ** (7 * width)) throw new Error(`wasm memory minimum ${pages} does not fit in ${width} bytes`);
          for (let k = 0; k < width; k++) {
            const bits = Math.floor(pages / 2 ** (7 * k)) & 0x7f;
            out[at + k] = k < width - 1 ? bits | 0x80 : bits;
          }
          return out;
        } else throw new Error(`wasm import kind ${kind} not understood`);
      }
    }
    p = start + size.value;
  }
  throw new Error('wasm: no imported memory found');
}
