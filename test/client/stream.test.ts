// Streaming in the library and the CLI (#37): generateStream yields the output as the model writes it
// and ends with exactly generate's result; `svc generate --stream` prints the same bytes as without
// it, as they come. On the trained stories260K and on a qwen2-vocabulary model (byte-level BPE: a
// character split across tokens comes whole). Errors name the option.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ClientError,
  GenerationAbortedError,
  configure,
  generate,
  generateStream,
  unloadModels,
  type GenerateOptions,
  type StreamEvent,
} from '../../src/client/index.js';
import { ROOT, runSvc } from '../helpers/cli.js';
import { STORIES_MODEL, realVocabModel } from '../helpers/real-models.js';

let qwen: string;
let dir: string;
beforeAll(async () => {
  qwen = await realVocabModel('qwen2');
  dir = mkdtempSync(join(tmpdir(), 'svc-stream-cli-'));
  configure({ threads: 1 });
}, 120_000);
afterAll(async () => {
  await unloadModels();
  configure({ threads: undefined });
  rmSync(dir, { recursive: true, force: true });
});

/** The events of a stream, each with when it came. */
async function collect(prompt: string, options: GenerateOptions) {
  const events: Array<StreamEvent & { at: number }> = [];
  for await (const event of generateStream(prompt, options)) events.push({ ...event, at: performance.now() });
  const texts = events.filter((e) => e.type === 'text');
  const done = events.at(-1)!;
  if (done.type !== 'done') throw new Error('the stream did not end with done');
  return { events, texts, joined: texts.map((e) => e.text).join(''), done };
}

describe('generateStream', () => {
  test('stories260K: pieces as they come, joined the raw output; done is exactly generate', async () => {
    const options = { model: STORIES_MODEL, maxTokens: 200 };
    const expected = await generate('Once upon a time', options);
    const run = await collect('Once upon a time', options);
    expect(run.joined).toBe(expected);
    expect(run.done).toMatchObject({ type: 'done', result: expected, tokens: 200, stopReason: 'maxTokens' });
    expect(run.texts.length).toBeGreaterThan(20);
    expect(run.texts[0].at).toBeLessThan(run.done.at); // the first piece came before the end
    expect(run.events.filter((e) => e.type === 'done')).toHaveLength(1);
  });

  test("a schema: the pieces are the JSON, done is generate's <json-output> answer", async () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer' } },
      required: ['name', 'age'],
    };
    const options = { model: STORIES_MODEL, maxTokens: 64, schema };
    const expected = await generate('A character as JSON:', options);
    const run = await collect('A character as JSON:', options);
    expect(run.done.result).toBe(expected);
    expect(`<json-output>${run.joined}</json-output>`).toBe(expected);
  });

  test('qwen2 vocabulary: characters split across tokens come whole, and the result is unchanged', async () => {
    for (const [prompt, options] of [
      ['日本語のテキスト', { model: qwen, maxTokens: 60 }],
      ['Country:', { model: qwen, maxTokens: 16, choices: ['日本', '中国', 'Ελλάδα'] }],
    ] as Array<[string, GenerateOptions]>) {
      const expected = await generate(prompt, options);
      const run = await collect(prompt, options);
      expect(run.joined).toBe(expected);
      expect(run.done.result).toBe(expected);
      for (const piece of run.texts)
        expect(piece.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
  });

  test('leaving the loop stops the generation; the model serves the next call', async () => {
    const started = performance.now();
    let pieces = 0;
    for await (const event of generateStream('Once upon a time', { model: STORIES_MODEL, maxTokens: 2000 })) {
      if (event.type === 'text' && ++pieces === 3) break;
    }
    expect(pieces).toBe(3);
    const expected = await generate('Once upon a time', { model: STORIES_MODEL, maxTokens: 20 });
    expect((await collect('Once upon a time', { model: STORIES_MODEL, maxTokens: 20 })).joined).toBe(expected);
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  test('errors: a bad option is thrown by the call, naming it; a failure while generating is thrown by the loop', () => {
    expect(() => generateStream('x', { maxTokens: 0 })).toThrow(
      new ClientError('invalid-options', 'generateStream: maxTokens must be an integer from 1 to 1000000; got 0'),
    );
    expect(() => generateStream('x', { regex: 'a', choices: ['a'] })).toThrow(
      /^generateStream: give exactly one of schema, regex or choices; got regex and choices$/,
    );
    expect(() => generateStream('x', { stream: true } as never)).toThrow(/^generateStream: unknown option 'stream'/);
    expect(() => generateStream(null as never)).toThrow(/^generateStream: prompt must be a string; got null$/);
  });

  test('a budget below the constraint, and an abort, end the loop with their errors', async () => {
    const drain = async (options: GenerateOptions) => {
      for await (const _ of generateStream('Once upon a time', { model: STORIES_MODEL, ...options }));
    };
    await expect(drain({ regex: '[a-z]{20}', maxTokens: 5 })).rejects.toMatchObject({
      code: 'incomplete-output',
      message: expect.stringMatching(/^generateStream: maxTokens 5 is below/),
    });
    await expect(drain({ maxTokens: 2000, signal: AbortSignal.timeout(50) })).rejects.toBeInstanceOf(
      GenerationAbortedError,
    );
  });
});

describe('svc generate --stream', () => {
  const model = () => ['--model', STORIES_MODEL, '--threads', '1'];

  test('prints the bytes of the call without --stream, plain and with a schema', async () => {
    writeFileSync(
      join(dir, 'schema.json'),
      JSON.stringify({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }),
    );
    for (const extra of [
      ['--max-tokens', '60'],
      ['--schema', join(dir, 'schema.json'), '--max-tokens', '40'],
      ['--regex', '[日本語]{3}'],
    ]) {
      const plain = await runSvc(['generate', 'Once upon a time', ...model(), ...extra]);
      const streamed = await runSvc(['generate', 'Once upon a time', ...model(), ...extra, '--stream']);
      expect(plain.code).toBe(0);
      expect(streamed).toEqual(plain);
    }
  }, 60_000);

  test('prints as the model writes: the output reaches the pipe in many writes', async () => {
    const chunks: string[] = [];
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [join(ROOT, 'bin/svc.js'), 'generate', 'Once upon a time', ...model(), '--max-tokens', '400', '--stream'],
        {
          cwd: ROOT,
        },
      );
      child.stdout.setEncoding('utf8').on('data', (d: string) => chunks.push(d));
      child.on('error', reject);
      child.on('close', resolve);
      child.stdin.end();
    });
    expect(code).toBe(0);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.join('')).toBe(
      (await runSvc(['generate', 'Once upon a time', ...model(), '--max-tokens', '400'])).stdout,
    );
  }, 60_000);

  test('--stream with --json or --type is a usage error naming both; a failure ends with its error', async () => {
    for (const [flag, ...rest] of [['--json'], ['--type', 'integer']]) {
      const run = await runSvc(['generate', 'x', ...model(), '--stream', flag, ...rest]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`give --stream or ${flag}, not both`);
    }
    const failed = await runSvc(['generate', 'x', ...model(), '--stream', '--regex', '[a-z]{20}', '--max-tokens', '5']);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/maxTokens 5 is below/);
  }, 60_000);
});
