// Worker configuration from command-line options and environment (SPEC 4.2): pure parsing with
// errors that name the option and the rule.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { ModelListError, parseModelList, type ModelSpec } from '../src/engine/model-list.js';
import { nearestOption } from '../src/cli/suggest.js';

export type { ModelSpec };

export interface WorkerConfig {
  /** One or more, distinct names; a lone --model PATH is named 'default'. */
  models: ModelSpec[];
  /** `options`: the session's settings (workerSession), once svc's schema is known. */
  db: { host?: string; port?: number; database?: string; user?: string; options?: string };
  concurrency: number;
  /** Jobs claimed ahead of a free slot (0: none). */
  prefetch: number;
  pollIntervalMs: number;
  maxRetries: number;
  timeoutMs: number;
  leaseSeconds: number;
  heartbeatMs: number;
  /** After SIGTERM, how long the jobs in flight may take to finish before they are stopped and requeued. */
  stopGraceMs: number;
  /** Streaming: the least time between two writes of a running async generation's partial text (0: none written). */
  progressIntervalMs: number;
  /** CPU threads per model (default: the engine's, src/engine/threads.ts). */
  threads?: number;
  /** Context per sequence, in tokens (prompt + output); default: each model's training context, as the library's. */
  contextSize?: number;
  workerId: string;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const USAGE = `usage: svc-worker --model [NAME=]PATH ... [--db-host H] [--db-port P] [--db-name D] [--db-user U]
  [--concurrency N] [--threads N] [--worker-id ID]
       svc-worker -h | --help
       svc-worker -V | --version

Serves svc's queue (svc_queue) with llama.cpp models. --model NAME=PATH (repeatable) serves the model
NAME of svc_models (declared when missing) from PATH; --model PATH serves 'default'. The worker claims
only requests for the models it serves. PATH may be a model name (stories260K, svc-embed, or a recommended
one: bge-small-en, ...; svc models list), a hub URI (hf:USER/REPO/FILE.gguf) or an https URL
of a GGUF, fetched once into the model cache (SVC_MODEL_CACHE; docs/models.md), or an inference server instead of a GGUF:
llama-server+http://HOST:PORT or vllm+http://HOST:PORT#SERVED_MODEL (bearer key: SVC_SERVER_API_KEY). Connection options default to the PG* variables.
The database needs the svc extension (CREATE EXTENSION svc CASCADE) and the role needs
GRANT svc_worker TO <role>; without them the worker exits at once saying so.
Environment: SVC_MODEL (one PATH or NAME=PATH; several separated by commas or newlines), SVC_WORKER_CONCURRENCY (4), SVC_WORKER_POLL_INTERVAL (1 s),
SVC_WORKER_MAX_RETRIES (3), SVC_WORKER_TIMEOUT (300 s), SVC_WORKER_LEASE (30 s), SVC_WORKER_THREADS (1 for a model under 256 MiB, else the physical cores, at most 8),
SVC_WORKER_CONTEXT_SIZE (tokens per job, prompt and output: the model's training context), SVC_WORKER_HEARTBEAT (5 s), SVC_WORKER_PREFETCH (at least 4 jobs claimed
ahead of a free slot, so that it starts its next job at once; more where jobs are short, about 50 ms of work a slot, at most 64; 0: none), SVC_WORKER_PROGRESS_INTERVAL (0.5 s:
the least time between two writes of a running async generation's text so far, for svc_get_partial_result; 0: none).
SIGTERM or SIGINT: finish the jobs in flight and write their results, then exit 0 (jobs in flight
while the database is unreachable are given up: their leases expire and they run again).
Exit status: 0 stopped by a signal; 1 crashed; 2 bad configuration, or the database is not set up.`;

function number(
  name: string,
  raw: string | undefined,
  fallback: number,
  { min, integer }: { min: number; integer: boolean },
): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min) {
    throw new ConfigError(`${name} must be ${integer ? 'an integer' : 'a number'} of at least ${min} (got "${raw}")`);
  }
  return n;
}

const FLAGS = [
  '--model',
  '--db-host',
  '--db-port',
  '--db-name',
  '--db-user',
  '--concurrency',
  '--threads',
  '--worker-id',
] as const;

/** The options by name (without the dashes); `help` when -h or --help was given, `version` for -V or --version. */
export function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') {
      out.help = 'true';
      continue;
    }
    if (arg === '-V' || arg === '--version') {
      out.version = 'true';
      continue;
    }
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (!(FLAGS as readonly string[]).includes(flag)) {
      const best = nearestOption(flag.replace(/^-+/, ''), [...FLAGS.map((f) => f.slice(2)), 'help', 'version']);
      throw new ConfigError(`unknown option ${arg}${best !== undefined ? `; did you mean --${best}?` : ''}\n${USAGE}`);
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new ConfigError(`${flag} needs a value`);
    // --model may be given once per model (joined by newlines, as SVC_MODEL may list them).
    const name = flag.slice(2);
    out[name] = name === 'model' && out.model !== undefined ? `${out.model}\n${value}` : value;
  }
  return out;
}

export function loadConfig(argv: string[], env: NodeJS.ProcessEnv): WorkerConfig {
  const args = parseArgs(argv);
  const model = args.model ?? env.SVC_MODEL;
  if (!model) throw new ConfigError(`no model: pass --model PATH or set SVC_MODEL\n${USAGE}`);
  const models = parseModels(model);
  const port = args['db-port'] ?? env.PGPORT;
  return {
    models,
    db: {
      host: args['db-host'] ?? env.PGHOST,
      port: port === undefined ? undefined : number('--db-port', port, 5432, { min: 1, integer: true }),
      database: args['db-name'] ?? env.PGDATABASE,
      user: args['db-user'] ?? env.PGUSER,
    },
    concurrency: number('SVC_WORKER_CONCURRENCY', args.concurrency ?? env.SVC_WORKER_CONCURRENCY, 4, {
      min: 1,
      integer: true,
    }),
    prefetch: number('SVC_WORKER_PREFETCH', env.SVC_WORKER_PREFETCH, 4, { min: 0, integer: true }),
    pollIntervalMs:
      number('SVC_WORKER_POLL_INTERVAL', env.SVC_WORKER_POLL_INTERVAL, 1, { min: 0.01, integer: false }) * 1000,
    maxRetries: number('SVC_WORKER_MAX_RETRIES', env.SVC_WORKER_MAX_RETRIES, 3, { min: 0, integer: true }),
    timeoutMs: number('SVC_WORKER_TIMEOUT', env.SVC_WORKER_TIMEOUT, 300, { min: 0.01, integer: false }) * 1000,
    leaseSeconds: number('SVC_WORKER_LEASE', env.SVC_WORKER_LEASE, 30, { min: 0.1, integer: false }),
    heartbeatMs: number('SVC_WORKER_HEARTBEAT', env.SVC_WORKER_HEARTBEAT, 5, { min: 0.1, integer: false }) * 1000,
    stopGraceMs: number('SVC_WORKER_STOP_GRACE', env.SVC_WORKER_STOP_GRACE, 30, { min: 0, integer: false }) * 1000,
    progressIntervalMs:
      number('SVC_WORKER_PROGRESS_INTERVAL', env.SVC_WORKER_PROGRESS_INTERVAL, 0.5, { min: 0, integer: false }) * 1000,
    threads:
      (args.threads ?? env.SVC_WORKER_THREADS)
        ? number('SVC_WORKER_THREADS', args.threads ?? env.SVC_WORKER_THREADS, 1, { min: 1, integer: true })
        : undefined,
    contextSize: env.SVC_WORKER_CONTEXT_SIZE
      ? number('SVC_WORKER_CONTEXT_SIZE', env.SVC_WORKER_CONTEXT_SIZE, 0, { min: 64, integer: true })
      : undefined,
    workerId: args['worker-id'] ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
  };
}

/** The models of --model / SVC_MODEL (src/engine/model-list.ts), errors as ConfigError. */
export function parseModels(text: string): ModelSpec[] {
  try {
    return parseModelList(text, '--model');
  } catch (error) {
    if (error instanceof ModelListError) throw new ConfigError(error.message);
    throw error;
  }
}
