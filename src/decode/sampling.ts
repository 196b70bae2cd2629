// Seeded sampling: what a generation may take besides greedy decoding, its defaults and its rules, in
// one place for every surface (the library, the CLI, SQL through the worker, the edge), so that each
// refuses the same values with the same words and records the same request.
//
// The default is greedy (temperature 0): the model's most likely token at every step, whatever the
// seed and the other options, and the bytes svc always gave. With a temperature above 0 the token is
// drawn from the model's distribution by llama.cpp's samplers, in llama.cpp's order (top-k, top-p,
// min-p, temperature, then a draw seeded with `seed`), under a grammar from the tokens it allows:
// the same request and seed give the same bytes, another seed other bytes.
//
// Pure: no node-llama-cpp here (the extension's bundle and the edge import it).

export interface Sampling {
  /** 0 (greedy, the default) to 2: how flat the distribution a token is drawn from is. */
  readonly temperature: number;
  /** Only the k most likely tokens are candidates (0: all of them). */
  readonly topK: number;
  /** Only the most likely tokens whose probabilities add up to top_p are candidates (1: all). */
  readonly topP: number;
  /** Only tokens at least min_p times as likely as the most likely one are candidates (0: all). */
  readonly minP: number;
}

/** llama.cpp's own defaults (llama-cli, llama-server) for the candidates, where a temperature is given. */
export const SAMPLING_DEFAULTS: Sampling = { temperature: 0, topK: 40, topP: 0.95, minP: 0.05 };

export const SAMPLING_LIMITS = { temperatureMax: 2, topKMax: 2_147_483_647 } as const;

/** Each option's name on a surface: SQL, the edge and the CLI spell them snake_case, the library camelCase. */
export type SamplingNames = Record<keyof Sampling, string>;
export const SQL_NAMES: SamplingNames = { temperature: 'temperature', topK: 'top_k', topP: 'top_p', minP: 'min_p' };
export const LIBRARY_NAMES: SamplingNames = { temperature: 'temperature', topK: 'topK', topP: 'topP', minP: 'minP' };

/**
 * Why one option's value is refused (the rule, after its name), or undefined when it is valid. Every
 * surface words its errors with it: `temperature must be a number from 0 to 2 (got 3)`.
 */
export function samplingProblem(option: keyof Sampling, value: unknown): string | undefined {
  const got = ` (got ${typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value))})`;
  switch (option) {
    case 'temperature':
      return typeof value === 'number' && value >= 0 && value <= SAMPLING_LIMITS.temperatureMax
        ? undefined
        : `must be a number from 0 to ${SAMPLING_LIMITS.temperatureMax}${got}`;
    case 'topK':
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= SAMPLING_LIMITS.topKMax
        ? undefined
        : `must be an integer from 0 (every token) to ${SAMPLING_LIMITS.topKMax}${got}`;
    case 'topP':
      return typeof value === 'number' && value > 0 && value <= 1
        ? undefined
        : `must be a number above 0 and at most 1${got}`;
    case 'minP':
      return typeof value === 'number' && value >= 0 && value < 1
        ? undefined
        : `must be a number from 0 to below 1${got}`;
  }
}

/** Whether a request decodes greedily: no sampling given, or a temperature of 0 (the other options then change nothing). */
export const isGreedy = (sampling: Sampling | undefined): boolean =>
  sampling === undefined || sampling.temperature === 0;

/**
 * The sampling options a request records (in its queue parameters and its cache key), snake_case:
 * none when it is greedy, so a greedy request keeps the parameters and cache key it always had
 * whatever top_k, top_p and min_p say (they change nothing then); all four, resolved, otherwise.
 */
export function recordedSampling(sampling: Sampling | undefined): {
  temperature?: number;
  top_k?: number;
  top_p?: number;
  min_p?: number;
} {
  if (sampling === undefined || isGreedy(sampling)) return {};
  return { temperature: sampling.temperature, top_k: sampling.topK, top_p: sampling.topP, min_p: sampling.minP };
}

/** llama.cpp's seeds are 32-bit unsigned: a negative SQL seed is its two's complement (-1 is 4294967295), not 0 for all of them. */
export const samplerSeed = (seed: number): number => seed >>> 0;
