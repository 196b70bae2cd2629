// What a request is, checked: each `prepare*` validates one SQL function's arguments, compiles its
// constraint, and returns the queue row to write. The async submitters and the sync functions share
// them, so both reject the same input with the same messages.
import { LIMITS } from './limits.js';
import { parameterError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import * as v from './validate.js';
import { choicesGrammar, regexGrammar, schemaGrammar } from './constraints.js';
import { recordSchemaText } from '../queue/recorded-schema.js';
import { promptSettings, requestModel, schemaSettings, type ModelFunction, type PromptParameters } from './settings.js';
import type { SchemaCompile } from './constraints.js';
import { recordedSampling } from '../decode/sampling.js';
import { EMBED_MANY_MAX_CHARS, EMBED_MANY_MAX_TEXTS } from '../queue/embed-many.js';
import {
  GENERATE_MANY_FUNCTIONS, GENERATE_MANY_MAX_CHARS, GENERATE_MANY_MAX_PROMPTS, GENERATE_MANY_MAX_TOKENS, generateManyParameters, isGenerateManyFunction, promptTokens,
} from '../queue/generate-many.js';

export type QueueFunction = 'generate' | 'embed' | 'generate_json' | 'generate_regex' | 'generate_choice' | 'rerank' | 'embed_many' | 'generate_many';

export interface PreparedJob {
  functionName: QueueFunction;
  parameters: Record<string, unknown>;
  grammar: string | null;
}

/**
 * A request's model, as its parameters record it: `{ model }` for any model but 'default' (recorded
 * only then, so requests to the default keep the parameters, and cache keys, they always had). From
 * the session's settings (settings.ts requestModel), or `recorded` when the request already names
 * one (null: it names none).
 */
export function modelParameters(fn: string, family: ModelFunction, recorded?: string | null): { model?: string } {
  const name = requestModel(fn, family, recorded);
  return name === 'default' ? {} : { model: name };
}

/**
 * A generation function's arguments besides its prompt and constraint, as SQL passes them: NULL
 * arrives as null (an error, but for stop: none); one an internal caller leaves out (undefined) takes
 * its default (svc_summarize's calls give no sampling).
 */
export interface GenerationArgs {
  maxTokens: unknown;
  useCache: unknown;
  seed: unknown;
  temperature?: unknown;
  topK?: unknown;
  topP?: unknown;
  minP?: unknown;
  stop?: unknown;
}

/** A catalog function's generation arguments, in the order catalog.ts's GENERATION declares them. */
export type GenerationArgList = [maxTokens: unknown, useCache: unknown, seed: unknown, temperature: unknown, topK: unknown, topP: unknown, minP: unknown, stop: unknown];

export const generationArgs = ([maxTokens, useCache, seed, temperature, topK, topP, minP, stop]: GenerationArgList): GenerationArgs => ({
  maxTokens, useCache, seed, temperature, topK, topP, minP, stop,
});

/**
 * How a request decodes, as it records it: the sampling options only when it samples (temperature
 * above 0; src/decode/sampling.ts recordedSampling) and stop strings only when it has some, so a greedy request
 * without stop strings keeps the parameters, and cache key, it always had.
 */
export function decodingOptions(fn: string, args: GenerationArgs): { temperature?: number; top_k?: number; top_p?: number; min_p?: number; stop?: string[] } {
  const sampling = v.sampling(fn, { temperature: args.temperature, topK: args.topK, topP: args.topP, minP: args.minP });
  const stop = v.stopStrings(fn, 'stop', args.stop);
  return { ...recordedSampling(sampling), ...(stop.length > 0 ? { stop } : {}) };
}

/**
 * The options every generation request records: its arguments, then how its prompt reaches the model
 * (`prompt_format`, `system_prompt`) and its model: from the session's settings (svc.prompt_format,
 * svc.system_prompt, svc.model), or `prompt` and `model` when the request already carries them
 * (prepareFromParameters).
 */
export function generationOptions(fn: string, args: GenerationArgs, prompt?: PromptParameters, model?: string | null) {
  const options = { max_tokens: v.maxTokens(fn, args.maxTokens), use_cache: v.boolean(fn, 'use_cache', args.useCache), seed: v.seed(fn, args.seed) };
  return { ...options, ...decodingOptions(fn, args), ...(prompt ?? promptSettings()), ...modelParameters(fn, 'generate', model) };
}

export function prepareGenerate(fn: string, prompt: unknown, args: GenerationArgs, format?: PromptParameters, model?: string | null): PreparedJob {
  const parameters = { prompt: v.text(fn, 'prompt', prompt), ...generationOptions(fn, args, format, model) };
  return { functionName: 'generate', parameters, grammar: null };
}

export function prepareEmbed(fn: string, textInput: unknown, useCache: unknown, model?: string | null): PreparedJob {
  const parameters = { text_input: v.text(fn, 'text_input', textInput), use_cache: v.boolean(fn, 'use_cache', useCache), ...modelParameters(fn, 'embed', model) };
  return { functionName: 'embed', parameters, grammar: null };
}

/** The inputs of a request of many (`name`, each checked as text): 1 to `maxItems`, at most `maxChars` characters in all unless there is one. */
function inputsOfMany(fn: string, name: string, values: unknown, maxItems: number, maxChars: number, one: string): string[] {
  const checked = v.textArray(fn, name, values, { maxItems });
  if (checked.length === 0) throw parameterError(fn, name, 'must not be empty');
  if (checked.length > 1 && checked.reduce((n, t) => n + t.length, 0) > maxChars)
    throw parameterError(fn, name, `must hold at most ${maxChars} characters in all, or be one ${one}`, {}, SQLSTATE.program_limit_exceeded);
  return checked;
}

/**
 * A set-based svc_embed's texts in one request (src/queue/embed-many.ts), each checked as svc_embed
 * checks its text_input; `fn` is the SQL function's name. Only svc's sync functions submit them.
 */
export function prepareEmbedMany(fn: string, texts: unknown, useCache: unknown, model?: string | null): PreparedJob {
  const checked = inputsOfMany(fn, 'texts', texts, EMBED_MANY_MAX_TEXTS, EMBED_MANY_MAX_CHARS, 'text');
  const parameters = { texts: checked, use_cache: v.boolean(fn, 'use_cache', useCache), ...modelParameters(fn, 'embed', model) };
  return { functionName: 'embed_many', parameters, grammar: null };
}

/**
 * A set-based generation's prompts in one request (src/queue/generate-many.ts): `p` as recorded, its
 * `function` one of the generations, `prompts` each checked as that function checks its prompt, and
 * the rest checked (and the constraint compiled) once, as that function's own request. At most
 * GENERATE_MANY_MAX_PROMPTS prompts of GENERATE_MANY_MAX_CHARS characters and GENERATE_MANY_MAX_TOKENS
 * tokens to decode in all, unless it is one prompt. Only svc's sync functions submit them.
 */
export function prepareGenerateMany(fn: string, p: Record<string, unknown>): PreparedJob {
  const { function: functionName, prompts, ...rest } = p;
  if (!isGenerateManyFunction(functionName)) throw parameterError(fn, 'function', `must be one of ${GENERATE_MANY_FUNCTIONS.join(', ')}`);
  const checked = inputsOfMany(fn, 'prompts', prompts, GENERATE_MANY_MAX_PROMPTS, GENERATE_MANY_MAX_CHARS, 'prompt');
  if ('stream' in rest) throw parameterError(fn, 'stream', 'is not a parameter of a request of many prompts');
  // The first prompt's own request checks the rest; the others differ from it only in their prompt.
  const first = prepareFromParameters(fn, functionName, { ...rest, prompt: checked[0] });
  if (checked.length > 1 && checked.length * promptTokens(functionName, first.parameters) > GENERATE_MANY_MAX_TOKENS)
    throw parameterError(fn, 'prompts', `must decode at most ${GENERATE_MANY_MAX_TOKENS} tokens in all (prompts × max_tokens, or the longest choice's bytes + 1), or be one prompt`, {}, SQLSTATE.program_limit_exceeded);
  const parameters = generateManyParameters(functionName, checked.map((prompt) => ({ ...first.parameters, prompt })));
  return { functionName: 'generate_many', parameters, grammar: first.grammar };
}

/**
 * `compile`: whether unknown schema keywords and formats are errors, and whether objects without
 * additionalProperties are open, from svc.strict_schema and svc.open_objects or as the request
 * records them. They change the grammar, so they are parameters (and part of the cache key),
 * recorded only when on, so requests at the defaults keep the parameters (and cache keys) they had.
 */
export function prepareJson(fn: string, prompt: unknown, schema: unknown, args: GenerationArgs, format?: PromptParameters, compile?: SchemaCompile, model?: string | null): PreparedJob {
  const checkedPrompt = v.text(fn, 'prompt', prompt);
  const options = generationOptions(fn, args, format, model);
  const { value, recorded } = schemaArgument(fn, schema);
  const how = compile ?? schemaSettings();
  const parameters = { prompt: checkedPrompt, schema: recorded, ...options, ...(how.strict ? { strict_schema: true } : {}), ...(how.openObjects ? { open_objects: true } : {}) };
  return { functionName: 'generate_json', parameters, grammar: schemaGrammar(fn, value, how) };
}

/**
 * A schema given as JSON text (the text overloads of svc_generate_json; a literal resolves to them):
 * its properties keep the order written, and so does the generated JSON, as in the library and the CLI.
 * A jsonb schema has jsonb's key order (shorter keys first) before svc sees it.
 */
export class SchemaText {
  constructor(readonly text: unknown) {}
}

/**
 * The schema to compile, and how the request records it: a jsonb schema as its object; a text schema
 * as compact JSON text, so the order survives the queue's jsonb and is part of the cache key (the same
 * properties in another order are another request: they generate other bytes). Read back by
 * recordedSchema (src/queue/recorded-schema.ts).
 */
function schemaArgument(fn: string, schema: unknown): { value: unknown; recorded: unknown } {
  if (!(schema instanceof SchemaText)) {
    v.jsonNesting(fn, 'schema', schema, LIMITS.schemaMaxNesting);
    return { value: schema, recorded: schema };
  }
  const text = v.text(fn, 'schema', schema.text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw parameterError(fn, 'schema', `must be JSON text: ${error instanceof Error ? error.message : String(error)}`, {}, SQLSTATE.invalid_text_representation);
  }
  v.jsonNesting(fn, 'schema', value, LIMITS.schemaMaxNesting);
  return { value, recorded: recordSchemaText(value) };
}

export function prepareRegex(fn: string, prompt: unknown, pattern: unknown, args: GenerationArgs, format?: PromptParameters, model?: string | null): PreparedJob {
  const checkedPrompt = v.text(fn, 'prompt', prompt);
  const checkedPattern = v.text(fn, 'pattern', pattern, { maxChars: 100_000 });
  const options = generationOptions(fn, args, format, model);
  return { functionName: 'generate_regex', parameters: { prompt: checkedPrompt, pattern: checkedPattern, ...options }, grammar: regexGrammar(fn, checkedPattern) };
}

export function prepareChoice(fn: string, prompt: unknown, choices: unknown, args: GenerationArgs, format?: PromptParameters, model?: string | null): PreparedJob {
  const checkedPrompt = v.text(fn, 'prompt', prompt);
  const checkedChoices = v.textArray(fn, 'choices', choices, { maxItems: LIMITS.choicesMaxItems });
  const options = generationOptions(fn, args, format, model);
  return { functionName: 'generate_choice', parameters: { prompt: checkedPrompt, choices: checkedChoices, ...options }, grammar: choicesGrammar(fn, checkedChoices) };
}

export function prepareRerank(fn: string, query: unknown, documents: unknown, task: unknown, useCache: unknown, seed: unknown, model?: string | null): PreparedJob {
  const parameters = {
    query: v.text(fn, 'query', query),
    // Each document like the query: empty or whitespace-only text has no meaningful embedding (an
    // empty one none at all: its score was NaN and the order undefined).
    documents: v.textArray(fn, 'documents', documents, { maxItems: LIMITS.rerankMaxDocuments }),
    task: v.text(fn, 'task', task),
    use_cache: v.boolean(fn, 'use_cache', useCache),
    seed: v.seed(fn, seed),
    ...modelParameters(fn, 'rerank', model),
  };
  return { functionName: 'rerank', parameters, grammar: null };
}

/** Re-checks a request given as (function, parameters), e.g. one that crossed a connection. */
export function prepareFromParameters(fn: string, functionName: unknown, parameters: unknown): PreparedJob {
  if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) throw parameterError(fn, 'parameters', 'must be a JSON object');
  const p = parameters as Record<string, unknown>;
  // The prompt format and the model travel with the request: this session may not see the caller's settings.
  const format = () => promptParameters(fn, p.prompt_format, p.system_prompt);
  const model = recordedModel(fn, p.model);
  // Sampling and stop strings as recorded: absent when the request is greedy or has none (decodingOptions).
  const args: GenerationArgs = { maxTokens: p.max_tokens, useCache: p.use_cache, seed: p.seed, temperature: p.temperature, topK: p.top_k, topP: p.top_p, minP: p.min_p, stop: p.stop };
  switch (functionName) {
    case 'generate': {
      const job = prepareGenerate(fn, p.prompt, args, format(), model);
      // svc_generate_stream's mark: the worker publishes its text as it comes (no part of the cache key).
      return flagParameter(fn, 'stream', p.stream) ? { ...job, parameters: { ...job.parameters, stream: true } } : job;
    }
    case 'embed': return prepareEmbed(fn, p.text_input, p.use_cache, model);
    case 'embed_many': return prepareEmbedMany(fn, p.texts, p.use_cache, model);
    case 'generate_many': return prepareGenerateMany(fn, p);
    case 'generate_json': return prepareJson(fn, p.prompt, typeof p.schema === 'string' ? new SchemaText(p.schema) : p.schema, args, format(), { strict: flagParameter(fn, 'strict_schema', p.strict_schema), openObjects: flagParameter(fn, 'open_objects', p.open_objects) }, model);
    case 'generate_regex': return prepareRegex(fn, p.prompt, p.pattern, args, format(), model);
    case 'generate_choice': return prepareChoice(fn, p.prompt, p.choices, args, format(), model);
    case 'rerank': return prepareRerank(fn, p.query, p.documents, p.task, p.use_cache, p.seed, model);
    default: throw parameterError(fn, 'function_name', `must be one of generate, embed, embed_many, generate_json, generate_regex, generate_choice, generate_many, rerank`);
  }
}

/** A request's recorded model: absent (null: 'default') or a name other than 'default'. */
function recordedModel(fn: string, model: unknown): string | null {
  if (model === undefined || model === null) return null;
  if (typeof model !== 'string' || model === 'default') throw parameterError(fn, 'parameters.model', "must be a model name other than 'default' when present");
  return model;
}

/** A request's recorded strict_schema: absent (off) or true. */
function flagParameter(fn: string, name: string, flag: unknown): boolean {
  if (flag === undefined || flag === null) return false;
  if (flag !== true) throw parameterError(fn, `parameters.${name}`, 'must be true when present');
  return true;
}

/** A request's recorded prompt format and system prompt, checked as promptSettings() checks the settings. */
function promptParameters(fn: string, promptFormat: unknown, systemPrompt: unknown): PromptParameters {
  if (promptFormat !== 'chat' && promptFormat !== 'raw') throw parameterError(fn, 'parameters.prompt_format', "must be 'chat' or 'raw'");
  if (systemPrompt === undefined || systemPrompt === null) return { prompt_format: promptFormat };
  if (promptFormat === 'raw') throw parameterError(fn, 'parameters.system_prompt', "is used only with prompt_format 'chat'");
  return { prompt_format: promptFormat, system_prompt: v.text(fn, 'parameters.system_prompt', systemPrompt) };
}
