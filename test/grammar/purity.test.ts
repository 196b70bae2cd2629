// src/grammar (and src/automaton, below it) runs in plv8 and edge workers: no Node APIs, and it bundles for a neutral platform.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const dir = join(process.cwd(), 'src', 'grammar');
const files = ['grammar', 'automaton'].flatMap((folder) =>
  readdirSync(join(process.cwd(), 'src', folder))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join('src', folder, f)),
);

test.each(files.map((f) => [f]))('%s uses no Node APIs', (file) => {
  const source = readFileSync(join(process.cwd(), file), 'utf8').replace(/\/\/.*$/gm, '');
  expect(source).not.toMatch(/from ['"]node:|from ['"](fs|path|crypto|os|util|buffer|process)['"]/);
  expect(source).not.toMatch(/\b(Buffer|process|require|__dirname|setTimeout|globalThis\.crypto)\b/);
});

test('bundles with esbuild for a neutral platform (no Node built-ins)', async () => {
  const result = await build({
    entryPoints: [join(dir, 'index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2021',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const size = result.outputFiles[0].contents.length;
  expect(size).toBeGreaterThan(1000);
  expect(size).toBeLessThan(400_000);
});
