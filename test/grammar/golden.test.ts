// Golden grammars: the exact GBNF of about 30 constraints, committed in test/grammar/golden/, so a
// change that makes a grammar grow or change shape shows up in review as a diff of these files.
// After an intended change, rewrite them and commit the diff with it:
//
//   SVC_UPDATE_GOLDEN=1 npm run jest -- test/grammar/golden.test.ts
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileChoices, compileJsonSchema, compileRegex, compileType } from '../../src/grammar/index.js';
import { CORPUS } from './corpus.js';
import { CHOICES, REGEXES } from './samples.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const UPDATE = process.env.SVC_UPDATE_GOLDEN === '1';

interface Golden {
  file: string;
  /** What was compiled, as the file's first line says it. */
  input: string;
  compile: () => string;
}

// Picked to cover each construct once: types, enum/const, objects (required, optional, extra keys,
// counts), arrays (bounds, tuples), strings (lengths, patterns, formats), numbers (ranges, exclusive,
// big bounds), combinators, $ref (plain, recursive) and annotations.
const SCHEMAS = [
  'type string',
  'type number',
  'type list nullable',
  'enum mixed',
  'enum escapes',
  'const object',
  'properties required',
  'optional properties',
  'mixed required optional',
  'additionalProperties false',
  'additionalProperties schema',
  'minProperties maxProperties',
  'nested objects',
  'minItems maxItems',
  'prefixItems with items',
  'min max length',
  'pattern alternation',
  'format date-time',
  'format email',
  'min max',
  'exclusive bounds',
  'big bounds',
  'number bounds',
  'allOf merged',
  'oneOf discriminated union',
  'nullable anyOf',
  'recursive tree',
  'annotated object',
];

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function goldens(): Golden[] {
  const schemas = SCHEMAS.map((name): Golden => {
    const entry = CORPUS.find((e) => e.name === name);
    if (!entry) throw new Error(`no corpus schema named ${name}`);
    return {
      file: `schema-${slug(name)}.gbnf`,
      input: `schema ${JSON.stringify(entry.schema)}`,
      compile: () => compileJsonSchema(entry.schema).gbnf,
    };
  });
  const regexes = [1, 4, 5, 6].map((i): Golden => {
    const { pattern, flags } = REGEXES[i];
    return {
      file: `regex-${i}.gbnf`,
      input: `regex ${JSON.stringify(pattern)}${flags ? ` flags ${flags}` : ''}`,
      compile: () => compileRegex(pattern, flags).gbnf,
    };
  });
  const choices = [0, 2].map((i): Golden => ({
    file: `choices-${i}.gbnf`,
    input: `choices ${JSON.stringify(CHOICES[i])}`,
    compile: () => compileChoices(CHOICES[i]).gbnf,
  }));
  const types = ['integer', 'number'].map((name): Golden => ({
    file: `type-${name}.gbnf`,
    input: `type ${name}`,
    compile: () => compileType(name).gbnf,
  }));
  return [...schemas, ...regexes, ...choices, ...types];
}

// GBNF comments start with '#': the header keeps each file a grammar llama.cpp reads as it is.
const render = (golden: Golden) => `# ${golden.input}\n${golden.compile().trimEnd()}\n`;

const ALL = goldens();

if (UPDATE) {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  for (const golden of ALL) writeFileSync(join(DIR, golden.file), render(golden));
}

test('golden/ holds exactly these grammars (no stale files)', () => {
  expect(existsSync(DIR) ? readdirSync(DIR).sort() : []).toEqual(ALL.map((g) => g.file).sort());
});

test.each(ALL.map((g) => [g.file, g] as const))('%s is what the compiler emits', (_file, golden) => {
  const path = join(DIR, golden.file);
  expect(render(golden)).toBe(
    existsSync(path) ? readFileSync(path, 'utf8') : '(missing: run with SVC_UPDATE_GOLDEN=1)',
  );
});
