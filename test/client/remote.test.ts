// Remote providers against a local HTTP server on loopback speaking the OpenAI chat-completions
// protocol: request fields per constraint and provider, local validation of every answer, errors.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import {
  ClientError,
  DEFAULT_REMOTE_TIMEOUT_MS,
  GenerationAbortedError,
  configure,
  generate,
  generateChoice,
  generateFormat,
  generateJson,
  generateRegex,
} from '../../src/client/index.js';

interface Seen {
  path: string;
  auth?: string;
  body: any;
}
let server: Server;
let seen: Seen[] = [];
/** What the server answers next: a status and a JSON body (or a function of the request). */
let answer: (body: any) => { status?: number; body: unknown; delayMs?: number } = () => ({ body: {} });
const ENV_KEYS = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENROUTER_API_KEY',
  'OPENROUTER_BASE_URL',
  'DEEPSEEK_API_KEY',
  'DEEPSEEK_BASE_URL',
];
const saved: Record<string, string | undefined> = {};

const completion = (content: string, finish = 'stop', extra: object = {}) => ({
  body: {
    id: 'c1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content, ...extra }, finish_reason: finish }],
  },
});

beforeAll(async () => {
  for (const k of ENV_KEYS) saved[k] = process.env[k];
  server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : undefined;
    seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
    const a = answer(body);
    if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
    res.end(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.OPENAI_API_KEY = 'sk-openai-test';
  process.env.OPENAI_BASE_URL = `${base}/v1`;
  process.env.OPENROUTER_API_KEY = 'sk-or-test';
  process.env.OPENROUTER_BASE_URL = `${base}/api/v1/`;
  process.env.DEEPSEEK_API_KEY = 'sk-ds-test';
  process.env.DEEPSEEK_BASE_URL = base;
});
afterAll(async () => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  seen = [];
});

const unsafe = { unsafeMode: true } as const;
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => undefined,
    (e) => e,
  )) as ClientError;

describe('openai', () => {
  const model = 'openai:gpt-4o-mini';

  test('schema: structured output (json_schema, strict), key from OPENAI_API_KEY, validated and typed', async () => {
    const Person = z.object({ name: z.string(), age: z.number().int() });
    answer = () => completion('{"name":"Ada","age":36}');
    const person = await generateJson('Who?', Person, { model, ...unsafe, maxTokens: 100 });
    expect(person).toEqual({ name: 'Ada', age: 36 });
    const { path, auth, body } = seen[0];
    expect(path).toBe('/v1/chat/completions');
    expect(auth).toBe('Bearer sk-openai-test');
    expect(body).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0,
      seed: 42,
      max_completion_tokens: 100,
      messages: [{ role: 'user', content: 'Who?' }],
    });
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(body.response_format.json_schema.schema).toMatchObject({
      type: 'object',
      required: ['name', 'age'],
      additionalProperties: false,
    });
    expect(body.response_format.json_schema.schema.$schema).toBeUndefined();
  });

  test('generate with a schema wraps the JSON in <json-output>; optional properties ask without strict', async () => {
    answer = () => completion('{"a":1}');
    const out = await generate('x', {
      schema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' } } },
      model,
      ...unsafe,
      seed: 7,
    });
    expect(out).toBe('<json-output>{"a":1}</json-output>');
    expect(seen[0].body.seed).toBe(7);
    expect(seen[0].body.response_format.json_schema.strict).toBe(false);
  });

  test('a non-object schema is sent wrapped as {"value": ...} and unwrapped', async () => {
    answer = () => completion('{"value":12.5}');
    const n: number = await generateFormat('How much?', Number, { model, ...unsafe });
    expect(n).toBe(12.5);
    expect(seen[0].body.response_format.json_schema.schema).toEqual({
      type: 'object',
      properties: { value: { type: 'number' } },
      required: ['value'],
      additionalProperties: false,
    });
    answer = () => completion('{"value":true}');
    expect(await generateFormat('Yes?', Boolean, { model, ...unsafe })).toBe(true);
  });

  test('choices: an enum; regex: an anchored pattern', async () => {
    answer = () => completion('{"value":"green"}');
    expect(await generateChoice('Color?', ['red', 'green'], { model, ...unsafe })).toBe('green');
    expect(seen[0].body.response_format.json_schema.schema.properties.value).toEqual({
      type: 'string',
      enum: ['red', 'green'],
    });
    answer = () => completion('{"value":"AB-12"}');
    expect(await generateRegex('Code?', '[A-Z]{2}-[0-9]{2}', { model, ...unsafe })).toBe('AB-12');
    expect(seen[1].body.response_format.json_schema.schema.properties.value).toEqual({
      type: 'string',
      pattern: '^(?:[A-Z]{2}-[0-9]{2})$',
    });
    answer = () => completion('{"value":"no"}');
    expect(await generate('Code?', { regex: '[a-z]+', model, ...unsafe })).toBe('no');
  });

  test('regex flags cannot be sent: unsupported-constraint, no request made', async () => {
    const e = await failure(generateRegex('x', /abc/i, { model, ...unsafe }));
    expect(e.code).toBe('unsupported-constraint');
    expect(seen).toHaveLength(0);
  });

  test('plain generation returns the content as it is', async () => {
    answer = () => completion('Hello there');
    expect(await generate('Hi', { model, ...unsafe })).toBe('Hello there');
    expect(seen[0].body.response_format).toBeUndefined();
  });

  test('the answer is validated locally: schema, choice and pattern violations', async () => {
    answer = () => completion('{"name":"Ada","age":"old"}');
    const e1 = await failure(generateJson('x', z.object({ name: z.string(), age: z.number() }), { model, ...unsafe }));
    expect(e1.code).toBe('validation-failed');
    expect(e1.output).toBe('{"name":"Ada","age":"old"}');
    answer = () => completion('{"value":"purple"}');
    expect((await failure(generateChoice('x', ['red', 'green'], { model, ...unsafe }))).code).toBe('validation-failed');
    answer = () => completion('{"value":"abc"}');
    expect((await failure(generateRegex('x', '[0-9]+', { model, ...unsafe }))).message).toMatch(
      /does not match the pattern/,
    );
    answer = () => completion('not json');
    expect((await failure(generateJson('x', { type: 'object' }, { model, ...unsafe }))).message).toMatch(/not JSON/);
  });

  test('finish_reason length with an unsatisfied constraint: incomplete-output', async () => {
    answer = () => completion('{"name":"Ad', 'length');
    const e = await failure(generateJson('x', z.object({ name: z.string() }), { model, ...unsafe, maxTokens: 3 }));
    expect(e.code).toBe('incomplete-output');
    expect(e.message).toMatch(/cut at maxTokens \(3\)/);
  });

  test('HTTP errors, refusals and odd answers: provider-error', async () => {
    answer = () => ({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const e = await failure(generate('x', { model, ...unsafe }));
    expect(e.code).toBe('provider-error');
    expect(e.status).toBe(401);
    expect(e.message).toMatch(/openai answered HTTP 401: Incorrect API key provided/);
    answer = () => completion('', 'stop', { refusal: 'I cannot help with that.' });
    expect((await failure(generateJson('x', { type: 'object' }, { model, ...unsafe }))).message).toMatch(
      /refused: I cannot help/,
    );
    answer = () => ({ body: { nothing: true } });
    expect((await failure(generate('x', { model, ...unsafe }))).message).toMatch(/without a chat completion/);
    answer = () => ({ status: 502, body: 'Bad Gateway' });
    expect((await failure(generate('x', { model, ...unsafe }))).message).toMatch(/HTTP 502: Bad Gateway/);
  });

  test('unsafeMode is required, and nothing is sent without it', async () => {
    for (const p of [
      generate('x', { model }),
      generateJson('x', Number, { model, unsafeMode: false }),
      generateChoice('x', ['a'], { model }),
    ]) {
      const e = await failure(p);
      expect(e.code).toBe('unsafe-mode-required');
      expect(e.message).toMatch(/needs? unsafeMode: true/);
    }
    expect(seen).toHaveLength(0);
  });

  test('a missing key names its environment variable', async () => {
    const key = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const e = await failure(generate('x', { model, ...unsafe }));
      expect(e.code).toBe('missing-api-key');
      expect(e.message).toMatch(/set OPENAI_API_KEY/);
    } finally {
      process.env.OPENAI_API_KEY = key;
    }
  });

  test('timeoutMs aborts a slow provider; an unreachable one is a provider-error', async () => {
    answer = () => ({ ...completion('late'), delayMs: 1000 });
    expect(await failure(generate('x', { model, ...unsafe, timeoutMs: 50 }))).toBeInstanceOf(GenerationAbortedError);
    // Without a timeoutMs of its own a call has configure's remoteTimeoutMs (default two minutes).
    expect(DEFAULT_REMOTE_TIMEOUT_MS).toBe(120_000);
    configure({ remoteTimeoutMs: 50 });
    try {
      const late = await failure(generate('x', { model, ...unsafe }));
      expect(late).toBeInstanceOf(GenerationAbortedError);
      expect(late.message).toMatch(/timed out after 50 ms/);
    } finally {
      configure({ remoteTimeoutMs: undefined });
    }
    expect(() => configure({ remoteTimeoutMs: 0 })).toThrow(/remoteTimeoutMs must be a positive number/);
    const base = process.env.OPENAI_BASE_URL;
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:1/v1';
    try {
      const e = await failure(generate('x', { model, ...unsafe }));
      expect(e.code).toBe('provider-error');
      expect(e.message).toMatch(/cannot reach openai/);
    } finally {
      process.env.OPENAI_BASE_URL = base;
    }
  });
});

describe('openrouter (structured outputs, max_tokens)', () => {
  test('schema and choices', async () => {
    answer = () => completion('{"ok":true}');
    expect(
      await generateJson('x', z.object({ ok: z.boolean() }), {
        model: 'openrouter:meta-llama/llama-3.1-8b-instruct',
        ...unsafe,
        maxTokens: 50,
      }),
    ).toEqual({
      ok: true,
    });
    const { path, auth, body } = seen[0];
    expect(path).toBe('/api/v1/chat/completions');
    expect(auth).toBe('Bearer sk-or-test');
    expect(body.model).toBe('meta-llama/llama-3.1-8b-instruct');
    expect(body.max_tokens).toBe(50);
    expect(body.max_completion_tokens).toBeUndefined();
    expect(body.response_format.type).toBe('json_schema');
    answer = () => completion('{"value":"b"}');
    expect(await generateChoice('x', ['a', 'b'], { model: 'openrouter:some/model', ...unsafe })).toBe('b');
  });
});

describe('deepseek (JSON mode only)', () => {
  const model = 'deepseek:deepseek-chat';

  test('schema: json_object mode with the schema in a system message, validated locally', async () => {
    answer = () => completion('{"city":"Paris"}');
    expect(
      await generateJson(
        'Capital of France?',
        { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        { model, ...unsafe },
      ),
    ).toEqual({ city: 'Paris' });
    const { path, auth, body } = seen[0];
    expect(path).toBe('/chat/completions');
    expect(auth).toBe('Bearer sk-ds-test');
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[0].content).toMatch(/JSON Schema/);
    expect(body.messages[1]).toEqual({ role: 'user', content: 'Capital of France?' });
    answer = () => completion('{"town":"Paris"}');
    expect(
      (
        await failure(
          generateJson(
            'x',
            { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            { model, ...unsafe },
          ),
        )
      ).code,
    ).toBe('validation-failed');
  });

  test('regex and choices cannot be enforced: a clear error, nothing sent', async () => {
    const r = await failure(generateRegex('x', '[a-z]+', { model, ...unsafe }));
    expect(r.code).toBe('unsupported-constraint');
    expect(r.message).toMatch(/deepseek offers only JSON mode, which cannot enforce a regex/);
    const c = await failure(generateChoice('x', ['a', 'b'], { model, ...unsafe }));
    expect(c.message).toMatch(/cannot enforce a list of choices/);
    expect(seen).toHaveLength(0);
  });
});

describe('systemPrompt', () => {
  test("is the first message, a system message (before a JSON-mode provider's schema message)", async () => {
    answer = () => completion('hello');
    await generate('Hi', { model: 'openai:gpt-4o-mini', ...unsafe, systemPrompt: 'Be brief.' });
    expect(seen[0].body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
    answer = () => completion('{"a":1}');
    await generateJson(
      'Hi',
      { type: 'object' },
      { model: 'deepseek:deepseek-chat', ...unsafe, systemPrompt: 'Be brief.' },
    );
    expect(seen[1].body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'system', 'user']);
    expect(seen[1].body.messages[0].content).toBe('Be brief.');
  });
});
