// Keeper credentials for production event reports (header X-Service-Keeper). A keeper is the partner's
// service that watches market caps; its credential is separate from the API key so that a leaked API key
// alone cannot lock identities. Format `svc_keeper_<id>_<secret>`: 16 hex id, 32 random bytes base64url.
// Stored as SHA-256 (the secret is random, so a fast hash suffices), bound to one partner, revocable,
// issued and revoked through the operator CLI with an audit entry.
import { createHash, randomBytes } from "node:crypto";
import type { Pool } from "pg";
import { ServiceError } from "../../core/errors/serviceError";
import { type Actor, appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";

const KEEPER_PATTERN = /^svc_keeper_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export class KeeperCredentialError extends ServiceError {
  constructor(message: string) {
    super(message);
  }
}

export interface IssuedKeeperCredential {
  keeperId: string;
  /** Shown once; only its hash is stored. */
  credential: string;
}

function hashOf(credential: string): Buffer {
  return createHash("sha256").update(credential).digest();
}

export async function issueKeeperCredential(
  pool: Pool,
  partnerId: string,
  label: string,
  by: Actor,
): Promise<IssuedKeeperCredential> {
  const keeperId = randomBytes(8).toString("hex");
  const credential = `svc_keeper_${keeperId}_${randomBytes(32).toString("base64url")}`;
  await withTransaction(pool, async (client) => {
    await client.query(
      "INSERT INTO keeper_credentials (keeper_id, secret_hash, partner_id, label, created_by) VALUES ($1, $2, $3, $4, $5)",
      [keeperId, hashOf(credential), partnerId, label, by.actor],
    );
    await appendAudit(client, {
      ...by,
      action: "keeper.issued",
      subject: keeperId,
      details: { partnerId, label },
    });
  });
  return { keeperId, credential };
}

export async function revokeKeeperCredential(pool: Pool, keeperId: string, by: Actor): Promise<void> {
  await withTransaction(pool, async (client) => {
    const { rowCount } = await client.query(
      "UPDATE keeper_credentials SET revoked_at = now(), revoked_by = $2 WHERE keeper_id = $1 AND revoked_at IS NULL",
      [keeperId, by.actor],
    );
    if (!rowCount)
      throw new KeeperCredentialError(
        `No active keeper credential has id ${keeperId}; list them with keepers:list.`,
      );
    await appendAudit(client, { ...by, action: "keeper.revoked", subject: keeperId });
  });
}

export interface KeeperListing {
  keeperId: string;
  partnerId: string;
  label: string;
  createdAt: Date;
  createdBy: string;
  revokedAt: Date | null;
}

export async function listKeeperCredentials(pool: Pool): Promise<KeeperListing[]> {
  const { rows } = await pool.query<{
    keeper_id: string;
    partner_id: string;
    label: string;
    created_at: Date;
    created_by: string;
    revoked_at: Date | null;
  }>(
    "SELECT keeper_id, partner_id, label, created_at, created_by, revoked_at FROM keeper_credentials ORDER BY created_at",
  );
  return rows.map((row) => ({
    keeperId: row.keeper_id,
    partnerId: row.partner_id,
    label: row.label,
    createdAt: row.created_at,
    createdBy: row.created_by,
    revokedAt: row.revoked_at,
  }));
}

/** True when `header` is a live keeper credential issued to `partnerId`. */
export async function isValidKeeper(
  pool: Pool,
  header: string | undefined,
  partnerId: string,
): Promise<boolean> {
  if (header === undefined || !KEEPER_PATTERN.test(header)) return false;
  const { rowCount } = await pool.query(
    "SELECT 1 FROM keeper_credentials WHERE secret_hash = $1 AND partner_id = $2 AND revoked_at IS NULL",
    [hashOf(header), partnerId],
  );
  return rowCount === 1;
}

/** Production keys report launches only once an operator enabled it for the key. */
export async function launchReportingEnabled(pool: Pool, apiKeyId: string): Promise<boolean> {
  const { rowCount } = await pool.query("SELECT 1 FROM launch_report_access WHERE api_key_id = $1", [
    apiKeyId,
  ]);
  return rowCount === 1;
}

export async function setLaunchReporting(
  pool: Pool,
  apiKeyId: string,
  enabled: boolean,
  by: Actor,
): Promise<void> {
  await withTransaction(pool, async (client) => {
    if (enabled) {
      await client.query(
        "INSERT INTO launch_report_access (api_key_id, enabled_by) VALUES ($1, $2) ON CONFLICT (api_key_id) DO NOTHING",
        [apiKeyId, by.actor],
      );
    } else {
      await client.query("DELETE FROM launch_report_access WHERE api_key_id = $1", [apiKeyId]);
    }
    await appendAudit(client, {
      ...by,
      action: enabled ? "launch_reporting.enabled" : "launch_reporting.disabled",
      subject: apiKeyId,
    });
  });
}
