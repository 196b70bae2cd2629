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
  // svc_rerank_batch_async: one request per query, over documents stored once (svc_documents).
  rerankBatchMaxQueries: 1_000,
  // Arrays and objects in a JSON Schema, counted from the schema itself (a const or enum value too).
  schemaMaxNesting: 512,
  // The prompt registry: a template and its description as stored; a render's variables nest no deeper
  // than a schema may (the rendered text is bounded by promptMaxChars).
  promptTemplateMaxChars: 100_000,
  promptDescriptionMaxChars: 10_000,
  // Limits across roles (quotas.ts), until an svc_admin member sets others (svc_set_queue_limits,
  // svc_set_role_limits): requests pending or processing over all roles, and each role's quotas of
  // them and of the bytes they store (parameters and grammar). A role's default is half the queue, so
  // that one role alone cannot fill it.
  queueDefaults: { maxQueueSize: 10_000, maxPending: 5_000, maxStoredBytes: 256 * 1024 * 1024 },
  // plv8 stops any call after plv8.execution_timeout (300 s by default); waits stay inside it.
  timeoutSecondsMax: 300,
} as const;
