// What the engine's callers see of its results and failures, without node-llama-cpp: the library
// re-exports these, so its declarations load no node-llama-cpp types (whose own .d.ts files do not
// type-check under skipLibCheck: false). engine.ts and prompt.ts re-export them for the rest of svc.

/** How a generation prompt reaches the model: the user turn of its chat template, or as is. */
export type PromptFormat = 'chat' | 'raw';

/**
 * Why a generation ended: the model (or its constraint) ended it (`eogToken`), maxTokens cut it
 * (`maxTokens`), a stop string ended it (`stopString`), or the context filled before maxTokens
 * (`context`: the prompt left fewer than maxTokens tokens of the model's context).
 */
export type StopReason = 'eogToken' | 'maxTokens' | 'stopString' | 'context';

/** How SQL (svc_queue.stop_reason) and HTTP (the edge's `stop_reason`) name a StopReason. */
export const STOP_REASON_NAMES = {
  eogToken: 'end',
  maxTokens: 'max_tokens',
  stopString: 'stop',
  context: 'context',
} as const satisfies Record<StopReason, string>;
export type StopReasonName = (typeof STOP_REASON_NAMES)[StopReason];

/**
 * The stop reason of an output that ran to its token budget: `context` where the context, not
 * maxTokens, set that budget.
 */
export const budgetStopReason = (budget: number, maxTokens: number): StopReason =>
  budget < maxTokens ? 'context' : 'maxTokens';

export interface RerankResult {
  index: number;
  document: string;
  score: number;
}

/** A generation was aborted by its AbortSignal or its timeout. */
export class GenerationAbortedError extends Error {
  readonly code = 'aborted';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GenerationAbortedError';
  }
}

/** llama.cpp refused a GBNF grammar (it does not parse, or it is left-recursive). */
export class GrammarRefusedError extends Error {
  readonly code = 'grammar-refused';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GrammarRefusedError';
  }
}

/**
 * A text the model has nothing to embed: its tokenizer gives no token of it (only invisible, combining
 * or control characters, to a WordPiece vocabulary) and the embedding is empty, or all zeros. Never
 * an empty vector or a NaN score: the same text fails alike on every surface and every attempt.
 */
export class NothingToEmbedError extends Error {
  readonly code = 'nothing-to-embed';
  constructor(what: string) {
    super(
      `${what} gives the model nothing to embed (its tokenizer keeps no token of it: only invisible, combining or control characters)`,
    );
    this.name = 'NothingToEmbedError';
  }
}

/** The model could not be loaded (missing file, not a GGUF, ...). */
export class ModelLoadError extends Error {
  readonly code = 'model-load-failed';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModelLoadError';
  }
}

/** The model's chat template cannot be rendered by node-llama-cpp's Jinja renderer. */
export class ChatTemplateError extends Error {
  readonly code = 'chat-template-failed';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChatTemplateError';
  }
}

/**
 * A request the model's context cannot take, refused before anything runs (the same on every
 * surface, and on every attempt: the worker never retries it). The context holds the prompt and the
 * output together; a prompt of `contextSize` tokens or more leaves no room for one, and a text to
 * embed must fit it whole (`maxTokens` is absent for those).
 */
export class ContextExceededError extends Error {
  readonly code = 'context-exceeded';
  constructor(
    /** What was too long: 'prompt', 'text', 'query', 'documents[2]', ... */
    readonly what: string,
    /** Its tokens, the model's special tokens (BOS, [CLS], [SEP]) included. */
    readonly tokens: number,
    /** The context, in tokens. */
    readonly contextSize: number,
    /** The most tokens it may take: contextSize - 1 (a prompt leaves room for one output token; an embedding context keeps one cell). */
    readonly limit: number,
    /** `tokens` counts a prefix only: the whole is longer (told without tokenizing it all, input-bound.ts). */
    readonly atLeast = false,
  ) {
    const is = atLeast ? 'is at least' : 'is';
    super(
      what === 'prompt'
        ? `prompt ${is} ${tokens} tokens, over the ${limit} a context of ${contextSize} tokens leaves for a prompt (the output needs at least one): ` +
            `shorten the prompt, or raise the context (configure({ contextSize }), svc --context-size, SVC_WORKER_CONTEXT_SIZE) up to the model's training context`
        : `${what} ${is} ${tokens} tokens, over the ${limit} a context of ${contextSize} tokens takes: ` +
            `split it into chunks of at most ${limit} tokens (a vectorizer does: svc_vectorize(..., chunk_by := 'tokens', chunk_size := ${limit}))`,
    );
    this.name = 'ContextExceededError';
  }
}
