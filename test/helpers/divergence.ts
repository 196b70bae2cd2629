// Where and why the edge's llama.cpp build (wllama, wasm) parts from node-llama-cpp's (#53), for the
// one-answer test and bench/divergence.ts. The native side runs node-llama-cpp as the engine runs it
// (the engine's prompt tokens, one sequence, greedy: temperature 0); the edge side is its engine
// object's generate with `logprobs` (each token's id and the likeliest at its step).
import type { LlamaContext, LlamaModel, Token } from 'node-llama-cpp';

// jest runs a test file's modules in a VM realm of their own, where node-llama-cpp's
// `result instanceof Array` is false for the arrays its addon makes (the main realm's), so
// evaluateWithMetadata dropped the probabilities. Array.isArray sees through realms.
Object.defineProperty(Array, Symbol.hasInstance, {
  value: (value: unknown) => Array.isArray(value),
  configurable: true,
});

/** One step of the edge's generation (src/edge/engine/wllama.ts TokenStep). */
export interface EdgeStep {
  id: number;
  top: Array<{ id: number; logprob: number }>;
}

/** The greedy tokens node-llama-cpp generates after `input`: the engine's loop (src/engine/generation.ts), ending at an end-of-generation token or `budget`. */
export async function nativeTokens(
  model: LlamaModel,
  context: LlamaContext,
  input: Token[],
  budget: number,
): Promise<Token[]> {
  const sequence = context.getSequence();
  const out: Token[] = [];
  try {
    for await (const token of sequence.evaluate(input, { temperature: 0, seed: 42, yieldEogToken: true })) {
      if (model.isEogToken(token)) break;
      out.push(token);
      if (out.length >= budget) break;
    }
  } finally {
    await sequence.dispose();
  }
  return out;
}

/**
 * node-llama-cpp's log-probabilities of the `k` likeliest tokens after `input` and `generated[0..at)`
 * (softmax of the raw logits), evaluated as generation evaluates them: the input in one batch, then one
 * token at a time. The order matters: evaluated in one batch, the same prefix gave logits that put
 * other tokens first at a near-tie (stories260K, 4 of 5 divergences).
 */
export async function nativeTop(
  context: LlamaContext,
  input: Token[],
  generated: readonly Token[],
  at: number,
  k: number,
): Promise<Array<{ id: number; logprob: number }>> {
  const sequence = context.getSequence();
  try {
    const fed = [input, ...generated.slice(0, at).map((t) => [t])];
    for (const batch of fed.slice(0, -1)) await sequence.evaluateWithoutGeneratingNewTokens(batch);
    const steps = sequence.evaluateWithMetadata(
      fed[fed.length - 1],
      { probabilities: true },
      { temperature: 1, topK: 0, topP: 1, minP: 0, seed: 42 },
    );
    const first = await steps.next();
    await steps.return();
    if (first.done) throw new Error('node-llama-cpp generated nothing');
    return [...first.value.probabilities.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([id, p]) => ({ id, logprob: Math.log(p) }));
  } finally {
    await sequence.dispose();
  }
}

export type Cause =
  /** The edge took the native token's runner-up, the two within `NEAR_TIE` of each other on both builds: rounding. */
  | 'near-tie'
  /** The native token is the edge's likeliest too, but the edge may not emit it: it would make invalid UTF-8, a NUL or a control token (TEXT_GRAMMAR). */
  | 'not-text'
  /** Neither: a difference this file does not explain. */
  | 'unexplained';

/**
 * The largest log-probability gap counted as a tie: the two builds' log-probabilities of one token
 * differed by at most 1.2e-3 after a prompt and 5e-3 where outputs parted (stories260K, 50 prompts:
 * bench/divergence.ts prints them), so two tokens this close can come out in either order; the gaps
 * at the near-ties seen were 1e-4 to 7e-3, ten times under this.
 */
export const NEAR_TIE = 0.05;

export interface Divergence {
  /** The first token that differs, counted from the first generated one. */
  token: number;
  cause: Cause;
  native: Array<{ id: number; logprob: number }>;
  edge: Array<{ id: number; logprob: number }>;
  /** What the edge generated there. */
  edgeToken: number;
}

/** Why the edge's token at `at` is not the native one: the two builds' top tokens there, and the cause. */
export function classify(at: number, nativeToken: number, native: Divergence['native'], step: EdgeStep): Divergence {
  const edge = step.top;
  const gap = (top: Divergence['native'], a: number, b: number) =>
    Math.abs((top.find((t) => t.id === a)?.logprob ?? -Infinity) - (top.find((t) => t.id === b)?.logprob ?? -Infinity));
  let cause: Cause = 'unexplained';
  if (edge[0]?.id === nativeToken && step.id !== nativeToken) cause = 'not-text';
  if (
    native[0]?.id === nativeToken &&
    native[1]?.id === step.id &&
    edge[0]?.id === step.id &&
    gap(native, nativeToken, step.id) < NEAR_TIE &&
    gap(edge, nativeToken, step.id) < NEAR_TIE
  )
    cause = 'near-tie';
  return { token: at, cause, native, edge, edgeToken: step.id };
}

/** The index of the first element that differs, or -1 when one list is the other. */
export function firstDifference(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
}
