// Modules made by src/edge/build.ts (see there for why).
declare module 'svc:wllama-wasm' {
  const module: WebAssembly.Module;
  export default module;
}
declare module 'svc:wllama-scope' {
  export function createWllamaScope(
    runOptions: {
      pathConfig: Record<string, string>;
      nbThread: number;
      compat: boolean;
      wasmMemory?: WebAssembly.Memory | null;
    },
    postMessage: (data: unknown, transfer?: unknown) => void,
    wasmModule: WebAssembly.Module,
  ): (data: unknown) => void;
}
