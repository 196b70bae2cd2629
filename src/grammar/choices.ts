// A list of strings to a grammar matching exactly one entry.

import { ConstraintError } from './errors.js';
import type { Grammar } from './expr.js';
import { altOf, literal } from './expr.js';
import { GrammarBuilder } from './gbnf-format.js';

/** Validates the list and returns its distinct entries in first-seen order. */
export function checkChoices(choices: unknown): string[] {
  if (!Array.isArray(choices)) throw new ConstraintError('invalid-input', 'choices must be an array of strings');
  if (choices.length === 0) throw new ConstraintError('invalid-input', 'choices must not be empty: nothing could match');
  const distinct: string[] = [];
  const seen = new Set<string>();
  choices.forEach((choice, index) => {
    if (typeof choice !== 'string') {
      throw new ConstraintError('invalid-input', `choice ${index} is ${choice === null ? 'null' : typeof choice}, not a string`, { pointer: `/${index}` });
    }
    if (choice === '') throw new ConstraintError('invalid-input', `choice ${index} is empty`, { pointer: `/${index}` });
    if (!seen.has(choice)) {
      seen.add(choice);
      distinct.push(choice);
    }
  });
  return distinct;
}

export function choicesToGrammar(choices: unknown): Grammar {
  // Escaping of quotes, backslashes, newlines and non-ASCII happens when literals are formatted.
  return new GrammarBuilder().build(altOf(checkChoices(choices).map(literal)));
}
