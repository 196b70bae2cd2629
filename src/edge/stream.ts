// /generate with "stream": true (docs/edge.md, Streaming): server-sent events. Each piece of the output
// as the engine writes it is `data: {"text"}`; the end is `event: done` with what the call without
// stream answers (`text`, `cached`) and how it ended (`tokens`, `stop_reason`); a failure once the
// stream has begun is `event: error` with the status and message the call without stream answers.
// Data is JSON, so a newline in the text cannot end an event early.

import { STOP_REASON_NAMES, type StopReason, type StopReasonName } from '../engine/outcomes.js';
export const SSE_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' };

/** One server-sent event: `data` as JSON, under `event` when it is not the default (message). */
export function sseEvent(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

/** The whole answer of a cache hit, as a stream: the text in one piece, then done. */
export function sseCached(text: string): Response {
  const body = (text === '' ? '' : sseEvent({ text })) + sseEvent({ text, cached: true }, 'done');
  return new Response(body, { headers: SSE_HEADERS });
}

/**
 * Why the output ended, as the done event says it, in the library's terms (outcomes.ts): a stop string
 * ended it, the context filled before max_tokens (the engine object says `cut`), max_tokens, or the
 * model (or its constraint) ended it.
 */
export function stopReason(
  out: { tokens: number; stopped?: boolean; cut?: boolean },
  maxTokens: number,
): StopReasonName {
  const reason: StopReason = out.stopped
    ? 'stopString'
    : out.tokens >= maxTokens
      ? 'maxTokens'
      : out.cut
        ? 'context'
        : 'eogToken';
  return STOP_REASON_NAMES[reason];
}

/** The values of a newline-delimited JSON body (the engine object's streamed answer), one per line. */
export async function* jsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  const decoder = new TextDecoder();
  let buffered = '';
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line !== '') yield JSON.parse(line) as Record<string, unknown>;
      }
      if (done) break;
    }
  } finally {
    reader.releaseLock();
  }
}
