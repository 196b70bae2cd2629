// What the grammar now enforces, on the trained stories260K through the library (#54): a bounded
// number field validates in every generation (it wrote 7.5 for [0, 1] in 8 of 8 before, and the
// request failed), and two patterns of an allOf both hold (the grammar kept one and dropped the
// other). Each output is checked by the validator (generateJson fails with validation-failed).
import { configure, generateJson, unloadModels } from '../../src/client/index.js';
import { compileJsonSchema } from '../../src/grammar/index.js';
import { STORIES_MODEL } from '../helpers/real-models.js';

beforeAll(() => configure({ model: STORIES_MODEL, threads: 1 }));
afterAll(async () => {
  await unloadModels();
  configure({ model: undefined, threads: undefined });
});

const SUBJECTS = [
  'Tom',
  'Lily',
  'the dog',
  'a little bird',
  'Sue',
  'the sun',
  'Ben',
  'the big tree',
  'Mom',
  'a red ball',
];
const FRAMES = [
  'How sure is %s? ',
  'Once upon a time, %s was happy. Score:',
  '%s went to the park. Confidence:',
  'Rate %s from 0 to 1:',
  '%s said yes.',
];
const PROMPTS = FRAMES.flatMap((frame) => SUBJECTS.map((subject) => frame.replace('%s', subject)));

test('50 prompts: a number between 0 and 1 every time, and the grammar lists nothing for the validator', async () => {
  const schema = {
    type: 'object',
    properties: { confidence: { type: 'number', minimum: 0, maximum: 1 } },
    required: ['confidence'],
  };
  expect(compileJsonSchema(schema).approximations).toEqual([]);
  expect(PROMPTS.length).toBe(50);
  const values: number[] = [];
  for (const prompt of PROMPTS) {
    const value = await generateJson<{ confidence: number }>(prompt, schema, { maxTokens: 48 });
    values.push(value.confidence);
  }
  expect(values.every((v) => v >= 0 && v <= 1)).toBe(true);
  // Not one value written 50 times: the model chose among them.
  expect(new Set(values).size).toBeGreaterThan(1);
}, 120_000);

test("allOf's two patterns both hold in what the model writes; exclusive bounds and a decimal step too", async () => {
  const letters = { allOf: [{ type: 'string', pattern: '^[a-c]{1,6}$' }, { pattern: 'b' }] };
  expect(compileJsonSchema(letters).approximations).toEqual([]);
  const price = { type: 'number', exclusiveMinimum: 0, maximum: 100, multipleOf: 0.25 };
  expect(compileJsonSchema(price).approximations).toEqual([]);
  for (const prompt of PROMPTS.slice(0, 10)) {
    const text = await generateJson<string>(prompt, letters, { maxTokens: 16 });
    expect(text).toMatch(/^[a-c]{1,6}$/);
    expect(text).toMatch(/b/);
    const amount = await generateJson<number>(prompt, price, { maxTokens: 24 });
    expect(amount > 0 && amount <= 100 && Number.isInteger(amount * 4)).toBe(true);
  }
}, 120_000);
