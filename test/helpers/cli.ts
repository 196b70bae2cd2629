// The `svc` command as a user runs it: `node bin/svc.js`, a real process; stdin gets `input` (empty
// by default). `env` is laid over this process's environment; a variable set to undefined is removed.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runSvc(
  args: string[],
  options: { input?: string; env?: Record<string, string | undefined> } = {},
): Promise<CliRun> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/svc.js'), ...args], {
      cwd: ROOT,
      env: env as NodeJS.ProcessEnv,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
