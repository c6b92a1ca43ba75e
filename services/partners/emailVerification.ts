// One-time email verification tokens: mailed once, stored only as a SHA-256, consumed at most once before they
// expire. Consuming one verifies the partner's contact email, if the token was mailed to that address.
import { createHash, randomBytes } from "node:crypto";
import type { Pool, PoolClient } from "pg";
import { ApiError } from "../../core/errors/catalogue";
import { withTransaction } from "../../storage/transaction";

export const VERIFICATION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
const TOKEN_PATTERN = /^evt_[A-Za-z0-9_-]{43}$/;

export interface VerificationToken {
  /** The raw token: mailed, never stored. */
  token: string;
  expiresAt: Date;
}

function tokenHash(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** Stores a new token for the partner's contact email and returns it for the mail. */
export async function issueVerificationToken(
  client: Pool | PoolClient,
  partnerId: string,
  email: string,
  now: Date,
): Promise<VerificationToken> {
  const token = `evt_${randomBytes(32).toString("base64url")}`;
  const expiresAt = new Date(now.getTime() + VERIFICATION_TOKEN_TTL_MS);
  await client.query(
    `INSERT INTO email_verification_tokens (token_hash, partner_id, email, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [tokenHash(token), partnerId, email, now, expiresAt],
  );
  return { token, expiresAt };
}

export type TokenRefusal = "unknown" | "used" | "expired" | "email_changed";

function refused(reason: TokenRefusal): ApiError {
  return new ApiError("verification_token_invalid", undefined, { reason });
}

interface TokenRow {
  partner_id: string;
  email: string;
  consumed_at: Date | null;
  expires_at: Date;
}

/** Consumes the token and verifies the contact email it was mailed to; 400 verification_token_invalid else. */
export async function consumeVerificationToken(
  pool: Pool,
  token: string,
  now: Date,
): Promise<{ partnerId: string; email: string }> {
  // A malformed token cannot be one of ours: no lookup.
  if (!TOKEN_PATTERN.test(token)) throw refused("unknown");
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<TokenRow>(
      `SELECT partner_id, email, consumed_at, expires_at FROM email_verification_tokens
       WHERE token_hash = $1 FOR UPDATE`,
      [tokenHash(token)],
    );
    const row = rows[0];
    if (row === undefined) throw refused("unknown");
    if (row.consumed_at !== null) throw refused("used");
    if (row.expires_at <= now) throw refused("expired");
    await client.query("UPDATE email_verification_tokens SET consumed_at = $2 WHERE token_hash = $1", [
      tokenHash(token),
      now,
    ]);
    const verified = await client.query(
      `UPDATE partners SET email_verified_at = coalesce(email_verified_at, $3)
       WHERE partner_id = $1 AND contact_email = $2`,
      [row.partner_id, row.email, now],
    );
    // The contact changed since the mail went out: the token proves an address the partner no longer uses.
    if (verified.rowCount === 0) throw refused("email_changed");
    return { partnerId: row.partner_id, email: row.email };
  });
}
