// The validation step behind the grammar: outputs are parsed and checked with ajv against the
// schema the grammar was compiled from (the original in 2020-12 spellings, drafts.ts), which catches
// what the grammar over-approximates (multipleOf, uniqueItems, number bounds, not, ...). Validators
// are built lazily: compiling a grammar never needs ajv.

// File paths rather than package names: esbuild's neutral platform (the plv8 bundle) ignores the
// `main` field these CommonJS packages rely on.
import Ajv2020Module from 'ajv/dist/2020.js';
// ajv-formats' index requires "ajv" by package name; its format table does not.
import * as ajvFormatTable from 'ajv-formats/dist/formats.js';
import { ConstraintError } from './errors.js';
import { decimalOf } from './numeric.js';
import { shareRepeatedSubschemas } from './shared-subschemas.js';

type AjvInstance = {
  addFormat(name: string, format: unknown): unknown;
  addKeyword(definition: Record<string, unknown>): unknown;
  removeKeyword(keyword: string): unknown;
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
const Ajv2020 = unwrap<AjvConstructor>(Ajv2020Module);
const fullFormats =
  (ajvFormatTable as { fullFormats?: Record<string, unknown> }).fullFormats ??
  unwrap<{ fullFormats: Record<string, unknown> }>(ajvFormatTable).fullFormats;

/** What ajv-formats' addFormats(ajv) does in its default ("full") mode. */
function addFormats(ajv: AjvInstance): void {
  for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format);
}

/**
 * Whether a number is a multiple of a step in decimal arithmetic, as the specification and the
 * grammar (numeric.ts) read both: each as its shortest decimal spelling. ajv divides in binary
 * floating point (0.07 / 0.01 is 7.000000000000001), so it refused 19.99 and 0.07 as multiples of
 * 0.01, which the grammar writes.
 */
export function isMultipleOf(value: number, step: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(step) || step <= 0) return false;
  const v = decimalOf(value);
  const m = decimalOf(step);
  const scale = Math.max(v.scale, m.scale);
  const at = (d: { coefficient: bigint; scale: number }) => d.coefficient * 10n ** BigInt(scale - d.scale);
  return at(v) % at(m) === 0n;
}

/** multipleOf in decimal arithmetic (isMultipleOf), in place of ajv's. */
function exactMultipleOf(ajv: AjvInstance): void {
  ajv.removeKeyword('multipleOf');
  const validate = (step: number, value: number): boolean => {
    const ok = isMultipleOf(value, step);
    validate.errors = ok
      ? null
      : [{ keyword: 'multipleOf', message: `must be multiple of ${step}`, params: { multipleOf: step } }];
    return ok;
  };
  validate.errors = null as null | Record<string, unknown>[];
  ajv.addKeyword({ keyword: 'multipleOf', type: 'number', schemaType: 'number', errors: true, validate });
}

/**
 * Patterns as the regex compiler reads them (regex-parse.ts): with the `u` flag when the pattern
 * allows it, else with Annex B syntax. ajv's own `u`-only RegExp threw a SyntaxError on patterns
 * such as `^[a\\'b]+$` that compiled.
 */
function patternRegExp(pattern: string, flags: string): RegExp {
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    if (!flags.includes('u')) throw error;
    return new RegExp(pattern, flags.replace('u', ''));
  }
}
patternRegExp.code = 'new RegExp';

const AJV_OPTIONS = {
  strict: false,
  allErrors: true,
  validateFormats: true,
  // Properties named like Object.prototype members (`constructor`, `toString`) are absent unless
  // the instance has them itself: without this ajv saw `{}` as having a function `constructor`.
  ownProperties: true,
  // The compiler checked every keyword it relies on; a meta-schema check adds only ways to throw.
  validateSchema: false,
  // Unknown formats and keywords are annotations (drafts.ts); ajv would warn on the console.
  logger: false,
  code: { regExp: patternRegExp },
};

export type ValidationResult = { ok: true; value: unknown } | { ok: false; error: ConstraintError };

/** A validator for a schema in 2020-12 spellings (normalizeSchema's output). */
export function createSchemaValidator(schema: unknown): (text: string) => ValidationResult {
  let check: ReturnType<AjvInstance['compile']> | undefined;
  return (text: string) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return {
        ok: false,
        error: new ConstraintError('validation-failed', `output is not JSON: ${(error as Error).message}`),
      };
    }
    if (!check) {
      try {
        const ajv = new Ajv2020(AJV_OPTIONS);
        addFormats(ajv);
        exactMultipleOf(ajv);
        check = ajv.compile(shareRepeatedSubschemas(schema));
      } catch (error) {
        // Never a throw from validate(): a schema ajv cannot compile fails every output, saying why.
        return {
          ok: false,
          error: new ConstraintError(
            'validation-failed',
            `the schema cannot be checked by the validator: ${(error as Error).message}`,
          ),
        };
      }
    }
    let valid: boolean;
    try {
      valid = check(value);
    } catch (error) {
      // ajv recurses once per level of the value: an output nested thousands deep exhausts the stack.
      const reason =
        error instanceof RangeError
          ? 'the output nests too deeply to validate'
          : `the validator failed: ${(error as Error).message}`;
      return { ok: false, error: new ConstraintError('validation-failed', reason) };
    }
    if (valid) return { ok: true, value };
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
