// The `svc grammar` command, spawned as users run it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { makeTestModel } from '../../src/model/test-model.js';
import { runModelCommand } from '../../src/cli/model-command.js';

const svc = (args: string[], input?: string) => {
  const result = spawnSync(process.execPath, ['bin/svc.js', ...args], {
    input,
    encoding: 'utf8',
    cwd: process.cwd(),
    timeout: 60000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

const schemaFile = join(mkdtempSync(join(tmpdir(), 'svc-grammar-')), 'schema.json');
writeFileSync(schemaFile, JSON.stringify({ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] }));

test('--schema FILE and --schema - print GBNF', () => {
  const fromFile = svc(['grammar', '--schema', schemaFile]);
  expect(fromFile).toMatchObject({ code: 0, stderr: '' });
  expect(fromFile.stdout).toMatch(/^root ::= /);
  const fromStdin = svc(['grammar', '--schema', '-'], JSON.stringify({ type: 'string', format: 'date' }));
  expect(fromStdin.code).toBe(0);
  expect(fromStdin.stdout).toMatch(/^root ::= /);
});

test('--regex, --choices and --type', () => {
  expect(svc(['grammar', '--regex', '[a-c]{2}']).stdout).toBe('root ::= [a-c]{2}\n');
  expect(svc(['grammar', '--regex', 'ab', '--flags', 'i']).stdout).toBe('root ::= [Aa] [Bb]\n');
  expect(svc(['grammar', '--choices', '["yes","no"]']).stdout).toBe('root ::= "yes" | "no"\n');
  // The form `svc generate --choices` takes too (#45).
  expect(svc(['grammar', '--choices', 'yes,no']).stdout).toBe('root ::= "yes" | "no"\n');
  expect(svc(['grammar', '--type', 'bool']).stdout).toMatch(/true/);
});

test('bad input: clear message on stderr, non-zero exit, nothing on stdout', () => {
  const cases: [string[], string | undefined, RegExp, number][] = [
    [['grammar', '--regex', '(a)\\1'], undefined, /backreference.*position 3/, 1],
    [['grammar', '--choices', '[]'], undefined, /must not be empty/, 1],
    [['grammar', '--choices', '[not json'], undefined, /--choices looks like a JSON array but does not parse/, 1],
    [
      ['grammar', '--schema', '-', '--strict'],
      '{"type":"object","properties":{"a":{"maxLenght":1}}}',
      /unknown keyword 'maxLenght'.*#\/properties\/a\/maxLenght/,
      1,
    ],
    [['grammar', '--schema', '-'], '{oops', /not valid JSON/, 1],
    [['grammar', '--type', 'date'], undefined, /unknown type/, 1],
    [['grammar'], undefined, /give one of/, 2],
    [['grammar', '--regex', 'a', '--type', 'int'], undefined, /only one of/, 2],
    [['grammar', '--bogus'], undefined, /^svc grammar: unknown option '--bogus'\n/, 2],
    [
      ['grammar', '--shema', 'x.json'],
      undefined,
      /^svc grammar: unknown option '--shema'; did you mean --schema\?\n/,
      2,
    ],
    [['nope'], undefined, /unknown command 'nope'/, 2],
  ];
  for (const [args, input, message, code] of cases) {
    const result = svc(args, input);
    expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code, stdout: '' });
    expect(result.stderr).toMatch(message);
  }
});

test('--help', () => {
  expect(svc(['--help'])).toMatchObject({ code: 0 });
  const help = svc(['grammar', '--help']);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/--schema FILE\|-/);
});

// No constraint svc compiles gives a grammar llama.cpp refuses (llama.test.ts), so the refusal comes
// from the real engine on a GBNF text it refuses, inside the frame every model command runs in.
test('a grammar llama.cpp refuses: a message and exit 1 from the model commands, no Node stack trace', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-refused-'));
  const model = join(dir, 'test.gguf');
  writeFileSync(model, makeTestModel());
  const engine = await Engine.load({ model, threads: 1, contextSize: 256 });
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
  let code: number;
  try {
    code = await runModelCommand('generate', 'help', [], {}, async () => {
      await engine.generate({ prompt: 'x', maxTokens: 4, seed: 42, grammar: 'root ::= [a-z]{3000' });
    });
  } finally {
    process.stderr.write = write;
    await engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
  const stderr = written.join('');
  expect({ code, stderr }).toEqual({
    code: 1,
    stderr: expect.stringMatching(
      /^svc generate: llama\.cpp refused the grammar: .*please report the constraint \[grammar-refused\]\n$/,
    ),
  });
  expect(stderr).not.toMatch(/\n\s+at /);
});
