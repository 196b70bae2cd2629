// The edge worker in workerd (Miniflare): SPEC 4.3 endpoints, 7 errors, 8 limits, 2.3 storage, on
// the trained stories260K.
import { startWorker, eventually, type Worker } from './helpers.js';

let w: Worker;
/** The cache key of a generation: SPEC's gen:<prompt>:<max_tokens> under the model's tag. */
let key: (prompt: string, maxTokens: number) => string;
beforeAll(async () => {
  w = await startWorker();
  const tag = await w.tag();
  key = (prompt, maxTokens) => `${tag}/gen:${prompt}:${maxTokens}`;
});
afterAll(async () => {
  await w?.mf.dispose();
});

describe('routes', () => {
  test('/health answers OK as plain text, for any method', async () => {
    for (const method of ['GET', 'POST', 'HEAD']) {
      const res = await w.fetch('/health', { method });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toBe(method === 'HEAD' ? '' : 'OK');
    }
  });

  test('any other path is 404 Not Found', async () => {
    for (const path of ['/', '/generatex', '/generate/1', '/nope?x=1']) {
      const res = await w.fetch(path, { method: 'POST', body: '{}' });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toBe('Not Found');
    }
  });

  test('wrong methods are 405 with Allow', async () => {
    const res = await w.fetch('/generate');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toEqual({ error: 'Method not allowed' });
    const m = await w.fetch('/metrics', { method: 'POST' });
    expect(m.status).toBe(405);
    expect(m.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('/generate (SPEC 4.3, 7)', () => {
  test('400 Prompt required: missing, empty, not a string, non-object body', async () => {
    for (const body of [{}, { prompt: '' }, { prompt: 42 }, { prompt: null }, [], 'null', '"hi"']) {
      const res = await w.post('/generate', body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({ error: 'Prompt required' });
    }
  });

  test('malformed JSON is 400 Invalid JSON body, never 500', async () => {
    for (const body of ['{', 'not json', '']) {
      const res = await w.post('/generate', body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'Invalid JSON body' });
    }
  });

  test('max_tokens must be an integer from 1 to DEFAULT_MAX_TOKENS', async () => {
    for (const max_tokens of [0, -1, 1.5, '10', 513, true]) {
      const res = await w.post('/generate', { prompt: 'x', max_tokens });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'max_tokens must be an integer from 1 to 512' });
    }
  });

  test('miss then hit: {text, cached}, same text; default max_tokens is 100', async () => {
    const first = await w.post('/generate', { prompt: 'Hello edge' });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json');
    const a = (await first.json()) as { text: string; cached: boolean };
    expect(a.cached).toBe(false);
    expect(typeof a.text).toBe('string');
    expect(a.text.length).toBeGreaterThan(0);
    // Stored after responding (waitUntil): wait for the KV entry, keyed gen:<prompt>:<max_tokens>
    // under the model's tag (and the engine that computed it).
    expect(key('Hello edge', 100)).toMatch(/^stories260K-1@[0-9a-f]{32}:wllama-3\.8\.1\/gen:Hello edge:100$/);
    await eventually(() => w.kv.get(key('Hello edge', 100)));
    const second = (await (await w.post('/generate', { prompt: 'Hello edge' })).json()) as typeof a;
    expect(second).toEqual({ text: a.text, cached: true });
    const explicit = (await (await w.post('/generate', { prompt: 'Hello edge', max_tokens: 100 })).json()) as typeof a;
    expect(explicit).toEqual({ text: a.text, cached: true });
  });

  test('stories260K continues a story in English', async () => {
    const res = (await (await w.post('/generate', { prompt: 'Once upon a time', max_tokens: 40 })).json()) as {
      text: string;
    };
    expect(res.text).toMatch(/^, there was a little girl named Lily\. She loved to play outside in the park\./);
  });

  test('max_tokens bounds the output and is part of the key', async () => {
    const short = (await (await w.post('/generate', { prompt: 'Bound me', max_tokens: 3 })).json()) as {
      text: string;
      cached: boolean;
    };
    const long = (await (await w.post('/generate', { prompt: 'Bound me', max_tokens: 40 })).json()) as {
      text: string;
      cached: boolean;
    };
    expect(short.cached).toBe(false);
    expect(long.cached).toBe(false);
    expect(long.text.startsWith(short.text)).toBe(true);
    expect(long.text.length).toBeGreaterThan(short.text.length);
    const row = await eventually(() =>
      w.db.prepare('SELECT token_count FROM generation_cache WHERE cache_key = ?').bind(key('Bound me', 3)).first(),
    );
    expect(row).toEqual({ token_count: 3 });
  });

  test('engine object: generate (default max_tokens 100), embed, Unknown method', async () => {
    const engine = await w.engine();
    const gen = await engine.fetch('http://engine/', {
      method: 'POST',
      body: JSON.stringify({ method: 'generate', params: { prompt: 'Hello edge' } }),
    });
    expect(gen.status).toBe(200);
    const viaWorker = (await (await w.post('/generate', { prompt: 'Hello edge', max_tokens: 100 })).json()) as {
      text: string;
    };
    expect(((await gen.json()) as { text: string }).text).toBe(viaWorker.text);
    const emb = await engine.fetch('http://engine/', {
      method: 'POST',
      body: JSON.stringify({ method: 'embed', params: { text: 'hi' } }),
    });
    expect(((await emb.json()) as { embedding: number[] }).embedding).toHaveLength(64);
    for (const method of ['rerank', undefined, 'GENERATE']) {
      const bad = await engine.fetch('http://engine/', {
        method: 'POST',
        body: JSON.stringify({ method, params: {} }),
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ error: 'Unknown method' });
    }
    const stats = (await (await engine.fetch('http://engine/stats')).json()) as {
      loads: number;
      model: { key: string };
    };
    expect(stats.loads).toBe(1); // loaded from R2 once
    expect(stats.model.key).toBe('models/stories260K-1.bin');
  });
});

describe('input the model cannot take: 400 stating the limit, nothing computed in part or cached', () => {
  const gen = async (prompt: string, max_tokens: number) => {
    const res = await w.post('/generate', { prompt, max_tokens });
    return { status: res.status, body: (await res.json()) as { error?: string; text?: string } };
  };

  test('a prompt that leaves no room for an output token (stories260K: a context of 512 tokens); an output ends where the context is full', async () => {
    const prompt = 'hello world '.repeat(40); // 242 tokens
    // The output stops where the context is full (270 tokens), as in the library and the worker (test/edge/surfaces.test.ts).
    expect((await gen(prompt, 512)).status).toBe(200);
    const row = await eventually(() =>
      w.db.prepare('SELECT token_count FROM generation_cache WHERE cache_key = ?').bind(key(prompt, 512)).first(),
    );
    expect(row).toEqual({ token_count: 270 });
    // A prompt over the context by itself: the library's and the worker's words.
    const long = 'hello world '.repeat(100);
    expect(await gen(long, 5)).toEqual({
      status: 400,
      body: {
        error:
          "prompt is 602 tokens, over the 511 a context of 512 tokens leaves for a prompt (the output needs at least one): shorten the prompt, or raise the context (configure({ contextSize }), svc --context-size, SVC_WORKER_CONTEXT_SIZE) up to the model's training context",
      },
    });
    await new Promise((r) => setTimeout(r, 300)); // a cache write would have landed by now
    const { kvKey } = await import('../../src/edge/cache.js');
    for (const k of [key(long, 5)]) {
      expect(await w.kv.get(await kvKey(k))).toBeNull();
      expect(await w.db.prepare('SELECT 1 FROM generation_cache WHERE cache_key = ?').bind(k).first()).toBeNull();
    }
  });

  test('embed text over the context', async () => {
    const res = await w.post('/embed', { text: 'hello world '.repeat(100) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error:
        "the text is 602 tokens, over the 511 a context of 512 tokens takes: split it into chunks of at most 511 tokens (a vectorizer does: svc_vectorize(..., chunk_by := 'tokens', chunk_size := 511))",
    });
  });

  test('text over INPUT_MAX_BYTES, in the worker and in the engine object; up to it, the token limits answer', async () => {
    // A 1 MB prompt used to exhaust the engine's wasm heap ("std::bad_alloc", a 500), an 8 MB one the
    // D1 key (SQLITE_TOOBIG); bodies that large are now 413 (next test), so this one stays below.
    const huge = 'Once upon a time there was a cat. '.repeat(3000); // 102,000 bytes
    const cases: [string, Record<string, unknown>, string][] = [
      ['/generate', { prompt: huge, max_tokens: 5 }, 'prompt (102000 bytes) is over the limit of 16384 bytes'],
      ['/embed', { text: huge }, 'text (102000 bytes) is over the limit of 16384 bytes'],
      ['/generate', { prompt: 'é'.repeat(8193) }, 'prompt (16386 bytes) is over the limit of 16384 bytes'],
    ];
    const engine = await w.engine();
    for (const [path, body, error] of cases) {
      const res = await w.post(path, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error });
      const direct = await engine.fetch('http://engine/', {
        method: 'POST',
        body: JSON.stringify({ method: path.slice(1), params: body }),
      });
      expect(direct.status).toBe(400);
      expect(await direct.json()).toEqual({ error });
    }
    // 16384 bytes exactly reach llama.cpp, which counts the tokens.
    const res = await w.post('/embed', { text: 'é'.repeat(8192) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^the text is \d+ tokens, over the 511 a context of 512 tokens takes: split it into chunks/,
    );
    await new Promise((r) => setTimeout(r, 300)); // a cache write would have landed by now
    expect(await w.db.prepare('SELECT 1 FROM generation_cache WHERE prompt = ?').bind(huge).first()).toBeNull();
  });

  test('a request body over BODY_MAX_BYTES is 413, read no further than the limit (sent whole or streamed)', async () => {
    const big = JSON.stringify({ prompt: 'x', junk: 'a'.repeat(200_000) });
    const error = { error: 'Request body is over the limit of 131072 bytes' };
    for (const path of ['/generate', '/embed']) {
      const res = await w.post(path, big);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual(error);
    }
    // Streamed (chunked transfer encoding).
    // Three chunks of 50,000 bytes: the third takes it over, and the client has nothing left to send.
    const chunk = new TextEncoder().encode('{"prompt":"' + 'a'.repeat(49_989));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < 3) c.enqueue(chunk);
        else c.close();
      },
    });
    const res = await w.fetch('/generate', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(error);
    // A body at the limit that carries a text at INPUT_MAX_BYTES, every byte a JSON escape, is read.
    const escaped = JSON.stringify({ text: '\u0001'.repeat(16384) });
    expect(escaped.length).toBeLessThanOrEqual(131072);
    const ok = await w.post('/embed', escaped);
    expect(ok.status).toBe(400);
    expect(((await ok.json()) as { error: string }).error).toMatch(
      /^the text is \d+ tokens, over the 511 a context of 512 tokens takes: split it into chunks/,
    );
  });

  test('lone surrogates, in the worker and in the engine object', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['/generate', { prompt: '\ud800' }, 'prompt must be well-formed Unicode: lone surrogate U+D800 at index 0'],
      [
        '/generate',
        { prompt: 'ok \udc00 then', max_tokens: 5 },
        'prompt must be well-formed Unicode: lone surrogate U+DC00 at index 3',
      ],
      ['/embed', { text: '\ud800' }, 'text must be well-formed Unicode: lone surrogate U+D800 at index 0'],
    ];
    const engine = await w.engine();
    for (const [path, body, error] of cases) {
      const res = await w.post(path, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error });
      const method = path.slice(1);
      const direct = await engine.fetch('http://engine/', {
        method: 'POST',
        body: JSON.stringify({ method, params: body }),
      });
      expect(direct.status).toBe(400);
      expect(await direct.json()).toEqual({ error });
    }
    // A well-formed pair is text like any other.
    expect((await w.post('/generate', { prompt: 'A \ud83d\ude00 smile', max_tokens: 3 })).status).toBe(200);
  });
});

describe('/embed (SPEC 4.3, 7)', () => {
  test('400 Text required', async () => {
    for (const body of [{}, { text: '' }, { text: 1 }, []]) {
      const res = await w.post('/embed', body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({ error: 'Text required' });
    }
    const bad = await w.post('/embed', '{"text":');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Invalid JSON body' });
  });

  test('embedding of dimension 64, cached in KV and D1 with identical values', async () => {
    const res = await w.post('/embed', { text: 'embed me' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const { embedding } = (await res.json()) as { embedding: number[] };
    expect(embedding).toHaveLength(64);
    expect(embedding.every((x) => typeof x === 'number' && Number.isFinite(x))).toBe(true);
    const row = await eventually(() =>
      w.db
        .prepare('SELECT text, dimension, length(embedding) AS bytes FROM embedding_cache WHERE text = ?')
        .bind('embed me')
        .first(),
    );
    expect(row).toEqual({ text: 'embed me', dimension: 64, bytes: 256 });
    const hot = (await (await w.post('/embed', { text: 'embed me' })).json()) as { embedding: number[] };
    expect(hot.embedding).toEqual(embedding);
    // Drop the KV copy: the D1 BLOB gives the same numbers.
    const { keys } = (await w.kv.list({ prefix: 'emb:' })) as { keys: { name: string; expiration?: number }[] };
    expect(keys.length).toBeGreaterThan(0);
    // SPEC 8 sample rule: embeddings live 604800 s in KV.
    const ttl = keys[0].expiration! - Date.now() / 1000;
    expect(ttl).toBeGreaterThan(604800 - 120);
    expect(ttl).toBeLessThanOrEqual(604800 + 5);
    for (const k of keys) await w.kv.delete(k.name);
    const cold = (await (await w.post('/embed', { text: 'embed me' })).json()) as { embedding: number[] };
    expect(cold.embedding).toEqual(embedding);
  });
});

describe('two-level cache (SPEC 4.3, 8)', () => {
  const row = (key: string): Promise<Record<string, any> | null> =>
    w.db.prepare('SELECT * FROM generation_cache WHERE cache_key = ?').bind(key).first();

  test('a miss writes KV (TTL 86400) and D1 after responding', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = (await (await w.post('/generate', { prompt: 'two level', max_tokens: 7 })).json()) as { text: string };
    const r = await eventually(() => row(key('two level', 7)));
    expect(r).toMatchObject({ prompt: 'two level', result: res.text, access_count: 1, parameters: '{"max_tokens":7}' });
    expect(r.token_count).toBeGreaterThan(0);
    expect(r.created_at).toBeGreaterThanOrEqual(before);
    expect(r.accessed_at).toBe(r.created_at);
    await eventually(() => w.kv.get(key('two level', 7)));
    const { keys } = (await w.kv.list({ prefix: key('two level', 7) })) as { keys: { expiration: number }[] };
    expect(keys[0].expiration - Date.now() / 1000).toBeGreaterThan(86400 - 120);
  });

  test('KV miss falls back to D1, bumping accessed_at and access_count; promotion after 10', async () => {
    const k = key('two level', 7);
    await eventually(() => row(k));
    await w.db.prepare('UPDATE generation_cache SET accessed_at = accessed_at - 500 WHERE cache_key = ?').bind(k).run();
    const old = (await row(k))!;
    await w.kv.delete(k);
    const hit = (await (await w.post('/generate', { prompt: 'two level', max_tokens: 7 })).json()) as {
      text: string;
      cached: boolean;
    };
    expect(hit).toEqual({ text: old.result, cached: true });
    const bumped = (await row(k))!;
    expect(bumped.access_count).toBe(2);
    expect(bumped.accessed_at).toBeGreaterThan(old.accessed_at);
    expect(await w.kv.get(k)).toBeNull(); // 2 is not above 10: no promotion
    await w.db.prepare('UPDATE generation_cache SET access_count = 10 WHERE cache_key = ?').bind(k).run();
    await w.post('/generate', { prompt: 'two level', max_tokens: 7 });
    expect((await row(k))!.access_count).toBe(11);
    await eventually(() => w.kv.get(k));
    const { keys } = (await w.kv.list({ prefix: k })) as { keys: { expiration: number }[] };
    const ttl = keys[0].expiration - Date.now() / 1000;
    expect(ttl).toBeGreaterThan(3600 - 120);
    expect(ttl).toBeLessThanOrEqual(3600 + 5);
  });

  test('cached text survives NUL, U+FFFD, astral characters and lone surrogates', async () => {
    const nasty = 'a\u0000b\uFFFDc\u{1F600}d\u0001';
    await w.db
      .prepare('INSERT INTO generation_cache (cache_key, prompt, result) VALUES (?, ?, ?)')
      .bind(key('nasty', 5), 'nasty', nasty)
      .run();
    const viaD1 = (await (await w.post('/generate', { prompt: 'nasty', max_tokens: 5 })).json()) as { text: string };
    expect(viaD1.text).toBe(nasty);
    // The write path (the worker's own cache module) against the real bindings.
    const { GenerationCache } = await import('../../src/edge/cache.js');
    const cache = new GenerationCache(w.kv as never, w.db as never);
    await cache.put(key('lone', 5), { prompt: 'lone', parameters: {}, result: 'x\uD800y\u0000z' }, 86400);
    expect(await w.kv.get(key('lone', 5))).toBe('x\uFFFDy\u0000z');
    expect((await row(key('lone', 5)))!.result).toBe('x\uFFFDy\u0000z');
    const viaKv = (await (await w.post('/generate', { prompt: 'lone', max_tokens: 5 })).json()) as {
      text: string;
      cached: boolean;
    };
    expect(viaKv).toEqual({ text: 'x\uFFFDy\u0000z', cached: true });
  });

  test('prompts too long for a KV key still cache (hashed KV key, full D1 key)', async () => {
    const prompt = 'long '.repeat(150);
    const a = (await (await w.post('/generate', { prompt, max_tokens: 4 })).json()) as {
      text: string;
      cached: boolean;
    };
    expect(a.cached).toBe(false);
    await eventually(() => row(key(prompt, 4)));
    const b = (await (await w.post('/generate', { prompt, max_tokens: 4 })).json()) as {
      text: string;
      cached: boolean;
    };
    expect(b).toEqual({ text: a.text, cached: true });
  });

  test('cleanup (cron) deletes rows not accessed for 30 days and keeps the rest', async () => {
    const now = Math.floor(Date.now() / 1000);
    await w.db
      .prepare(
        'INSERT INTO generation_cache (cache_key, prompt, result, accessed_at) VALUES (?, ?, ?, ?), (?, ?, ?, ?)',
      )
      .bind('gen:stale:1', 'stale', 's', now - 2592000 - 10, 'gen:fresh:1', 'fresh', 'f', now - 2592000 + 600)
      .run();
    const worker: any = await w.mf.getWorker();
    await worker.scheduled({ cron: '17 3 * * *' });
    expect(await row('gen:stale:1')).toBeNull();
    expect(await row('gen:fresh:1')).not.toBeNull();
  });

  test('identical concurrent requests are computed once', async () => {
    const engine = await w.engine();
    const stats = async () =>
      ((await (await engine.fetch('http://engine/stats')).json()) as { generations: number }).generations;
    const before = await stats();
    const all = await Promise.all(
      Array.from({ length: 6 }, () => w.post('/generate', { prompt: 'together', max_tokens: 20 })),
    );
    const bodies = (await Promise.all(all.map((r) => r.json()))) as { text: string; cached: boolean }[];
    expect(new Set(bodies.map((b) => b.text)).size).toBe(1);
    expect(await stats()).toBe(before + 1);
  });
});

describe('determinism', () => {
  test('an engine instance replaced after its heap grew (ENGINE_RECYCLE_MIB) gives the same bytes, in the memory reused', async () => {
    // 1 MiB: every instance is past it, and is replaced at its next heap check (every eighth call
    // once the memory is reused), so these 20 requests run on at least three instances.
    const recycling = await startWorker({ vars: { ENGINE_RECYCLE_MIB: '1' } });
    try {
      for (let i = 0; i < 20; i++) {
        const body =
          i % 4 === 3
            ? { prompt: `Recycled ${i}`, choices: [' mom', ' dog', ' car'] }
            : { prompt: `Recycled ${i}`, max_tokens: 12 };
        const expected = (await (await w.post('/generate', body)).json()) as object;
        expect(await (await recycling.post('/generate', body)).json()).toEqual({ ...expected, cached: false });
      }
      expect(await (await recycling.post('/embed', { text: 'recycled vector' })).json()).toEqual(
        await (await w.post('/embed', { text: 'recycled vector' })).json(),
      );
      const engine = await recycling.engine();
      const stats = (await (await engine.fetch('https://engine.internal/stats')).json()) as {
        loads: number;
        recycled: number;
      };
      expect(stats.recycled).toBeGreaterThanOrEqual(2);
      expect(stats.loads).toBe(stats.recycled + 1);
    } finally {
      await recycling.mf.dispose();
    }
  });

  test('same prompt → same text: fresh engine, cached or not', async () => {
    const prompts = ['Hello edge', 'Determinism check', 'Zürich ü 東京'];
    const first = [];
    for (const prompt of prompts)
      first.push(((await (await w.post('/generate', { prompt, max_tokens: 30 })).json()) as { text: string }).text);
    const other = await startWorker();
    try {
      for (const [i, prompt] of prompts.entries()) {
        const fresh = (await (await other.post('/generate', { prompt, max_tokens: 30 })).json()) as {
          text: string;
          cached: boolean;
        };
        expect(fresh).toEqual({ text: first[i], cached: false });
      }
      const e1 = await (await w.post('/embed', { text: 'same vector' })).json();
      const e2 = await (await other.post('/embed', { text: 'same vector' })).json();
      expect(e2).toEqual(e1);
    } finally {
      await other.mf.dispose();
    }
  });
});

describe('constraints: schema, regex, choices (the library compiler and its checks)', () => {
  const SCHEMA = {
    type: 'object',
    properties: { name: { type: 'string', maxLength: 12 }, age: { type: 'integer', minimum: 0, maximum: 120 } },
    required: ['name', 'age'],
    additionalProperties: false,
  };
  const row = (k: string): Promise<Record<string, any> | null> =>
    w.db.prepare('SELECT * FROM generation_cache WHERE cache_key = ?').bind(k).first();
  const post = async (body: unknown) => {
    const res = await w.post('/generate', body);
    return { status: res.status, body: (await res.json()) as { text?: string; cached?: boolean; error?: string } };
  };

  test('schema: JSON valid against it, in the order written; cached under the constraint, apart from the plain prompt', async () => {
    const a = await post({ prompt: 'Tom is 9.', schema: SCHEMA, max_tokens: 60 });
    expect(a).toMatchObject({ status: 200, body: { cached: false } });
    const value = JSON.parse(a.body.text!);
    expect(Object.keys(value)).toEqual(['name', 'age']);
    expect(typeof value.name).toBe('string');
    expect(value.name.length).toBeLessThanOrEqual(12);
    expect(Number.isInteger(value.age) && value.age >= 0 && value.age <= 120).toBe(true);
    const b = await post({ prompt: 'Tom is 9.', schema: SCHEMA, max_tokens: 60 });
    expect(b).toEqual({ status: 200, body: { text: a.body.text, cached: true } });
    // The key carries the constraint: the plain prompt is computed afresh, and is not JSON.
    const plain = await post({ prompt: 'Tom is 9.', max_tokens: 60 });
    expect(plain.body.cached).toBe(false);
    expect(plain.body.text).not.toBe(a.body.text);
    const stored = await eventually(
      async () =>
        (await w.db
          .prepare(`SELECT * FROM generation_cache WHERE prompt = 'Tom is 9.' AND cache_key LIKE '%/genc:%'`)
          .first()) as Record<string, any> | null,
    );
    expect(stored.cache_key).toMatch(/\/genc:[0-9a-f]{64}:Tom is 9\.:60$/);
    expect(JSON.parse(stored.parameters)).toEqual({ max_tokens: 60, constraint: `schema:${JSON.stringify(SCHEMA)}` });
  });

  test('regex and choices: text the whole pattern matches, one of the choices', async () => {
    const pattern = '[A-Z][a-z]{2,8} (is|was) [0-9]{1,2}';
    const r = await post({ prompt: 'Once upon a time', regex: pattern, max_tokens: 30 });
    expect(r.status).toBe(200);
    expect(r.body.text).toMatch(new RegExp(`^(?:${pattern})$`));
    const choices = [' mom', ' dog', ' car'];
    const c = await post({ prompt: 'Lily went to the park with her', choices });
    expect(c.status).toBe(200);
    expect(choices).toContain(c.body.text);
    // The library and SQL pick ' mom' on stories260K too (test/model/real-vocab.test.ts).
    expect(c.body.text).toBe(' mom');
  });

  test("allOf's two patterns and a bounded decimal are served exactly: no keyword left to a validator, every output valid (#54)", async () => {
    // The grammar kept one of two patterns before, and listed nothing: the edge served 'aa' for these.
    const letters = { allOf: [{ type: 'string', pattern: '^[a-c]{1,6}$' }, { pattern: 'b' }] };
    const confidence = {
      type: 'object',
      properties: { confidence: { type: 'number', minimum: 0, maximum: 1 } },
      required: ['confidence'],
    };
    for (const prompt of ['Letters:', 'Tom said', 'Once upon a time']) {
      const l = await post({ prompt, schema: letters, max_tokens: 16 });
      expect(l.status).toBe(200);
      expect(JSON.parse(l.body.text!)).toMatch(/^(?=.*b)[a-c]{1,6}$/);
      const c = await post({ prompt, schema: confidence, max_tokens: 48 });
      expect(c.status).toBe(200);
      const value = JSON.parse(c.body.text!).confidence as number;
      expect(value >= 0 && value <= 1).toBe(true);
    }
  });

  test('a constrained output cut off by max_tokens is 422 and not cached', async () => {
    const res = await post({ prompt: 'Cut short', schema: SCHEMA, max_tokens: 3 });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(
      /^output ".*" does not satisfy the schema \(generation stopped after \d+ tokens of max_tokens 3: raise max_tokens\)$/,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await w.db.prepare(`SELECT count(*) AS n FROM generation_cache WHERE prompt = 'Cut short'`).first()).toEqual(
      { n: 0 },
    );
  });

  test('bad constraints and unknown fields are 400s naming them; nothing computed or cached', async () => {
    const cases: [unknown, RegExp][] = [
      [
        { prompt: 'x', shema: SCHEMA },
        /^unknown field "shema": \/generate takes prompt, max_tokens, schema, regex, choices, seed, temperature, top_k, top_p, min_p, stop, stream$/,
      ],
      [{ prompt: 'x', temperature: 0.7, topP: 1, eos_string: 'x' }, /^unknown fields "topP", "eos_string"/],
      [
        { prompt: 'x', schema: SCHEMA, regex: 'a' },
        /^give at most one of schema, regex or choices; got schema and regex$/,
      ],
      [
        { prompt: 'x', schema: { type: 'object', properties: { a: { type: 'nope' } } } },
        /^schema is not a usable constraint: /,
      ],
      [{ prompt: 'x', schema: [1] }, /^schema must be a JSON Schema object/],
      [
        { prompt: 'x', schema: { type: 'array', items: { type: 'integer' }, uniqueItems: true } },
        /^schema uses keywords the edge cannot check \(uniqueItems at \/\)/,
      ],
      [{ prompt: 'x', regex: '(' }, /^regex is not a usable constraint: /],
      [{ prompt: 'x', regex: 5 }, /^regex must be a string/],
      [{ prompt: 'x', choices: 'a,b' }, /^choices must be an array of strings/],
      [{ prompt: 'x', choices: ['a', 'a'] }, /^choices is not a usable constraint: /],
    ];
    const engine = await w.engine();
    const before = (await (await engine.fetch('https://engine.internal/stats')).json()) as { generations: number };
    for (const [body, message] of cases) {
      const res = await post(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.error).toMatch(message);
    }
    expect(await (await w.post('/embed', { text: 'x', model: 'other' })).json()).toEqual({
      error: 'unknown field "model": /embed takes text',
    });
    const after = (await (await engine.fetch('https://engine.internal/stats')).json()) as { generations: number };
    expect(after.generations).toBe(before.generations);
  });
});
