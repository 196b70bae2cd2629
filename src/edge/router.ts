// HTTP surface of the edge worker (SPEC 4.3, 5.1, 7, 8).
//
// Choices where SPEC is silent (docs/edge.md):
// - /health answers any method; /generate and /embed take POST only and the metrics route GET
//   only; other methods get 405 JSON {error: 'Method not allowed'} with an Allow header.
// - A body that is not JSON is 400 JSON {error: 'Invalid JSON body'}; a JSON value that is not an
//   object counts as having no fields (so 'Prompt required' / 'Text required').
// - max_tokens must be an integer from 1 to DEFAULT_MAX_TOKENS (512); else 400.
// - A body field the endpoint does not know is a 400 naming it. /generate takes one constraint
//   (schema, regex, choices: constraint.ts); its output is checked before it is answered or cached
//   (422 when it does not satisfy it), and the constraint is part of the cache key.
// - Input the model cannot take is a 400 stating the limit (lone surrogates; prompt plus max_tokens
//   over the context; embed text over the batch), never a 500 or a shortened, cached answer; so is a
//   request its model cannot serve (/generate on an embedding model), naming the model and what it lacks.
// - Each endpoint runs its own model (GENERATE_MODEL, EMBED_MODEL), in an engine object of its own.
// - Order: unknown path → 404 first; /health is never behind auth or the rate limiter; then
//   method, API key (when REQUIRE_API_KEY), rate limit (when RATE_LIMIT), handler.
import { CACHE_RULES, GENERATE_DEFAULT_MAX_TOKENS, cacheTtl, endpointModel, flag, maxTokensLimit } from './config.js';
import { checkApiKey } from './auth.js';
import { Coalescer, EmbeddingCache, GenerationCache, constraintKeyId, generationKey } from './cache.js';
import { CONSTRAINT_FIELDS, readConstraint } from './constraint.js';
import { OPTION_FIELDS, optionsKey, readOptions, type GenerateOptions } from './options.js';
import { currentModelTag } from './engine/model-store.js';
import { HttpError, json, readJsonObject, text } from './http.js';
import { MetricsBuffer, renderMetrics } from './metrics.js';
import { rateLimit, rateLimitId, rateLimitOptions } from './rate-limit.js';
import { inputProblem } from './text.js';
import { SSE_HEADERS, jsonLines, sseCached, sseEvent, stopReason } from './stream.js';
import type { Env, ExecutionContext } from './types.js';

// Per isolate: identical concurrent requests share one computation (SPEC 4.3), keyed like SPEC's
// coalescing key `<prompt>:<max_tokens>` (embeddings by their text), under the model tag.
type Generated = { text: string; tokens: number; model: string; stopped?: boolean };
const generations = new Coalescer<Generated>();
const embeddings = new Coalescer<{ embedding: number[]; model: string }>();
export const metrics = new MetricsBuffer();

type Route = '/generate' | '/embed' | '/health' | 'metrics';

function routeOf(pathname: string, env: Env): Route | null {
  if (pathname === '/generate' || pathname === '/embed' || pathname === '/health') return pathname;
  if (pathname === (env.METRICS_PATH || '/metrics')) return 'metrics';
  return null;
}

/** Asks the engine object of model `name` (one per model: its own isolate when deployed). */
function engineCall(env: Env, name: string, method: string, params: Record<string, unknown>): Promise<Response> {
  return env.ENGINE.get(env.ENGINE.idFromName(name)).fetch('https://engine.internal/', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ method, params: { ...params, name } }),
  });
}

async function callEngine<T>(env: Env, name: string, method: string, params: Record<string, unknown>): Promise<T> {
  const res = await engineCall(env, name, method, params);
  const body = (await res.json().catch(() => ({}))) as T & { error?: string };
  // The engine's 400s are the caller's input (a limit of the model): passed on as they are.
  if (res.status === 400 && body.error) throw new HttpError(400, body.error);
  if (!res.ok) throw new Error(body.error || `engine answered ${res.status}`);
  return body;
}

function parseMaxTokens(v: unknown, env: Env): number {
  if (v === undefined || v === null) return GENERATE_DEFAULT_MAX_TOKENS;
  const limit = maxTokensLimit(env);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > limit) {
    throw new HttpError(400, `max_tokens must be an integer from 1 to ${limit}`);
  }
  return v;
}

async function handleGenerate(request: Request, env: Env, ctx: ExecutionContext, apiKey: string | null) {
  const body = await readJsonObject(request);
  knownFields('/generate', body, GENERATE_FIELDS);
  const prompt = body.prompt;
  if (typeof prompt !== 'string' || prompt.length === 0) throw new HttpError(400, 'Prompt required');
  wellFormed('prompt', prompt);
  const maxTokens = parseMaxTokens(body.max_tokens, env);
  const constraint = readConstraint(body);
  const options = readOptions(body);
  if (body.stream !== undefined && typeof body.stream !== 'boolean')
    throw new HttpError(400, 'stream must be a boolean (true answers server-sent events)');
  const constraintId = await requestKeyId(constraint?.key ?? null, optionsKey(options));
  const cache = new GenerationCache(env.CACHE, env.DB);
  const name = endpointModel(env, '/generate');
  const model = await currentModelTag(env, name);
  const requestKey = generationKey(model, prompt, maxTokens, constraintId);
  const hit = await cache.get(requestKey, (p) => ctx.waitUntil(p));
  if (hit)
    return {
      response: body.stream === true ? sseCached(hit.text) : json({ text: hit.text, cached: true }),
      cached: true,
    };
  const request_ = { name, prompt, maxTokens, constraint, constraintId, options, cache, apiKey };
  if (body.stream === true) return { response: await streamGenerate(env, ctx, model, request_), cached: false };

  const { promise, joined } = generations.run(requestKey, () =>
    callEngine<Generated>(env, name, 'generate', engineParams(request_, model)),
  );
  const out = await promise;
  checkOutput(request_, out);
  if (!joined) ctx.waitUntil(storeGeneration(env, request_, out));
  return { response: json({ text: out.text, cached: false }), cached: false };
}

interface GenerationRequest {
  /** The model's name (GENERATE_MODEL). */
  name: string;
  prompt: string;
  maxTokens: number;
  constraint: ReturnType<typeof readConstraint>;
  /** The constraint's and the options' part of the cache key (requestKeyId). */
  constraintId: string | null;
  options: GenerateOptions;
  cache: GenerationCache;
  apiKey: string | null;
}

/**
 * A request's constraint and decoding options in its cache key: the constraint's id as before where
 * the options are the defaults (so those keys are unchanged), else the SHA-256 of both together.
 */
async function requestKeyId(constraintKey: string | null, options: string | null): Promise<string | null> {
  if (options === null) return constraintKey === null ? null : constraintKeyId(constraintKey);
  return constraintKeyId(JSON.stringify({ constraint: constraintKey, options }));
}

/** What the engine object is asked for a request (engine-object.ts generateOptions reads it). */
function engineParams(
  { prompt, maxTokens, constraint, options }: GenerationRequest,
  model: string,
): Record<string, unknown> {
  const { sampling, seed, stop } = options;
  return {
    prompt,
    max_tokens: maxTokens,
    model,
    ...(constraint ? { grammar: constraint.gbnf } : {}),
    ...(sampling ? { sampling, seed } : {}),
    ...(stop ? { stop } : {}),
  };
}

/** Checked before it is answered or cached: a constrained output cut off by max_tokens is no answer. */
function checkOutput({ constraint, maxTokens }: GenerationRequest, out: Generated): void {
  const problem = constraint?.problem(out.text);
  // Not checkable: our failure (500); else the output stopped short of a complete one (422). Neither is cached.
  if (problem?.unchecked) throw new Error(problem.message);
  if (problem)
    throw new HttpError(
      422,
      `${problem.message} (generation stopped after ${out.tokens} tokens of max_tokens ${maxTokens}: raise max_tokens)`,
    );
}

/** Caches a checked output, under the model that computed it (the engine may hold a newer upload than the one asked for). */
function storeGeneration(
  env: Env,
  { prompt, maxTokens, constraint, constraintId, options, cache, apiKey }: GenerationRequest,
  out: Generated,
): Promise<void> {
  const key = generationKey(out.model, prompt, maxTokens, constraintId);
  // SPEC 8 sample rules: identified callers' prompts are "user prompts" (shorter KV life);
  // anonymous ones are "common" and get the deployment's CACHE_TTL.
  const ttl = apiKey ? CACHE_RULES['/generate'].userTtlS : cacheTtl(env);
  const parameters = {
    max_tokens: maxTokens,
    ...(constraint ? { constraint: constraint.key } : {}),
    ...(optionsKey(options) ? JSON.parse(optionsKey(options)!) : {}),
  };
  return cache
    .put(key, { prompt, parameters, result: out.text, tokenCount: out.tokens }, ttl)
    .catch((err) => console.error('generation cache write failed:', err));
}

/**
 * /generate with stream: true, on a cache miss (stream.ts). An error before the first piece (the
 * engine's 400 for a prompt that leaves too little context, a model that does not load) is answered
 * as without stream, as JSON with its status; after it, as an error event. The output is checked and
 * cached as without stream, and the done event carries the same text.
 */
async function streamGenerate(
  env: Env,
  ctx: ExecutionContext,
  model: string,
  request: GenerationRequest,
): Promise<Response> {
  const { maxTokens } = request;
  const res = await engineCall(env, request.name, 'generate', { ...engineParams(request, model), stream: true });
  if (!res.ok || !res.body) {
    const failed = (await res.json().catch(() => ({}))) as { error?: string };
    if (res.status === 400 && failed.error) throw new HttpError(400, failed.error);
    throw new Error(failed.error || `engine answered ${res.status}`);
  }
  const lines = jsonLines(res.body);
  const first = await lines.next();
  if (first.done) throw new Error('engine answered nothing');
  const failure = (line: Record<string, unknown>) =>
    line.status === 400
      ? new HttpError(400, String(line.error))
      : new Error(typeof line.error === 'string' ? line.error : 'engine failed');
  if (first.value.error !== undefined) throw failure(first.value);

  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  const send = (data: unknown, event?: string) => writer.write(encoder.encode(sseEvent(data, event)));
  const pump = (async () => {
    try {
      for (
        let line: Record<string, unknown> | undefined = first.value;
        line;
        line = (await lines.next()).value ?? undefined
      ) {
        if (line.error !== undefined) throw failure(line);
        if (line.done !== true) {
          await send({ text: line.text });
          continue;
        }
        const out: Generated = {
          text: String(line.text),
          tokens: Number(line.tokens),
          model: String(line.model),
          stopped: line.stopped === true,
        };
        checkOutput(request, out);
        const stop = stopReason({ ...out, cut: line.cut === true }, maxTokens);
        await send({ text: out.text, cached: false, tokens: out.tokens, stop_reason: stop }, 'done');
        await writer.close(); // the reader has its answer; the cache write goes on
        await storeGeneration(env, request, out);
        return;
      }
      throw new Error('the engine ended the stream without its result');
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 500;
      await send({ error: err instanceof Error ? err.message : String(err), status }, 'error').catch(() => {});
    } finally {
      await writer.close().catch(() => {});
    }
  })();
  ctx.waitUntil(pump);
  return new Response(readable, { headers: SSE_HEADERS });
}

const GENERATE_FIELDS = ['prompt', 'max_tokens', ...CONSTRAINT_FIELDS, ...OPTION_FIELDS, 'stream'];
const EMBED_FIELDS = ['text'];

/** A field the endpoint does not know is a 400 naming it: a misspelt `schema` must not pass as plain text. */
function knownFields(endpoint: string, body: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(body).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    throw new HttpError(
      400,
      `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')}: ${endpoint} takes ${known.join(', ')}`,
    );
  }
}

async function handleEmbed(request: Request, env: Env, ctx: ExecutionContext) {
  const body = await readJsonObject(request);
  knownFields('/embed', body, EMBED_FIELDS);
  const input = body.text;
  if (typeof input !== 'string' || input.length === 0) throw new HttpError(400, 'Text required');
  wellFormed('text', input);
  const cache = new EmbeddingCache(env.CACHE, env.DB);
  const name = endpointModel(env, '/embed');
  const model = await currentModelTag(env, name);
  const hit = await cache.get(model, input);
  if (hit) return { response: json({ embedding: hit.embedding }), cached: true };
  const { promise, joined } = embeddings.run(`${model}/${input}`, () =>
    callEngine<{ embedding: number[]; model: string }>(env, name, 'embed', { text: input, model }),
  );
  const { embedding, model: computedBy } = await promise;
  if (!joined) {
    ctx.waitUntil(
      cache.put(computedBy, input, embedding).catch((err) => console.error('embedding cache write failed:', err)),
    );
  }
  // Answer with the float32 values that the caches hold, so cached and fresh answers are identical.
  return { response: json({ embedding: Array.from(new Float32Array(embedding)) }), cached: false };
}

/**
 * Input no model can take: over INPUT_MAX_BYTES, or a lone surrogate (it cannot be a KV key or reach
 * llama.cpp). 400 naming the field and the limit or where.
 */
function wellFormed(name: string, s: string): void {
  const problem = inputProblem(name, s);
  if (problem) throw new HttpError(400, problem);
}

function errorResponse(err: unknown, route: Route | null): Response {
  if (err instanceof HttpError) {
    // SPEC 5.1: auth failures are plain text; everything else on the JSON routes is JSON.
    if (err.status === 401 || err.status === 403) return text(err.message, err.status, err.headers);
    if (route === 'metrics' && err.status !== 429 && err.status !== 405)
      return text(err.message, err.status, err.headers);
    return json({ error: err.message }, err.status, err.headers);
  }
  return json({ error: err instanceof Error ? err.message : String(err) }, 500);
}

export async function handleRequest(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const started = Date.now();
  const url = new URL(request.url);
  const route = routeOf(url.pathname, env);
  let cached = false;
  let response: Response;
  try {
    if (route === null) {
      response = text('Not Found', 404);
    } else if (route === '/health') {
      response = text('OK');
    } else {
      const allowed = route === 'metrics' ? ['GET', 'HEAD'] : ['POST'];
      if (!allowed.includes(request.method)) {
        throw new HttpError(405, 'Method not allowed', { Allow: allowed.join(', ') });
      }
      // Only a key that was checked identifies a caller: with auth off, X-API-Key is whatever the
      // client sends, so the limiter and the cache rules key on the client address instead.
      const apiKey = flag(env.REQUIRE_API_KEY) ? await checkApiKey(request, env) : null;
      if (flag(env.RATE_LIMIT)) await rateLimit(env.CACHE, rateLimitId(request, apiKey), rateLimitOptions(env));
      if (route === 'metrics') {
        await metrics.flush(env.DB);
        response = new Response(await renderMetrics(env.DB), {
          headers: { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' },
        });
      } else {
        const r =
          route === '/generate'
            ? await handleGenerate(request, env, ctx, apiKey)
            : await handleEmbed(request, env, ctx);
        response = r.response;
        cached = r.cached;
      }
    }
  } catch (err) {
    response = errorResponse(err, route);
  }
  const region = (request as unknown as { cf?: { colo?: string } }).cf?.colo ?? 'unknown';
  const flush = metrics.record(env.DB, {
    // Unknown paths share one label, so arbitrary URLs cannot blow up the metrics' cardinality.
    endpoint: route === null ? 'not_found' : route === 'metrics' ? url.pathname : route,
    durationMs: Date.now() - started,
    cached,
    timestamp: Math.floor(started / 1000),
    region,
  });
  if (flush) ctx.waitUntil(flush);
  return response;
}
