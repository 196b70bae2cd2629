// Inputs too long for the context, told without tokenizing all of them. llama.cpp's tokenizer runs
// on the calling thread (the worker's event loop: no heartbeat, claim or SIGTERM is served while it
// runs) and is quadratic in characters its vocabulary has no token for: 50,000 '日' took 8 s on
// stories260K, 200,000 took 138 s, and svc accepts prompts of 1,000,000 characters. A prefix of the
// text tells: its tokens are (but for the last few, where the cut falls) tokens of the whole, so a
// prefix already over the context proves the whole is. Prefixes double from four times the context's
// size in characters (a text up to that long is counted exactly, whole), so a text that fits costs at
// most about twice its own tokenization, and one that does not about that of eight times the context.

/** Tokens a prefix may make beyond the whole text's own at its cut (a word cut in two, a byte sequence cut short). */
const CUT_SLACK = 16;

/**
 * A lower bound on the tokens of `text`, when a prefix shows it to be over `limit`; undefined when it
 * may fit (the caller then tokenizes it whole, as it would have). `count` tokenizes a string.
 */
export function tokensOverLimit(text: string, limit: number, count: (piece: string) => number): number | undefined {
  for (let size = Math.max(4 * limit, 1); size < text.length; size *= 2) {
    // Never cut between the halves of a surrogate pair.
    const end = isHighSurrogate(text.charCodeAt(size - 1)) ? size - 1 : size;
    const tokens = count(text.slice(0, end));
    if (tokens > limit + CUT_SLACK) return tokens - CUT_SLACK;
  }
  return undefined;
}

/** `count`, but past `limit` any number over it, found on a prefix (tokensOverLimit): for a chunker that asks whether a piece fits. */
export function tokensUpTo(text: string, limit: number, count: (piece: string) => number): number {
  return tokensOverLimit(text, limit, count) ?? count(text);
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
