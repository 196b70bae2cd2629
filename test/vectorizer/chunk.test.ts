import {
  DEFAULT_SEPARATORS,
  MAX_CHUNKS_PER_ROW,
  chunkCountProblem,
  chunkingProblem,
  declarationProblem,
  splitText,
} from '../../src/vectorizer/chunk.js';
import { seededRandom } from '../../src/grammar/index.js';
import type { Chunking } from '../../src/vectorizer/chunk.js';
import { DEFAULT_TEMPLATE, renderTemplate, templateFields, templateProblem } from '../../src/vectorizer/template.js';

const byCharacters = (size: number, overlap = 0, separators: readonly string[] = DEFAULT_SEPARATORS): Chunking => ({
  by: 'characters',
  size,
  overlap,
  separators,
});
const byTokens = (size: number, overlap = 0, separators: readonly string[] = DEFAULT_SEPARATORS): Chunking => ({
  by: 'tokens',
  size,
  overlap,
  separators,
});

const codePoints = (text: string) => Array.from(text).length;
const words = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;
/** Roughly what a BPE tokenizer does to text without spaces: a few characters a token. */
const threeCharacterTokens = (text: string) => Math.ceil(codePoints(text) / 3);
/** A tokenizer whose count of a joined text is far above the sum of its pieces': merging must measure chunks, not add up pieces. */
const squaredWords = (text: string) => words(text) ** 2;
const isBlank = (text: string) => text.trim() === '';
const hasLoneSurrogate = (text: string) =>
  Array.from(text).some((character) => character.length === 1 && /[\ud800-\udfff]/.test(character));

/** A seeded PRNG, so that a failing random case fails the same way every run. */
const random = seededRandom;

const VOCABULARY = [
  'the',
  'a',
  'vector',
  'Postgres',
  'naïve',
  'café',
  '日本語の文章',
  '中文没有空格的长句子',
  '😀',
  '👍🏽',
  '🇫🇷',
  'x'.repeat(25),
  'e\u0301',
  '$chunk',
  '\t',
];
const GLUE = [' ', ' ', ' ', ' ', '. ', '\n', '\n\n', '', ', ', '  ', '\n\n\n'];

function randomText(next: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  let text = next() < 0.2 ? pick(GLUE) : '';
  const count = Math.floor(next() * 60);
  for (let i = 0; i < count; i++) text += pick(VOCABULARY) + pick(GLUE);
  return text;
}

function randomSeparators(next: () => number): readonly string[] {
  const choices: readonly (readonly string[])[] = [
    DEFAULT_SEPARATORS,
    ['\n\n', '\n', ' '],
    [' '],
    [],
    [''],
    ['. ', ''],
    ['😀', ' ', ''],
  ];
  return choices[Math.floor(next() * choices.length)];
}

/** Whether the chunks rebuild `text` in order with overlap 0: chunk after chunk, with only whitespace (dropped chunks) between. */
function concatenates(text: string, chunks: readonly string[]): boolean {
  let position = 0;
  for (const chunk of chunks) {
    const found = text.indexOf(chunk, position);
    if (found === -1 || !isBlank(text.slice(position, found))) return false;
    position = found + chunk.length;
  }
  return isBlank(text.slice(position));
}

/**
 * Whether the chunks rebuild `text` once each chunk's repeated start is taken off: each chunk may begin
 * with at most `overlap` code points that end the chunk before it; what is left follows on in the text,
 * whitespace only (dropped chunks) in between. Searched exhaustively, as the repeated part is unknown.
 */
function reassembles(text: string, chunks: readonly string[], overlap: number): boolean {
  const failed = new Set<string>();
  const from = (index: number, position: number): boolean => {
    if (index === chunks.length) return isBlank(text.slice(position));
    if (failed.has(`${index}:${position}`)) return false;
    const chunk = chunks[index];
    const previous = index > 0 ? chunks[index - 1] : '';
    for (let repeated = 0; repeated < chunk.length; repeated++) {
      const head = chunk.slice(0, repeated);
      if (codePoints(head) > overlap) break;
      if (!previous.endsWith(head)) continue;
      const rest = chunk.slice(repeated);
      for (
        let found = text.indexOf(rest, position);
        found !== -1 && isBlank(text.slice(position, found));
        found = text.indexOf(rest, found + 1)
      ) {
        if (from(index + 1, found + rest.length)) return true;
      }
    }
    failed.add(`${index}:${position}`);
    return false;
  };
  return from(0, 0);
}

describe('splitText by characters', () => {
  test('a text that fits is one chunk, separators and all', () => {
    expect(splitText('One.\n\nTwo.', byCharacters(11))).toEqual(['One.\n\nTwo.']);
    expect(splitText('', byCharacters(5))).toEqual([]);
    expect(splitText(' \n\t ', byCharacters(2))).toEqual([]);
  });

  test('pieces keep their separator at the end and are packed greedily up to size', () => {
    expect(splitText('one two three four five six', byCharacters(10))).toEqual([
      'one two ',
      'three ',
      'four five ',
      'six',
    ]);
  });

  test('overlap: a chunk starts with the previous chunk’s last pieces that fit within overlap', () => {
    // 'two ' (4) fits an overlap of 4 and leaves room for 'three ' (4 + 6 = 10); 'three ' (6) does not.
    expect(splitText('one two three four five six', byCharacters(10, 4))).toEqual([
      'one two ',
      'two three ',
      'four five ',
      'six',
    ]);
    expect(splitText('a b c d e f g', byCharacters(6, 4))).toEqual(['a b c ', 'b c d ', 'c d e ', 'd e f ', 'e f g']);
    // Repeated pieces must leave room for a new one: 'bb ' + 'cccccc' would exceed 8, 'bb ' + 'ccccc' not.
    expect(splitText('aa bb cccccc', byCharacters(8, 3))).toEqual(['aa bb ', 'cccccc']);
    expect(splitText('aa bb ccccc', byCharacters(8, 3))).toEqual(['aa bb ', 'bb ccccc']);
  });

  test('only pieces too long are cut with the next separators, and chunks do not straddle them (as LangChain)', () => {
    const text = 'Short one.\n\nThis paragraph is longer. It has two sentences.\n\nEnd.';
    // The long paragraph is cut at '\n' (its trailing '\n\n' splits in two), then at '. '; the lone
    // '\n' left over is a whitespace-only chunk and dropped; 'End.' is not packed with the paragraph.
    expect(splitText(text, byCharacters(30))).toEqual([
      'Short one.\n\n',
      'This paragraph is longer. ',
      'It has two sentences.\n',
      'End.',
    ]);
    expect(splitText(text, byCharacters(30, 8))).toEqual([
      'Short one.\n\n',
      'This paragraph is longer. ',
      'It has two sentences.\n',
      'End.',
    ]);
    expect(splitText('aaa\n\nbbb ccc ddd\n\neee', byCharacters(8))).toEqual(['aaa\n\n', 'bbb ccc ', 'ddd\n', 'eee']);
  });

  test("'' cuts anywhere: windows of size code points that repeat overlap of them", () => {
    expect(splitText('abcdefghij', byCharacters(4, 1, ['']))).toEqual(['abcd', 'defg', 'ghij']);
    expect(splitText('abcdefg', byCharacters(4, 2, ['']))).toEqual(['abcd', 'cdef', 'efg']);
    expect(splitText('abc', byCharacters(1, 0, ['']))).toEqual(['a', 'b', 'c']);
  });

  test("without '' a piece still too long is cut by code points all the same", () => {
    expect(splitText('abcdefghij', byCharacters(4, 1, [' ']))).toEqual(['abcd', 'defg', 'ghij']);
    expect(splitText('ab abcdefghij', byCharacters(4, 0, [' ']))).toEqual(['ab ', 'abcd', 'efgh', 'ij']);
    expect(splitText('abcdefghij', byCharacters(5, 0, []))).toEqual(['abcde', 'fghij']);
  });

  test('the first separator that occurs is used, whatever the list', () => {
    expect(splitText('a;b;c|d;e', byCharacters(4, 0, ['|', ';']))).toEqual(['a;b;', 'c|', 'd;e']);
    expect(splitText('a-b-c-d', byCharacters(4, 0, ['XYZ', '-']))).toEqual(['a-b-', 'c-d']);
  });

  test('whitespace-only chunks are dropped; the others keep their whitespace', () => {
    expect(splitText('  aaaa\n\n\n\n    \n\n\n\nbbbb  ', byCharacters(6, 0, ['\n\n']))).toEqual(['  aaaa', 'bbbb  ']);
    expect(splitText('  aaaa\n\n\n\n    \n\n\n\nbbbb  ', byCharacters(4, 0, ['\n\n', '']))).toEqual([
      '  aa',
      'aa\n\n',
      'bbbb',
    ]);
  });

  test('emoji and CJK are counted as code points and never cut inside a surrogate pair', () => {
    expect(splitText('😀😁😂🤣😃😄', byCharacters(4, 1))).toEqual(['😀😁😂🤣', '🤣😃😄']);
    expect(splitText('😀😁😂', byCharacters(1, 0, []))).toEqual(['😀', '😁', '😂']);
    expect(splitText('日本語の文章です。中文', byCharacters(4, 0, ['。', '']))).toEqual([
      '日本語の',
      '文章です',
      '。',
      '中文',
    ]);
    expect(splitText('𝔸𝔹 ℂ𝔻𝔼', byCharacters(3, 0, [' ']))).toEqual(['𝔸𝔹 ', 'ℂ𝔻𝔼']);
    const text = '🇫🇷👍🏽 汉字😀 '.repeat(50);
    for (let size = 1; size <= 12; size++) {
      for (const separators of [DEFAULT_SEPARATORS, [], ['\u200d']]) {
        for (const chunk of splitText(text, byCharacters(size, Math.floor(size / 2), separators))) {
          expect(hasLoneSurrogate(chunk)).toBe(false);
          expect(codePoints(chunk)).toBeLessThanOrEqual(size);
        }
      }
    }
  });

  test('with overlap 0 the chunks joined are the text, less whitespace-only chunks', () => {
    const text =
      'First paragraph, with some words.\nA second line. And a sentence.\n\nSecond paragraph: 😀 emoji, 日本語の文章, and aVeryLongWordWithoutAnySpacesAtAll.';
    // Without whitespace no chunk can be dropped, so the chunks are exactly the text.
    const unspaced =
      'First|paragraph,with;some|words.||A|second;line,😀|日本語の文章;and||aVeryLongWordWithoutAnySeparatorsAtAll,end';
    for (let size = 1; size <= 120; size++) {
      for (const separators of [DEFAULT_SEPARATORS, ['||', '|', ',', ';', ''], [',', ';'], ['|'], []]) {
        expect(concatenates(text, splitText(text, byCharacters(size, 0, separators)))).toBe(true);
        expect(splitText(unspaced, byCharacters(size, 0, separators)).join('')).toBe(unspaced);
      }
    }
  });

  test('random texts: chunks within size, none blank, rebuilding the text (seeded)', () => {
    const next = random(20240611);
    for (let round = 0; round < 600; round++) {
      const text = randomText(next);
      const size = 1 + Math.floor(next() * 40);
      const overlap = next() < 0.4 ? 0 : Math.floor(next() * size);
      const separators = randomSeparators(next);
      const chunks = splitText(text, byCharacters(size, overlap, separators));
      const context = JSON.stringify({ text, size, overlap, separators, chunks });
      for (const chunk of chunks) {
        if (codePoints(chunk) > size || isBlank(chunk) || hasLoneSurrogate(chunk))
          throw new Error(`bad chunk ${JSON.stringify(chunk)} in ${context}`);
      }
      if (overlap === 0 && !concatenates(text, chunks))
        throw new Error(`chunks do not join back to the text: ${context}`);
      if (!reassembles(text, chunks, overlap)) throw new Error(`chunks do not rebuild the text: ${context}`);
      expect(splitText(text, byCharacters(size, overlap, separators))).toEqual(chunks); // deterministic
    }
  });
});

describe('splitText by tokens', () => {
  test('pieces are measured by the length function given', () => {
    const text = 'one two three four five six seven';
    expect(splitText(text, byTokens(3), words)).toEqual(['one two three ', 'four five six ', 'seven']);
    expect(splitText(text, byTokens(3, 1), words)).toEqual(['one two three ', 'three four five ', 'five six seven']);
    expect(splitText('a very long text', byTokens(4), words)).toEqual(['a very long text']);
  });

  test('a chunk is measured whole, for tokenizers that count a joined text above the sum of its pieces', () => {
    expect(splitText('one two three four five six seven', byTokens(9), squaredWords)).toEqual([
      'one two three ',
      'four five six ',
      'seven',
    ]);
    expect(splitText('one two three four five six seven', byTokens(9, 1), squaredWords)).toEqual([
      'one two three ',
      'three four five ',
      'five six seven',
    ]);
    // The overlap is the repeated pieces' summed lengths (here 2 for 'two three ', though the whole counts 4).
    expect(splitText('one two three four five six seven', byTokens(9, 2), squaredWords)).toEqual([
      'one two three ',
      'two three four ',
      'three four five ',
      'four five six ',
      'five six seven',
    ]);
  });

  test('text without separators is cut by code points to the longest prefix that fits', () => {
    const text = 'x'.repeat(100);
    const chunks = splitText(text, byTokens(5, 0, [' ']), threeCharacterTokens);
    expect(chunks.join('')).toBe(text);
    expect(chunks.map(codePoints)).toEqual([15, 15, 15, 15, 15, 15, 10]);
    // An overlap of one token is three characters, so windows advance by twelve.
    const overlapping = splitText(text, byTokens(5, 1, []), threeCharacterTokens);
    expect(overlapping.map(codePoints)).toEqual([15, 15, 15, 15, 15, 15, 15, 15, 4]);
    expect(splitText('😀😁😂🤣😃😄😅', byTokens(2, 0, ['']), threeCharacterTokens)).toEqual(['😀😁😂🤣😃😄', '😅']);
  });

  test('a code point is never cut, even one a tokenizer measures above size', () => {
    expect(splitText('abc', byTokens(2, 0, ['']), (text) => codePoints(text) + 2)).toEqual(['a', 'b', 'c']);
  });

  test('random texts: every chunk within size as the tokenizer counts (seeded)', () => {
    const next = random(7);
    const tokenizers = [
      words,
      threeCharacterTokens,
      squaredWords,
      (text: string) => new TextEncoder().encode(text).length,
    ];
    for (let round = 0; round < 400; round++) {
      const text = randomText(next);
      const length = tokenizers[round % tokenizers.length];
      const size = 1 + Math.floor(next() * 30);
      const overlap = next() < 0.4 ? 0 : Math.floor(next() * size);
      const separators = randomSeparators(next);
      const chunks = splitText(text, byTokens(size, overlap, separators), length);
      const context = JSON.stringify({ text, size, overlap, separators, tokenizer: round % tokenizers.length, chunks });
      for (const chunk of chunks) {
        const tooLong = length(chunk) > size && codePoints(chunk) > 1;
        if (tooLong || isBlank(chunk) || hasLoneSurrogate(chunk))
          throw new Error(`bad chunk ${JSON.stringify(chunk)} in ${context}`);
      }
      if (overlap === 0 && !concatenates(text, chunks))
        throw new Error(`chunks do not join back to the text: ${context}`);
    }
  });

  test('by tokens needs a length function; by characters ignores one', () => {
    expect(() => splitText('some text', byTokens(3))).toThrow(TypeError);
    expect(splitText('aaaa bbbb', byCharacters(5), () => 1)).toEqual(['aaaa ', 'bbbb']);
  });
});

describe("splitText with by 'none'", () => {
  const none: Chunking = { by: 'none', size: 1, overlap: 0, separators: [] };
  test('the whole text is the chunk, untouched; a blank text gives none', () => {
    const long = ' leading space\n\n' + 'word '.repeat(10_000);
    expect(splitText(long, none)).toEqual([long]);
    expect(splitText('', none)).toEqual([]);
    expect(splitText(' \n\t', none)).toEqual([]);
    expect(splitText('x', { by: 'none' } as unknown as Chunking)).toEqual(['x']);
  });
});

describe('declarationProblem: what svc_vectorize asks beyond a valid chunking', () => {
  test('an overlap of at most half the size is allowed, one more is refused naming both', () => {
    expect(declarationProblem(byCharacters(1000, 500))).toBeUndefined();
    expect(declarationProblem(byTokens(7, 3))).toBeUndefined();
    expect(declarationProblem(byCharacters(1, 0))).toBeUndefined();
    expect(declarationProblem({ by: 'none' })).toBeUndefined();
    expect(declarationProblem(byCharacters(1000, 501))).toBe(
      'overlap must be at most half of size (is 501, size 1000)',
    );
    expect(declarationProblem(byTokens(7, 4))).toBe('overlap must be at most half of size (is 4, size 7)');
    // chunkingProblem's own findings come first.
    expect(declarationProblem(byCharacters(10, 10))).toBe('overlap must be less than size (is 10, size 10)');
  });

  test(`a row may make at most ${MAX_CHUNKS_PER_ROW} chunks`, () => {
    expect(chunkCountProblem(MAX_CHUNKS_PER_ROW)).toBeUndefined();
    expect(chunkCountProblem(MAX_CHUNKS_PER_ROW + 1)).toBe(
      'the text makes 1001 chunks, more than the 1000 one row may make (a larger chunk_size makes fewer)',
    );
  });
});

describe('chunkingProblem', () => {
  test('a valid chunking has none', () => {
    expect(chunkingProblem(byCharacters(512, 64))).toBeUndefined();
    expect(chunkingProblem(byTokens(1, 0, []))).toBeUndefined();
    expect(chunkingProblem(byCharacters(1_000_000, 999_999, Array(16).fill('x'.repeat(64))))).toBeUndefined();
    expect(chunkingProblem({ by: 'none' })).toBeUndefined();
  });

  test.each([
    [null, 'chunking must be an object (is null)'],
    [[], 'chunking must be an object (is an array)'],
    ['characters', 'chunking must be an object (is "characters")'],
    [{ ...byCharacters(10), by: 'words' }, `by must be 'none', 'characters' or 'tokens' (is "words")`],
    [{ size: 10, overlap: 0, separators: [] }, `by must be 'none', 'characters' or 'tokens' (is undefined)`],
    [byCharacters(0), 'size must be an integer from 1 to 1000000 (is 0)'],
    [byCharacters(1_000_001), 'size must be an integer from 1 to 1000000 (is 1000001)'],
    [byCharacters(2.5), 'size must be an integer from 1 to 1000000 (is 2.5)'],
    [{ ...byTokens(10), size: '10' }, 'size must be an integer from 1 to 1000000 (is "10")'],
    [byCharacters(10, -1), 'overlap must be an integer >= 0 (is -1)'],
    [byCharacters(10, 0.5), 'overlap must be an integer >= 0 (is 0.5)'],
    [{ ...byCharacters(10), overlap: undefined }, 'overlap must be an integer >= 0 (is undefined)'],
    [byCharacters(100, 100), 'overlap must be less than size (is 100, size 100)'],
    [byCharacters(10, 20), 'overlap must be less than size (is 20, size 10)'],
    [{ ...byCharacters(10), separators: ' ' }, 'separators must be an array of strings (is " ")'],
    [{ ...byCharacters(10), separators: undefined }, 'separators must be an array of strings (is undefined)'],
    [byCharacters(10, 0, Array(17).fill(' ')), 'separators must have at most 16 entries (has 17)'],
    [{ ...byCharacters(10), separators: [' ', 3] }, 'separators[1] must be a string (is 3)'],
    [byCharacters(10, 0, ['x'.repeat(65)]), 'separators[0] must be at most 64 characters (is 65)'],
    [byCharacters(10, 0, ['\n', '😀\ud800']), 'separators[1] must not contain a lone surrogate'],
  ])('%j: %s', (chunking, message) => {
    expect(chunkingProblem(chunking)).toBe(message);
  });

  test('64 characters are code points, not UTF-16 units', () => {
    expect(chunkingProblem(byCharacters(10, 0, ['😀'.repeat(64)]))).toBeUndefined();
  });

  test('splitText refuses an invalid chunking with the problem', () => {
    expect(() => splitText('text', byCharacters(10, 10))).toThrow(
      new RangeError('invalid chunking: overlap must be less than size (is 10, size 10)'),
    );
  });
});

describe('format templates', () => {
  test('templateFields: columns in first-use order, without duplicates, $chunk and $$ aside', () => {
    expect(templateFields('Title: $title\n${Body Text} $chunk $title ${chunk} $$price $author_1. ${title}')).toEqual([
      'title',
      'Body Text',
      'author_1',
    ]);
    expect(templateFields('$chunk')).toEqual([]);
    expect(templateFields('$chunky $Chunk $chunk_2')).toEqual(['chunky', 'Chunk', 'chunk_2']);
    expect(templateFields('$a$b${c}d')).toEqual(['a', 'b', 'c']);
    expect(templateFields('$$a $$$b')).toEqual(['b']);
  });

  test.each([
    ['$chunk', undefined],
    ['${chunk}', undefined],
    ['Title: $title\n\n$chunk costs $$5 ${Title Text}', undefined],
    ['${ odd {name} $chunk', undefined],
    ['$title only', 'template must contain $chunk (or ${chunk}), where the chunk goes'],
    ['$$chunk', 'template must contain $chunk (or ${chunk}), where the chunk goes'],
    ['', 'template must contain $chunk (or ${chunk}), where the chunk goes'],
    ['costs $ 5: $chunk', '`$` at offset 6 must be followed by a name, `{` or `$` (`$$` is a literal `$`)'],
    ['$chunk$', '`$` at offset 6 must be followed by a name, `{` or `$` (`$$` is a literal `$`)'],
    ['$1 $chunk', '`$` at offset 0 must be followed by a name, `{` or `$` (`$$` is a literal `$`)'],
    ['$chunk ${title', '`${` at offset 7 has no closing `}`'],
    ['${}$chunk', '`${}` at offset 0 names no column'],
  ])('templateProblem(%j)', (template, problem) => {
    expect(templateProblem(template)).toBe(problem);
  });

  test('templateProblem of something not a string', () => {
    expect(templateProblem(42 as unknown as string)).toBe('template must be a string (is number)');
    expect(templateProblem(null as unknown as string)).toBe('template must be a string (is null)');
  });

  test('renderTemplate fills in the chunk and the columns', () => {
    expect(renderTemplate(DEFAULT_TEMPLATE, { title: 'ignored' }, 'the chunk')).toBe('the chunk');
    expect(
      renderTemplate(
        'Title: $title\nBy ${Author Name}\n\n${chunk}.',
        { title: 'Dune', 'Author Name': 'Herbert' },
        'Spice',
      ),
    ).toBe('Title: Dune\nBy Herbert\n\nSpice.');
    expect(renderTemplate('$$$chunk costs $$5', {}, 'X')).toBe('$X costs $5');
    expect(renderTemplate('$a$b|$chunk', { a: '1', b: '2' }, 'c')).toBe('12|c');
  });

  test('renderTemplate: null, missing and inherited names are empty', () => {
    expect(renderTemplate('[$a][$b][$constructor][$toString][$chunk]', { a: null }, 'c')).toBe('[][][][][c]');
  });

  test('renderTemplate is one pass: no $ in a value or the chunk is expanded', () => {
    expect(
      renderTemplate('$title: $chunk', { title: 'about $chunk and $body', body: 'B' }, 'text with $title and $$'),
    ).toBe('about $chunk and $body: text with $title and $$');
  });

  test('renderTemplate copies a malformed $ as it stands', () => {
    expect(renderTemplate('costs $ 5: $chunk ${x', {}, 'c')).toBe('costs $ 5: c ${x');
    expect(renderTemplate('${}$chunk$', {}, 'c')).toBe('${}c$');
  });
});
