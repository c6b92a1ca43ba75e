// Requests for partner access from the public form: stored as sent, acknowledged with their id, listed for
// operators and closed by them (audited).
import { randomBytes } from "node:crypto";
import type { Pool } from "pg";
import { ServiceError } from "../../core/errors/serviceError";
import { type Actor, appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";

export interface AccessRequestInput {
  organization: string;
  email: string;
  intendedUse: string;
}

export interface AccessRequest extends AccessRequestInput {
  requestId: string;
  status: "open" | "closed";
  createdAt: Date;
  closedAt: Date | null;
  closedBy: string | null;
}

interface AccessRequestRow {
  request_id: string;
  organization: string;
  email: string;
  intended_use: string;
  status: "open" | "closed";
  created_at: Date;
  closed_at: Date | null;
  closed_by: string | null;
}

const COLUMNS = "request_id, organization, email, intended_use, status, created_at, closed_at, closed_by";

function requestOf(row: AccessRequestRow): AccessRequest {
  return {
    requestId: row.request_id,
    organization: row.organization,
    email: row.email,
    intendedUse: row.intended_use,
    status: row.status,
    createdAt: row.created_at,
    closedAt: row.closed_at,
    closedBy: row.closed_by,
  };
}

export class AccessRequestNotFoundError extends ServiceError {
  constructor(requestId: string) {
    super(
      `No open partner access request has id ${requestId}; list them with: npm run operator -- partners:requests`,
    );
  }
}

export async function recordAccessRequest(
  pool: Pool,
  input: AccessRequestInput,
  now: Date,
): Promise<AccessRequest> {
  const { rows } = await pool.query<AccessRequestRow>(
    `INSERT INTO partner_access_requests (request_id, organization, email, intended_use, created_at)
     VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [`par_${randomBytes(8).toString("hex")}`, input.organization, input.email, input.intendedUse, now],
  );
  return requestOf(rows[0] as AccessRequestRow);
}

export async function listAccessRequests(pool: Pool, includeClosed: boolean): Promise<AccessRequest[]> {
  const { rows } = await pool.query<AccessRequestRow>(
    `SELECT ${COLUMNS} FROM partner_access_requests WHERE $1 OR status = 'open' ORDER BY created_at, request_id`,
    [includeClosed],
  );
  return rows.map(requestOf);
}

export async function closeAccessRequest(
  pool: Pool,
  requestId: string,
  audit: Actor,
): Promise<AccessRequest> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<AccessRequestRow>(
      `UPDATE partner_access_requests SET status = 'closed', closed_at = now(), closed_by = $2
       WHERE request_id = $1 AND status = 'open' RETURNING ${COLUMNS}`,
      [requestId, audit.actor],
    );
    if (rows[0] === undefined) throw new AccessRequestNotFoundError(requestId);
    await appendAudit(client, { ...audit, action: "partner_access_request.close", subject: requestId });
    return requestOf(rows[0]);
  });
}
