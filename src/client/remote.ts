// Remote models over OpenAI-compatible chat-completions APIs. Used only with `unsafeMode: true`: the
// prompt leaves the machine and the provider, not our grammar, shapes the output. Constraints map to
// the provider's structured-output fields as faithfully as it allows; every output is then checked
// locally against the original constraint anyway.
import { HttpUnreachableError, requestJson, serverMessage } from '../engine/http-json.js';
import type { Constraint, JsonSchema } from './constraint.js';
import { ClientError, invalidOptions } from './errors.js';
import { isGreedy, type Sampling } from '../decode/sampling.js';

export interface Provider {
  /** Default API root; `<root>/chat/completions` is called. */
  baseUrl: string;
  /** Environment variable holding the API key. */
  keyEnv: string;
  /** Environment variable that overrides baseUrl (proxies, self-hosted gateways, tests). */
  baseUrlEnv: string;
  /**
   * `json_schema`: structured outputs (`response_format.type = "json_schema"`), the provider enforces
   * the schema (including `enum` and string `pattern`). `json_object`: JSON mode only, the output is
   * JSON but the schema is only described in the prompt, so regexes and choices cannot be enforced.
   */
  structured: 'json_schema' | 'json_object';
  /** Name of the output-length field. */
  tokenField: 'max_completion_tokens' | 'max_tokens';
}

export const PROVIDERS: Record<string, Provider> = {
  openai: {
    baseUrl: 'https://api.openai.com/v1',
    keyEnv: 'OPENAI_API_KEY',
    baseUrlEnv: 'OPENAI_BASE_URL',
    structured: 'json_schema',
    tokenField: 'max_completion_tokens',
  },
  openrouter: {
    baseUrl: 'https://openrouter.ai/api/v1',
    keyEnv: 'OPENROUTER_API_KEY',
    baseUrlEnv: 'OPENROUTER_BASE_URL',
    structured: 'json_schema',
    tokenField: 'max_tokens',
  },
  deepseek: {
    baseUrl: 'https://api.deepseek.com',
    keyEnv: 'DEEPSEEK_API_KEY',
    baseUrlEnv: 'DEEPSEEK_BASE_URL',
    structured: 'json_object',
    tokenField: 'max_tokens',
  },
};

export interface RemoteRequest {
  provider: string;
  model: string;
  prompt: string;
  constraint?: Constraint;
  maxTokens: number;
  seed: number;
  /** Greedy where the temperature is 0; the provider gets temperature and top_p (and openrouter top_k and min_p). */
  sampling?: Sampling;
  /** The provider's `stop` (its own matching: it ends the output at the first, constraint or not). */
  stop?: readonly string[];
  /** Sent as the first message, a system message. */
  systemPrompt?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface RemoteResult {
  /** Text to check locally: the JSON (for schemas), or the string value (regex, choices, plain). */
  text: string;
  /** Whether the provider stopped at the token limit. */
  truncated: boolean;
}

/** The provider's schema: objects as they are, anything else wrapped as `{"value": ...}` (providers want an object root). */
interface WireSchema {
  schema: JsonSchema;
  wrapped: boolean;
}

function wireSchema(constraint: Constraint, provider: string): WireSchema {
  switch (constraint.kind) {
    case 'json': {
      const { $schema: _drop, ...rest } =
        typeof constraint.jsonSchema === 'object' ? constraint.jsonSchema : ({} as Record<string, unknown>);
      const schema: JsonSchema = typeof constraint.jsonSchema === 'boolean' ? constraint.jsonSchema : rest;
      if (typeof schema === 'object' && schema.type === 'object') return { schema, wrapped: false };
      return { schema: wrap(schema), wrapped: true };
    }
    case 'choices':
      return { schema: wrap({ type: 'string', enum: constraint.choices }), wrapped: true };
    case 'regex':
      if (constraint.flags !== '') {
        throw new ClientError(
          'unsupported-constraint',
          `${provider} cannot enforce regex flags '${constraint.flags}': a JSON Schema pattern has no flags; write the pattern without them (e.g. [Aa] for i)`,
        );
      }
      return { schema: wrap({ type: 'string', pattern: `^(?:${constraint.pattern})$` }), wrapped: true };
  }
}

const wrap = (schema: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { value: schema },
  required: ['value'],
  additionalProperties: false,
});

/** OpenAI's strict mode needs every object closed and every property required; otherwise we ask without strict. */
function strictCompatible(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return true;
  if (Array.isArray(schema)) return schema.every(strictCompatible);
  const s = schema as Record<string, unknown>;
  if (s.type === 'object' || s.properties) {
    if (s.additionalProperties !== false) return false;
    const props = Object.keys((s.properties as object) ?? {});
    const required = new Set((s.required as string[]) ?? []);
    if (!props.every((p) => required.has(p))) return false;
  }
  return Object.values(s).every(strictCompatible);
}

export async function remoteGenerate(request: RemoteRequest): Promise<RemoteResult> {
  const provider = PROVIDERS[request.provider];
  if (!provider) throw invalidOptions(`unknown provider ${request.provider}`);
  const key = process.env[provider.keyEnv];
  if (!key) {
    throw new ClientError(
      'missing-api-key',
      `${request.provider}:${request.model} needs an API key: set ${provider.keyEnv}`,
    );
  }
  const base = (process.env[provider.baseUrlEnv] || provider.baseUrl).replace(/\/+$/, '');
  const url = `${base}/chat/completions`;

  const messages: Array<{ role: string; content: string }> = [];
  const body: Record<string, unknown> = {
    model: request.model,
    messages,
    temperature: 0,
    seed: request.seed,
    [provider.tokenField]: request.maxTokens,
    ...remoteSampling(request.provider, request.sampling),
    ...(request.stop ? { stop: request.stop } : {}),
  };
  let wire: WireSchema | undefined;
  if (request.constraint) {
    if (provider.structured === 'json_object' && request.constraint.kind !== 'json') {
      throw new ClientError(
        'unsupported-constraint',
        `${request.provider} offers only JSON mode, which cannot enforce ${request.constraint.kind === 'regex' ? 'a regex' : 'a list of choices'}; use a local model or a provider with structured outputs (openai, openrouter)`,
      );
    }
    wire = wireSchema(request.constraint, request.provider);
    if (provider.structured === 'json_schema') {
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: 'output', schema: wire.schema, strict: strictCompatible(wire.schema) },
      };
    } else {
      body.response_format = { type: 'json_object' };
      messages.push({
        role: 'system',
        content: `Answer with one JSON object only, conforming to this JSON Schema:\n${JSON.stringify(wire.schema)}`,
      });
    }
  }
  if (request.systemPrompt) messages.unshift({ role: 'system', content: request.systemPrompt });
  messages.push({ role: 'user', content: request.prompt });

  // Aborts and timeouts come back as GenerationAbortedError, as from the local engine.
  const answer = await requestJson(url, {
    body,
    apiKey: key,
    signal: request.signal,
    timeoutMs: request.timeoutMs,
    what: request.provider,
  }).catch((error: unknown) => {
    if (error instanceof HttpUnreachableError) throw new ClientError('provider-error', error.message, { cause: error });
    throw error;
  });
  const { payload } = answer;
  if (!answer.ok)
    throw new ClientError(
      'provider-error',
      `${request.provider} answered HTTP ${answer.status}: ${serverMessage(payload)}`,
      { status: answer.status },
    );
  const choice = (
    payload as { choices?: Array<{ message?: { content?: unknown; refusal?: unknown }; finish_reason?: string }> }
  )?.choices?.[0];
  if (!choice?.message)
    throw new ClientError('provider-error', `${request.provider} answered without a chat completion choice`, {
      status: answer.status,
    });
  if (typeof choice.message.refusal === 'string' && choice.message.refusal !== '') {
    throw new ClientError('provider-error', `${request.provider} refused: ${choice.message.refusal}`, {
      status: answer.status,
    });
  }
  const content = typeof choice.message.content === 'string' ? choice.message.content : '';
  const truncated = choice.finish_reason === 'length';
  if (!wire) return { text: content, truncated };

  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { text: content, truncated }; // not JSON: the local check reports it (or the truncation)
  }
  if (wire.wrapped) {
    if (typeof value !== 'object' || value === null || !('value' in value)) {
      return { text: content, truncated };
    }
    value = (value as { value: unknown }).value;
  }
  if (request.constraint!.kind === 'json') return { text: JSON.stringify(value), truncated };
  return { text: typeof value === 'string' ? value : JSON.stringify(value), truncated };
}

/** A provider's sampling fields: what OpenAI's chat completions take (temperature, top_p), and openrouter's top_k and min_p. */
function remoteSampling(provider: string, sampling: Sampling | undefined): Record<string, number> {
  if (sampling === undefined || isGreedy(sampling)) return {};
  const common = { temperature: sampling.temperature, top_p: sampling.topP };
  return provider === 'openrouter' ? { ...common, top_k: sampling.topK, min_p: sampling.minP } : common;
}
