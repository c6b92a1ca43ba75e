// The worker's hold on deliveries. A claim leases due deliveries (FOR UPDATE SKIP LOCKED, so concurrent
// workers take disjoint rows) without exceeding the per-endpoint bound counted over every worker's live
// leases; an outcome is recorded only by the lease holder. A worker that dies leaves its lease to run out,
// and the delivery is claimed again: at-least-once, never lost.
import { randomBytes } from "node:crypto";
import type { Pool } from "pg";

/** The default lease (WEBHOOK_LEASE_MS): longer than an attempt takes (15 s timeout, DNS check, recording). */
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
           -- Endpoints already at their bound are left out before the sort (under load, most of them).
           AND coalesce(f.n, 0) < $4
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

export interface LeasedOutcome {
  claimed: Pick<ClaimedDelivery, "id" | "leaseToken">;
  attempt: RecordedAttempt;
}

/**
 * Records attempts and their deliveries' new states in one statement (one commit for many outcomes); each row
 * only under the lease that sent it. Returns the ids recorded: an id missing had lost its lease (dropped).
 */
export async function recordAttempts(pool: Pool, outcomes: readonly LeasedOutcome[]): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set();
  // Should two workers ever deadlock here (each recording a delivery the other has taken over), Postgres
  // aborts one statement: its outcomes stay unrecorded, as after a crash, and are sent again after the lease.
  const column = <T>(pick: (outcome: LeasedOutcome) => T) => outcomes.map(pick);
  const { rows } = await pool.query<{ id: string }>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::timestamptz[],
         $6::timestamptz[], $7::integer[], $8::text[], $9::integer[])
         AS i (id, lease_token, failed, status, next_attempt_at, started_at, response_code, error, duration_ms)
     ), updated AS (
       UPDATE webhook_deliveries d SET
         attempt_count = d.attempt_count + 1,
         failures_in_round = d.failures_in_round + CASE WHEN i.failed THEN 1 ELSE 0 END,
         status = i.status, next_attempt_at = i.next_attempt_at, last_attempt_at = i.started_at,
         last_response_code = i.response_code, last_error = i.error,
         lease_token = NULL, leased_until = NULL
       FROM input i WHERE d.id = i.id AND d.lease_token = i.lease_token
       RETURNING d.id, d.attempt_count, i.started_at, i.duration_ms, i.response_code, i.error
     )
     INSERT INTO webhook_attempts (delivery_id, attempt_number, started_at, duration_ms, response_code, error)
     SELECT id, attempt_count, started_at, duration_ms, response_code, error FROM updated
     RETURNING delivery_id AS id`,
    [
      column((o) => o.claimed.id),
      column((o) => o.claimed.leaseToken),
      column((o) => o.attempt.failed),
      column((o) => o.attempt.status),
      column((o) => o.attempt.nextAttemptAt),
      column((o) => o.attempt.startedAt),
      column((o) => o.attempt.responseCode),
      column((o) => o.attempt.error),
      column((o) => Math.round(o.attempt.durationMs)),
    ],
  );
  return new Set(rows.map((row) => row.id));
}
