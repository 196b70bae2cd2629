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

/** Embeddings asked of the engine at once: its embedding contexts run them side by side (src/engine/embed-pool.ts). */
const EMBED_LANES = 4;

/**
 * The vectors of `inputs` in their order (null: the model makes no tokens of it), EMBED_LANES at a
 * time. The job's timeout (SVC_WORKER_TIMEOUT) or a failure stops it between two embeddings.
 */
async function embedAll(engine: InferenceEngine, inputs: readonly string[], signal: AbortSignal): Promise<Array<number[] | null>> {
  const vectors: Array<number[] | null> = new Array(inputs.length);
  let next = 0;
  let failed = false;
  await Promise.all(
    Array.from({ length: Math.min(EMBED_LANES, inputs.length) }, async () => {
      while (next < inputs.length && !failed) {
        signal.throwIfAborted();
        const k = next++;
        try {
          vectors[k] = await engine.embed(inputs[k]);
        } catch (error) {
          if (error instanceof NothingToEmbedError) vectors[k] = null;
          else {
            failed = true;
            throw error;
          }
        }
      }
    }),
  );
  return vectors;
}

export async function runVectorize(engine: InferenceEngine, p: Record<string, unknown>, signal: AbortSignal): Promise<string> {
  const { chunking, format, items } = checkedParameters(p);
  let length: ((piece: string) => number) | undefined;
  if (chunking.by === 'tokens') {
    if (!engine.countTokens)
      throw new PermanentJobError("chunk_by tokens needs the model's tokenizer, which a worker serving the model through an inference server does not have");
    length = (piece) => engine.countTokens!(piece);
  }
  // Every item's chunks first (a row refused for too many has none), then their embeddings.
  const pieces: Array<{ item: number; text: string; input: string }> = [];
  const out: VectorizedItem[] = items.map((item, i) => {
    signal.throwIfAborted();
    const texts = typeof item.text === 'string' ? splitText(item.text, chunking, length) : [];
    const refused = chunkCountProblem(texts.length);
    if (refused !== undefined) return { chunks: [], error: refused };
    for (const text of texts) pieces.push({ item: i, text, input: renderTemplate(format, item.fields ?? {}, text) });
    return { chunks: [] };
  });
  const vectors = await embedAll(
    engine,
    pieces.map((piece) => piece.input),
    signal,
  );
  pieces.forEach((piece, k) => {
    // A chunk the model makes no tokens of has no vector, and is left out.
    const embedding = vectors[k];
    if (embedding !== null) out[piece.item].chunks.push({ text: piece.text, embedding: embedding.map(asReal) });
  });
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
