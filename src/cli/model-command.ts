// Shared by the `svc generate`, `svc embed` and `svc rerank` commands: their frame (runModelCommand),
// reading the prompt from stdin, the model-loading progress bar, and one mapping from errors to exit
// codes and messages.
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { basename } from 'node:path';
import { UsageError, withSuggestion } from './command.js';
import { GenerationAbortedError, GrammarRefusedError, ModelLoadError } from '../engine/engine.js';
import { ChatTemplateError } from '../engine/prompt.js';
import { ConstraintError } from '../grammar/index.js';
import { ClientError } from '../client/errors.js';
import {
  configure,
  loadModel,
  resolveModel,
  unloadModels,
  type LoadedModelInfo,
  type ModelPurpose,
} from '../client/index.js';

/** Exit codes of the model commands. */
export const EXIT = {
  ok: 0,
  /** The constraint is invalid, or the output could not satisfy it (incomplete, failed validation). */
  output: 1,
  /** Bad flags or options, or no model given. */
  usage: 2,
  /** The model could not be loaded, or the remote provider failed (key, HTTP, network). */
  model: 3,
  /** Timed out (--timeout) or interrupted. */
  aborted: 4,
} as const;

/** Reads all of stdin; refuses to wait on a terminal. */
export function readStdin(what: string): string {
  if (process.stdin.isTTY) throw new UsageError(`no ${what} given: pass it as an argument or pipe it on stdin`);
  const text = readFileSync(0, 'utf8');
  return text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
}

export function positiveInteger(flag: string, value: string | undefined, min = 1): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min)
    throw new UsageError(`--${flag} must be an integer >= ${min}; got '${value}'`);
  return n;
}

/** A text progress bar on stderr, redrawn in place. */
export function progressBar(
  label: string,
  stream: NodeJS.WritableStream = process.stderr,
): { update(fraction: number): void; done(): void } {
  const width = 30;
  let last = -1;
  let finished = false;
  const draw = (fraction: number) => {
    const f = Math.max(0, Math.min(1, fraction));
    const percent = Math.floor(f * 100);
    if (percent <= last) return; // only forward
    last = percent;
    const filled = Math.round(f * width);
    stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(percent).padStart(3)}%`);
  };
  return {
    // 100% is drawn by done(): loaders may report 1 for an early stage before the real progress.
    update: (fraction) => {
      if (fraction < 1) draw(fraction);
    },
    done() {
      if (finished) return;
      finished = true;
      draw(1);
      stream.write('\n');
    },
  };
}

export interface ModelFlags {
  model?: string;
  threads?: string;
  'context-size'?: string;
  verbose?: boolean;
  progress?: boolean;
  'no-progress'?: boolean;
}

export const MODEL_OPTIONS = {
  model: { type: 'string' },
  threads: { type: 'string' },
  'context-size': { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  progress: { type: 'boolean' },
  'no-progress': { type: 'boolean' },
} as const;

export const MODEL_HELP = `Model options:
  --model M           a model name (stories260K, svc-embed, or a recommended one: bge-small-en, …; svc models list),
                      a GGUF path (or local:PATH, hf:URI, an https URL: fetched into the model cache), or a NAME of
                      $SVC_MODEL's NAME=PATH entries (the worker's form: writer=a.gguf,embedder=b.gguf);
                      default: $SVC_MODEL's bare PATH, else stories260K (generate) or svc-embed (embed, rerank)
                      a remote model is <provider>:<name> (openai, openrouter, deepseek) and needs --unsafe
  --threads N         CPU threads (default: $SVC_THREADS, else 1 for a model under 256 MiB, else the
                      physical cores, at most 8)
  --context-size N    tokens of prompt and output together (default: $SVC_CONTEXT_SIZE, else the model's
                      training context, as the worker's); a longer prompt is refused with its numbers
  -v, --verbose       say on stderr which model runs, on how many threads, in what context
  --progress          always draw the model-loading progress bar on stderr (default: when stderr is a terminal)
  --no-progress       never draw it`;

/**
 * Configures the library from the flags and loads a local model up front, drawing the progress bar
 * while it loads; none named, the one `purpose`'s calls run (stories260K; svc-embed to embed and rank).
 */
export async function prepareModel(flags: ModelFlags, purpose: ModelPurpose = 'generate'): Promise<void> {
  const threads = positiveInteger('threads', flags.threads);
  if (threads !== undefined) configure({ threads });
  const contextSize = positiveInteger('context-size', flags['context-size'], 2);
  if (contextSize !== undefined) configure({ contextSize });
  const ref = resolveModel(flags.model, purpose);
  if (ref.kind === 'remote') {
    if (flags.verbose) process.stderr.write(`svc: model ${ref.provider}:${ref.name} (remote)\n`);
    return;
  }
  const show = flags['no-progress'] ? false : flags.progress ? true : process.stderr.isTTY === true;
  const bar = show ? progressBar(`Loading model ${basename(ref.path)}`) : undefined;
  if (bar) configure({ onProgress: (fraction) => bar.update(fraction) });
  let loaded: LoadedModelInfo;
  try {
    loaded = await loadModel(flags.model, purpose);
  } finally {
    bar?.done();
    if (bar) configure({ onProgress: undefined });
  }
  if (flags.verbose) process.stderr.write(`svc: ${describeModel(loaded)}\n`);
}

/** The --verbose line: which model, its threads and context, and what it serves. */
function describeModel(m: LoadedModelInfo): string {
  return (
    `model ${m.path} (${m.modelId}): ${m.threads} thread${m.threads === 1 ? '' : 's'}, context ${m.contextSize} tokens ` +
    `(trained ${m.trainContextSize}), serves ${m.serves.join(', ')}, pooling ${m.pooling}, ${m.dimension} dimensions`
  );
}

/** Prints what went wrong and returns the exit code for it. Unknown errors are rethrown. */
export function report(command: string, error: unknown): number {
  const say = (message: string) => process.stderr.write(`svc ${command}: ${message}\n`);
  if (error instanceof UsageError || (error as { code?: string })?.code?.startsWith?.('ERR_PARSE_ARGS')) {
    say(`${(error as Error).message}\nRun 'svc ${command} --help' for usage.`);
    return EXIT.usage;
  }
  if (error instanceof ConstraintError) {
    say(`invalid constraint: ${error.message} [${error.code}]`);
    return EXIT.output;
  }
  if (error instanceof ClientError) {
    // Library messages start with the function's name; the command already says where we are.
    let message = error.message.replace(
      /^(generate|generateJson|generateRegex|generateChoice|generateFormat|embed|rerank|loadModel): /,
      '',
    );
    // Only where SVC_MODEL names models but none is the default (with none named at all, svc's own default runs).
    if (error.code === 'model-not-configured' && error.models?.length)
      message = `no default model: SVC_MODEL names ${error.models.join(', ')}; pass --model NAME (one of them), or add a bare PATH entry to SVC_MODEL`;
    if (error.code === 'model-not-found')
      message = message.replace('configure({ models }) or SVC_MODEL NAME=PATH', 'SVC_MODEL NAME=PATH');
    if (error.code === 'unsafe-mode-required') message += '; on the command line, pass --unsafe';
    say(`${message} [${error.code}]`);
    switch (error.code) {
      case 'incomplete-output':
      case 'validation-failed':
      case 'unsupported-constraint':
        return EXIT.output;
      case 'missing-api-key':
      case 'provider-error':
      case 'model-not-found':
        return EXIT.model;
      default:
        return EXIT.usage;
    }
  }
  if (error instanceof GrammarRefusedError) {
    // The compiler checks every grammar it emits, so this is an svc bug: say so, without a stack trace.
    say(
      `${error.message}: the grammar compiled from this constraint does not load in llama.cpp; please report the constraint [${error.code}]`,
    );
    return EXIT.output;
  }
  if (error instanceof ModelLoadError) {
    say(error.message);
    return EXIT.model;
  }
  if (error instanceof GenerationAbortedError) {
    say(error.message);
    return EXIT.aborted;
  }
  if (error instanceof ChatTemplateError) {
    say(`${error.message}; --raw sends the prompt as it is`);
    return EXIT.model;
  }
  throw error;
}

export const EXIT_HELP = `Exit status: 0 success; 1 invalid constraint, or the output could not satisfy it
(cut at --max-tokens, failed validation); 2 usage error or no model; 3 the model cannot be loaded or
the remote provider failed; 4 timed out.`;

type CommandConfig<O extends NonNullable<ParseArgsConfig['options']>> = {
  args: string[];
  options: O & typeof MODEL_OPTIONS & { help: { type: 'boolean'; short: 'h' } };
  strict: true;
  allowPositionals: true;
};
type Parsed<O extends NonNullable<ParseArgsConfig['options']>> = ReturnType<typeof parseArgs<CommandConfig<O>>>;

/**
 * The frame of a model command: parses `args` against its own `options` plus the model options and
 * --help (printing `help`), runs `body`, maps what it throws to an exit code (report) and unloads the
 * models either way. `body` returns nothing: success is EXIT.ok.
 */
export async function runModelCommand<O extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  help: string,
  args: string[],
  options: O,
  body: (parsed: Parsed<O>) => Promise<void>,
): Promise<number> {
  try {
    const parsed = parseArgs<CommandConfig<O>>({
      args,
      options: { ...options, ...MODEL_OPTIONS, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
    if ((parsed.values as { help?: boolean }).help) {
      process.stdout.write(help + '\n');
      return EXIT.ok;
    }
    await body(parsed);
    return EXIT.ok;
  } catch (error) {
    return report(command, withSuggestion(error, [...Object.keys(options), ...Object.keys(MODEL_OPTIONS), 'help']));
  } finally {
    await unloadModels();
  }
}
