// Webhook endpoints in Postgres. Every read and write is scoped to the owner (partner and environment), so a
// partner never reaches another partner's endpoint, nor its own endpoint of the other environment.
import { randomBytes } from "node:crypto";
import type { Pool } from "pg";
import type { Environment } from "../../core/environment";

export interface WebhookOwner {
  partnerId: string;
  environment: Environment;
}

export interface EndpointRecord {
  id: string;
  partnerId: string;
  environment: Environment;
  url: string;
  /** Null: every event type, including types added later. */
  events: string[] | null;
  enabled: boolean;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface EndpointRow {
  id: string;
  partner_id: string;
  environment: Environment;
  url: string;
  events: string[] | null;
  enabled: boolean;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, partner_id, environment, url, events, enabled, secret_sealed, previous_secret_sealed,
  previous_secret_expires_at, created_at, updated_at`;

/** Endpoints an owner may hold; a partner with more is likely registering in a loop. */
export const MAX_ENDPOINTS_PER_OWNER = 20;

export function newEndpointId(): string {
  return `ep_${randomBytes(12).toString("hex")}`;
}

export function isEndpointId(text: string): boolean {
  return /^ep_[0-9a-f]{24}$/.test(text);
}

function recordOf(row: EndpointRow): EndpointRecord {
  return {
    id: row.id,
    partnerId: row.partner_id,
    environment: row.environment,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface NewEndpoint {
  id: string;
  url: string;
  events: string[] | null;
  secretSealed: string;
  at: Date;
}

/** Inserts the endpoint unless the owner already holds the maximum; returns undefined then. */
export async function insertEndpoint(
  pool: Pool,
  owner: WebhookOwner,
  endpoint: NewEndpoint,
): Promise<EndpointRecord | undefined> {
  const { rows } = await pool.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, partner_id, environment, url, events, secret_sealed, created_at, updated_at)
     SELECT $1, $2, $3, $4, $5, $6, $7, $7
     WHERE (SELECT count(*) FROM webhook_endpoints WHERE partner_id = $2 AND environment = $3) < $8
     RETURNING ${COLUMNS}`,
    [
      endpoint.id,
      owner.partnerId,
      owner.environment,
      endpoint.url,
      endpoint.events,
      endpoint.secretSealed,
      endpoint.at,
      MAX_ENDPOINTS_PER_OWNER,
    ],
  );
  return rows[0] === undefined ? undefined : recordOf(rows[0]);
}

export async function listEndpoints(pool: Pool, owner: WebhookOwner): Promise<EndpointRecord[]> {
  const { rows } = await pool.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE partner_id = $1 AND environment = $2 ORDER BY created_at, id`,
    [owner.partnerId, owner.environment],
  );
  return rows.map(recordOf);
}

export async function findEndpoint(
  pool: Pool,
  owner: WebhookOwner,
  id: string,
): Promise<EndpointRecord | undefined> {
  const { rows } = await pool.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND partner_id = $2 AND environment = $3`,
    [id, owner.partnerId, owner.environment],
  );
  return rows[0] === undefined ? undefined : recordOf(rows[0]);
}

export interface EndpointChanges {
  url?: string | undefined;
  /** Null subscribes to every type; undefined leaves the subscription as it is. */
  events?: string[] | null | undefined;
  enabled?: boolean | undefined;
  /** A new secret; the current one keeps signing until `previousExpiresAt`. */
  rotation?: { secretSealed: string; previousExpiresAt: Date } | undefined;
  at: Date;
}

export async function updateEndpoint(
  pool: Pool,
  owner: WebhookOwner,
  id: string,
  changes: EndpointChanges,
): Promise<EndpointRecord | undefined> {
  const { rows } = await pool.query<EndpointRow>(
    `UPDATE webhook_endpoints SET
       url = coalesce($4, url),
       events = CASE WHEN $5 THEN $6::text[] ELSE events END,
       enabled = coalesce($7, enabled),
       previous_secret_sealed = CASE WHEN $8::text IS NULL THEN previous_secret_sealed ELSE secret_sealed END,
       previous_secret_expires_at = CASE WHEN $8::text IS NULL THEN previous_secret_expires_at ELSE $9 END,
       secret_sealed = coalesce($8, secret_sealed),
       updated_at = $10
     WHERE id = $1 AND partner_id = $2 AND environment = $3
     RETURNING ${COLUMNS}`,
    [
      id,
      owner.partnerId,
      owner.environment,
      changes.url ?? null,
      changes.events !== undefined,
      changes.events ?? null,
      changes.enabled ?? null,
      changes.rotation?.secretSealed ?? null,
      changes.rotation?.previousExpiresAt ?? null,
      changes.at,
    ],
  );
  return rows[0] === undefined ? undefined : recordOf(rows[0]);
}

/** Deletes the endpoint and its delivery history; false when the owner has no such endpoint. */
export async function deleteEndpoint(pool: Pool, owner: WebhookOwner, id: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    "DELETE FROM webhook_endpoints WHERE id = $1 AND partner_id = $2 AND environment = $3",
    [id, owner.partnerId, owner.environment],
  );
  return (rowCount ?? 0) > 0;
}
