// Real-world-style schemas (real-world.ts, issue #25): each compiles without options, accepts its
// valid instances, and every string sampled from its grammar passes the validator, which never
// throws. The strict option refuses the vendor keywords these schemas carry.
import {
  ConstraintError,
  compileJsonSchema,
  recognizeGbnf,
  sampleGbnf,
  seededRandom,
} from '../../src/grammar/index.js';
import { REAL_WORLD } from './real-world.js';

const SAMPLES = 6;

describe.each(REAL_WORLD.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
  const compiled = compileJsonSchema(entry.schema);

  test('accepts its valid instances, and the validator agrees', () => {
    for (const value of entry.valid) {
      const text = JSON.stringify(value);
      expect({ text, ok: compiled.validate(text).ok }).toEqual({ text, ok: true });
      expect({ text, accepted: recognizeGbnf(compiled.grammar, text) }).toEqual({ text, accepted: true });
    }
  });

  // Where the grammar is exact every sample validates; where it over-approximates (approximations)
  // the validator may refuse one, but never throws.
  test('sampled outputs validate', () => {
    const random = seededRandom(25);
    for (let i = 0; i < SAMPLES; i++) {
      const text = sampleGbnf(compiled.grammar, random, { maxExtraRepeats: 2 });
      const result = compiled.validate(text);
      if (!result.ok && compiled.approximations.length === 0)
        throw new Error(`sample ${text} fails: ${result.error.message}`);
    }
  });
});

test('strict refuses the vendor keywords of real-world schemas, naming keyword and pointer', () => {
  const refused = REAL_WORLD.map((entry) => {
    try {
      compileJsonSchema(entry.schema, { strict: true });
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(ConstraintError);
      return `${(error as ConstraintError).keyword} at ${(error as ConstraintError).pointer}`;
    }
  });
  expect(refused).toContain('self at /self');
  expect(refused).toContain('javaType at /javaType');
  expect(refused).toContain('x-kubernetes-group-version-kind at /x-kubernetes-group-version-kind');
});
