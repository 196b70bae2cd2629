// The validation step behind the grammar: outputs are parsed and checked against the ORIGINAL
// schema with ajv, which catches what the grammar over-approximates (multipleOf, uniqueItems,
// number bounds, not, ...). Validators are built lazily: compiling a grammar never needs ajv.

import AjvDraft07Module from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ConstraintError } from './errors.js';

type AjvInstance = {
  compile(schema: unknown): ((data: unknown) => boolean) & { errors?: AjvError[] | null };
};
interface AjvError {
  instancePath: string;
  message?: string;
  keyword: string;
  params: unknown;
}
type AjvConstructor = new (options: Record<string, unknown>) => AjvInstance;

// ajv and ajv-formats are CommonJS; depending on the loader the export sits on `default`.
const unwrap = <T>(module: unknown): T => ((module as { default?: T }).default ?? module) as T;
const AjvDraft07 = unwrap<AjvConstructor>(AjvDraft07Module);
const Ajv2020 = unwrap<AjvConstructor>(Ajv2020Module);
const addFormats = unwrap<(ajv: AjvInstance) => void>(addFormatsModule);

export type ValidationResult = { ok: true; value: unknown } | { ok: false; error: ConstraintError };

export function createSchemaValidator(schema: unknown, draft: '2020-12' | 'draft-07'): (text: string) => ValidationResult {
  let check: ReturnType<AjvInstance['compile']> | undefined;
  return (text: string) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { ok: false, error: new ConstraintError('validation-failed', `output is not JSON: ${(error as Error).message}`) };
    }
    if (!check) {
      const Ajv = draft === 'draft-07' ? AjvDraft07 : Ajv2020;
      const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
      addFormats(ajv);
      check = ajv.compile(schema);
    }
    if (check(value)) return { ok: true, value };
    const errors = check.errors ?? [];
    const first = errors[0];
    const summary = errors
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword}`)
      .join('; ');
    return {
      ok: false,
      error: new ConstraintError('validation-failed', `output does not satisfy the schema: ${summary}`, {
        pointer: first?.instancePath ?? '',
        keyword: first?.keyword,
        details: errors,
      }),
    };
  };
}
