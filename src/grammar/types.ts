// Basic output types: a grammar for each, and a parser turning the output into the value.
// Integers, numbers and booleans are written as in JSON; a string is a JSON string literal
// (quoted, escaped), so the output has a clear end and parses unambiguously.

import { ConstraintError } from './errors.js';
import type { Grammar } from '../automaton/expr.js';
import { GrammarBuilder } from './grammar-builder.js';
import { JsonRules } from './json-primitives.js';

export type BasicType = 'integer' | 'number' | 'boolean' | 'string';

// A Map: an object literal would also answer `constructor` and `__proto__` (TypeError later).
const ALIASES = new Map<string, BasicType>(
  Object.entries({
    integer: 'integer',
    int: 'integer',
    number: 'number',
    float: 'number',
    double: 'number',
    boolean: 'boolean',
    bool: 'boolean',
    string: 'string',
    str: 'string',
  } satisfies Record<string, BasicType>),
);

/** Resolves a type name: `integer`/`int`, `number`/`float`/`Number`, `boolean`/`bool`/`Boolean`, `string`/`str`/`String`. */
export function resolveTypeName(name: unknown): BasicType {
  if (typeof name !== 'string') throw new ConstraintError('invalid-input', 'a type name must be a string');
  const type = ALIASES.get(name.trim().toLowerCase());
  if (!type) {
    throw new ConstraintError(
      'invalid-input',
      `unknown type '${name}'; use integer (int), number (float, Number), boolean (bool, Boolean) or string (str, String)`,
    );
  }
  return type;
}

export function typeToGrammar(name: unknown): Grammar {
  const type = resolveTypeName(name);
  const builder = new GrammarBuilder();
  const json = new JsonRules(builder);
  const root = {
    integer: () => json.integer(),
    number: () => json.number(),
    boolean: () => json.boolean(),
    string: () => json.string(),
  }[type]();
  return builder.build(root);
}

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;

/** Turns generated text into the typed value; throws ConstraintError('parse-failed') otherwise. */
export function parseTypedOutput(name: unknown, text: string): number | boolean | string {
  const type = resolveTypeName(name);
  const fail = (): never => {
    throw new ConstraintError(
      'parse-failed',
      `output ${JSON.stringify(text.length > 80 ? text.slice(0, 80) + '…' : text)} is not a ${type}`,
    );
  };
  switch (type) {
    case 'integer': {
      if (!INTEGER.test(text)) fail();
      const value = Number(text);
      if (!Number.isSafeInteger(value)) {
        throw new ConstraintError('parse-failed', `integer ${text} is outside the exactly representable range`);
      }
      return value === 0 ? 0 : value; // never -0
    }
    case 'number': {
      if (!NUMBER.test(text)) fail();
      const value = Number(text);
      if (!Number.isFinite(value)) fail();
      return value;
    }
    case 'boolean':
      if (text === 'true') return true;
      if (text === 'false') return false;
      return fail();
    case 'string': {
      if (!text.startsWith('"')) fail();
      try {
        const value: unknown = JSON.parse(text);
        if (typeof value === 'string') return value;
      } catch {
        // fall through
      }
      return fail();
    }
  }
}
