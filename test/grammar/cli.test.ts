// The `svc grammar` command, spawned as users run it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const svc = (args: string[], input?: string) => {
  const result = spawnSync(process.execPath, ['bin/svc.js', ...args], { input, encoding: 'utf8', cwd: process.cwd(), timeout: 60000 });
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
  expect(svc(['grammar', '--type', 'bool']).stdout).toMatch(/true/);
});

test('bad input: clear message on stderr, non-zero exit, nothing on stdout', () => {
  const cases: [string[], string | undefined, RegExp, number][] = [
    [['grammar', '--regex', '(a)\\1'], undefined, /backreference.*position 3/, 1],
    [['grammar', '--choices', '[]'], undefined, /must not be empty/, 1],
    [['grammar', '--choices', 'not json'], undefined, /not valid JSON/, 1],
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
    [['grammar', '--bogus'], undefined, /Unknown option/, 2],
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
