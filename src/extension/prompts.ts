// The prompt registry (README, "Prompt registry"): svc_prompt_create, _update and _render. Each acts
// for the session's role on its own prompts only (queries.ts); templates are checked when stored, so
// a render fails only for what its variables lack. svc_prompt_get, _list and _delete are SQL
// (sql/svc_prompt_*.sql).
import { one } from './db.js';
import { QUERIES } from './queries.js';
import { LIMITS } from './limits.js';
import { parameterError, SvcError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import * as v from './validate.js';
import { parseTemplate, renderTemplate, TemplateError, type Template } from '../prompt/template.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,62}$/;

function promptName(fn: string, value: unknown): string {
  const name = v.text(fn, 'name', value, { maxChars: 63 });
  if (!NAME.test(name)) throw parameterError(fn, 'name', `must be 1 to 63 letters, digits, ".", "_", ":" or "-", starting with a letter or digit (got '${name}')`);
  return name;
}

/** The caller's metadata: a JSON object of at most promptDescriptionMaxChars characters as JSON, or NULL (create: {}; update: the latest's). */
function metadata(fn: string, value: unknown): object | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw parameterError(fn, 'metadata', `must be a JSON object (got ${Array.isArray(value) ? 'an array' : `a ${typeof value}`})`);
  }
  v.jsonNesting(fn, 'metadata', value, LIMITS.schemaMaxNesting);
  const json = JSON.stringify(value);
  if (json.length > LIMITS.promptDescriptionMaxChars) {
    throw parameterError(fn, 'metadata', `must be at most ${LIMITS.promptDescriptionMaxChars} characters as JSON (got ${json.length})`);
  }
  return value;
}

function description(fn: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return v.text(fn, 'description', value, { allowEmpty: true, maxChars: LIMITS.promptDescriptionMaxChars });
}

/** The checked template and the variables it reads, or a 22023 naming `template` with the line and column at fault. */
function template(fn: string, value: unknown): { source: string; parsed: Template } {
  const source = v.text(fn, 'template', value, { maxChars: LIMITS.promptTemplateMaxChars });
  try {
    return { source, parsed: parseTemplate(source) };
  } catch (error) {
    if (error instanceof TemplateError) throw parameterError(fn, 'template', `is not a valid template: ${error.message}`);
    throw error;
  }
}

export function promptCreate(name: unknown, templateText: unknown, descriptionText: unknown, metadataValue: unknown): number {
  const fn = 'svc_prompt_create';
  const n = promptName(fn, name);
  const t = template(fn, templateText);
  const row = one<{ version: number }>(QUERIES.promptInsertFirst, n, t.source, description(fn, descriptionText), t.parsed.variables, metadata(fn, metadataValue));
  if (!row) {
    const latest = one<{ version: number }>(QUERIES.promptLatestVersion, n)?.version;
    throw new SvcError(SQLSTATE.duplicate_object, `${fn}: you already have a prompt named '${n}' (latest version ${latest})`, {
      hint: 'svc_prompt_update(name, template) makes its next version.',
    });
  }
  return row.version;
}

export function promptUpdate(name: unknown, templateText: unknown, descriptionText: unknown, metadataValue: unknown): number {
  const fn = 'svc_prompt_update';
  const n = promptName(fn, name);
  const t = template(fn, templateText);
  const d = description(fn, descriptionText);
  const m = metadata(fn, metadataValue);
  if (!one(QUERIES.promptLock, n)) throw notFound(fn, n, null);
  return one<{ version: number }>(QUERIES.promptInsertNext, n, t.source, d, t.parsed.variables, m)!.version;
}

export function promptRender(name: unknown, variables: unknown, version: unknown, strict: unknown): string {
  const fn = 'svc_prompt_render';
  const n = promptName(fn, name);
  if (strict === null || strict === undefined) throw parameterError(fn, 'strict', 'must not be NULL', {}, SQLSTATE.null_value_not_allowed);
  if (variables === null || variables === undefined) throw parameterError(fn, 'variables', 'must not be NULL', {}, SQLSTATE.null_value_not_allowed);
  if (typeof variables !== 'object' || Array.isArray(variables)) {
    throw parameterError(fn, 'variables', `must be a JSON object of the template's variables (got ${Array.isArray(variables) ? 'an array' : `a ${typeof variables}`})`);
  }
  v.jsonNesting(fn, 'variables', variables, LIMITS.schemaMaxNesting);
  const wanted = version === null || version === undefined ? null : v.integerInRange(fn, 'version', version, 1, 2147483647);
  const row = one<{ version: number; template: string }>(QUERIES.promptVersion, n, wanted);
  if (!row) throw notFound(fn, n, wanted);
  try {
    return renderTemplate(parseTemplate(row.template), variables as Parameters<typeof renderTemplate>[1], { maxChars: LIMITS.promptMaxChars, strict: strict === true });
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    const where = `prompt '${n}' version ${row.version}`;
    if (error.code === 'too-large') throw new SvcError(SQLSTATE.program_limit_exceeded, `${fn}: ${where}: ${error.message}`);
    throw parameterError(fn, 'variables', `must give what ${where} reads: ${error.message}`);
  }
}

function notFound(fn: string, name: string, version: number | null): SvcError {
  return parameterError(fn, 'name', `'${name}' is no prompt of yours${version === null ? '' : ` with a version ${version}`}`, { hint: 'svc_prompt_list() lists your prompts.' }, SQLSTATE.undefined_object);
}
