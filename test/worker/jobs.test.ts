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
