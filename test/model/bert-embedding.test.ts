// Embeddings from an embedding architecture: a small random-weight BERT encoder with bge's real
// WordPiece vocabulary (test/helpers/real-models.ts), pooled by CLS or by mean as its GGUF says.
// svc's embed must give the model's dimension, the GGUF's pooling and an L2-normalized vector: the
// expected vector is computed here from the file's own weights, independently of llama.cpp, so a
// wrong pooling, a missing normalization or wrong special tokens all show.
import { readFileSync } from 'node:fs';
import { getLlama, type Llama, type LlamaModel } from 'node-llama-cpp';
import { configure, embed, rerank, unloadModels } from '../../src/client/index.js';
import { readGguf, type GgufMeta } from '../../src/model/gguf.js';
import { bertEmbeddingModel } from '../helpers/real-models.js';
import { useSvc } from '../helpers/svc.js';
import { eventually, startWorker } from '../helpers/worker.js';

type Weights = Map<string, { dims: number[]; data: Float32Array }>;

const metaValue = (meta: GgufMeta[], key: string) => meta.find(([k]) => k === key)?.[2];

/** y = W x + b for a ggml [n_in, n_out] matrix (n_in contiguous). */
function linear(w: Weights, name: string, x: Float64Array): Float64Array {
  const {
    dims: [nIn, nOut],
    data,
  } = w.get(`${name}.weight`)!;
  const bias = w.get(`${name}.bias`)!.data;
  const y = new Float64Array(nOut);
  for (let o = 0; o < nOut; o++) {
    let s = bias[o];
    for (let i = 0; i < nIn; i++) s += data[o * nIn + i] * x[i];
    y[o] = s;
  }
  return y;
}

function layerNorm(w: Weights, name: string, x: Float64Array, eps: number): Float64Array {
  const n = x.length;
  const mean = x.reduce((a, b) => a + b, 0) / n;
  const variance = x.reduce((a, b) => a + (b - mean) ** 2, 0) / n;
  const g = w.get(`${name}.weight`)!.data;
  const b = w.get(`${name}.bias`)!.data;
  return x.map((v, i) => ((v - mean) / Math.sqrt(variance + eps)) * g[i] + b[i]);
}

// ggml's GELU: the tanh approximation.
const gelu = (x: number) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));

const row = (w: Weights, name: string, r: number) => {
  const {
    dims: [n],
    data,
  } = w.get(name)!;
  return Float64Array.from(data.subarray(r * n, (r + 1) * n));
};

/** BERT's forward pass (as llama.cpp's bert graph): the last layer's vector of every token. */
function bertForward(meta: GgufMeta[], w: Weights, tokens: number[]): Float64Array[] {
  const layers = Number(metaValue(meta, 'bert.block_count'));
  const heads = Number(metaValue(meta, 'bert.attention.head_count'));
  const eps = Number(metaValue(meta, 'bert.attention.layer_norm_epsilon'));
  // Token type 0 ("sentence A") for every token, as llama.cpp.
  let x = tokens.map((t, pos) => {
    const e = row(w, 'token_embd.weight', t);
    const p = row(w, 'position_embd.weight', pos);
    const ty = row(w, 'token_types.weight', 0);
    return layerNorm(
      w,
      'token_embd_norm',
      e.map((v, i) => v + p[i] + ty[i]),
      eps,
    );
  });
  for (let l = 0; l < layers; l++) {
    const b = `blk.${l}.`;
    const q = x.map((v) => linear(w, b + 'attn_q', v));
    const k = x.map((v) => linear(w, b + 'attn_k', v));
    const v = x.map((u) => linear(w, b + 'attn_v', u));
    const width = x[0].length;
    const hd = width / heads;
    const attended = x.map((_, i) => {
      const out = new Float64Array(width);
      for (let h = 0; h < heads; h++) {
        const scores = k.map((kj) => {
          let s = 0;
          for (let d = 0; d < hd; d++) s += q[i][h * hd + d] * kj[h * hd + d];
          return s / Math.sqrt(hd);
        });
        const max = Math.max(...scores);
        const exps = scores.map((s) => Math.exp(s - max));
        const sum = exps.reduce((a, c) => a + c, 0);
        exps.forEach((e, j) => {
          for (let d = 0; d < hd; d++) out[h * hd + d] += (e / sum) * v[j][h * hd + d];
        });
      }
      return out;
    });
    x = x.map((xi, i) => {
      const o = linear(w, b + 'attn_output', attended[i]);
      const h1 = layerNorm(
        w,
        b + 'attn_output_norm',
        xi.map((val, d) => val + o[d]),
        eps,
      );
      const up = linear(w, b + 'ffn_up', h1).map(gelu);
      const down = linear(w, b + 'ffn_down', up);
      return layerNorm(
        w,
        b + 'layer_output_norm',
        h1.map((val, d) => val + down[d]),
        eps,
      );
    });
  }
  return x;
}

const l2 = (v: ArrayLike<number>) => {
  const n = Math.sqrt(Array.from(v).reduce((s, c) => s + c * c, 0));
  return Array.from(v, (c) => c / n);
};
const cosine = (a: number[], b: number[]) => a.reduce((s, c, i) => s + c * b[i], 0);

let llama: Llama;
const loaded: LlamaModel[] = [];
beforeAll(async () => {
  configure({ threads: 1 });
  llama = await getLlama({ gpu: false, logLevel: 'error' as never });
});
afterAll(async () => {
  await unloadModels();
  for (const m of loaded) await m.dispose();
  await llama?.dispose();
});

/** The tokens an embedding of `text` reads: [CLS], the WordPiece tokens, [SEP]. */
async function bertTokens(path: string, text: string): Promise<number[]> {
  const model = await llama.loadModel({ modelPath: path });
  loaded.push(model);
  const tokens = model.tokenize(text).map(Number);
  const cls = model.tokens.bos ?? null;
  const sep = model.tokens.sep ?? null;
  return [
    ...(cls !== null && tokens[0] !== Number(cls) ? [Number(cls)] : []),
    ...tokens,
    ...(sep !== null ? [Number(sep)] : []),
  ];
}

const TEXT = 'Le café est très bon, naïve 日本語';

describe.each(['cls', 'mean'] as const)('a BERT model with %s pooling', (pooling) => {
  let path: string;
  let meta: GgufMeta[];
  let weights: Weights;
  let tokens: number[];
  beforeAll(async () => {
    path = await bertEmbeddingModel(pooling);
    const file = readGguf(readFileSync(path));
    meta = file.meta;
    weights = new Map(file.tensors.map((t) => [t.name, { dims: t.dims, data: t.data! }]));
    tokens = await bertTokens(path, TEXT);
  }, 60_000);

  test("the GGUF says its architecture and pooling; the vocabulary is bge's WordPiece", () => {
    expect(metaValue(meta, 'general.architecture')).toBe('bert');
    expect(metaValue(meta, 'bert.pooling_type')).toBe(pooling === 'cls' ? 2 : 1);
    expect(metaValue(meta, 'tokenizer.ggml.model')).toBe('bert');
    expect((metaValue(meta, 'tokenizer.ggml.tokens') as string[]).length).toBe(30522);
    // [CLS] … [SEP], lower-cased WordPiece pieces in between (accents stripped, CJK one per character).
    expect(tokens[0]).toBe(101);
    expect(tokens.at(-1)).toBe(102);
    expect(tokens.length).toBeGreaterThan(10);
  });

  test('embed gives the model dimension, L2-normalized, pooled as the GGUF says', async () => {
    const vector = await embed(TEXT, { model: path });
    expect(vector).toHaveLength(Number(metaValue(meta, 'bert.embedding_length')));
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);

    const states = bertForward(meta, weights, tokens);
    const cls = l2(states[0]);
    const mean = l2(states[0].map((_, d) => states.reduce((s, t) => s + t[d], 0) / states.length));
    const expected = pooling === 'cls' ? cls : mean;
    // ggml computes in f32 with its own operation order (and GELU from an f16 table): agreement
    // to ~1e-4 per component; a pooling, normalization or token error is off by far more.
    for (let d = 0; d < expected.length; d++) expect(Math.abs(vector[d] - expected[d])).toBeLessThan(5e-4);
    expect(cosine(vector, expected)).toBeGreaterThan(0.99999);
    // The other pooling would give a clearly different vector, so the check above tells them apart.
    expect(cosine(vector, pooling === 'cls' ? mean : cls)).toBeLessThan(0.99);
  });

  test('a text of only invisible, combining or control characters is refused, never an empty vector or a NaN score', async () => {
    for (const text of ['\u200B', '\u0301', '\u0007\u200B']) {
      const error = await embed(text, { model: path }).then(
        () => undefined,
        (e: { code?: string; message?: string }) => e,
      );
      expect(error).toMatchObject({
        code: 'invalid-options',
        message: expect.stringMatching(/^embed: the text gives the model nothing to embed/),
      });
    }
    await expect(rerank('café', ['un café', '\u200B'], { model: path, task: '' })).rejects.toMatchObject({
      code: 'invalid-options',
      message: expect.stringMatching(/^rerank: documents\[1\] gives the model nothing to embed/),
    });
  });

  test('rerank without a ranking head scores by the cosine similarity of embeddings', async () => {
    const docs = ['un café', 'the weather today', '日本語の本'];
    const ranked = await rerank('café', docs, { model: path, task: '' });
    const q = await embed('café', { model: path });
    for (const r of ranked) expect(r.score).toBeCloseTo(cosine(q, await embed(r.document, { model: path })), 6);
    expect(ranked.map((r) => r.index).sort()).toEqual([0, 1, 2]);
  });
});

describe('a BERT reranker (ranking head)', () => {
  let path: string;
  let meta: GgufMeta[];
  let weights: Weights;
  let model: LlamaModel;
  beforeAll(async () => {
    path = await bertEmbeddingModel('rank');
    const file = readGguf(readFileSync(path));
    meta = file.meta;
    weights = new Map(file.tensors.map((t) => [t.name, { dims: t.dims, data: t.data! }]));
    model = await llama.loadModel({ modelPath: path });
    loaded.push(model);
  }, 60_000);

  /** The head's probability that `document` answers `query`, from the file's weights. */
  function expectedScore(query: string, document: string): number {
    // node-llama-cpp's pair input for a WordPiece model: [CLS] query [SEP] document.
    const t = (text: string) => model.tokenize(text).map(Number);
    const input = [Number(model.tokens.bos), ...t(query), Number(model.tokens.sep), ...t(document)];
    const cls = bertForward(meta, weights, input)[0];
    const hidden = linear(weights, 'cls', cls).map(Math.tanh);
    const logit = linear(weights, 'cls.output', hidden)[0];
    return 1 / (1 + Math.exp(-logit));
  }

  test('rerank scores each pair with the ranking head (0..1), not embedding similarity', async () => {
    expect(metaValue(meta, 'bert.pooling_type')).toBe(4);
    const docs = ['un café noir', 'the weather today', '日本語の本', 'café au lait'];
    const ranked = await rerank('café', docs, { model: path, task: '' });
    expect(ranked.map((r) => r.index).sort()).toEqual([0, 1, 2, 3]);
    for (const r of ranked) {
      expect(r.score).toBeGreaterThan(0);
      expect(r.score).toBeLessThan(1);
      expect(Math.abs(r.score - expectedScore('café', r.document))).toBeLessThan(1e-3);
    }
    for (let i = 1; i < ranked.length; i++) expect(ranked[i].score).toBeLessThanOrEqual(ranked[i - 1].score);
  });
});

describe('through SQL, a worker serving the embedding model, then the reranker', () => {
  const svc = useSvc();

  async function serve(path: string) {
    const db = await svc().connect();
    const worker = startWorker(svc().cluster, {}, path);
    await eventually(
      'the worker',
      async () =>
        (
          await db.query(`SELECT 1 FROM svc_worker_status() WHERE state = 'running' AND model LIKE $1`, [
            `${path.split('/').at(-1)}:%`,
          ])
        ).rows.length > 0,
    );
    return { db, worker };
  }

  test("svc_embed gives the library's vector; svc_rerank the library's ranking-head scores", async () => {
    const embedder = await bertEmbeddingModel('cls');
    let { db, worker } = await serve(embedder);
    try {
      const fromSql = (await db.query('SELECT svc_embed($1) AS v', [TEXT])).rows[0].v as number[];
      // real[] holds float4: compare as float4 values.
      expect(fromSql.map(Math.fround)).toEqual((await embed(TEXT, { model: embedder })).map(Math.fround));
      // Nothing to embed: the request fails at once (no retries), and nothing is cached.
      const entries = async () => Number((await db.query('SELECT count(*) AS n FROM svc_cache')).rows[0].n);
      const before = await entries();
      await expect(db.query(`SELECT svc_embed(E'\\u200B\\u0301')`)).rejects.toMatchObject({
        code: 'SV001',
        message: expect.stringMatching(/failed: the text gives the model nothing to embed/),
      });
      expect(await entries()).toBe(before);
      expect(
        (await db.query(`SELECT retry_count FROM svc_queue WHERE parameters->>'text_input' = E'\\u200B\\u0301'`)).rows,
      ).toEqual([{ retry_count: 0 }]);
    } finally {
      await worker.stop();
    }

    const reranker = await bertEmbeddingModel('rank');
    ({ db, worker } = await serve(reranker));
    try {
      const docs = ['un café noir', 'the weather today', '日本語の本'];
      const rows = (await db.query('SELECT document, score FROM svc_rerank($1, $2::text[])', ['café', docs])).rows;
      const lib = await rerank('café', docs, { model: reranker });
      expect(rows.map((r) => r.document)).toEqual(lib.map((r) => r.document));
      rows.forEach((r, i) => expect(r.score).toBeCloseTo(lib[i].score, 6));
    } finally {
      await worker.stop();
    }
  }, 120_000);
});
