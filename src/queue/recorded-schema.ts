// How a generate_json request records its schema in the queue's parameters (jsonb), read by the
// extension (a request re-checked in the autonomous session) and by the worker (checkJobGrammar).
// A schema given as text is recorded as compact JSON text: jsonb would sort an object's keys, and the
// order of a schema's properties is the order of the generated JSON's.

/** A text schema's record: compact JSON text, its properties in the order written. */
export const recordSchemaText = (schema: unknown): string => JSON.stringify(schema);

/** A recorded parameters.schema as the compiler takes it: JSON text (its order kept) or the jsonb object. */
export function recordedSchema(recorded: unknown): unknown {
  return typeof recorded === 'string' ? JSON.parse(recorded) : recorded;
}
