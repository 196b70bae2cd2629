// The validation step behind the grammar: outputs are parsed and checked against the ORIGINAL
// schema with ajv, which catches what the grammar over-approximates (multipleOf, uniqueItems,
// number bounds, not, ...). Validators are built lazily: compiling a grammar never needs ajv.

// File paths rather than package names: esbuild's neutral platform (the plv8 bundle) ignores the
// `main` field these CommonJS packages rely on.
import AjvDraft07Module from 'ajv/dist/ajv.js';
import Ajv2020Module from 'ajv/dist/2020.js';
// ajv-formats' index requires "ajv" by package name; its format table does not.
import * as ajvFormatTable from 'ajv-formats/dist/formats.js';
import { ConstraintError } from './errors.js';

type AjvInstance = {
  addFormat(name: string, format: unknown): unknown;
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
const fullFormats = ((ajvFormatTable as { fullFormats?: Record<string, unknown> }).fullFormats ??
  unwrap<{ fullFormats: Record<string, unknown> }>(ajvFormatTable).fullFormats);

/** What ajv-formats' addFormats(ajv) does in its default ("full") mode. */
function addFormats(ajv: AjvInstance): void {
  for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format);
}

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
