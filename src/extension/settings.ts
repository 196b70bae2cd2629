// svc's database settings (`SET svc.x = ...`, `ALTER DATABASE ... SET svc.x = ...`), read with their
// documented defaults. Unset or empty means the default; a malformed value is an error naming it.
import { one } from './db.js';
import { QUERIES } from './queries.js';
import { SvcError, SQLSTATE } from './errors.js';
import { SETTINGS, type SettingName } from './settings-catalog.js';

const normalized = (value: string | null) => (value === null || value.trim() === '' ? null : value.trim());

function raw(name: SettingName): string | null {
  return normalized(one<{ value: string | null }>(QUERIES.setting, name)?.value ?? null);
}

/** An integer setting; `current` is its value when the caller read it already (current_setting(name, true)). */
export function integerSetting(name: 'svc.max_queue_size' | 'svc.worker_concurrency', min: number, current?: string | null): number {
  const value = current === undefined ? raw(name) : normalized(current);
  if (value === null) return Number(SETTINGS[name].default);
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new SvcError(SQLSTATE.invalidParameterValue, `setting ${name} must be an integer of at least ${min} (is "${value}")`);
  }
  return n;
}

/** An interval setting (e.g. svc.sync_timeout = '60s') in seconds. */
export function intervalSetting(name: 'svc.sync_timeout' | 'svc.worker_poll_interval'): number {
  const value = raw(name) ?? SETTINGS[name].default;
  let seconds: number | undefined;
  try {
    seconds = Number(one<{ seconds: number | string }>(QUERIES.intervalSeconds, value)?.seconds);
  } catch {
    seconds = undefined;
  }
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) {
    throw new SvcError(SQLSTATE.invalidParameterValue, `setting ${name} must be a positive interval such as '60s' (is "${value}")`);
  }
  return seconds;
}
