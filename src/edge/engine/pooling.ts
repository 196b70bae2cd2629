// How the edge pools an embedding: as the GGUF says, the way node-llama-cpp does for the library and
// the worker, so that one (model, text) has one vector on every surface (#45). Pure: the GGUF's bytes in.
import { readGgufMeta, type GgufMeta } from '../../model/gguf.js';
import { POOLING_NAMES } from '../../engine/capabilities.js';

/**
 * The pooling type for wllama's loadModel: the GGUF's own (`<arch>.pooling_type`: mean, cls, last,
 * rank), else 'last': node-llama-cpp embeds a model without one (a decoder) by its last token's vector.
 */
export function edgePooling(bytes: Uint8Array | readonly GgufMeta[]): string {
  const meta = bytes instanceof Uint8Array ? readGgufMeta(bytes) : bytes;
  const architecture = meta.find(([key]) => key === 'general.architecture')?.[2];
  const type = meta.find(([key]) => key === `${String(architecture)}.pooling_type`)?.[2];
  return typeof type === 'number' && type > 0 ? (POOLING_NAMES[type] ?? 'last') : 'last';
}
