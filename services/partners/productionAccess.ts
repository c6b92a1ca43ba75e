// Production access: a partner asks with its key (recorded for operators, one open request at a time), and an
// operator grants it, which issues the partner's first svc_live_ key (shown once) in the same audited
// transaction that closes the request and opens production to the partner (its integration starts there).
import { randomBytes } from "node:crypto";
import type { Pool } from "pg";
import { ApiError } from "../../core/errors/catalogue";
import { ServiceError } from "../../core/errors/serviceError";
import { type Actor, appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";
import type { PartnerContext } from "./admission";
import type { IssuedApiKey } from "./apiKeyFormat";
import { type ApiKeyRecord, createApiKey } from "./apiKeyStore";
import { findPartner } from "./partnerStore";
import type { PartnerScope } from "./scopes";

export type ProductionRequestStatus = "open" | "granted" | "declined";

export interface ProductionRequest {
  requestId: string;
  partnerId: string;
  keyId: string;
  message: string;
  status: ProductionRequestStatus;
  createdAt: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
}

interface ProductionRequestRow {
  request_id: string;
  partner_id: string;
  key_id: string;
  message: string;
  status: ProductionRequestStatus;
  created_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
}

const COLUMNS = "request_id, partner_id, key_id, message, status, created_at, decided_at, decided_by";

function requestOf(row: ProductionRequestRow): ProductionRequest {
  return {
    requestId: row.request_id,
    partnerId: row.partner_id,
    keyId: row.key_id,
    message: row.message,
    status: row.status,
    createdAt: row.created_at,
    decidedAt: row.decided_at,
    decidedBy: row.decided_by,
  };
}

export class ProductionRequestNotFoundError extends ServiceError {
  constructor(requestId: string) {
    super(
      `No open production request has id ${requestId}; list them with: npm run operator -- partners:requests`,
    );
  }
}

/**
 * Records the caller's request for production access; while one is open, asking again answers that one
 * (`created: false`). The contact email must be verified: operators answer there.
 */
export async function requestProduction(
  pool: Pool,
  caller: PartnerContext,
  message: string,
  now: Date,
): Promise<{ request: ProductionRequest; created: boolean }> {
  const partner = await findPartner(pool, caller.partnerId);
  if (partner === undefined) throw new ApiError("unauthorized");
  if (partner.environments.includes("production")) {
    throw new ApiError(
      "forbidden",
      "This partner already has production access; ask an operator for further production keys.",
    );
  }
  if (!partner.emailVerified) {
    throw new ApiError(
      "email_not_verified",
      "Verify your contact email first (POST /v1/partners/verify-email with the mailed token): operators answer production requests there.",
    );
  }
  const inserted = await pool.query<ProductionRequestRow>(
    `INSERT INTO production_requests (request_id, partner_id, key_id, message, created_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (partner_id) WHERE status = 'open' DO NOTHING RETURNING ${COLUMNS}`,
    [`prq_${randomBytes(8).toString("hex")}`, caller.partnerId, caller.keyId, message, now],
  );
  if (inserted.rows[0] !== undefined) return { request: requestOf(inserted.rows[0]), created: true };
  const open = await pool.query<ProductionRequestRow>(
    `SELECT ${COLUMNS} FROM production_requests WHERE partner_id = $1 AND status = 'open'`,
    [caller.partnerId],
  );
  return { request: requestOf(open.rows[0] as ProductionRequestRow), created: false };
}

export async function listProductionRequests(
  pool: Pool,
  includeDecided: boolean,
): Promise<ProductionRequest[]> {
  const { rows } = await pool.query<ProductionRequestRow>(
    `SELECT ${COLUMNS} FROM production_requests WHERE $1 OR status = 'open' ORDER BY created_at, request_id`,
    [includeDecided],
  );
  return rows.map(requestOf);
}

export interface ProductionGrant {
  requestId: string;
  scopes: readonly PartnerScope[];
  rateLimitPerMinute: number;
  label: string;
}

/** Grants an open request: the partner's production access and its svc_live_ key, audited. */
export async function grantProduction(
  pool: Pool,
  grant: ProductionGrant,
  audit: Actor,
): Promise<{ request: ProductionRequest; record: ApiKeyRecord; issued: IssuedApiKey }> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<ProductionRequestRow>(
      `UPDATE production_requests SET status = 'granted', decided_at = now(), decided_by = $2
       WHERE request_id = $1 AND status = 'open' RETURNING ${COLUMNS}`,
      [grant.requestId, audit.actor],
    );
    const row = rows[0];
    if (row === undefined) throw new ProductionRequestNotFoundError(grant.requestId);
    const { record, issued } = await createApiKey(client, {
      environment: "production",
      scopes: grant.scopes,
      rateLimitPerMinute: grant.rateLimitPerMinute,
      label: grant.label,
      createdBy: audit.actor,
      partnerId: row.partner_id,
    });
    await appendAudit(client, {
      ...audit,
      action: "partner.grant_production",
      subject: row.partner_id,
      details: {
        requestId: row.request_id,
        keyId: record.keyId,
        scopes: record.scopes,
        rateLimitPerMinute: record.rateLimitPerMinute,
      },
    });
    return { request: requestOf(row), record, issued };
  });
}
