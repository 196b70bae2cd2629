// Facts (pg_steadytext's extract_facts and deduplicate_facts): svc_extract_facts asks the model for a
// JSON array of short facts under a JSON Schema, so the answer is always a list, whatever the model;
// svc_deduplicate_facts keeps the first of each group of facts whose embeddings (the default
// embedder's, as svc_embed's) are at least `threshold` alike. Both run as sync calls (sync.ts), so
// their model calls are the caller's requests, cached and counted as such.
import { SvcError, parameterError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import * as jobs from './jobs.js';
import * as v from './validate.js';
import { runMany, runOne } from './sync.js';

const EXTRACT = 'svc_extract_facts';
const DEDUPLICATE = 'svc_deduplicate_facts';

export const FACTS_LIMITS = { maxFacts: 100, factMaxChars: 300, deduplicateMaxItems: 1000 } as const;

/** The instruction around the text (the model reads it raw or as the user turn of its chat template, as any prompt). */
export const factsPrompt = (text: string, maxFacts: number): string =>
  `Extract at most ${maxFacts} short facts stated in the text below, each a self-contained sentence, as a JSON array of strings.\n\nText:\n${text}\n\nFacts:`;

/** The answer's shape: an array of at most `maxFacts` strings of 1 to 300 characters (blank ones are left out after). */
export const factsSchema = (maxFacts: number): object => ({
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: FACTS_LIMITS.factMaxChars },
  maxItems: maxFacts,
});

/** The facts of an answer: each trimmed, blank ones and repeats left out, in the model's order. */
export function factsOf(answer: string): string[] {
  const parsed = JSON.parse(answer) as unknown;
  if (!Array.isArray(parsed) || !parsed.every((f) => typeof f === 'string')) throw new Error(`not a JSON array of strings: ${answer.slice(0, 80)}`);
  return [...new Set(parsed.map((f: string) => f.trim()).filter((f) => f !== ''))];
}

export function extractFacts(textInput: unknown, maxFacts: unknown, ...g: jobs.GenerationArgList): string[] {
  const text = v.text(EXTRACT, 'text_input', textInput);
  const n = v.integerInRange(EXTRACT, 'max_facts', maxFacts, 1, FACTS_LIMITS.maxFacts);
  // The schema as text: the request records it as written (jobs.SchemaText), and its cache key with it.
  const job = jobs.prepareJson(EXTRACT, factsPrompt(text, n), new jobs.SchemaText(JSON.stringify(factsSchema(n))), jobs.generationArgs(g));
  return factsOf(runOne(EXTRACT, job));
}

/** Cosine similarity of two L2-normalized embeddings (svc_embed's are). */
const similarity = (a: readonly number[], b: readonly number[]): number => a.reduce((sum, x, i) => sum + x * b[i], 0);

/**
 * The facts without near-repeats: in input order, each one kept unless its embedding's cosine
 * similarity to a fact already kept is `threshold` or more (it is then merged into that one).
 */
export function deduplicateFacts(facts: unknown, threshold: unknown, useCache: unknown): string[] {
  const list = v.array(DEDUPLICATE, 'facts', facts, { maxItems: FACTS_LIMITS.deduplicateMaxItems, allowEmpty: true }).map((f, i) => v.textItem(DEDUPLICATE, v.itemName('facts', i), f));
  if (threshold === null || threshold === undefined) throw parameterError(DEDUPLICATE, 'threshold', 'must not be NULL', {}, SQLSTATE.null_value_not_allowed);
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) throw parameterError(DEDUPLICATE, 'threshold', `must be a cosine similarity from 0 to 1 (got ${String(threshold)})`);
  const cache = v.boolean(DEDUPLICATE, 'use_cache', useCache);
  if (list.length < 2) return list;
  const outcomes = runMany(DEDUPLICATE, list.map((fact) => jobs.prepareEmbed(DEDUPLICATE, fact, cache)));
  const failed = outcomes.findIndex((o) => o.error !== null);
  if (failed >= 0) throw new SvcError(outcomes[failed].error!.sqlerrcode, `${outcomes[failed].error!.message} (facts[${failed + 1}])`);
  const vectors = outcomes.map((o) => JSON.parse(o.result!) as number[]);
  const kept: number[] = [];
  for (let i = 0; i < list.length; i++) if (kept.every((k) => similarity(vectors[k], vectors[i]) < threshold)) kept.push(i);
  return kept.map((i) => list[i]);
}
