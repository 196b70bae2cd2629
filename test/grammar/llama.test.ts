// Every grammar the compilers emit must parse in llama.cpp (through node-llama-cpp). LlamaGrammar
// throws "Failed to parse grammar" on a parse error; llama.cpp also logs the reason, which we
// capture so a failure says why.
import { getLlama, LlamaGrammar, LlamaLogLevel } from 'node-llama-cpp';
import type { Llama } from 'node-llama-cpp';
import { compileChoices, compileJsonSchema, compileRegex, compileType } from '../../src/grammar/index.js';
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
  if (error) throw new Error(`llama.cpp rejected the grammar: ${String(error)}\n${logs.join('\n')}\n--- grammar ---\n${gbnf.slice(0, 4000)}`);
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

test.each(['[a-z]{3000}', 'a{1500,2500}', 'x{2001}', '[0-9]{0,4500}'])('regex with a bound past 2000: %s', (pattern) => {
  expectLlamaParses(compileRegex(pattern).gbnf);
});

test('JSON Schema with additionalProperties allowed by option', () => {
  expectLlamaParses(compileJsonSchema({ type: 'object', properties: { a: { type: 'string' }, ab: { type: 'integer' } } }, { additionalProperties: true }).gbnf);
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
