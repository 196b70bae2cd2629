// svc client library (surface A): constrained generation in-process, on the same constraint compiler
// and engine as the queue worker, plus remote OpenAI-compatible providers behind `unsafeMode`.
//
//   import { generate, generateJson, generateRegex, generateChoice, generateFormat } from 'svc/client';
//
// Every output is checked locally against its constraint before it is returned, whatever produced it.
import type { z } from 'zod';
import { ConstraintError } from '../grammar/index.js';
import { ContextExceededError, NothingToEmbedError, type RerankResult } from '../engine/outcomes.js';
import { ModelRoleError, servable } from '../engine/capabilities.js';
import type { PromptFormat, StopReason } from '../engine/outcomes.js';
import {
  choicesConstraint,
  compile,
  preview,
  regexConstraint,
  schemaConstraint,
  type BasicTypeSpec,
  type Constraint,
  type InferSchema,
  type JsonSchema,
  type SchemaSpec,
} from './constraint.js';
import { ClientError, invalidOptions } from './errors.js';
import { localEngine, remoteTimeoutMs, resolveModel, type ModelRef } from './local.js';
import type { ModelPurpose } from '../model/names.js';
import { remoteGenerate } from './remote.js';
import { LIBRARY_NAMES, SAMPLING_DEFAULTS, samplingProblem, type Sampling } from '../decode/sampling.js';
import { stopMessage, stopProblem } from '../decode/stop.js';

export { ClientError, type ClientErrorCode } from './errors.js';
export { ConstraintError, type ConstraintErrorCode } from '../grammar/index.js';
export { ContextExceededError, GenerationAbortedError, ModelLoadError, type RerankResult } from '../engine/outcomes.js';
export { ChatTemplateError, type PromptFormat, type StopReason } from '../engine/outcomes.js';
export {
  configure,
  unloadModels,
  resolveModel,
  DEFAULT_REMOTE_TIMEOUT_MS,
  type LocalSettings,
  type ModelRef,
} from './local.js';
export { DEFAULT_MODELS, MODEL_NAMES, type ModelPurpose } from '../model/names.js';
export { PROVIDERS, type Provider } from './remote.js';
export type { BasicTypeSpec, InferSchema, JsonSchema, SchemaSpec } from './constraint.js';

/** Default output limit, as for the SQL functions. */
export const DEFAULT_MAX_TOKENS = 512;
/** Default seed (SPEC 1.1). */
export const DEFAULT_SEED = 42;
/** Default prompt format, as svc.prompt_format's: the model's chat template where it has one. */
export const DEFAULT_PROMPT_FORMAT: PromptFormat = 'chat';
/** Default rerank task: the web-search passage-retrieval instruction, as for svc_rerank. */
export const DEFAULT_RERANK_TASK = 'Given a web search query, retrieve relevant passages that answer the query';

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

const CALL_KEYS = [
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
const CONSTRAINT_KEYS = ['schema', 'regex', 'choices'] as const;
const SCHEMA_KEYS = ['strictSchema', 'openObjects'] as const;

function schemaOptions(o: SchemaOptions, fn: string): { strict: boolean; openObjects: boolean } {
  for (const key of SCHEMA_KEYS) {
    if (o[key] !== undefined && typeof o[key] !== 'boolean')
      throw invalidOptions(`${fn}: ${key} must be a boolean; got ${JSON.stringify(o[key])}`);
  }
  return { strict: o.strictSchema ?? false, openObjects: o.openObjects ?? false };
}

function checkOptions(options: unknown, allowed: readonly string[], fn: string): Record<string, unknown> {
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
const systemPromptOf = (options: { systemPrompt?: unknown }): string | undefined =>
  typeof options.systemPrompt === 'string' && options.systemPrompt.trim() !== '' ? options.systemPrompt : undefined;

function checkPrompt(prompt: unknown, fn: string): string {
  if (typeof prompt !== 'string')
    throw invalidOptions(`${fn}: prompt must be a string; got ${prompt === null ? 'null' : typeof prompt}`);
  return prompt;
}

function remoteAllowed(ref: ModelRef, options: CallOptions, fn: string): void {
  if (ref.kind === 'remote' && options.unsafeMode !== true) {
    throw new ClientError(
      'unsafe-mode-required',
      `${fn}: model '${options.model}' is a remote model (${ref.provider}); remote models need unsafeMode: true, because the prompt is ` +
        `sent to ${ref.provider} and its output is not produced under the local grammar (it is still validated locally)`,
    );
  }
}

interface Output {
  /** The raw output text (JSON text for schemas). */
  text: string;
  /** The checked value: parsed JSON, the typed value, or the text. */
  value: unknown;
  /** Tokens generated (undefined where a remote provider does not say). */
  tokens?: number;
  stopReason: StopReason;
}

/** A call's sampling, its options over the defaults (llama.cpp's); greedy where the temperature is 0. */
const samplingOf = (options: CallOptions): Sampling => ({
  temperature: options.temperature ?? SAMPLING_DEFAULTS.temperature,
  topK: options.topK ?? SAMPLING_DEFAULTS.topK,
  topP: options.topP ?? SAMPLING_DEFAULTS.topP,
  minP: options.minP ?? SAMPLING_DEFAULTS.minP,
});

/**
 * Runs one generation under a constraint (or none) on the chosen model and checks the output.
 * `onText` (streaming) gets the raw output's text as it comes (engine.ts; a remote answer at once).
 */
async function run(
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
 * Generates text for `prompt`. With `schema`, the result is the JSON output wrapped in
 * `<json-output>` … `</json-output>` (SPEC 2.1); with `regex`, text matching it; with `choices`, one of
 * them; with none, the model's plain output. At most one constraint may be given.
 */
export async function generate(prompt: string, options: GenerateOptions = {}): Promise<string> {
  const { o, constraint } = generateRequest('generate', prompt, options);
  const { text } = await run('generate', prompt, constraint, o);
  return generateResult(constraint, text);
}

/** generate's and generateStream's options checked, and the constraint they give. */
function generateRequest(
  fn: string,
  prompt: string,
  options: GenerateOptions,
): { o: GenerateOptions; constraint?: Constraint } {
  const o = checkOptions(options, [...CONSTRAINT_KEYS, ...SCHEMA_KEYS, ...CALL_KEYS], fn) as GenerateOptions;
  const how = schemaOptions(o, fn);
  for (const key of SCHEMA_KEYS)
    if (o[key] !== undefined && o.schema === undefined) throw invalidOptions(`${fn}: ${key} applies to schema only`);
  checkPrompt(prompt, fn);
  const given = CONSTRAINT_KEYS.filter((k) => o[k] !== undefined);
  if (given.length > 1)
    throw invalidOptions(`${fn}: give exactly one of schema, regex or choices; got ${given.join(' and ')}`);
  let constraint: Constraint | undefined;
  if (o.schema !== undefined) constraint = schemaConstraint(o.schema, how.strict, how.openObjects);
  else if (o.regex !== undefined) constraint = regexConstraint(o.regex);
  else if (o.choices !== undefined) constraint = choicesConstraint(o.choices);
  return { o, constraint };
}

/** generate's answer: the output, in `<json-output>` tags for a schema (SPEC 2.1). */
const generateResult = (constraint: Constraint | undefined, text: string) =>
  constraint?.kind === 'json' ? `<json-output>${text}</json-output>` : text;

/** What generateStream yields: the output's text as it comes, then the end. */
export type StreamEvent =
  /** A piece of the output at whole characters; `tokens`: generated so far (0 from a remote provider, whose answer comes whole). */
  | { type: 'text'; text: string; tokens: number }
  /** The end: `result` is exactly what generate returns for the same prompt and options (a schema's JSON in `<json-output>` tags). */
  | { type: 'done'; result: string; tokens?: number; stopReason: StopReason };

/**
 * generate, streamed: yields the output's text as the model writes it (`{type: 'text'}` pieces, at
 * whole UTF-8 characters, which joined are the raw output), then `{type: 'done', result}` with
 * exactly generate's result. Options and errors are generate's, checked before anything runs (a bad
 * option throws from this call, not from the loop); the output is checked against its constraint at
 * the end, so an output that breaks it throws after its pieces. Leaving the loop early (`break`)
 * stops the generation.
 *
 *   for await (const event of generateStream('Once upon a time')) if (event.type === 'text') process.stdout.write(event.text);
 */
export function generateStream(prompt: string, options: GenerateOptions = {}): AsyncIterableIterator<StreamEvent> {
  const { o, constraint } = generateRequest('generateStream', prompt, options);
  const stop = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
  const queue: StreamEvent[] = [];
  let failure: { error: unknown } | undefined;
  let finished = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  run('generateStream', prompt, constraint, { ...o, signal }, (text, tokens) => {
    queue.push({ type: 'text', text, tokens });
    notify();
  })
    .then(
      (out) =>
        queue.push({
          type: 'done',
          result: generateResult(constraint, out.text),
          tokens: out.tokens,
          stopReason: out.stopReason,
        }),
      (error: unknown) => (failure = { error }),
    )
    .finally(() => {
      finished = true;
      notify();
    });
  const iterator: AsyncIterableIterator<StreamEvent> = {
    async next(): Promise<IteratorResult<StreamEvent>> {
      for (;;) {
        const event = queue.shift();
        if (event) return { value: event, done: false };
        if (finished) {
          if (failure && !stop.signal.aborted) {
            const { error } = failure;
            failure = undefined;
            stop.abort();
            throw error;
          }
          return { value: undefined, done: true };
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async return(): Promise<IteratorResult<StreamEvent>> {
      // The reader left the loop: the generation stops, and its abort is not an error to anyone.
      stop.abort(new Error('the stream was closed'));
      queue.length = 0;
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/**
 * Generates JSON conforming to `schema` and returns the parsed, validated value: Zod's output type
 * for a Zod schema, `number`/`boolean`/`string` for a basic type, `unknown` (or your `T`) for a JSON
 * Schema object.
 */
export function generateJson<S extends z.ZodType>(
  prompt: string,
  schema: S,
  options?: CallOptions & SchemaOptions,
): Promise<z.output<S>>;
export function generateJson<S extends BasicTypeSpec>(
  prompt: string,
  schema: S,
  options?: CallOptions & SchemaOptions,
): Promise<InferSchema<S>>;
export function generateJson<T = unknown>(
  prompt: string,
  schema: JsonSchema,
  options?: CallOptions & SchemaOptions,
): Promise<T>;
export async function generateJson(
  prompt: string,
  schema: SchemaSpec,
  options: CallOptions & SchemaOptions = {},
): Promise<unknown> {
  const o = checkOptions(options, [...SCHEMA_KEYS, ...CALL_KEYS], 'generateJson') as CallOptions & SchemaOptions;
  const how = schemaOptions(o, 'generateJson');
  checkPrompt(prompt, 'generateJson');
  if (schema === undefined) throw invalidOptions('generateJson: a schema is required');
  const { value } = await run('generateJson', prompt, schemaConstraint(schema, how.strict, how.openObjects), o);
  return value;
}

/** Generates text that the whole of `pattern` matches, and returns it. */
export async function generateRegex(
  prompt: string,
  pattern: string | RegExp,
  options: CallOptions = {},
): Promise<string> {
  const o = checkOptions(options, CALL_KEYS, 'generateRegex') as CallOptions;
  checkPrompt(prompt, 'generateRegex');
  return (await run('generateRegex', prompt, regexConstraint(pattern), o)).text;
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

/** Generates exactly one of `choices`, and returns it. */
export async function generateChoice<const C extends readonly string[]>(
  prompt: string,
  choices: C,
  options: CallOptions = {},
): Promise<C[number]> {
  const o = checkOptions(options, CALL_KEYS, 'generateChoice') as CallOptions;
  checkPrompt(prompt, 'generateChoice');
  return (await run('generateChoice', prompt, choicesConstraint(choices), o)).text as C[number];
}

/**
 * Generates a value of a basic type: `Number` (or 'number', 'float') and 'integer'/'int' give a
 * number, `Boolean` (or 'boolean', 'bool') a boolean, `String` (or 'string', 'str') a string (the
 * model writes it as a JSON string literal; the value is returned unquoted).
 */
export async function generateFormat<S extends BasicTypeSpec>(
  prompt: string,
  type: S,
  options: CallOptions = {},
): Promise<InferSchema<S>> {
  const o = checkOptions(options, CALL_KEYS, 'generateFormat') as CallOptions;
  checkPrompt(prompt, 'generateFormat');
  const constraint = (() => {
    if (typeof type === 'function' || typeof type === 'string') {
      try {
        const c = schemaConstraint(type);
        if (c.kind === 'json' && c.from === 'type') return c;
      } catch (error) {
        if (!(error instanceof ConstraintError) && !(error instanceof ClientError)) throw error;
      }
    }
    throw invalidOptions(
      `generateFormat: type must be Number, Boolean, String or a type name ('integer', 'number', 'boolean', 'string'); got ${typeof type === 'function' ? type.name || 'a function' : JSON.stringify(type)}`,
    );
  })();
  return (await run('generateFormat', prompt, constraint, o)).value as InferSchema<S>;
}

export interface EmbedOptions {
  /**
   * A local model (see CallOptions.model). Embeddings are computed locally only. Default:
   * configure({ model }), then SVC_MODEL, then svc-embed (the shipped embedder, as the edge's EMBED_MODEL).
   */
  model?: string;
}

/** A local model's path for `fn`; none named: `purpose`'s default (resolveModel). */
function localOnly(model: string | undefined, fn: string, purpose: ModelPurpose): string {
  const ref = resolveModel(model, purpose);
  if (ref.kind === 'remote')
    throw new ClientError('unsupported-operation', `${fn}: runs on local models only; '${model}' is a remote model`);
  return ref.path;
}

/** An L2-normalized embedding of `text`, of the model's dimension. Empty or whitespace-only text is an `invalid-options` error. */
export async function embed(text: string, options: EmbedOptions = {}): Promise<number[]> {
  const o = checkOptions(options, ['model'], 'embed') as EmbedOptions;
  if (typeof text !== 'string')
    throw invalidOptions(`embed: text must be a string; got ${text === null ? 'null' : typeof text}`);
  // As svc_embed in SQL: empty or whitespace-only text has no meaningful embedding.
  if (text.trim() === '') throw invalidOptions('embed: text must not be empty');
  return (await localEngine(localOnly(o.model, 'embed', 'embed'))).embed(text).catch(nothingToEmbed('embed'));
}

/** The engine's NothingToEmbedError as the library's invalid-options, naming the function (as the other input errors). */
const nothingToEmbed =
  (fn: string) =>
  (error: unknown): never => {
    if (error instanceof NothingToEmbedError) throw invalidOptions(`${fn}: ${error.message}`);
    return inputRefused(fn, error);
  };

/**
 * What the model refuses whatever the attempt, as ClientErrors naming the function: an input over
 * its context ('context-exceeded', with the token counts and the limit), generation from an
 * embedding model ('unsupported-operation'). The message after the function's name is the one
 * svc_generate and the worker give (src/engine/outcomes.ts).
 */
function inputRefused(fn: string, error: unknown): never {
  if (error instanceof ContextExceededError)
    throw new ClientError('context-exceeded', `${fn}: ${error.message}`, { cause: error });
  if (error instanceof ModelRoleError)
    throw new ClientError('unsupported-operation', `${fn}: ${error.message}`, { cause: error });
  throw error;
}

export interface RerankOptions extends EmbedOptions {
  /** Instruction prefixed to the query (default: DEFAULT_RERANK_TASK); '' sends the query alone, as BERT rerankers and embedders want. */
  task?: string;
  /** Only the best `topK` documents (default: all), as svc_rerank's top_k: the same scores, cut after ranking. */
  topK?: number;
}

/**
 * `documents` ranked for `query`, best first: `{ index, document, score }`. Uses the model's ranking
 * head where it has one (score 0..1), else cosine similarity of embeddings (score -1..1). An empty or
 * whitespace-only query or document, or no documents, is an `invalid-options` error naming it.
 */
export async function rerank(
  query: string,
  documents: readonly string[],
  options: RerankOptions = {},
): Promise<RerankResult[]> {
  const o = checkOptions(options, ['model', 'task', 'topK'], 'rerank') as RerankOptions;
  if (typeof query !== 'string')
    throw invalidOptions(`rerank: query must be a string; got ${query === null ? 'null' : typeof query}`);
  if (!Array.isArray(documents) || documents.some((d) => typeof d !== 'string'))
    throw invalidOptions('rerank: documents must be an array of strings');
  if (o.task !== undefined && typeof o.task !== 'string') throw invalidOptions('rerank: task must be a string');
  if (o.topK !== undefined && (!Number.isInteger(o.topK) || o.topK < 1))
    throw invalidOptions(`rerank: topK must be a positive integer; got ${JSON.stringify(o.topK)}`);
  // As svc_rerank in SQL (and embed): empty or whitespace-only text has no meaningful embedding, and
  // an empty one none at all (its score was NaN, the order undefined). Positions count from 0, as
  // the results' `index`.
  if (query.trim() === '') throw invalidOptions('rerank: query must not be empty');
  if (documents.length === 0) throw invalidOptions('rerank: documents must not be empty');
  const blank = documents.findIndex((d) => d.trim() === '');
  if (blank >= 0) throw invalidOptions(`rerank: documents[${blank}] must not be empty`);
  const ranked = await (
    await localEngine(localOnly(o.model, 'rerank', 'rerank'))
  )
    .rerank(query, [...documents], o.task ?? DEFAULT_RERANK_TASK)
    .catch(nothingToEmbed('rerank'));
  return o.topK === undefined ? ranked : ranked.slice(0, o.topK);
}

/**
 * Loads a local model now (e.g. to show progress before the first call) and describes it; none
 * named: the one `purpose`'s calls would run (the default generator, or embedder for 'embed' and 'rerank').
 */
export async function loadModel(model?: string, purpose: ModelPurpose = 'generate'): Promise<LoadedModelInfo> {
  const path = localOnly(model, 'loadModel', purpose);
  const engine = await localEngine(path);
  const c = engine.capabilities;
  return {
    path,
    modelId: engine.modelId,
    dimension: engine.dimension,
    hasRankingHead: engine.hasRankingHead,
    threads: engine.threads,
    contextSize: engine.contextSize,
    trainContextSize: engine.trainContextSize,
    serves: servable(c),
    pooling: c.pooling,
  };
}

/** What loadModel tells of a loaded local model. */
export interface LoadedModelInfo {
  path: string;
  modelId: string;
  dimension: number;
  hasRankingHead: boolean;
  /** CPU threads it runs on (configure({ threads }), SVC_THREADS, else the default: docs/client.md "Threads"). */
  threads: number;
  /** Tokens per sequence, prompt and output together (configure({ contextSize }), SVC_CONTEXT_SIZE, else trainContextSize). */
  contextSize: number;
  /** The context the model was trained with. */
  trainContextSize: number;
  /** What the model can do: an embedding model (an encoder, or a GGUF with a pooling type) does not generate. */
  serves: Array<'generate' | 'embed' | 'rerank'>;
  /** How embed pools its token vectors: the GGUF's pooling type, or 'none' (a decoder: the last token's vector). */
  pooling: string;
}
