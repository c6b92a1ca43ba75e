// The outbox's backlog for the metrics scrape: domain events not yet fanned out to deliveries, deliveries not
// yet delivered (pending), and the age of the oldest of each. Counts stop at BACKLOG_COUNT_CAP so a huge
// backlog costs a bounded read (both scans ride the partial indexes on pending rows).
import type { Pool } from "pg";

export const BACKLOG_COUNT_CAP = 100_000;

export interface OutboxBacklog {
  /** Domain events not fanned out yet (at most BACKLOG_COUNT_CAP). */
  undispatchedEvents: number;
  /** Seconds since the oldest of them was appended; 0 when there is none. */
  oldestUndispatchedSeconds: number;
  /** Deliveries still pending: due, retrying or being attempted (at most BACKLOG_COUNT_CAP). */
  pendingDeliveries: number;
  /** Seconds since the event of the oldest pending delivery happened; 0 when there is none. */
  oldestPendingSeconds: number;
}

export async function readOutboxBacklog(
  pool: Pool,
  nowMs: number,
  queryTimeoutMs: number,
): Promise<OutboxBacklog> {
  const { rows } = await pool.query<{
    undispatched: number;
    oldest_undispatched: Date | null;
    pending: number;
    oldest_pending: Date | null;
  }>({
    text: `SELECT
       (SELECT count(*) FROM (SELECT 1 FROM domain_events WHERE dispatched_at IS NULL LIMIT $1) e)::int AS undispatched,
       (SELECT created_at FROM domain_events WHERE dispatched_at IS NULL ORDER BY id LIMIT 1) AS oldest_undispatched,
       (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries WHERE status = 'pending' LIMIT $1) d)::int AS pending,
       (SELECT min(event_created_at) FROM webhook_deliveries WHERE status = 'pending') AS oldest_pending`,
    values: [BACKLOG_COUNT_CAP],
    ...{ query_timeout: queryTimeoutMs },
  });
  const row = rows[0];
  const age = (at: Date | null | undefined) => (at ? Math.max(0, (nowMs - at.getTime()) / 1000) : 0);
  return {
    undispatchedEvents: row?.undispatched ?? 0,
    oldestUndispatchedSeconds: age(row?.oldest_undispatched),
    pendingDeliveries: row?.pending ?? 0,
    oldestPendingSeconds: age(row?.oldest_pending),
  };
}
