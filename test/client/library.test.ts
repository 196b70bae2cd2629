// The client library on the local tiny test model: every function, option and error.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  ClientError,
  ConstraintError,
  GenerationAbortedError,
  ModelLoadError,
  configure,
  embed,
  generate,
  generateChoice,
  generateFormat,
  generateJson,
  generateRegex,
  generateStream,
  loadModel,
  rerank,
  resolveModel,
  unloadModels,
} from '../../src/client/index.js';
import { localEngine } from '../../src/client/local.js';
import { makeTestModel } from '../../src/model/test-model.js';
import { EMBED_MODEL, STORIES_MODEL } from '../helpers/real-models.js';

let dir: string;
let model: string;
const savedEnv = process.env.SVC_MODEL;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-client-'));
  model = join(dir, 'test.gguf');
  writeFileSync(model, makeTestModel());
  delete process.env.SVC_MODEL;
  configure({ model, threads: 2 });
});
afterAll(async () => {
  await unloadModels();
  configure({ model: undefined, threads: undefined });
  if (savedEnv !== undefined) process.env.SVC_MODEL = savedEnv;
  rmSync(dir, { recursive: true, force: true });
});

const code = async (p: Promise<unknown>) => {
  const error = await p.then(
    () => undefined,
    (e) => e,
  );
  expect(error).toBeDefined();
  return error as { code?: string; message: string };
};

const Person = z.object({
  name: z.enum(['Ada', 'Alan', 'Grace']),
  age: z.number().int().min(0).max(120),
  member: z.boolean(),
});

describe('generate', () => {
  test('with a schema: the JSON inside <json-output> tags (JSON Schema, Zod, basic type)', async () => {
    const jsonSchema = {
      type: 'object',
      properties: { ok: { type: 'boolean' }, n: { type: 'integer', minimum: 0, maximum: 99 } },
      required: ['ok', 'n'],
    };
    const a = await generate('Answer:', { schema: jsonSchema });
    expect(a).toMatch(/^<json-output>\{"ok":(true|false),"n":\d{1,2}\}<\/json-output>$/);
    const b = await generate('Person:', { schema: Person });
    const inner = JSON.parse(b.replace(/^<json-output>/, '').replace(/<\/json-output>$/, ''));
    expect(Person.parse(inner)).toEqual(inner);
    expect(await generate('Yes?', { schema: Boolean })).toMatch(/^<json-output>(true|false)<\/json-output>$/);
  });

  test('with a regex, with choices, and plain', async () => {
    expect(await generate('Code:', { regex: '[A-Z]{3}-[0-9]{3}' })).toMatch(/^[A-Z]{3}-[0-9]{3}$/);
    expect(['red', 'green', 'blue']).toContain(await generate('Color:', { choices: ['red', 'green', 'blue'] }));
    const plain = await generate('Hello', { maxTokens: 8 });
    expect(typeof plain).toBe('string');
  });

  test('deterministic: the same call gives the same result; seed is accepted (greedy decoding, the default, ignores it)', async () => {
    const first = await generate('Person:', { schema: Person, seed: 42 });
    expect(await generate('Person:', { schema: Person })).toBe(first);
    expect(await generate('Person:', { schema: Person, seed: 7 })).toBe(first);
    expect(await generate('Hello', { maxTokens: 12 })).toBe(await generate('Hello', { maxTokens: 12 }));
  });

  test('sampling: temperature above 0 draws under the seed (the same call, the same bytes; another seed, others), inside a constraint; stop strings end the output', async () => {
    const sampled = (seed: number) =>
      generate('Hello', { maxTokens: 24, seed, temperature: 1.5, topK: 0, topP: 1, minP: 0 });
    const a = await sampled(1);
    expect(await sampled(1)).toBe(a);
    expect(new Set([a, await sampled(2), await sampled(3)]).size).toBe(3);
    for (const seed of [1, 2, 3])
      expect(await generateRegex('x', '[a-z]{3}-[0-9]{2}', { seed, temperature: 2, topK: 0 })).toMatch(
        /^[a-z]{3}-[0-9]{2}$/,
      );
    const person = await generateJson('Person:', Person, { seed: 5, temperature: 2, topK: 0 });
    expect(Person.parse(person)).toEqual(person);
    // Stop strings: the output ends before the first one; the stream's done event says why.
    const greedy = await generate('Hello', { maxTokens: 40 });
    // Two printable ASCII characters past the start (U+FFFD stands for bytes that are not UTF-8: no stop string is them).
    const at = [...greedy.matchAll(/[!-~]{2}/g)].find((m) => m.index! >= 3)!.index!;
    const stop = greedy.slice(at, at + 2);
    expect(await generate('Hello', { maxTokens: 40, stop: [stop] })).toBe(greedy.slice(0, greedy.indexOf(stop)));
    const events = [];
    for await (const event of generateStream('Hello', { maxTokens: 40, stop: [stop] })) events.push(event);
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      result: greedy.slice(0, greedy.indexOf(stop)),
      stopReason: 'stopString',
    });
  });

  test('sampling options and stop strings are checked, each error naming the option and its rule', async () => {
    const cases: Array<[object, string]> = [
      [{ temperature: 3 }, 'generate: temperature must be a number from 0 to 2 (got 3)'],
      [{ temperature: -1 }, 'generate: temperature must be a number from 0 to 2 (got -1)'],
      [{ topK: 1.5 }, 'generate: topK must be an integer from 0 (every token) to 2147483647 (got 1.5)'],
      [{ topP: 0 }, 'generate: topP must be a number above 0 and at most 1 (got 0)'],
      [{ minP: 1 }, 'generate: minP must be a number from 0 to below 1 (got 1)'],
      [{ stop: 'x' }, 'generate: stop must be an array of strings; got "x"'],
      [{ stop: ['a', ''] }, 'generate: stop[1] must not be empty'],
      [{ stop: ['x'.repeat(1001)] }, 'generate: stop[0] must be at most 1000 characters (got 1001)'],
    ];
    for (const [options, message] of cases)
      expect(await code(generate('x', options as never))).toMatchObject({ code: 'invalid-options', message });
    expect(await code(generateChoice('x', ['a'], { temperature: Number.NaN }))).toMatchObject({
      message: 'generateChoice: temperature must be a number from 0 to 2 (got NaN)',
    });
  });

  test('two constraints at once are a clear error', async () => {
    const e = await code(generate('x', { schema: Number, regex: 'a' }));
    expect(e.code).toBe('invalid-options');
    expect(e.message).toMatch(/exactly one of schema, regex or choices; got schema and regex/);
    expect((await code(generate('x', { regex: 'a', choices: ['a'] }))).message).toMatch(/regex and choices/);
  });

  test('wrong types are clear errors', async () => {
    expect((await code(generate('x', { schema: 42 as never }))).message).toMatch(
      /schema must be a JSON Schema object, a Zod schema, or a basic type/,
    );
    expect((await code(generate('x', { schema: [] as never }))).message).toMatch(/got an array/);
    expect((await code(generate('x', { schema: Date as never }))).message).toMatch(/the function Date/);
    expect((await code(generate('x', { regex: 5 as never }))).message).toMatch(/regex must be a string/);
    expect((await code(generate('x', { choices: 'a,b' as never }))).message).toMatch(
      /choices must be an array of strings/,
    );
    expect((await code(generate('x', { choices: ['a', 1] as never }))).message).toMatch(/choice 1 is number/);
    expect((await code(generate(5 as never))).message).toMatch(/prompt must be a string/);
    expect((await code(generate('x', 'opts' as never))).message).toMatch(/options must be an object/);
    for (const e of [
      await code(generate('x', { maxTokens: 0 })),
      await code(generate('x', { maxTokens: 1.5 })),
      await code(generate('x', { seed: -1 })),
      await code(generate('x', { seed: 'a' as never })),
      await code(generate('x', { unsafeMode: 'yes' as never })),
      await code(generate('x', { timeoutMs: 0 })),
      await code(generate('x', { signal: {} as never })),
      await code(generate('x', { model: '' })),
      await code(generate('x', { schema: { type: 'object' }, openObjects: 'yes' as never })),
      await code(generate('x', { schema: { type: 'object' }, strictSchema: 1 as never })),
      await code(generate('x', { regex: 'a', openObjects: true })),
    ]) {
      expect(e.code).toBe('invalid-options');
    }
    expect((await code(generate('x', { schema: { type: 'object' }, openObjects: 'yes' as never }))).message).toBe(
      'generate: openObjects must be a boolean; got "yes"',
    );
    expect((await code(generate('x', { regex: 'a', openObjects: true }))).message).toBe(
      'generate: openObjects applies to schema only',
    );
    const typo = await code(generate('x', { max_tokens: 5 } as never));
    expect(typo.message).toMatch(/unknown option 'max_tokens' \(did you mean 'maxTokens'\?\)/);
  });

  test('an invalid constraint is a ConstraintError with its code', async () => {
    const bad = await code(generate('x', { regex: '[a-' }));
    expect(bad).toBeInstanceOf(ConstraintError);
    expect(bad.code).toBe('invalid-regex');
    expect(((await code(generate('x', { choices: [] }))) as ConstraintError).code).toBe('invalid-input');
    // An unknown keyword is an annotation (JSON Schema 2020-12), refused only with strictSchema.
    expect(
      ((await code(generate('x', { schema: { type: 'object', foo: 1 }, strictSchema: true }))) as ConstraintError).code,
    ).toBe('unsupported-keyword');
  });

  test('maxTokens below the fewest tokens the constraint takes: incomplete-output at once, naming that minimum', async () => {
    const e = (await code(generateRegex('x', '[a-z]{40}', { maxTokens: 5 }))) as ClientError;
    expect(e).toBeInstanceOf(ClientError);
    expect(e.code).toBe('incomplete-output');
    expect(e.message).toBe(
      'generateRegex: maxTokens 5 is below the 40 tokens the shortest output of this constraint takes on this model; raise maxTokens',
    );
    expect(e.output).toBe('');
    expect(
      (await code(generate('x', { schema: { type: 'array', items: { type: 'integer' }, minItems: 30 }, maxTokens: 6 })))
        .code,
    ).toBe('incomplete-output');
  });

  test('output the grammar allows but the schema does not: validation-failed (checked locally)', async () => {
    // A step of 1,000,003 needs an automaton of as many states: multipleOf is left to the validator (listed).
    const e = (await code(generateJson('x', { type: 'integer', minimum: 1, multipleOf: 1000003 }))) as ClientError;
    expect(e.code).toBe('validation-failed');
    expect(e.message).toMatch(/multiple of 1000003/);
    const never = z.enum(['a', 'b']).refine(() => false, 'never good enough');
    const z1 = (await code(generateJson('x', never, { maxTokens: 64 }))) as ClientError;
    expect(z1.code).toBe('validation-failed');
    expect(z1.message).toMatch(/never good enough/);
  });

  test('timeoutMs and signal abort a generation', async () => {
    const t = await code(generate('x', { maxTokens: 2000, timeoutMs: 20 }));
    expect(t).toBeInstanceOf(GenerationAbortedError);
    const controller = new AbortController();
    controller.abort();
    expect(await code(generate('x', { signal: controller.signal }))).toBeInstanceOf(GenerationAbortedError);
  });
});

describe('generateJson', () => {
  test('Zod: the parsed, validated, typed value', async () => {
    const person = await generateJson('Person:', Person);
    const name: 'Ada' | 'Alan' | 'Grace' = person.name; // typed from the Zod schema
    expect(['Ada', 'Alan', 'Grace']).toContain(name);
    expect(Number.isInteger(person.age)).toBe(true);
    expect(typeof person.member).toBe('boolean');
    // Zod transforms apply to the output.
    const shout = await generateJson('x', z.object({ pick: z.enum(['a', 'b']).transform((s) => s.toUpperCase()) }));
    expect(['A', 'B']).toContain(shout.pick);
  });

  test('JSON Schema object (draft 2020-12 and draft-07), and basic types', async () => {
    const v = await generateJson<{ color: string }>('x', {
      type: 'object',
      properties: { color: { enum: ['red', 'blue'] } },
      required: ['color'],
    });
    expect(['red', 'blue']).toContain(v.color);
    const d7 = await generateJson('x', {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'boolean' }],
      additionalItems: false,
      minItems: 1,
    });
    expect(d7).toEqual([expect.any(Boolean)]);
    const n: number = await generateJson('x', 'integer');
    expect(Number.isInteger(n)).toBe(true);
    const s: string = await generateJson('x', String, { maxTokens: 200 });
    expect(typeof s).toBe('string');
  });

  test('options are checked', async () => {
    expect((await code(generateJson('x', undefined as never))).message).toMatch(/schema is required/);
    expect((await code(generateJson('x', Person, { schema: {} } as never))).message).toMatch(/unknown option 'schema'/);
    expect((await code(generateJson('x', 'color' as never))).message).toMatch(/unknown type 'color'/);
    const date = await code(generateJson('x', z.object({ when: z.date() })));
    expect(date).toBeInstanceOf(ConstraintError);
    expect(date.message).toMatch(/this Zod schema has no JSON Schema form/);
  });
});

describe('generateRegex, generateChoice, generateFormat', () => {
  test('generateRegex: a string or a RegExp (flags i, s)', async () => {
    expect(await generateRegex('Code:', '[A-Z]{2}[0-9]{2}')).toMatch(/^[A-Z]{2}[0-9]{2}$/);
    expect(await generateRegex('Code:', /[a-c]{2}x/i)).toMatch(/^[a-c]{2}x$/i);
    expect(await generateRegex('Code:', /[0-9]{2}/g)).toMatch(/^[0-9]{2}$/);
    expect((await code(generateRegex('Code:', /a/m))).message).toMatch(/regex flags 'm' are not supported/);
  });

  test('generateChoice: one of the choices, typed as their union', async () => {
    const c: 'yes' | 'no' | 'maybe' = await generateChoice('Answer:', ['yes', 'no', 'maybe'] as const);
    expect(['yes', 'no', 'maybe']).toContain(c);
    expect(await generateChoice('Answer:', ['yes', 'no', 'maybe'])).toBe(c);
    expect((await code(generateChoice('x', 'yes' as never))).code).toBe('invalid-options');
  });

  test('generateFormat: Number → number, Boolean → boolean, integer → integer, String → string', async () => {
    const n: number = await generateFormat('How many?', Number);
    expect(typeof n).toBe('number');
    expect(Number.isFinite(n)).toBe(true);
    const b: boolean = await generateFormat('Yes?', Boolean);
    expect(typeof b).toBe('boolean');
    const i = await generateFormat('How many?', 'int');
    expect(Number.isInteger(i)).toBe(true);
    expect(typeof (await generateFormat('Hello str', String, { maxTokens: 100 }))).toBe('string');
    expect((await code(generateFormat('x', Date as never))).message).toMatch(/type must be Number, Boolean, String/);
    expect((await code(generateFormat('x', { type: 'integer' } as never))).code).toBe('invalid-options');
  });
});

describe('models', () => {
  test('local models load once and are reused', async () => {
    const a = await localEngine(model);
    const b = await localEngine(model);
    expect(b).toBe(a);
    const info = await loadModel();
    expect(info).toMatchObject({ path: model, dimension: 64, hasRankingHead: false });
    expect(info.modelId).toBe(a.modelId);
    expect(await loadModel(model)).toEqual(info);
  });

  test('model strings: paths, local:, hf:, <provider>:<name>', () => {
    expect(resolveModel('/m/x.gguf')).toEqual({ kind: 'local', path: '/m/x.gguf' });
    expect(resolveModel('local:rel/x.gguf')).toEqual({ kind: 'local', path: 'rel/x.gguf' });
    expect(resolveModel('hf:user/repo/file.gguf')).toEqual({ kind: 'local', path: 'hf:user/repo/file.gguf' });
    expect(resolveModel('openai:gpt-4o-mini')).toEqual({ kind: 'remote', provider: 'openai', name: 'gpt-4o-mini' });
    expect(resolveModel('OpenRouter:meta/llama')).toEqual({
      kind: 'remote',
      provider: 'openrouter',
      name: 'meta/llama',
    });
    expect(resolveModel(undefined)).toEqual({ kind: 'local', path: model });
  });

  test("named local models: configure({ models }) and SVC_MODEL's NAME=PATH entries, as the worker reads them", async () => {
    configure({ model: undefined });
    try {
      process.env.SVC_MODEL = `writer=${model},fast=openai:gpt-4o-mini,remote=llama-server+http://127.0.0.1:9`;
      expect(resolveModel('writer')).toEqual({ kind: 'local', path: model });
      expect(resolveModel('fast')).toEqual({ kind: 'remote', provider: 'openai', name: 'gpt-4o-mini' });
      // The same call, by name and by path: one engine, the same bytes.
      expect(await generate('Once upon a time', { model: 'writer', maxTokens: 8 })).toBe(
        await generate('Once upon a time', { model, maxTokens: 8 }),
      );
      const serverName = await code(generate('x', { model: 'remote' }));
      expect(serverName.code).toBe('invalid-options');
      expect(serverName.message).toMatch(
        /model 'remote' is an inference server .*: the worker serves inference servers, the library runs GGUF files/,
      );
      // A mistyped name: neither a name nor a file, and the names are listed.
      const typo = await code(generate('x', { model: 'writr' }));
      expect(typo.code).toBe('model-not-found');
      expect(typo.message).toMatch(
        /model 'writr' is neither a named model \(the names are writer, fast, remote\), a model svc knows \(stories260K, svc-embed, bge-small-en, .*\) nor a file/,
      );
      // No 'default' entry and no configure({ model }): the error lists the names.
      const none = await code(generate('x'));
      expect(none.code).toBe('model-not-configured');
      expect(none.message).toBe(
        "no default model: the named models are writer, fast, remote; pass { model: 'writer' } or call configure({ model })",
      );
      // configure({ models }) adds names and wins over SVC_MODEL's; configure({ model }) may be a name.
      configure({ models: { writer: '/elsewhere/w.gguf', story: model }, model: 'story' });
      expect(resolveModel('writer')).toEqual({ kind: 'local', path: '/elsewhere/w.gguf' });
      expect(resolveModel(undefined)).toEqual({ kind: 'local', path: model });
      // A bare PATH entry is the model named 'default', the default.
      configure({ models: undefined, model: undefined });
      process.env.SVC_MODEL = `${model},other=/x/o.gguf`;
      expect(resolveModel(undefined)).toEqual({ kind: 'local', path: model });
      expect(resolveModel('default')).toEqual({ kind: 'local', path: model });
      // Bad lists and bad names name the rule.
      process.env.SVC_MODEL = 'a=x.gguf,a=y.gguf';
      expect(() => resolveModel('a')).toThrow('SVC_MODEL: the model name "a" is given twice');
      delete process.env.SVC_MODEL;
      expect(() => configure({ models: { 'bad name': 'x.gguf' } })).toThrow(
        /models: the name 'bad name' must be letters, digits/,
      );
      expect(() => configure({ models: { ok: '' } })).toThrow(/models.ok must be a non-empty path/);
      expect(() => configure({ models: ['x.gguf'] as never })).toThrow(/models must be an object of name → GGUF path/);
    } finally {
      delete process.env.SVC_MODEL;
      configure({ model, models: undefined });
    }
  });

  test("unknown provider, remote without unsafeMode, missing model file, no model configured (svc's defaults)", async () => {
    const unknown = await code(generate('x', { model: 'acme:big-model' }));
    expect(unknown.code).toBe('unknown-provider');
    expect(unknown.message).toMatch(/remote providers are openai, openrouter, deepseek/);
    const unsafe = await code(generateJson('x', Person, { model: 'openai:gpt-4o' }));
    expect(unsafe.code).toBe('unsafe-mode-required');
    expect(unsafe.message).toMatch(/remote models need unsafeMode: true, because the prompt is sent to openai/);
    expect(await code(generate('x', { model: join(dir, 'absent.gguf') }))).toBeInstanceOf(ModelLoadError);
    configure({ model: undefined });
    try {
      // Nothing configured: the shipped generator generates, the shipped embedder embeds and ranks (#53).
      expect(resolveModel(undefined)).toEqual({ kind: 'local', path: STORIES_MODEL });
      expect(resolveModel(undefined, 'embed')).toEqual({ kind: 'local', path: EMBED_MODEL });
      expect(resolveModel(undefined, 'rerank')).toEqual({ kind: 'local', path: EMBED_MODEL });
      process.env.SVC_MODEL = model;
      expect(['a', 'b']).toContain(await generateChoice('x', ['a', 'b']));
    } finally {
      delete process.env.SVC_MODEL;
      configure({ model });
    }
    expect(() => configure({ modle: 'x' } as never)).toThrow(/unknown setting 'modle'/);
  });
});

describe('embed and rerank', () => {
  test('embed: L2-normalized vector of the model dimension', async () => {
    const v = await embed('hello');
    expect(v).toHaveLength(64);
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(await embed('hello', { model })).toEqual(v);
    expect((await code(embed('x', { model: 'openai:text-embedding-3-small' }))).code).toBe('unsupported-operation');
    expect((await code(embed(3 as never))).code).toBe('invalid-options');
  });

  test('embed: empty or whitespace-only text is an invalid-options error naming the parameter, as svc_embed in SQL', async () => {
    for (const text of ['', ' ', '\n\t ']) {
      const error = await code(embed(text));
      expect(error).toBeInstanceOf(ClientError);
      expect(error.code).toBe('invalid-options');
      expect(error.message).toBe('embed: text must not be empty');
    }
  });

  test('rerank: best first with index, document and score; task is used', async () => {
    const docs = ['cats purr', 'dogs bark', 'fish swim'];
    const ranked = await rerank('cat', docs);
    expect(ranked.map((r) => r.index).sort()).toEqual([0, 1, 2]);
    for (const r of ranked) expect(r.document).toBe(docs[r.index]);
    expect(ranked[0].score).toBeGreaterThanOrEqual(ranked[2].score);
    const other = await rerank('cat', docs, { task: 'A different instruction' });
    expect(other.map((r) => r.score)).not.toEqual(ranked.map((r) => r.score));
    expect((await code(rerank('q', 'doc' as never))).code).toBe('invalid-options');
    expect((await code(rerank('q', ['a'], { task: 1 as never }))).code).toBe('invalid-options');
  });

  test('rerank: topK gives the best topK of the same ranking, scores identical; a bad topK is an invalid-options error naming it', async () => {
    const docs = ['cats purr', 'dogs bark', 'fish swim', 'birds sing'];
    const all = await rerank('cat', docs);
    expect(await rerank('cat', docs, { topK: 2 })).toEqual(all.slice(0, 2));
    expect(await rerank('cat', docs, { topK: 10 })).toEqual(all);
    for (const topK of [0, -1, 1.5, '2', null]) {
      const error = await code(rerank('cat', docs, { topK: topK as never }));
      expect([topK, error.code, error.message]).toEqual([
        topK,
        'invalid-options',
        `rerank: topK must be a positive integer; got ${JSON.stringify(topK)}`,
      ]);
    }
  });

  test('rerank: an empty or whitespace-only query or document, or no documents, is an invalid-options error naming it, as svc_rerank in SQL', async () => {
    const cases: Array<[Promise<unknown>, string]> = [
      [rerank('', ['a']), 'rerank: query must not be empty'],
      [rerank(' \n', ['a']), 'rerank: query must not be empty'],
      [rerank('q', []), 'rerank: documents must not be empty'],
      [rerank('q', ['a', '']), 'rerank: documents[1] must not be empty'],
      [rerank('q', ['\t ', 'b']), 'rerank: documents[0] must not be empty'],
    ];
    for (const [call, message] of cases) {
      const error = await code(call);
      expect(error).toBeInstanceOf(ClientError);
      expect(error).toMatchObject({ code: 'invalid-options', message });
    }
  });
});
