// Named models as the worker's --model and SVC_MODEL write them (`NAME=PATH`, repeatable, or one
// list), read in one place so the worker, the library and the `svc` command agree on the form.
import { parseServerSpec, type ServerEngineOptions } from './server-engine.js';

/**
 * A named model: its name (svc_models' name for the worker) and the GGUF file (or node-llama-cpp
 * URI) it loads, or the inference server that serves it (`llama-server+URL`, `vllm+URL[#served model]`).
 */
export interface ModelSpec {
  name: string;
  path: string;
  server?: Pick<ServerEngineOptions, 'kind' | 'url' | 'model'>;
}

/** A model list that does not read: the message names the entry and the rule. */
export class ModelListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelListError';
  }
}

/** svc_models' names: letters, digits, '.', '_', ':', '-', starting with a letter or digit, at most 63. */
export const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,62}$/;

/**
 * Entries separated by newlines or commas, each PATH (the model 'default') or NAME=PATH. A path
 * containing '=' or ',' needs the NAME= form and no commas. `option` names the source in errors.
 */
export function parseModelList(text: string, option = '--model'): ModelSpec[] {
  const entries = text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new ModelListError(`${option} needs a path`);
  const models = entries.map((entry): ModelSpec => {
    const eq = entry.indexOf('=');
    const name = eq > 0 ? entry.slice(0, eq) : '';
    if (eq > 0 && MODEL_NAME.test(name)) {
      const path = entry.slice(eq + 1).trim();
      if (path === '') throw new ModelListError(`${option} ${entry}: the path after "${name}=" is empty`);
      return { name, path };
    }
    if (eq === 0) throw new ModelListError(`${option} ${entry}: the name before "=" is empty`);
    return { name: 'default', path: entry };
  });
  for (const model of models) {
    try {
      const server = parseServerSpec(model.path);
      if (server) model.server = server;
    } catch (error) {
      throw new ModelListError(`${option} ${model.name}=…: ${(error as Error).message}`);
    }
  }
  const seen = new Set<string>();
  for (const { name } of models) {
    if (seen.has(name))
      throw new ModelListError(
        `${option}: the model name "${name}" is given twice${name === 'default' ? ` (a ${option} without NAME= is named default)` : ''}`,
      );
    seen.add(name);
  }
  return models;
}
