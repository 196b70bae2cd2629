// The entry of the bundle that runs inside PostgreSQL: every TypeScript implementation the catalog
// names, by name. The emitted SQL stubs call `globalThis.__svc.api.<name>(...)`.
import * as submit from './submit.js';
import * as results from './results.js';
import * as sync from './sync.js';
import * as autonomous from './autonomous.js';
import * as vectorizer from './vectorizer.js';
import * as prompts from './prompts.js';
import * as summarize from './summarize.js';
import * as quotas from './quotas.js';
import * as stream from './stream.js';
import * as facts from './facts.js';

export const api = {
  generate: sync.generate,
  embed: sync.embed,
  generateJson: sync.generateJson,
  generateJsonText: sync.generateJsonText,
  generateRegex: sync.generateRegex,
  generateChoice: sync.generateChoice,
  rerank: sync.rerank,
  generateMany: sync.generateMany,
  embedMany: sync.embedMany,
  generateJsonMany: sync.generateJsonMany,
  generateJsonManyText: sync.generateJsonManyText,
  generateRegexMany: sync.generateRegexMany,
  generateChoiceMany: sync.generateChoiceMany,
  rerankMany: sync.rerankMany,
  rerankDocsOnly: sync.rerankDocsOnly,
  rerankBatch: sync.rerankBatch,
  syncSubmit: autonomous.syncSubmit,
  setSyncConnection: autonomous.setSyncConnection,
  generateAsync: submit.generateAsync,
  embedAsync: submit.embedAsync,
  generateJsonAsync: submit.generateJsonAsync,
  generateJsonAsyncText: submit.generateJsonAsyncText,
  generateRegexAsync: submit.generateRegexAsync,
  generateChoiceAsync: submit.generateChoiceAsync,
  generateBatchAsync: submit.generateBatchAsync,
  embedBatchAsync: submit.embedBatchAsync,
  rerankAsync: submit.rerankAsync,
  rerankBatchAsync: submit.rerankBatchAsync,
  getAsyncResult: results.getAsyncResult,
  getAsyncResults: results.getAsyncResults,
  cancelAsync: results.cancelAsync,
  setRoleLimits: quotas.setRoleLimits,
  setQueueLimits: quotas.setQueueLimits,
  queueLimits: quotas.queueLimits,
  roleQuotaCheck: quotas.roleQuotaCheck,
  vectorize: vectorizer.vectorize,
  vectorizeDrop: vectorizer.vectorizeDrop,
  search: vectorizer.search,
  vectorizerEmbed: vectorizer.vectorizerEmbed,
  promptCreate: prompts.promptCreate,
  promptUpdate: prompts.promptUpdate,
  promptRender: prompts.promptRender,
  summarizeStep: summarize.summarizeStep,
  summarizeCombine: summarize.summarizeCombine,
  summarizeFinal: summarize.summarizeFinal,
  summarizeStepOptions: summarize.summarizeStepOptions,
  summarizePartialStep: summarize.summarizePartialStep,
  summarizePartial: summarize.summarizePartial,
  summarizeMerge: summarize.summarizeMerge,
  streamStart: stream.streamStart,
  streamNext: stream.streamNext,
  extractFacts: facts.extractFacts,
  deduplicateFacts: facts.deduplicateFacts,
};
