// API keys in Postgres: issuing (hash only), listing and revoking with an audit entry. Authentication on
// the request path is keyAuthentication.ts.
import type { Pool, PoolClient } from "pg";
import type { Environment } from "../../core/environment";
import { ServiceError } from "../../core/errors/serviceError";
import { STANDARD_PARTNER_BPS } from "../../core/reservation";
import { type Actor, appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";
import { type IssuedApiKey, issueApiKey, newPartnerId } from "./apiKeyFormat";
import { SANDBOX_RATE_LIMIT } from "./rateWindow";
import type { PartnerScope } from "./scopes";

export interface ApiKeyRecord {
  keyId: string;
  displayPrefix: string;
  environment: Environment;
  partnerId: string;
  label: string;
  scopes: PartnerScope[];
  rateLimitPerMinute: number;
  createdAt: Date;
  createdBy: string;
  revokedAt: Date | null;
  revokedBy: string | null;
  revokedReason: string | null;
}

export interface NewApiKey {
  environment: Environment;
  scopes: readonly PartnerScope[];
  rateLimitPerMinute: number;
  label: string;
  /** Who issued it: an operator name, or `self-serve` for sandbox sign-up. */
  createdBy: string;
  /** The partner the key belongs to; without it a new partner is made for the key. */
  partnerId?: string;
  /** A new partner's contact (an existing partner keeps its own). */
  organization?: string;
  email?: string;
  /** Seals a signing secret issued with the key, bound to the new key id. */
  sealSigningSecret?: (keyId: string) => string;
}

export class ApiKeyNotFoundError extends ServiceError {
  constructor(keyId: string) {
    super(`No API key has id ${keyId}; list keys with: npm run operator -- api-keys:list`);
  }
}

/** A change an operator asked for that this key cannot take; the message says why. */
export class ApiKeyStoreError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

const COLUMNS = `key_id, display_prefix, environment, partner_id, label, scopes, rate_limit_per_minute, created_at, created_by, revoked_at, revoked_by, revoked_reason`;

interface KeyRow {
  key_id: string;
  display_prefix: string;
  environment: Environment;
  partner_id: string;
  label: string;
  scopes: PartnerScope[];
  rate_limit_per_minute: number;
  created_at: Date;
  created_by: string;
  revoked_at: Date | null;
  revoked_by: string | null;
  revoked_reason: string | null;
}

function recordOf(row: KeyRow): ApiKeyRecord {
  return {
    keyId: row.key_id,
    displayPrefix: row.display_prefix,
    environment: row.environment,
    partnerId: row.partner_id,
    label: row.label,
    scopes: row.scopes,
    rateLimitPerMinute: row.rate_limit_per_minute,
    createdAt: row.created_at,
    createdBy: row.created_by,
    revokedAt: row.revoked_at,
    revokedBy: row.revoked_by,
    revokedReason: row.revoked_reason,
  };
}

// The key's partner gets access to the key's environment; the first key of an environment starts the
// partner's integration there (its introductory period). One statement, so it is atomic on a bare pool too.
const CREATE_SQL = `
WITH partner AS (
  INSERT INTO partners (partner_id, organization, contact_email, environments, partner_bps,
    sandbox_integration_started_at, production_integration_started_at)
  VALUES ($5, $7, $8, ARRAY[$4::text], $13, CASE WHEN $4 = 'sandbox' THEN now() END,
    CASE WHEN $4 = 'production' THEN now() END)
  ON CONFLICT (partner_id) DO UPDATE SET
    environments = CASE WHEN $4 = ANY (partners.environments) THEN partners.environments
      ELSE partners.environments || $4::text END,
    sandbox_integration_started_at = COALESCE(partners.sandbox_integration_started_at,
      EXCLUDED.sandbox_integration_started_at),
    production_integration_started_at = COALESCE(partners.production_integration_started_at,
      EXCLUDED.production_integration_started_at)
  RETURNING partner_id
)
INSERT INTO api_keys (key_id, secret_hash, display_prefix, environment, partner_id, label, scopes,
  rate_limit_per_minute, signing_secret_sealed, created_by)
SELECT $1, $2, $3, $4, partner.partner_id, $6, $9, $10, $11, $12 FROM partner
RETURNING ${COLUMNS}`;

/** Stores a new key (hash only) and returns its record plus the raw secret for one-time display. */
export async function createApiKey(
  db: Pool | PoolClient,
  input: NewApiKey,
): Promise<{ record: ApiKeyRecord; issued: IssuedApiKey }> {
  const issued = issueApiKey(input.environment);
  const rateLimit = input.environment === "sandbox" ? SANDBOX_RATE_LIMIT : input.rateLimitPerMinute;
  const { rows } = await db.query<KeyRow>(CREATE_SQL, [
    issued.keyId,
    issued.secretHash,
    issued.displayPrefix,
    input.environment,
    input.partnerId ?? newPartnerId(),
    input.label,
    input.organization ?? null,
    input.email ?? null,
    [...new Set(input.scopes)],
    rateLimit,
    input.sealSigningSecret?.(issued.keyId) ?? null,
    input.createdBy,
    STANDARD_PARTNER_BPS,
  ]);
  return { record: recordOf(rows[0] as KeyRow), issued };
}

export async function listApiKeys(
  pool: Pool,
  filter: { environment?: Environment; partnerId?: string; includeRevoked?: boolean } = {},
): Promise<ApiKeyRecord[]> {
  const { rows } = await pool.query<KeyRow>(
    `SELECT ${COLUMNS} FROM api_keys
     WHERE ($1::text IS NULL OR environment = $1) AND ($2::text IS NULL OR partner_id = $2)
       AND ($3 OR revoked_at IS NULL)
     ORDER BY created_at, key_id`,
    [filter.environment ?? null, filter.partnerId ?? null, filter.includeRevoked ?? false],
  );
  return rows.map(recordOf);
}

export async function findApiKey(pool: Pool, keyId: string): Promise<ApiKeyRecord | undefined> {
  const { rows } = await pool.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_id = $1`, [keyId]);
  return rows[0] ? recordOf(rows[0]) : undefined;
}

/**
 * Revokes a key and writes who and why to audit_log in the same transaction. Revoking a revoked key changes
 * nothing and returns its record as it is.
 */
export async function revokeApiKey(pool: Pool, keyId: string, audit: Actor): Promise<ApiKeyRecord> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<KeyRow>(
      `UPDATE api_keys SET revoked_at = now(), revoked_by = $2, revoked_reason = $3
       WHERE key_id = $1 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
      [keyId, audit.actor, audit.reason],
    );
    if (rows[0] === undefined) {
      const existing = await client.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_id = $1`, [
        keyId,
      ]);
      if (existing.rows[0] === undefined) throw new ApiKeyNotFoundError(keyId);
      return recordOf(existing.rows[0]);
    }
    await appendAudit(client, { ...audit, action: "api_key.revoke", subject: keyId });
    return recordOf(rows[0]);
  });
}

/**
 * Sets a live production key's requests per minute (the spec's "raise per partner"), audited with the previous
 * limit in the same transaction; the key's next request is counted against it. Sandbox keys keep the sandbox's.
 */
export async function setRateLimit(
  pool: Pool,
  keyId: string,
  perMinute: number,
  audit: Actor,
): Promise<ApiKeyRecord> {
  return withTransaction(pool, async (client) => {
    const found = await client.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_id = $1 FOR UPDATE`, [
      keyId,
    ]);
    const key = found.rows[0];
    if (key === undefined) throw new ApiKeyNotFoundError(keyId);
    if (key.revoked_at !== null)
      throw new ApiKeyStoreError(`Key ${keyId} is revoked; issue a new key instead.`);
    if (key.environment !== "production") {
      throw new ApiKeyStoreError(
        `Key ${keyId} is a sandbox key: every sandbox key has ${SANDBOX_RATE_LIMIT} requests per minute.`,
      );
    }
    const { rows } = await client.query<KeyRow>(
      `UPDATE api_keys SET rate_limit_per_minute = $2 WHERE key_id = $1 RETURNING ${COLUMNS}`,
      [keyId, perMinute],
    );
    await appendAudit(client, {
      ...audit,
      action: "api_key.rate_limit",
      subject: keyId,
      details: { previous: key.rate_limit_per_minute, rateLimitPerMinute: perMinute },
    });
    return recordOf(rows[0] as KeyRow);
  });
}

/** Drops windows that ended before `beforeMs`; they can never count again. */
export async function pruneRateWindows(pool: Pool, beforeMs: number): Promise<void> {
  await pool.query("DELETE FROM rate_limit_windows WHERE window_start < $1", [new Date(beforeMs)]);
}
