// Validation of SQL arguments: pure functions that return the checked value or throw a SvcError that
// names the function, the parameter and the rule. SQL NULL arrives as null (or undefined).
import { LIMITS } from './limits.js';
import { parameterError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import { SAMPLING_DEFAULTS, SQL_NAMES, samplingProblem, type Sampling } from '../decode/sampling.js';
import { stopProblem } from '../decode/stop.js';

const isNull = (v: unknown): v is null | undefined => v === null || v === undefined;

function notNull<T>(fn: string, name: string, value: T | null | undefined): T {
  if (isNull(value)) throw parameterError(fn, name, 'must not be NULL', {}, SQLSTATE.null_value_not_allowed);
  return value;
}

export function text(fn: string, name: string, value: unknown, { allowEmpty = false, maxChars = LIMITS.promptMaxChars as number } = {}): string {
  const v = notNull(fn, name, value);
  if (typeof v !== 'string') throw parameterError(fn, name, 'must be text');
  if (!allowEmpty && v.trim() === '') throw parameterError(fn, name, 'must not be empty');
  if (v.length > maxChars) throw parameterError(fn, name, `must be at most ${maxChars} characters (got ${v.length})`, {}, SQLSTATE.program_limit_exceeded);
  return v;
}

export function integerInRange(fn: string, name: string, value: unknown, min: number, max: number): number {
  const v = notNull(fn, name, value);
  if (typeof v !== 'number' || !Number.isInteger(v)) throw parameterError(fn, name, 'must be an integer');
  if (v < min || v > max) throw parameterError(fn, name, `must be between ${min} and ${max} (got ${v})`);
  return v;
}

export const maxTokens = (fn: string, value: unknown) =>
  integerInRange(fn, 'max_tokens', value, LIMITS.maxTokens.min, LIMITS.maxTokens.max);

export const priority = (fn: string, value: unknown) =>
  integerInRange(fn, 'priority', value, LIMITS.priority.min, LIMITS.priority.max);

export const seed = (fn: string, value: unknown) => integerInRange(fn, 'seed', value, -2147483648, 2147483647);

export function boolean(fn: string, name: string, value: unknown): boolean {
  const v = notNull(fn, name, value);
  if (typeof v !== 'boolean') throw parameterError(fn, name, 'must be a boolean');
  return v;
}

export function uuid(fn: string, name: string, value: unknown): string {
  const v = notNull(fn, name, value);
  if (typeof v !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) {
    throw parameterError(fn, name, 'must be a UUID');
  }
  return v.toLowerCase();
}

/** An array of at most `maxItems` items (empty only when `allowEmpty`); its items are the caller's to check. */
export function array(fn: string, name: string, value: unknown, { maxItems, allowEmpty = false }: { maxItems: number; allowEmpty?: boolean }): unknown[] {
  const v = notNull(fn, name, value);
  if (!Array.isArray(v)) throw parameterError(fn, name, 'must be an array');
  if (v.length === 0 && !allowEmpty) throw parameterError(fn, name, 'must not be empty');
  if (v.length > maxItems) throw parameterError(fn, name, `must have at most ${maxItems} items (got ${v.length})`, {}, SQLSTATE.program_limit_exceeded);
  return v;
}

/** `name[i]`, as SQL arrays count (from 1), for errors about one item. */
export const itemName = (name: string, index: number) => `${name}[${index + 1}]`;

/** A non-empty array of non-empty texts, each checked like `text()` and named `name[i]` (from 1, as SQL arrays) in errors. */
export function textArray(fn: string, name: string, value: unknown, { maxItems }: { maxItems: number }): string[] {
  const v = notNull(fn, name, value);
  if (!Array.isArray(v)) throw parameterError(fn, name, 'must be a text array');
  return array(fn, name, v, { maxItems }).map((item, i) => textItem(fn, itemName(name, i), item));
}

/** One item of a text array: not NULL, then as text(). */
export function textItem(fn: string, label: string, item: unknown): string {
  if (isNull(item)) throw parameterError(fn, label, 'must not be NULL', {}, SQLSTATE.null_value_not_allowed);
  return text(fn, label, item);
}

/**
 * A JSON value nested at most `maxDepth` arrays and objects deep (checked without recursion): deeper
 * values exhaust the stack of whatever walks them next (the cache key, the jsonb conversion).
 */
export function jsonNesting(fn: string, name: string, value: unknown, maxDepth: number): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > maxDepth) throw parameterError(fn, name, `must nest at most ${maxDepth} arrays and objects deep`, {}, SQLSTATE.program_limit_exceeded);
    for (const child of Object.values(item as object)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
}

/**
 * A request's sampling from its SQL arguments (src/decode/sampling.ts): each given one checked with the rule every
 * surface words alike; one not given (undefined: an internal caller's) takes its default. NULL is an error.
 */
export function sampling(fn: string, given: Partial<Record<keyof Sampling, unknown>>): Sampling {
  const out = { ...SAMPLING_DEFAULTS } as Record<keyof Sampling, number>;
  for (const key of Object.keys(SQL_NAMES) as Array<keyof Sampling>) {
    const value = given[key];
    if (value === undefined) continue;
    const name = SQL_NAMES[key];
    notNull(fn, name, value);
    const problem = samplingProblem(key, value);
    if (problem) throw parameterError(fn, name, problem);
    out[key] = value as number;
  }
  return out;
}

/** Stop strings (src/decode/stop.ts): NULL or none given is none; each one not NULL, not empty, at most 1000 characters, at most 16 of them. */
export function stopStrings(fn: string, name: string, value: unknown): string[] {
  if (isNull(value)) return [];
  if (!Array.isArray(value)) throw parameterError(fn, name, 'must be a text array');
  const nullAt = value.findIndex(isNull);
  if (nullAt >= 0) throw parameterError(fn, itemName(name, nullAt), 'must not be NULL', {}, SQLSTATE.null_value_not_allowed);
  const problem = stopProblem(value, name, 1);
  if (problem) throw parameterError(fn, problem.subject, problem.rule, {}, problem.overLimit ? SQLSTATE.program_limit_exceeded : SQLSTATE.invalid_parameter_value);
  return value as string[];
}
