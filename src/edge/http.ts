// Response helpers: the content types of SPEC 4.3 and 7 in one place.
import { BODY_MAX_BYTES } from './config.js';

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function text(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers } });
}

/** A failure with the status and body it should be answered with. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The body as text, read up to BODY_MAX_BYTES: a larger one is 413 before it is all in memory. */
async function readBody(request: Request): Promise<string> {
  const tooLarge = () => new HttpError(413, `Request body is over the limit of ${BODY_MAX_BYTES} bytes`);
  if (Number(request.headers.get('Content-Length')) > BODY_MAX_BYTES) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > BODY_MAX_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

/**
 * Reads a JSON object body. Malformed JSON is the caller's mistake: 400, never 500; a body over
 * BODY_MAX_BYTES is 413.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const raw = await readBody(request);
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'Invalid JSON body');
  }
  // A JSON array, string or null carries no fields: treat it like an empty object, so the
  // "required" errors of SPEC 7 apply.
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
