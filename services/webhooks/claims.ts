// The worker's hold on deliveries. A claim leases due deliveries (FOR UPDATE SKIP LOCKED, so concurrent
// workers take disjoint rows) without exceeding the per-endpoint bound counted over every worker's live
// leases; an outcome is recorded only by the lease holder. A worker that dies leaves its lease to run out,
// and the delivery is claimed again: at-least-once, never lost.
import { randomBytes } from "node:crypto";
import type { Pool } from "pg";

/** The default lease (WEBHOOK_LEASE_MS): longer than an attempt can take (15 s timeout plus the DNS check and recording). */
export const DELIVERY_LEASE_MS = 60_000;

export interface ClaimedDelivery {
  id: string;
  leaseToken: string;
  endpointId: string;
  url: string;
  type: string;
  data: unknown;
  eventCreatedAt: Date;
  attemptCount: number;
  failuresInRound: number;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
}

interface ClaimRow {
  id: string;
  lease_token: string;
  endpoint_id: string;
  url: string;
  type: string;
  data: unknown;
  event_created_at: Date;
  attempt_count: number;
  failures_in_round: number;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
}

export interface ClaimLimits {
  /** Deliveries to take in this claim. */
  limit: number;
  /** Attempts in flight to one endpoint, over all workers. */
  perEndpoint: number;
  /** How long the claim holds the deliveries. */
  leaseMs: number;
  /** Deliveries this worker is still sending (never claimed twice by one process, whatever its clock says). */
  sending: readonly string[];
}

export async function claimDueDeliveries(
  pool: Pool,
  at: Date,
  limits: ClaimLimits,
): Promise<ClaimedDelivery[]> {
  if (limits.limit <= 0) return [];
  const token = randomBytes(12).toString("hex");
  const leasedUntil = new Date(at.getTime() + limits.leaseMs);
  // One statement, so one transaction: the rows are locked, leased and returned together.
  const { rows } = await pool.query<ClaimRow>(
    `WITH in_flight AS (
         SELECT endpoint_id, count(*) AS n FROM webhook_deliveries
         WHERE status = 'pending' AND leased_until > $1 GROUP BY endpoint_id
       ), ranked AS (
         SELECT d.id, d.next_attempt_at, d.seq,
           row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.seq)
             + coalesce(f.n, 0) AS slot
         FROM webhook_deliveries d
         JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled
         LEFT JOIN in_flight f ON f.endpoint_id = d.endpoint_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= $1
           AND (d.leased_until IS NULL OR d.leased_until <= $1) AND NOT (d.id = ANY ($6::text[]))
       ), picked AS (
         SELECT d.id FROM webhook_deliveries d
         WHERE d.id IN (SELECT id FROM ranked WHERE slot <= $4 ORDER BY next_attempt_at, seq LIMIT $5)
           AND d.status = 'pending' AND d.next_attempt_at <= $1
           AND (d.leased_until IS NULL OR d.leased_until <= $1)
         FOR UPDATE OF d SKIP LOCKED
       ), leased AS (
         UPDATE webhook_deliveries d SET lease_token = $2, leased_until = $3
         FROM picked WHERE d.id = picked.id
         RETURNING d.id, d.lease_token, d.endpoint_id, d.type, d.data, d.event_created_at, d.attempt_count,
           d.failures_in_round, d.next_attempt_at, d.seq
       )
       SELECT l.id, l.lease_token, l.endpoint_id, e.url, l.type, l.data, l.event_created_at, l.attempt_count,
         l.failures_in_round, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at
       FROM leased l JOIN webhook_endpoints e ON e.id = l.endpoint_id
       ORDER BY l.next_attempt_at, l.seq`,
    [at, token, leasedUntil, limits.perEndpoint, limits.limit, limits.sending],
  );
  return rows.map((row) => ({
    id: row.id,
    leaseToken: row.lease_token,
    endpointId: row.endpoint_id,
    url: row.url,
    type: row.type,
    data: row.data,
    eventCreatedAt: row.event_created_at,
    attemptCount: row.attempt_count,
    failuresInRound: row.failures_in_round,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    previousSecretExpiresAt: row.previous_secret_expires_at,
  }));
}

export interface RecordedAttempt {
  startedAt: Date;
  durationMs: number;
  responseCode: number | null;
  error: string | null;
  /** What the delivery becomes: succeeded, pending again at `nextAttemptAt`, or dead. */
  status: "succeeded" | "pending" | "dead";
  nextAttemptAt: Date | null;
  /** Whether this attempt counts as a failure of the round. */
  failed: boolean;
}

/** Records the attempt and the delivery's new state; false when the lease was lost (the outcome is dropped). */
export async function recordAttempt(
  pool: Pool,
  claimed: Pick<ClaimedDelivery, "id" | "leaseToken">,
  attempt: RecordedAttempt,
): Promise<boolean> {
  const { rows } = await pool.query<{ recorded: number }>(
    `WITH updated AS (
       UPDATE webhook_deliveries SET
         attempt_count = attempt_count + 1,
         failures_in_round = failures_in_round + CASE WHEN $3 THEN 1 ELSE 0 END,
         status = $4, next_attempt_at = $5, last_attempt_at = $6, last_response_code = $7, last_error = $8,
         lease_token = NULL, leased_until = NULL
       WHERE id = $1 AND lease_token = $2
       RETURNING id, attempt_count
     ), attempt AS (
       INSERT INTO webhook_attempts (delivery_id, attempt_number, started_at, duration_ms, response_code, error)
       SELECT id, attempt_count, $6, $9, $7, $8 FROM updated
       RETURNING 1
     )
     SELECT count(*)::int AS recorded FROM attempt`,
    [
      claimed.id,
      claimed.leaseToken,
      attempt.failed,
      attempt.status,
      attempt.nextAttemptAt,
      attempt.startedAt,
      attempt.responseCode,
      attempt.error,
      Math.round(attempt.durationMs),
    ],
  );
  return (rows[0]?.recorded ?? 0) > 0;
}
