// svc_summarize, an aggregate (README, "Summaries of many rows"): the rows' text summarized by the
// model through a chunked map-reduce, in memory and model calls bounded by the text, however many
// rows a group has. Its state (jsonb) holds at most one chunk of text not yet summarized and the
// partial summaries made so far; a chunk's worth of text is summarized (map) as it fills, and
// partial summaries are combined into one (reduce) whenever together they pass a chunk. Every model
// call is an svc_generate of the session's role, with the aggregate's max_tokens and seed, through
// the cache: the same rows in the same order give the same bytes.
//
// A chunk fits the serving model's context by construction: unless svc.summarize_chunk_size names a
// size in characters, it is measured in UTF-8 bytes, and no tokenizer svc serves with (byte-level BPE,
// SentencePiece with byte fallback) makes more tokens of a text than it has bytes, plus a few.
import { SvcError, parameterError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import { LIMITS } from './limits.js';
import { integerSetting, servingContext, settingValue } from './settings.js';
import * as jobs from './jobs.js';
import * as v from './validate.js';
import { runOne } from './sync.js';

const FN = 'svc_summarize';

export interface SummaryState {
  /** The size of a chunk, per model call, when the group began: svc.summarize_chunk_size's characters, else bytes that fit the model's context. */
  chunk: number;
  unit: 'characters' | 'bytes';
  max_tokens: number;
  seed: number;
  /** Text of rows not summarized yet: less than a chunk. */
  text: string;
  /** Partial summaries, in row order: together at most a chunk and one summary. */
  parts: string[];
  /** Rows taken (NULL and blank ones skipped). */
  rows: number;
}

const SEPARATOR = '\n\n';

// The instruction comes after the text, as summarization prompts usually put it.
export const mapPrompt = (text: string) => `${text}\n\nSummarize the text above.\nSummary:`;
export const reducePrompt = (parts: readonly string[]) =>
  `${parts.map((part, i) => `Summary ${i + 1}: ${part}`).join('\n')}\n\nCombine the summaries above into one summary.\nSummary:`;

/** UTF-8 bytes of a code unit run (plv8 has no TextEncoder): 1, 2 or 3 a unit, 4 a surrogate pair. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 4 : c >= 0xdc00 && c <= 0xdfff ? 0 : 3;
  }
  return bytes;
}

/** The length of `text` in the state's unit. */
const measure = (state: Pick<SummaryState, 'unit'>, text: string) => (state.unit === 'bytes' ? utf8Length(text) : text.length);

/** The code units of the longest start of `text` of at most `bytes` UTF-8 bytes (never inside a surrogate pair). */
function unitsWithin(text: string, bytes: number): number {
  let used = 0;
  let i = 0;
  while (i < text.length) {
    const wide = text.charCodeAt(i) >= 0xd800 && text.charCodeAt(i) <= 0xdbff;
    const next = utf8Length(text.slice(i, wide ? i + 2 : i + 1));
    if (used + next > bytes) break;
    used += next;
    i += wide ? 2 : 1;
  }
  return i;
}

/** A piece of at most `size` (in the state's unit) from the start of `text`: cut at the last white space of its last tenth, else at `size` (never inside a surrogate pair). */
export function cutPoint(text: string, size: number, unit: SummaryState['unit'] = 'characters'): number {
  const limit = unit === 'bytes' ? unitsWithin(text, size) : Math.min(size, text.length);
  if (limit >= text.length) return text.length;
  const space = text.slice(0, limit).search(/\s\S*$/);
  if (space >= limit - Math.floor(limit / 10) && space > 0) return space + 1;
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/** A model call; a prompt over the model's context is refused naming what sized it (svc.summarize_chunk_size). */
function generate(state: SummaryState, prompt: string): string {
  try {
    return runOne(FN, jobs.prepareGenerate(FN, prompt, { maxTokens: state.max_tokens, useCache: true, seed: state.seed })).trim();
  } catch (error) {
    if (error instanceof SvcError && / tokens, over the \d+ a context of /.test(error.message)) {
      const sized = state.unit === 'characters' ? `svc.summarize_chunk_size (${state.chunk} characters)` : `the serving model's context (a chunk of ${state.chunk} bytes)`;
      throw new SvcError(error.sqlerrcode, `${FN}: a chunk sized by ${sized} makes a prompt over the model's context: ${error.message.replace(/^svc_summarize: /, '')}`, {
        hint: state.unit === 'characters' ? 'Lower svc.summarize_chunk_size, or RESET it: unset, chunks are cut to fit the serving model\'s context.' : undefined,
      });
    }
    throw error;
  }
}

/** The room a prompt's own words take beside its chunk of text: the instruction and the parts' labels of a combination. */
export const PROMPT_WORDS = 128;

/** Whether the combination of these parts is a prompt of at most a chunk and its words. */
const fits = (state: SummaryState, parts: readonly string[]) => measure(state, reducePrompt(parts)) <= state.chunk + PROMPT_WORDS;

/**
 * Combines the oldest partial summaries, as many as one prompt holds (at least two; two that do not
 * fit together are cut to half the room each), into one.
 */
function combineOldest(state: SummaryState): void {
  let n = 2;
  while (n < state.parts.length && fits(state, state.parts.slice(0, n + 1))) n++;
  const half = Math.floor(state.chunk / 2);
  const group = fits(state, state.parts.slice(0, 2)) ? state.parts.slice(0, n) : state.parts.slice(0, 2).map((part) => part.slice(0, cutPoint(part, half, state.unit)));
  state.parts.splice(0, group.length, generate(state, reducePrompt(group)));
}

/** Combines the partial summaries while together they would not make one prompt: so that they always can. */
function reduce(state: SummaryState): void {
  while (state.parts.length > 1 && !fits(state, state.parts)) combineOldest(state);
}

/** Adds text after what the state holds, summarizing each chunk that fills. */
function take(state: SummaryState, text: string): void {
  let rest = state.text === '' ? text : state.text + SEPARATOR + text;
  while (measure(state, rest) >= state.chunk) {
    const cut = cutPoint(rest, state.chunk, state.unit);
    state.parts.push(generate(state, mapPrompt(rest.slice(0, cut).trim())));
    reduce(state);
    rest = rest.slice(cut).trimStart();
  }
  state.text = rest;
}

// The one- and two-argument aggregates pass no max_tokens or seed (undefined); an explicit NULL is an error, never the default.
const given = (value: unknown, fallback: number) => (value === undefined ? fallback : value);

/**
 * The bytes of text a chunk may hold to fit a model of `context` tokens (512 when no worker has
 * reported it yet): the context less room for the summary (max_tokens, at most a quarter of it), for a
 * chat template's tokens and the system prompt, and for the prompt's own words (PROMPT_WORDS), at one
 * token a byte; at least 64.
 */
export function chunkBytes(context: number | null, maxTokens: number, systemPrompt: string | null): number {
  const tokens = context ?? 512;
  const answer = Math.min(maxTokens, Math.floor(tokens / 4));
  const template = 64 + (systemPrompt === null ? 0 : utf8Length(systemPrompt));
  return Math.max(64, tokens - 1 - answer - template - PROMPT_WORDS);
}

function start(maxTokens: unknown, seed: unknown, fn: string): SummaryState {
  const max_tokens = v.maxTokens(fn, given(maxTokens, 512));
  const explicit = settingValue('svc.summarize_chunk_size') !== null;
  return {
    chunk: explicit ? integerSetting('svc.summarize_chunk_size', 100) : chunkBytes(servingContext('generate'), max_tokens, settingValue('svc.system_prompt')),
    unit: explicit ? 'characters' : 'bytes',
    max_tokens,
    seed: v.seed(fn, given(seed, 42)),
    text: '',
    parts: [],
    rows: 0,
  };
}

/** svc_summarize's options given as jsonb (`{"max_tokens": 64, "seed": 7}`): a JSON object of those keys only, each checked as its parameter. */
export function summaryOptions(fn: string, options: unknown): { maxTokens: unknown; seed: unknown } {
  if (options === null || options === undefined) throw parameterError(fn, 'options', 'must not be NULL', {}, SQLSTATE.null_value_not_allowed);
  if (typeof options !== 'object' || Array.isArray(options)) throw parameterError(fn, 'options', 'must be a JSON object of max_tokens and seed');
  const known = ['max_tokens', 'seed'];
  const unknown = Object.keys(options).find((key) => !known.includes(key));
  if (unknown !== undefined) throw parameterError(fn, 'options', `has an unknown key "${unknown}" (known: ${known.join(', ')})`);
  const o = options as Record<string, unknown>;
  return {
    maxTokens: o.max_tokens === undefined ? undefined : v.integerInRange(fn, 'options.max_tokens', o.max_tokens, LIMITS.maxTokens.min, LIMITS.maxTokens.max),
    seed: o.seed === undefined ? undefined : v.integerInRange(fn, 'options.seed', o.seed, -2147483648, 2147483647),
  };
}

/** The transition function with options as jsonb (svc_summarize(body, options)). */
export function summarizeStepOptions(state: SummaryState | null, body: unknown, options: unknown): SummaryState | null {
  const { maxTokens, seed } = summaryOptions(FN, options);
  return summarizeStep(state, body, maxTokens, seed);
}

/** svc_summarize_partial's transition function: svc_summarize's, its options as jsonb (none: the defaults). */
export function summarizePartialStep(state: SummaryState | null, body: unknown, options?: unknown): SummaryState | null {
  const fn = 'svc_summarize_partial';
  const { maxTokens, seed } = options === undefined ? { maxTokens: undefined, seed: undefined } : summaryOptions(fn, options);
  return summarizeStep(state, body, maxTokens, seed, fn);
}

/** The transition function: one row. NULL and blank text is skipped; max_tokens and seed must be the same on every row of a group. */
export function summarizeStep(state: SummaryState | null, body: unknown, maxTokens: unknown, seed: unknown, fn = FN): SummaryState | null {
  const s = state ?? start(maxTokens, seed, fn);
  if (state) {
    for (const [name, value, was] of [['max_tokens', given(maxTokens, 512), s.max_tokens], ['seed', given(seed, 42), s.seed]] as const) {
      if (value !== was) throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: ${name} must be the same for every row of a group (was ${was}, got ${String(value)})`);
    }
  }
  if (body === null || body === undefined) return state;
  const text = v.text(fn, 'body', body, { allowEmpty: true });
  if (text.trim() === '') return state;
  take(s, text.trim());
  s.rows++;
  return s;
}

/** The combine function: the rows of `a`, then those of `b` (partial aggregation). */
export function summarizeCombine(a: SummaryState | null, b: SummaryState | null): SummaryState | null {
  if (!a || !b) return a ?? b;
  if (a.max_tokens !== b.max_tokens || a.seed !== b.seed) {
    throw new SvcError(SQLSTATE.invalid_parameter_value, `${FN}: max_tokens and seed must be the same for every row of a group`);
  }
  const s: SummaryState = { ...a, parts: [...a.parts], rows: a.rows + b.rows };
  // b's summaries follow a's text: summarize that first so the order of the rows is kept.
  if (s.text !== '' && b.parts.length > 0) {
    s.parts.push(generate(s, mapPrompt(s.text)));
    s.text = '';
  }
  s.parts.push(...b.parts);
  reduce(s);
  if (b.text !== '') take(s, b.text);
  return s;
}

/** The final function: the summary (NULL for a group of no text). */
export function summarizeFinal(state: SummaryState | null): string | null {
  if (!state || state.rows === 0) return null;
  const s = { ...state, parts: [...state.parts] };
  if (s.text !== '') s.parts.push(generate(s, mapPrompt(s.text)));
  // One part is the summary of everything; more are combined, as many as a prompt holds at a time.
  while (s.parts.length > 1) combineOldest(s);
  return s.parts[0];
}

// Summaries in continuous aggregates (TimescaleDB's, or a table of partials kept by hand): the state of
// a group as a value to store (svc_summarize_partial), and an aggregate that combines stored partials,
// in the order given, into the summary (svc_summarize_final). A partial holds less than a chunk of
// text and the partial summaries of the rest, so combining stored partials never reads their rows
// again, and the summaries already made come from the state, not from the model.

/** What marks a stored partial, and the version of its shape. */
const PARTIAL_FORMAT = 'svc_summarize/1';

/** svc_summarize_partial's final function: the group's state as a storable value (NULL for a group of no text). */
export function summarizePartial(state: SummaryState | null): (SummaryState & { format: string }) | null {
  if (!state || state.rows === 0) return null;
  return { format: PARTIAL_FORMAT, ...state };
}

/** A stored partial, checked field by field: it is a value of the caller's table, and steers model calls. */
export function storedPartial(fn: string, partial: unknown): SummaryState {
  const bad = (why: string) => parameterError(fn, 'partial', `is not a partial of svc_summarize_partial (${why})`);
  if (typeof partial !== 'object' || partial === null || Array.isArray(partial)) throw bad('not a JSON object');
  const p = partial as Record<string, unknown>;
  if (p.format !== PARTIAL_FORMAT) throw bad(`its format is ${JSON.stringify(p.format)}, not "${PARTIAL_FORMAT}"`);
  const extra = Object.keys(p).find((key) => !['format', 'chunk', 'unit', 'max_tokens', 'seed', 'text', 'parts', 'rows'].includes(key));
  if (extra !== undefined) throw bad(`unknown key "${extra}"`);
  if (p.unit !== 'characters' && p.unit !== 'bytes') throw bad('unit must be "characters" or "bytes"');
  if (!Number.isInteger(p.chunk) || (p.chunk as number) < 64 || (p.chunk as number) > LIMITS.promptMaxChars) throw bad(`chunk must be an integer from 64 to ${LIMITS.promptMaxChars}`);
  if (!Number.isInteger(p.rows) || (p.rows as number) < 1) throw bad('rows must be a positive integer');
  if (typeof p.text !== 'string' || p.text.length > LIMITS.promptMaxChars) throw bad(`text must be a string of at most ${LIMITS.promptMaxChars} characters`);
  if (!Array.isArray(p.parts) || p.parts.length > 1000 || !p.parts.every((part) => typeof part === 'string' && part.length <= LIMITS.promptMaxChars)) {
    throw bad('parts must be an array of at most 1000 strings');
  }
  return {
    chunk: p.chunk as number,
    unit: p.unit,
    max_tokens: v.integerInRange(fn, 'partial.max_tokens', p.max_tokens, LIMITS.maxTokens.min, LIMITS.maxTokens.max),
    seed: v.integerInRange(fn, 'partial.seed', p.seed, -2147483648, 2147483647),
    text: p.text,
    parts: [...(p.parts as string[])],
    rows: p.rows as number,
  };
}

/** svc_summarize_final's transition: the partials combined in the order given (NULL ones skipped). */
export function summarizeMerge(state: SummaryState | null, partial: unknown): SummaryState | null {
  if (partial === null || partial === undefined) return state;
  const fn = 'svc_summarize_final';
  const next = storedPartial(fn, partial);
  if (state && (state.max_tokens !== next.max_tokens || state.seed !== next.seed)) {
    throw parameterError(
      fn,
      'partial',
      `must have the max_tokens and seed of the partials before it (max_tokens ${state.max_tokens}, seed ${state.seed}; got max_tokens ${next.max_tokens}, seed ${next.seed})`,
    );
  }
  return summarizeCombine(state, next);
}
