// svc's database settings, declared once: their names, defaults and meanings. settings.ts reads them,
// queries.ts falls back to these defaults, and svc_settings() lists them (plv8 cannot register
// settings, so `SHOW svc.x` fails until a session or ALTER DATABASE/ROLE sets it).
export interface Setting {
  /** The default as SQL text would spell it (NULL: none). */
  readonly default: string | null;
  readonly meaning: string;
}

export const SETTINGS = {
  'svc.max_queue_size': { default: '10000', meaning: "lowers this session's bound of requests pending or processing over all roles, never above the queue's (svc_set_queue_limits, 10000 by default); beyond it submission fails (53400)" },
  'svc.worker_concurrency': { default: '4', meaning: "jobs a worker runs at once when SVC_WORKER_CONCURRENCY is unset" },
  'svc.worker_poll_interval': { default: '1s', meaning: "a worker's polling fallback when SVC_WORKER_POLL_INTERVAL is unset" },
  'svc.sync_timeout': { default: '60s', meaning: 'how long the synchronous functions wait for a worker' },
  'svc.cache_size': { default: '10000', meaning: 'result cache entries kept (least used evicted first)' },
  'svc.retention': { default: '1 day', meaning: 'how long finished (completed, failed, cancelled) requests are kept; the workers delete older ones in small batches. Read in the workers\' sessions: set it per database (ALTER DATABASE) or for their role' },
  'svc.retry_backoff': { default: '1s', meaning: 'base of the retry backoff: retry n waits svc.retry_backoff * 2^n, at most 5 minutes' },
  'svc.prompt_format': { default: 'chat', meaning: "how generation prompts reach the model: 'chat' sends the prompt as the user turn of the model's chat template (raw on a model without one), 'raw' sends it as is; recorded in the request's parameters and part of its cache key" },
  'svc.strict_schema': { default: 'off', meaning: "'on' refuses JSON Schema keywords of no standard vocabulary (x-*, readonly, id after draft-04) and unknown formats; 'off' takes them as annotations, as the JSON Schema specification says; recorded in the request's parameters (strict_schema) and part of its cache key" },
  'svc.open_objects': { default: 'off', meaning: "'on' compiles JSON Schema objects without additionalProperties as open (any further members, as the JSON Schema specification reads them); 'off' closes them (only the declared properties, what a model should write); recorded in the request's parameters (open_objects) and part of its cache key" },
  'svc.model': { default: null, meaning: "the model (svc_models) of this session's requests, for every function (unset: svc.generate_model, svc.embed_model, svc.rerank_model); recorded in the request's parameters unless 'default', and part of its cache key" },
  'svc.generate_model': { default: null, meaning: "the model of generation requests (svc_generate*, svc_generate_json/_regex/_choice*) when svc.model is unset (unset: 'default')" },
  'svc.embed_model': { default: null, meaning: "the model of embedding requests (svc_embed*, vectorizers declared without model) and, unless svc.rerank_model is set, of rerank requests, when svc.model is unset (unset: the model named 'embed' where one serves embed, else 'default')" },
  'svc.rerank_model': { default: null, meaning: "the model of rerank requests (svc_rerank*) when svc.model is unset (unset: svc.embed_model's, else the model named 'embed' where one serves rerank, else 'default')" },
  'svc.summarize_chunk_size': { default: null, meaning: "characters of text per model call of svc_summarize (at least 100): a chunk of rows' text is summarized at a time, and partial summaries are combined when together they pass it; unset, chunks are cut to fit the serving model's context (in UTF-8 bytes, at most one token each)" },
  'svc.system_prompt': { default: null, meaning: "system turn of the chat template for generation requests in the 'chat' format (unset or empty: none); recorded in the request's parameters and part of its cache key" },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;
