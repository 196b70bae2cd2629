// Real models for tests, offline (scripts/real-models.ts makes and caches them in .tmp/models):
// - STORIES_MODEL: the trained TinyStories Llama committed in models/ (coherent English, 512-token
//   SentencePiece vocabulary, no chat template);
// - realVocabModel('qwen2' | 'phi3'): random-weight decoders carrying llama.cpp's real qwen2
//   (byte-level BPE, 151,936 tokens, ChatML chat template; Apache-2.0) or phi-3 (SentencePiece,
//   32,064 tokens, its chat template; MIT) vocabulary;
// - bertEmbeddingModel('cls' | 'mean' | 'rank'): a random-weight BERT encoder with bge's WordPiece
//   vocabulary (MIT), pooled as named ('rank': a reranker with a classification head).
// The first call per model takes a few seconds (clone of node-llama-cpp's bundled llama.cpp source,
// then writing the GGUF); later calls return the cached path.
export {
  EMBED_MODEL,
  STORIES_MODEL,
  bertEmbeddingModel,
  llamaVocabFile,
  realVocabModel,
  type RealVocab,
} from '../../scripts/real-models.js';
