// Request logs and usage counts of keyed calls, written off the response path: each answered request is turned
// at once into its log line's text and a count in its key's per-day, per-route usage, and the lines and counts
// of each FLUSH_EVERY_MS window are written in one statement, one statement at a time. The queue of lines is
// bounded: when the database is slow the recorder drops lines and counts them instead of holding memory or
// requests (the usage counts still count them). Never key material, never bodies: only method, path, status,
// latency, request id and time.
import type { Pool } from "pg";

export interface RequestLogEntry {
  keyId: string;
  partnerId: string;
  method: string;
  /** The path as requested, without its query string. */
  path: string;
  /** The route it matched (`GET /v1/webhooks/:id`), which usage counts by. */
  route: string;
  status: number;
  latencyMs: number;
  requestId: string;
  at: Date;
}

export interface RequestRecorder {
  /** Queues the entry; never waits and never throws. */
  record(entry: RequestLogEntry): void;
  /** Entries dropped because the queue was full, and entries whose batch failed to write. */
  lost(): { dropped: number; failed: number };
  /** Resolves once every entry queued so far is written (or lost). */
  drain(): Promise<void>;
}

export interface RecorderOptions {
  /** Entries waiting at most; more are dropped. */
  maxQueue: number;
  maxBatch: number;
}

export const DEFAULT_RECORDER_OPTIONS: RecorderOptions = { maxQueue: 10_000, maxBatch: 500 };
/** What the log keeps per key: its last 1,000 requests of the last 7 days. */
export const REQUEST_LOG_RETENTION = { perKey: 1000, days: 7 } as const;
/** How often (in clock minutes) API housekeeping prunes: between runs a key may hold that many minutes more. */
export const REQUEST_LOG_PRUNE_MINUTES = 10;
/** Daily usage counts are kept this many days. */
export const USAGE_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
const PATH_MAX = 200;

// Lines arrive as a JSON array of arrays (the order of lineTextOf), read through jsonb, which parses each line
// once; the counts arrive already summed and are written in key order, so that concurrent writers from several
// processes lock their rows in one order.
const WRITE_SQL = `
WITH logged AS (
  INSERT INTO api_request_log (key_id, partner_id, method, path, status, latency_ms, request_id, at)
  SELECT line->>0, line->>1, line->>2, line->>3, (line->>4)::int, (line->>5)::int, line->>6,
         to_timestamp((line->>7)::float8 / 1000)
  FROM jsonb_array_elements($1::jsonb) AS line
)
INSERT INTO api_usage_daily (key_id, partner_id, day, route, requests, rate_limited)
SELECT key_id, partner_id, day, route, requests, rate_limited
FROM json_to_recordset($2::json) AS counted(key_id text, partner_id text, day date, route text, requests int,
  rate_limited int)
ORDER BY key_id, day, route
ON CONFLICT (key_id, day, route) DO UPDATE SET requests = api_usage_daily.requests + EXCLUDED.requests,
  rate_limited = api_usage_daily.rate_limited + EXCLUDED.rate_limited`;

/**
 * The entry's log line as the JSON text the statement reads. Made when the entry is recorded: a line waits up to
 * FLUSH_EVERY_MS, long enough for the garbage collector to promote what it holds, and one flat string is less to
 * copy and promote than the entry's object, its date and its strings.
 */
function lineTextOf(entry: RequestLogEntry): string {
  return JSON.stringify([
    entry.keyId,
    entry.partnerId,
    entry.method,
    entry.path.slice(0, PATH_MAX),
    entry.status,
    Math.max(0, Math.round(entry.latencyMs)),
    entry.requestId,
    entry.at.getTime(),
  ]);
}

interface UsageCount {
  key_id: string;
  partner_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  route: string;
  requests: number;
  rate_limited: number;
}

/** Counts of the entries recorded since the last write, per key, UTC day and route. */
class UsageCounts {
  private counts = new Map<string, UsageCount>();

  add(entry: RequestLogEntry): void {
    const route = entry.route.slice(0, PATH_MAX);
    const dayNumber = Math.floor(entry.at.getTime() / DAY_MS);
    const id = `${dayNumber} ${entry.keyId} ${route}`;
    let count = this.counts.get(id);
    if (count === undefined) {
      count = {
        key_id: entry.keyId,
        partner_id: entry.partnerId,
        day: new Date(dayNumber * DAY_MS).toISOString().slice(0, 10),
        route,
        requests: 0,
        rate_limited: 0,
      };
      this.counts.set(id, count);
    }
    count.requests += 1;
    if (entry.status === 429) count.rate_limited += 1;
  }

  /** The counts so far as the statement's JSON parameter (undefined when none); starts counting afresh. */
  take(): string | undefined {
    if (this.counts.size === 0) return undefined;
    const text = JSON.stringify([...this.counts.values()]);
    this.counts.clear();
    return text;
  }
}

/**
 * How long an entry waits before its batch is written. Log lines ride along every keyed request, validate's
 * included: one statement per FLUSH_EVERY_MS (or per maxBatch entries) instead of one per turn of the event
 * loop keeps their cost off the hot path's database (measured in `npm run bench -- validate`).
 */
export const FLUSH_EVERY_MS = 200;

export function requestRecorder(
  pool: Pool,
  log: (line: string) => void,
  options: RecorderOptions = DEFAULT_RECORDER_OPTIONS,
): RequestRecorder {
  let lines: string[] = [];
  const usage = new UsageCounts();
  let writing = 0;
  let dropped = 0;
  let failed = 0;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  async function write(batch: string[], counts: string): Promise<void> {
    writing += batch.length;
    try {
      await pool.query(WRITE_SQL, [`[${batch.join(",")}]`, counts]);
    } catch (error) {
      failed += batch.length;
      log(`request log: ${batch.length} entries not written: ${(error as Error).message}`);
    } finally {
      writing -= batch.length;
    }
  }

  // One write at a time, each taking everything queued (up to maxBatch lines per statement) when it starts;
  // the counts go with the first statement.
  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    flushing = flushing.then(async () => {
      let counts = usage.take();
      while (lines.length > 0 || counts !== undefined) {
        const batch = lines.slice(0, options.maxBatch);
        lines = lines.slice(batch.length);
        await write(batch, counts ?? "[]");
        counts = undefined;
      }
    });
    return flushing;
  }

  return {
    record(entry) {
      usage.add(entry);
      if (lines.length + writing >= options.maxQueue) {
        dropped += 1;
        if (dropped % 1000 === 1)
          log(`request log: queue full (${options.maxQueue}), ${dropped} entries dropped so far`);
      } else {
        lines.push(lineTextOf(entry));
        if (lines.length >= options.maxBatch) {
          void flush();
          return;
        }
      }
      if (timer === undefined) {
        timer = setTimeout(() => void flush(), FLUSH_EVERY_MS);
        timer.unref();
      }
    },
    lost: () => ({ dropped, failed }),
    drain: flush,
  };
}

export interface RequestLogLine {
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  requestId: string;
  at: Date;
}

/** The key's most recent requests, newest first. */
export async function recentRequests(pool: Pool, keyId: string, limit: number): Promise<RequestLogLine[]> {
  const { rows } = await pool.query<{
    method: string;
    path: string;
    status: number;
    latency_ms: number;
    request_id: string;
    at: Date;
  }>(
    `SELECT method, path, status, latency_ms, request_id, at FROM api_request_log
     WHERE key_id = $1 ORDER BY log_id DESC LIMIT $2`,
    [keyId, Math.min(limit, REQUEST_LOG_RETENTION.perKey)],
  );
  return rows.map((row) => ({
    method: row.method,
    path: row.path,
    status: row.status,
    latencyMs: row.latency_ms,
    requestId: row.request_id,
    at: row.at,
  }));
}

export interface UsageRow {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  route: string;
  requests: number;
  rateLimited: number;
}

/** The key's counts per UTC day and route over the last `days` days (today included), newest day first. */
export async function usageOf(pool: Pool, keyId: string, days: number, nowMs: number): Promise<UsageRow[]> {
  const since = new Date(nowMs - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  const { rows } = await pool.query<{ day: string; route: string; requests: number; rate_limited: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, route, requests, rate_limited FROM api_usage_daily
     WHERE key_id = $1 AND day >= $2::date ORDER BY day DESC, route`,
    [keyId, since],
  );
  return rows.map((row) => ({
    day: row.day,
    route: row.route,
    requests: row.requests,
    rateLimited: row.rate_limited,
  }));
}

/** Keeps each key's last 1,000 requests of the last 7 days, and 30 days of usage counts. */
export async function pruneRequestLog(pool: Pool, nowMs: number): Promise<void> {
  await pool.query("DELETE FROM api_request_log WHERE at < $1", [
    new Date(nowMs - REQUEST_LOG_RETENTION.days * DAY_MS),
  ]);
  await pool.query(
    `WITH heavy AS (
       SELECT key_id FROM api_request_log GROUP BY key_id HAVING count(*) > $1
     ), cut AS (
       SELECT heavy.key_id, (SELECT log_id FROM api_request_log kept WHERE kept.key_id = heavy.key_id
         ORDER BY log_id DESC OFFSET $1 LIMIT 1) AS newest_dropped
       FROM heavy
     )
     DELETE FROM api_request_log USING cut
     WHERE api_request_log.key_id = cut.key_id AND api_request_log.log_id <= cut.newest_dropped`,
    [REQUEST_LOG_RETENTION.perKey],
  );
  await pool.query("DELETE FROM api_usage_daily WHERE day < $1::date", [
    new Date(nowMs - USAGE_RETENTION_DAYS * DAY_MS).toISOString().slice(0, 10),
  ]);
}
