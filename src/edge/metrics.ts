// Request metrics (SPEC 2.3, 4.3, 8): one request_metrics row per request, written in batches.
//
// Events are buffered in the isolate and flushed when 100 are waiting or 10 s have passed since
// the last flush, checked at each request (a Worker has no timers that outlive a request, so
// "every 10 s" means "on the first request after 10 s"; the cron trigger flushes idle isolates'
// leftovers only if that isolate runs it, so a buffer can be lost when an isolate is evicted —
// these are metrics, not ledger rows). The metrics route flushes first so it sees its own isolate.
import { METRICS_FLUSH_EVENTS, METRICS_FLUSH_INTERVAL_MS, METRICS_WINDOW_S } from './config.js';
import type { D1Database } from './types.js';

export interface MetricEvent {
  endpoint: string;
  durationMs: number;
  cached: boolean;
  timestamp: number; // epoch seconds
  region: string;
}

export class MetricsBuffer {
  private events: MetricEvent[] = [];
  private lastFlush = Date.now();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private maxEvents = METRICS_FLUSH_EVENTS,
    private intervalMs = METRICS_FLUSH_INTERVAL_MS,
  ) {}

  get pending(): number {
    return this.events.length;
  }

  /** Adds an event; returns a flush promise when a threshold is reached (for waitUntil), else null. */
  record(db: D1Database, e: MetricEvent, nowMs = Date.now()): Promise<void> | null {
    this.events.push(e);
    if (this.events.length >= this.maxEvents || nowMs - this.lastFlush >= this.intervalMs) return this.flush(db, nowMs);
    return null;
  }

  /** Writes all buffered events in one D1 batch; flushes are serialized. */
  flush(db: D1Database, nowMs = Date.now()): Promise<void> {
    const batch = this.events;
    this.events = [];
    this.lastFlush = nowMs;
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      const stmt = db.prepare(
        'INSERT INTO request_metrics (endpoint, duration_ms, cached, timestamp, region) VALUES (?1, ?2, ?3, ?4, ?5)',
      );
      try {
        await db.batch(
          batch.map((e) => stmt.bind(e.endpoint, Math.round(e.durationMs), e.cached ? 1 : 0, e.timestamp, e.region)),
        );
      } catch (err) {
        // Losing metrics must never fail a request; log and drop.
        console.error('metrics flush failed:', err);
      }
    });
    return this.flushing;
  }
}

const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** Prometheus text exposition of the last hour, per endpoint and region. */
export async function renderMetrics(db: D1Database, nowS = Math.floor(Date.now() / 1000)): Promise<string> {
  const { results } = await db
    .prepare(
      `SELECT endpoint, COALESCE(region, 'unknown') AS region, COUNT(*) AS n,
              AVG(duration_ms) / 1000.0 AS avg_s, AVG(CASE WHEN cached THEN 1.0 ELSE 0.0 END) AS cache_rate
       FROM request_metrics WHERE timestamp >= ?1
       GROUP BY endpoint, COALESCE(region, 'unknown') ORDER BY endpoint, region`,
    )
    .bind(nowS - METRICS_WINDOW_S)
    .all<{ endpoint: string; region: string; n: number; avg_s: number; cache_rate: number }>();
  const lines: string[] = ['# HELP svc_requests_total Requests in the last hour.', '# TYPE svc_requests_total gauge'];
  const label = (r: { endpoint: string; region: string }) =>
    `{endpoint="${esc(r.endpoint)}",region="${esc(r.region)}"}`;
  for (const r of results) lines.push(`svc_requests_total${label(r)} ${r.n}`);
  lines.push(
    '# HELP svc_duration_seconds Average request duration in the last hour.',
    '# TYPE svc_duration_seconds gauge',
  );
  for (const r of results) lines.push(`svc_duration_seconds${label(r)} ${Number(r.avg_s ?? 0).toFixed(6)}`);
  lines.push(
    '# HELP svc_cache_rate Share of requests answered from cache in the last hour.',
    '# TYPE svc_cache_rate gauge',
  );
  for (const r of results) lines.push(`svc_cache_rate${label(r)} ${Number(r.cache_rate ?? 0).toFixed(4)}`);
  return lines.join('\n') + '\n';
}
