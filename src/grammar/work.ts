// The compile's one work bound. Every phase spends from it: parsing each schema object, each
// intersection (a unit per merge and per 16 keywords, properties or values it copies), each schema
// emitted, each rule the grammar builder formats (a unit per 64 characters) and each discarded rule
// it counts again, each automaton state built for an intersection of patterns, a number's range or
// an ambiguity check, each pattern-key derivative and each name tested against a pattern. Counted in
// steps rather than time, so what is refused is the same on every machine; a step is 4-9 µs of CPU
// here where the work multiplies (unions beside siblings, nested), which is what the bound stops.

import { ConstraintError } from './errors.js';

/**
 * Work allowed: BASE_WORK plus WORK_PER_INPUT_UNIT times the input's size (its schema objects,
 * enum values, properties and pattern characters / 16), and never more than MAX_WORK. Compiling
 * each subschema once costs about its size, so the bound never stops a schema that is merely large;
 * what it stops is work that multiplies (unions beside other keywords compile those keywords again
 * for every branch, nested unions multiply that; 20 levels of two-branch unions took 58 s).
 * JSONSchemaBench's most costly schema that compiles, JSON Schema Store's theme.json, spends 111,703
 * (0.55 s); service-schema.json would spend 478,935 (1.8 s) and is refused.
 */
export const BASE_WORK = 100_000;
export const WORK_PER_INPUT_UNIT = 16;
/** Whatever the input's size: 120,000 steps are 0.5-1 s here (a large schema with one expensive corner ran 6 s, issue #36). */
export const MAX_WORK = 120_000;

export class WorkBudget {
  private spent = 0;
  private size = 0;

  /** Adds to the input's size (what the bound scales with). */
  grow(units: number): void {
    this.size += units;
  }

  get used(): number {
    return this.spent;
  }

  get limit(): number {
    return Math.min(BASE_WORK + WORK_PER_INPUT_UNIT * this.size, MAX_WORK);
  }

  /** Counts work; past the bound, too-large naming where the compiler was. */
  spend(units: number, pointer: string): void {
    this.spent += units;
    if (this.spent <= this.limit) return;
    const limit = this.limit;
    const bound = limit === MAX_WORK ? `the limit of ${MAX_WORK}` : `${WORK_PER_INPUT_UNIT} times its size`;
    throw new ConstraintError(
      'too-large',
      `compiling the schema takes more than ${limit} steps, ${bound}: anyOf/oneOf beside other keywords and allOf compile those keywords again for every branch, and nested unions multiply that`,
      { pointer },
    );
  }
}
