// Greedy generation under a grammar with our own token masks (src/decode), fed to llama.cpp.
//
// Why not node-llama-cpp's LlamaGrammar: llama.cpp masks the whole vocabulary through its grammar
// whenever the model's first choice is refused, 10-90 ms a step on a 152k vocabulary. And why not a
// TokenBias through sequence.evaluate: it is rebuilt from a JS Map every step, 70 ms with 151k
// entries (bench/constrained.md). So this drives the sequence's decode itself and samples through
// two native samplers of node-llama-cpp: a plain greedy one, and, when the grammar refuses that
// token, one with a logit bias of -inf on exactly the tokens our mask forbids, passed as typed
// arrays (and kept when the mask is the same as the step before). Greedy over the allowed tokens is
// the same token either way: the plain argmax, when allowed, is the allowed argmax.
//
// This reaches into node-llama-cpp's internals (sequence._decodeTokens, the addon's AddonSampler and
// sampleToken), pinned to 3.22.1 in package.json; test/decode/ checks the outputs against the mask
// of every token at every step, so a change there shows.

import type { LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import type { Position, TokenMasker } from '../decode/mask.js';

/** How masks are used: 'fast' (the plain argmax first), 'every-step' (a full mask every step, the worst case), 'reference' (every token checked alone every step, no trie, no cache: for tests). */
export type MaskMode = 'fast' | 'every-step' | 'reference';

export interface ConstrainedOptions {
  seed: number;
  budget: number;
  mode?: MaskMode;
  /** Tokens that end the output besides the model's end-of-generation ones. */
  stopTokens: ReadonlySet<Token>;
  signal?: AbortSignal;
  /** Called with each full mask's time in ms (for the bench). */
  onMask?: (ms: number) => void;
}

export interface ConstrainedOutput {
  tokens: Token[];
  stopReason: 'eogToken' | 'maxTokens';
  /** Steps that sampled, and how many of them needed a full mask. */
  steps: number;
  masked: number;
  /** The output was closed early with the grammar's shortest completion, to fit maxTokens. */
  completed: boolean;
}

/** maxTokens is below the fewest tokens the constraint's output can have on this model. */
export class ConstraintBudgetError extends Error {
  readonly code = 'budget-too-small';
  constructor(
    readonly minTokens: number,
    readonly maxTokens: number,
  ) {
    super(`max_tokens ${maxTokens} is below the ${minTokens} tokens the shortest output of this constraint takes on this model`);
    this.name = 'ConstraintBudgetError';
  }
}

/** No token of the vocabulary can continue the constraint (a character no token spells). */
export class ConstraintDeadEndError extends Error {
  readonly code = 'constraint-dead-end';
  constructor(message: string) {
    super(message);
    this.name = 'ConstraintDeadEndError';
  }
}

// node-llama-cpp's internals used here (3.22.1).
interface AddonSampler {
  applyConfig(config: Record<string, unknown>): void;
  dispose(): void;
}
interface SequenceInternals {
  _context: { _ctx: { sampleToken(batchLogitIndex: number, sampler: AddonSampler): Promise<number | [number]> } };
  _tokenMeter: unknown;
  _contextShift: unknown;
  _resolveSamplerConfig(options: { temperature: number; seed: number }): Record<string, unknown>;
  _decodeTokens(
    tokens: Token[],
    logits: boolean[],
    priority: number,
    tokenMeter: unknown,
    contextShift: unknown,
    mapper: (batchLogitIndex: number) => Promise<number>,
    afterBatch?: (length: number) => unknown,
  ): Promise<Array<number | undefined>>;
  _takeIntervalCheckpointIfNeededAfterBatch?: (length: number) => unknown;
}
interface ModelInternals {
  _llama: { _bindings: { AddonSampler: new (model: unknown) => AddonSampler } };
  _model: unknown;
}

let minusInfinity = new Float32Array(0);
function minusInfinities(n: number): Float32Array {
  if (minusInfinity.length < n) minusInfinity = new Float32Array(n).fill(-Infinity);
  return minusInfinity.subarray(0, n);
}

function toBanned(allowed: Uint8Array): Uint32Array {
  const out: number[] = [];
  for (let t = 0; t < allowed.length; t++) if (!allowed[t]) out.push(t);
  return Uint32Array.from(out);
}

/**
 * Generates on `sequence` (fresh, owned by the caller) from `input`, greedy under the masker's
 * grammar, at most `budget` tokens. When the model's next token would leave too few tokens to
 * complete the grammar, the output ends with the grammar's shortest completion instead, so it is
 * complete whenever the budget allows any complete output (else ConstraintBudgetError before
 * anything is decoded).
 */
export async function generateConstrained(
  sequence: LlamaContextSequence,
  model: LlamaModel,
  input: Token[],
  masker: TokenMasker,
  options: ConstrainedOptions,
): Promise<ConstrainedOutput> {
  const seq = sequence as unknown as SequenceInternals;
  const internals = model as unknown as ModelInternals;
  const mode = options.mode ?? 'fast';
  let position: Position = masker.initial;
  const shortest = masker.completion(position);
  if (shortest && shortest.length > options.budget) throw new ConstraintBudgetError(shortest.length, options.budget);
  // Without a known completion (a vocabulary that cannot spell it), the output may end cut short.
  const guard = shortest !== null;

  const base = seq._resolveSamplerConfig({ temperature: 0, seed: options.seed });
  const plain = new internals._llama._bindings.AddonSampler(internals._model);
  const banning = new internals._llama._bindings.AddonSampler(internals._model);
  plain.applyConfig({ ...base });
  let lastBan: Uint32Array | undefined;
  const sample = async (index: number, sampler: AddonSampler): Promise<number> => {
    const result = await seq._context._ctx.sampleToken(index, sampler);
    return Array.isArray(result) ? result[0] : result;
  };
  const output: ConstrainedOutput = { tokens: [], stopReason: 'maxTokens', steps: 0, masked: 0, completed: false };
  const pick = async (index: number): Promise<number> => {
    output.steps++;
    if (mode === 'fast') {
      const token = await sample(index, plain);
      if (masker.allows(position, token)) return token;
    }
    output.masked++;
    const started = performance.now();
    const ban = mode === 'reference' ? toBanned(masker.allowedByEachToken(position)) : masker.banned(position);
    options.onMask?.(performance.now() - started);
    if (ban !== lastBan) {
      banning.applyConfig({ ...base, tokenBiasKeys: ban, tokenBiasValues: minusInfinities(ban.length) });
      lastBan = ban;
    }
    return sample(index, banning);
  };
  const afterBatch = seq._takeIntervalCheckpointIfNeededAfterBatch?.bind(seq);
  try {
    let evalTokens = input;
    while (output.tokens.length < options.budget) {
      if (options.signal?.aborted) break;
      const logits: boolean[] = [];
      logits[evalTokens.length - 1] = true;
      const decoded = await seq._decodeTokens(evalTokens, logits, 5, seq._tokenMeter, seq._contextShift, pick, afterBatch);
      const token = decoded[evalTokens.length - 1] as Token | undefined;
      if (token === undefined || token < 0) throw new Error('llama.cpp sampled no token');
      if (model.isEogToken(token) || options.stopTokens.has(token)) {
        if (!masker.isComplete(position) && guard) throw new ConstraintDeadEndError('the model ended before the constraint was complete');
        output.stopReason = 'eogToken';
        break;
      }
      const next = masker.advance(position, token);
      if (!next)
        throw new ConstraintDeadEndError(
          `no token of this model's vocabulary can continue the constraint here (llama.cpp sampled token ${token} from an empty mask)`,
        );
      if (guard) {
        const left = options.budget - output.tokens.length - 1;
        const after = masker.completion(next);
        if (after === null || after.length > left) {
          // The invariant: the current position's completion fits in what is left, this token included.
          output.tokens.push(...(masker.completion(position) as Token[]));
          output.completed = true;
          break;
        }
      }
      output.tokens.push(token);
      position = next;
      evalTokens = [token];
    }
    return output;
  } finally {
    plain.dispose();
    banning.dispose();
  }
}
