// What a model can do, read from its GGUF's metadata, so that a deployment never offers what the
// model cannot: an encoder (BERT and its kin) or a GGUF that sets a pooling type (an embedding or
// reranking model, whatever its architecture) does not generate; one with a ranking head ranks
// with it. Pure: the metadata in, the answer out (the engine and the edge read the same rules).

/** llama.cpp's pooling types (`<arch>.pooling_type`), by number. */
export const POOLING_NAMES: Readonly<Record<number, string>> = { 0: 'none', 1: 'mean', 2: 'cls', 3: 'last', 4: 'rank' };

/** Architectures whose attention is not causal: they encode, they do not write text. */
export const ENCODER_ARCHITECTURES: ReadonlySet<string> = new Set([
  'bert',
  'modern-bert',
  'nomic-bert',
  'nomic-bert-moe',
  'neo-bert',
  'jina-bert-v2',
  'jina-bert-v3',
  'eurobert',
  't5encoder',
]);

export interface Capabilities {
  generate: boolean;
  embed: boolean;
  rerank: boolean;
  /** rerank scores with the model's ranking head (else by embedding similarity). */
  rankingHead: boolean;
  /** How token vectors become one embedding: the GGUF's pooling type, or 'none' (a decoder: the last token's vector). */
  pooling: string;
  architecture: string;
}

/**
 * `metadata`: the GGUF's, nested as node-llama-cpp reads it. `rankingHead`: whether node-llama-cpp
 * finds a ranking head (a classification head and the tokens to pair a query with a document).
 */
export function modelCapabilities(
  metadata: Record<string, unknown>,
  hasDecoder: boolean,
  rankingHead: boolean,
): Capabilities {
  const general = metadata.general as { architecture?: unknown } | undefined;
  const architecture = typeof general?.architecture === 'string' ? general.architecture : 'unknown';
  // node-llama-cpp's nested form: metadata[arch].pooling_type, metadata[arch].attention.causal.
  const own = metadata[architecture] as { attention?: { causal?: unknown }; pooling_type?: unknown } | undefined;
  const pooling = typeof own?.pooling_type === 'number' ? own.pooling_type : undefined;
  const encoder = ENCODER_ARCHITECTURES.has(architecture) || own?.attention?.causal === false || !hasDecoder;
  const pooled = pooling !== undefined && pooling > 0;
  return {
    generate: !encoder && !pooled,
    embed: true,
    rerank: true,
    rankingHead,
    pooling: pooling === undefined ? 'none' : (POOLING_NAMES[pooling] ?? String(pooling)),
    architecture,
  };
}

/** The functions of svc_models' `serves` a model can serve. */
export function servable(
  capabilities: Pick<Capabilities, 'generate' | 'embed' | 'rerank'>,
): Array<'generate' | 'embed' | 'rerank'> {
  return (['generate', 'embed', 'rerank'] as const).filter((f) => capabilities[f]);
}

/** A model asked to do what it cannot (generate, for an embedding model): the same on every attempt. */
export class ModelRoleError extends Error {
  readonly code = 'model-cannot-generate';
  constructor(message: string) {
    super(message);
    this.name = 'ModelRoleError';
  }
}

export function notAGenerator(c: Pick<Capabilities, 'architecture' | 'pooling'>): string {
  return (
    `the model is an embedding model (architecture ${c.architecture}, pooling ${c.pooling}): it embeds and ranks, it does not generate text; ` +
    'use a text-generation (decoder) model for generation'
  );
}
