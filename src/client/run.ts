// One generation as every library function runs it: the model resolved (a remote one only under
// unsafeMode), the constraint compiled first, the output generated locally or by the provider, then
// checked against the constraint (and a Zod schema's own checks) before anything is returned.
import { ConstraintError } from '../grammar/index.js';
import { ContextExceededError, type StopReason } from '../engine/outcomes.js';
import { ModelRoleError } from '../engine/capabilities.js';
import { compile, preview, type Constraint } from './constraint.js';
import { ClientError } from './errors.js';
import { localEngine, remoteTimeoutMs, resolveModel, type ModelRef } from './local.js';
import { remoteGenerate } from './remote.js';
import {
  DEFAULT_MAX_TOKENS,
  DEFAULT_PROMPT_FORMAT,
  DEFAULT_SEED,
  samplingOf,
  systemPromptOf,
  type CallOptions,
} from './options.js';

function remoteAllowed(ref: ModelRef, options: CallOptions, fn: string): void {
  if (ref.kind === 'remote' && options.unsafeMode !== true) {
    throw new ClientError(
      'unsafe-mode-required',
      `${fn}: model '${options.model}' is a remote model (${ref.provider}); remote models need unsafeMode: true, because the prompt is ` +
        `sent to ${ref.provider} and its output is not produced under the local grammar (it is still validated locally)`,
    );
  }
}

export interface Output {
  /** The raw output text (JSON text for schemas). */
  text: string;
  /** The checked value: parsed JSON, the typed value, or the text. */
  value: unknown;
  /** Tokens generated (undefined where a remote provider does not say). */
  tokens?: number;
  stopReason: StopReason;
}

/**
 * Runs one generation under a constraint (or none) on the chosen model and checks the output.
 * `onText` (streaming) gets the raw output's text as it comes (src/engine/generation.ts; a remote answer at once).
 */
export async function run(
  fn: string,
  prompt: string,
  constraint: Constraint | undefined,
  options: CallOptions,
  onText?: (text: string, tokens: number) => void,
): Promise<Output> {
  const ref = resolveModel(options.model);
  remoteAllowed(ref, options, fn);
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const seed = options.seed ?? DEFAULT_SEED;
  // Compile before anything is loaded or sent: a bad constraint fails fast, whatever the model.
  const compiled = constraint ? compile(constraint) : undefined;

  const sampling = samplingOf(options);
  const stop = options.stop && options.stop.length > 0 ? [...options.stop] : undefined;
  let text: string;
  let stopReason: StopReason;
  let tokens: number | undefined;
  if (ref.kind === 'remote') {
    let truncated: boolean;
    ({ text, truncated } = await remoteGenerate({
      provider: ref.provider,
      model: ref.name,
      prompt,
      constraint,
      maxTokens,
      seed,
      sampling,
      stop,
      systemPrompt: systemPromptOf(options),
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? remoteTimeoutMs(),
    }));
    if (text !== '') onText?.(text, 0);
    stopReason = truncated ? 'maxTokens' : 'eogToken';
  } else {
    const engine = await localEngine(ref.path);
    const out = await engine
      .generate({
        prompt,
        maxTokens,
        seed,
        sampling,
        stop,
        promptFormat: options.promptFormat ?? DEFAULT_PROMPT_FORMAT,
        systemPrompt: systemPromptOf(options),
        grammar: compiled?.grammar.gbnf,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        onText,
      })
      .catch((error: unknown) => {
        throw budgetTooSmall(fn, maxTokens, error) ?? inputRefused(fn, error);
      });
    text = out.text;
    stopReason = out.stopReason;
    tokens = out.tokens;
  }
  if (!compiled || !constraint) return { text, value: text, tokens, stopReason };

  const checked = compiled.check(text);
  if (!checked.ok) {
    if (stopReason === 'maxTokens' || stopReason === 'context') {
      const where =
        stopReason === 'context'
          ? "where the model's context was full, before maxTokens, before the constraint was satisfied; shorten the prompt or use a model with a longer context"
          : `at maxTokens (${maxTokens}) before the constraint was satisfied; raise maxTokens`;
      throw new ClientError('incomplete-output', `${fn}: output was cut ${where}. Partial output: ${preview(text)}`, {
        output: text,
      });
    }
    throw new ClientError('validation-failed', `${fn}: ${checked.error.message}`, {
      cause: checked.error,
      output: text,
    });
  }
  let value = checked.value;
  if (constraint.kind === 'json' && constraint.zod) {
    // Zod checks what JSON Schema cannot say (refinements) and applies its transforms and defaults.
    const parsed = constraint.zod.safeParse(value);
    if (!parsed.success) {
      const error = new ConstraintError(
        'validation-failed',
        `output does not satisfy the Zod schema: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
      );
      throw new ClientError('validation-failed', `${fn}: ${error.message}`, { cause: error, output: text });
    }
    value = parsed.data;
  }
  return { text, value, tokens, stopReason };
}

/**
 * The engine's refusal of a budget below the shortest output of the constraint on this model
 * (src/engine/constrained.ts ConstraintBudgetError, told by its code), as incomplete-output.
 */
function budgetTooSmall(fn: string, maxTokens: number, error: unknown): ClientError | undefined {
  const e = error as { code?: unknown; minTokens?: unknown } | null;
  if (e?.code !== 'budget-too-small') return undefined;
  return new ClientError(
    'incomplete-output',
    `${fn}: maxTokens ${maxTokens} is below the ${String(e.minTokens)} tokens the shortest output of this constraint takes on this model; raise maxTokens`,
    { cause: error, output: '' },
  );
}

/**
 * What the model refuses whatever the attempt, as ClientErrors naming the function: an input over
 * its context ('context-exceeded', with the token counts and the limit), generation from an
 * embedding model ('unsupported-operation'). The message after the function's name is the one
 * svc_generate and the worker give (src/engine/outcomes.ts).
 */
export function inputRefused(fn: string, error: unknown): never {
  if (error instanceof ContextExceededError)
    throw new ClientError('context-exceeded', `${fn}: ${error.message}`, { cause: error });
  if (error instanceof ModelRoleError)
    throw new ClientError('unsupported-operation', `${fn}: ${error.message}`, { cause: error });
  throw error;
}
