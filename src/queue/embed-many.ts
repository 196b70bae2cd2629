// Requests of many texts ('embed_many'): a set-based svc_embed submits its texts (those not cached)
// EMBED_MANY_MAX_TEXTS to a request, as a vectorizer's jobs do, instead of one request a text. A
// request a text cost the queue ~0.6 ms of CPU a row (its claim, its completion, the caller's reads:
// docs/benchmarks.md, #55) beside llama.cpp's 2-3 ms; together the texts also share llama.cpp's
// decodes (Engine.embedEach). Each text's answer is the bytes its own 'embed' request gives, and its
// cache entry is that request's: the per-row and set-based calls find each other's.

/** Texts a request at most: enough that the queue's cost a text is small, few enough that a set of 1,000 spreads over a worker's slots. */
export const EMBED_MANY_MAX_TEXTS = 64;

/**
 * Characters a request of several texts holds at most (one text may hold more: it goes alone). A
 * set call waits svc.sync_timeout (60 s) for its next answer, and answers now come a request at a
 * time: a request costs at most about what one long text does (~4,000 tokens), so a large model on a
 * CPU answers within it as it did a text at a time.
 */
export const EMBED_MANY_MAX_CHARS = 16_384;

/** What an 'embed_many' request's result holds for one text: its 'embed' result (a vector literal), or why it has none. */
export type EmbedManyPart = string | { error: string };

/** An 'embed_many' request's parameters from its texts' own 'embed' requests (one model and use_cache): embedManyParts' inverse. */
export function embedManyParameters(requests: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  const { text_input: _first, ...rest } = requests[0];
  return { texts: requests.map((r) => r.text_input), ...rest };
}

/** The parameters of each text's own 'embed' request (text_input and the rest as recorded): its cache identity. */
export function embedManyParts(parameters: Record<string, unknown>): Array<Record<string, unknown>> {
  const { texts, ...rest } = parameters;
  return (texts as string[]).map((text_input) => ({ text_input, ...rest }));
}

/** The result text of an 'embed_many' request: a JSON array, each text's vector or { error }, in the request's order. */
export function embedManyResult(parts: readonly EmbedManyPart[]): string {
  return `[${parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(',')}]`;
}

/** Each text's vector, or its error, from an 'embed_many' result. */
export function readEmbedManyResult(result: string): Array<number[] | { error: string }> {
  return JSON.parse(result) as Array<number[] | { error: string }>;
}
