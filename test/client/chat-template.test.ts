// The library's promptFormat/systemPrompt options and the CLI's --raw/--system, on a model with a
// real ChatML template (qwen2's vocabulary) and on the test model, which has none.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientError, configure, generate, generateChoice, unloadModels } from '../../src/client/index.js';
import { localEngine } from '../../src/client/local.js';
import { makeTestModel } from '../../src/model/test-model.js';
import { realVocabModel } from '../helpers/real-models.js';
import { runSvc } from '../helpers/cli.js';

let dir: string;
let qwen: string;
let plain: string;
const PROMPT = 'Name a colour.';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-chat-'));
  plain = join(dir, 'test.gguf');
  writeFileSync(plain, makeTestModel());
  qwen = await realVocabModel('qwen2');
  configure({ threads: 1, sequences: 1 });
}, 60_000);
afterAll(async () => {
  await unloadModels();
  configure({ threads: undefined, sequences: undefined });
  rmSync(dir, { recursive: true, force: true });
});

const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => undefined,
    (e) => e,
  )) as ClientError;

describe('library', () => {
  test('chat is the default: the prompt goes through the template', async () => {
    const chat = await generate(PROMPT, { model: qwen, maxTokens: 8 });
    expect(await generate(PROMPT, { model: qwen, maxTokens: 8, promptFormat: 'chat' })).toBe(chat);
    const raw = await generate(PROMPT, { model: qwen, maxTokens: 8, promptFormat: 'raw' });
    const system = await generate(PROMPT, { model: qwen, maxTokens: 8, systemPrompt: 'Answer in one word.' });
    expect(new Set([chat, raw, system]).size).toBe(3);
    expect(await generate(PROMPT, { model: qwen, maxTokens: 8, systemPrompt: ' \n' })).toBe(chat); // blank: none, as svc.system_prompt
    // What the engine fed for each: the chat tokens end with <|im_start|>assistant\n.
    const engine = await localEngine(qwen);
    expect(engine.model.detokenize(engine.promptTokens({ prompt: PROMPT, promptFormat: 'chat' }).tokens, true)).toMatch(
      /<\|im_start\|>user\nName a colour\.<\|im_end\|>\n<\|im_start\|>assistant\n$/,
    );
  });

  test('constrained calls take the options too', async () => {
    const choices = ['red', 'green', 'blue'] as const;
    const chat = await generateChoice(PROMPT, choices, { model: qwen, systemPrompt: 'Pick one.' });
    expect(choices).toContain(chat);
    expect(await generateChoice(PROMPT, choices, { model: qwen, systemPrompt: 'Pick one.' })).toBe(chat);
  });

  test('a model without a template runs raw whatever the format', async () => {
    const raw = await generate(PROMPT, { model: plain, maxTokens: 12, promptFormat: 'raw' });
    expect(await generate(PROMPT, { model: plain, maxTokens: 12 })).toBe(raw);
    expect(await generate(PROMPT, { model: plain, maxTokens: 12, systemPrompt: 'ignored' })).toBe(raw);
  });

  test('bad options are invalid-options errors', async () => {
    expect(await failure(generate(PROMPT, { model: plain, promptFormat: 'markdown' as never }))).toMatchObject({
      code: 'invalid-options',
      message: `generate: promptFormat must be 'chat' or 'raw'; got "markdown"`,
    });
    expect(await failure(generate(PROMPT, { model: plain, systemPrompt: 7 as never }))).toMatchObject({
      code: 'invalid-options',
      message: 'generate: systemPrompt must be a string; got 7',
    });
    expect(await failure(generate(PROMPT, { model: plain, promptFormat: 'raw', systemPrompt: 'x' }))).toMatchObject({
      code: 'invalid-options',
      message: "generate: systemPrompt needs promptFormat 'chat' (a raw prompt has no system turn)",
    });
  });
});

const svc = (args: string[]) => runSvc(args, { env: { SVC_MODEL: qwen, SVC_THREADS: '1' } });

describe('svc generate --raw / --system', () => {
  test('print what the library gives for the same options', async () => {
    const expected = {
      chat: await generate(PROMPT, { model: qwen, maxTokens: 8 }),
      raw: await generate(PROMPT, { model: qwen, maxTokens: 8, promptFormat: 'raw' }),
      system: await generate(PROMPT, { model: qwen, maxTokens: 8, systemPrompt: 'Answer in one word.' }),
    };
    const chat = await svc(['generate', PROMPT, '--max-tokens', '8', '--json', '--no-progress']);
    const raw = await svc(['generate', PROMPT, '--max-tokens', '8', '--json', '--no-progress', '--raw']);
    const system = await svc([
      'generate',
      PROMPT,
      '--max-tokens',
      '8',
      '--json',
      '--no-progress',
      '--system',
      'Answer in one word.',
    ]);
    expect([chat.code, raw.code, system.code]).toEqual([0, 0, 0]);
    expect(JSON.parse(chat.stdout).text).toBe(expected.chat);
    expect(JSON.parse(raw.stdout).text).toBe(expected.raw);
    expect(JSON.parse(system.stdout).text).toBe(expected.system);
  }, 60_000);

  test('--raw with --system is a usage error; --help documents both', async () => {
    const both = await svc(['generate', PROMPT, '--raw', '--system', 'x']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--system needs the chat template: give --raw or --system, not both/);
    const help = await svc(['generate', '--help']);
    expect(help.stdout).toMatch(/--system TEXT/);
    expect(help.stdout).toMatch(/--raw/);
  });
});
