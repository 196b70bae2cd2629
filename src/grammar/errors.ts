// Errors are values with context: a machine-readable code, plus where in the input the problem is
// (a JSON pointer into a schema, or an offset into a regex), so callers in SQL, the library and the
// edge worker can report them without parsing messages.

export type ConstraintErrorCode =
  | 'invalid-input' // the constraint itself is malformed (not a schema, not a list of strings, ...)
  | 'unsupported-keyword' // a JSON Schema keyword with no policy: we never drop keywords silently
  | 'unsupported-format' // a `format` neither the grammar nor the validator knows
  | 'unsupported-regex' // a regex construct a context-free grammar cannot express
  | 'invalid-regex' // the regex does not parse
  | 'unsatisfiable' // nothing can match (`false`, contradictory bounds, ...)
  | 'unresolved-ref' // a `$ref` that does not point into the schema
  | 'too-deep' // nesting beyond the configured depth limit
  | 'too-large' // the grammar would exceed the configured size limit
  | 'invalid-gbnf' // a GBNF text that does not parse
  | 'validation-failed' // generated output does not satisfy the constraint
  | 'parse-failed'; // generated output is not a value of the requested type

export interface ConstraintErrorContext {
  /** JSON pointer (RFC 6901) of the schema location the error is about. */
  pointer?: string;
  /** Offset (0-based, UTF-16 units) into a regex or GBNF text. */
  position?: number;
  /** The keyword or construct the error is about. */
  keyword?: string;
  /** Further structured detail, e.g. ajv's error list for validation failures. */
  details?: unknown;
}

export class ConstraintError extends Error {
  readonly code: ConstraintErrorCode;
  readonly pointer?: string;
  readonly position?: number;
  readonly keyword?: string;
  readonly details?: unknown;

  constructor(code: ConstraintErrorCode, message: string, context: ConstraintErrorContext = {}) {
    // No stack trace: the compiler throws and catches these as values while it tries a schema's parts
    // (an unsatisfiable branch drops out), and capturing the deep recursion's stack each time cost more
    // than the rest of the error. The message and context say where in the input it is.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(describe(message, context));
    Error.stackTraceLimit = limit;
    this.name = 'ConstraintError';
    this.code = code;
    this.pointer = context.pointer;
    this.position = context.position;
    this.keyword = context.keyword;
    this.details = context.details;
  }
}

function describe(message: string, context: ConstraintErrorContext): string {
  const where: string[] = [];
  if (context.pointer !== undefined) where.push(`at ${context.pointer === '' ? '#' : '#' + context.pointer}`);
  if (context.position !== undefined) where.push(`at position ${context.position}`);
  return where.length ? `${message} (${where.join(', ')})` : message;
}

/** Appends a reference token to a JSON pointer, escaping `~` and `/` as RFC 6901 requires. */
export function pointerChild(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}
