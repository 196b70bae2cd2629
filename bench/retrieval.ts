// Retrieval quality on the team's paraphrase set (bench/retrieval-set.ts): each query against all
// documents, ranked by the cosine of svc's embeddings (the library's embed, llama.cpp underneath),
// beside TF-IDF word overlap on the same set. Prints recall@1 and MRR over all queries and over
// those that share no content word with their document.
//
//   npx tsx bench/retrieval.ts [MODEL.gguf ...]   (default models/svc-embed.gguf)
import { configure, embed, unloadModels } from '../src/client/index.js';
import { EMBED_MODEL } from '../scripts/real-models.js';
import { RETRIEVAL_SET } from './retrieval-set.js';
import { load } from './stats.js';

const STOP = new Set(
  'a an the of in on at to for from by with and or but is was were be been it its his her their they he she we i my our you your this that so up off out over after before while because not no all each every many more some any one two'.split(
    ' ',
  ),
);
const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
const content = (text: string) => new Set(words(text).filter((w) => !STOP.has(w)));

/** Rank (1-based) of each query's own document, from a score matrix scores[query][document]. */
function ranks(scores: number[][]): number[] {
  return scores.map((row, q) => 1 + row.filter((s, d) => d !== q && s >= row[q]).length);
}

function summary(label: string, r: number[], subset: number[]) {
  const at1 = (xs: number[]) => xs.filter((x) => x === 1).length / xs.length;
  const mrr = (xs: number[]) => xs.reduce((s, x) => s + 1 / x, 0) / xs.length;
  const sub = subset.map((i) => r[i]);
  const f = (x: number) => x.toFixed(3);
  console.log(
    `${label.padEnd(28)} recall@1 ${f(at1(r))}  MRR ${f(mrr(r))}   | no shared word: recall@1 ${f(at1(sub))}  MRR ${f(mrr(sub))}`,
  );
}

function tfidfScores(docs: string[], queries: string[]): number[][] {
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(words(d))) df.set(w, (df.get(w) ?? 0) + 1);
  const vector = (text: string) => {
    const v = new Map<string, number>();
    for (const w of words(text)) v.set(w, (v.get(w) ?? 0) + Math.log((docs.length + 1) / ((df.get(w) ?? 0) + 1)) + 1);
    const norm = Math.hypot(...v.values()) || 1;
    for (const [w, x] of v) v.set(w, x / norm);
    return v;
  };
  const dv = docs.map(vector);
  return queries.map((q) => {
    const qv = vector(q);
    return dv.map((d) => [...qv].reduce((s, [w, x]) => s + x * (d.get(w) ?? 0), 0));
  });
}

const docs = RETRIEVAL_SET.map((p) => p.document);
const queries = RETRIEVAL_SET.map((p) => p.query);
const disjoint = RETRIEVAL_SET.flatMap((p, i) =>
  [...content(p.query)].some((w) => content(p.document).has(w)) ? [] : [i],
);
console.log(
  `${RETRIEVAL_SET.length} query-document pairs, ${disjoint.length} with no content word in common; load ${load()}`,
);
summary('TF-IDF word overlap', ranks(tfidfScores(docs, queries)), disjoint);

configure({ threads: 1 });
const models = process.argv.slice(2);
for (const model of models.length ? models : [EMBED_MODEL]) {
  const started = performance.now();
  const dv = await Promise.all(docs.map((d) => embed(d, { model })));
  const qv = await Promise.all(queries.map((q) => embed(q, { model })));
  const ms = (performance.now() - started) / (docs.length + queries.length);
  const scores = qv.map((q) => dv.map((d) => d.reduce((s, x, i) => s + x * q[i], 0)));
  summary(`${model.split('/').at(-1)} (${ms.toFixed(1)} ms/text)`, ranks(scores), disjoint);
}
await unloadModels();
