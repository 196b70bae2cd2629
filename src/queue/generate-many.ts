// Requests of many prompts ('generate_many'): a set-based generation (svc_generate_choice(prompts[],
// …) and its kin) submits its prompts several to a request where their outputs are short, instead of
// one request a prompt. A request a prompt cost the queue ~0.35 ms of CPU a row (its row, claim,
// completion and read; the worker's job around it) beside llama.cpp's ~1.5 ms for a choice on
// stories260K, which kept set-based choice at 0.81–0.87 of the library at the same concurrency (#55).
// Each prompt's answer is the bytes its own request gives, and its cache entry is that request's: the
// per-row and set-based calls find each other's.
//
// A request's prompts run one after another in one worker slot, so a request of several must not take
// longer than one request could: its prompts decode GENERATE_MANY_MAX_TOKENS tokens in all at most
// (one request's at the default max_tokens), and hold GENERATE_MANY_MAX_CHARS characters (as an
// 'embed_many' request's texts). svc.sync_timeout (the wait for the next answer) and
// SVC_WORKER_TIMEOUT (a job's) then mean for a request of several what they mean for one.

import { EMBED_MANY_MAX_CHARS } from './embed-many.js';

/** The functions whose prompts may share a request: the generations, constrained or not. */
export const GENERATE_MANY_FUNCTIONS = ['generate', 'generate_json', 'generate_regex', 'generate_choice'] as const;
export type GenerateManyFunction = (typeof GENERATE_MANY_FUNCTIONS)[number];

export const isGenerateManyFunction = (name: unknown): name is GenerateManyFunction =>
  (GENERATE_MANY_FUNCTIONS as readonly unknown[]).includes(name);

/** Prompts a request at most. */
export const GENERATE_MANY_MAX_PROMPTS = 64;

/** Characters a request of several prompts holds at most, as one of several texts (one prompt may hold more: it goes alone). */
export const GENERATE_MANY_MAX_CHARS = EMBED_MANY_MAX_CHARS;

/** Tokens a request of several prompts may decode in all: one request's at the default max_tokens (512). */
export const GENERATE_MANY_MAX_TOKENS = 512;

/** UTF-8 bytes of `text` (plv8 has no TextEncoder); a lone surrogate counts as U+FFFD's 3. */
function utf8Bytes(text: string): number {
  let n = 0;
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/**
 * The most tokens one prompt's request decodes: its max_tokens, or for a choice fewer where every
 * choice is shorter (each token of a constrained output spells at least one byte, then one ends it).
 */
export function promptTokens(functionName: GenerateManyFunction, parameters: Record<string, unknown>): number {
  const maxTokens = Number(parameters.max_tokens);
  if (functionName !== 'generate_choice' || !Array.isArray(parameters.choices)) return maxTokens;
  const longest = Math.max(0, ...(parameters.choices as string[]).map(utf8Bytes));
  return Math.min(maxTokens, longest + 1);
}

/** How many prompts of these parameters one request may hold (1: they go a request each). */
export function promptsPerRequest(functionName: GenerateManyFunction, parameters: Record<string, unknown>): number {
  const tokens = promptTokens(functionName, parameters);
  return Math.max(1, Math.min(GENERATE_MANY_MAX_PROMPTS, Math.floor(GENERATE_MANY_MAX_TOKENS / tokens)));
}

/** A 'generate_many' request's parameters from its prompts' own requests (one function, constraint and options): generateManyParts' inverse. */
export function generateManyParameters(
  functionName: GenerateManyFunction,
  requests: ReadonlyArray<Record<string, unknown>>,
): Record<string, unknown> {
  const { prompt: _first, ...rest } = requests[0];
  return { function: functionName, prompts: requests.map((r) => r.prompt), ...rest };
}

/** The function of each prompt's own request, and its parameters (prompt and the rest as recorded): its cache identity. */
export function generateManyParts(parameters: Record<string, unknown>): {
  functionName: GenerateManyFunction;
  requests: Array<Record<string, unknown>>;
} {
  const { function: functionName, prompts, ...rest } = parameters;
  if (!isGenerateManyFunction(functionName))
    throw new Error(`parameters.function must be one of ${GENERATE_MANY_FUNCTIONS.join(', ')}`);
  if (!Array.isArray(prompts)) throw new Error('parameters.prompts must be an array');
  return { functionName, requests: prompts.map((prompt: unknown) => ({ ...rest, prompt })) };
}

/** What a 'generate_many' request's result holds for one prompt: its own request's result text, or why it has none. */
export type GenerateManyPart = string | { error: string };

/** The result text of a 'generate_many' request: a JSON array, each prompt's text or { error }, in the request's order. */
export const generateManyResult = (parts: readonly GenerateManyPart[]): string => JSON.stringify(parts);

/** Each prompt's text, or its error, from a 'generate_many' result. */
export const readGenerateManyResult = (result: string): GenerateManyPart[] => JSON.parse(result) as GenerateManyPart[];
