// Every SQLSTATE svc raises or tells apart, in one table, by PostgreSQL's condition name (its
// errcodes.txt) or, for svc's own class SV, a name of svc's. TypeScript reads the codes here
// (SQLSTATE.invalid_parameter_value); PL/pgSQL bodies write the same names (`ERRCODE =
// 'invalid_parameter_value'`), and scripts/build-extension.ts refuses a body that raises a code by
// number or by a name this table lacks. svc's own codes are of class SV, which PL/pgSQL's WHEN
// OTHERS catches (it deliberately does not catch 57014 query_canceled, which stays the code of a
// real statement cancel). Pure: bundled into plv8, imported by the worker.
export const SQLSTATE = {
  invalid_parameter_value: '22023',
  invalid_text_representation: '22P02',
  null_value_not_allowed: '22004',
  program_limit_exceeded: '54000',
  /** The queue, or a role's share of it, is full. */
  configuration_limit_exceeded: '53400',
  insufficient_privilege: '42501',
  undefined_table: '42P01',
  undefined_column: '42703',
  undefined_object: '42704',
  undefined_function: '42883',
  duplicate_object: '42710',
  duplicate_table: '42P07',
  wrong_object_type: '42809',
  datatype_mismatch: '42804',
  invalid_name: '42602',
  invalid_schema_name: '3F000',
  invalid_catalog_name: '3D000',
  invalid_authorization_specification: '28000',
  invalid_password: '28P01',
  object_not_in_prerequisite_state: '55000',
  lock_not_available: '55P03',
  query_canceled: '57014',
  feature_not_supported: '0A000',
  /** The synchronous functions' autonomous session cannot connect. */
  sqlclient_unable_to_establish_sqlconnection: '08001',
  svc_request_failed: 'SV001',
  svc_request_cancelled: 'SV002',
  svc_timed_out: 'SV003',
  svc_unknown_request: 'SV004',
  svc_not_committed: 'SV005',
  svc_no_worker_for_model: 'SV006',
} as const;

export type SqlStateName = keyof typeof SQLSTATE;
