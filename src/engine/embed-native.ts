// svc's embedding addon (src/native/embed/batch.cc, built by scripts/build-embed-addon.sh): many
// texts' vectors in one call into llama.cpp, the same llama.cpp node-llama-cpp runs. A decoder's
// sequences share one llama_decode; an encoder's are decoded one after another inside the call.
// Either way each vector has the bytes node-llama-cpp's embedding context gives for the text alone
// (test/engine/embed-batch.test.ts); what the addon saves is node-llama-cpp's per-text work in
// JavaScript and, for a decoder, the weights streamed once per batch instead of once per text.
// Where the addon is not built (another platform, no compiler) or SVC_EMBED_NATIVE=0, the engine
// embeds through node-llama-cpp alone.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LlamaVocabularyType, type LlamaModel, type Token } from 'node-llama-cpp';

interface ModelHandle {
  readonly model: unique symbol;
}
interface ContextHandle {
  readonly context: unique symbol;
}

/** The addon's exports (batch.cc's init). */
export interface EmbedAddon {
  loadModel(path: string): ModelHandle;
  freeModel(model: ModelHandle): void;
  createContext(
    model: ModelHandle,
    options: { threads: number; contextSize: number; sequences: number },
  ): ContextHandle;
  freeContext(context: ContextHandle): void;
  info(context: ContextHandle): { packs: boolean; sequences: number; embd: number };
  embed(context: ContextHandle, tokens: Int32Array[]): Promise<Float32Array[] & { decodes: number }>;
}

let addon: EmbedAddon | null | undefined;

/**
 * The addon, or null where it is not built or SVC_EMBED_NATIVE=0. Looked for in build/embed of the
 * checkout this module belongs to (src/engine here, dist/lib/src/engine in a package build).
 */
export function embedAddon(): EmbedAddon | null {
  if (process.env.SVC_EMBED_NATIVE === '0') return null;
  if (addon !== undefined) return addon;
  const here = dirname(fileURLToPath(import.meta.url));
  const file = [
    join(here, '../../build/embed/svc_embed.node'),
    join(here, '../../../../build/embed/svc_embed.node'),
  ].find((f) => existsSync(f));
  addon = file ? (createRequire(import.meta.url)(file) as EmbedAddon) : null;
  return addon;
}

/**
 * The tokens node-llama-cpp's LlamaEmbeddingContext evaluates for `text`: the text without special
 * tokens, then the beginning and end tokens llama.cpp's tokenizer would add for the vocabulary
 * (its resolveBeginningTokenToPrepend / resolveEndTokenToAppend), each once.
 */
export function embeddingTokens(model: LlamaModel, text: string): Token[] {
  const tokens = model.tokenize(text, false);
  if (tokens.length === 0) return tokens;
  const type = model.vocabularyType;
  const t = model.tokens;
  const first =
    type === LlamaVocabularyType.rwkv || type === LlamaVocabularyType.ugm
      ? null
      : type === LlamaVocabularyType.wpm || t.shouldPrependBosToken
        ? t.bos
        : null;
  const last =
    type === LlamaVocabularyType.rwkv
      ? null
      : type === LlamaVocabularyType.wpm
        ? t.sep
        : type === LlamaVocabularyType.ugm || t.shouldAppendEosToken
          ? t.eos
          : null;
  if (first != null && tokens[0] !== first) tokens.unshift(first);
  if (last != null && tokens.at(-1) !== last) tokens.push(last);
  return tokens;
}

/** The model as the addon holds it (its own llama_model over the same memory-mapped file). */
export class NativeEmbedModel {
  private freed = false;
  private constructor(
    private readonly addon: EmbedAddon,
    private readonly handle: ModelHandle,
  ) {}

  static load(addon: EmbedAddon, path: string): NativeEmbedModel {
    return new NativeEmbedModel(addon, addon.loadModel(path));
  }

  /** A context; throws where the model's output is not an embedding the addon reads (a ranking head). */
  createContext(options: { threads: number; contextSize: number; sequences: number }): NativeEmbedContext {
    return new NativeEmbedContext(this.addon, this.addon.createContext(this.handle, options));
  }

  dispose(): void {
    if (!this.freed) this.addon.freeModel(this.handle);
    this.freed = true;
  }
}

/** One llama_context of the addon: one call at a time (the engine's EmbeddingPool hands it out). */
export class NativeEmbedContext {
  /** Whether its sequences share a decode (a decoder), else one decode each (an encoder). */
  readonly packs: boolean;
  /** Sequences one decode holds. */
  readonly sequences: number;
  /** llama_decode calls made, for the tests and the bench. */
  decodes = 0;

  constructor(
    private readonly addon: EmbedAddon,
    private readonly handle: ContextHandle,
  ) {
    ({ packs: this.packs, sequences: this.sequences } = addon.info(handle));
  }

  /** Each token list's raw (not normalized) vector, in order. */
  async embed(tokens: readonly Token[][]): Promise<Float32Array[]> {
    const vectors = await this.addon.embed(
      this.handle,
      tokens.map((t) => Int32Array.from(t)),
    );
    this.decodes += vectors.decodes;
    return vectors;
  }

  async dispose(): Promise<void> {
    this.addon.freeContext(this.handle);
  }
}
