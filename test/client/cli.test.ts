// The `svc` command's model subcommands, run as a user runs them: node bin/svc.js, a real process.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSvc } from '../helpers/cli.js';

let dir: string;
let model: string;

const svc = (args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}) =>
  runSvc(args, { input: options.input, env: { SVC_MODEL: undefined, SVC_THREADS: '2', ...options.env } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  model = join(dir, 'model.gguf');
  const made = await svc(['make-test-model', model]);
  expect(made).toMatchObject({ code: 0, stdout: model + '\n' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('make-test-model writes the tiny GGUF; bad usage exits 2', async () => {
  expect(statSync(model).size).toBeGreaterThan(100_000);
  const f16 = await svc(['make-test-model', join(dir, 'small.gguf'), '--f16', '--seed', '7']);
  expect(f16.code).toBe(0);
  expect(statSync(join(dir, 'small.gguf')).size).toBeLessThan(statSync(model).size);
  expect((await svc(['make-test-model'])).code).toBe(2);
  expect((await svc(['make-test-model', 'x.gguf', '--seed', 'abc'])).stderr).toMatch(
    /--seed must be a non-negative integer/,
  );
});

test('generate --choices with the progress bar; the same call gives the same result', async () => {
  const a = await svc(['generate', 'Color:', '--choices', 'red,green,blue', '--model', model, '--progress']);
  expect(a.code).toBe(0);
  expect(['red\n', 'green\n', 'blue\n']).toContain(a.stdout);
  expect(a.stderr).toMatch(/Loading model model\.gguf \[#+\] 100%/);
  const b = await svc(['generate', 'Color:', '--choices', 'red,green,blue', '--model', model]);
  expect(b.stdout).toBe(a.stdout);
  expect(b.stderr).toBe(''); // no progress bar when stderr is not a terminal
});

test('generate reads the prompt from stdin; --schema FILE prints <json-output>; --json prints text and value', async () => {
  const schema = join(dir, 'schema.json');
  writeFileSync(
    schema,
    JSON.stringify({
      type: 'object',
      properties: { n: { type: 'integer', minimum: 0, maximum: 9 }, b: { type: 'boolean' } },
      required: ['n', 'b'],
    }),
  );
  const plain = await svc(['generate', '--schema', schema], { input: 'Give me data\n', env: { SVC_MODEL: model } });
  expect(plain.code).toBe(0);
  expect(plain.stdout).toMatch(/^<json-output>\{"n":\d,"b":(true|false)\}<\/json-output>\n$/);
  const json = await svc(['generate', '--schema', schema, '--json'], {
    input: 'Give me data\n',
    env: { SVC_MODEL: model },
  });
  const out = JSON.parse(json.stdout);
  expect(out.text).toBe(plain.stdout.trimEnd());
  expect(out.value).toEqual(JSON.parse(out.text.slice('<json-output>'.length, -'</json-output>'.length)));
});

test('generate --regex, --type, --max-tokens, --seed', async () => {
  const r = await svc([
    'generate',
    'Code:',
    '--regex',
    '[A-Z]{3}-[0-9]{3}',
    '--model',
    model,
    '--seed',
    '42',
    '--max-tokens',
    '20',
  ]);
  expect(r.stdout).toMatch(/^[A-Z]{3}-[0-9]{3}\n$/);
  const t = await svc(['generate', 'Yes?', '--type', 'boolean', '--model', model, '--json']);
  expect(typeof JSON.parse(t.stdout).value).toBe('boolean');
});

test('errors: usage 2, constraint/output 1, model 3, with messages that help', async () => {
  // Independent runs: start them together.
  const [both, badRegex, cut, missing, remote, flag, unknown, help] = await Promise.all([
    svc(['generate', 'x', '--regex', 'a', '--choices', 'a,b', '--model', model]),
    svc(['generate', 'x', '--regex', '[a-', '--model', model]),
    svc(['generate', 'x', '--regex', '[a-z]{40}', '--max-tokens', '5', '--model', model]),
    svc(['generate', 'x', '--model', join(dir, 'absent.gguf')]),
    svc(['generate', 'x', '--model', 'openai:gpt-4o']),
    svc(['generate', 'x', '--max-tokens', 'many']),
    svc(['generate', 'x', '--bogus']),
    svc(['generate', '--help']),
  ]);
  expect(both.code).toBe(2);
  expect(both.stderr).toMatch(/give at most one of --schema, --regex, --choices, --type/);
  expect(both.stderr).toMatch(/svc generate --help/);
  expect(badRegex.code).toBe(1);
  expect(badRegex.stderr).toMatch(/invalid constraint: .*\[invalid-regex\]/);
  expect(cut.code).toBe(1);
  expect(cut.stderr).toMatch(
    /maxTokens 5 is below the 40 tokens the shortest output of this constraint takes on this model/,
  );
  expect(cut.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(missing.code).toBe(3);
  expect(missing.stderr).toMatch(/model file not found/);
  // Only NAME=PATH entries in SVC_MODEL: the message lists them, and a mistyped name says what it is not.
  const named = { SVC_MODEL: `story=${model}` };
  const [noDefault, typo] = await Promise.all([
    svc(['generate', 'x'], { env: named }),
    svc(['generate', 'x', '--model', 'stroy'], { env: named }),
  ]);
  expect(noDefault.code).toBe(2);
  expect(noDefault.stderr).toMatch(/no default model: SVC_MODEL names story; pass --model NAME/);
  expect(typo.code).toBe(3);
  expect(typo.stderr).toMatch(
    /model 'stroy' is neither a named model \(the names are story\), a model svc knows \(stories260K, .*\) nor a file \[model-not-found\]/,
  );
  expect(remote.code).toBe(2);
  expect(remote.stderr).toMatch(/unsafeMode: true.*pass --unsafe/);
  expect(flag.code).toBe(2);
  expect(flag.stderr).toMatch(/--max-tokens must be an integer/);
  expect(unknown.code).toBe(2);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/Usage: svc generate/);
  expect(help.stdout).toMatch(/Exit status/);
});

test('generate --unsafe with a remote model (loopback server); missing key exits 3', async () => {
  let seen: any;
  const server: Server = createServer(async (req, res) => {
    let raw = '';
    for await (const c of req) raw += c;
    seen = JSON.parse(raw);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        choices: [{ message: { role: 'assistant', content: '{"value":"b"}' }, finish_reason: 'stop' }],
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const env = {
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    };
    const ok = await svc(['generate', 'x', '--choices', 'a,b', '--model', 'openai:gpt-4o-mini', '--unsafe'], { env });
    expect(ok).toMatchObject({ code: 0, stdout: 'b\n' });
    expect(seen.model).toBe('gpt-4o-mini');
    const nokey = await svc(['generate', 'x', '--model', 'openai:gpt-4o-mini', '--unsafe'], {
      env: { ...env, OPENAI_API_KEY: undefined },
    });
    expect(nokey.code).toBe(3);
    expect(nokey.stderr).toMatch(/set OPENAI_API_KEY/);
  } finally {
    server.close();
  }
});

test('embed: a JSON array of the model dimension; from stdin; --json', async () => {
  const [a, b, two] = await Promise.all([
    svc(['embed', 'hello', '--model', model]),
    svc(['embed', '--json'], { input: 'hello\n', env: { SVC_MODEL: model } }),
    svc(['embed', 'a', 'b', '--model', model]),
  ]);
  expect(a.code).toBe(0);
  const v = JSON.parse(a.stdout);
  expect(v).toHaveLength(64);
  const out = JSON.parse(b.stdout);
  expect(out.dimension).toBe(64);
  expect(out.model).toMatch(/^model\.gguf:/);
  expect(out.embedding).toEqual(v);
  expect(two.code).toBe(2);
});

test('embed: empty or whitespace-only text is an error (exit 2), as svc_embed in SQL', async () => {
  const runs = await Promise.all([
    svc(['embed', '', '--model', model]),
    svc(['embed', '   ', '--model', model]),
    svc(['embed', '--model', model], { input: '\n' }),
    svc(['embed', '--model', model], { input: ' \t\n' }),
  ]);
  for (const run of runs) {
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^svc embed: text must not be empty\n/);
  }
});

test('rerank: documents as arguments or stdin lines; --json', async () => {
  const [a, b, noQuery] = await Promise.all([
    svc(['rerank', 'cat', 'cats purr', 'dogs bark', 'fish swim', '--model', model]),
    svc(['rerank', 'cat', '--json', '--model', model], { input: 'cats purr\ndogs bark\n\nfish swim\n' }),
    svc(['rerank', '--model', model]),
  ]);
  expect(a.code).toBe(0);
  const lines = a.stdout
    .trimEnd()
    .split('\n')
    .map((l) => l.split('\t'));
  expect(lines).toHaveLength(3);
  expect(lines.map((l) => Number(l[1])).sort()).toEqual([0, 1, 2]);
  const ranked = JSON.parse(b.stdout);
  expect(ranked.map((r: { document: string }) => r.document)).toEqual(lines.map((l) => l[2]));
  expect(noQuery.code).toBe(2);
});

test('rerank --top-k N prints the best N lines of the same ranking; a bad N is a usage error naming the option', async () => {
  const docs = ['cats purr', 'dogs bark', 'fish swim'];
  const [all, top, bad] = await Promise.all([
    svc(['rerank', 'cat', ...docs, '--model', model]),
    svc(['rerank', 'cat', ...docs, '--top-k', '2', '--model', model]),
    svc(['rerank', 'cat', ...docs, '--top-k', '0', '--model', model]),
  ]);
  expect(top.code).toBe(0);
  expect(top.stdout).toBe(all.stdout.split('\n').slice(0, 2).join('\n') + '\n');
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/^svc rerank: --top-k must be a positive integer; got "0"/);
});

test('rerank: an empty or whitespace-only query or document argument is an error (exit 2), as svc_rerank in SQL', async () => {
  const runs = await Promise.all([
    svc(['rerank', '', 'cats purr', '--model', model]),
    svc(['rerank', ' ', '--model', model], { input: 'cats purr\n' }),
    svc(['rerank', 'cat', 'cats purr', '', '--model', model]),
    svc(['rerank', 'cat', ' \t', 'dogs bark', '--model', model]),
  ]);
  const messages = [
    'query must not be empty',
    'query must not be empty',
    'document 1 must not be empty',
    'document 0 must not be empty',
  ];
  runs.forEach((run, i) => {
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.startsWith(`svc rerank: ${messages[i]}`)).toBe(true);
  });
});

test('--verbose says which model runs, on how many threads, in what context; --context-size sets it; an unknown option names the nearest (#45)', async () => {
  const verbose = await svc(['--verbose', 'generate', 'ab', '--max-tokens', '3', '--model', model], {
    env: { SVC_THREADS: undefined },
  });
  expect(verbose.code).toBe(0);
  // The test model is 1 MB: one thread by default; its training context is 2048.
  expect(verbose.stderr).toMatch(
    /^svc: model \S+model\.gguf \(model\.gguf:\d+:[0-9a-f]{16}:llama\.cpp-[^-]+-cpu\): 1 thread, context 2048 tokens \(trained 2048\), serves generate, embed, rerank, pooling none, \d+ dimensions\n$/,
  );
  const small = await svc(['embed', 'ab', '--context-size', '64', '--threads', '2', '-v', '--model', model]);
  expect(small.stderr).toMatch(/: 2 threads, context 64 tokens \(trained 2048\)/);
  const over = await svc(['generate', 'ab'.repeat(40), '--context-size', '64', '--model', model]);
  expect(over).toMatchObject({ code: 2, stdout: '' });
  expect(over.stderr).toMatch(
    /^svc generate: prompt is 81 tokens, over the 63 a context of 64 tokens leaves for a prompt .*\[context-exceeded\]\n$/,
  );
  const typo = await svc(['generate', 'ab', '--max-token', '3', '--model', model]);
  expect(typo).toMatchObject({ code: 2, stdout: '' });
  expect(typo.stderr).toBe(
    "svc generate: unknown option '--max-token'; did you mean --max-tokens?\nRun 'svc generate --help' for usage.\n",
  );
  expect((await svc(['embed', 'ab', '--zzz'])).stderr).toBe(
    "svc embed: unknown option '--zzz'\nRun 'svc embed --help' for usage.\n",
  );
});
