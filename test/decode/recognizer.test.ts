// The incremental recognizer (src/automaton/automaton.ts) and the token masker (src/decode/mask.ts),
// property-tested against the memoised recognizer of src/grammar (recognizeGbnf), over the schema
// corpus, the regexes and the choice lists: the same strings are accepted, every prefix of an
// accepted string stays alive, a live prefix plus its shortest completion is accepted, a state is
// final exactly when no character can follow; and on a
// vocabulary of tokens that cross grammar boundaries (`",`, `"}`, `":"`) and split characters into
// UTF-8 pieces, the trie mask equals the token-by-token mask, an allowed token leads to a valid
// completion, and the next piece of a valid string is always allowed. Seeded, so runs repeat.
import { Automaton, DEAD } from '../../src/automaton/automaton.js';
import { TokenMasker, type Position } from '../../src/decode/mask.js';
import { TokenMask } from '../../src/decode/token-mask.js';
import { DecodedVocabulary } from '../../src/decode/vocabulary.js';
import { decodeLlama } from '../../src/decode/utf8.js';
import {
  compileChoices,
  compileJsonSchema,
  compileRegex,
  parseGbnf,
  recognizeGbnf,
  sampleGbnf,
  seededRandom,
} from '../../src/grammar/index.js';
import type { Grammar } from '../../src/grammar/index.js';
import { CORPUS } from '../grammar/corpus.js';
import { CHOICES, REGEXES } from '../grammar/samples.js';

interface Case {
  name: string;
  grammar: Grammar;
  valid: string[];
}

const cases: Case[] = [
  ...CORPUS.map((entry) => ({
    name: `schema ${entry.name}`,
    grammar: parseGbnf(compileJsonSchema(entry.schema).gbnf),
    valid: entry.valid.map((v) => JSON.stringify(v)),
  })),
  ...REGEXES.map((r) => ({
    name: `regex ${r.pattern}`,
    grammar: parseGbnf(compileRegex(r.pattern, r.flags).gbnf),
    valid: r.matches,
  })),
  ...CHOICES.map((c) => ({
    name: `choices ${JSON.stringify(c)}`,
    grammar: parseGbnf(compileChoices(c).gbnf),
    valid: c,
  })),
];

/** Valid strings of a case: its own, and some drawn from the grammar (at most one of over 2,000 characters: each costs seconds). */
function validStrings(c: Case, random: () => number): string[] {
  const drawn: string[] = [];
  let long = 0;
  for (let i = 0; i < 4; i++) {
    try {
      const text = sampleGbnf(c.grammar, random);
      if (text.length <= 2000 || long++ === 0) drawn.push(text);
    } catch {
      // a grammar too deep to sample here: its own instances still count
    }
  }
  return [...c.valid, ...drawn];
}

/** A string edited at random: a character dropped, doubled or replaced. */
function mutate(text: string, random: () => number): string {
  const chars = [...text];
  const at = Math.floor(random() * (chars.length + 1));
  const pool = ['"', ',', '}', ']', '{', '[', ':', '\\', 'a', '1', '-', '.', 'e', ' ', 'é', '日', '😀', 'n', 't'];
  const pick = pool[Math.floor(random() * pool.length)];
  const kind = Math.floor(random() * 3);
  if (kind === 0 && chars.length) chars.splice(Math.min(at, chars.length - 1), 1);
  else if (kind === 1) chars.splice(at, 0, pick);
  else if (chars.length) chars[Math.min(at, chars.length - 1)] = pick;
  return chars.join('');
}

describe('the automaton accepts what recognizeGbnf accepts', () => {
  test.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const random = seededRandom(23);
    const automaton = new Automaton(c.grammar);
    for (const text of validStrings(c, random)) {
      expect(recognizeGbnf(c.grammar, text)).toBe(true);
      // Every prefix is alive, and the whole string completes the grammar.
      let state = automaton.initial;
      let dead = -1;
      [...text].forEach((ch, i) => {
        state = state === DEAD ? DEAD : automaton.step(state, automaton.classOf(ch.codePointAt(0)!));
        if (state === DEAD && dead < 0) dead = i;
      });
      expect(dead).toBe(-1);
      expect(automaton.isAccepting(state)).toBe(true);
      // Final (the decoder ends there without another step) exactly when no character can follow.
      const canGoOn = Array.from({ length: automaton.classes }, (_, cls) => automaton.step(state, cls)).some(
        (next) => next !== DEAD,
      );
      expect(automaton.isFinal(state)).toBe(!canGoOn);
      // Each edit costs a recognition of the whole text: long texts (thousands of characters) get fewer.
      for (let i = 0; i < (text.length > 500 ? 2 : 6); i++) {
        const edited = mutate(text, random);
        const end = automaton.stepText(automaton.initial, edited);
        expect(end !== DEAD && automaton.isAccepting(end)).toBe(recognizeGbnf(c.grammar, edited));
        // A live prefix has a completion, and the shortest one the automaton proposes is accepted.
        const cut = [...edited].slice(0, Math.floor(random() * ([...edited].length + 1))).join('');
        const live = automaton.stepText(automaton.initial, cut);
        if (live !== DEAD) expect(recognizeGbnf(c.grammar, cut + automaton.shortestCompletion(live)!)).toBe(true);
      }
    }
    expect(recognizeGbnf(c.grammar, automaton.shortestCompletion(automaton.initial)!)).toBe(true);
  });
});

// ---- tokens ------------------------------------------------------------------------------------

const utf8 = new TextEncoder();
/** Pieces of a vocabulary as the tests need them: JSON punctuation glued across grammar boundaries, words, digits, and characters split into UTF-8 bytes. */
function syntheticVocabulary(): Uint8Array[] {
  const texts = [
    '"',
    ',',
    ':',
    '{',
    '}',
    '[',
    ']',
    '",',
    '"}',
    '":',
    '":"',
    '"]',
    '},',
    '}]',
    '],',
    '{"',
    '["',
    '[{',
    '"},',
    'null',
    'true',
    'false',
    'nul',
    'tr',
    '1',
    '2',
    '0',
    '12',
    '-',
    '.',
    'e',
    '-1',
    '1,',
    '0}',
    '5"',
    '\\',
    '\\"',
    '\\n',
    '\\u',
    'a',
    'b',
    'ab',
    'abc',
    'x y',
    ' ',
    '  ',
    'name',
    'na',
    '"name',
    'id',
    '"id":',
    'yes',
    'no',
    'y',
    'es',
    'é',
    'ü',
    'ñ',
    'ünï',
    'cödé',
    '日本',
    '日',
    '本',
    'hi',
    'say',
    ' "',
    '@',
    '.com',
    '_',
    '!',
    '\n',
    '\t',
    'Z',
    'Q',
  ];
  const pieces = texts.map((t) => utf8.encode(t));
  // Single bytes, as a byte-level vocabulary has them: the pieces of é (C3 A9), 日 (E6 97 A5), 😀 (F0 9F 98 80).
  for (const byte of [0xc3, 0xa9, 0xe6, 0x97, 0xa5, 0xf0, 0x9f, 0x98, 0x80, 0xbc, 0xb1])
    pieces.push(Uint8Array.of(byte));
  pieces.push(
    Uint8Array.of(0xe6, 0x97),
    Uint8Array.of(0x97, 0xa5),
    Uint8Array.of(0xa9, 0x22),
    Uint8Array.of(0x9f, 0x98, 0x80, 0x2c),
    Uint8Array.of(0xf0, 0x9f),
  );
  pieces.push(new Uint8Array(0), Uint8Array.of(0xff), Uint8Array.of(0xc0, 0x80)); // prints nothing; never UTF-8
  return pieces;
}

const VOCAB = syntheticVocabulary();
const EOG = VOCAB.length;
const vocabulary = new DecodedVocabulary({
  size: VOCAB.length + 1,
  bytes: (t) => (t === EOG ? new Uint8Array(0) : VOCAB[t]),
  isEog: (t) => t === EOG,
});

/** Tokens that spell `bytes` greedily (the longest piece first), or null. */
function spell(bytes: Uint8Array): number[] | null {
  const out: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    let best = -1;
    VOCAB.forEach((piece, t) => {
      if (piece.length === 0 || piece.length > bytes.length - i || (best >= 0 && piece.length <= VOCAB[best].length))
        return;
      if (piece.every((b, k) => bytes[i + k] === b)) best = t;
    });
    if (best < 0) return null;
    out.push(best);
    i += VOCAB[best].length;
  }
  return out;
}

/** The text of token bytes under llama.cpp's decoding, with any unfinished character left out. */
function textOf(tokens: number[]): string {
  const bytes = tokens.flatMap((t) => [...VOCAB[t]]);
  const decoded = decodeLlama(Uint8Array.from(bytes));
  return String.fromCodePoint(...decoded.codePoints);
}

describe('token masks', () => {
  test.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const random = seededRandom(7);
    const masker = new TokenMasker(new Automaton(c.grammar), vocabulary);
    for (const text of validStrings(c, random)) {
      const tokens = spell(utf8.encode(text));
      if (!tokens) continue;
      let position: Position = masker.initial;
      const taken: number[] = [];
      const steps = tokens.length + 1;
      // Soundness costs a recognition of the whole text per allowed token: on long texts (thousands
      // of tokens) it is checked at the first steps, the last ones and 32 spread between.
      const stride = Math.ceil(steps / 32);
      const checked = (step: number) => steps <= 64 || step < 24 || steps - step <= 8 || step % stride === 0;
      for (const [step, next] of [...tokens, EOG].entries()) {
        // The trie's mask is the token-by-token mask.
        const banned = new Set(masker.mask(position).banned());
        const each = masker.allowedByEachToken(position);
        const differ: number[] = [];
        for (let t = 0; t <= EOG; t++) if (banned.has(t) === (each[t] === 1)) differ.push(t);
        expect(differ).toEqual([]);
        // Sound: an allowed token, then the shortest completion, is in the language.
        for (let t = 0; t < EOG && checked(step); t++) {
          if (!each[t]) continue;
          const after = masker.advance(position, t)!;
          const completion = masker.completion(after);
          if (completion) expect(recognizeGbnf(c.grammar, textOf([...taken, t, ...completion]))).toBe(true);
        }
        // Complete: the next piece of a valid string is allowed (the end only where it is complete).
        expect(each[next]).toBe(1);
        if (next === EOG) break;
        position = masker.advance(position, next)!;
        taken.push(next);
      }
      expect(textOf(taken)).toBe(text);
    }
  });

  test('bounded repetitions (every character a new state) and star loops through several states: the trie mask is the token-by-token mask, subtrees taken whole where they fit', () => {
    // Every string of one to three letters a-f (a first letter's subtree has 43 nodes, enough for the
    // chain shortcut), quotes glued to letters, and 'é' split into its two bytes.
    const letters = 'abcdef';
    const words = [...letters].flatMap((x) => [
      x,
      ...[...letters].flatMap((y) => [x + y, ...[...letters].map((z) => x + y + z)]),
    ]);
    const pieces = [...words, '"', 'a"', '"a', 'ab"', 'é'].map((w) => utf8.encode(w));
    pieces.push(Uint8Array.of(0xc3), Uint8Array.of(0xa9));
    const end = pieces.length;
    const letterVocabulary = new DecodedVocabulary({
      size: end + 1,
      bytes: (t) => (t === end ? new Uint8Array(0) : pieces[t]),
      isEog: (t) => t === end,
    });
    const a = pieces.findIndex((p) => p.length === 1 && p[0] === 0x61);
    // Each letter its own character class, so the trie has subtrees of 43 nodes.
    for (const pattern of [
      '(a|b|c|d|e|f){2,12}(x|yz)?',
      '"(a|b|c|d|e|f|é){0,9}"',
      '(a|b|c|d|e|f)*cab',
      '(a|b|c|d|e|f)*(ef|fe)(a|b|c|d|e|f)*(x|yz)',
    ]) {
      const masker = new TokenMasker(new Automaton(parseGbnf(compileRegex(pattern).gbnf)), letterVocabulary);
      let position: Position | null = masker.initial;
      if (pattern.startsWith('"'))
        position = masker.advance(
          position,
          pieces.findIndex((p) => p.length === 1 && p[0] === 0x22),
        );
      for (let step = 0; position && step < 14; step++) {
        const banned = new Set(masker.mask(position).banned());
        const each = masker.allowedByEachToken(position);
        const differ: number[] = [];
        for (let t = 0; t <= end; t++) if (banned.has(t) === (each[t] === 1)) differ.push(t);
        expect([step, differ]).toEqual([step, []]);
        position = masker.advance(position, a);
      }
      const caches = masker as unknown as {
        chains: Map<number, unknown>;
        closures: Map<number, { runEnd: Int32Array }>;
      };
      expect(caches.chains.size).toBeGreaterThan(0);
      if (pattern.includes('*'))
        expect([...caches.closures.values()].some((classes) => classes.runEnd.some((end) => end >= 0))).toBe(true);
    }
  });

  test('a mask counts its allowed tokens, names the one token it allows alone, and lists the rest in order as its ban', () => {
    for (const size of [1, 31, 32, 33, 95, 151_936]) {
      const random = seededRandom(size);
      for (const density of [0, 1 / size, 0.5, 1]) {
        const allowed = Uint8Array.from({ length: size }, () => (random() < density ? 1 : 0));
        const mask = TokenMask.fromAllowed(allowed);
        const count = allowed.reduce((a, b) => a + b, 0);
        expect([size, density, mask.allowed, mask.bannedCount]).toEqual([size, density, count, size - count]);
        expect(mask.only).toBe(count === 1 ? allowed.indexOf(1) : -1);
        expect([...mask.banned()]).toEqual([...allowed.keys()].filter((t) => allowed[t] === 0));
        expect([...allowed.keys()].every((t) => mask.allows(t) === (allowed[t] === 1))).toBe(true);
      }
    }
  });

  test('positions that allow the same tokens share one mask (the characters of a long bounded string one key); masks are let go, and their bytes counted, as positions are evicted', () => {
    // Every character of [a-z]{0,600} is a new state; far from the bound they all allow the same tokens.
    const automaton = new Automaton(parseGbnf(compileRegex('[a-z]{0,600}').gbnf));
    const a = VOCAB.findIndex((p) => p.length === 1 && p[0] === 0x61);
    const walkTo = (masker: TokenMasker, count: number, visit: (position: Position, i: number) => void) => {
      let position: Position = masker.initial;
      for (let i = 0; i < count; i++) {
        visit(position, i);
        position = masker.advance(position, a)!;
      }
    };
    const whole = new TokenMasker(automaton, vocabulary);
    const masks: TokenMask[] = [];
    walkTo(whole, 600, (position, i) => {
      masks.push(whole.mask(position));
      // The same tokens as checking each alone from the position itself, up to the bound (where
      // the characters, cut to the trie's height for the mask's key, run out).
      if (i < 8 || i > 560)
        expect([i, [...masks[i].banned()]]).toEqual([
          i,
          [...TokenMask.fromAllowed(whole.allowedByEachToken(position)).banned()],
        ]);
    });
    expect(masks[100]).toBe(masks[200]);
    expect(masks[599]).not.toBe(masks[200]);
    expect(new Set(masks).size).toBeLessThan(100);
    // A budget of a few masks: positions are evicted, their masks let go once no position holds them.
    const small = new TokenMasker(automaton, vocabulary, 2048);
    const internals = small as unknown as {
      masks: Map<unknown, TokenMask>;
      distinct: Map<number, TokenMask[]>;
      holders: Map<TokenMask, number>;
      maskBytes: number;
    };
    walkTo(small, 600, (position, i) => {
      expect([i, [...small.mask(position).banned()]]).toEqual([i, [...masks[i].banned()]]);
      const held = new Set(internals.masks.values());
      expect(internals.holders.size).toBe(held.size);
      expect([...internals.holders.values()].reduce((x, y) => x + y, 0)).toBe(internals.masks.size);
      expect([...internals.distinct.values()].flat().length).toBe(held.size);
      expect(internals.maskBytes <= 2048 || internals.masks.size === 1).toBe(true);
    });
    expect(internals.masks.size).toBeLessThan(600);
  });

  test("a generation through thousands of states keeps the masker's per-state caches bounded, its masks unchanged", () => {
    // 5000 states (one per character written); the answers for partial characters were kept per
    // (state, partial) pair without bound and outgrew a Map (16.7M entries) on qwen2's vocabulary.
    const masker = new TokenMasker(new Automaton(parseGbnf(compileRegex('[a-zé]{5000}').gbnf)), vocabulary);
    const a = VOCAB.findIndex((p) => p.length === 1 && p[0] === 0x61);
    let position: Position = masker.initial;
    const first = [...masker.mask(position).banned()];
    for (let i = 0; i < 4999; i++) {
      masker.mask(position);
      position = masker.advance(position, a)!;
    }
    const caches = masker as unknown as { partialAccept: Map<number, unknown> };
    expect(caches.partialAccept.size).toBeLessThanOrEqual(4096);
    expect(caches.partialAccept.size).toBeGreaterThan(0);
    expect([...new TokenMasker(masker.automaton, vocabulary).mask(masker.initial).banned()]).toEqual(first);
    // The last character: only end-of-generation after it.
    expect([...masker.mask(masker.advance(position, a)!).banned()]).toEqual([...Array(EOG).keys()]);
  });

  test('a token that prints nothing, or holds a byte never in UTF-8, is never allowed; an unfinished character only where it can go on', () => {
    const masker = new TokenMasker(new Automaton(parseGbnf(compileRegex('[a-zé]+').gbnf)), vocabulary);
    const empty = VOCAB.findIndex((p) => p.length === 0);
    const ff = VOCAB.findIndex((p) => p.length === 1 && p[0] === 0xff);
    const c3 = VOCAB.findIndex((p) => p.length === 1 && p[0] === 0xc3);
    const e6 = VOCAB.findIndex((p) => p.length === 1 && p[0] === 0xe6);
    const a9 = VOCAB.findIndex((p) => p.length === 1 && p[0] === 0xa9);
    const start = masker.initial;
    expect(masker.allows(start, empty)).toBe(false);
    expect(masker.allows(start, ff)).toBe(false);
    expect(masker.allows(start, e6)).toBe(false); // 日 is not in [a-zé]
    expect(masker.allows(start, a9)).toBe(false); // a continuation byte with nothing to continue
    const half = masker.advance(start, c3)!;
    expect(half).toMatchObject({ remain: 1 });
    expect(masker.allows(half, a9)).toBe(true);
    expect(
      masker.allows(
        half,
        VOCAB.findIndex((p) => p.length === 1 && p[0] === 0x61),
      ),
    ).toBe(false); // 'a' cannot finish é
    expect([...masker.mask(half).banned()].includes(a9)).toBe(false);
    expect(masker.allows(start, EOG)).toBe(false);
    expect(masker.allows(masker.advance(half, a9)!, EOG)).toBe(true);
  });
});
