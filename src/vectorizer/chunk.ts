// How a vectorizer cuts a row's text into chunks before embedding them, in the manner of LangChain's
// RecursiveCharacterTextSplitter: cut at the coarsest boundary that occurs (paragraph, line,
// sentence, word), cut again only the pieces still too long, then pack neighbouring pieces into
// chunks as large as allowed. Pure and self-contained: this file is bundled into plv8 (V8 10.2) and
// into the worker, so it imports nothing and uses nothing newer than ES2022.

export interface Chunking {
  /** 'none': the whole text is one chunk; 'characters': lengths are counted in UTF-16-safe code points; 'tokens': lengths counted by the `length` function given (the model's tokenizer). */
  readonly by: 'none' | 'characters' | 'tokens';
  readonly size: number; // max length of a chunk (>= 1)
  readonly overlap: number; // 0 <= overlap < size: how much of the previous chunk's end a chunk repeats
  readonly separators: readonly string[]; // tried in order, e.g. ['\n\n', '\n', '. ', ' ', '']; '' means split anywhere (by code point)
}

export const DEFAULT_SEPARATORS: readonly string[] = ['\n\n', '\n', '. ', ' ', ''];

export const MAX_CHUNK_SIZE = 1_000_000;
/**
 * The most chunks one row's text may make. A vectorizer's worker refuses a row past it (the row is
 * failed, naming the count and this bound) rather than embed a part of it: together with an overlap
 * of at most half a chunk (declarationProblem), the work one row causes is bounded.
 */
export const MAX_CHUNKS_PER_ROW = 1000;
export const MAX_SEPARATORS = 16;
const MAX_SEPARATOR_LENGTH = 64;

/**
 * Cuts `text` into chunks of at most chunking.size (as measured by `length`; for 'characters' pass nothing and code points are counted), in order, none empty; 'none' gives [text] (or [] for a text that is empty or only whitespace). Deterministic.
 *
 * 'characters' always counts code points, whatever `length` is, so a caller may pass its tokenizer
 * whichever way the chunking measures; 'tokens' without `length` is a TypeError. An invalid chunking
 * is a RangeError carrying chunkingProblem's message. A single code point is never cut, so it is a
 * chunk of its own even where a tokenizer that adds special tokens says it is longer than size.
 */
export function splitText(text: string, chunking: Chunking, length?: (piece: string) => number): string[] {
  const problem = chunkingProblem(chunking);
  if (problem !== undefined) throw new RangeError(`invalid chunking: ${problem}`);
  if (chunking.by === 'none') return isBlank(text) ? [] : [text];
  const meter = meterFor(chunking, length);
  // Checked once here rather than at every level: the recursion is only ever handed text too long.
  const chunks = meter.length(text) <= meter.size ? [text] : splitRecursively(text, chunking.separators, meter);
  return chunks.filter((chunk) => !isBlank(chunk));
}

/** Why a chunking is invalid (a message naming the field and the rule, e.g. "overlap must be less than size (is 100, size 100)"), or undefined when valid. Checks: by is one of the three; size an integer 1..1,000,000 unless by is 'none'; overlap an integer >= 0 and < size; separators an array of strings (at most 16, each at most 64 characters). */
export function chunkingProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `chunking must be an object (is ${describe(value)})`;
  const { by, size, overlap, separators } = value as Record<string, unknown>;
  if (by !== 'none' && by !== 'characters' && by !== 'tokens')
    return `by must be 'none', 'characters' or 'tokens' (is ${describe(by)})`;
  // Nothing else takes part in a 'none' chunking, so a stored one need not carry (valid) sizes.
  if (by === 'none') return undefined;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > MAX_CHUNK_SIZE) {
    return `size must be an integer from 1 to ${MAX_CHUNK_SIZE} (is ${describe(size)})`;
  }
  if (typeof overlap !== 'number' || !Number.isInteger(overlap) || overlap < 0)
    return `overlap must be an integer >= 0 (is ${describe(overlap)})`;
  // An overlap as large as a chunk would leave no room for new text: the splitter could not advance.
  if (overlap >= size) return `overlap must be less than size (is ${overlap}, size ${size})`;
  return separatorsProblem(separators);
}

/**
 * What svc_vectorize asks of a chunking beyond chunkingProblem: an overlap of at most half the size,
 * so that each chunk brings at least as much new text as it repeats (an overlap of 999 in chunks of
 * 1000 would make a chunk per character of the text). Undefined when it holds.
 */
export function declarationProblem(value: unknown): string | undefined {
  const problem = chunkingProblem(value);
  if (problem !== undefined) return problem;
  const { by, size, overlap } = value as Chunking;
  if (by !== 'none' && overlap > Math.floor(size / 2))
    return `overlap must be at most half of size (is ${overlap}, size ${size})`;
  return undefined;
}

/** Why a row's text of `count` chunks is not embedded (more than MAX_CHUNKS_PER_ROW), or undefined when it may be. */
export function chunkCountProblem(count: number): string | undefined {
  return count > MAX_CHUNKS_PER_ROW
    ? `the text makes ${count} chunks, more than the ${MAX_CHUNKS_PER_ROW} one row may make (a larger chunk_size makes fewer)`
    : undefined;
}

function separatorsProblem(separators: unknown): string | undefined {
  if (!Array.isArray(separators)) return `separators must be an array of strings (is ${describe(separators)})`;
  if (separators.length > MAX_SEPARATORS)
    return `separators must have at most ${MAX_SEPARATORS} entries (has ${separators.length})`;
  for (const [index, separator] of separators.entries()) {
    if (typeof separator !== 'string') return `separators[${index}] must be a string (is ${describe(separator)})`;
    const characters = codePointLength(separator);
    if (characters > MAX_SEPARATOR_LENGTH)
      return `separators[${index}] must be at most ${MAX_SEPARATOR_LENGTH} characters (is ${characters})`;
    // A well-formed separator can only match between code points; half a surrogate pair could match
    // inside one and cut a character in two.
    if (hasLoneSurrogate(separator)) return `separators[${index}] must not contain a lone surrogate`;
  }
  return undefined;
}

/** How pieces are measured, and the limits they are measured against. */
interface Meter {
  readonly size: number;
  readonly overlap: number;
  readonly length: (piece: string) => number;
  /** Code points add up exactly, so a chunk's length is the sum of its pieces'; a tokenizer's need not. */
  readonly countsCodePoints: boolean;
}

function meterFor(chunking: Chunking, length: ((piece: string) => number) | undefined): Meter {
  const { size, overlap } = chunking;
  if (chunking.by === 'characters') return { size, overlap, length: codePointLength, countsCodePoints: true };
  if (typeof length !== 'function') throw new TypeError("chunking by tokens needs the tokenizer's length function");
  return { size, overlap, length, countsCodePoints: false };
}

/** Chunks of a text longer than meter.size, cut with the first of `separators` that occurs in it. */
function splitRecursively(text: string, separators: readonly string[], meter: Meter): string[] {
  const at = separators.findIndex((separator) => separator === '' || text.includes(separator));
  // Past the last separator (or at ''), only code points are left to cut at.
  if (at === -1 || separators[at] === '') return cutByCodePoints(text, meter);
  const finer = separators.slice(at + 1);
  const chunks: string[] = [];
  let small: string[] = [];
  let smallLengths: number[] = [];
  // As LangChain does, a run of small pieces is packed on its own: chunks never straddle a piece
  // that had to be cut finer, and no overlap is carried across one.
  const packSmall = () => {
    append(chunks, packPieces(small, smallLengths, meter));
    small = [];
    smallLengths = [];
  };
  for (const piece of splitAfter(text, separators[at])) {
    const pieceLength = meter.length(piece);
    if (pieceLength <= meter.size) {
      small.push(piece);
      smallLengths.push(pieceLength);
    } else {
      packSmall();
      append(chunks, splitRecursively(piece, finer, meter));
    }
  }
  packSmall();
  return chunks;
}

/** `text` cut after each `separator`: the separator stays on the piece it ends, so the pieces join back to the text. */
function splitAfter(text: string, separator: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (let found = text.indexOf(separator); found !== -1; found = text.indexOf(separator, start)) {
    pieces.push(text.slice(start, found + separator.length));
    start = found + separator.length;
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

/**
 * Packs pieces (each at most meter.size long) greedily into chunks; each chunk after the first starts
 * with the previous chunk's last pieces as far as their summed length stays within meter.overlap and
 * leaves room for at least one new piece.
 */
function packPieces(pieces: readonly string[], lengths: readonly number[], meter: Meter): string[] {
  const chunks: string[] = [];
  const join = (from: number, to: number) => pieces.slice(from, to).join('');
  const fits = (from: number, to: number) => meter.length(join(from, to)) <= meter.size;
  let start = 0; // the chunk's first piece, perhaps repeated from the previous chunk
  let fresh = 0; // the first piece that no chunk holds yet
  while (fresh < pieces.length) {
    let end = Math.max(fresh + 1, greedyEnd(lengths, start, meter.size));
    if (!meter.countsCodePoints && !fits(start, end)) {
      // A tokenizer may count a joined text as longer than its pieces: shrink to what truly fits,
      // giving up the repeated pieces first if they leave no room for a new one.
      if (start < fresh && !fits(start, fresh + 1)) start = fresh;
      end = lastWhere(fresh + 1, end, (to) => fits(start, to));
    }
    chunks.push(join(start, end));
    fresh = end;
    start = overlapStart(lengths, start, end, meter);
  }
  return chunks;
}

/** The end of the longest run of pieces from `start` whose lengths sum to at most `size`. */
function greedyEnd(lengths: readonly number[], start: number, size: number): number {
  let end = start;
  let total = 0;
  while (end < lengths.length && total + lengths[end] <= size) total += lengths[end++];
  return end;
}

/** Where the chunk after pieces [start, end) begins: back from `end` over pieces it may repeat. */
function overlapStart(lengths: readonly number[], start: number, end: number, meter: Meter): number {
  // With no overlap, not even pieces a tokenizer counts as nothing (spaces) are repeated.
  if (end >= lengths.length || meter.overlap === 0) return end;
  let next = end;
  let repeated = 0;
  // Never back to `start`: the next chunk must not be this one again.
  while (
    next - 1 > start &&
    repeated + lengths[next - 1] <= meter.overlap &&
    repeated + lengths[next - 1] + lengths[end] <= meter.size
  ) {
    repeated += lengths[--next];
  }
  return next;
}

/** A text with no separator left to cut at, cut into windows of code points as long as fit, each repeating up to meter.overlap of the previous one's end. */
function cutByCodePoints(text: string, meter: Meter): string[] {
  const offsets = codePointOffsets(text);
  const count = offsets.length - 1;
  const slice = (from: number, to: number) => text.slice(offsets[from], offsets[to]);
  const measure = meter.countsCodePoints
    ? (from: number, to: number) => to - from
    : (from: number, to: number) => meter.length(slice(from, to));
  const fits = (from: number, to: number) => measure(from, to) <= meter.size;
  const chunks: string[] = [];
  let start = 0;
  while (start < count) {
    const end = longestFit(start, count, meter.size, fits);
    chunks.push(slice(start, end));
    if (end === count) break;
    // The longest suffix within the overlap (none at all for overlap 0, though a tokenizer may count
    // some text as nothing), then shortened until a new code point fits after it.
    const repeatFrom =
      meter.overlap === 0 ? end : firstWhere(start + 1, end, (from) => measure(from, end) <= meter.overlap);
    start = firstWhere(repeatFrom, end, (from) => fits(from, end + 1));
  }
  return chunks;
}

/** The end of the longest window of code points from `start` that fits; at least one code point. */
function longestFit(start: number, count: number, size: number, fits: (from: number, to: number) => boolean): number {
  let good = start + 1;
  if (!fits(start, good)) return good;
  // Gallop, then bisect: a tokenizer's length is only worth asking of texts near the chunk's size.
  // Code points rarely hold less than a token, so the first probe is `size` of them.
  let step = Math.max(1, size - 1);
  while (good < count) {
    const probe = Math.min(count, good + step);
    if (!fits(start, probe)) return lastWhere(good, probe - 1, (to) => fits(start, to));
    good = probe;
    step *= 2;
  }
  return good;
}

/** The smallest i in [lo, hi] where `holds` does, for a `holds` that once true stays true; hi if none before. */
function firstWhere(lo: number, hi: number, holds: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = lo + ((hi - lo) >> 1);
    if (holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The largest i in [lo, hi] where `holds` does, for a `holds` that once false stays false; lo if none after. */
function lastWhere(lo: number, hi: number, holds: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = hi - ((hi - lo) >> 1);
    if (holds(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The UTF-16 offset of each code point of `text`, then text.length: cutting only at these never parts a surrogate pair. */
function codePointOffsets(text: string): number[] {
  const offsets: number[] = [];
  let offset = 0;
  for (const character of text) {
    offsets.push(offset);
    offset += character.length;
  }
  offsets.push(offset);
  return offsets;
}

function codePointLength(text: string): number {
  let count = 0;
  // The string iterator steps by code point, a lone surrogate counting as one.
  for (const _character of text) count++;
  return count;
}

function hasLoneSurrogate(text: string): boolean {
  for (const character of text) {
    if (character.length === 1 && character.charCodeAt(0) >= 0xd800 && character.charCodeAt(0) <= 0xdfff) return true;
  }
  return false;
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** target.push(...items) without spreading: a long text can have more chunks than a call takes arguments. */
function append(target: string[], items: readonly string[]): void {
  for (const item of items) target.push(item);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
