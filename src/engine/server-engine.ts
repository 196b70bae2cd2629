// An inference server as the engine: the methods the queue worker calls on Engine (generate under a
// GBNF grammar, embed, rerank, the model identity in cache keys, dispose), served over HTTP by an
// OpenAI-compatible server instead of in-process node-llama-cpp. Two protocols, chosen explicitly:
//
// - 'llama-server' (llama.cpp): raw prompts to POST /completion with `grammar` (our GBNF as is),
//   `seed`, `temperature: 0`, `n_predict`, and `cache_prompt: false` (a reused KV cache can change
//   greedy output); chat prompts rendered by the server's POST /apply-template first, then the same.
// - 'vllm': POST /v1/completions (raw) or /v1/chat/completions (chat) with `max_tokens`, `seed`,
//   `temperature: 0` and guided decoding: `structured_outputs: {grammar}` (or `{json}` when the request
//   carries its JSON Schema); vLLM before 0.12 reads `guided_grammar` / `guided_json` instead.
//
// A request that samples (temperature above 0) sends temperature, top_k, top_p, min_p and its seed
// instead of temperature 0: reproducible as far as the server's own sampler is (llama-server's is
// seeded; the bytes are its own, not node-llama-cpp's). Stop strings: the server's `stop` where no
// grammar applies, and svc's rule (src/decode/stop.ts) over the answer either way.
//
// Embeddings: POST /v1/embeddings (L2-normalized here, as the local engine's); rerank: POST /v1/rerank.
// A server without them answers 404/501: a permanent InferenceServerError saying what to enable.
//
// Errors are values with context: an abort or timeout is a GenerationAbortedError (as the local
// engine's), a grammar the server refuses a GrammarRefusedError (permanent in worker/jobs.ts), and
// everything else an InferenceServerError with the URL (no credentials, no query), the HTTP status,
// the server's message and whether retrying can help (`permanent`). The API key is sent in the
// Authorization header only and never appears in a message.
//
// The server shapes the output, so it is checked locally against the constraint as any output is
// (worker/jobs.ts checks every constrained job's output; the client library checks its own).
import type { Capabilities } from './capabilities.js';
import type { GenerateRequest, GenerateResult } from './generation.js';
import { GrammarRefusedError, type RerankResult } from './outcomes.js';
import { l2Normalize } from './embedder.js';
import { HttpUnreachableError, displayUrl, requestJson, serverMessage, type JsonResponse } from './http-json.js';
import { isGreedy, samplerSeed } from '../decode/sampling.js';
import { cutAtStop, grammarComplete } from '../decode/stop.js';

export type InferenceServerKind = 'llama-server' | 'vllm';

export interface ServerEngineOptions {
  /** Which protocol the server speaks. */
  kind: InferenceServerKind;
  /** The server's root, e.g. `http://gpu-1:8080` (a trailing `/v1` is accepted and dropped). */
  url: string;
  /** The model name the server serves (`model` in requests; vLLM's served model name). Default: the first of GET /v1/models. */
  model?: string;
  /** Sent as `Authorization: Bearer …` (llama-server --api-key, vLLM --api-key). */
  apiKey?: string;
  /**
   * The model's identity in cache keys (Engine.modelId). Default: `<kind>:<model>` plus the file size
   * llama-server reports. Set it where the name does not pin the weights (a re-quantized file under
   * the same name would otherwise share cached answers).
   */
  identity?: string;
  /** Aborts each request after this many milliseconds (besides the caller's signal). */
  timeoutMs?: number;
  /** vLLM's guided-decoding fields: `structured_outputs` (vLLM 0.10.2 and later, the default) or the older `guided_*`. */
  vllmFields?: 'structured_outputs' | 'guided';
}

/** What generate takes: Engine's request, plus the job's JSON Schema where it has one (vLLM decodes JSON by schema). */
export interface ServerGenerateRequest extends GenerateRequest {
  /** The JSON Schema the grammar was compiled from: vLLM is given it instead of the grammar. */
  jsonSchema?: unknown;
}

export type InferenceServerErrorKind =
  /** Connection refused, reset, DNS or TLS failure: nothing answered. */
  | 'unreachable'
  /** The server answered with an error status. */
  | 'http'
  /** The answer is not what the protocol says (not JSON, no choices, no embedding). */
  | 'protocol'
  /** The server does not offer this (no embeddings or rerank endpoint). */
  | 'unsupported';

export class InferenceServerError extends Error {
  readonly code = 'inference-server';
  /** The HTTP status, where the server answered. */
  readonly status?: number;
  /** The server's own message, where it gave one. */
  readonly serverMessage?: string;
  /**
   * Whether the same request would fail the same way again: a request the server rejects as invalid
   * (400, 413, 422) or an endpoint it does not offer. Unreachable servers, 5xx, 408, 429, 401/403/404
   * (configuration being fixed, a model still loading) and malformed answers are worth a retry.
   */
  readonly permanent: boolean;

  constructor(
    readonly kind: InferenceServerErrorKind,
    message: string,
    /** The URL asked, without credentials or query. */
    readonly url: string,
    options: { status?: number; serverMessage?: string; permanent?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'InferenceServerError';
    this.status = options.status;
    this.serverMessage = options.serverMessage;
    this.permanent = options.permanent ?? false;
  }
}

const PERMANENT_STATUSES = new Set([400, 413, 422]);

interface Completion {
  text: string;
  tokens: number;
  stopReason: GenerateResult['stopReason'];
}

/** An InferenceEngine (src/queue/inference-engine.ts) over llama-server or vLLM. */
export class ServerEngine {
  readonly kind: InferenceServerKind;
  /** The server's root, without a trailing slash or `/v1`. */
  readonly url: string;
  private readonly search: string;
  readonly model: string | undefined;
  readonly modelId: string;
  private readonly options: ServerEngineOptions;
  private readonly controller = new AbortController();

  private constructor(options: ServerEngineOptions, model: string | undefined, modelId: string) {
    this.options = options;
    this.kind = options.kind;
    ({ root: this.url, search: this.search } = parseRoot(options.url));
    this.model = model;
    this.modelId = modelId;
  }

  /**
   * Connects to the server: GET /v1/models confirms it answers and names the model (the one given, or
   * the first it serves), from which the identity is made unless one is given. Throws an
   * InferenceServerError when the server cannot be reached or does not serve the model.
   */
  static async connect(options: ServerEngineOptions): Promise<ServerEngine> {
    checkKind(options.kind);
    const { root, search } = parseRoot(options.url);
    const url = `${root}/v1/models${search}`;
    const answer = await call(url, {
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 30_000,
      what: `${options.kind} at ${displayUrl(url)}`,
    });
    checkAnswer(answer, url, options);
    const models = (answer.payload as { data?: Array<{ id?: unknown; meta?: { size?: unknown } }> }).data;
    if (!Array.isArray(models)) throw protocolError(url, 'its model list has no data array');
    const listed = options.model === undefined ? models[0] : models.find((m) => m.id === options.model);
    if (options.model !== undefined && !listed) {
      const names = models.map((m) => String(m.id)).join(', ');
      throw new InferenceServerError(
        'unsupported',
        `${options.kind} at ${displayUrl(root)} does not serve model '${options.model}' (it serves: ${names})`,
        displayUrl(url),
        { permanent: true },
      );
    }
    // llama-server answers requests for any name with its one model; vLLM needs the served name.
    const model = options.model ?? (typeof listed?.id === 'string' ? listed.id : undefined);
    if (model === undefined) throw protocolError(url, 'it lists no model');
    const size = typeof listed?.meta?.size === 'number' ? `:${listed.meta.size}` : '';
    return new ServerEngine(options, model, options.identity ?? `${options.kind}:${model}${size}`);
  }

  /** A server that is not asked anything until the first call: `identity` and `model` stand for /v1/models. */
  static unchecked(options: ServerEngineOptions & { identity: string }): ServerEngine {
    checkKind(options.kind);
    return new ServerEngine(options, options.model, options.identity);
  }

  /**
   * Greedy generation (temperature 0, the request's seed) on the server, under the request's GBNF
   * grammar where it has one. promptFormat 'chat' renders the prompt with the server's chat template
   * (llama-server: POST /apply-template, then the rendered prompt to /completion like a raw one, so the
   * grammar applies as the user's and the output comes back as generated, not through its chat parser;
   * vLLM: /v1/chat/completions); 'raw' (the default) sends the prompt as is to the completion endpoint.
   */
  async generate(request: ServerGenerateRequest): Promise<GenerateResult> {
    if (!Number.isInteger(request.maxTokens) || request.maxTokens < 1) {
      throw new RangeError(`maxTokens must be a positive integer, got ${request.maxTokens}`);
    }
    const chat = request.promptFormat === 'chat';
    const messages: Array<{ role: string; content: string }> = [];
    if (request.systemPrompt) messages.push({ role: 'system', content: request.systemPrompt });
    messages.push({ role: 'user', content: request.prompt });
    const sampling = isGreedy(request.sampling) ? undefined : request.sampling;
    const body: Record<string, unknown> = sampling
      ? {
          temperature: sampling.temperature,
          top_k: sampling.topK,
          top_p: sampling.topP,
          min_p: sampling.minP,
          seed: samplerSeed(request.seed),
        }
      : { temperature: 0, seed: request.seed };
    // Unconstrained, the server's own stop strings end the output where svc's would (the first one);
    // under a grammar svc's rule (only where the text before is complete) is applied to the answer below.
    const stop = request.stop && request.stop.length > 0 ? request.stop : undefined;
    if (stop && !request.grammar) body.stop = stop;
    if (this.model !== undefined) body.model = this.model;
    let path: string;
    if (this.kind === 'llama-server') {
      path = '/completion';
      body.prompt = chat ? await this.applyTemplate(messages, request) : request.prompt;
      body.n_predict = request.maxTokens;
      body.cache_prompt = false;
      if (request.grammar) body.grammar = request.grammar;
    } else {
      path = chat ? '/v1/chat/completions' : '/v1/completions';
      if (chat) body.messages = messages;
      else body.prompt = request.prompt;
      body.max_tokens = request.maxTokens;
      const guided = this.vllmConstraint(request);
      if (guided) Object.assign(body, guided);
    }
    const url = this.endpoint(path);
    const answer = await this.post(url, body, request);
    if (!answer.ok) {
      const message = serverMessage(answer.payload);
      // The same grammar is refused on every attempt (worker/jobs.ts fails such a job at once).
      if (request.grammar && answer.status === 400 && /grammar|guided|structured/i.test(message)) {
        throw new GrammarRefusedError(`${this.kind} refused the grammar: ${redact(message, this.options.apiKey)}`, {
          cause: httpError(answer, url, this.options),
        });
      }
    }
    checkAnswer(answer, url, this.options);
    let out =
      this.kind === 'llama-server'
        ? llamaCompletion(answer.payload, url)
        : chat
          ? chatCompletion(answer.payload, url)
          : textCompletion(answer.payload, url);
    // A server stops at its context's end as at the limit ('length', stop_type 'limit'): fewer tokens than
    // maxTokens tell them apart (a server that gives no count reports 0, and keeps maxTokens).
    if (out.stopReason === 'maxTokens' && out.tokens > 0 && out.tokens < request.maxTokens)
      out = { ...out, stopReason: 'context' };
    if (stop) {
      const cut = cutAtStop(out.text, stop, request.grammar ? grammarComplete(request.grammar) : undefined);
      if (cut.stopped) out = { ...out, text: cut.text, stopReason: 'stopString' };
    }
    // Streaming: the server's answer comes whole (svc asks for no server-side stream), so its text is one piece.
    if (out.text !== '') request.onText?.(out.text, out.tokens);
    return { ...out, promptFormat: chat ? 'chat' : 'raw' };
  }

  /** llama-server's rendering of a conversation with the model's chat template, ending where the answer begins. */
  private async applyTemplate(
    messages: Array<{ role: string; content: string }>,
    request: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<string> {
    const url = this.endpoint('/apply-template');
    const answer = await this.post(url, { messages }, request);
    checkAnswer(answer, url, this.options);
    const prompt = (answer.payload as { prompt?: unknown }).prompt;
    if (typeof prompt !== 'string') throw protocolError(url, 'its answer has no prompt');
    return prompt;
  }

  /** vLLM's guided decoding for a request: the JSON Schema where given (its JSON decoding), else the grammar. */
  private vllmConstraint(request: ServerGenerateRequest): Record<string, unknown> | undefined {
    if (!request.grammar && request.jsonSchema === undefined) return undefined;
    const json = request.jsonSchema !== undefined;
    if (this.options.vllmFields === 'guided')
      return json ? { guided_json: request.jsonSchema } : { guided_grammar: request.grammar };
    return { structured_outputs: json ? { json: request.jsonSchema } : { grammar: request.grammar } };
  }

  /** An L2-normalized embedding from POST /v1/embeddings. */
  async embed(text: string): Promise<number[]> {
    const url = this.endpoint('/v1/embeddings');
    const body: Record<string, unknown> = { input: text, encoding_format: 'float' };
    if (this.model !== undefined) body.model = this.model;
    const answer = await this.post(url, body);
    this.checkOffered(
      answer,
      url,
      'embeddings',
      this.kind === 'llama-server'
        ? 'start llama-server with --embeddings'
        : 'serve an embedding model (vllm serve … --task embed)',
    );
    checkAnswer(answer, url, this.options);
    const embedding = (answer.payload as { data?: Array<{ embedding?: unknown }> }).data?.[0]?.embedding;
    if (
      !Array.isArray(embedding) ||
      embedding.length === 0 ||
      !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))
    ) {
      throw protocolError(url, 'its answer has no embedding (data[0].embedding, an array of numbers)');
    }
    return l2Normalize(embedding as number[]);
  }

  /**
   * Documents ranked for the query by POST /v1/rerank, best first (ties in input order), each with its
   * index in `documents`; the query is prefixed with `task` as the local engine does.
   */
  async rerank(query: string, documents: string[], task: string): Promise<RerankResult[]> {
    const instructed = task ? `${task}\nQuery: ${query}` : query;
    if (instructed === '') throw new RangeError('rerank: query must not be empty');
    const empty = documents.indexOf('');
    if (empty >= 0) throw new RangeError(`rerank: documents[${empty}] must not be empty`);
    const url = this.endpoint('/v1/rerank');
    const body: Record<string, unknown> = { query: instructed, documents, top_n: documents.length };
    if (this.model !== undefined) body.model = this.model;
    const answer = await this.post(url, body);
    this.checkOffered(
      answer,
      url,
      'rerank',
      this.kind === 'llama-server'
        ? 'start llama-server with a reranker model and --reranking'
        : 'serve a reranker (cross-encoder) model',
    );
    checkAnswer(answer, url, this.options);
    const results = (answer.payload as { results?: Array<{ index?: unknown; relevance_score?: unknown }> }).results;
    const scores = new Array<number | undefined>(documents.length);
    for (const r of Array.isArray(results) ? results : []) {
      if (
        Number.isInteger(r.index) &&
        (r.index as number) >= 0 &&
        (r.index as number) < documents.length &&
        typeof r.relevance_score === 'number'
      ) {
        scores[r.index as number] = r.relevance_score;
      }
    }
    const missing = scores.findIndex((s) => s === undefined);
    if (!Array.isArray(results) || missing >= 0) {
      throw protocolError(
        url,
        `its answer has no relevance_score for document ${missing < 0 ? 0 : missing} (results[].index, results[].relevance_score)`,
      );
    }
    return documents
      .map((document, index) => ({ index, document, score: scores[index]! }))
      .sort((a, b) => b.score - a.score || a.index - b.index);
  }

  private endpoint(path: string): string {
    return this.url + path + this.search;
  }

  /** Aborts requests in flight; later calls fail at once. */
  async dispose(): Promise<void> {
    this.controller.abort(new Error('the engine was disposed'));
  }

  private post(
    url: string,
    body: unknown,
    request: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<JsonResponse> {
    const signals = [this.controller.signal, request.signal].filter((s): s is AbortSignal => s !== undefined);
    const timeouts = [this.options.timeoutMs, request.timeoutMs].filter((t): t is number => t !== undefined);
    return call(url, {
      body,
      apiKey: this.options.apiKey,
      signal: AbortSignal.any(signals),
      timeoutMs: timeouts.length > 0 ? Math.min(...timeouts) : undefined,
      what: `${this.kind} at ${displayUrl(url)}`,
    });
  }

  /** 404/405/501 from an endpoint: the server does not offer it (llama-server answers 501 for embeddings it was not started for). */
  private checkOffered(answer: JsonResponse, url: string, what: string, hint: string): void {
    if (answer.status === 404 || answer.status === 405 || answer.status === 501) {
      throw new InferenceServerError(
        'unsupported',
        `${this.kind} at ${displayUrl(this.url)} offers no ${what} (POST ${new URL(url).pathname} answered HTTP ${answer.status}: ${redact(serverMessage(answer.payload), this.options.apiKey)}); ${hint}`,
        displayUrl(url),
        {
          status: answer.status,
          serverMessage: redact(serverMessage(answer.payload), this.options.apiKey),
          permanent: true,
        },
      );
    }
  }
}

/**
 * A model given as a server (what `--model NAME=…` can carry): `llama-server+http://gpu-1:8080` or
 * `vllm+http://gpu-1:8000#Qwen/Qwen2.5-7B-Instruct`, the fragment naming the served model. Returns
 * undefined for anything else (a GGUF path, an hf: URI); a bare http(s) URL is an error, since the
 * protocol is chosen explicitly.
 */
export function parseServerSpec(spec: string): Pick<ServerEngineOptions, 'kind' | 'url' | 'model'> | undefined {
  const m = /^(llama-server|vllm)\+(https?:\/\/.*)$/is.exec(spec.trim());
  if (!m) {
    // A URL of a GGUF file is a model to fetch into the model cache (src/model/fetch.ts), not a server.
    if (/^https?:\/\/[^?#]*\.gguf([?#].*)?$/is.test(spec.trim())) return undefined;
    if (/^https?:\/\//i.test(spec.trim())) {
      throw new RangeError(
        `${displayUrl(spec)}: say which protocol the server speaks: llama-server+${displayUrl(spec)} or vllm+${displayUrl(spec)}`,
      );
    }
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(m[2]);
  } catch {
    throw new RangeError(`not a URL: ${JSON.stringify(displayUrl(m[2]))}`);
  }
  const model = url.hash.length > 1 ? decodeURIComponent(url.hash.slice(1)) : undefined;
  url.hash = '';
  return { kind: m[1].toLowerCase() as InferenceServerKind, url: url.href, ...(model !== undefined ? { model } : {}) };
}

function checkKind(kind: unknown): void {
  if (kind !== 'llama-server' && kind !== 'vllm')
    throw new RangeError(`kind must be 'llama-server' or 'vllm', got ${JSON.stringify(kind)}`);
}

/** The server's root (no trailing slash, no trailing `/v1`) and its query string, kept on every endpoint (gateways' `api-version`). */
function parseRoot(url: string): { root: string; search: string } {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw new RangeError(`not a URL: ${JSON.stringify(displayUrl(url))}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new RangeError(`not an http(s) URL: ${displayUrl(url)}`);
  if (u.username || u.password)
    throw new RangeError(
      `the URL ${displayUrl(url)} carries credentials: give the key as apiKey (sent as a bearer token)`,
    );
  const path = u.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return { root: `${u.origin}${path}`, search: u.search };
}

/** requestJson, with an unreachable server as an InferenceServerError (an abort stays a GenerationAbortedError). */
async function call(url: string, request: Parameters<typeof requestJson>[1]): Promise<JsonResponse> {
  try {
    return await requestJson(url, request);
  } catch (error) {
    if (error instanceof HttpUnreachableError)
      throw new InferenceServerError('unreachable', error.message, error.url, { cause: error });
    throw error;
  }
}

/** The API key, should a server echo it, never reaches a message. */
function redact(text: string, apiKey: string | undefined): string {
  return apiKey ? text.split(apiKey).join('[api key]') : text;
}

function httpError(answer: JsonResponse, url: string, options: ServerEngineOptions): InferenceServerError {
  const message = redact(serverMessage(answer.payload), options.apiKey);
  return new InferenceServerError(
    'http',
    `${options.kind} at ${displayUrl(url)} answered HTTP ${answer.status}: ${message}`,
    displayUrl(url),
    {
      status: answer.status,
      serverMessage: message,
      permanent: PERMANENT_STATUSES.has(answer.status),
    },
  );
}

/** An error status, or a success whose body is not JSON, is an InferenceServerError. */
function checkAnswer(answer: JsonResponse, url: string, options: ServerEngineOptions): void {
  if (!answer.ok) throw httpError(answer, url, options);
  if (!answer.json) {
    throw protocolError(
      url,
      `it answered HTTP ${answer.status} with a body that is not JSON: ${redact(serverMessage(answer.payload), options.apiKey)}`,
    );
  }
}

function protocolError(url: string, why: string): InferenceServerError {
  return new InferenceServerError('protocol', `unexpected answer from ${displayUrl(url)}: ${why}`, displayUrl(url));
}

const count = (n: unknown): number | undefined =>
  Number.isInteger(n) && (n as number) >= 0 ? (n as number) : undefined;

/** llama-server's POST /completion answer: content, tokens_predicted, stop_type ('eos' | 'limit' | 'word'), truncated. */
function llamaCompletion(payload: unknown, url: string): Completion {
  const p = payload as {
    content?: unknown;
    tokens_predicted?: unknown;
    stop_type?: unknown;
    stopped_limit?: unknown;
    truncated?: unknown;
  };
  if (typeof p?.content !== 'string') throw protocolError(url, 'its completion has no content');
  const limited = p.stop_type === 'limit' || p.stopped_limit === true || p.truncated === true;
  const word = p.stop_type === 'word';
  return {
    text: p.content,
    tokens: count(p.tokens_predicted) ?? 0,
    stopReason: limited ? 'maxTokens' : word ? 'stopString' : 'eogToken',
  };
}

/** An OpenAI completions answer (vLLM's /v1/completions): choices[0].text, finish_reason, usage.completion_tokens. */
function textCompletion(payload: unknown, url: string): Completion {
  const p = payload as {
    choices?: Array<{ text?: unknown; finish_reason?: unknown }>;
    usage?: { completion_tokens?: unknown };
  };
  const choice = p?.choices?.[0];
  if (typeof choice?.text !== 'string') throw protocolError(url, 'its completion has no choices[0].text');
  return {
    text: choice.text,
    tokens: count(p.usage?.completion_tokens) ?? 0,
    stopReason: choice.finish_reason === 'length' ? 'maxTokens' : 'eogToken',
  };
}

/** An OpenAI chat completions answer: choices[0].message.content, finish_reason, usage.completion_tokens. */
function chatCompletion(payload: unknown, url: string): Completion {
  const p = payload as {
    choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }>;
    usage?: { completion_tokens?: unknown };
  };
  const choice = p?.choices?.[0];
  const content = choice?.message?.content;
  if (!choice?.message || (typeof content !== 'string' && content !== null))
    throw protocolError(url, 'its chat completion has no choices[0].message.content');
  return {
    text: content ?? '',
    tokens: count(p.usage?.completion_tokens) ?? 0,
    stopReason: choice.finish_reason === 'length' ? 'maxTokens' : 'eogToken',
  };
}
