// Errors raised by svc's SQL functions, in the one shape both plv8 handlers turn into the SQLSTATE
// (and `detail`/`hint` into the error's fields), so callers can catch them by condition: the genuine
// plv8 reads `code` as PostgreSQL's packed integer (MAKE_SQLSTATE), plv8-compat reads the 5-character
// `sqlerrcode` (as both handlers name the SQLSTATE of an SPI error they throw into JavaScript).

import { SQLSTATE } from '../queue/sqlstate.js'; // the codes, by name

/** PostgreSQL's MAKE_SQLSTATE: six bits per character, the first character lowest ('22023' -> 50856066). */
export function packSqlState(sqlstate: string): number {
  let packed = 0;
  for (let i = 0; i < 5; i++) packed += ((sqlstate.charCodeAt(i) - 48) & 0x3f) << (6 * i);
  return packed;
}

export class SvcError extends Error {
  /** The SQLSTATE, e.g. '22023'. */
  readonly sqlerrcode: string;
  /** The same SQLSTATE packed (what the genuine plv8 reads). */
  readonly code: number;
  readonly detail?: string;
  readonly hint?: string;

  constructor(sqlerrcode: string, message: string, extra: { detail?: string; hint?: string } = {}) {
    super(message);
    this.sqlerrcode = sqlerrcode;
    this.code = packSqlState(sqlerrcode);
    this.detail = extra.detail;
    this.hint = extra.hint;
  }
}

/** An error about one parameter of one SQL function: "svc_generate_async: max_tokens must be ...". */
export function parameterError(fn: string, parameter: string, rule: string, extra: { detail?: string; hint?: string } = {}, code: string = SQLSTATE.invalid_parameter_value): SvcError {
  return new SvcError(code, `${fn}: ${parameter} ${rule}`, extra);
}

/** The SQLSTATE of an error caught in JavaScript (an SPI error's, or an SvcError's), else ''. */
export const sqlState = (error: unknown): string => String((error as { sqlerrcode?: string }).sqlerrcode ?? '');

/**
 * Whether an SPI error is the fault of the value a statement read (class 22, data exception), which
 * svc reports as a bad parameter or setting; anything else (a cancel or statement_timeout that landed
 * in the statement: 57014) is rethrown as it is, so that a call ends the way it was ended.
 */
export const isDataException = (error: unknown): boolean => sqlState(error).startsWith('22');
