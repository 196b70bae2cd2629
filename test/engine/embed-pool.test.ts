// Concurrent embed calls run on several embedding contexts at once (embed-pool.ts), and each vector
// is the same bytes as the text embedded alone, one after another, on an engine of one context: on the
// trained stories260K (a decoder, its last hidden state) and on a pooled BERT encoder.
import { Engine } from '../../src/engine/engine.js';
import { EmbeddingPool } from '../../src/engine/embed-pool.js';
import { STORIES_MODEL, bertEmbeddingModel } from '../helpers/real-models.js';

const TEXTS = Array.from(
  { length: 24 },
  (_, i) =>
    `Row ${i}: the child felt ${['happy', 'sad', 'angry', 'scared'][i % 4]} on day ${i * 7}.${' more'.repeat(i % 5)}`,
);

const bytes = (v: number[]) => Buffer.from(new Float64Array(v).buffer).toString('hex');

describe.each([
  ['stories260K', async () => STORIES_MODEL],
  ['bert (mean pooling)', async () => bertEmbeddingModel('mean')],
])('%s', (_name, model) => {
  let alone: Engine;
  let pooled: Engine;
  beforeAll(async () => {
    const path = await model();
    alone = await Engine.load({ model: path, threads: 1, contextSize: 256, embeddingContexts: 1 });
    pooled = await Engine.load({ model: path, threads: 1, contextSize: 256, sequences: 4, embeddingContexts: 3 });
  }, 60_000);
  afterAll(async () => {
    await alone?.dispose();
    await pooled?.dispose();
  });

  test('concurrent embeddings on three contexts are byte-identical to one at a time on one', async () => {
    const sequential: string[] = [];
    for (const text of TEXTS) sequential.push(bytes(await alone.embed(text)));
    const concurrent = (await Promise.all(TEXTS.map((t) => pooled.embed(t)))).map(bytes);
    expect(pooled.embeddingContextsMade).toBe(3);
    expect(alone.embeddingContextsMade).toBe(1);
    expect(concurrent).toEqual(sequential);
    // And again, the contexts now holding other texts' state.
    expect((await Promise.all([...TEXTS].reverse().map((t) => pooled.embed(t)))).map(bytes)).toEqual(
      [...sequential].reverse(),
    );
  }, 60_000);

  test('one text after another keeps one context', async () => {
    const engine = await Engine.load({
      model: await model(),
      threads: 1,
      contextSize: 256,
      sequences: 4,
      embeddingContexts: 4,
    });
    try {
      for (const text of TEXTS.slice(0, 4)) await engine.embed(text);
      expect(engine.embeddingContextsMade).toBe(1);
    } finally {
      await engine.dispose();
    }
  }, 60_000);
});

describe('the pool', () => {
  test('hands each context to one caller at a time, and makes no more than its size', async () => {
    let made = 0;
    const pool = new EmbeddingPool(async () => ({ id: made++, busy: false, dispose: async () => undefined }), 2);
    let most = 0;
    let running = 0;
    await Promise.all(
      Array.from({ length: 10 }, () =>
        pool.use(async (c) => {
          expect(c.busy).toBe(false);
          c.busy = true;
          most = Math.max(most, ++running);
          await new Promise((r) => setTimeout(r, 5));
          running--;
          c.busy = false;
        }),
      ),
    );
    expect(made).toBe(2);
    expect(most).toBe(2);
  });

  test('a context that cannot be made fails its caller when it is the first, else the caller waits for another', async () => {
    let calls = 0;
    const failing = new EmbeddingPool<{ dispose(): Promise<void> }>(async () => {
      calls++;
      throw new Error('out of memory');
    }, 2);
    await expect(failing.use(async () => 1)).rejects.toThrow('out of memory');
    expect(calls).toBe(1);
    let made = 0;
    const pool = new EmbeddingPool<{ dispose(): Promise<void> }>(async () => {
      if (made++ >= 1) throw new Error('out of memory');
      return { dispose: async () => undefined };
    }, 2);
    let release!: () => void;
    const first = pool.use(() => new Promise<number>((r) => (release = () => r(1))));
    await new Promise((r) => setTimeout(r, 1));
    const second = pool.use(async () => 2);
    release();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(made).toBe(2);
    expect(pool.contexts).toBe(1);
  });

  test('bad sizes refused (the default size: threads.test.ts)', () => {
    expect(() => new EmbeddingPool(async () => ({ dispose: async () => undefined }), 0)).toThrow(
      'at least one context',
    );
  });
});
