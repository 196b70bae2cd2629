// Stop strings: the output ends before the first stop string it contains, the first to be complete
// (llama.cpp's `stop`, pg_steadytext's `eos_string`). Matched on the output's bytes as the tokens give them, so a stop
// string is found whatever token boundaries it spans, also where a token ends inside one of its
// multi-byte characters; the output is then the bytes before it, decoded once as any output is.
//
// Under a grammar a stop string ends the output only where the text before it is a complete output
// of the constraint (`accepts`): an occurrence inside a JSON string, or before a choice is whole, is
// text like any other, so a constrained output always satisfies its constraint.
//
// For streaming, bytes that may still turn out to be the start of a stop string are held back until
// the next bytes settle it, so the pieces handed on, joined, are exactly the output. Pure.

import { recognizeGbnf } from '../grammar/gbnf-run.js';
import { parseGbnf } from '../grammar/gbnf-parse.js';

export const STOP_LIMITS = { maxStrings: 16, maxChars: 1000 } as const;

/** What is wrong with a list of stop strings: the list or the string at fault (`stop[i]`), the rule, and whether it is a size limit. */
export interface StopProblem {
  subject: string;
  rule: string;
  overLimit: boolean;
}

/**
 * Why a list of stop strings is refused, naming it (`name`) or the string at fault (`name[i]`, counted
 * from `base`: 1 in SQL, 0 in JavaScript and JSON), or undefined when it is valid.
 */
export function stopProblem(stops: readonly unknown[], name: string, base: 0 | 1): StopProblem | undefined {
  if (stops.length > STOP_LIMITS.maxStrings)
    return {
      subject: name,
      rule: `must have at most ${STOP_LIMITS.maxStrings} strings (got ${stops.length})`,
      overLimit: true,
    };
  for (const [i, stop] of stops.entries()) {
    const subject = `${name}[${i + base}]`;
    if (typeof stop !== 'string') return { subject, rule: 'must be a string', overLimit: false };
    if (stop === '') return { subject, rule: 'must not be empty', overLimit: false };
    if (stop.length > STOP_LIMITS.maxChars)
      return {
        subject,
        rule: `must be at most ${STOP_LIMITS.maxChars} characters (got ${stop.length})`,
        overLimit: true,
      };
  }
  return undefined;
}

/** A problem as one sentence: `stop[2] must not be empty`. */
export const stopMessage = (problem: StopProblem): string => `${problem.subject} ${problem.rule}`;

// Made on first use: the extension's bundle imports this module for stopProblem alone, and plv8's V8
// has no TextEncoder.
let encoder: TextEncoder | undefined;
let decoder: TextDecoder | undefined;
const encode = (text: string): Uint8Array => (encoder ??= new TextEncoder()).encode(text);
// ignoreBOM: a U+FEFF the model writes is part of the output, as in src/engine/token-text.ts.
const decode = (bytes: Uint8Array): string => (decoder ??= new TextDecoder('utf-8', { ignoreBOM: true })).decode(bytes);

export class StopScanner {
  private readonly stops: Uint8Array[];
  private readonly longest: number;
  private buffer = new Uint8Array(256);
  private length = 0;
  /** Bytes handed on by push. */
  private emitted = 0;
  /** Every end offset up to this one has been checked for a stop string ending there. */
  private scanned = 0;
  /** Where the output ends (a stop string starts), once one is found. */
  private cut: number | undefined;

  /**
   * `accepts`: under a grammar, whether the bytes before a stop string are a complete output (the
   * occurrence is skipped otherwise); without one every occurrence ends the output.
   */
  constructor(
    stops: readonly string[],
    private readonly accepts?: (before: Uint8Array) => boolean,
  ) {
    this.stops = stops.map((stop) => encode(stop));
    this.longest = Math.max(0, ...this.stops.map((stop) => stop.length));
  }

  get stopped(): boolean {
    return this.cut !== undefined;
  }

  /** Takes the next bytes of the output; returns those now safe to hand on (none once stopped). */
  push(bytes: Uint8Array): Uint8Array {
    if (this.cut !== undefined) return new Uint8Array(0);
    this.append(bytes);
    this.scan();
    const end = this.cut ?? this.heldFrom();
    const out = this.buffer.slice(this.emitted, end);
    this.emitted = end;
    return out;
  }

  /** The rest of the output at its end (held back bytes that no stop string followed). */
  end(): Uint8Array {
    const end = this.cut ?? this.length;
    const out = this.buffer.slice(this.emitted, Math.max(this.emitted, end));
    this.emitted = Math.max(this.emitted, end);
    return out;
  }

  /** The output's bytes: up to the stop string, or all of them. */
  output(): Uint8Array {
    return this.buffer.slice(0, this.cut ?? this.length);
  }

  private append(bytes: Uint8Array): void {
    if (this.length + bytes.length > this.buffer.length) {
      const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + bytes.length));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /**
   * The first stop string to be complete ends the output (at the same end, the one that starts
   * first): the output is cut at the same place whatever pieces the bytes came in, token by token,
   * as a server's stream, or whole.
   */
  private scan(): void {
    for (let end = this.scanned + 1; end <= this.length; end++) {
      let start = -1;
      for (const stop of this.stops) {
        const at = end - stop.length;
        if (at < 0 || (start >= 0 && at >= start) || !this.matchesAt(at, stop)) continue;
        if (!this.accepts || this.accepts(this.buffer.subarray(0, at))) start = at;
      }
      if (start >= 0) {
        this.cut = start;
        this.scanned = end;
        return;
      }
    }
    this.scanned = this.length;
  }

  /** Where the bytes held back begin: the first offset from which the rest is the beginning of a stop string (the end when there is none). */
  private heldFrom(): number {
    for (let at = Math.max(this.emitted, this.length - this.longest + 1); at < this.length; at++) {
      if (this.stops.some((stop) => stop.length > this.length - at && this.matchesAt(at, stop, this.length - at)))
        return at;
    }
    return this.length;
  }

  /** Whether the bytes at `at` are `stop`'s first `count` bytes (all of them by default). */
  private matchesAt(at: number, stop: Uint8Array, count = stop.length): boolean {
    for (let i = 0; i < count; i++) if (this.buffer[at + i] !== stop[i]) return false;
    return true;
  }
}

/** A whole output cut before its first stop string (as StopScanner cuts one as it comes): for outputs that come whole (an inference server's). */
export function cutAtStop(
  text: string,
  stops: readonly string[],
  accepts?: (before: Uint8Array) => boolean,
): { text: string; stopped: boolean } {
  const scanner = new StopScanner(stops, accepts);
  scanner.push(encode(text));
  return scanner.stopped ? { text: decode(scanner.output()), stopped: true } : { text, stopped: false };
}

/**
 * Under a grammar given as GBNF, whether the bytes before a stop string are a complete output of it,
 * by the GBNF recognizer (src/grammar/gbnf-run.ts): a text it cannot settle within its steps is not.
 */
export function grammarComplete(gbnf: string): (before: Uint8Array) => boolean {
  let parsed: ReturnType<typeof parseGbnf> | undefined;
  return (before) => {
    try {
      return recognizeGbnf((parsed ??= parseGbnf(gbnf)), decode(before), { maxSteps: 1_000_000 });
    } catch {
      return false;
    }
  };
}
