// Local models: which GGUF a call runs on, and one Engine per model, loaded once and reused by every
// later call in the process.
import { existsSync } from 'node:fs';
import { Engine } from '../engine/engine.js';
import { servable } from '../engine/capabilities.js';
import { ClientError, invalidOptions } from './errors.js';
import { MODEL_NAME, ModelListError, parseModelList } from '../engine/model-list.js';
import { parseServerSpec } from '../engine/server-engine.js';
import { DEFAULT_MODELS, MODEL_NAMES, modelSource, type ModelPurpose } from '../model/names.js';
import { PROVIDERS } from './remote.js';

export interface LocalSettings {
  /**
   * The default model of every function: a name of `models`, a model name (stories260K, svc-embed,
   * bge-small-en, …: `svc models list`), a GGUF path or an `hf:` URI. Falls back to the model named
   * 'default' (SVC_MODEL's bare PATH entry), then to svc's shipped defaults (DEFAULT_MODELS:
   * stories260K generates, svc-embed embeds and ranks).
   */
  model?: string;
  /**
   * Local models by name, which `model` options may then use: name → GGUF path or `hf:` URI. Added to
   * SVC_MODEL's `NAME=PATH` entries (the worker's form: `writer=a.gguf,embedder=b.gguf`); these win.
   */
  models?: Record<string, string>;
  /** CPU threads for inference (default: SVC_THREADS, else 1 for a model under 256 MiB and the physical cores, at most 8, for a larger one). */
  threads?: number;
  /** Generations decoded together in one context (default 4); more calls wait for a free sequence. */
  sequences?: number;
  /** Context size of each sequence, in tokens: prompt and output together (default: SVC_CONTEXT_SIZE, else the model's training context, as the worker's). */
  contextSize?: number;
  /** Called with load progress 0..1 whenever a model loads. */
  onProgress?: (fraction: number, model: string) => void;
  /** How long a remote call may take, in ms (default 120,000); a call's own `timeoutMs` wins. */
  remoteTimeoutMs?: number;
}

/** The default of `remoteTimeoutMs`: a provider that never answers fails after two minutes. */
export const DEFAULT_REMOTE_TIMEOUT_MS = 120_000;

/** The timeout of a remote call without a `timeoutMs` of its own. */
export const remoteTimeoutMs = (): number => settings.remoteTimeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;

const settings: LocalSettings = {};
const engines = new Map<string, Promise<Engine>>();

/** Sets process-wide defaults for local models. Only calls made after it see them; loaded models stay loaded. */
export function configure(next: LocalSettings): void {
  for (const [key, value] of Object.entries(next)) {
    if (!['model', 'models', 'threads', 'sequences', 'contextSize', 'onProgress', 'remoteTimeoutMs'].includes(key)) {
      throw invalidOptions(
        `unknown setting '${key}'; known: model, models, threads, sequences, contextSize, onProgress, remoteTimeoutMs`,
      );
    }
    if (key === 'models' && value !== undefined) checkModels(value);
    if (
      key === 'remoteTimeoutMs' &&
      value !== undefined &&
      (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value))
    ) {
      throw invalidOptions(`remoteTimeoutMs must be a positive number of milliseconds; got ${JSON.stringify(value)}`);
    }
    if (value === undefined) delete (settings as Record<string, unknown>)[key];
    else (settings as Record<string, unknown>)[key] = value;
  }
}

export type ModelRef = { kind: 'local'; path: string } | { kind: 'remote'; provider: string; name: string };

function checkModels(models: unknown): void {
  if (typeof models !== 'object' || models === null || Array.isArray(models))
    throw invalidOptions(`models must be an object of name → GGUF path; got ${JSON.stringify(models)}`);
  for (const [name, path] of Object.entries(models)) {
    if (!MODEL_NAME.test(name))
      throw invalidOptions(`models: the name '${name}' must be letters, digits, '.', '_', ':' or '-', at most 63`);
    if (typeof path !== 'string' || path === '')
      throw invalidOptions(`models.${name} must be a non-empty path; got ${JSON.stringify(path)}`);
  }
}

/** SVC_MODEL's entries as last read: parsed again only when the variable changes (every call resolves a model). */
let envModels: { text: string; entries: Array<[string, string]> } | undefined;

function svcModelEntries(): Array<[string, string]> {
  const text = process.env.SVC_MODEL ?? '';
  if (text.trim() === '') return [];
  if (envModels?.text !== text) {
    try {
      envModels = { text, entries: parseModelList(text, 'SVC_MODEL').map(({ name, path }) => [name, path]) };
    } catch (error) {
      if (error instanceof ModelListError) throw invalidOptions(error.message);
      throw error;
    }
  }
  return envModels.entries;
}

/** The named local models: SVC_MODEL's entries, then configure({ models }). */
function namedModels(): Map<string, string> {
  return new Map([...svcModelEntries(), ...Object.entries(settings.models ?? {})]);
}

/**
 * Reads a `model` option: a name of configure({ models }) or SVC_MODEL's `NAME=PATH` entries, a
 * model name svc knows (stories260K, svc-embed, bge-small-en, …: the names `svc models pull` takes),
 * `<provider>:<model_name>` for a remote provider (openai, openrouter, deepseek), `local:<path>` or a
 * plain path for a GGUF file, `hf:<user>/<repo>/<file>` for a node-llama-cpp URI. Without one:
 * configure({ model }), then the model named 'default' (SVC_MODEL's bare PATH), then, where no model
 * is configured at all, svc's default for `purpose` (stories260K generates, svc-embed embeds and
 * ranks: the edge's GENERATE_MODEL and EMBED_MODEL).
 */
export function resolveModel(model: string | undefined, purpose: ModelPurpose = 'generate'): ModelRef {
  const named = namedModels();
  if (model === undefined) {
    const fallback = settings.model ?? named.get('default');
    if (fallback !== undefined) return resolveModel(fallback);
    if (named.size > 0) {
      const names = [...named.keys()].join(', ');
      throw new ClientError(
        'model-not-configured',
        `no default model: the named models are ${names}; pass { model: '${[...named.keys()][0]}' } or call configure({ model })`,
        { models: [...named.keys()] },
      );
    }
    return resolveModel(DEFAULT_MODELS[purpose]);
  }
  if (typeof model !== 'string' || model === '')
    throw invalidOptions(`model must be a non-empty string; got ${JSON.stringify(model)}`);
  const path = named.get(model);
  if (path !== undefined) {
    if (parseServerSpec(path)) {
      throw invalidOptions(
        `model '${model}' is an inference server (${path}): the worker serves inference servers, the library runs GGUF files (a path, local:PATH or hf:URI)`,
      );
    }
    return unnamed(path);
  }
  // A model name svc knows: its shipped file or its hub URI (a file of that name is ./NAME or local:NAME).
  const known = modelSource(model);
  if (known !== undefined) return { kind: 'local', path: known };
  const ref = unnamed(model);
  // A bare word (no directory, no .gguf) that is no file is most likely a mistyped name: say what the
  // names are. A path that is no file is the engine's "model file not found".
  if (ref.kind === 'local' && model === ref.path && !/[/\\]|\.gguf$/i.test(model) && !existsSync(model)) {
    const names = [...named.keys()];
    throw new ClientError(
      'model-not-found',
      `model '${model}' is neither a named model (${names.length > 0 ? `the names are ${names.join(', ')}` : 'none is declared: configure({ models }) or SVC_MODEL NAME=PATH'}), ` +
        `a model svc knows (${MODEL_NAMES.join(', ')}) nor a file`,
      { models: names },
    );
  }
  return ref;
}

/** A model string that is no name: remote provider, local:PATH, hf:URI or a path. */
function unnamed(model: string): ModelRef {
  if (model.startsWith('local:')) return { kind: 'local', path: model.slice('local:'.length) };
  if (model.startsWith('hf:')) return { kind: 'local', path: model };
  const m = /^([A-Za-z][A-Za-z0-9_-]+):(.*)$/s.exec(model);
  if (m && !m[2].startsWith('/') && !m[2].startsWith('\\')) {
    const provider = m[1].toLowerCase();
    if (!(provider in PROVIDERS)) {
      throw new ClientError(
        'unknown-provider',
        `unknown model provider '${m[1]}' in '${model}': remote providers are ${Object.keys(PROVIDERS).join(', ')}; a local model is a GGUF path (or local:PATH, hf:URI) or a name of configure({ models }) or SVC_MODEL`,
      );
    }
    if (m[2] === '') throw invalidOptions(`model '${model}' names no model after '${m[1]}:'`);
    return { kind: 'remote', provider, name: m[2] };
  }
  return { kind: 'local', path: model };
}

/** A setting, else its environment variable (a positive integer), else undefined: the engine's default (threads.ts; the model's training context). */
function integerSetting(value: number | undefined, variable: 'SVC_THREADS' | 'SVC_CONTEXT_SIZE'): number | undefined {
  if (value !== undefined) return value;
  const env = process.env[variable];
  if (env !== undefined && env !== '') {
    const n = Number(env);
    if (!Number.isInteger(n) || n < 1) throw invalidOptions(`${variable} must be a positive integer; got '${env}'`);
    return n;
  }
  return undefined;
}

/**
 * The engine for a local model: loaded on first use, then the same instance for every call.
 * @internal (left out of the package's declarations: its type is node-llama-cpp's world)
 */
export function localEngine(path: string): Promise<Engine> {
  let engine = engines.get(path);
  if (!engine) {
    const onProgress = settings.onProgress;
    engine = Engine.load({
      model: path,
      threads: integerSetting(settings.threads, 'SVC_THREADS'),
      sequences: settings.sequences ?? 4,
      contextSize: integerSetting(settings.contextSize, 'SVC_CONTEXT_SIZE'),
      onProgress: onProgress ? (fraction) => onProgress(fraction, path) : undefined,
    });
    engines.set(path, engine);
    engine.catch(() => engines.delete(path)); // a failed load is tried again next time
  }
  return engine;
}

/** Frees every loaded local model (the next call loads again). */
export async function unloadModels(): Promise<void> {
  const all = [...engines.values()];
  engines.clear();
  for (const engine of all) await (await engine.catch(() => undefined))?.dispose();
}

/** A local model's path for `fn`; none named: `purpose`'s default (resolveModel). */
export function localOnly(model: string | undefined, fn: string, purpose: ModelPurpose): string {
  const ref = resolveModel(model, purpose);
  if (ref.kind === 'remote')
    throw new ClientError('unsupported-operation', `${fn}: runs on local models only; '${model}' is a remote model`);
  return ref.path;
}

/**
 * Loads a local model now (e.g. to show progress before the first call) and describes it; none
 * named: the one `purpose`'s calls would run (the default generator, or embedder for 'embed' and 'rerank').
 */
export async function loadModel(model?: string, purpose: ModelPurpose = 'generate'): Promise<LoadedModelInfo> {
  const path = localOnly(model, 'loadModel', purpose);
  const engine = await localEngine(path);
  const c = engine.capabilities;
  return {
    path,
    modelId: engine.modelId,
    dimension: engine.dimension,
    hasRankingHead: engine.hasRankingHead,
    threads: engine.threads,
    contextSize: engine.contextSize,
    trainContextSize: engine.trainContextSize,
    serves: servable(c),
    pooling: c.pooling,
  };
}

/** What loadModel tells of a loaded local model. */
export interface LoadedModelInfo {
  path: string;
  modelId: string;
  dimension: number;
  hasRankingHead: boolean;
  /** CPU threads it runs on (configure({ threads }), SVC_THREADS, else the default: docs/client.md "Threads"). */
  threads: number;
  /** Tokens per sequence, prompt and output together (configure({ contextSize }), SVC_CONTEXT_SIZE, else trainContextSize). */
  contextSize: number;
  /** The context the model was trained with. */
  trainContextSize: number;
  /** What the model can do: an embedding model (an encoder, or a GGUF with a pooling type) does not generate. */
  serves: Array<'generate' | 'embed' | 'rerank'>;
  /** How embed pools its token vectors: the GGUF's pooling type, or 'none' (a decoder: the last token's vector). */
  pooling: string;
}
