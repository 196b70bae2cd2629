// svc as a package, installed the way another project installs it: `npm pack` (its prepack compiles
// dist/lib), the tarball installed into a fresh project outside the clone, then the library imported
// by name from an .mjs (a real generation on stories260K), a .ts importing from 'svc' type-checked by
// tsc, and the `svc` and `svc-worker` commands run through node_modules/.bin.
//
// No network: the tarball's dependencies are linked to this clone's node_modules before `npm install
// --offline` (npm then finds them installed and fetches nothing); the project lies outside the clone,
// so only the dependencies package.json declares resolve.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..');
const model = join(root, 'models/stories260K.gguf');
let dir: string;
let project: string;
const env = { ...process.env, SVC_MODEL: '', SVC_THREADS: '1', npm_config_update_notifier: 'false' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-package-'));
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: root,
    env,
    timeout: 120_000,
    maxBuffer: 16 << 20,
  });
  // The prepack script's output comes first; npm's JSON report starts at a line that is just '['.
  const [packed] = JSON.parse(stdout.slice(stdout.search(/^\[$/m))) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  const tarball = join(dir, packed.filename);
  // What the tarball holds: the compiled library with declarations, the bins, no TypeScript sources.
  const files = packed.files.map((f) => f.path);
  expect(files).toEqual(
    expect.arrayContaining([
      'package.json',
      'bin/svc.js',
      'dist/lib/src/client/index.js',
      'dist/lib/src/client/index.d.ts',
      'models/stories260K.gguf',
      'models/svc-embed.gguf',
    ]),
  );
  expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);

  project = join(dir, 'project');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-svc', private: true, type: 'module' }));
  const dependencies = Object.keys(
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: object }).dependencies,
  );
  for (const name of dependencies) {
    mkdirSync(dirname(join(project, 'node_modules', name)), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name));
  }
  await exec('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
    cwd: project,
    env,
    timeout: 120_000,
  });
  expect(existsSync(join(project, 'node_modules/svc/src'))).toBe(false);
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("an .mjs imports generate from 'svc' (and the compiler from 'svc/grammar') and generates", async () => {
  const script = join(project, 'use.mjs');
  writeFileSync(
    script,
    `import { generate, ClientError } from 'svc';
import { compileRegex } from 'svc/grammar';
const plain = await generate('Once upon a time', { model: ${JSON.stringify(model)}, maxTokens: 8 });
const local = await generate('Once upon a time', { model: 'local:' + ${JSON.stringify(model)}, regex: ', there was a [a-z]+ [a-z]+ named [A-Z][a-z]+[.]' });
const remote = await generate('hi', { model: 'openai:gpt-4o-mini' }).catch((e) => (e instanceof ClientError ? e.code : String(e)));
console.log(JSON.stringify({ plain, local, remote, gbnf: compileRegex('[0-9]+').gbnf }));
process.exit(0);
`,
  );
  const { stdout } = await exec(process.execPath, [script], { cwd: project, env, timeout: 60_000 });
  expect(JSON.parse(stdout)).toEqual({
    plain: ', there was a little girl',
    local: ', there was a little girl named Lily.',
    remote: 'unsafe-mode-required',
    gbnf: expect.stringMatching(/^root ::= /m),
  });
}, 90_000);

test("a .ts importing from 'svc' type-checks with tsc (skipLibCheck: false: svc's declarations pull in no node-llama-cpp types), and wrong option types are caught", async () => {
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        types: ['node'],
        skipLibCheck: false,
      },
      files: ['use.ts'],
    }),
  );
  mkdirSync(join(project, 'node_modules/@types'), { recursive: true });
  symlinkSync(join(root, 'node_modules/@types/node'), join(project, 'node_modules/@types/node'));
  writeFileSync(
    join(project, 'use.ts'),
    `import { generate, generateJson, generateChoice, ClientError, type CallOptions } from 'svc';
import { compileJsonSchema } from 'svc/grammar';
import { z } from 'zod';
const options: CallOptions = { model: 'models/stories260K.gguf', maxTokens: 16 };
const text: string = await generate('Once upon a time', options);
const kid: { name: 'Lily' | 'Tom'; age: number } = await generateJson('Tom is 9.', z.object({ name: z.enum(['Lily', 'Tom']), age: z.number() }), options);
const pet: 'cat' | 'dog' = await generateChoice('A pet:', ['cat', 'dog'] as const, options);
const gbnf: string = compileJsonSchema({ type: 'integer' }).gbnf;
// @ts-expect-error maxTokens is a number
await generate('x', { maxTokens: 'eight' });
// @ts-expect-error the choice is one of the given strings
const wrong: 'bird' = await generateChoice('A pet:', ['cat', 'dog'] as const);
console.log(text, kid, pet, gbnf, wrong, ClientError);
`,
  );
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const checked = await exec(process.execPath, [tsc, '-p', 'tsconfig.json'], {
    cwd: project,
    env,
    timeout: 60_000,
  }).catch((e: { stdout: string }) => e);
  expect(checked.stdout).toBe('');
}, 90_000);

test('the svc and svc-worker commands run from node_modules/.bin, a model command included', async () => {
  const bin = join(project, 'node_modules/.bin');
  const path = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
  const help = await exec(join(bin, 'svc'), ['--help'], { cwd: project, env: { ...env, PATH: path }, timeout: 30_000 });
  expect(help.stdout).toMatch(/^Usage: svc <command>/);
  const grammar = await exec(join(bin, 'svc'), ['grammar', '--regex', '[0-9]{4}'], {
    cwd: project,
    env: { ...env, PATH: path },
    timeout: 30_000,
  });
  expect(grammar.stdout).toMatch(/^root ::= /m);
  // A model command: its module is imported on first use (src/cli/commands/), compiled too.
  const generated = await exec(join(bin, 'svc'), ['generate', 'Once upon a time', '--max-tokens', '8'], {
    cwd: project,
    env: { ...env, PATH: path, SVC_MODEL: model },
    timeout: 60_000,
  });
  expect(generated.stdout).toBe(', there was a little girl\n');
  // No model named: the package's own defaults, models/ shipped in it (#53).
  const defaults = { cwd: project, env: { ...env, PATH: path }, timeout: 60_000 };
  expect((await exec(join(bin, 'svc'), ['generate', 'Once upon a time', '--max-tokens', '8'], defaults)).stdout).toBe(
    ', there was a little girl\n',
  );
  expect(JSON.parse((await exec(join(bin, 'svc'), ['embed', 'a story'], defaults)).stdout)).toHaveLength(128); // svc-embed
  const worker = await exec(join(bin, 'svc-worker'), ['--help'], {
    cwd: project,
    env: { ...env, PATH: path },
    timeout: 30_000,
  });
  expect(worker.stdout).toContain('svc-worker');
}, 90_000);
