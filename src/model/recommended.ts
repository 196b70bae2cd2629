// The models docs/models.md recommends, by short name: `svc models pull <name>` fetches one into the
// model cache (src/model/fetch.ts), and the demo uses each one that is cached. File URIs only (no
// quant tags), so where a model lies in the cache is known without asking the hub.

export interface RecommendedModel {
  name: string;
  role: 'embed' | 'rerank' | 'generate';
  uri: string;
  /** What docs/models.md says of it in one line. */
  summary: string;
}

export const RECOMMENDED_MODELS: readonly RecommendedModel[] = [
  {
    name: 'bge-small-en',
    role: 'embed',
    uri: 'hf:CompendiumLabs/bge-small-en-v1.5-gguf/bge-small-en-v1.5-q8_0.gguf',
    summary: "BAAI's bge-small-en-v1.5: English embeddings, 384 dimensions, 512 tokens, CLS pooling, MIT; about 36 MB",
  },
  {
    name: 'bge-reranker-v2-m3',
    role: 'rerank',
    uri: 'hf:gpustack/bge-reranker-v2-m3-GGUF/bge-reranker-v2-m3-Q8_0.gguf',
    summary:
      "BAAI's bge-reranker-v2-m3: a multilingual cross-encoder (ranking head), 8192 tokens, Apache-2.0; about 0.6 GB",
  },
  {
    name: 'qwen2.5-0.5b-instruct',
    role: 'generate',
    uri: 'hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf',
    summary: 'Qwen2.5-0.5B-Instruct: a small chat model (ChatML template), 32,768 tokens, Apache-2.0; about 0.7 GB',
  },
  {
    name: 'qwen2.5-7b-instruct',
    role: 'generate',
    uri: 'hf:bartowski/Qwen2.5-7B-Instruct-GGUF/Qwen2.5-7B-Instruct-Q4_K_M.gguf',
    summary:
      'Qwen2.5-7B-Instruct, Q4_K_M: a capable chat model (ChatML template), 32,768 tokens, Apache-2.0; about 4.7 GB',
  },
];

/** The recommended model of that name, or undefined. */
export function recommendedModel(name: string): RecommendedModel | undefined {
  return RECOMMENDED_MODELS.find((m) => m.name === name);
}
