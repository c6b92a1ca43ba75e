// Self-service rotation of a sandbox key: the holder proves the partner's verified contact email, gets a new key
// of the same partner (same scopes, a new signing secret) and the old key is revoked in the same transaction,
// audited. Everything a partner owns (sandbox holds, ledger, reservations, webhooks) is keyed by partner_id, so
// the new key sees it at once; production keys are rotated by operators only.
import type { Pool } from "pg";
import { ApiError } from "../../core/errors/catalogue";
import { appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";
import type { PartnerContext } from "./admission";
import type { IssuedApiKey } from "./apiKeyFormat";
import { type ApiKeyRecord, createApiKey } from "./apiKeyStore";
import { findPartner, type Partner } from "./partnerStore";
import type { PartnerScope } from "./scopes";

export interface RotationRequest {
  email: string;
  label?: string | undefined;
}

export interface Rotation {
  record: ApiKeyRecord;
  issued: IssuedApiKey;
  revokedKeyId: string;
  partner: Partner;
}

/** Email addresses compare without case: the contact was stored as given. */
function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export async function rotateSandboxKey(
  pool: Pool,
  caller: PartnerContext,
  request: RotationRequest,
  sealSigningSecret: (keyId: string) => string,
): Promise<Rotation> {
  if (caller.environment !== "sandbox") throw new ApiError("rotation_not_allowed");
  return withTransaction(pool, async (client) => {
    // Locks the old key: of two concurrent rotations, the second finds it revoked.
    const old = await client.query<{ label: string; scopes: PartnerScope[]; revoked: boolean }>(
      "SELECT label, scopes, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE key_id = $1 FOR UPDATE",
      [caller.keyId],
    );
    const key = old.rows[0];
    if (key === undefined || key.revoked) throw new ApiError("key_revoked");
    const partner = await findPartner(client, caller.partnerId);
    if (partner?.contactEmail == null || !sameEmail(partner.contactEmail, request.email)) {
      throw new ApiError("email_mismatch");
    }
    if (!partner.emailVerified) throw new ApiError("email_not_verified");
    const { record, issued } = await createApiKey(client, {
      environment: "sandbox",
      scopes: key.scopes,
      rateLimitPerMinute: 60,
      label: request.label ?? key.label,
      createdBy: `key:${caller.keyId}`,
      partnerId: caller.partnerId,
      sealSigningSecret,
    });
    const reason = `rotated to ${record.keyId} by its holder (POST /v1/sandbox/keys, X-Service-Rotate: 1)`;
    await client.query(
      "UPDATE api_keys SET revoked_at = now(), revoked_by = $2, revoked_reason = $3 WHERE key_id = $1",
      [caller.keyId, `key:${caller.keyId}`, reason],
    );
    await appendAudit(client, {
      actor: `key:${caller.keyId}`,
      reason,
      action: "api_key.rotate",
      subject: caller.keyId,
      details: { partnerId: caller.partnerId, newKeyId: record.keyId },
    });
    return { record, issued, revokedKeyId: caller.keyId, partner };
  });
}
