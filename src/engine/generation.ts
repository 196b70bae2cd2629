// The per-request generation path: a prompt's tokens fed to a sequence of its own (sequences.ts), decoded
// greedy or sampled, under a grammar through svc's masks (constrained.ts) or llama.cpp's sampler,
// ended by an end-of-generation token, maxTokens, the context or a stop string, and streamed at whole
// characters. The engine (engine.ts) loads the model and hands each request here.
import { LlamaGrammarEvaluationState, type LlamaModel, type Token } from 'node-llama-cpp';
import { ModelRoleError, notAGenerator } from './capabilities.js';
import { capabilitiesOf } from './model-load.js';
import { ContextExceededError, GenerationAbortedError, budgetStopReason, type StopReason } from './outcomes.js';
import type { PromptFormat, PromptOptions, Prompter } from './prompt.js';
import { generateConstrained, type MaskMode } from './constrained.js';
import { TextStream, type OnText } from './text-stream.js';
import { tokensOverLimit } from './input-bound.js';
import { abortMessage, type SequencePool } from './sequences.js';
import type { Grammars } from './grammars.js';
import { UTF8_DECODER, type TokenText } from './token-text.js';
import { isGreedy, samplerSeed, type Sampling } from '../decode/sampling.js';
import { StopScanner } from '../decode/stop.js';

export interface GenerateRequest extends PromptOptions {
  prompt: string;
  maxTokens: number;
  seed: number;
  /** GBNF text; the output is constrained to it. */
  grammar?: string | null;
  /** Sampling under `seed` (src/decode/sampling.ts); absent or temperature 0: greedy. */
  sampling?: Sampling;
  /**
   * The output ends before the first of these it contains (src/decode/stop.ts); under a grammar, only where the
   * text before it is a complete output of the grammar.
   */
  stop?: readonly string[];
  /** Aborts the generation (also while it waits for a free sequence). */
  signal?: AbortSignal;
  /** Aborts the generation after this many milliseconds. */
  timeoutMs?: number;
  /** How grammar masks are computed (constrained.ts): 'fast' (default); the others are for tests and the bench. */
  maskMode?: MaskMode;
  /** Called at each step under a full grammar mask: its time in ms, and whether a cached mask was taken directly (constrained.ts; bench). */
  onMask?: (ms: number, direct: boolean) => void;
  /** For the bench: each mask computed ahead, while llama.cpp evaluated the token before it (ms). */
  onMaskAhead?: (ms: number) => void;
  /**
   * Streaming: called with the output's text as it is generated, at whole UTF-8 characters, and the
   * tokens generated so far; the pieces joined are exactly the result's `text` (text-stream.ts).
   */
  onText?: OnText;
}

export interface GenerateResult {
  /**
   * The generated tokens' bytes (as llama.cpp's token_to_piece writes them, special tokens
   * printing nothing), decoded as UTF-8 once: bytes that are not UTF-8, such as a character cut
   * short by maxTokens, become U+FFFD.
   */
  text: string;
  /** Tokens generated: those `text` is made of (the end-of-generation token is not counted). */
  tokens: number;
  /** `eogToken` (the model, or the grammar, ended the output), `maxTokens` (cut at maxTokens), `context` (cut where the context is full, before maxTokens) or `stopString` (a stop string ended it). */
  stopReason: StopReason;
  /** How the prompt reached the model (prompt.ts): 'chat' only for a chat request on a model with a chat template. */
  promptFormat: PromptFormat;
  /**
   * Under a grammar decoded with svc's own masks: steps sampled, whether the output was closed with
   * the grammar's shortest completion to fit maxTokens, and the output's tokens.
   */
  constrained?: { steps: number; completed: boolean; tokens: readonly Token[] };
}

/** What a generation reads of the loaded model: engine.ts makes one per engine. */
export interface GeneratorParts {
  model: LlamaModel;
  /** Tokens per sequence: the prompt and the output together. */
  contextSize: number;
  prompter: Prompter;
  tokenText: TokenText;
  grammars: Grammars;
  sequences: SequencePool;
}

export class Generator {
  private readonly model: LlamaModel;
  private readonly contextSize: number;
  private readonly prompter: Prompter;
  private readonly tokenText: TokenText;
  private readonly grammars: Grammars;
  private readonly sequences: SequencePool;
  /** Tokens that end a completion besides the model's end-of-generation ones (as LlamaCompletion: gemma's file separator and FIM prefix). */
  private readonly extraStopTokens: ReadonlySet<Token>;

  constructor(parts: GeneratorParts) {
    this.model = parts.model;
    this.contextSize = parts.contextSize;
    this.prompter = parts.prompter;
    this.tokenText = parts.tokenText;
    this.grammars = parts.grammars;
    this.sequences = parts.sequences;
    this.extraStopTokens = extraCompletionStopTokens(parts.model);
  }

  /** Refuses (ContextExceededError) a text that a prefix shows to be over the context, before it is tokenized whole. */
  private refuseOverContext(what: string, text: string): void {
    const over = tokensOverLimit(text, this.contextSize - 1, (piece) => this.model.tokenize(piece).length);
    if (over !== undefined) throw new ContextExceededError(what, over, this.contextSize, this.contextSize - 1, true);
  }

  /**
   * Generation, greedy or sampled (request.sampling), driven token by token on a sequence of its own:
   * it stops at an end-of-generation token (a complete grammar allows nothing else), at maxTokens,
   * where the context is full, or before a stop string (request.stop). The output is the generated tokens' bytes, so a character split across tokens
   * is whole however the generation ends (node-llama-cpp's LlamaCompletion held such a token back
   * and dropped it at the end, and undercounted tokens).
   */
  async generate(request: GenerateRequest): Promise<GenerateResult> {
    if (!Number.isInteger(request.maxTokens) || request.maxTokens < 1) {
      throw new RangeError(`maxTokens must be a positive integer, got ${request.maxTokens}`);
    }
    const grammar = request.grammar ? this.grammars.grammar(request.grammar) : undefined;
    const signals = [
      request.signal,
      request.timeoutMs !== undefined ? AbortSignal.timeout(request.timeoutMs) : undefined,
    ].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    const aborted = () =>
      new GenerationAbortedError(abortMessage(signal!, request.timeoutMs), { cause: signal!.reason });
    if (signal?.aborted) throw aborted();
    const capabilities = capabilitiesOf(this.model);
    if (!capabilities.generate) throw new ModelRoleError(notAGenerator(capabilities));
    this.refuseOverContext('prompt', request.prompt);
    const prompt = this.prompter.tokens(request.prompt, request);
    const input = [...prompt.tokens];
    // The model needs a token to continue from (an empty prompt on a vocabulary without BOS has none).
    if (input.length === 0)
      throw new RangeError(
        'the prompt must give at least one token (it is empty and the model has no beginning-of-sequence token)',
      );
    // One rule on every surface (the edge's llama.cpp server refuses alike): the prompt must leave
    // room for one output token, and the output ends at maxTokens or where the context is full.
    if (input.length >= this.contextSize)
      throw new ContextExceededError('prompt', input.length, this.contextSize, this.contextSize - 1);
    const budget = Math.min(request.maxTokens, this.contextSize - input.length);

    const masker = request.grammar ? this.grammars.masker(request.grammar) : null;
    const vocabulary = this.tokenText.vocabulary();
    const stream = request.onText
      ? new TextStream(request.onText, vocabulary ? (token) => vocabulary.bytes[token] : null)
      : undefined;
    const sampling = isGreedy(request.sampling) ? undefined : request.sampling;
    const scanner = request.stop?.length
      ? new StopScanner(
          request.stop,
          request.grammar ? this.grammars.completeOutput(request.grammar, masker) : undefined,
        )
      : undefined;
    /** A token's bytes through the stop strings' scanner (what it no longer holds back goes on to the stream); true once one ended the output. */
    const scan = (tokens: readonly Token[]): boolean => {
      for (const token of tokens) {
        const settled = scanner!.push(this.tokenText.bytes(token));
        stream?.pushBytes(1, settled);
      }
      return scanner!.stopped;
    };
    /** The output's text, and its last bytes to the stream: up to the stop string where one ended it. */
    const finish = (tokens: readonly Token[]): string => {
      if (!scanner) {
        const text = this.tokenText.decode(tokens);
        stream?.end(text);
        return text;
      }
      stream?.pushBytes(0, scanner.end());
      const text = UTF8_DECODER.decode(scanner.output());
      stream?.end(text);
      return text;
    };
    const sequence = await this.sequences.acquire(signal);
    try {
      if (masker) {
        const out = await generateConstrained(sequence, this.model, input, masker, {
          seed: request.seed,
          sampling,
          budget,
          mode: request.maskMode,
          stopTokens: this.extraStopTokens,
          signal,
          onMask: request.onMask,
          onMaskAhead: request.onMaskAhead,
          onTokens: scanner ? scan : stream && ((tokens) => (stream.push(tokens), false)),
        });
        if (signal?.aborted) throw aborted();
        const { steps, completed } = out;
        const text = finish(out.tokens);
        return {
          text,
          tokens: out.tokens.length,
          stopReason: out.stopReason === 'maxTokens' ? budgetStopReason(budget, request.maxTokens) : out.stopReason,
          promptFormat: prompt.format,
          constrained: { steps, completed, tokens: out.tokens },
        };
      }
      const generated: Token[] = [];
      let stopReason = budgetStopReason(budget, request.maxTokens);
      const evaluation = sequence.evaluate(input, {
        // Greedy as always, or llama.cpp's samplers under the request's seed (a sampler of this evaluation's own, so its draws follow this output only).
        ...(sampling
          ? {
              temperature: sampling.temperature,
              topK: sampling.topK,
              topP: sampling.topP,
              minP: sampling.minP,
              seed: samplerSeed(request.seed),
            }
          : { temperature: 0, seed: request.seed }),
        // A fresh state per request: it follows this output's tokens only.
        grammarEvaluationState: grammar ? new LlamaGrammarEvaluationState({ model: this.model, grammar }) : undefined,
        tokenBias: grammar ? this.tokenText.invalidByteBan() : undefined,
        yieldEogToken: true,
      });
      for await (const token of evaluation) {
        if (signal?.aborted) throw aborted();
        if (this.model.isEogToken(token) || this.extraStopTokens.has(token)) {
          stopReason = 'eogToken';
          break;
        }
        generated.push(token);
        if (scanner) {
          if (scan([token])) {
            stopReason = 'stopString';
            break;
          }
        } else stream?.push([token]);
        if (generated.length >= budget) break;
      }
      if (signal?.aborted) throw aborted();
      const text = finish(generated);
      return { text, tokens: generated.length, stopReason, promptFormat: prompt.format };
    } catch (error) {
      if (signal?.aborted) throw aborted();
      throw error;
    } finally {
      // A fresh sequence per request: nothing of an earlier prompt stays in its state.
      await sequence.dispose();
      this.sequences.released();
    }
  }
}

/** As LlamaCompletion's getExtraCompletionEosTokens: gemma models also end a completion at these tokens. */
function extraCompletionStopTokens(model: LlamaModel): Set<Token> {
  const stops = new Set<Token>();
  const architecture = (model.fileInfo.metadata as { general?: { architecture?: unknown } }).general?.architecture;
  if (architecture !== 'gemma' && architecture !== 'gemma2') return stops;
  for (const token of model.iterateAllTokens()) {
    const text = model.detokenize([token], true);
    if (text === '<|file_separator|>' || text === '<|fim_prefix|>') stops.add(token);
    if (stops.size === 2) break;
  }
  return stops;
}
