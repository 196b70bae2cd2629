// svc's database settings (`SET svc.x = ...`, `ALTER DATABASE ... SET svc.x = ...`), read with their
// documented defaults. Unset or empty means the default; a malformed value is an error naming it.
import { one } from './db.js';
import { QUERIES } from './queries.js';
import { isDataException, SvcError } from './errors.js';
import { SQLSTATE } from '../queue/sqlstate.js';
import { SETTINGS, type SettingName } from './settings-catalog.js';
import { LIMITS } from './limits.js';
import { quoteLiteral } from './sql-text.js';

const normalized = (value: string | null) => (value === null || value.trim() === '' ? null : value.trim());

function raw(name: SettingName): string | null {
  return normalized(one<{ value: string | null }>(QUERIES.setting, name)?.value ?? null);
}

/** A setting as the session has it, trimmed; null when unset or empty (its default applies). */
export const settingValue = (name: SettingName): string | null => raw(name);

/** An integer setting; `current` is its value when the caller read it already (current_setting(name, true)). */
export function integerSetting(name: 'svc.max_queue_size' | 'svc.worker_concurrency' | 'svc.summarize_chunk_size', min: number, current?: string | null): number {
  const value = current === undefined ? raw(name) : normalized(current);
  if (value === null) return Number(SETTINGS[name].default);
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new SvcError(SQLSTATE.invalid_parameter_value, `setting ${name} must be an integer of at least ${min} (is "${value}")`);
  }
  return n;
}

/** An interval setting (e.g. svc.sync_timeout = '60s') in seconds. */
export function intervalSetting(name: 'svc.sync_timeout' | 'svc.worker_poll_interval'): number {
  const value = raw(name) ?? SETTINGS[name].default;
  let seconds: number | undefined;
  try {
    seconds = Number(one<{ seconds: number | string }>(QUERIES.intervalSeconds, value)?.seconds);
  } catch (error) {
    if (!isDataException(error)) throw error;
    seconds = undefined;
  }
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) {
    throw new SvcError(SQLSTATE.invalid_parameter_value, `setting ${name} must be a positive interval such as '60s' (is "${value}")`);
  }
  return seconds;
}

/** An 'on'/'off' setting of this session (settings-catalog.ts), or an error naming it. */
function onOffSetting(name: 'svc.strict_schema' | 'svc.open_objects'): boolean {
  const lower = (raw(name) ?? SETTINGS[name].default).toLowerCase();
  if (lower === 'on' || lower === 'true') return true;
  if (lower === 'off' || lower === 'false') return false;
  throw new SvcError(SQLSTATE.invalid_parameter_value, `setting ${name} must be 'on' or 'off' (is "${raw(name)}")`);
}

/** How this session compiles JSON Schemas: svc.strict_schema (unknown keywords and formats are errors) and svc.open_objects. */
export function schemaSettings(): { strict: boolean; openObjects: boolean } {
  return { strict: onOffSetting('svc.strict_schema'), openObjects: onOffSetting('svc.open_objects') };
}

/**
 * How a generation request's prompt reaches the model, as its parameters record it: `prompt_format`
 * ('chat': the user turn of the model's chat template, raw on a model without one; 'raw': as is) and,
 * in the chat format only, `system_prompt` when one is set.
 */
export interface PromptParameters {
  prompt_format: 'chat' | 'raw';
  system_prompt?: string;
}

/** svc.prompt_format and svc.system_prompt of this session, checked (one query for both). */
export function promptSettings(): PromptParameters {
  const row = one<{ prompt_format: string | null; system_prompt: string | null }>(QUERIES.promptSettings)!;
  const format = normalized(row.prompt_format)?.toLowerCase() ?? SETTINGS['svc.prompt_format'].default;
  if (format !== 'chat' && format !== 'raw') {
    throw new SvcError(SQLSTATE.invalid_parameter_value, `setting svc.prompt_format must be 'chat' or 'raw' (is "${row.prompt_format}")`);
  }
  // The system prompt is used as written (not trimmed); empty or only whitespace means none.
  const system = row.system_prompt;
  if (format === 'raw' || system === null || system.trim() === '') return { prompt_format: format };
  if (system.length > LIMITS.promptMaxChars) {
    throw new SvcError(SQLSTATE.program_limit_exceeded, `setting svc.system_prompt must be at most ${LIMITS.promptMaxChars} characters (is ${system.length})`);
  }
  return { prompt_format: format, system_prompt: system };
}

/** What a model serves: the generation functions, embeddings, or rerank. */
export type ModelFunction = 'generate' | 'embed' | 'rerank';

/** A request's model: its name, which setting (or the request) named it, and what it serves (null: not declared). */
interface ModelChoice {
  name: string;
  source: string;
  serves: string[] | null;
  /** The context its worker serves it with (svc_models.context_size; NULL until a worker loaded it). */
  context_size?: number | null;
}

/** The context (tokens) of the model this session's requests of `family` go to, as its worker last reported it; null when not known. */
export function servingContext(family: ModelFunction): number | null {
  const size = chosenModel(family, undefined).context_size;
  return size === null || size === undefined ? null : Number(size);
}

function chosenModel(family: ModelFunction, recorded: string | null | undefined): ModelChoice {
  if (recorded === undefined) return one<ModelChoice>(QUERIES.requestModel, family)!;
  const name = recorded ?? 'default';
  return { name, source: 'parameters.model', serves: one<{ serves: string[] }>(QUERIES.modelServes, name)?.serves ?? null };
}

/**
 * The model (svc_models) a request of `family` goes to: `recorded` when the request already names
 * one (null: it names none, so 'default'), else svc.model, else svc.<family>_model (for rerank,
 * svc.embed_model next), else for embed and rerank the model named 'embed' where one serves it, else
 * 'default' (docs/models.md, "Which model serves a request").
 * An undeclared model, or one that does not serve `family`, is an error naming it and where it came from.
 */
export function requestModel(fn: string, family: ModelFunction, recorded?: string | null): string {
  const { name, source, serves } = chosenModel(family, recorded);
  if (serves === null) {
    throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: model "${name}" (${source}) is not declared in svc_models`, {
      hint: `Start a worker with --model ${name}=PATH, or declare it: SELECT svc_model_declare(${quoteLiteral(name)}).`,
    });
  }
  if (!serves.includes(family)) {
    throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: model "${name}" (${source}) does not serve ${family} (it serves ${serves.join(', ')})`);
  }
  return name;
}
