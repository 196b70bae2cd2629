// The edge's prompt tokens, made the library's and the worker's (#53).
//
// node-llama-cpp feeds a raw prompt as its LlamaCompletion does (src/engine/prompt.ts): BOS, then
// the text without SentencePiece's space prefix ('trimLeadingSpace'). llama.cpp's server, which runs
// the edge, puts the prefix before every prompt of a SentencePiece vocabulary: on stories260K 'The
// dog' was BOS ▁The ▁dog on the edge and BOS T he ▁dog natively, and the two outputs parted at the
// first token for 4 prompts of 5 (measured; with the library's tokens fed to node-llama-cpp, its
// greedy output was the edge's for 200 tokens of each). The server's tokenizer is not reachable
// from JavaScript, so the edge loads such a model with `tokenizer.ggml.add_space_prefix` false: a
// prompt is then tokenized as the library tokenizes it. Where node-llama-cpp keeps the prefix (a
// prompt that starts with a newline; an embedding's text, always), the text is sent with the space
// written out: the same tokens (test/edge/prompt-tokens.test.ts, on llama.cpp's tokenizer).
import { readGgufMeta, withGgufMeta, type GgufMeta } from '../../model/gguf.js';

const value = (meta: GgufMeta[], key: string): unknown => meta.find(([k]) => k === key)?.[2];

/**
 * Whether llama.cpp prefixes a prompt with a space where node-llama-cpp's raw prompt has none: a
 * SentencePiece vocabulary ('llama') that prepends BOS, with the space prefix (both llama.cpp's
 * defaults for it when the GGUF does not say).
 */
export function spacePrefixDiffers(meta: GgufMeta[]): boolean {
  if (value(meta, 'tokenizer.ggml.model') !== 'llama') return false;
  return (
    value(meta, 'tokenizer.ggml.add_space_prefix') !== false && value(meta, 'tokenizer.ggml.add_bos_token') !== false
  );
}

/** A model's bytes as the edge loads them (parts of one file), and the texts it sends llama.cpp for a prompt and an embedding. */
export interface ServedModel {
  parts: Uint8Array[];
  promptText(prompt: string): string;
  embedText(text: string): string;
}

const asIs = (text: string) => text;
const spaced = (text: string) => ` ${text}`;

/** The GGUF as the edge loads it: without the space prefix where the library's prompts have none (above). */
export function servedModel(bytes: Uint8Array, meta: GgufMeta[] = readGgufMeta(bytes)): ServedModel {
  if (!spacePrefixDiffers(meta)) return { parts: [bytes], promptText: asIs, embedText: asIs };
  return {
    parts: withGgufMeta(bytes, ['tokenizer.ggml.add_space_prefix', 'bool', false]),
    // node-llama-cpp's 'trimLeadingSpace' keeps the prefix of a text that starts with a newline.
    promptText: (prompt) => (prompt.startsWith('\n') ? spaced(prompt) : prompt),
    embedText: spaced,
  };
}
