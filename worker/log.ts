// Structured logs: one JSON object per line on stderr, so a system service's journal or any log
// shipper can filter by field.
export type LogFields = Record<string, unknown>;

export function log(level: 'debug' | 'info' | 'warn' | 'error', msg: string, fields: LogFields = {}): void {
  if (level === 'debug' && !process.env.SVC_WORKER_DEBUG) return;
  process.stderr.write(`${JSON.stringify({ ts: new Date().toISOString(), level, msg, ...fields })}\n`);
}

export function errorFields(error: unknown): LogFields {
  return error instanceof Error
    ? { error: error.message, code: (error as { code?: string }).code }
    : { error: String(error) };
}
