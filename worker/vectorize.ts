// A vectorizer's job (queued by src/extension/vectorizer.ts): each source row's text cut into chunks,
// each chunk put into the vectorizer's format template with the row's other columns, and embedded.
// The result holds each item's chunks and their vectors, in the job's order; at completion
// svc__vectorizer_apply writes them to the destination, for the rows this job still stands for.
import { chunkCountProblem, chunkingProblem, splitText, type Chunking } from '../src/vectorizer/chunk.js';
import { renderTemplate, templateProblem } from '../src/vectorizer/template.js';
import { NothingToEmbedError } from '../src/engine/engine.js';
import type { InferenceEngine } from '../src/engine/server-engine.js';
import { PermanentJobError } from './jobs.js';
import * as protocol from './protocol.js';
import type pg from 'pg';

interface Item {
  text: string | null;
  fields?: Record<string, string | null>;
}

/**
 * One item's chunks, in the order of the job's items (svc__vectorizer_apply takes the keys from the
 * job, not from here); or, for a row refused (its text makes more than MAX_CHUNKS_PER_ROW chunks),
 * none and the error its row is failed with.
 */
export interface VectorizedItem {
  chunks: Array<{ text: string; embedding: number[] }>;
  error?: string;
}

function checkedParameters(p: Record<string, unknown>): { chunking: Chunking; format: string; items: Item[] } {
  const problem = chunkingProblem(p.chunking);
  if (problem !== undefined) throw new PermanentJobError(`parameters.chunking: ${problem}`);
  if (typeof p.format !== 'string' || templateProblem(p.format) !== undefined) throw new PermanentJobError('parameters.format is not a format template');
  if (!Array.isArray(p.items)) throw new PermanentJobError('parameters.items is not an array');
  return { chunking: p.chunking as Chunking, format: p.format, items: p.items as Item[] };
}

/**
 * A vector component as the real (float4) it becomes, in the fewest digits that name that real (9
 * significant digits always do): the destination then holds exactly what svc_embed of the same text
 * gives, and the result carries half the digits of the double.
 */
export const asReal = (x: number): number => Number(Math.fround(x).toPrecision(9));

export async function runVectorize(engine: InferenceEngine, p: Record<string, unknown>, signal: AbortSignal): Promise<string> {
  const { chunking, format, items } = checkedParameters(p);
  let length: ((piece: string) => number) | undefined;
  if (chunking.by === 'tokens') {
    if (!engine.countTokens)
      throw new PermanentJobError("chunk_by tokens needs the model's tokenizer, which a worker serving the model through an inference server does not have");
    length = (piece) => engine.countTokens!(piece);
  }
  const out: VectorizedItem[] = [];
  for (const item of items) {
    signal.throwIfAborted();
    const chunks: VectorizedItem['chunks'] = [];
    const pieces = typeof item.text === 'string' ? splitText(item.text, chunking, length) : [];
    const refused = chunkCountProblem(pieces.length);
    if (refused !== undefined) {
      out.push({ chunks, error: refused });
      continue;
    }
    for (const piece of pieces) {
      // The job's timeout (SVC_WORKER_TIMEOUT) stops it between two embeddings, not only between rows.
      signal.throwIfAborted();
      try {
        const embedding = (await engine.embed(renderTemplate(format, item.fields ?? {}, piece))).map(asReal);
        chunks.push({ text: piece, embedding });
      } catch (error) {
        // A chunk the model makes no tokens of has no vector, and is left out.
        if (!(error instanceof NothingToEmbedError)) throw error;
      }
    }
    out.push({ chunks });
  }
  return JSON.stringify({ items: out });
}

/**
 * Writes a vectorize job's result over a connection of its own, closed afterwards. Its completion
 * writes the declaring role's destination, which runs that role's code (its triggers, its types'
 * checks) in the session that writes it; that code can change the session for what comes after it
 * (settings, prepared statements of the worker's own names, advisory locks, temporary objects), so
 * the worker never uses that session again.
 */
export async function completeVectorize(pool: pg.Pool, job: Pick<protocol.ClaimedJob, 'request_id' | 'attempt'>, result: string): Promise<boolean> {
  const client = await pool.connect();
  try {
    return await protocol.complete(client, job, result);
  } finally {
    client.release(true);
  }
}
