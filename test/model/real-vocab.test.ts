// svc on real tokenizers, end to end: a real svc-worker serving the trained stories260K (512-token
// SentencePiece), a qwen2-vocabulary model (byte-level BPE, 151,936 tokens) and a phi-3-vocabulary
// model (SentencePiece with byte fallback, 32,064 tokens) — test/helpers/real-models.ts. On each:
// JSON schema, regex, choices and basic types with non-ASCII text (café, 日本語, emoji), where
// multi-byte characters are spread over several tokens; and the determinism guarantees of
// test/worker/sync.test.ts (sync vs async, cached vs not, concurrency 4 vs 1, across a restart).
import type pg from 'pg';
import { basename } from 'node:path';
import AjvModule from 'ajv';
import { generateFormat, unloadModels, configure } from '../../src/client/index.js';
import { useSvc } from '../helpers/svc.js';
import { eventually, startWorker, type WorkerProcess } from '../helpers/worker.js';
import { STORIES_MODEL, realVocabModel } from '../helpers/real-models.js';

// ajv is CommonJS: under ESM its class may sit on `default`.
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as unknown as new () => {
  compile(s: object): (v: unknown) => boolean;
};

const svc = useSvc({ settings: { 'svc.sync_timeout': "'60s'" } });
let db: pg.Client;
beforeAll(async () => {
  db = await svc().connect();
  configure({ threads: 1 });
});
afterAll(async () => {
  await unloadModels();
});

const MODELS: Record<string, () => Promise<string>> = {
  stories260K: async () => STORIES_MODEL,
  qwen2: () => realVocabModel('qwen2'),
  phi3: () => realVocabModel('phi3'),
};

// Every string here has characters of two, three and four UTF-8 bytes.
const SCHEMA = {
  type: 'object',
  properties: {
    word: { enum: ['café', '日本語', '🎉', 'naïve', 'Ελλάδα'] },
    kanji: { type: 'string', pattern: '^[日本語]{1,3}[a-zé🎉]{0,3}$' },
    note: { type: 'string', maxLength: 8 },
    n: { type: 'integer', minimum: 0, maximum: 99 },
    ok: { type: 'boolean' },
  },
  required: ['word', 'kanji', 'note', 'n', 'ok'],
  additionalProperties: false,
};
const validate = new Ajv().compile(SCHEMA);
// 🦩 and 𠀋 are two and three tokens in qwen2's vocabulary, none of them a whole character.
const REGEXES = ['[日本語]{3}', '(café|naïve|日本) [🎉🦩𠀋]{1,2}', '[à-ü]{2,4}-[0-9]{2}'];
const CHOICES = ['日本', '中国', 'Ελλάδα', 'café', '🎉 party', '🦩𠀋'];

const one = async (sql: string, params: unknown[] = []) => (await db.query(`SELECT ${sql} AS out`, params)).rows[0].out;

describe.each(Object.keys(MODELS))('%s', (name) => {
  let model: string;
  let worker: WorkerProcess;

  const startOn = async (concurrency: number) => {
    worker = startWorker(svc().cluster, { SVC_WORKER_CONCURRENCY: String(concurrency) }, model);
    await eventually(
      `a worker on ${name}`,
      async () =>
        (
          await db.query(
            `SELECT 1 FROM svc_worker_status() WHERE state = 'running' AND model LIKE $1 AND concurrency = $2`,
            [`${basename(model)}:%`, concurrency],
          )
        ).rows.length > 0,
    );
  };

  beforeAll(async () => {
    model = await MODELS[name]();
    await startOn(4);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
  });

  test('JSON schema: non-ASCII enums, patterns and free strings give valid JSON', async () => {
    for (const prompt of ['A word as JSON:', 'Once upon a time']) {
      const out = await one(`svc_generate_json($1, $2::jsonb, max_tokens := 96, use_cache := false)`, [prompt, SCHEMA]);
      expect(validate(JSON.parse(out))).toBe(true);
      expect(out).not.toContain('\uFFFD');
    }
  });

  test('regex: classes and alternatives of multi-byte characters match whole', async () => {
    for (const pattern of REGEXES) {
      const out = await one(`svc_generate_regex('Text:', $1, max_tokens := 32, use_cache := false)`, [pattern]);
      expect(out).toMatch(new RegExp(`^(?:${pattern})$`, 'u'));
    }
  });

  test('choices: exactly one of the non-ASCII choices', async () => {
    for (const prompt of ['Country:', 'Once upon a time']) {
      expect(CHOICES).toContain(
        await one(`svc_generate_choice($1, $2::text[], use_cache := false)`, [prompt, CHOICES]),
      );
    }
  });

  test('basic types through the library parse back to their values', async () => {
    const opts = { model, maxTokens: 24 };
    expect(Number.isInteger(await generateFormat('How many?', 'integer', opts))).toBe(true);
    expect(Number.isFinite(await generateFormat('A number:', Number, opts))).toBe(true);
    expect(typeof (await generateFormat('True or false?', Boolean, opts))).toBe('boolean');
    // An unbounded string ends only when the model closes its quote: a trained model does, random
    // weights wander past any token limit.
    if (name === 'stories260K') expect(typeof (await generateFormat('Lily said', String, opts))).toBe('string');
  });

  if (name === 'stories260K') {
    test('a trained model: coherent English, and choices that start with a space keep it', async () => {
      expect(await one(`svc_generate('Once upon a time', max_tokens := 16)`)).toMatch(
        /^, there was a little girl named Lily\./,
      );
      // SentencePiece writes the space into the word's token ("▁mom"): the output must keep it.
      // (Lost before the engine decoded the generated tokens' own bytes, #22 point 3.)
      expect(await one(`svc_generate_choice('Lily went to the park with her', ARRAY[' mom', ' dog', ' car'])`)).toBe(
        ' mom',
      );
    });
  }

  test("svc_embed(texts[]), its texts together in a request: each multi-byte text's vector is the one-text call's", async () => {
    const texts = ['café 日本語 🎉', 'naïve Ελλάδα', '🦩𠀋 and 中国', 'plain words'];
    const set = (
      await db.query(`SELECT ord, embedding, error FROM svc_embed($1::text[], use_cache := false) ORDER BY ord`, [
        texts,
      ])
    ).rows;
    expect(set.map((r) => r.error)).toEqual(texts.map(() => null));
    for (const [i, text] of texts.entries()) {
      expect({ text, v: set[i].embedding }).toEqual({
        text,
        v: await one(`svc_embed($1, use_cache := false)`, [text]),
      });
    }
  });

  test("svc_generate_choice(prompts[]), its prompts together in a request: each multi-byte choice is the one-prompt call's", async () => {
    const prompts = ['Country:', 'café 日本語 🎉', 'Once upon a time', 'naïve Ελλάδα', '🦩𠀋 and 中国'].flatMap((p) => [
      p,
      `${p} 2`,
    ]);
    const before = (await db.query(`SELECT coalesce(max(seq), 0) AS seq FROM svc_queue`)).rows[0].seq;
    const set = (
      await db.query(
        `SELECT ord, result, error FROM svc_generate_choice($1::text[], $2::text[], use_cache := false) ORDER BY ord`,
        [prompts, CHOICES],
      )
    ).rows;
    // 10 prompts over twice the worker's 4 slots: 8 requests, two of them of two prompts.
    const requests = (
      await db.query(
        `SELECT count(*)::int AS n, sum(inputs)::int AS inputs FROM svc_queue
         WHERE function_name = 'generate_many' AND seq > $1`,
        [before],
      )
    ).rows[0];
    expect(requests).toEqual({ n: 8, inputs: 10 });
    expect(set.map((r) => r.error)).toEqual(prompts.map(() => null));
    for (const [i, prompt] of prompts.entries()) {
      expect({ prompt, out: set[i].result }).toEqual({
        prompt,
        out: await one(`svc_generate_choice($1, $2::text[], use_cache := false)`, [prompt, CHOICES]),
      });
    }
  });

  test('determinism: same bytes sync or async, cached or not, at concurrency 4 or 1, across a restart', async () => {
    const requests = [
      `svc_generate('Once upon a time', max_tokens := 16, use_cache := %s)`,
      `svc_generate_json('A word', '{"type":"object","properties":{"word":{"enum":["café","日本語","🎉"]},"kanji":{"type":"string","pattern":"^[日本語]{2}$"}},"required":["word","kanji"]}'::jsonb, max_tokens := 48, use_cache := %s)`,
      `svc_generate_regex('Text:', '(café|naïve|日本) [🎉🦩𠀋]{1,2}', max_tokens := 32, use_cache := %s)`,
      `svc_generate_choice('Country:', ARRAY['日本','中国','Ελλάδα','café','🎉 party','🦩𠀋'], use_cache := %s)`,
      `svc_embed('café 日本語 🎉', use_cache := %s)::text`,
    ];
    const isEmbed = (i: number) => requests[i].startsWith('svc_embed');
    // An embedding reads back as real[] text from SQL and as a pgvector literal from an async
    // result: compare them as float4 values, the rest as bytes.
    const comparable = (rows: string[]) =>
      rows.map((r, i) =>
        isEmbed(i) ? (JSON.parse(r.replace(/^\{/, '[').replace(/\}$/, ']')) as number[]).map(Math.fround) : r,
      );
    const sync = async (useCache: boolean) => {
      const out: string[] = [];
      for (const r of requests) out.push(await one(r.replace('%s', String(useCache))));
      return comparable(out);
    };
    // All submitted at once, so at concurrency 4 they decode at the same time: together in a context's
    // batches, and on its generation contexts side by side (one per core at one thread), the embedding
    // in an embedding context of its own.
    const async_ = async () => {
      const ids: string[] = [];
      for (const r of requests) {
        ids.push(
          await one(
            r
              .replace('%s', 'false')
              .replace(/^svc_(\w+?)\(/, 'svc_$1_async(')
              .replace('::text', ''),
          ),
        );
      }
      const out: string[] = [];
      for (const id of ids) out.push(await one('svc_get_async_result($1)', [id]));
      return comparable(out);
    };

    const uncached = await sync(false);
    expect(await sync(true)).toEqual(uncached); // fills the cache
    expect(await sync(true)).toEqual(uncached); // served from it
    expect(await async_()).toEqual(uncached);

    await worker.stop();
    await startOn(1);
    expect(await async_()).toEqual(uncached);
    expect(await sync(false)).toEqual(uncached);
  }, 180_000);
});
