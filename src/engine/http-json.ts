// JSON over HTTP to inference services: the one request path shared by the remote providers of the
// client library (src/client/remote.ts) and the inference-server engine (server-engine.ts). It sends
// a JSON body, reads a JSON answer, and turns what can go wrong into values that say where it went
// wrong: an abort or timeout is a GenerationAbortedError (as the in-process engine's), a server that
// cannot be reached an HttpUnreachableError, and an answer of any status comes back with its payload
// and the server's own message. URLs in messages are shown without credentials or query; the API key
// goes only into the Authorization header.
import { GenerationAbortedError } from './outcomes.js';

export interface JsonRequest {
  /** GET when absent. */
  body?: unknown;
  /** Sent as `Authorization: Bearer <apiKey>`; never written into a message. */
  apiKey?: string;
  signal?: AbortSignal;
  /** Aborts the request after this many milliseconds. */
  timeoutMs?: number;
  /** Who is asked, for messages (e.g. `openai`, `llama-server at http://gpu-1:8080`). Default: the URL. */
  what?: string;
}

export interface JsonResponse {
  status: number;
  ok: boolean;
  /** The parsed JSON, or the body text where it is not JSON. */
  payload: unknown;
  /** Whether the body parsed as JSON (an empty body does not). */
  json: boolean;
}

/** The server could not be reached (refused, reset, DNS, TLS): nothing was answered. */
export class HttpUnreachableError extends Error {
  readonly code = 'unreachable';
  constructor(
    message: string,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HttpUnreachableError';
  }
}

/** A URL as messages show it: no user, password or query string (where keys sometimes travel). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.href;
  } catch {
    return '(an invalid URL)';
  }
}

/** The signal of a request: the caller's, its timeout, both or neither. */
export function requestSignal(signal?: AbortSignal, timeoutMs?: number): AbortSignal | undefined {
  const signals = [signal, timeoutMs !== undefined ? AbortSignal.timeout(timeoutMs) : undefined].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  return signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
}

/** Why fetch failed, as specific as Node says (`connect ECONNREFUSED 127.0.0.1:9`), not just `fetch failed`. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown; code?: unknown } }).cause;
  if (cause && typeof cause.message === 'string' && cause.message !== '') return cause.message;
  if (cause && typeof cause.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}

/** Sends one request and reads its JSON answer, whatever its status. */
export async function requestJson(url: string, request: JsonRequest = {}): Promise<JsonResponse> {
  const signal = requestSignal(request.signal, request.timeoutMs);
  const shown = displayUrl(url);
  const what = request.what ?? shown;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (request.apiKey) headers.authorization = `Bearer ${request.apiKey}`;
  try {
    const response = await fetch(url, {
      method: request.body === undefined ? 'GET' : 'POST',
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal,
    });
    const raw = await response.text();
    let payload: unknown = raw;
    let json = false;
    if (raw !== '') {
      try {
        payload = JSON.parse(raw);
        json = true;
      } catch {
        // not JSON: the caller says what it expected
      }
    }
    return { status: response.status, ok: response.ok, payload, json };
  } catch (error) {
    if (signal?.aborted) {
      const timedOut = (signal.reason as { name?: string } | undefined)?.name === 'TimeoutError';
      const why = (signal.reason as { message?: unknown } | undefined)?.message;
      throw new GenerationAbortedError(
        timedOut && request.timeoutMs !== undefined
          ? `request to ${what} timed out after ${request.timeoutMs} ms`
          : `request to ${what} was aborted${typeof why === 'string' && why !== '' ? `: ${why}` : ''}`,
        { cause: signal.reason },
      );
    }
    // Node's reasons can quote the URL as given: shown without its credentials and query, and without the key.
    let reason = networkReason(error).split(url).join(shown);
    if (request.apiKey) reason = reason.split(request.apiKey).join('[api key]');
    throw new HttpUnreachableError(
      `cannot reach ${what}${what.includes(shown) ? '' : ` at ${shown}`}: ${reason}`,
      shown,
      { cause: error },
    );
  }
}

/**
 * The server's own words in an error answer: OpenAI's `{"error": {"message"}}`, llama-server's (the
 * same), vLLM's (`{"message"}` or `{"detail"}`), or the start of a body that is not JSON.
 */
export function serverMessage(payload: unknown): string {
  if (typeof payload === 'string') return payload.trim().slice(0, 300) || '(empty body)';
  const p = payload as { error?: unknown; message?: unknown; detail?: unknown } | null;
  const error = p?.error as { message?: unknown } | string | undefined;
  if (typeof error === 'string') return error;
  if (typeof error?.message === 'string') return error.message;
  if (typeof p?.message === 'string') return p.message;
  if (typeof p?.detail === 'string') return p.detail;
  return JSON.stringify(payload).slice(0, 300);
}
