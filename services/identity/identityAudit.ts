// The identity's audited history beside its records: refused lock reports (lockRefusals.ts) and dispute
// transitions (services/disputes) are audit_log rows under the identity's subject, read back into the status
// timeline with only their public facts.
import type { Pool } from "pg";
import type { Environment } from "../../core/environment";
import type { TimelineEntry, TimelineEntryType } from "../../core/status";

export const LOCK_REFUSED_ACTION = "lock.refused";
/** A dispute's transition to `status` is audited as `dispute.<status>`. */
export const DISPUTE_ACTION_PREFIX = "dispute.";

/** The audit subject of an identity in an environment. */
export function identitySubject(environment: Environment, identityKey: string): string {
  return `identity:${environment}:${identityKey}`;
}

interface AuditRow {
  at: Date;
  action: string;
  reason: string;
  details: Record<string, unknown>;
}

const chainOf = (details: Record<string, unknown>) =>
  typeof details.chain === "string" ? details.chain : null;

function entryOf(row: AuditRow): TimelineEntry {
  if (row.action === LOCK_REFUSED_ACTION) {
    return {
      at: row.at,
      type: "lock_refused",
      chain: chainOf(row.details),
      details: {
        code: row.reason,
        kind: row.details.kind,
        launchpad: row.details.launchpad,
        ...(row.details.refusal as object),
      },
    };
  }
  // Who acted and the operator's words stay in the audit log: the claimant's wallet and reasons are not public.
  return {
    at: row.at,
    type: `dispute_${row.action.slice(DISPUTE_ACTION_PREFIX.length)}` as TimelineEntryType,
    chain: chainOf(row.details),
    details: {
      disputeId: row.details.disputeId,
      reason: row.details.disputeReason,
      outcome: row.details.outcome ?? null,
    },
  };
}

/** The identity's audited entries, oldest first. */
export async function auditedTimelineEntries(
  pool: Pool,
  environment: Environment,
  identityKey: string,
): Promise<TimelineEntry[]> {
  const { rows } = await pool.query<AuditRow>(
    `SELECT at, action, reason, details FROM audit_log
      WHERE subject = $1 AND (action = $2 OR starts_with(action, $3)) ORDER BY at, id`,
    [identitySubject(environment, identityKey), LOCK_REFUSED_ACTION, DISPUTE_ACTION_PREFIX],
  );
  return rows.map(entryOf);
}
