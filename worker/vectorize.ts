// A vectorizer's job (queued by src/extension/vectorizer.ts): each source row's text cut into chunks,
// each chunk put into the vectorizer's format template with the row's other columns, and embedded.
// The result holds each item's chunks and their vectors, in the job's order; at completion
// svc__vectorizer_apply writes them to the destination, for the rows this job still stands for.
import { chunkCountProblem, chunkingProblem, splitText, type Chunking } from '../src/vectorizer/chunk.js';
import { renderProblem, renderTemplate, templateProblem } from '../src/vectorizer/template.js';
import { EMBED_LANES, embedInLanes } from '../src/engine/embed-pool.js';
import type { InferenceEngine } from '../src/queue/inference-engine.js';
import { PermanentJobError } from '../src/queue/job-errors.js';
import * as protocol from './protocol.js';
import type pg from 'pg';
import { SQLSTATE } from '../src/queue/sqlstate.js';

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
  /** Each chunk's text and its vector (realsBase64). */
  chunks: Array<{ text: string; embedding: string }>;
  error?: string;
}

function checkedParameters(p: Record<string, unknown>): { chunking: Chunking; format: string; items: Item[] } {
  const problem = chunkingProblem(p.chunking);
  if (problem !== undefined) throw new PermanentJobError(`parameters.chunking: ${problem}`);
  if (typeof p.format !== 'string' || templateProblem(p.format) !== undefined)
    throw new PermanentJobError('parameters.format is not a format template');
  if (!Array.isArray(p.items)) throw new PermanentJobError('parameters.items is not an array');
  return { chunking: p.chunking as Chunking, format: p.format, items: p.items as Item[] };
}

/**
 * A vector as svc__reals (src/native/reals.c) reads it at completion: its reals (float4, each
 * component rounded to the nearest, as svc_embed's real[] is) little-endian, in base64. The
 * destination then holds exactly what svc_embed of the same text gives, and neither the worker nor
 * PostgreSQL prints or parses a decimal: as JSON numbers the vectors were most of the database's
 * CPU a row in a backfill, and a tenth of the worker's (#55, docs/benchmarks.md).
 */
export function realsBase64(vector: readonly number[]): string {
  const bytes = new ArrayBuffer(vector.length * 4);
  const reals = new DataView(bytes);
  // Little-endian whatever the host's order; + 0 turns -0 into 0, as svc_embed's JSON does
  // (JSON.stringify(-0) is "0"). A loop: Float32Array.from with a mapping function took 8 us a
  // 128-wide vector, this about 1.
  for (let i = 0; i < vector.length; i++) reals.setFloat32(i * 4, vector[i] + 0, true);
  return Buffer.from(bytes).toString('base64');
}

/**
 * The vectors of `inputs` in their order (null: the model makes no tokens of it): many per call
 * where the engine takes many (Engine.embedEach: svc's embedding addon), else EMBED_LANES at a time.
 * The job's timeout (SVC_WORKER_TIMEOUT) or a failure stops it between two calls.
 */
export function embedAll(
  engine: InferenceEngine,
  inputs: readonly string[],
  signal: AbortSignal,
): Promise<Array<number[] | null>> {
  if (engine.embedEach) return engine.embedEach(inputs, signal);
  return embedInLanes(inputs, (text) => engine.embed(text), EMBED_LANES, signal);
}

export async function runVectorize(
  engine: InferenceEngine,
  p: Record<string, unknown>,
  signal: AbortSignal,
): Promise<string> {
  const { chunking, format, items } = checkedParameters(p);
  let length: ((piece: string) => number) | undefined;
  if (chunking.by === 'tokens') {
    if (!engine.countTokens)
      throw new PermanentJobError(
        "chunk_by tokens needs the model's tokenizer, which a worker serving the model through an inference server does not have",
      );
    // Past chunk_size any count will do: a long piece is told from a prefix, not tokenized whole.
    length = (piece) => engine.countTokens!(piece, chunking.size);
  }
  // Every item's chunks first (a row refused for too many has none), then their embeddings.
  const pieces: Array<{ item: number; text: string; input: string }> = [];
  const out: VectorizedItem[] = items.map((item, i) => {
    signal.throwIfAborted();
    const texts = typeof item.text === 'string' ? splitText(item.text, chunking, length) : [];
    const refused =
      chunkCountProblem(texts.length) ??
      texts.map((text) => renderProblem(format, item.fields ?? {}, text)).find((p) => p !== undefined);
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
    if (embedding !== null) out[piece.item].chunks.push({ text: piece.text, embedding: realsBase64(embedding) });
  });
  return JSON.stringify({ items: out });
}

/**
 * How long a vectorize job's completion may wait for a lock, and run. It writes rows that a role's
 * transactions can hold (its writes to the source lock their rows of svc_vectorizer_rows until they
 * commit; its schema's owner may lock the destination), so it must not wait on them for long: the
 * other roles' jobs go on in the worker's other connections meanwhile, and this connection is one of
 * the pool's few. A write of a job of 64 rows of 1,000 chunks each takes about 2 s here.
 */
export const VECTORIZE_LOCK_TIMEOUT = '2s';
export const VECTORIZE_STATEMENT_TIMEOUT = '60s';

/** A completion that could not take its locks or finish within the timeouts above: the job is retried. */
export class VectorizeWriteTimeout extends Error {}

/**
 * Writes a vectorize job's result, alone in its transaction, under VECTORIZE_LOCK_TIMEOUT and
 * VECTORIZE_STATEMENT_TIMEOUT. A lock it waited for too long (a source row that a role's transaction
 * still writes) or a write too slow fails it with VectorizeWriteTimeout, which the worker writes as
 * the job's failure: retried with backoff, the rows failed with the message once retries are spent.
 */
export async function completeVectorize(
  pool: pg.Pool,
  job: Pick<protocol.ClaimedJob, 'request_id' | 'attempt'>,
  result: string,
): Promise<boolean> {
  const client = await pool.connect();
  let broken: unknown;
  try {
    await client.query(
      `BEGIN; SET LOCAL lock_timeout = '${VECTORIZE_LOCK_TIMEOUT}'; SET LOCAL statement_timeout = '${VECTORIZE_STATEMENT_TIMEOUT}'`,
    );
    try {
      const stored = await protocol.complete(client, job, result);
      await client.query('COMMIT');
      return stored;
    } catch (error) {
      await client.query('ROLLBACK').catch((e: unknown) => (broken = e));
      const code = (error as { code?: string }).code;
      if (code === SQLSTATE.lock_not_available || code === SQLSTATE.query_canceled) {
        throw new VectorizeWriteTimeout(
          `could not write the chunks within the vectorizer's timeouts (lock ${VECTORIZE_LOCK_TIMEOUT}, write ${VECTORIZE_STATEMENT_TIMEOUT}): ${(error as Error).message}`,
        );
      }
      throw error;
    }
  } finally {
    client.release(broken !== undefined ? true : undefined);
  }
}
