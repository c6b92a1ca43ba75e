// Refused lock reports: written to the audit log in the report's transaction (committed although the report is
// answered 409), and read back into the identity's status timeline so operators and partners see them.
import type { Pool, PoolClient } from "pg";
import type { Environment } from "../../core/environment";
import type { ApiError } from "../../core/errors/catalogue";
import type { NormalizedIdentity } from "../../core/fold";
import type { LockRecord, TimelineEntry } from "../../core/status";
import { appendAudit } from "../../storage/audit";
import type { Caller } from "./validation";

const ACTION = "lock.refused";

export type RefusedLock = { refused: ApiError };

function subjectOf(environment: Environment, identityKey: string): string {
  return `identity:${environment}:${identityKey}`;
}

/** Audits a refused lock report; the caller throws `refused` once the transaction has committed. */
export async function auditRefusal(
  client: PoolClient,
  caller: Caller,
  identity: NormalizedIdentity,
  report: { kind: LockRecord["kind"]; chain: string; launchpad: string; wasReserved?: boolean | undefined },
  refused: ApiError,
): Promise<RefusedLock> {
  await appendAudit(client, {
    actor: `partner:${caller.partnerId}`,
    action: ACTION,
    subject: subjectOf(caller.environment, identity.identityKey),
    reason: refused.code,
    details: {
      chain: report.chain,
      kind: report.kind,
      keyId: caller.keyId,
      launchpad: report.launchpad,
      wasReserved: report.wasReserved ?? null,
      refusal: refused.details,
    },
  });
  return { refused };
}

/** The identity's refused lock reports as timeline entries (`lock_refused`), oldest first. */
export async function lockRefusalEntries(
  pool: Pool,
  environment: Environment,
  identityKey: string,
): Promise<TimelineEntry[]> {
  const { rows } = await pool.query<{ at: Date; reason: string; details: Record<string, unknown> }>(
    "SELECT at, reason, details FROM audit_log WHERE subject = $1 AND action = $2 ORDER BY at, id",
    [subjectOf(environment, identityKey), ACTION],
  );
  return rows.map((row) => ({
    at: row.at,
    type: "lock_refused",
    chain: typeof row.details.chain === "string" ? row.details.chain : null,
    details: {
      code: row.reason,
      kind: row.details.kind,
      launchpad: row.details.launchpad,
      ...(row.details.refusal as object),
    },
  }));
}
