// Generation under a grammar with our own token masks (src/decode), fed to llama.cpp: greedy, or
// sampled (a request with a temperature: see sampledPick below, which the rest of this note is not about).
//
// Why not node-llama-cpp's LlamaGrammar: llama.cpp masks the whole vocabulary through its grammar
// whenever the model's first choice is refused, 10-90 ms a step on a 152k vocabulary. And why not a
// TokenBias through sequence.evaluate: it is rebuilt from a JS Map every step (tens of ms with 151k
// entries). So this drives the sequence's decode itself and samples through native samplers of
// node-llama-cpp: a plain greedy one, and, when the grammar refuses that token, one with a logit
// bias of -inf on exactly the tokens our mask forbids, passed as typed arrays. Greedy over the
// allowed tokens is the same token either way: the plain argmax, when allowed, is the allowed
// argmax. Configuring a sampler with a 150k-token ban costs about as much as a sample (a new
// sampler zeroes a candidate buffer of the vocabulary's size, and llama.cpp copies the ban twice:
// 0.6-1.3 ms on qwen2), so samplers stay configured, one per mask, in a pool shared by the
// generations of a model (BanSamplers below): a mask met again, in this generation or a later one
// under the same grammar, samples at once; and where that sampler is ready and the model left the
// fast path at the step before, the plain sample is skipped. In 'every-step', a mask met for the
// first time is computed, and its sampler configured, while llama.cpp evaluates the token before it
// (prepareAhead), so on a model whose forward pass takes longer than that, neither is waited for;
// in 'fast', where the model's choice is refused without a mask at hand, its top choices are
// checked alone before a mask is computed (TOP), unless few characters can follow (FEW_CHARACTERS).
//
// This reaches into node-llama-cpp's internals (sequence._decodeTokens, the addon's AddonSampler and
// sampleToken), pinned to 3.22.1 in package.json; test/decode/ checks the outputs against the mask
// of every token at every step, so a change there shows.

import type { LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import type { Position, TokenMasker } from '../decode/mask.js';
import { TokenMask } from '../decode/token-mask.js';
import type { DecodedVocabulary } from '../decode/vocabulary.js';
import { samplerSeed, type Sampling } from '../decode/sampling.js';

/** How masks are used: 'fast' (the plain argmax first), 'every-step' (a full mask every step, the worst case), 'reference' (every token checked alone every step, no trie, no cache: for tests). */
export type MaskMode = 'fast' | 'every-step' | 'reference';

export interface ConstrainedOptions {
  seed: number;
  /**
   * Sampling (temperature above 0): each step draws from the tokens the grammar allows, through a
   * sampler of this generation's own configured with the mask's ban (see sampledPick); absent: greedy.
   */
  sampling?: Sampling;
  budget: number;
  mode?: MaskMode;
  /** Tokens that end the output besides the model's end-of-generation ones. */
  stopTokens: ReadonlySet<Token>;
  signal?: AbortSignal;
  /**
   * Called at each step sampled under a full mask (for the bench): the mask's time in ms, and whether
   * the step went to a cached mask without the plain sample first. How many steps those are depends
   * on the masks cached before, so they are not part of the output, which never does.
   */
  onMask?: (ms: number, direct: boolean) => void;
  /** Called for each mask computed ahead, while llama.cpp evaluated the token before it (for the bench): its time in ms. */
  onMaskAhead?: (ms: number) => void;
  /**
   * Called with the tokens each step adds to the output (the grammar's completion at once, where it
   * closes the output): for streaming, and stop strings: true ends the output there ('stopString').
   */
  onTokens?: (tokens: readonly Token[]) => boolean;
}

export interface ConstrainedOutput {
  tokens: Token[];
  stopReason: 'eogToken' | 'maxTokens' | 'stopString';
  /** Steps that sampled. */
  steps: number;
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
    super(
      `max_tokens ${maxTokens} is below the ${minTokens} tokens the shortest output of this constraint takes on this model`,
    );
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
  _context: {
    _ctx: {
      sampleToken(batchLogitIndex: number, sampler: AddonSampler): Promise<number | [number]>;
      /** With `logits` [tokens, …]: the logits of those tokens, as [token, logit, token, logit, …] (the result's fourth item). */
      sampleToken(
        batchLogitIndex: number,
        sampler: AddonSampler,
        probabilities: false,
        confidence: false,
        logits: [readonly number[], false, false, false, number],
      ): Promise<[number, unknown, unknown, number[] | undefined]>;
    };
  };
  _tokenMeter: unknown;
  _contextShift: unknown;
  _resolveSamplerConfig(options: {
    temperature: number;
    seed: number;
    topK?: number;
    topP?: number;
    minP?: number;
  }): Record<string, unknown>;
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

/**
 * Native memory of idle pooled samplers, all models together: about 45 samplers of full masks on a
 * 152k vocabulary, as many distinct parse states as a JSON object of a dozen members meets (with a
 * third of that, samplers were reconfigured within one generation on qwen2 and every-step ran at
 * 1.4-1.9x unconstrained instead of 1.1-1.2x).
 */
const POOL_BYTES = 192 * 2 ** 20;

/**
 * What a configured sampler holds: llama.cpp's two copies of the ban (8 bytes an entry each) and
 * node-llama-cpp's candidate buffer, 12 bytes per token of the vocabulary whatever the ban (1.8 MB
 * on qwen2: counting only the ban let hundreds of samplers of small bans hold gigabytes).
 */
const samplerBytes = (owner: TokenMasker, mask: TokenMask) => 16 * mask.bannedCount + 12 * owner.vocabulary.size;

/**
 * Samplers evicted from the pool kept to be configured for another mask of the same vocabulary: a
 * new sampler allocates and zeroes a candidate buffer of the vocabulary's size (0.14 ms on phi-3's,
 * 0.5 ms on qwen2's), where configuring one again costs only its ban (0.003-0.57 ms by its size).
 */
const SPARE_SAMPLERS = 4;

interface Idle {
  owner: TokenMasker;
  mask: TokenMask;
  sampler: AddonSampler;
}

/**
 * Samplers configured with a mask's ban, by masker and mask (the cached object itself), idle ones
 * only: a generation takes one for one sample and gives it back (a sampler's candidate buffer
 * must not serve two samples at once; with greedy and a logit bias it keeps no other state). The
 * least recently used go first past POOL_BYTES.
 */
class BanSamplers {
  private readonly idle = new Map<TokenMasker, Map<TokenMask, Idle[]>>();
  /** Least recently given back first. */
  private readonly order = new Set<Idle>();
  private bytes = 0;
  private readonly spares: Array<{ vocabulary: DecodedVocabulary; sampler: AddonSampler }> = [];

  ready(owner: TokenMasker, mask: TokenMask): boolean {
    return (this.idle.get(owner)?.get(mask)?.length ?? 0) > 0;
  }

  take(owner: TokenMasker, mask: TokenMask): AddonSampler | undefined {
    const list = this.idle.get(owner)?.get(mask);
    const entry = list?.pop();
    if (!entry) return undefined;
    this.order.delete(entry);
    this.bytes -= samplerBytes(owner, mask);
    return entry.sampler;
  }

  give(owner: TokenMasker, mask: TokenMask, sampler: AddonSampler): void {
    let byMask = this.idle.get(owner);
    if (!byMask) this.idle.set(owner, (byMask = new Map()));
    let list = byMask.get(mask);
    if (!list) byMask.set(mask, (list = []));
    const entry = { owner, mask, sampler };
    list.push(entry);
    this.order.add(entry);
    this.bytes += samplerBytes(owner, mask);
    while (this.bytes > POOL_BYTES && this.order.size > 1) this.evict(this.order.values().next().value!);
  }

  /** A sampler no longer pooled, of the same vocabulary (so the same model), to configure for another mask. */
  spare(owner: TokenMasker): AddonSampler | undefined {
    const i = this.spares.findIndex((spare) => spare.vocabulary === owner.vocabulary);
    return i < 0 ? undefined : this.spares.splice(i, 1)[0].sampler;
  }

  /** Disposes the idle samplers of a masker, and the spares of its vocabulary (its engine is disposed, or dropped it). */
  release(owner: TokenMasker): void {
    for (const list of this.idle.get(owner)?.values() ?? []) for (const entry of [...list]) this.evict(entry, false);
    this.idle.delete(owner);
    for (let i = this.spares.length - 1; i >= 0; i--) {
      if (this.spares[i].vocabulary !== owner.vocabulary) continue;
      this.spares[i].sampler.dispose();
      this.spares.splice(i, 1);
    }
  }

  private evict(entry: Idle, keepSpare = true): void {
    this.order.delete(entry);
    this.bytes -= samplerBytes(entry.owner, entry.mask);
    const byMask = this.idle.get(entry.owner)!;
    const list = byMask.get(entry.mask)!;
    list.splice(list.indexOf(entry), 1);
    if (list.length === 0) byMask.delete(entry.mask);
    if (byMask.size === 0) this.idle.delete(entry.owner);
    if (keepSpare && this.spares.length < SPARE_SAMPLERS)
      this.spares.push({ vocabulary: entry.owner.vocabulary, sampler: entry.sampler });
    else entry.sampler.dispose();
  }
}

const pool = new BanSamplers();

/**
 * Masks that allow at most this many tokens are sampled from those tokens' logits (sampleAmong):
 * a sampler banning the rest (151,920 tokens on qwen2) took 3-15 ms to make and configure, the main
 * cost of a first request under a new grammar; reading 16 logits costs llama.cpp one pass over the
 * candidates, as a sample does.
 */
const FEW_ALLOWED = 16;

/**
 * Where the model's own token is refused and no mask is at hand, its TOP best choices (one sample
 * through top-k) are checked alone before a mask is computed. A first request meets every state for
 * the first time, and the masks of free text or of letters (a string's characters, `[a-z]{3,10}`)
 * took 5-25 ms each on qwen2, several forward passes of a 512-wide model; there one of the model's
 * best choices is usually allowed.
 */
const TOP = 32;

/** Where at most this many code points can come next, a mask is computed at once rather than the model's top choices tried. */
const FEW_CHARACTERS = 16;

/** Disposes the pooled samplers of a masker: call before its model is disposed. */
export function releaseMaskSamplers(masker: TokenMasker): void {
  pool.release(masker);
}

let minusInfinity = new Float32Array(0);
function minusInfinities(n: number): Float32Array {
  if (minusInfinity.length < n) minusInfinity = new Float32Array(n).fill(-Infinity);
  return minusInfinity.subarray(0, n);
}

/**
 * Generates on `sequence` (fresh, owned by the caller) from `input`, greedy (or sampled: options.sampling)
 * under the masker's grammar, at most `budget` tokens. When the model's next token would leave too few tokens to
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
  const Sampler = internals._llama._bindings.AddonSampler;
  const plain = new Sampler(internals._model);
  plain.applyConfig({ ...base });
  const configured = (mask: TokenMask) => {
    const sampler = pool.spare(masker) ?? new Sampler(internals._model);
    // applyConfig copies the ban (banned() is a reused buffer).
    const ban = mask.banned();
    sampler.applyConfig({ ...base, tokenBiasKeys: ban, tokenBiasValues: minusInfinities(ban.length) });
    return sampler;
  };
  const sample = async (index: number, sampler: AddonSampler): Promise<number> => {
    const result = await seq._context._ctx.sampleToken(index, sampler);
    return Array.isArray(result) ? result[0] : result;
  };
  /**
   * Greedy over a mask's few allowed tokens from their logits, read through the plain sampler: the
   * same token as a sampler banning the rest (greedy there takes the lowest id among equal highest
   * logits, as here), without configuring one.
   */
  const sampleAmong = async (index: number, mask: TokenMask): Promise<number> =>
    (await sampleWithin(index, mask)).among;
  /**
   * One sample that answers both: the model's own greedy token (`own`), and the greedy token among
   * the mask's few allowed ones (`among`), from their logits read in the same call. Where the mask
   * is at hand before the step (cached, or computed ahead), a step costs one sample as an
   * unconstrained one does, not a plain sample and then another over the allowed tokens.
   */
  const sampleWithin = async (index: number, mask: TokenMask): Promise<{ own: number; among: number }> => {
    const result = await seq._context._ctx.sampleToken(index, plain, false, false, [
      mask.allowedTokens(),
      false,
      false,
      false,
      0,
    ]);
    const own = Array.isArray(result) ? result[0] : (result as number);
    if (mask.allows(own)) return { own, among: own };
    const logits = Array.isArray(result) ? result[3] : undefined;
    let best = -1;
    let bestLogit = -Infinity;
    for (let i = 0; logits && i + 1 < logits.length; i += 2) {
      const [token, logit] = [logits[i], logits[i + 1]];
      if (logit > bestLogit || (logit === bestLogit && token < best)) [best, bestLogit] = [token, logit];
    }
    // No finite logit among them: the ban sampler decides, as it would have.
    return { own, among: best >= 0 ? best : await sampleBanned(index, mask) };
  };
  const sampleMasked = async (index: number, mask: TokenMask): Promise<number> => {
    if (mode !== 'reference' && mask.allowed <= FEW_ALLOWED) return sampleAmong(index, mask);
    if (mode === 'reference') {
      // A fresh ban every step (not pooled).
      const sampler = configured(mask);
      try {
        return await sample(index, sampler);
      } finally {
        sampler.dispose();
      }
    }
    return sampleBanned(index, mask);
  };
  const sampleBanned = async (index: number, mask: TokenMask): Promise<number> => {
    const sampler = pool.take(masker, mask) ?? configured(mask);
    try {
      return await sample(index, sampler);
    } finally {
      pool.give(masker, mask, sampler);
    }
  };
  /** A sampler whose candidates are the model's TOP best, sorted (made once per generation, where needed). */
  let ranking: AddonSampler | undefined;
  /** The model's TOP best tokens and their logits, best first: [token, logit, token, logit, …]. */
  const topChoices = async (index: number): Promise<readonly number[]> => {
    if (!ranking) {
      ranking = pool.spare(masker) ?? new Sampler(internals._model);
      // top-k keeps the TOP highest logits, sorted; the token it then draws is not used.
      ranking.applyConfig({
        ...seq._resolveSamplerConfig({ temperature: 1, topK: TOP, topP: 1, minP: 0, seed: options.seed }),
      });
    }
    const result = await seq._context._ctx.sampleToken(index, ranking, false, false, [[], false, false, false, TOP]);
    return (Array.isArray(result) ? result[3] : undefined) ?? [];
  };
  /**
   * The greedy token among those the grammar allows at this position, found among the model's top
   * choices (highest logit, the lowest id among equal ones, as greedy sampling takes it), or
   * undefined where none of them is known to be it: a choice whose logit equals the last one
   * returned may have had equals left out.
   */
  const firstAllowed = (pairs: readonly number[]): number | undefined => {
    const n = pairs.length >> 1;
    const cut = n >= TOP ? pairs[2 * n - 1] : -Infinity;
    for (let i = 0; i < n;) {
      const logit = pairs[2 * i + 1];
      if (!(logit > cut)) return undefined;
      const equal: number[] = [];
      for (; i < n && pairs[2 * i + 1] === logit; i++) equal.push(pairs[2 * i]);
      equal.sort((a, b) => a - b);
      for (const token of equal) if (masker.allows(position, token)) return token;
    }
    return undefined;
  };
  /**
   * Sampling: a sampler of this generation's own, so its seeded draws follow this output only (the
   * pooled samplers serve every generation of the grammar), configured at each step with the
   * temperature and candidates and the mask's ban: the draw is among the allowed tokens. A mask that
   * allows one token takes it without a draw. Costlier than the greedy steps (a ban configured every
   * step, where greedy takes the model's own token when the grammar allows it), and only taken when
   * the request samples.
   */
  const sampledBase = options.sampling
    ? seq._resolveSamplerConfig({
        temperature: options.sampling.temperature,
        topK: options.sampling.topK,
        topP: options.sampling.topP,
        minP: options.sampling.minP,
        seed: samplerSeed(options.seed),
      })
    : undefined;
  let drawing: AddonSampler | undefined;
  const sampledPick = async (index: number): Promise<number> => {
    output.steps++;
    const mask = masker.mask(position);
    if (mask.only >= 0) return mask.only;
    drawing ??= new Sampler(internals._model);
    const ban = mask.banned();
    drawing.applyConfig({ ...sampledBase, tokenBiasKeys: ban, tokenBiasValues: minusInfinities(ban.length) });
    return sample(index, drawing);
  };
  const output: ConstrainedOutput = { tokens: [], stopReason: 'maxTokens', steps: 0, completed: false };
  /** Whether the model's own choice was refused at the step before (it is "fighting" the grammar). */
  let refused = false;
  const pick = async (index: number): Promise<number> => {
    output.steps++;
    let direct = false;
    if (mode === 'fast') {
      // The token a mask allows alone (a key's next piece, a closing quote): greedy over it is it,
      // with no sampler to configure.
      const ready = masker.cachedMask(position);
      if (ready && ready.only >= 0) {
        options.onMask?.(0, true);
        return ready.only;
      }
      // A mask of few tokens at hand: one sample gives the model's own token and, where the grammar
      // refuses it, the best allowed one.
      if (ready && ready.allowed <= FEW_ALLOWED) {
        const { own, among } = await sampleWithin(index, ready);
        refused = own !== among;
        if (refused) options.onMask?.(0, true);
        return among;
      }
      // A mask at hand with its sampler configured: one sample gives the answer, where the plain
      // sample is likely refused (it was at the step before) or a small ban costs it nothing.
      direct =
        ready !== undefined && pool.ready(masker, ready) && (refused || ready.bannedCount * 8 < masker.vocabulary.size);
      // Where few characters can come next (digits, a key's letter), few tokens can: the mask is
      // cheap to compute and the model's top choices would seldom hold one of them.
      const wide = position.remain === 0 && masker.automaton.nextCodePoints(position.state) > FEW_CHARACTERS;
      if (!direct && !ready && refused && wide) {
        // The model fought the grammar at the step before and no mask is at hand: its top choices
        // at once, checked alone, before computing one.
        const pairs = await topChoices(index);
        const token = firstAllowed(pairs);
        if (token !== undefined) {
          refused = token !== pairs[0];
          return token;
        }
      } else if (!direct) {
        const token = await sample(index, plain);
        refused = !masker.allows(position, token);
        if (!refused) return token;
        if (!ready && wide) {
          const next = firstAllowed(await topChoices(index));
          if (next !== undefined) return next;
        }
      }
    }
    const started = performance.now();
    const mask =
      mode === 'reference' ? TokenMask.fromAllowed(masker.allowedByEachToken(position)) : masker.mask(position);
    options.onMask?.(performance.now() - started, direct);
    // 'reference' samples even where one token is allowed, so the tests compare both.
    return mode !== 'reference' && mask.only >= 0 ? mask.only : sampleMasked(index, mask);
  };
  let finished = false;
  /**
   * Prepares the mask of a position, and its sampler, while llama.cpp evaluates the token that led
   * there, so the step finds both ready (llguidance overlaps them the same way). Scheduled after
   * node-llama-cpp's own dispatch (a setImmediate as well, queued first), so the evaluation has
   * started on its thread. In 'every-step' only: in 'fast', where the model's choice is refused,
   * its top choices are tried first (TOP), and a mask is computed at the step only where none of
   * them is allowed, so a first request does not compute a costly mask for every state of free
   * text ahead of steps that need none (preparing even the first step's mask during the prompt cost
   * short outputs 2-3% more CPU), and a model on the fast path leaves the CPU to llama.cpp.
   */
  const prepareAhead = (at: Position) => {
    if (mode !== 'every-step') return;
    setImmediate(() => {
      if (finished) return;
      try {
        let mask = masker.cachedMask(at);
        if (!mask) {
          const started = performance.now();
          mask = masker.mask(at);
          options.onMaskAhead?.(performance.now() - started);
        }
        if (mask.allowed > FEW_ALLOWED && !pool.ready(masker, mask)) pool.give(masker, mask, configured(mask));
      } catch {
        // The step computes the mask again and reports the error there.
      }
    });
  };
  const afterBatch = seq._takeIntervalCheckpointIfNeededAfterBatch?.bind(seq);
  try {
    let evalTokens = input;
    while (output.tokens.length < options.budget) {
      if (options.signal?.aborted) break;
      const logits: boolean[] = [];
      logits[evalTokens.length - 1] = true;
      const decoding = seq._decodeTokens(
        evalTokens,
        logits,
        5,
        seq._tokenMeter,
        seq._contextShift,
        sampledBase ? sampledPick : pick,
        afterBatch,
      );
      if (!sampledBase) prepareAhead(position);
      const decoded = await decoding;
      const token = decoded[evalTokens.length - 1] as Token | undefined;
      if (token === undefined || token < 0) throw new Error('llama.cpp sampled no token');
      if (model.isEogToken(token) || options.stopTokens.has(token)) {
        if (!masker.isComplete(position) && guard)
          throw new ConstraintDeadEndError('the model ended before the constraint was complete');
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
          const completion = masker.completion(position) as Token[];
          output.tokens.push(...completion);
          output.completed = true;
          if (options.onTokens?.(completion)) output.stopReason = 'stopString';
          break;
        }
      }
      output.tokens.push(token);
      if (options.onTokens?.([token])) {
        output.stopReason = 'stopString';
        break;
      }
      position = next;
      // Nothing but end-of-generation is allowed now: that is what the next step would sample, so
      // the output ends here without a forward pass for it ('reference' takes that step, so the
      // tests compare both).
      if (mode !== 'reference' && masker.isFinal(position)) {
        output.stopReason = 'eogToken';
        break;
      }
      evalTokens = [token];
    }
    return output;
  } finally {
    finished = true;
    plain.dispose();
    ranking?.dispose();
    drawing?.dispose();
  }
}
