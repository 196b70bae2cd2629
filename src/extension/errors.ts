// Errors raised by svc's SQL functions. plv8 turns a thrown error's 5-character `code` into the
// SQLSTATE, and `detail`/`hint` into the error's fields, so callers can catch them by condition.

export const SQLSTATE = {
  invalidParameterValue: '22023',
  nullValueNotAllowed: '22004',
  programLimitExceeded: '54000',
  noDataFound: 'P0002',
  queryCanceled: '57014',
  objectNotInPrerequisiteState: '55000',
  insufficientPrivilege: '42501',
} as const;

export class SvcError extends Error {
  readonly code: string;
  readonly detail?: string;
  readonly hint?: string;

  constructor(code: string, message: string, extra: { detail?: string; hint?: string } = {}) {
    super(message);
    this.code = code;
    this.detail = extra.detail;
    this.hint = extra.hint;
  }
}

/** An error about one parameter of one SQL function: "svc_generate_async: max_tokens must be ...". */
export function parameterError(fn: string, parameter: string, rule: string, extra: { detail?: string; hint?: string } = {}, code: string = SQLSTATE.invalidParameterValue): SvcError {
  return new SvcError(code, `${fn}: ${parameter} ${rule}`, extra);
}
