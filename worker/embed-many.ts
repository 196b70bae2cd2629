// An 'embed_many' request (src/queue/embed-many.ts): a set-based svc_embed's texts, embedded together
// (Engine.embedEach: several to a llama.cpp decode where svc's addon is built), each answered with the
// bytes its own 'embed' request gives, or with the error that request would fail with, alone.
import { EMBED_MANY_MAX_TEXTS, embedManyParts, embedManyResult } from '../src/queue/embed-many.js';
import { NothingToEmbedError } from '../src/engine/engine.js';
import type { InferenceEngine } from '../src/queue/inference-engine.js';
import { PermanentJobError } from '../src/queue/job-errors.js';
import { failsAlike, vectorLiteral, type JobResult } from './jobs.js';
import { embedAll } from './vectorize.js';

function checkedTexts(p: Record<string, unknown>): string[] {
  const texts = p.texts;
  if (
    !Array.isArray(texts) ||
    texts.length === 0 ||
    texts.length > EMBED_MANY_MAX_TEXTS ||
    !texts.every((t) => typeof t === 'string')
  )
    throw new PermanentJobError(`parameters.texts must be an array of 1 to ${EMBED_MANY_MAX_TEXTS} texts`);
  return texts as string[];
}

/**
 * Each text's vector, or the error its own request fails with. One text over the context refuses
 * the lot before any decode (embedEach checks every text first): the texts then go one at a time,
 * so that it fails alone. An error that would fail each text's request alike fails the request.
 */
async function vectorsOrErrors(
  engine: InferenceEngine,
  texts: readonly string[],
  signal: AbortSignal,
): Promise<Array<number[] | PermanentJobError>> {
  const nothing = () => new PermanentJobError(new NothingToEmbedError('the text').message);
  try {
    return (await embedAll(engine, texts, signal)).map((v) => v ?? nothing());
  } catch (error) {
    if (failsAlike(error) === undefined) throw error;
  }
  const out: Array<number[] | PermanentJobError> = [];
  for (const text of texts) {
    signal.throwIfAborted();
    try {
      out.push(await engine.embed(text));
    } catch (error) {
      const alike = failsAlike(error);
      if (alike === undefined) throw error;
      out.push(alike);
    }
  }
  // Where every text fails alike (the model does not embed at all), so does the request.
  if (out.every((v) => v instanceof PermanentJobError) && new Set(out.map((v) => (v as Error).message)).size === 1)
    throw out[0] as PermanentJobError;
  return out;
}

export async function runEmbedMany(
  engine: InferenceEngine,
  p: Record<string, unknown>,
  signal: AbortSignal,
): Promise<JobResult> {
  const texts = checkedTexts(p);
  const vectors = await vectorsOrErrors(engine, texts, signal);
  const parts = vectors.map((v) => (v instanceof PermanentJobError ? { error: v.message } : vectorLiteral(v)));
  const requests = embedManyParts(p);
  return {
    result: embedManyResult(parts),
    answers: parts.flatMap((part, i) =>
      typeof part === 'string' ? [{ functionName: 'embed' as const, parameters: requests[i], result: part }] : [],
    ),
  };
}
