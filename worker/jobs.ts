// What a claimed job means for the engine, and how its answer becomes the result text stored in the
// queue. Deterministic failures (output that breaks its constraint, a grammar llama.cpp refuses, a
// grammar that is not the one the job's parameters compile to) are marked so the worker fails them at
// once instead of retrying the same bytes.
import { compileChoices, compileJsonSchema, compileRegex } from '../src/grammar/index.js';
import {
  ContextExceededError,
  GrammarRefusedError,
  ModelRoleError,
  NothingToEmbedError,
} from '../src/engine/engine.js';
import { STOP_REASON_NAMES, type StopReasonName } from '../src/engine/outcomes.js';
import { InferenceServerError } from '../src/engine/server-engine.js';
import type { InferenceEngine } from '../src/queue/inference-engine.js';
import { ConstraintBudgetError, ConstraintDeadEndError } from '../src/engine/constrained.js';
import { ChatTemplateError } from '../src/engine/prompt.js';
import type { OnText } from '../src/engine/text-stream.js';
import { recordedSchema } from '../src/queue/recorded-schema.js';
import { SQL_NAMES, samplingProblem, type Sampling } from '../src/decode/sampling.js';
import { stopMessage, stopProblem } from '../src/decode/stop.js';
import type { ClaimedJob } from './protocol.js';
import { embedAll, runVectorize } from './vectorize.js';
import { EMBED_MANY_MAX_TEXTS, embedManyParts, embedManyResult } from '../src/queue/embed-many.js';
import {
  GENERATE_MANY_FUNCTIONS,
  GENERATE_MANY_MAX_PROMPTS,
  generateManyParts,
  generateManyResult,
  isGenerateManyFunction,
  type GenerateManyFunction,
  type GenerateManyPart,
} from '../src/queue/generate-many.js';
import { PermanentJobError } from '../src/queue/job-errors.js';

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

interface GenerationParameters {
  prompt: string;
  max_tokens: number;
  seed: number;
}

/**
 * How a generation job's prompt reaches the model, from its parameters: prompt_format 'chat' (the
 * user turn of the model's chat template, after system_prompt when one is recorded) or 'raw'. Rows
 * written before svc recorded a format have none and ran raw, as they still do.
 */
export function promptOptions(p: Record<string, unknown>): { promptFormat: 'chat' | 'raw'; systemPrompt?: string } {
  const format = p.prompt_format ?? 'raw';
  if (format !== 'chat' && format !== 'raw')
    throw new PermanentJobError(`parameters.prompt_format must be 'chat' or 'raw' (is ${JSON.stringify(format)})`);
  const system = p.system_prompt ?? undefined;
  if (system !== undefined && typeof system !== 'string')
    throw new PermanentJobError('parameters.system_prompt must be text');
  return system === undefined ? { promptFormat: format } : { promptFormat: format, systemPrompt: system };
}

/**
 * How a generation job decodes, from its parameters: sampling where it records a temperature (with
 * top_k, top_p and min_p beside it), stop strings where it records some (src/extension/jobs.ts
 * decodingOptions). Rows written before svc recorded them have neither and decode greedily, as they did.
 */
export function jobDecoding(p: Record<string, unknown>): { sampling?: Sampling; stop?: string[] } {
  const out: { sampling?: Sampling; stop?: string[] } = {};
  if (p.temperature !== undefined) {
    const sampling = { temperature: p.temperature, topK: p.top_k, topP: p.top_p, minP: p.min_p } as Record<
      keyof Sampling,
      unknown
    >;
    for (const key of Object.keys(SQL_NAMES) as Array<keyof Sampling>) {
      const problem = samplingProblem(key, sampling[key]);
      if (problem) throw new PermanentJobError(`parameters.${SQL_NAMES[key]} ${problem}`);
    }
    out.sampling = sampling as unknown as Sampling;
  }
  if (p.stop !== undefined) {
    const problem = Array.isArray(p.stop)
      ? stopProblem(p.stop, 'parameters.stop', 0)
      : { subject: 'parameters.stop', rule: 'must be an array of strings', overLimit: false };
    if (problem) throw new PermanentJobError(stopMessage(problem));
    out.stop = p.stop as string[];
  }
  return out;
}

function cutShort(tokens: number, maxTokens: number, stopReason: string): boolean {
  return stopReason === 'maxTokens' || stopReason === 'context' || tokens >= maxTokens;
}

/** What a job stores: its result text, and for a generation how it ended (svc_queue.stop_reason). */
export interface JobResult {
  result: string;
  stopReason?: StopReasonName;
  /** A request of many inputs (embed_many, generate_many): each input's own request (its function and parameters) and answer, cached as that request's. */
  answers?: Array<{
    functionName: string;
    parameters: Record<string, unknown>;
    result: string;
    stopReason?: StopReasonName;
  }>;
}

/** A template the model carries but node-llama-cpp cannot render fails every attempt alike. */
function chatTemplateFailure(error: unknown): never {
  if (error instanceof ChatTemplateError)
    throw new PermanentJobError(`${error.message} (svc.prompt_format = 'raw' sends prompts as they are)`);
  throw error;
}

/** `onText`: streaming, the output's text as it comes (generation jobs; an inference server hands it on at the end). */
export async function runJob(
  engine: InferenceEngine,
  job: ClaimedJob,
  signal: AbortSignal,
  onText?: OnText,
): Promise<JobResult> {
  try {
    return await runOn(engine, job, signal, onText);
  } catch (error) {
    throw failsAlike(error) ?? error;
  }
}

/** The error as a PermanentJobError where every attempt of the same input would fail alike; else undefined. */
export function failsAlike(error: unknown): PermanentJobError | undefined {
  // A text the model has nothing to embed has nothing on every attempt; it is never cached.
  if (error instanceof NothingToEmbedError) return new PermanentJobError(error.message);
  // An input over the context, or generation asked of an embedding model, fails alike every time: refused at once, never retried (#45).
  if (error instanceof ContextExceededError || error instanceof ModelRoleError)
    return new PermanentJobError(error.message);
  // A request an inference server rejects as invalid, or an endpoint it does not offer, fails alike every time.
  if (error instanceof InferenceServerError && error.permanent) return new PermanentJobError(error.message);
  return error instanceof PermanentJobError ? error : undefined;
}

async function runOn(
  engine: InferenceEngine,
  job: ClaimedJob,
  signal: AbortSignal,
  onText?: OnText,
): Promise<JobResult> {
  const p = job.parameters as Record<string, unknown>;
  switch (job.function_name) {
    case 'generate': {
      const { prompt, max_tokens, seed } = p as unknown as GenerationParameters;
      const out = await engine
        .generate({ prompt, maxTokens: max_tokens, seed, ...jobDecoding(p), ...promptOptions(p), signal, onText })
        .catch(chatTemplateFailure);
      return { result: toPgText(out.text), stopReason: STOP_REASON_NAMES[out.stopReason] };
    }
    case 'generate_json':
    case 'generate_regex':
    case 'generate_choice': {
      const { prompt, max_tokens, seed } = p as unknown as GenerationParameters;
      const format = promptOptions(p);
      let out: Awaited<ReturnType<InferenceEngine['generate']>>;
      try {
        out = await engine.generate({
          prompt,
          maxTokens: max_tokens,
          seed,
          ...jobDecoding(p),
          ...format,
          grammar: job.grammar,
          signal,
          onText,
        });
      } catch (error) {
        // The same grammar would be refused on every attempt.
        if (error instanceof GrammarRefusedError) {
          // Whoever refused it (llama.cpp in process, llama-server, vllm) says so first in the engine's message.
          const who = /^(.*?) refused the grammar: /.exec(error.message)?.[1] ?? 'the engine';
          throw new PermanentJobError(
            `${who} refused the job's grammar: ${(error.cause as Error | undefined)?.message ?? error.message}`,
          );
        }
        // A budget below the constraint's shortest output, or a constraint the vocabulary cannot spell, fails alike every time (#23).
        if (error instanceof ConstraintBudgetError || error instanceof ConstraintDeadEndError)
          throw new PermanentJobError(error.message);
        return chatTemplateFailure(error);
      }
      checkConstrained(job, out.text, out.stopReason, cutShort(out.tokens, max_tokens, out.stopReason));
      return { result: toPgText(out.text), stopReason: STOP_REASON_NAMES[out.stopReason] };
    }
    case 'embed':
      return { result: vectorLiteral(await engine.embed(String(p.text_input))) };
    case 'rerank': {
      const ranked = await engine.rerank(String(p.query), p.documents as string[], String(p.task));
      return { result: JSON.stringify(ranked) };
    }
    case 'embed_many':
      return runEmbedMany(engine, p, signal);
    case 'generate_many':
      return runGenerateMany(engine, job, signal);
    case 'vectorize':
      return { result: await runVectorize(engine, p, signal) };
    default:
      throw new PermanentJobError(`unknown function ${String(job.function_name)}`);
  }
}

/** The inputs of a request of many (parameters[field]: an 'embed_many' request's texts, a 'generate_many' one's prompts): 1 to `max` texts. */
function inputsOf(p: Record<string, unknown>, field: string, max: number): string[] {
  const inputs = p[field];
  if (
    !Array.isArray(inputs) ||
    inputs.length === 0 ||
    inputs.length > max ||
    !inputs.every((t) => typeof t === 'string')
  )
    throw new PermanentJobError(`parameters.${field} must be an array of 1 to ${max} texts`);
  return inputs as string[];
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
  throwIfAllFailAlike(out);
  return out;
}

/** Where every input of a request of many fails alike (the model does not embed, or generate, at all), so does the request. */
function throwIfAllFailAlike(outcomes: readonly unknown[]): void {
  if (
    outcomes.every((o) => o instanceof PermanentJobError) &&
    new Set(outcomes.map((o) => (o as Error).message)).size === 1
  )
    throw outcomes[0] as PermanentJobError;
}

/**
 * An 'embed_many' request: a set-based svc_embed's texts, embedded together (Engine.embedEach:
 * several to a llama.cpp decode where svc's addon is built), each answered with the bytes its own
 * 'embed' request gives, or with the error that request would fail with, alone.
 */
async function runEmbedMany(
  engine: InferenceEngine,
  p: Record<string, unknown>,
  signal: AbortSignal,
): Promise<JobResult> {
  const texts = inputsOf(p, 'texts', EMBED_MANY_MAX_TEXTS);
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

/** A 'generate_many' request's function (src/queue/generate-many.ts), its prompts checked. */
function promptsFunction(p: Record<string, unknown>): GenerateManyFunction {
  if (!isGenerateManyFunction(p.function))
    throw new PermanentJobError(`parameters.function must be one of ${GENERATE_MANY_FUNCTIONS.join(', ')}`);
  inputsOf(p, 'prompts', GENERATE_MANY_MAX_PROMPTS);
  return p.function;
}

/**
 * A 'generate_many' request: a set-based generation's prompts, run one after another in this job's
 * slot, each as its own request runs (its decoding, constraint and checks), answered with the bytes
 * that request gives or with the error it would fail with, alone. An error that is not the prompt's
 * own (the job stopped, the engine failed) fails the request, which runs again whole.
 */
async function runGenerateMany(engine: InferenceEngine, job: ClaimedJob, signal: AbortSignal): Promise<JobResult> {
  promptsFunction(job.parameters as Record<string, unknown>);
  const { functionName, requests } = generateManyParts(job.parameters as Record<string, unknown>);
  const parts: Array<GenerateManyPart | PermanentJobError> = [];
  const answers: NonNullable<JobResult['answers']> = [];
  for (const parameters of requests) {
    signal.throwIfAborted();
    try {
      const ran = await runOn(engine, { ...job, function_name: functionName, parameters }, signal);
      parts.push(ran.result);
      answers.push({ functionName, parameters, result: ran.result, stopReason: ran.stopReason });
    } catch (error) {
      const alike = failsAlike(error);
      if (alike === undefined) throw error;
      parts.push(alike);
    }
  }
  throwIfAllFailAlike(parts);
  return {
    result: generateManyResult(
      parts.map((part) => (part instanceof PermanentJobError ? { error: part.message } : part)),
    ),
    answers,
  };
}

/** What a constrained job's parameters compile to: its grammar, and the check of an output against it. */
interface Constraint {
  gbnf: string;
  /** Why `text` breaks the constraint, or undefined when it satisfies it. */
  problem(text: string): string | undefined;
}

// Compiling a schema costs milliseconds (its ajv validator too); jobs of one constraint usually come
// in runs. Keyed by function and constraint input; least recently used first.
const constraints = new Map<string, Constraint>();

function compileConstraint(functionName: ClaimedJob['function_name'], p: Record<string, unknown>): Constraint {
  switch (functionName) {
    case 'generate_json': {
      if (p.schema === null || p.schema === undefined) throw new Error('parameters.schema is missing');
      // strict_schema, open_objects: recorded by the extension when svc.strict_schema, svc.open_objects were on (src/extension/jobs.ts).
      // A string is a schema given as text, its properties in the order written (src/queue/recorded-schema.ts).
      const compiled = compileJsonSchema(recordedSchema(p.schema), {
        strict: p.strict_schema === true,
        additionalProperties: p.open_objects === true,
      });
      return {
        gbnf: compiled.gbnf,
        problem: (text) => {
          const result = compiled.validate(text);
          return result.ok ? undefined : result.error.message;
        },
      };
    }
    case 'generate_regex': {
      if (typeof p.pattern !== 'string') throw new Error('parameters.pattern is not a string');
      const pattern = p.pattern;
      let matcher: RegExp | undefined;
      return {
        gbnf: compileRegex(pattern).gbnf,
        problem: (text) =>
          (matcher ??= new RegExp(`^(?:${pattern})$`, 'u')).test(text) ? undefined : 'it does not match the pattern',
      };
    }
    case 'generate_choice': {
      if (!Array.isArray(p.choices) || !p.choices.every((c) => typeof c === 'string'))
        throw new Error('parameters.choices is not an array of strings');
      const choices = p.choices as string[];
      return {
        gbnf: compileChoices(choices).gbnf,
        problem: (text) => (choices.includes(text) ? undefined : 'it is none of the choices'),
      };
    }
    default:
      throw new Error(`${functionName} takes no constraint`);
  }
}

/**
 * The constraint a constrained job's own parameters compile to (parameters.schema, .pattern or
 * .choices), compiled exactly as src/extension/jobs.ts compiles them at submission. Parameters that
 * do not compile are a permanent failure.
 */
export function jobConstraint(job: Pick<ClaimedJob, 'function_name' | 'parameters'>): Constraint {
  const p = job.parameters as Record<string, unknown>;
  const input =
    job.function_name === 'generate_json' ? p.schema : job.function_name === 'generate_regex' ? p.pattern : p.choices;
  const key = JSON.stringify([job.function_name, input ?? null, p.strict_schema === true, p.open_objects === true]);
  let constraint = constraints.get(key);
  if (constraint) {
    constraints.delete(key); // refresh its place in the LRU order
  } else {
    try {
      constraint = compileConstraint(job.function_name, p);
    } catch (error) {
      throw new PermanentJobError(
        `the job's parameters do not compile to a constraint: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (constraints.size >= 256) constraints.delete(constraints.keys().next().value!);
  }
  constraints.set(key, constraint);
  return constraint;
}

const CONSTRAINED: ReadonlySet<string> = new Set(['generate_json', 'generate_regex', 'generate_choice']);

/**
 * Refuses a job whose stored grammar is not the one its parameters compile to (none for the
 * unconstrained functions). The submitters always store that grammar; a row written some other way
 * (inserted into svc_queue directly) could otherwise run under a hand-written grammar and have its
 * answer cached under a real request's parameters, served to everyone who asks that request.
 */
export function checkJobGrammar(job: Pick<ClaimedJob, 'function_name' | 'parameters' | 'grammar'>): void {
  // A request of many prompts carries its prompts' one constraint.
  const own = job.function_name === 'generate_many' ? { ...job, function_name: promptsFunction(job.parameters) } : job;
  const expected = CONSTRAINED.has(own.function_name) ? jobConstraint(own).gbnf : null;
  if (job.grammar !== expected)
    throw new PermanentJobError(
      "the job's grammar is not the one its parameters compile to (written by hand, or by an extension from another svc release than this worker)",
    );
}

function checkConstrained(job: ClaimedJob, text: string, stopReason: string, truncated: boolean): void {
  const problem = jobConstraint(job).problem(text);
  if (problem !== undefined) {
    const why = !truncated
      ? problem
      : stopReason === 'context'
        ? "generation stopped where the model's context was full, before max_tokens and before the constraint was satisfied (shorten the prompt, or serve a model with a longer context)"
        : `generation stopped at max_tokens (${String((job.parameters as Record<string, unknown>).max_tokens)}) before the constraint was satisfied`;
    throw new PermanentJobError(`the output breaks its constraint: ${why}`);
  }
}
