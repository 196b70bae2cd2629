// The entry of the bundle that runs inside PostgreSQL: every TypeScript implementation the catalog
// names, by name. The emitted SQL stubs call `globalThis.__svc.api.<name>(...)`.
import * as submit from './submit.js';
import * as results from './results.js';

export const api = {
  generateAsync: submit.generateAsync,
  embedAsync: submit.embedAsync,
  generateJsonAsync: submit.generateJsonAsync,
  generateRegexAsync: submit.generateRegexAsync,
  generateChoiceAsync: submit.generateChoiceAsync,
  generateBatchAsync: submit.generateBatchAsync,
  embedBatchAsync: submit.embedBatchAsync,
  rerankAsync: submit.rerankAsync,
  getAsyncResult: results.getAsyncResult,
  cancelAsync: results.cancelAsync,
};
