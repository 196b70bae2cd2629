// Embeddings and reranking, on local models only: their inputs checked as svc_embed's and
// svc_rerank's are in SQL, and the engine's refusals turned into the library's ClientErrors.
import { NothingToEmbedError, type RerankResult } from '../engine/outcomes.js';
import { invalidOptions } from './errors.js';
import { localEngine, localOnly } from './local.js';
import { checkOptions } from './options.js';
import { inputRefused } from './run.js';

/** Default rerank task: the web-search passage-retrieval instruction, as for svc_rerank. */
export const DEFAULT_RERANK_TASK = 'Given a web search query, retrieve relevant passages that answer the query';

export interface EmbedOptions {
  /**
   * A local model (see CallOptions.model). Embeddings are computed locally only. Default:
   * configure({ model }), then SVC_MODEL, then svc-embed (the shipped embedder, as the edge's EMBED_MODEL).
   */
  model?: string;
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
