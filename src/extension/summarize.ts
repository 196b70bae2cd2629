// svc_summarize, an aggregate (README, "Summaries of many rows"): the rows' text summarized by the
// model through a chunked map-reduce, in memory and model calls bounded by the text, however many
// rows a group has. Its state (jsonb) holds at most one chunk of text not yet summarized and the
// partial summaries made so far; a chunk's worth of text is summarized (map) as it fills, and
// partial summaries are combined into one (reduce) whenever together they pass a chunk. Every model
// call is an svc_generate of the session's role, with the aggregate's max_tokens and seed, through
// the cache: the same rows in the same order give the same bytes.
import { SvcError, SQLSTATE } from './errors.js';
import { integerSetting } from './settings.js';
import * as jobs from './jobs.js';
import * as v from './validate.js';
import { runOne } from './sync.js';

const FN = 'svc_summarize';

export interface SummaryState {
  /** Characters per model call (svc.summarize_chunk_size when the group began). */
  chunk: number;
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

// The instruction comes after the text: a prompt longer than the model's context loses its beginning
// (the engine keeps the last tokens), never what it is asked to do.
export const mapPrompt = (text: string) => `${text}\n\nSummarize the text above.\nSummary:`;
export const reducePrompt = (parts: readonly string[]) =>
  `${parts.map((part, i) => `Summary ${i + 1}: ${part}`).join('\n')}\n\nCombine the summaries above into one summary.\nSummary:`;

/** A piece of at most `size` characters from the start of `text`: cut at the last white space of its last tenth, else at `size` (never inside a surrogate pair). */
export function cutPoint(text: string, size: number): number {
  if (text.length <= size) return text.length;
  const space = text.slice(0, size).search(/\s\S*$/);
  if (space >= size - Math.floor(size / 10) && space > 0) return space + 1;
  const code = text.charCodeAt(size - 1);
  return code >= 0xd800 && code <= 0xdbff ? size - 1 : size;
}

function generate(state: SummaryState, prompt: string): string {
  return runOne(FN, jobs.prepareGenerate(FN, prompt, state.max_tokens, true, state.seed)).trim();
}

/** Combines the partial summaries into one while together they pass a chunk. */
function reduce(state: SummaryState): void {
  if (state.parts.length > 1 && state.parts.join(SEPARATOR).length > state.chunk) state.parts = [generate(state, reducePrompt(state.parts))];
}

/** Adds text after what the state holds, summarizing each chunk that fills. */
function take(state: SummaryState, text: string): void {
  let rest = state.text === '' ? text : state.text + SEPARATOR + text;
  while (rest.length >= state.chunk) {
    const cut = cutPoint(rest, state.chunk);
    state.parts.push(generate(state, mapPrompt(rest.slice(0, cut).trim())));
    reduce(state);
    rest = rest.slice(cut).trimStart();
  }
  state.text = rest;
}

// The one- and two-argument aggregates pass no max_tokens or seed (undefined); an explicit NULL is an error, never the default.
const given = (value: unknown, fallback: number) => (value === undefined ? fallback : value);

function start(maxTokens: unknown, seed: unknown): SummaryState {
  return {
    chunk: integerSetting('svc.summarize_chunk_size', 100),
    max_tokens: v.maxTokens(FN, given(maxTokens, 512)),
    seed: v.seed(FN, given(seed, 42)),
    text: '',
    parts: [],
    rows: 0,
  };
}

/** The transition function: one row. NULL and blank text is skipped; max_tokens and seed must be the same on every row of a group. */
export function summarizeStep(state: SummaryState | null, body: unknown, maxTokens: unknown, seed: unknown): SummaryState | null {
  const s = state ?? start(maxTokens, seed);
  if (state) {
    for (const [name, value, was] of [['max_tokens', given(maxTokens, 512), s.max_tokens], ['seed', given(seed, 42), s.seed]] as const) {
      if (value !== was) throw new SvcError(SQLSTATE.invalidParameterValue, `${FN}: ${name} must be the same for every row of a group (was ${was}, got ${String(value)})`);
    }
  }
  if (body === null || body === undefined) return state;
  const text = v.text(FN, 'body', body, { allowEmpty: true });
  if (text.trim() === '') return state;
  take(s, text.trim());
  s.rows++;
  return s;
}

/** The combine function: the rows of `a`, then those of `b` (partial aggregation). */
export function summarizeCombine(a: SummaryState | null, b: SummaryState | null): SummaryState | null {
  if (!a || !b) return a ?? b;
  if (a.max_tokens !== b.max_tokens || a.seed !== b.seed) {
    throw new SvcError(SQLSTATE.invalidParameterValue, `${FN}: max_tokens and seed must be the same for every row of a group`);
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
  // One part is the summary of everything; more are combined, in rounds of at most a chunk each.
  while (s.parts.length > 1) {
    let size = 0;
    let n = 0;
    while (n < s.parts.length && (n < 2 || size + s.parts[n].length <= s.chunk)) size += s.parts[n++].length + SEPARATOR.length;
    s.parts.splice(0, n, generate(s, reducePrompt(s.parts.slice(0, n))));
  }
  return s.parts[0];
}
