// What a model the edge serves can do: the library's and the worker's rules (src/engine/capabilities.ts)
// on its GGUF's metadata, so an embedding model is never asked to generate (llama.cpp's answer was a
// 500 with "the current context does not support logits computation"). Pure: the metadata in.
import { modelCapabilities, type Capabilities } from '../../engine/capabilities.js';
import type { GgufMeta } from '../../model/gguf.js';

/** The dotted keys of a GGUF's metadata as the nested object node-llama-cpp reads (`general.architecture` → general: {architecture}). */
function nested(meta: readonly GgufMeta[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, kind, value] of meta) {
    if (kind.endsWith('s')) continue; // arrays (the vocabulary): no rule reads them
    const path = key.split('.');
    let node = root;
    for (const part of path.slice(0, -1)) {
      const next = node[part];
      node = (typeof next === 'object' && next !== null ? next : (node[part] = {})) as Record<string, unknown>;
    }
    node[path[path.length - 1]] = value;
  }
  return root;
}

/** What the model serves. The edge has no reranking, so whether it has a ranking head does not matter here. */
export function edgeCapabilities(meta: readonly GgufMeta[]): Capabilities {
  return modelCapabilities(nested(meta), true, false);
}
