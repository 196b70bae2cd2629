// svc client library (surface A): constrained generation in-process, on the same constraint compiler
// and engine as the queue worker, plus remote OpenAI-compatible providers behind `unsafeMode`.
//
//   import { generate, generateJson, generateRegex, generateChoice, generateFormat } from 'svc/client';
//
// Every output is checked locally against its constraint before it is returned, whatever produced it.
//
// This file is the package's public face: generate.ts holds the generation functions (run.ts the one
// generation they share), options.ts their options and checks, embed.ts embed and rerank, local.ts
// the local models (loadModel), remote.ts the providers.
export { generate, generateStream, generateJson, generateRegex, generateChoice, generateFormat } from './generate.js';
export type { StreamEvent } from './generate.js';
export { embed, rerank, DEFAULT_RERANK_TASK, type EmbedOptions, type RerankOptions } from './embed.js';
export { loadModel, type LoadedModelInfo } from './local.js';
export {
  DEFAULT_MAX_TOKENS,
  DEFAULT_SEED,
  DEFAULT_PROMPT_FORMAT,
  type CallOptions,
  type SchemaOptions,
  type GenerateOptions,
} from './options.js';
export { ClientError, type ClientErrorCode } from './errors.js';
export { ConstraintError, type ConstraintErrorCode } from '../grammar/index.js';
export { ContextExceededError, GenerationAbortedError, ModelLoadError, type RerankResult } from '../engine/outcomes.js';
export { ChatTemplateError, type PromptFormat, type StopReason } from '../engine/outcomes.js';
export {
  configure,
  unloadModels,
  resolveModel,
  DEFAULT_REMOTE_TIMEOUT_MS,
  type LocalSettings,
  type ModelRef,
} from './local.js';
export { DEFAULT_MODELS, MODEL_NAMES, type ModelPurpose } from '../model/names.js';
export { PROVIDERS, type Provider } from './remote.js';
export type { BasicTypeSpec, InferSchema, JsonSchema, SchemaSpec } from './constraint.js';
