// The worker's hold on deliveries. A claim leases due deliveries (FOR UPDATE SKIP LOCKED, so concurrent
// workers take disjoint rows) within the per-endpoint bound counted over every worker's live leases; an
// outcome is recorded only under the lease that sent it. A worker that dies leaves its lease to run out,
// and the delivery is claimed again: at-least-once, never lost.
import { randomBytes } from "node:crypto";
import type { Pool } from "pg";
import { withTransaction } from "../../storage/transaction";

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
  /** Sandbox endpoints: the sealed signing secrets of the partner's live sandbox keys; empty in production. */
  partnerKeySecrets: PartnerKeySecret[];
}

/** A sandbox key's signing secret as stored: sealed, bound to its key id. */
export interface PartnerKeySecret {
  keyId: string;
  sealed: string;
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
  partner_key_secrets: PartnerKeySecret[] | null;
}

export interface ClaimLimits {
  /** Who claims (one id per dispatcher): its leases are its own when it counts an endpoint's leases. */
  holder: string;
  /** Deliveries to take in this claim. */
  limit: number;
  /** Attempts in flight to one endpoint, over all workers. */
  perEndpoint: number;
  /** Leases one worker may hold on an endpoint no other worker holds a lease on (it sends perEndpoint at once). */
  aheadPerEndpoint: number;
  /** How long the claim holds the deliveries. */
  leaseMs: number;
  /** Deliveries this worker still holds (never claimed twice by one process, whatever its clock says). */
  held: readonly string[];
}

/**
 * Claims of every worker take turns (a transaction-scoped advisory lock), so each counts the others' leases.
 * Advisory locks are per database: the key names the schema, so schemas sharing a database do not wait on each other.
 */
const CLAIM_LOCK_SQL =
  "SELECT pg_advisory_xact_lock(hashtext('webhook_delivery_claims:' || current_schema()))";

/**
 * Leases due deliveries (parameters: $1 the claim's time, $2 lease token, $3 leased until, $4 per-endpoint bound,
 * $5 limit, $6 ids held, $7 holder, $8 ahead per endpoint). The endpoints with pending deliveries are found one
 * index probe each (a loose scan of the pending rows' index) and read by primary key, so a claim's cost follows
 * the endpoints that have work, not every endpoint registered.
 */
export const CLAIM_SQL = `WITH RECURSIVE pending_endpoints AS (
  (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending' ORDER BY endpoint_id LIMIT 1)
  UNION ALL
  SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
          WHERE d.status = 'pending' AND d.endpoint_id > p.endpoint_id ORDER BY d.endpoint_id LIMIT 1)
  FROM pending_endpoints p WHERE p.endpoint_id IS NOT NULL
), rooms AS (
  SELECT e.id, greatest(0, CASE WHEN l.others = 0 THEN $8 - l.own ELSE $4 - l.own - l.others END) AS room
  FROM webhook_endpoints e CROSS JOIN LATERAL (
    -- Per endpoint, through the index of leased rows (a count over the whole table grows with history).
    SELECT count(*) FILTER (WHERE d.lease_holder = $7) AS own,
      count(*) FILTER (WHERE d.lease_holder IS DISTINCT FROM $7) AS others
    FROM webhook_deliveries d
    WHERE d.endpoint_id = e.id AND d.leased_until IS NOT NULL AND d.leased_until > $1
  ) l
  -- Endpoints by primary key from a list: a join with pending_endpoints, whose size the planner cannot
  -- know, became a hash join over every endpoint once there were thousands.
  WHERE e.id = ANY (ARRAY(SELECT endpoint_id FROM pending_endpoints WHERE endpoint_id IS NOT NULL))
    AND e.enabled
), picked AS (
  SELECT due.id FROM rooms CROSS JOIN LATERAL (
    SELECT d.id, d.next_attempt_at, d.seq FROM webhook_deliveries d
    WHERE d.endpoint_id = rooms.id AND d.status = 'pending' AND d.next_attempt_at <= $1
      AND (d.leased_until IS NULL OR d.leased_until <= $1) AND NOT (d.id = ANY ($6::text[]))
    ORDER BY d.next_attempt_at, d.seq LIMIT rooms.room
    FOR UPDATE OF d SKIP LOCKED
  ) due
  WHERE rooms.room > 0
  ORDER BY due.next_attempt_at, due.seq LIMIT $5
), leased AS (
  UPDATE webhook_deliveries d SET lease_token = $2, leased_until = $3, lease_holder = $7
  FROM picked WHERE d.id = picked.id
  RETURNING d.id, d.lease_token, d.endpoint_id, d.type, d.data, d.event_created_at, d.attempt_count,
    d.failures_in_round, d.next_attempt_at, d.seq
), leased_endpoints AS (
  SELECT * FROM webhook_endpoints WHERE id = ANY (ARRAY(SELECT DISTINCT endpoint_id FROM leased))
)
SELECT l.id, l.lease_token, l.endpoint_id, e.url, l.type, l.data, l.event_created_at, l.attempt_count,
  l.failures_in_round, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at,
  CASE WHEN e.environment = 'sandbox' THEN (
    SELECT json_agg(json_build_object('keyId', k.key_id, 'sealed', k.signing_secret_sealed)
                    ORDER BY k.created_at)
    FROM api_keys k
    WHERE k.partner_id = e.partner_id AND k.environment = 'sandbox' AND k.revoked_at IS NULL
      AND k.signing_secret_sealed IS NOT NULL) END AS partner_key_secrets
FROM leased l JOIN leased_endpoints e ON e.id = l.endpoint_id
ORDER BY l.next_attempt_at, l.seq`;

/**
 * Leases due deliveries, oldest first per endpoint. An endpoint on which only this holder has live leases gets
 * up to `aheadPerEndpoint` of them (the holder sends `perEndpoint` at once, the rest wait in its queue); once
 * another worker holds one, all of them together hold at most `perEndpoint`. So at most `perEndpoint` attempts
 * reach an endpoint at once over all workers, and one worker can claim ahead of its sends.
 */
export async function claimDueDeliveries(
  pool: Pool,
  at: Date,
  limits: ClaimLimits,
): Promise<ClaimedDelivery[]> {
  if (limits.limit <= 0) return [];
  const token = randomBytes(12).toString("hex");
  const leasedUntil = new Date(at.getTime() + limits.leaseMs);
  const { rows } = await withTransaction(pool, async (client) => {
    // The lock first, then the claim: its snapshot, taken after the lock, sees every earlier claim's leases.
    await client.query(CLAIM_LOCK_SQL);
    return client.query<ClaimRow>({
      name: "webhooks.claim",
      text: CLAIM_SQL,
      values: [
        at,
        token,
        leasedUntil,
        limits.perEndpoint,
        limits.limit,
        limits.held,
        limits.holder,
        limits.aheadPerEndpoint,
      ],
    });
  });
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
    partnerKeySecrets: row.partner_key_secrets ?? [],
  }));
}

/** Gives back leases that were not sent (a stopping worker, a queued claim gone stale); each under its token. */
export async function releaseLeases(
  pool: Pool,
  leases: ReadonlyArray<Pick<ClaimedDelivery, "id" | "leaseToken">>,
): Promise<void> {
  if (leases.length === 0) return;
  await pool.query(
    `UPDATE webhook_deliveries d SET lease_token = NULL, leased_until = NULL, lease_holder = NULL
     FROM unnest($1::text[], $2::text[]) AS r (id, lease_token)
     WHERE d.id = r.id AND d.lease_token = r.lease_token`,
    [leases.map((lease) => lease.id), leases.map((lease) => lease.leaseToken)],
  );
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
 * A named statement: planned once per connection.
 */
export async function recordAttempts(pool: Pool, outcomes: readonly LeasedOutcome[]): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set();
  // Should two workers ever deadlock here (each recording a delivery the other has taken over), Postgres
  // aborts one statement: its outcomes stay unrecorded, as after a crash, and are sent again after the lease.
  const column = <T>(pick: (outcome: LeasedOutcome) => T) => outcomes.map(pick);
  const { rows } = await pool.query<{ id: string }>({
    name: "webhooks.record_attempts",
    text: `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::timestamptz[],
         $6::timestamptz[], $7::integer[], $8::text[], $9::integer[])
         AS i (id, lease_token, failed, status, next_attempt_at, started_at, response_code, error, duration_ms)
     ), updated AS (
       UPDATE webhook_deliveries d SET
         attempt_count = d.attempt_count + 1,
         failures_in_round = d.failures_in_round + CASE WHEN i.failed THEN 1 ELSE 0 END,
         status = i.status, next_attempt_at = i.next_attempt_at, last_attempt_at = i.started_at,
         last_response_code = i.response_code, last_error = i.error,
         lease_token = NULL, leased_until = NULL, lease_holder = NULL
       FROM input i WHERE d.id = i.id AND d.lease_token = i.lease_token
       RETURNING d.id, d.attempt_count, i.started_at, i.duration_ms, i.response_code, i.error
     )
     INSERT INTO webhook_attempts (delivery_id, attempt_number, started_at, duration_ms, response_code, error)
     SELECT id, attempt_count, started_at, duration_ms, response_code, error FROM updated
     RETURNING delivery_id AS id`,
    values: [
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
  });
  return new Set(rows.map((row) => row.id));
}
