// What a claimed job means for the engine, and how its answer becomes the result text stored in the
// queue. Deterministic failures (output that breaks its constraint) are marked so the worker fails
// them at once instead of retrying the same bytes.
import { compileJsonSchema } from '../src/grammar/index.js';
import type { Engine } from '../src/engine/engine.js';
import type { ClaimedJob } from './protocol.js';

export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/**
 * PostgreSQL text cannot hold NUL, and model output can: every stored result passes through here, so
 * sync, async and cached answers hold the same bytes. NUL becomes U+FFFD, like an undecodable byte.
 */
export function toPgText(text: string): string {
  return text.includes('\u0000') ? text.replace(/\u0000/g, '\uFFFD') : text;
}

/** A pgvector literal; also what `svc_embed` turns into real[]. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.map((x) => (Object.is(x, -0) ? 0 : x)).join(',')}]`;
}

interface GenerationParameters { prompt: string; max_tokens: number; seed: number }

function cutShort(tokens: number, maxTokens: number, stopReason: string): boolean {
  return stopReason === 'maxTokens' || tokens >= maxTokens;
}

export async function runJob(engine: Engine, job: ClaimedJob, signal: AbortSignal): Promise<string> {
  const p = job.parameters as Record<string, unknown>;
  switch (job.function_name) {
    case 'generate': {
      const { prompt, max_tokens, seed } = p as unknown as GenerationParameters;
      const out = await engine.generate({ prompt, maxTokens: max_tokens, seed, signal });
      return toPgText(out.text);
    }
    case 'generate_json':
    case 'generate_regex':
    case 'generate_choice': {
      const { prompt, max_tokens, seed } = p as unknown as GenerationParameters;
      const out = await engine.generate({ prompt, maxTokens: max_tokens, seed, grammar: job.grammar, signal });
      checkConstrained(job, out.text, cutShort(out.tokens, max_tokens, out.stopReason));
      return toPgText(out.text);
    }
    case 'embed':
      return vectorLiteral(await engine.embed(String(p.text_input)));
    case 'rerank': {
      const ranked = await engine.rerank(String(p.query), p.documents as string[], String(p.task));
      return JSON.stringify(ranked);
    }
    default:
      throw new PermanentJobError(`unknown function ${String(job.function_name)}`);
  }
}

// Compiling a schema's validator costs milliseconds; jobs of one schema usually come in runs.
const validators = new Map<string, ReturnType<typeof compileJsonSchema>>();
function schemaValidator(schema: unknown) {
  const key = JSON.stringify(schema);
  let compiled = validators.get(key);
  if (!compiled) {
    if (validators.size >= 256) validators.delete(validators.keys().next().value!);
    compiled = compileJsonSchema(schema);
    validators.set(key, compiled);
  }
  return compiled;
}

function checkConstrained(job: ClaimedJob, text: string, truncated: boolean): void {
  const p = job.parameters as Record<string, unknown>;
  let problem: string | undefined;
  if (job.function_name === 'generate_json') {
    const result = schemaValidator(p.schema).validate(text);
    if (!result.ok) problem = result.error.message;
  } else if (job.function_name === 'generate_regex') {
    if (!new RegExp(`^(?:${String(p.pattern)})$`, 'u').test(text)) problem = `it does not match the pattern`;
  } else if (!(p.choices as string[]).includes(text)) {
    problem = 'it is none of the choices';
  }
  if (problem !== undefined) {
    const why = truncated ? `generation stopped at max_tokens (${String(p.max_tokens)}) before the constraint was satisfied` : problem;
    throw new PermanentJobError(`the output breaks its constraint: ${why}`);
  }
}
