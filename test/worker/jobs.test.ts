// What a claimed job means, in process on the tiny test model: a grammar llama.cpp refuses fails the
// job permanently, and a job runs only under the grammar its own parameters compile to.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { compileChoices, compileJsonSchema, compileRegex } from '../../src/grammar/index.js';
import { makeTestModel } from '../../src/model/test-model.js';
import { checkJobGrammar, promptOptions, runJob } from '../../worker/jobs.js';
import { PermanentJobError } from '../../src/queue/job-errors.js';
import type { ClaimedJob } from '../../worker/protocol.js';
import {
  generateManyParameters,
  generateManyParts,
  promptTokens,
  promptsPerRequest,
  readGenerateManyResult,
} from '../../src/queue/generate-many.js';

let dir: string;
let engine: Engine;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-jobs-'));
  const model = join(dir, 'test.gguf');
  writeFileSync(model, makeTestModel());
  engine = await Engine.load({ model, threads: 1, sequences: 1, contextSize: 256 });
});
afterAll(async () => {
  await engine?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const SCHEMA = { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] };
const ATTACKER = 'root ::= "{\\"email\\":\\"attacker@example.com\\"}"';

function job(
  function_name: ClaimedJob['function_name'],
  parameters: Record<string, unknown>,
  grammar: string | null,
): ClaimedJob {
  return {
    request_id: '00000000-0000-0000-0000-000000000001',
    function_name,
    grammar,
    attempt: 1,
    retry_count: 0,
    priority: 0,
    waited: false,
    parameters: { prompt: 'Contact as JSON', max_tokens: 48, seed: 42, use_cache: true, ...parameters },
  };
}

const failure = async (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as Error,
  );

test('a grammar llama.cpp refuses fails the job permanently (it would be refused on every retry)', async () => {
  for (const grammar of ['root ::= [', 'root ::= root "a" | "b"']) {
    const error = await failure(
      runJob(engine, job('generate_json', { schema: SCHEMA }, grammar), new AbortController().signal),
    );
    expect(error).toBeInstanceOf(PermanentJobError);
    expect(error.message).toBe("llama.cpp refused the job's grammar: Failed to parse grammar");
  }
});

describe("checkJobGrammar: the job's grammar must be the one its parameters compile to", () => {
  test('the grammars the submitters store pass', () => {
    expect(() =>
      checkJobGrammar(job('generate_json', { schema: SCHEMA }, compileJsonSchema(SCHEMA).gbnf)),
    ).not.toThrow();
    expect(() =>
      checkJobGrammar(job('generate_regex', { pattern: '[a-z]{3}' }, compileRegex('[a-z]{3}').gbnf)),
    ).not.toThrow();
    expect(() =>
      checkJobGrammar(job('generate_choice', { choices: ['a', 'b'] }, compileChoices(['a', 'b']).gbnf)),
    ).not.toThrow();
    expect(() => checkJobGrammar(job('generate', {}, null))).not.toThrow();
    expect(() => checkJobGrammar(job('embed', { text_input: 'x' }, null))).not.toThrow();
  });

  test("a hand-written grammar, another constraint's grammar, a missing one, or one on an unconstrained function fail permanently", () => {
    const cases = [
      job('generate_json', { schema: SCHEMA }, ATTACKER),
      job('generate_json', { schema: SCHEMA }, null),
      job('generate_json', { schema: SCHEMA }, ''),
      job('generate_json', { schema: SCHEMA }, compileJsonSchema({ type: 'object' }).gbnf),
      job('generate_regex', { pattern: '[a-z]{3}' }, compileRegex('[a-z]{4}').gbnf),
      job('generate_choice', { choices: ['a', 'b'] }, compileChoices(['a']).gbnf),
      job('generate', {}, ATTACKER),
    ];
    for (const c of cases) {
      expect(() => checkJobGrammar(c)).toThrow(PermanentJobError);
      expect(() => checkJobGrammar(c)).toThrow(
        "the job's grammar is not the one its parameters compile to (written by hand, or by an extension from another svc release than this worker)",
      );
    }
  });

  test('parameters that compile to no constraint fail permanently, naming why', () => {
    for (const c of [
      job('generate_json', {}, ATTACKER),
      job('generate_regex', { pattern: '(a' }, ATTACKER),
      job('generate_regex', { pattern: 7 }, ATTACKER),
      job('generate_choice', { choices: 'a' }, ATTACKER),
      job('generate_choice', { choices: [] }, ATTACKER),
    ]) {
      expect(() => checkJobGrammar(c)).toThrow(PermanentJobError);
      expect(() => checkJobGrammar(c)).toThrow(/^the job's parameters do not compile to a constraint: /);
    }
  });
});

test('output is checked against the constraint its parameters compile to', async () => {
  const ok = job('generate_regex', { pattern: '[a-z]{3}' }, compileRegex('[a-z]{3}').gbnf);
  expect((await runJob(engine, ok, new AbortController().signal)).result).toMatch(/^[a-z]{3}$/);
  // The grammar allows what the parameters do not: the output is refused, never returned.
  const loose = job('generate_regex', { pattern: '[0-9]{3}' }, compileRegex('[a-z]{3}').gbnf);
  const error = await failure(runJob(engine, loose, new AbortController().signal));
  expect(error).toBeInstanceOf(PermanentJobError);
  expect(error.message).toBe('the output breaks its constraint: it does not match the pattern');
});

describe('generate_many: a request of many prompts', () => {
  const CHOICES = ['red', 'green', 'blue'];
  const own = (prompt: string) => ({ prompt, choices: CHOICES, max_tokens: 8, seed: 42, use_cache: true });
  const many = (prompts: string[], grammar: string | null = compileChoices(CHOICES).gbnf): ClaimedJob => ({
    ...job('generate_choice', {}, grammar),
    function_name: 'generate_many',
    parameters: generateManyParameters('generate_choice', prompts.map(own)),
  });

  test("each prompt's answer is its own request's bytes, with how it ended; one over the context fails alone", async () => {
    const prompts = ['Colour one', `Colour two ${'x '.repeat(400)}`, 'Colour three'];
    const ran = await runJob(engine, many(prompts), new AbortController().signal);
    const parts = readGenerateManyResult(ran.result);
    expect(parts).toHaveLength(3);
    for (const i of [0, 2]) {
      const alone = await runJob(
        engine,
        job('generate_choice', own(prompts[i]), compileChoices(CHOICES).gbnf),
        new AbortController().signal,
      );
      expect(parts[i]).toBe(alone.result);
    }
    const over = await failure(
      runJob(
        engine,
        job('generate_choice', own(prompts[1]), compileChoices(CHOICES).gbnf),
        new AbortController().signal,
      ),
    );
    expect(parts[1]).toEqual({ error: over.message });
    expect(ran.answers).toEqual([
      { functionName: 'generate_choice', parameters: own(prompts[0]), result: parts[0], stopReason: 'end' },
      { functionName: 'generate_choice', parameters: own(prompts[2]), result: parts[2], stopReason: 'end' },
    ]);
    // Where every prompt fails alike, so does the request.
    expect(await failure(runJob(engine, many([prompts[1], prompts[1]]), new AbortController().signal))).toBeInstanceOf(
      PermanentJobError,
    );
  });

  test("the job's grammar must be the one its prompts' constraint compiles to; its function a generation", () => {
    expect(() => checkJobGrammar(many(['a', 'b']))).not.toThrow();
    for (const c of [
      many(['a'], ATTACKER),
      many(['a'], null),
      { ...many(['a'], null), parameters: { ...many(['a']).parameters, function: 'embed' } },
    ]) {
      expect(() => checkJobGrammar(c)).toThrow(PermanentJobError);
    }
    expect(() => checkJobGrammar({ ...many(['a']), parameters: { ...many(['a']).parameters, prompts: [] } })).toThrow(
      'parameters.prompts must be an array of 1 to 64 texts',
    );
  });

  test('the tokens a prompt may decode: max_tokens, or fewer for short choices (their UTF-8 bytes + 1)', () => {
    expect(promptTokens('generate_choice', { choices: ['é', '日本'], max_tokens: 512 })).toBe(7);
    expect(promptTokens('generate_choice', { choices: ['é', '日本'], max_tokens: 3 })).toBe(3);
    expect(promptTokens('generate_json', { schema: {}, max_tokens: 24 })).toBe(24);
    expect(promptsPerRequest('generate_choice', { choices: ['yes', 'no'], max_tokens: 512 })).toBe(64);
    expect(promptsPerRequest('generate_json', { max_tokens: 24 })).toBe(21);
    expect(promptsPerRequest('generate', { max_tokens: 512 })).toBe(1);
    expect(promptsPerRequest('generate', { max_tokens: 300 })).toBe(1);
  });

  test("a request's parameters and its prompts' own are each other's inverse; a stray prompt never replaces one", () => {
    const requests = ['a', 'b'].map(own);
    const parameters = generateManyParameters('generate_choice', requests);
    expect(parameters).toEqual({
      function: 'generate_choice',
      prompts: ['a', 'b'],
      choices: CHOICES,
      max_tokens: 8,
      seed: 42,
      use_cache: true,
    });
    expect(generateManyParts(parameters)).toEqual({ functionName: 'generate_choice', requests });
    expect(generateManyParts({ ...parameters, prompt: 'stray' }).requests.map((r) => r.prompt)).toEqual(['a', 'b']);
    expect(() => generateManyParts({ ...parameters, function: 'rerank' })).toThrow(
      /^parameters.function must be one of/,
    );
  });
});

describe("promptOptions: a generation job's recorded prompt format", () => {
  test('chat or raw, with the system prompt when recorded; none recorded (older rows) runs raw', () => {
    expect(promptOptions({ prompt: 'x', prompt_format: 'chat' })).toEqual({ promptFormat: 'chat' });
    expect(promptOptions({ prompt: 'x', prompt_format: 'chat', system_prompt: 'Be brief.' })).toEqual({
      promptFormat: 'chat',
      systemPrompt: 'Be brief.',
    });
    expect(promptOptions({ prompt: 'x', prompt_format: 'raw' })).toEqual({ promptFormat: 'raw' });
    expect(promptOptions({ prompt: 'x' })).toEqual({ promptFormat: 'raw' });
  });

  test('anything else fails the job permanently', () => {
    expect(() => promptOptions({ prompt_format: 'markdown' })).toThrow(PermanentJobError);
    expect(() => promptOptions({ prompt_format: 'chat', system_prompt: 7 })).toThrow(
      /parameters.system_prompt must be text/,
    );
  });
});
