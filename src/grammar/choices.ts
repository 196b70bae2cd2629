// A list of strings to a grammar matching exactly one entry.

import { ConstraintError } from './errors.js';
import type { Grammar } from '../automaton/expr.js';
import { literal } from '../automaton/expr.js';
import { factorAlternatives } from './factor.js';
import { GrammarBuilder } from './grammar-builder.js';

/**
 * Validates the list and returns it. A duplicate is an error naming it: the list is the caller's
 * set of answers, and a repeated one is most likely a mistake (a missing or misspelt other entry).
 */
export function checkChoices(choices: unknown): string[] {
  if (!Array.isArray(choices)) throw new ConstraintError('invalid-input', 'choices must be an array of strings');
  if (choices.length === 0)
    throw new ConstraintError('invalid-input', 'choices must not be empty: nothing could match');
  const seen = new Map<string, number>();
  choices.forEach((choice, index) => {
    if (typeof choice !== 'string') {
      throw new ConstraintError(
        'invalid-input',
        `choice ${index} is ${choice === null ? 'null' : typeof choice}, not a string`,
        { pointer: `/${index}` },
      );
    }
    if (choice === '') throw new ConstraintError('invalid-input', `choice ${index} is empty`, { pointer: `/${index}` });
    const first = seen.get(choice);
    if (first !== undefined) {
      const shown = choice.length > 200 ? JSON.stringify(choice.slice(0, 200)) + '…' : JSON.stringify(choice);
      throw new ConstraintError('invalid-input', `choice ${index} repeats choice ${first}: ${shown}`, {
        pointer: `/${index}`,
      });
    }
    seen.set(choice, index);
  });
  return choices as string[];
}

export function choicesToGrammar(choices: unknown, maxGrammarChars = Infinity): Grammar {
  const list = checkChoices(choices);
  // Each choice is written at least as long as it is (escapes only lengthen it): a list longer
  // than the grammar limit is too large before any of it is formatted.
  const total = list.reduce((sum, choice) => sum + choice.length + 3, 0);
  if (total > maxGrammarChars) {
    throw new ConstraintError(
      'too-large',
      `choices take at least ${total} grammar characters, above the limit of ${maxGrammarChars}`,
    );
  }
  // Escaping of quotes, backslashes, newlines and non-ASCII happens when literals are formatted.
  const builder = new GrammarBuilder();
  return builder.build(
    factorAlternatives(
      list.map(literal),
      () => undefined,
      (body) => builder.rule('choices', body),
    ),
  );
}
