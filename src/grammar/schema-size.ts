// The size of a schema as JSON text, measured before anything else reads it, so that an input past
// the documented size is refused in time proportional to reading the size limit, not the input:
// 1,000,000 annotation keys (18.8 MB), 100,000 unused definitions or an 8.8 MB tree of oneOfs took
// 1.6-3 s to walk and refuse (issue #48). A JavaScript object the schema uses in several places (the
// library takes objects, not text) is counted at every place, as its JSON text would repeat it: a
// schema sharing one object at each of 30 levels is 2^30 objects to every walk after this one, and
// is refused here after reading the limit's worth.

import { ConstraintError } from './errors.js';

/** Default largest schema, in characters of its compact JSON text. */
export const DEFAULT_MAX_SCHEMA_CHARS = 1_000_000;

/**
 * Throws too-large once the schema's compact JSON text would pass `maxChars` characters (keys and
 * strings counted in UTF-16 units, without escapes); reads at most about that much of it.
 */
export function refuseOversizedSchema(schema: unknown, maxChars = DEFAULT_MAX_SCHEMA_CHARS): void {
  let chars = 0;
  const over = () =>
    new ConstraintError(
      'too-large',
      `the schema is more than ${maxChars} characters as JSON text, the limit (objects used in several places count at each)`,
    );
  // Iterative: a deep schema must not exhaust the stack here (the depth limit comes later).
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') chars += value.length + 2;
    else if (typeof value === 'number') chars += String(value).length;
    else if (typeof value === 'boolean') chars += value ? 4 : 5;
    else if (Array.isArray(value)) {
      // Brackets and commas.
      chars += 1 + Math.max(1, value.length);
      if (chars > maxChars) throw over();
      for (let i = value.length - 1; i >= 0; i--) pending.push(value[i]);
    } else if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      // Braces, commas, and each key's quotes and colon.
      chars += 1 + Math.max(1, keys.length) + 3 * keys.length;
      if (chars > maxChars) throw over();
      for (let i = keys.length - 1; i >= 0; i--) {
        chars += keys[i].length;
        pending.push((value as Record<string, unknown>)[keys[i]]);
      }
    } else chars += 4; // null (and what JSON has no text for)
    if (chars > maxChars) throw over();
  }
}
