// Webhook deliveries as partners see them: their history page by page, a replay, a test event. The worker's
// side (fan-out, claims, outcomes) is in fanOut.ts and claims.ts.
import type { Pool } from "pg";
import type { EndpointRecord, WebhookOwner } from "./endpointStore";

export const DELIVERY_STATUSES = ["pending", "succeeded", "dead"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A new delivery id, made by the database so that fan-out makes ids in the same statement. */
export const NEW_DELIVERY_ID_SQL = "'msg_' || replace(gen_random_uuid()::text, '-', '')";

export function isDeliveryId(text: string): boolean {
  return /^msg_[0-9a-f]{32}$/.test(text);
}

export interface DeliveryRecord {
  id: string;
  seq: string;
  endpointId: string;
  type: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastResponseCode: number | null;
  lastError: string | null;
  createdAt: Date;
}

interface DeliveryRow {
  id: string;
  seq: string;
  endpoint_id: string;
  type: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_response_code: number | null;
  last_error: string | null;
  created_at: Date;
}

const COLUMNS = `id, seq, endpoint_id, type, status, attempt_count, next_attempt_at, last_attempt_at,
  last_response_code, last_error, created_at`;

function recordOf(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    seq: String(row.seq),
    endpointId: row.endpoint_id,
    type: row.type,
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.next_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    lastResponseCode: row.last_response_code,
    lastError: row.last_error,
    createdAt: row.created_at,
  };
}

export interface DeliveryFilter {
  endpointId?: string | undefined;
  status?: DeliveryStatus | undefined;
  /** Only deliveries older than this one (the `seq` of the last row of the previous page). */
  beforeSeq?: string | undefined;
  limit: number;
}

/** Newest first; one row more than `limit` when there is a next page. */
export async function deliveryPage(
  pool: Pool,
  owner: WebhookOwner,
  filter: DeliveryFilter,
): Promise<DeliveryRecord[]> {
  const { rows } = await pool.query<DeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries
     WHERE partner_id = $1 AND environment = $2
       AND ($3::text IS NULL OR endpoint_id = $3)
       AND ($4::text IS NULL OR status = $4)
       AND ($5::bigint IS NULL OR seq < $5)
     ORDER BY seq DESC
     LIMIT $6`,
    [
      owner.partnerId,
      owner.environment,
      filter.endpointId ?? null,
      filter.status ?? null,
      filter.beforeSeq ?? null,
      filter.limit + 1,
    ],
  );
  return rows.map(recordOf);
}

/**
 * Makes the delivery due now with a fresh retry schedule, whatever its status (dead ones too); the id stays.
 * Undefined when the owner has no such delivery.
 */
export async function replayDelivery(
  pool: Pool,
  owner: WebhookOwner,
  id: string,
  at: Date,
): Promise<DeliveryRecord | undefined> {
  const { rows } = await pool.query<DeliveryRow>(
    `UPDATE webhook_deliveries SET status = 'pending', failures_in_round = 0, next_attempt_at = $4
     WHERE id = $1 AND partner_id = $2 AND environment = $3
     RETURNING ${COLUMNS}`,
    [id, owner.partnerId, owner.environment, at],
  );
  return rows[0] === undefined ? undefined : recordOf(rows[0]);
}

export const TEST_EVENT_TYPE = "webhook.test";

/** A delivery of a `webhook.test` event to `endpoint`, due now. */
export async function insertTestDelivery(
  pool: Pool,
  endpoint: EndpointRecord,
  at: Date,
): Promise<DeliveryRecord> {
  const data = {
    endpointId: endpoint.id,
    message: "A test event sent with POST /v1/webhooks/test; it changes nothing.",
  };
  const { rows } = await pool.query<DeliveryRow>(
    `INSERT INTO webhook_deliveries (id, endpoint_id, partner_id, environment, type, data, event_created_at,
       status, next_attempt_at, created_at)
     VALUES (${NEW_DELIVERY_ID_SQL}, $1, $2, $3, $4, $5, $6, 'pending', $6, $6)
     RETURNING ${COLUMNS}`,
    [endpoint.id, endpoint.partnerId, endpoint.environment, TEST_EVENT_TYPE, JSON.stringify(data), at],
  );
  return recordOf(rows[0] as DeliveryRow);
}
