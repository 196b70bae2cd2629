// The inference-server engine against a loopback HTTP server standing in for llama.cpp's llama-server
// and vLLM: it speaks both protocols (as their documentation describes them) and records every
// request, so the tests check what svc sends (our GBNF unchanged, the seed, temperature 0, the token
// limit, the model name, the key only in the Authorization header) and how each answer and each
// failure comes back (timeouts, refused connections, 4xx/5xx with the server's message, malformed
// JSON, missing endpoints). The worker's own job runner runs a constrained job through it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compileChoices, compileJsonSchema } from '../../src/grammar/index.js';
import { GenerationAbortedError, GrammarRefusedError, type Engine } from '../../src/engine/engine.js';
import {
  InferenceServerError,
  ServerEngine,
  parseServerSpec,
  type InferenceServerKind,
} from '../../src/engine/server-engine.js';
import type { InferenceEngine } from '../../src/queue/inference-engine.js';
import { runJob } from '../../worker/jobs.js';
import { PermanentJobError } from '../../src/queue/job-errors.js';
import type { ClaimedJob } from '../../worker/protocol.js';

interface Seen {
  method: string;
  path: string;
  auth?: string;
  body: any;
}
type Answer = { status?: number; body?: unknown; raw?: string; delayMs?: number };

const KEY = 'sk-test-secret-0123456789';
const LLAMA_MODEL = '/models/qwen2.5-0.5b-instruct-q4_k_m.gguf';
const VLLM_MODEL = 'Qwen/Qwen2.5-0.5B-Instruct';

let server: Server;
let base: string;
let seen: Seen[] = [];
/** Which protocol the server speaks. */
let speaks: InferenceServerKind = 'llama-server';
/** What generation answers: the text and whether the token limit cut it. */
let output = { text: 'hello', tokens: 2, limited: false };
/** Whether embeddings and rerank are offered. */
let offers = { embeddings: true, rerank: true };
/** Overrides the protocol's answer to a POST, when it returns one. */
let override: (s: Seen) => Answer | undefined = () => undefined;

/** The stand-in servers' protocol answers. */
function protocol(s: Seen): Answer {
  const llama = speaks === 'llama-server';
  const notFound: Answer = llama
    ? { status: 404, body: { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } } }
    : { status: 404, body: { detail: 'Not Found' } };
  if (s.method === 'GET' && s.path === '/v1/models') {
    return {
      body: llama
        ? {
            object: 'list',
            data: [
              { id: LLAMA_MODEL, object: 'model', owned_by: 'llamacpp', meta: { n_vocab: 151936, size: 491400032 } },
            ],
          }
        : { object: 'list', data: [{ id: VLLM_MODEL, object: 'model', owned_by: 'vllm', max_model_len: 32768 }] },
    };
  }
  if (s.method !== 'POST') return notFound;
  const usage = { prompt_tokens: 4, completion_tokens: output.tokens, total_tokens: 4 + output.tokens };
  const finish = output.limited ? 'length' : 'stop';
  switch (s.path) {
    case '/completion':
      if (!llama) return notFound;
      return {
        body: {
          content: output.text,
          tokens_predicted: output.tokens,
          stop_type: output.limited ? 'limit' : 'eos',
          stopped_limit: output.limited,
          truncated: false,
        },
      };
    case '/apply-template': {
      if (!llama) return notFound;
      // ChatML, as llama-server's default template renders it.
      const turns = (s.body.messages as Array<{ role: string; content: string }>).map(
        (m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`,
      );
      return { body: { prompt: `${turns.join('')}<|im_start|>assistant\n` } };
    }
    case '/v1/completions':
      return {
        body: { object: 'text_completion', choices: [{ index: 0, text: output.text, finish_reason: finish }], usage },
      };
    case '/v1/chat/completions':
      return {
        body: {
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: output.text }, finish_reason: finish }],
          usage,
        },
      };
    case '/v1/embeddings':
      if (!offers.embeddings) {
        return llama
          ? {
              status: 501,
              body: {
                error: {
                  code: 501,
                  message: 'This server does not support embeddings. Start it with `--embeddings`',
                  type: 'not_supported_error',
                },
              },
            }
          : notFound;
      }
      return { body: { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [3, 0, 4] }], usage } };
    case '/v1/rerank': {
      if (!offers.rerank) {
        return llama
          ? {
              status: 501,
              body: {
                error: {
                  code: 501,
                  message: 'This server does not support reranking. Start it with `--reranking`',
                  type: 'not_supported_error',
                },
              },
            }
          : notFound;
      }
      // Scored by length (longer is more relevant), best first, as the servers order their results.
      const docs = s.body.documents as string[];
      const results = docs
        .map((d, index) => ({ index, relevance_score: d.length / 100 }))
        .sort((a, b) => b.relevance_score - a.relevance_score);
      return { body: { model: s.body.model, results } };
    }
    default:
      return notFound;
  }
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const s: Seen = {
      method: req.method ?? '',
      path: req.url ?? '',
      auth: req.headers.authorization,
      body: raw ? JSON.parse(raw) : undefined,
    };
    seen.push(s);
    const a = (s.method === 'POST' ? override(s) : undefined) ?? protocol(s);
    if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
    if (res.destroyed) return;
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
    res.end(a.raw ?? JSON.stringify(a.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  seen = [];
  speaks = 'llama-server';
  output = { text: 'hello', tokens: 2, limited: false };
  offers = { embeddings: true, rerank: true };
  override = () => undefined;
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  return port;
}

const posts = () => seen.filter((s) => s.method === 'POST');
const failure = async (p: Promise<unknown>): Promise<any> =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );

const SCHEMA = {
  type: 'object',
  properties: { name: { enum: ['Lily', 'Tom'] }, age: { type: 'integer' } },
  required: ['name', 'age'],
};
const GBNF = compileJsonSchema(SCHEMA).gbnf;

describe('llama-server', () => {
  test('connect names the model and its identity from GET /v1/models; the engine is what the worker uses of Engine', async () => {
    const engine = await ServerEngine.connect({ kind: 'llama-server', url: `${base}/v1/`, apiKey: KEY });
    // Both engines are what the worker uses (type-checked): generate, embed, rerank, modelId, dispose.
    const engines: InferenceEngine[] = [engine, ...([] as Engine[])];
    expect(engines[0].modelId).toBe(`llama-server:${LLAMA_MODEL}:491400032`);
    expect(engine.url).toBe(base);
    expect(seen).toEqual([{ method: 'GET', path: '/v1/models', auth: `Bearer ${KEY}`, body: undefined }]);
    expect(
      (await ServerEngine.connect({ kind: 'llama-server', url: base, identity: 'qwen-0.5b-q4km@2026-11' })).modelId,
    ).toBe('qwen-0.5b-q4km@2026-11');
  });

  test('raw generation: POST /completion with our GBNF as is, the seed, temperature 0, n_predict, no prompt cache', async () => {
    const engine = await ServerEngine.connect({ kind: 'llama-server', url: base, apiKey: KEY });
    output = { text: '{"name":"Tom","age":9}', tokens: 11, limited: false };
    const out = await engine.generate({ prompt: 'Tom is 9.', maxTokens: 64, seed: 7, grammar: GBNF });
    expect(out).toEqual({ text: '{"name":"Tom","age":9}', tokens: 11, stopReason: 'eogToken', promptFormat: 'raw' });
    const [req] = posts();
    expect(req.path).toBe('/completion');
    expect(req.auth).toBe(`Bearer ${KEY}`);
    expect(req.body).toEqual({
      model: LLAMA_MODEL,
      prompt: 'Tom is 9.',
      grammar: GBNF,
      seed: 7,
      temperature: 0,
      n_predict: 64,
      cache_prompt: false,
    });
    expect(req.body.grammar).toBe(GBNF); // byte for byte

    output = { text: 'Once upon', tokens: 3, limited: true };
    expect(await engine.generate({ prompt: 'x', maxTokens: 3, seed: 42 })).toMatchObject({
      stopReason: 'maxTokens',
      tokens: 3,
    });
    expect(posts()[1].body).not.toHaveProperty('grammar');
    // Streaming (#37): the server's answer comes whole, so onText gets it as one piece, and the server is asked for no stream.
    const pieces: Array<[string, number]> = [];
    expect(
      await engine.generate({
        prompt: 'x',
        maxTokens: 3,
        seed: 42,
        onText: (text, tokens) => pieces.push([text, tokens]),
      }),
    ).toMatchObject({
      text: 'Once upon',
    });
    expect(pieces).toEqual([['Once upon', 3]]);
    expect(posts()[2].body).not.toHaveProperty('stream');
    // The server stops at its context's end as at the limit: fewer tokens than maxTokens say which.
    expect(await engine.generate({ prompt: 'x', maxTokens: 5, seed: 42 })).toMatchObject({
      stopReason: 'context',
      tokens: 3,
    });
  });

  test('chat generation: the template rendered by POST /apply-template, then /completion under the grammar', async () => {
    const engine = await ServerEngine.connect({ kind: 'llama-server', url: base });
    output = { text: 'Tom', tokens: 1, limited: false };
    const grammar = compileChoices(['Lily', 'Tom']).gbnf;
    const out = await engine.generate({
      prompt: 'Who?',
      systemPrompt: 'Answer with a name.',
      promptFormat: 'chat',
      maxTokens: 8,
      seed: 42,
      grammar,
    });
    expect(out).toEqual({ text: 'Tom', tokens: 1, stopReason: 'eogToken', promptFormat: 'chat' });
    const [template, completion] = posts();
    expect(template).toMatchObject({
      path: '/apply-template',
      auth: undefined,
      body: {
        messages: [
          { role: 'system', content: 'Answer with a name.' },
          { role: 'user', content: 'Who?' },
        ],
      },
    });
    expect(completion.path).toBe('/completion');
    expect(completion.body).toEqual({
      model: LLAMA_MODEL,
      prompt:
        '<|im_start|>system\nAnswer with a name.<|im_end|>\n<|im_start|>user\nWho?<|im_end|>\n<|im_start|>assistant\n',
      grammar,
      seed: 42,
      temperature: 0,
      n_predict: 8,
      cache_prompt: false,
    });
  });

  test('embeddings from /v1/embeddings, L2-normalized; rerank from /v1/rerank with the task before the query, best first', async () => {
    const engine = await ServerEngine.connect({ kind: 'llama-server', url: base });
    expect(await engine.embed('Lily played')).toEqual([0.6, 0, 0.8]);
    expect(posts()[0]).toMatchObject({
      path: '/v1/embeddings',
      body: { input: 'Lily played', model: LLAMA_MODEL, encoding_format: 'float' },
    });

    const ranked = await engine.rerank('a dog', ['cat', 'Max the dog barked', 'a big dog'], 'Find passages');
    expect(ranked).toEqual([
      { index: 1, document: 'Max the dog barked', score: 0.18 },
      { index: 2, document: 'a big dog', score: 0.09 },
      { index: 0, document: 'cat', score: 0.03 },
    ]);
    expect(posts()[1]).toMatchObject({
      path: '/v1/rerank',
      body: { query: 'Find passages\nQuery: a dog', documents: ['cat', 'Max the dog barked', 'a big dog'], top_n: 3 },
    });
  });

  test('a server started without embeddings or rerank: a permanent error that says what to enable', async () => {
    offers = { embeddings: false, rerank: false };
    const engine = await ServerEngine.connect({ kind: 'llama-server', url: base });
    const e = await failure(engine.embed('x'));
    expect(e).toBeInstanceOf(InferenceServerError);
    expect(e).toMatchObject({ kind: 'unsupported', status: 501, permanent: true, url: `${base}/v1/embeddings` });
    expect(e.message).toMatch(/offers no embeddings .*HTTP 501: This server does not support embeddings.*--embeddings/);
    const r = await failure(engine.rerank('q', ['a'], ''));
    expect(r).toMatchObject({ kind: 'unsupported', status: 501, permanent: true });
    expect(r.message).toMatch(/offers no rerank .*--reranking/);
  });
});

describe('vLLM', () => {
  beforeEach(() => {
    speaks = 'vllm';
  });

  test('raw generation: POST /v1/completions with the model name and the grammar as structured_outputs.grammar', async () => {
    const engine = await ServerEngine.connect({ kind: 'vllm', url: base, apiKey: KEY });
    expect(engine.modelId).toBe(`vllm:${VLLM_MODEL}`);
    output = { text: '{"name":"Lily","age":3}', tokens: 12, limited: false };
    const out = await engine.generate({ prompt: 'Lily is 3.', maxTokens: 32, seed: 42, grammar: GBNF });
    expect(out).toEqual({ text: '{"name":"Lily","age":3}', tokens: 12, stopReason: 'eogToken', promptFormat: 'raw' });
    const [req] = posts();
    expect(req.path).toBe('/v1/completions');
    expect(req.body).toEqual({
      model: VLLM_MODEL,
      prompt: 'Lily is 3.',
      seed: 42,
      temperature: 0,
      max_tokens: 32,
      structured_outputs: { grammar: GBNF },
    });
  });

  test('a JSON Schema goes as structured_outputs.json; vllmFields guided uses guided_grammar / guided_json; chat and length', async () => {
    const engine = await ServerEngine.connect({ kind: 'vllm', url: base, model: VLLM_MODEL });
    await engine.generate({ prompt: 'x', maxTokens: 16, seed: 1, grammar: GBNF, jsonSchema: SCHEMA });
    expect(posts()[0].body.structured_outputs).toEqual({ json: SCHEMA });

    const old = await ServerEngine.connect({ kind: 'vllm', url: base, model: VLLM_MODEL, vllmFields: 'guided' });
    await old.generate({ prompt: 'x', maxTokens: 16, seed: 1, grammar: GBNF });
    await old.generate({ prompt: 'x', maxTokens: 16, seed: 1, grammar: GBNF, jsonSchema: SCHEMA });
    expect(posts()[1].body).toMatchObject({ guided_grammar: GBNF });
    expect(posts()[1].body).not.toHaveProperty('structured_outputs');
    expect(posts()[2].body).toMatchObject({ guided_json: SCHEMA });

    output = { text: 'Once', tokens: 4, limited: true };
    const out = await engine.generate({ prompt: 'Tell a story', promptFormat: 'chat', maxTokens: 4, seed: 42 });
    expect(out).toEqual({ text: 'Once', tokens: 4, stopReason: 'maxTokens', promptFormat: 'chat' });
    expect(posts()[3]).toMatchObject({
      path: '/v1/chat/completions',
      body: { model: VLLM_MODEL, max_tokens: 4, temperature: 0, seed: 42 },
    });
  });

  test('a model the server does not serve is refused at connect, naming what it serves', async () => {
    const e = await failure(ServerEngine.connect({ kind: 'vllm', url: base, model: 'meta-llama/Llama-3.1-8B' }));
    expect(e).toMatchObject({ kind: 'unsupported', permanent: true });
    expect(e.message).toMatch(
      /does not serve model 'meta-llama\/Llama-3.1-8B' \(it serves: Qwen\/Qwen2.5-0.5B-Instruct\)/,
    );
  });

  test('no embeddings endpoint (404): a permanent unsupported error', async () => {
    offers = { embeddings: false, rerank: true };
    const engine = await ServerEngine.connect({ kind: 'vllm', url: base });
    expect(await failure(engine.embed('x'))).toMatchObject({
      kind: 'unsupported',
      status: 404,
      permanent: true,
      message: expect.stringMatching(/--task embed/),
    });
  });
});

describe('failures', () => {
  test('a slow server times out (timeoutMs) and a caller abort stops a request: GenerationAbortedError naming the URL', async () => {
    const engine = await ServerEngine.connect({ kind: 'llama-server', url: base });
    override = () => ({ ...protocol({ method: 'POST', path: '/completion', body: {} }), delayMs: 1000 });
    const e = await failure(engine.generate({ prompt: 'x', maxTokens: 4, seed: 42, timeoutMs: 50 }));
    expect(e).toBeInstanceOf(GenerationAbortedError);
    expect(e.message).toBe(`request to llama-server at ${base}/completion timed out after 50 ms`);

    const slow = await ServerEngine.connect({ kind: 'llama-server', url: base, timeoutMs: 60 });
    expect((await failure(slow.embed('x'))).message).toMatch(/timed out after 60 ms/);

    const controller = new AbortController();
    const pending = failure(engine.generate({ prompt: 'x', maxTokens: 4, seed: 42, signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('timed out after 30 s (SVC_WORKER_TIMEOUT)')), 20);
    const aborted = await pending;
    expect(aborted).toBeInstanceOf(GenerationAbortedError);
    expect(aborted.message).toMatch(/was aborted: timed out after 30 s/);

    // dispose() aborts what is in flight, and what comes after.
    const inFlight = failure(engine.embed('x'));
    await engine.dispose();
    expect((await inFlight).message).toMatch(/was aborted: the engine was disposed/);
    expect(await failure(engine.generate({ prompt: 'x', maxTokens: 1, seed: 1 }))).toBeInstanceOf(
      GenerationAbortedError,
    );
    expect(() => ServerEngine.unchecked({ kind: 'tgi' as InferenceServerKind, url: base, identity: 'x' })).toThrow(
      /kind must be 'llama-server' or 'vllm'/,
    );
  });

  test('a refused connection is a retryable unreachable error, at connect and at a call', async () => {
    const port = await closedPort();
    const e = await failure(ServerEngine.connect({ kind: 'vllm', url: `http://127.0.0.1:${port}` }));
    expect(e).toBeInstanceOf(InferenceServerError);
    expect(e).toMatchObject({ kind: 'unreachable', permanent: false, url: `http://127.0.0.1:${port}/v1/models` });
    expect(e.message).toMatch(new RegExp(`cannot reach vllm at http://127.0.0.1:${port}/v1/models.*ECONNREFUSED`));

    const engine = ServerEngine.unchecked({ kind: 'llama-server', url: `http://127.0.0.1:${port}`, identity: 'x' });
    expect(await failure(engine.generate({ prompt: 'x', maxTokens: 1, seed: 1 }))).toMatchObject({
      kind: 'unreachable',
      permanent: false,
    });
  });

  test("HTTP errors carry the status and the server's message; 4xx for the request are permanent, 5xx are not", async () => {
    const engine = await ServerEngine.connect({ kind: 'llama-server', url: base });
    override = () => ({
      status: 503,
      body: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } },
    });
    const busy = await failure(engine.generate({ prompt: 'x', maxTokens: 4, seed: 42 }));
    expect(busy).toBeInstanceOf(InferenceServerError);
    expect(busy).toMatchObject({
      kind: 'http',
      status: 503,
      serverMessage: 'Loading model',
      permanent: false,
      url: `${base}/completion`,
    });
    expect(busy.message).toBe(`llama-server at ${base}/completion answered HTTP 503: Loading model`);

    override = () => ({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'the request exceeds the available context size',
          type: 'exceed_context_size_error',
        },
      },
    });
    expect(await failure(engine.generate({ prompt: 'x', maxTokens: 4, seed: 42 }))).toMatchObject({
      kind: 'http',
      status: 400,
      permanent: true,
    });

    speaks = 'vllm';
    const vllm = await ServerEngine.connect({ kind: 'vllm', url: base });
    override = () => ({ status: 500, raw: 'Internal Server Error' });
    expect(await failure(vllm.generate({ prompt: 'x', maxTokens: 4, seed: 42 }))).toMatchObject({
      status: 500,
      serverMessage: 'Internal Server Error',
      permanent: false,
    });
    override = () => ({ status: 422, body: { detail: 'max_tokens must be at least 1' } });
    expect(await failure(vllm.generate({ prompt: 'x', maxTokens: 4, seed: 42 }))).toMatchObject({
      status: 422,
      serverMessage: 'max_tokens must be at least 1',
      permanent: true,
    });
  });

  test('a grammar the server refuses is a GrammarRefusedError (the worker fails such a job at once)', async () => {
    const engine = await ServerEngine.connect({ kind: 'llama-server', url: base });
    override = () => ({
      status: 400,
      body: { error: { code: 400, message: 'Failed to parse grammar', type: 'invalid_request_error' } },
    });
    const e = await failure(engine.generate({ prompt: 'x', maxTokens: 4, seed: 42, grammar: 'root ::= (' }));
    expect(e).toBeInstanceOf(GrammarRefusedError);
    expect(e.message).toBe('llama-server refused the grammar: Failed to parse grammar');
    expect(e.cause).toMatchObject({ status: 400, url: `${base}/completion` });
  });

  test('malformed answers: a body that is not JSON, a completion without its text, an embedding without numbers', async () => {
    const engine = await ServerEngine.connect({ kind: 'llama-server', url: base });
    override = () => ({ raw: '<html>proxy login</html>' });
    const e = await failure(engine.generate({ prompt: 'x', maxTokens: 4, seed: 42 }));
    expect(e).toMatchObject({ kind: 'protocol', permanent: false });
    expect(e.message).toBe(
      `unexpected answer from ${base}/completion: it answered HTTP 200 with a body that is not JSON: <html>proxy login</html>`,
    );
    override = () => ({ body: { choices: [] } });
    expect((await failure(engine.generate({ prompt: 'x', maxTokens: 4, seed: 42 }))).message).toMatch(
      /its completion has no content/,
    );
    override = () => ({ body: { data: [{ embedding: ['a'] }] } });
    expect((await failure(engine.embed('x'))).message).toMatch(/has no embedding/);
    override = (s) =>
      s.path === '/v1/rerank' ? { body: { results: [{ index: 0, relevance_score: 0.5 }] } } : undefined;
    expect((await failure(engine.rerank('q', ['a', 'b'], ''))).message).toMatch(/no relevance_score for document 1/);
  });

  test('the API key is never in a message, even when the server echoes it; nor is a key in the URL', async () => {
    const engine = await ServerEngine.connect({ kind: 'llama-server', url: base, apiKey: KEY });
    override = () => ({
      status: 401,
      body: { error: { code: 401, message: `Invalid API Key: ${KEY}`, type: 'authentication_error' } },
    });
    const e = await failure(engine.generate({ prompt: 'x', maxTokens: 4, seed: 42 }));
    expect(e).toMatchObject({ status: 401, permanent: false });
    expect(e.message).toBe(`llama-server at ${base}/completion answered HTTP 401: Invalid API Key: [api key]`);
    expect(JSON.stringify({ ...e, message: e.message })).not.toContain(KEY);

    const port = await closedPort();
    const keyed = ServerEngine.unchecked({
      kind: 'vllm',
      url: `http://127.0.0.1:${port}/v1?key=${KEY}`,
      identity: 'x',
    });
    const unreachable = await failure(keyed.embed('x'));
    expect(unreachable.message).toMatch(
      new RegExp(`^cannot reach vllm at http://127.0.0.1:${port}/v1/embeddings: connect ECONNREFUSED`),
    );
    expect(`${unreachable.message} ${unreachable.url}`).not.toContain(KEY);
    const credentials = await failure(ServerEngine.connect({ kind: 'vllm', url: `http://user:${KEY}@127.0.0.1:1` }));
    expect(credentials).toBeInstanceOf(RangeError);
    expect(credentials.message).toMatch(/carries credentials: give the key as apiKey/);
    expect(credentials.message).not.toContain(KEY);
  });
});

test('a model given as a server: <kind>+<url>[#model]; paths stay paths; a bare URL must say its protocol', () => {
  expect(parseServerSpec('llama-server+http://gpu-1:8080')).toEqual({
    kind: 'llama-server',
    url: 'http://gpu-1:8080/',
  });
  expect(parseServerSpec('vllm+https://vllm.internal/v1#Qwen/Qwen2.5-7B-Instruct')).toEqual({
    kind: 'vllm',
    url: 'https://vllm.internal/v1',
    model: 'Qwen/Qwen2.5-7B-Instruct',
  });
  expect(parseServerSpec('/models/qwen.gguf')).toBeUndefined();
  expect(parseServerSpec('hf:user/repo/file.gguf')).toBeUndefined();
  expect(() => parseServerSpec('http://gpu-1:8080')).toThrow(
    /say which protocol the server speaks: llama-server\+http:\/\/gpu-1:8080\/ or vllm\+/,
  );
});

describe("the worker's job runner on a server engine", () => {
  const job = (parameters: Record<string, unknown>): ClaimedJob => ({
    request_id: '00000000-0000-0000-0000-000000000001',
    function_name: 'generate_json',
    parameters: { prompt: 'Tom is 9.', max_tokens: 32, seed: 42, ...parameters },
    grammar: GBNF,
    attempt: 1,
    retry_count: 0,
    priority: 0,
    waited: false,
  });

  test('passes the job grammar to the server unchanged and checks the output locally against the schema', async () => {
    speaks = 'vllm';
    // runJob is typed with Engine; it calls only what InferenceEngine has.
    const engine = (await ServerEngine.connect({ kind: 'vllm', url: base })) as unknown as Engine;
    output = { text: '{"name":"Tom","age":9}', tokens: 11, limited: false };
    expect(await runJob(engine, job({ schema: SCHEMA }), new AbortController().signal)).toEqual({
      result: '{"name":"Tom","age":9}',
      stopReason: 'end',
    });
    expect(posts()[0].body.structured_outputs).toEqual({ grammar: GBNF });

    output = { text: '{"name":"Max","age":9}', tokens: 11, limited: false };
    const e = await failure(runJob(engine, job({ schema: SCHEMA }), new AbortController().signal));
    expect(e).toBeInstanceOf(PermanentJobError);
    expect(e.message).toMatch(/the output breaks its constraint/);

    override = () => ({ status: 400, body: { detail: 'Invalid grammar specification' } });
    const refused = await failure(runJob(engine, job({ schema: SCHEMA }), new AbortController().signal));
    expect(refused).toBeInstanceOf(PermanentJobError);
    expect(refused.message).toMatch(
      /^vllm refused the job's grammar: vllm at .* answered HTTP 400: Invalid grammar specification/,
    );
  });
});
