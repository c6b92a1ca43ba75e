// API keys in Postgres: issuing (hash only), listing, revoking with an audit entry, and the batched
// authentication that also counts each request in its rate window (one statement per batch).
import type { Pool, PoolClient } from "pg";
import type { Environment } from "../../core/environment";
import { withTransaction } from "../../storage/transaction";
import { type RateState, rateWindowAt, SANDBOX_RATE_LIMIT } from "../platform/rateWindow";
import { apiKeyHash, type IssuedApiKey, issueApiKey, newPartnerId } from "./apiKeyFormat";
import type { PartnerScope } from "./scopes";

export interface ApiKeyRecord {
  keyId: string;
  displayPrefix: string;
  environment: Environment;
  partnerId: string;
  label: string;
  organization: string | null;
  email: string | null;
  emailVerified: boolean;
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
  partnerId?: string;
  organization?: string;
  email?: string;
  /** Seals a signing secret issued with the key, bound to the new key id. */
  sealSigningSecret?: (keyId: string) => string;
}

/** What a request needs of its key: identity, scopes and limit (the hot path reads nothing else). */
export type AuthenticatedKey = Pick<
  ApiKeyRecord,
  "keyId" | "partnerId" | "environment" | "scopes" | "rateLimitPerMinute"
>;

export interface Authentication {
  key: AuthenticatedKey;
  /** Absent for a revoked key: revoked keys are not counted. */
  rate?: RateState;
}

export class ApiKeyNotFoundError extends Error {
  constructor(keyId: string) {
    super(`No API key has id ${keyId}; list keys with: npm run operator -- api-keys:list`);
    this.name = "ApiKeyNotFoundError";
  }
}

const COLUMNS = `key_id, display_prefix, environment, partner_id, label, organization, email, email_verified, scopes,
  rate_limit_per_minute, created_at, created_by, revoked_at, revoked_by, revoked_reason`;

interface KeyRow {
  key_id: string;
  display_prefix: string;
  environment: Environment;
  partner_id: string;
  label: string;
  organization: string | null;
  email: string | null;
  email_verified: boolean;
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
    organization: row.organization,
    email: row.email,
    emailVerified: row.email_verified,
    scopes: row.scopes,
    rateLimitPerMinute: row.rate_limit_per_minute,
    createdAt: row.created_at,
    createdBy: row.created_by,
    revokedAt: row.revoked_at,
    revokedBy: row.revoked_by,
    revokedReason: row.revoked_reason,
  };
}

/** Stores a new key (hash only) and returns its record plus the raw secret for one-time display. */
export async function createApiKey(
  db: Pool | PoolClient,
  input: NewApiKey,
): Promise<{ record: ApiKeyRecord; issued: IssuedApiKey }> {
  const issued = issueApiKey(input.environment);
  const rateLimit = input.environment === "sandbox" ? SANDBOX_RATE_LIMIT : input.rateLimitPerMinute;
  const { rows } = await db.query<KeyRow>(
    `INSERT INTO api_keys (key_id, secret_hash, display_prefix, environment, partner_id, label, organization, email,
       scopes, rate_limit_per_minute, signing_secret_sealed, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     RETURNING ${COLUMNS}`,
    [
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
    ],
  );
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
export async function revokeApiKey(
  pool: Pool,
  keyId: string,
  audit: { actor: string; reason: string },
): Promise<ApiKeyRecord> {
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
    await writeAudit(client, { ...audit, action: "api_key.revoke", subject: keyId, details: {} });
    return recordOf(rows[0]);
  });
}

export async function writeAudit(
  db: Pool | PoolClient,
  entry: { actor: string; action: string; subject: string; reason: string; details: object },
): Promise<void> {
  await db.query(
    "INSERT INTO audit_log (actor, action, subject, reason, details) VALUES ($1, $2, $3, $4, $5)",
    [entry.actor, entry.action, entry.subject, entry.reason, JSON.stringify(entry.details)],
  );
}

export interface AuthenticationAttempt {
  /** The raw key as sent. */
  raw: string;
  /** The request's time; its clock minute is the rate window it counts in. */
  nowMs: number;
}

/** The attempts of one key in one window, in arrival order: they take consecutive counts. */
interface AttemptGroup {
  hash: Buffer;
  windowStart: Date;
  /** Indexes into the attempts, in arrival order. */
  members: number[];
}

function groupAttempts(attempts: readonly AuthenticationAttempt[]): AttemptGroup[] {
  const groups = new Map<string, AttemptGroup>();
  attempts.forEach((attempt, index) => {
    const hash = apiKeyHash(attempt.raw);
    const windowStart = rateWindowAt(attempt.nowMs).start;
    const id = `${hash.toString("hex")}@${windowStart.getTime()}`;
    const group = groups.get(id);
    if (group === undefined) groups.set(id, { hash, windowStart, members: [index] });
    else group.members.push(index);
  });
  return [...groups.values()];
}

type AuthenticationRow = Pick<
  KeyRow,
  "key_id" | "partner_id" | "environment" | "scopes" | "rate_limit_per_minute"
> & {
  position: number;
  /** Null for a revoked key (not counted). */
  request_count: number | null;
};

// The upsert counts each (key, window) once with the number of its attempts (an upsert cannot touch one
// row twice) and returns the new total; rows are locked in key order, so concurrent batches from any
// number of processes cannot deadlock and take disjoint, consecutive ranges of counts.
// The attempts come as one JSON array: the planner cannot size it, so a named statement keeps its generic
// plan (see recordLoader).
const AUTHENTICATE_SQL = `
WITH attempt AS (
  SELECT position, decode(secret_hash, 'hex') AS secret_hash, window_start, attempts
  FROM json_to_recordset($1::json) AS a(position int, secret_hash text, window_start timestamptz, attempts int)
), found AS (
  SELECT attempt.position, attempt.window_start, attempt.attempts, key_id, partner_id, environment, scopes,
    rate_limit_per_minute, revoked_at IS NOT NULL AS revoked
  FROM attempt JOIN api_keys USING (secret_hash)
), counted AS (
  INSERT INTO rate_limit_windows (subject, window_start, request_count)
  SELECT key_id, window_start, attempts FROM found WHERE NOT revoked ORDER BY key_id, window_start
  ON CONFLICT (subject, window_start)
  DO UPDATE SET request_count = rate_limit_windows.request_count + EXCLUDED.request_count
  RETURNING subject, window_start, request_count)
SELECT found.position, key_id, partner_id, environment, scopes, rate_limit_per_minute, request_count FROM found
LEFT JOIN counted ON counted.subject = found.key_id AND counted.window_start = found.window_start`;

/**
 * Finds the key of each attempt and, unless it is revoked, counts the attempt in the key's current minute
 * window — one statement for the whole batch. Each attempt gets its exact position in its window's count,
 * as if it had been counted alone, so the limit holds across concurrent batches and processes.
 * `result[i]` answers `attempts[i]`; undefined for an unknown key. `named`: see platform/namedStatements.
 */
export async function authenticateApiKeys(
  pool: Pool,
  attempts: readonly AuthenticationAttempt[],
  named = false,
): Promise<(Authentication | undefined)[]> {
  const groups = groupAttempts(attempts);
  const { rows } = await pool.query<AuthenticationRow>({
    ...(named ? { name: "api_keys.authenticate" } : {}),
    text: AUTHENTICATE_SQL,
    values: [
      JSON.stringify(
        groups.map((group, position) => ({
          position,
          secret_hash: group.hash.toString("hex"),
          window_start: group.windowStart,
          attempts: group.members.length,
        })),
      ),
    ],
  });
  const results: (Authentication | undefined)[] = attempts.map(() => undefined);
  for (const row of rows) {
    const group = groups[row.position] as AttemptGroup;
    const key: AuthenticatedKey = {
      keyId: row.key_id,
      partnerId: row.partner_id,
      environment: row.environment,
      scopes: row.scopes,
      rateLimitPerMinute: row.rate_limit_per_minute,
    };
    const total = row.request_count;
    group.members.forEach((attemptIndex, order) => {
      results[attemptIndex] = {
        key,
        rate:
          total === null
            ? undefined
            : {
                limit: key.rateLimitPerMinute,
                count: total - group.members.length + 1 + order,
                window: rateWindowAt((attempts[attemptIndex] as AuthenticationAttempt).nowMs),
              },
      };
    });
  }
  return results;
}

/** Drops windows that ended before `beforeMs`; they can never count again. */
export async function pruneRateWindows(pool: Pool, beforeMs: number): Promise<void> {
  await pool.query("DELETE FROM rate_limit_windows WHERE window_start < $1", [new Date(beforeMs)]);
}
