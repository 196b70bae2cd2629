// The library's options: the defaults, the types of each function's options, and their checks (an
// unknown or ill-typed option is an invalid-options ClientError naming the function and the option).
import type { PromptFormat } from '../engine/outcomes.js';
import { invalidOptions } from './errors.js';
import { LIBRARY_NAMES, SAMPLING_DEFAULTS, samplingProblem, type Sampling } from '../decode/sampling.js';
import { stopMessage, stopProblem } from '../decode/stop.js';
import type { SchemaSpec } from './constraint.js';

/** Default output limit, as for the SQL functions. */
export const DEFAULT_MAX_TOKENS = 512;
/** Default seed (SPEC 1.1). */
export const DEFAULT_SEED = 42;
/** Default prompt format, as svc.prompt_format's: the model's chat template where it has one. */
export const DEFAULT_PROMPT_FORMAT: PromptFormat = 'chat';
/** Options every generation function takes. */
export interface CallOptions {
  /** Most tokens to generate (default 512). A constrained output cut here is an `incomplete-output` error. */
  maxTokens?: number;
  /** Seed (default 42) of the draws when `temperature` is above 0 (greedy output does not depend on it); remote providers get it. */
  seed?: number;
  /**
   * 0 (the default) decodes greedily; above 0 (at most 2) each token is drawn from the model's
   * distribution under `seed`, from the candidates topK, topP and minP leave, in llama.cpp's order
   * (docs/client.md, *Sampling*): the same call and seed give the same bytes. Under a constraint the
   * draw is among the tokens it allows.
   */
  temperature?: number;
  /** With a temperature: only the k most likely tokens are candidates (default 40; 0: every token). */
  topK?: number;
  /** With a temperature: only the most likely tokens whose probabilities add up to topP (default 0.95; 1: all). */
  topP?: number;
  /** With a temperature: only tokens at least minP times as likely as the most likely one (default 0.05; 0: all). */
  minP?: number;
  /**
   * The output ends before the first of these strings it contains (at most 16, each 1 to 1000
   * characters), wherever tokens split it; under a constraint only where the text before it is a
   * complete output of the constraint (docs/client.md, *Stop strings*). The stop reason is then `stopString`.
   */
  stop?: readonly string[];
  /**
   * The model: a model name (stories260K, svc-embed, bge-small-en, …: `svc models list`), a name of
   * configure({ models }) or SVC_MODEL, a GGUF path (or `local:PATH`, `hf:<user>/<repo>/<file>`), or a
   * remote `<provider>:<model_name>` (openai, openrouter, deepseek; needs `unsafeMode: true`).
   * Default: configure({ model }), then the SVC_MODEL environment variable, then stories260K.
   */
  model?: string;
  /** Allows a remote model. The prompt is sent to the provider; its output is still checked locally. */
  unsafeMode?: boolean;
  /** Aborts the call. */
  signal?: AbortSignal;
  /** Aborts the call after this many milliseconds. */
  timeoutMs?: number;
  /**
   * How the prompt reaches a local model: `'chat'` (default) sends it as the user turn of the model's
   * chat template (the GGUF's `tokenizer.chat_template`; a model without one runs raw), `'raw'` sends
   * it as is. Remote providers always take it as a chat message.
   */
  promptFormat?: PromptFormat;
  /**
   * The system turn before the prompt (chat format; not used by a local model without a template),
   * as written; empty or blank means none. Remote providers get it as a system message.
   */
  systemPrompt?: string;
}

/** Options of the functions that take a JSON Schema (`generate` with `schema`, `generateJson`). */
export interface SchemaOptions {
  /**
   * Refuse keywords of no standard JSON Schema vocabulary (`x-*`, `readonly`, `id` after draft-04)
   * and unknown formats (`invalid-input`/ConstraintError naming the keyword and its pointer) instead
   * of taking them as annotations, as the specification says (default false). svc.strict_schema in SQL.
   */
  strictSchema?: boolean;
  /**
   * Compile objects that have no `additionalProperties` as open (any further members, as the JSON
   * Schema specification reads them) rather than closed (only the declared properties, what a model
   * should write; default false). svc.open_objects in SQL. A Zod schema's objects say for themselves.
   */
  openObjects?: boolean;
}

/** Options of `generate`: at most one constraint (schema, regex or choices), plus CallOptions. */
export interface GenerateOptions extends CallOptions, SchemaOptions {
  /** JSON Schema object, Zod schema or basic type: the output is JSON conforming to it, returned inside `<json-output>` tags. */
  schema?: SchemaSpec;
  /** A regular expression the whole output matches (string, or RegExp with flags i/s). */
  regex?: string | RegExp;
  /** The output is exactly one of these strings. */
  choices?: readonly string[];
}

export const CALL_KEYS = [
  'maxTokens',
  'seed',
  'temperature',
  'topK',
  'topP',
  'minP',
  'stop',
  'model',
  'unsafeMode',
  'signal',
  'timeoutMs',
  'promptFormat',
  'systemPrompt',
] as const;
export const CONSTRAINT_KEYS = ['schema', 'regex', 'choices'] as const;
export const SCHEMA_KEYS = ['strictSchema', 'openObjects'] as const;

export function schemaOptions(o: SchemaOptions, fn: string): { strict: boolean; openObjects: boolean } {
  for (const key of SCHEMA_KEYS) {
    if (o[key] !== undefined && typeof o[key] !== 'boolean')
      throw invalidOptions(`${fn}: ${key} must be a boolean; got ${JSON.stringify(o[key])}`);
  }
  return { strict: o.strictSchema ?? false, openObjects: o.openObjects ?? false };
}

export function checkOptions(options: unknown, allowed: readonly string[], fn: string): Record<string, unknown> {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw invalidOptions(
      `${fn}: options must be an object; got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`,
    );
  }
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) {
      const hint =
        key === 'max_tokens'
          ? " (did you mean 'maxTokens'?)"
          : key === 'unsafe_mode'
            ? " (did you mean 'unsafeMode'?)"
            : '';
      throw invalidOptions(`${fn}: unknown option '${key}'${hint}; options are ${allowed.join(', ')}`);
    }
  }
  const { maxTokens, seed, model, unsafeMode, signal, timeoutMs, promptFormat, systemPrompt } = o;
  if (
    maxTokens !== undefined &&
    (!Number.isInteger(maxTokens) || (maxTokens as number) < 1 || (maxTokens as number) > 1_000_000)
  ) {
    throw invalidOptions(`${fn}: maxTokens must be an integer from 1 to 1000000; got ${JSON.stringify(maxTokens)}`);
  }
  if (seed !== undefined && (!Number.isInteger(seed) || (seed as number) < 0 || (seed as number) > 0xffffffff)) {
    throw invalidOptions(`${fn}: seed must be an integer from 0 to 4294967295; got ${JSON.stringify(seed)}`);
  }
  // The generation functions' sampling options (rerank's topK is its own: how many documents).
  for (const key of allowed.includes('temperature') ? (Object.keys(LIBRARY_NAMES) as Array<keyof Sampling>) : []) {
    const problem = o[key] === undefined ? undefined : samplingProblem(key, o[key]);
    if (problem) throw invalidOptions(`${fn}: ${key} ${problem}`);
  }
  if (o.stop !== undefined) {
    if (!Array.isArray(o.stop))
      throw invalidOptions(`${fn}: stop must be an array of strings; got ${JSON.stringify(o.stop)}`);
    const problem = stopProblem(o.stop, 'stop', 0);
    if (problem) throw invalidOptions(`${fn}: ${stopMessage(problem)}`);
  }
  if (model !== undefined && (typeof model !== 'string' || model === ''))
    throw invalidOptions(`${fn}: model must be a non-empty string; got ${JSON.stringify(model)}`);
  if (unsafeMode !== undefined && typeof unsafeMode !== 'boolean')
    throw invalidOptions(`${fn}: unsafeMode must be a boolean; got ${JSON.stringify(unsafeMode)}`);
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw invalidOptions(`${fn}: signal must be an AbortSignal`);
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs))) {
    throw invalidOptions(
      `${fn}: timeoutMs must be a positive number of milliseconds; got ${JSON.stringify(timeoutMs)}`,
    );
  }
  if (promptFormat !== undefined && promptFormat !== 'chat' && promptFormat !== 'raw') {
    throw invalidOptions(`${fn}: promptFormat must be 'chat' or 'raw'; got ${JSON.stringify(promptFormat)}`);
  }
  if (systemPrompt !== undefined && typeof systemPrompt !== 'string')
    throw invalidOptions(`${fn}: systemPrompt must be a string; got ${JSON.stringify(systemPrompt)}`);
  if (promptFormat === 'raw' && systemPromptOf(o) !== undefined)
    throw invalidOptions(`${fn}: systemPrompt needs promptFormat 'chat' (a raw prompt has no system turn)`);
  return o;
}

/** The system prompt, as svc.system_prompt reads it: used as written, empty or blank means none. */
export const systemPromptOf = (options: { systemPrompt?: unknown }): string | undefined =>
  typeof options.systemPrompt === 'string' && options.systemPrompt.trim() !== '' ? options.systemPrompt : undefined;

export function checkPrompt(prompt: unknown, fn: string): string {
  if (typeof prompt !== 'string')
    throw invalidOptions(`${fn}: prompt must be a string; got ${prompt === null ? 'null' : typeof prompt}`);
  return prompt;
}

/** A call's sampling, its options over the defaults (llama.cpp's); greedy where the temperature is 0. */
export const samplingOf = (options: CallOptions): Sampling => ({
  temperature: options.temperature ?? SAMPLING_DEFAULTS.temperature,
  topK: options.topK ?? SAMPLING_DEFAULTS.topK,
  topP: options.topP ?? SAMPLING_DEFAULTS.topP,
  minP: options.minP ?? SAMPLING_DEFAULTS.minP,
});
