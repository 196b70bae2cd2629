// Errors raised by svc's SQL functions. plv8 turns a thrown error's 5-character `code` into the
// SQLSTATE, and `detail`/`hint` into the error's fields, so callers can catch them by condition.

// svc's own conditions have codes of class SV, which PL/pgSQL's WHEN OTHERS catches (it deliberately
// does not catch 57014 query_canceled, which stays the code of a real statement cancel).
export const SQLSTATE = {
  invalidParameterValue: '22023',
  invalidTextRepresentation: '22P02',
  nullValueNotAllowed: '22004',
  programLimitExceeded: '54000',
  queueFull: '53400',
  insufficientPrivilege: '42501',
  undefinedTable: '42P01',
  undefinedColumn: '42703',
  undefinedObject: '42704',
  duplicateObject: '42710',
  duplicateTable: '42P07',
  wrongObjectType: '42809',
  datatypeMismatch: '42804',
  invalidName: '42602',
  invalidSchemaName: '3F000',
  objectNotInPrerequisiteState: '55000',
  featureNotSupported: '0A000',
  syncConnection: '08001',
  requestFailed: 'SV001',
  requestCancelled: 'SV002',
  timedOut: 'SV003',
  unknownRequest: 'SV004',
  notCommitted: 'SV005',
  noWorkerForModel: 'SV006',
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
