// A model's grammars, compiled once per GBNF text and kept in LRU caches: llama.cpp's own grammar
// (its sampler decodes what svc's maskers cannot) and svc's token masker (src/decode), and whether a
// text is a complete output of a grammar (for stop strings under it).
import { LlamaGrammar, type Llama } from 'node-llama-cpp';
import { releaseMaskSamplers } from './constrained.js';
import { GrammarRefusedError } from './outcomes.js';
import { UTF8_DECODER, type TokenText } from './token-text.js';
import { grammarComplete } from '../decode/stop.js';
import { Automaton, AutomatonLimitError, DEAD } from '../automaton/automaton.js';
import { TokenMasker } from '../decode/mask.js';
import { parseGbnf } from '../grammar/gbnf-parse.js';
import { ConstraintError } from '../grammar/errors.js';

const GRAMMAR_CACHE_SIZE = 256;
/** Token maskers (src/decode) kept per engine: each holds its grammar's automaton and up to 16 MiB of cached masks (the vocabulary's trie is shared). */
const MASKER_CACHE_SIZE = 8;

export class Grammars {
  /** Compiled grammars by GBNF text, least recently used first. */
  private readonly grammars = new Map<string, LlamaGrammar>();
  /** Token maskers by GBNF text, least recently used first; null where a grammar is decoded by llama.cpp instead. */
  private readonly maskers = new Map<string, TokenMasker | null>();

  constructor(
    private readonly llama: Llama,
    private readonly tokenText: TokenText,
  ) {}

  /** Parses (once; then from the cache) a GBNF grammar. Throws GrammarRefusedError when llama.cpp rejects it. */
  grammar(gbnf: string): LlamaGrammar {
    let grammar = this.grammars.get(gbnf);
    if (grammar) {
      this.grammars.delete(gbnf); // refresh its place in the LRU order
    } else {
      try {
        grammar = new LlamaGrammar(this.llama, { grammar: gbnf });
      } catch (error) {
        // node-llama-cpp says only "Failed to parse grammar" (llama.cpp logs the reason).
        throw new GrammarRefusedError(`llama.cpp refused the grammar: ${(error as Error).message}`, { cause: error });
      }
      if (this.grammars.size >= GRAMMAR_CACHE_SIZE) this.grammars.delete(this.grammars.keys().next().value!);
    }
    this.grammars.set(gbnf, grammar);
    return grammar;
  }

  /** Number of compiled grammars held in the cache. */
  get cached(): number {
    return this.grammars.size;
  }

  /**
   * The masker of a grammar on this model's vocabulary (built once, then cached): null where the
   * vocabulary's bytes are not modelled (token-bytes.ts) or the grammar is beyond the automaton's
   * limits, and llama.cpp's own grammar sampler decodes it instead.
   */
  masker(gbnf: string): TokenMasker | null {
    const vocabulary = this.tokenText.vocabulary();
    if (!vocabulary) return null;
    const cached = this.maskers.get(gbnf);
    if (cached !== undefined) {
      this.maskers.delete(gbnf);
      this.maskers.set(gbnf, cached);
      return cached;
    }
    let masker: TokenMasker | null;
    try {
      masker = new TokenMasker(new Automaton(parseGbnf(gbnf)), vocabulary);
    } catch (error) {
      // Beyond the automaton's limits, or GBNF our parser does not read (llama.cpp's own sampler still may).
      if (!(error instanceof AutomatonLimitError) && !(error instanceof ConstraintError)) throw error;
      masker = null;
    }
    if (this.maskers.size >= MASKER_CACHE_SIZE) {
      const oldest = this.maskers.keys().next().value!;
      const dropped = this.maskers.get(oldest);
      if (dropped) releaseMaskSamplers(dropped);
      this.maskers.delete(oldest);
    }
    this.maskers.set(gbnf, masker);
    return masker;
  }

  /**
   * Under a grammar, whether the bytes before a stop string are a complete output of it (src/decode/stop.ts): run
   * through the masker's automaton, or, where llama.cpp's sampler decodes the grammar, through the
   * GBNF recognizer (a text it cannot settle within its steps is not complete).
   */
  completeOutput(gbnf: string, masker: TokenMasker | null): (before: Uint8Array) => boolean {
    if (masker) {
      const automaton = masker.automaton;
      return (before) => {
        const state = automaton.stepText(automaton.initial, UTF8_DECODER.decode(before));
        return state !== DEAD && automaton.isAccepting(state);
      };
    }
    return grammarComplete(gbnf);
  }

  /** Frees the maskers' native samplers (the engine is being disposed). */
  releaseMaskers(): void {
    for (const masker of this.maskers.values()) if (masker) releaseMaskSamplers(masker);
  }
}
