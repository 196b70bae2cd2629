// The documented limits of svc's SQL functions (README, "Limits"). Validation reads them from here.
export const LIMITS = {
  maxTokens: { min: 1, max: 32768 },
  priority: { min: -100, max: 100 },
  promptMaxChars: 1_000_000,
  batchMaxItems: 10_000,
  // A set-based sync call's inputs: a table of 100,000 rows in one statement (the queue holds a window of them at a time).
  syncSetMaxItems: 100_000,
  choicesMaxItems: 10_000,
  rerankMaxDocuments: 1_000,
  // svc_rerank_batch_async: each query's request carries the documents (up to 1,000 x 1,000 of them).
  rerankBatchMaxQueries: 1_000,
  // Arrays and objects in a JSON Schema, counted from the schema itself (a const or enum value too).
  schemaMaxNesting: 512,
  // The prompt registry: a template and its description as stored; a render's variables nest no deeper
  // than a schema may (the rendered text is bounded by promptMaxChars).
  promptTemplateMaxChars: 100_000,
  promptDescriptionMaxChars: 10_000,
  // plv8 stops any call after plv8.execution_timeout (300 s by default); waits stay inside it.
  timeoutSecondsMax: 300,
} as const;
