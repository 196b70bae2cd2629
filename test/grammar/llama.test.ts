// Every grammar the compilers emit must parse in llama.cpp (through node-llama-cpp). LlamaGrammar
// throws "Failed to parse grammar" on a parse error; llama.cpp also logs the reason, which we
// capture so a failure says why.
import { getLlama, LlamaGrammar, LlamaLogLevel } from 'node-llama-cpp';
import type { Llama } from 'node-llama-cpp';
import {
  ConstraintError,
  compileChoices,
  compileJsonSchema,
  compileRegex,
  compileType,
  seededRandom,
} from '../../src/grammar/index.js';
import { CORPUS } from './corpus.js';
import { REAL_WORLD } from './real-world.js';
import { CHOICES, REGEXES, TYPE_NAMES } from './samples.js';

let llama: Llama;
const logs: string[] = [];

beforeAll(async () => {
  llama = await getLlama({ gpu: false, logLevel: LlamaLogLevel.warn, logger: (_level, message) => logs.push(message) });
});

function expectLlamaParses(gbnf: string): void {
  logs.length = 0;
  let error: unknown;
  try {
    new LlamaGrammar(llama, { grammar: gbnf });
  } catch (e) {
    error = e;
  }
  if (error)
    throw new Error(
      `llama.cpp rejected the grammar: ${String(error)}\n${logs.join('\n')}\n--- grammar ---\n${gbnf.slice(0, 4000)}`,
    );
}

test('the check itself fails on a broken grammar', () => {
  expect(() => expectLlamaParses('root ::= undefined-rule')).toThrow(/llama.cpp rejected/);
  expect(() => expectLlamaParses('root ::= "\\d"')).toThrow(/llama.cpp rejected/);
});

test.each(CORPUS.map((e) => [e.name, e.schema] as const))('JSON Schema: %s', (_name, schema) => {
  expectLlamaParses(compileJsonSchema(schema).gbnf);
});

test.each(REAL_WORLD.map((e) => [e.name, e.schema] as const))('real-world-style JSON Schema: %s', (_name, schema) => {
  expectLlamaParses(compileJsonSchema(schema).gbnf);
});

test.each(['[a-z]{3000}', 'a{1500,2500}', 'x{2001}', '[0-9]{0,4500}'])(
  'regex with a bound past 2000: %s',
  (pattern) => {
    expectLlamaParses(compileRegex(pattern).gbnf);
  },
);

// Issue #48's shapes: pattern keys that exclude declared names (an empty alternative, a rule per 64
// levels of a long name), recursion through a merged allOf, enum values judged in specMode.
test.each([
  [
    'pattern keys excluding declared names',
    {
      type: 'object',
      properties: { id: { type: 'string' }, [`${'k'.repeat(150)}é"\\😀`]: { type: 'integer' } },
      required: ['name'],
      patternProperties: { '^.+$': {}, '^[a-z]+$': { type: 'integer' } },
    },
  ],
  [
    'recursion through a two-part allOf',
    {
      $defs: {
        n: {
          type: 'object',
          properties: { v: { type: 'integer' }, next: { allOf: [{ $ref: '#/$defs/n' }, { required: ['v'] }] } },
        },
      },
      $ref: '#/$defs/n',
    },
  ],
  [
    'a const under nested patternProperties',
    { patternProperties: { '^a$': { patternProperties: { '^x$': {} } } }, const: { a: { b: 1 } } },
  ],
])('JSON Schema of issue #48: %s', (_name, schema) => {
  expectLlamaParses(compileJsonSchema(schema).gbnf);
});

// llama.cpp refuses to repeat an item standing for n rules more than 2000 / n times (#36): vercel.json's
// `routes` has such an array; groups nested and alternated, bounds near and past the limit.
test.each([
  [
    'an array of 1024 string-or-integer items',
    { type: 'array', maxItems: 1024, items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
  ],
  [
    'an array of 1999 items of an object',
    { type: 'array', maxItems: 1999, items: { type: 'object', properties: { a: { type: 'integer' } } } },
  ],
  [
    'an array of 700 to 1500 arrays of 3',
    {
      type: 'array',
      minItems: 700,
      maxItems: 1500,
      items: { type: 'array', minItems: 3, maxItems: 3, items: { type: 'boolean' } },
    },
  ],
  ['an array of at most 5000 enums', { type: 'array', maxItems: 5000, items: { enum: ['a', 'b', 1, null] } }],
  [
    'a string of 1500 characters in an array of 2',
    { type: 'array', maxItems: 2, items: { type: 'string', maxLength: 1500 } },
  ],
])("JSON Schema past llama.cpp's count of repeated rules: %s", (_name, schema) => {
  expectLlamaParses(compileJsonSchema(schema).gbnf);
});

test('JSON Schema with additionalProperties allowed by option', () => {
  expectLlamaParses(
    compileJsonSchema(
      { type: 'object', properties: { a: { type: 'string' }, ab: { type: 'integer' } } },
      { additionalProperties: true },
    ).gbnf,
  );
});

test.each(REGEXES.map((r) => [r.pattern.slice(0, 40), r] as const))('regex: %s', (_p, r) => {
  expectLlamaParses(compileRegex(r.pattern, r.flags).gbnf);
});

test.each(CHOICES.map((c) => [JSON.stringify(c)]))('choices: %s', (json) => {
  expectLlamaParses(compileChoices(JSON.parse(json)).gbnf);
});

test.each(TYPE_NAMES.map((t) => [t]))('type: %s', (name) => {
  expectLlamaParses(compileType(name).gbnf);
});

// Property: grammars of generated constraints (bounds near and past llama.cpp's limits, nested
// groups, alternations, repetitions of repetitions) all load into llama.cpp, or are refused by the
// compiler with its own error. Seeded, so a failure names a case that can be run again.
describe('generated constraints load into llama.cpp', () => {
  const prng = seededRandom;
  const pick = <T>(random: () => number, xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const BOUNDS = [1, 2, 3, 7, 40, 199, 667, 1000, 1023, 1999, 2000, 2001, 2500, 4500];

  function regex(random: () => number, depth: number): string {
    if (depth === 0 || random() < 0.3) return pick(random, ['a', 'b', '[0-9]', '[a-z]', 'xy', '.']);
    const parts = Array.from({ length: 1 + Math.floor(random() * 3) }, () => regex(random, depth - 1));
    const group = `(${random() < 0.5 ? parts.join('|') : parts.join('')})`;
    const r = random();
    if (r < 0.2) return group;
    if (r < 0.35) return `${group}${pick(random, ['?', '*', '+'])}`;
    const min = random() < 0.5 ? 0 : pick(random, BOUNDS);
    const max = min + (random() < 0.3 ? 0 : pick(random, BOUNDS));
    return `${group}{${min},${max}}`;
  }

  function schema(random: () => number, depth: number): object {
    const r = random();
    if (depth === 0 || r < 0.25)
      return pick(random, [
        { type: 'string', maxLength: pick(random, BOUNDS) },
        { type: 'integer' },
        { enum: ['a', 1, null] },
        { type: 'boolean' },
      ]);
    if (r < 0.6)
      return {
        type: 'array',
        ...(random() < 0.5 ? { minItems: pick(random, [0, 1, 3, 10]) } : {}),
        maxItems: pick(random, BOUNDS),
        items: schema(random, depth - 1),
      };
    if (r < 0.8) return { anyOf: [schema(random, depth - 1), schema(random, depth - 1)] };
    return {
      type: 'object',
      properties: { a: schema(random, depth - 1), b: schema(random, depth - 1) },
      required: ['a'],
    };
  }

  const loads = (compile: () => { gbnf: string }) => {
    let gbnf: string;
    try {
      gbnf = compile().gbnf;
    } catch (error) {
      if (error instanceof ConstraintError) return;
      throw error;
    }
    expectLlamaParses(gbnf);
  };

  test.each(Array.from({ length: 60 }, (_, i) => [i]))('regexes, seed %i', (seed) => {
    const random = prng(seed);
    for (let i = 0; i < 5; i++) {
      const pattern = regex(random, 3);
      loads(() => compileRegex(pattern));
    }
  });

  test.each(Array.from({ length: 60 }, (_, i) => [i]))('JSON Schemas, seed %i', (seed) => {
    const random = prng(1000 + seed);
    for (let i = 0; i < 3; i++) {
      const s = schema(random, 3);
      loads(() => compileJsonSchema(s));
    }
  });
});
