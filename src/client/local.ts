// Local models: which GGUF a call runs on, and one Engine per model, loaded once and reused by every
// later call in the process.
import { availableParallelism } from 'node:os';
import { Engine } from '../engine/engine.js';
import { ClientError, invalidOptions } from './errors.js';
import { PROVIDERS } from './remote.js';

export interface LocalSettings {
  /** The default local model: a GGUF path or an `hf:` URI. Falls back to the SVC_MODEL environment variable. */
  model?: string;
  /** CPU threads for inference (default: SVC_THREADS, else all cores). */
  threads?: number;
  /** Generations decoded together in one context (default 4); more calls wait for a free sequence. */
  sequences?: number;
  /** Context size of each sequence, in tokens (default: the model's, at most 2048). */
  contextSize?: number;
  /** Called with load progress 0..1 whenever a model loads. */
  onProgress?: (fraction: number, model: string) => void;
}

const settings: LocalSettings = {};
const engines = new Map<string, Promise<Engine>>();

/** Sets process-wide defaults for local models. Only calls made after it see them; loaded models stay loaded. */
export function configure(next: LocalSettings): void {
  for (const [key, value] of Object.entries(next)) {
    if (!['model', 'threads', 'sequences', 'contextSize', 'onProgress'].includes(key)) {
      throw invalidOptions(`unknown setting '${key}'; known: model, threads, sequences, contextSize, onProgress`);
    }
    if (value === undefined) delete (settings as Record<string, unknown>)[key];
    else (settings as Record<string, unknown>)[key] = value;
  }
}

export type ModelRef = { kind: 'local'; path: string } | { kind: 'remote'; provider: string; name: string };

/**
 * Reads a `model` option: `<provider>:<model_name>` for a remote provider (openai, openrouter,
 * deepseek), `local:<path>` or a plain path for a GGUF file, `hf:<user>/<repo>/<file>` for a
 * node-llama-cpp URI. Without one: configure({ model }), then SVC_MODEL.
 */
export function resolveModel(model: string | undefined): ModelRef {
  if (model === undefined) {
    const fallback = settings.model ?? process.env.SVC_MODEL;
    if (!fallback) {
      throw new ClientError(
        'model-not-configured',
        "no local model configured: pass { model: '/path/to/model.gguf' }, call configure({ model }), or set SVC_MODEL " +
          "(svc's repository ships a small trained one: models/stories260K.gguf)",
      );
    }
    return resolveModel(fallback);
  }
  if (typeof model !== 'string' || model === '') throw invalidOptions(`model must be a non-empty string; got ${JSON.stringify(model)}`);
  if (model.startsWith('local:')) return { kind: 'local', path: model.slice('local:'.length) };
  if (model.startsWith('hf:')) return { kind: 'local', path: model };
  const m = /^([A-Za-z][A-Za-z0-9_-]+):(.*)$/s.exec(model);
  if (m && !m[2].startsWith('/') && !m[2].startsWith('\\')) {
    const provider = m[1].toLowerCase();
    if (!(provider in PROVIDERS)) {
      throw new ClientError(
        'unknown-provider',
        `unknown model provider '${m[1]}' in '${model}': remote providers are ${Object.keys(PROVIDERS).join(', ')}; a local model is a GGUF path (or local:PATH, hf:URI)`,
      );
    }
    if (m[2] === '') throw invalidOptions(`model '${model}' names no model after '${m[1]}:'`);
    return { kind: 'remote', provider, name: m[2] };
  }
  return { kind: 'local', path: model };
}

function threadsSetting(): number {
  if (settings.threads !== undefined) return settings.threads;
  const env = process.env.SVC_THREADS;
  if (env !== undefined && env !== '') {
    const n = Number(env);
    if (!Number.isInteger(n) || n < 1) throw invalidOptions(`SVC_THREADS must be a positive integer; got '${env}'`);
    return n;
  }
  return Math.max(1, availableParallelism());
}

/** The engine for a local model: loaded on first use, then the same instance for every call. */
export function localEngine(path: string): Promise<Engine> {
  let engine = engines.get(path);
  if (!engine) {
    const onProgress = settings.onProgress;
    engine = Engine.load({
      model: path,
      threads: threadsSetting(),
      sequences: settings.sequences ?? 4,
      contextSize: settings.contextSize,
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
