-- Edge caches and metrics (SPEC 2.3). Times are epoch seconds; defaults are "now".
CREATE TABLE IF NOT EXISTS generation_cache (
  cache_key TEXT PRIMARY KEY,
  prompt TEXT NOT NULL,
  parameters TEXT,
  result TEXT NOT NULL,
  token_count INTEGER,
  created_at INTEGER DEFAULT (unixepoch()),
  accessed_at INTEGER DEFAULT (unixepoch()),
  access_count INTEGER DEFAULT 1
);
-- created_at serves age-based trimming, accessed_at the 30-day cleanup and LRU trimming.
CREATE INDEX IF NOT EXISTS idx_generation_cache_created_at ON generation_cache (created_at);
CREATE INDEX IF NOT EXISTS idx_generation_cache_accessed_at ON generation_cache (accessed_at);

CREATE TABLE IF NOT EXISTS embedding_cache (
  text_hash TEXT PRIMARY KEY,
  text TEXT NOT NULL,
  embedding BLOB NOT NULL,
  dimension INTEGER,
  created_at INTEGER DEFAULT (unixepoch())
);

CREATE TABLE IF NOT EXISTS request_metrics (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint TEXT NOT NULL,
  duration_ms INTEGER,
  cached BOOLEAN,
  timestamp INTEGER DEFAULT (unixepoch()),
  region TEXT
);
-- The metrics route reads the last hour; without this index it scans every row ever written.
CREATE INDEX IF NOT EXISTS idx_request_metrics_timestamp ON request_metrics (timestamp);
