// A /generate request's decoding options (docs/edge.md): `seed`, `temperature`, `top_k`, `top_p`,
// `min_p` (seeded sampling, src/decode/sampling.ts) and `stop` (stop strings, src/decode/stop.ts),
// checked with the library's rules and words, and their part of the cache key. A request at the
// defaults (greedy, no stop strings) has none, so its key stays SPEC 2.3's.
import { SAMPLING_DEFAULTS, SQL_NAMES, isGreedy, samplingProblem, type Sampling } from '../decode/sampling.js';
import { stopMessage, stopProblem } from '../decode/stop.js';
import { HttpError } from './http.js';
import { ENGINE_SEED } from './engine/wllama.js';

export const OPTION_FIELDS = ['seed', 'temperature', 'top_k', 'top_p', 'min_p', 'stop'] as const;

export interface GenerateOptions {
  /** Present only where the request samples (greedy output does not depend on the seed). */
  seed?: number;
  sampling?: Sampling;
  stop?: string[];
}

/** The body's options; a 400 naming the field and the rule when one is unusable. */
export function readOptions(body: Record<string, unknown>): GenerateOptions {
  const seed = body.seed ?? ENGINE_SEED;
  if (!Number.isInteger(seed) || (seed as number) < 0 || (seed as number) > 0xffffffff) {
    throw new HttpError(400, `seed must be an integer from 0 to 4294967295 (got ${JSON.stringify(seed)})`);
  }
  const sampling = { ...SAMPLING_DEFAULTS };
  for (const key of Object.keys(SQL_NAMES) as Array<keyof Sampling>) {
    const value = body[SQL_NAMES[key]];
    if (value === undefined) continue;
    const problem = samplingProblem(key, value);
    if (problem) throw new HttpError(400, `${SQL_NAMES[key]} ${problem}`);
    (sampling as Record<keyof Sampling, number>)[key] = value as number;
  }
  let stop: string[] | undefined;
  if (body.stop !== undefined) {
    if (!Array.isArray(body.stop)) throw new HttpError(400, 'stop must be an array of strings');
    const problem = stopProblem(body.stop, 'stop', 0);
    if (problem) throw new HttpError(400, stopMessage(problem));
    if (body.stop.length > 0) stop = body.stop as string[];
  }
  return isGreedy(sampling)
    ? { ...(stop ? { stop } : {}) }
    : { seed: seed as number, sampling, ...(stop ? { stop } : {}) };
}

/** What the options add to the cache key: nothing at the defaults, else their canonical JSON. */
export function optionsKey(options: GenerateOptions): string | null {
  if (!options.sampling && !options.stop) return null;
  const s = options.sampling;
  return JSON.stringify({
    ...(s ? { seed: options.seed, temperature: s.temperature, top_k: s.topK, top_p: s.topP, min_p: s.minP } : {}),
    ...(options.stop ? { stop: options.stop } : {}),
  });
}
