// Operator and lifecycle actions into audit_log, always inside the transaction that made the change.
import type { PoolClient } from "pg";

/** Who did an operator action and why; both go to the audit log. */
export interface Actor {
  actor: string;
  reason: string;
}

export interface AuditEntry {
  actor: string;
  action: string;
  subject: string;
  reason: string;
  details?: Record<string, unknown>;
  /** When it happened, by the service's clock; the database's clock when omitted. */
  at?: Date;
}

/** The audit action of a watchdog restart of a stalled indexer (indexer/watchdog.ts); subject `chain:<chain>`. */
export const INDEXER_RESTART_ACTION = "indexer.restarted";

export async function appendAudit(client: PoolClient, entry: AuditEntry): Promise<void> {
  await client.query(
    "INSERT INTO audit_log (actor, action, subject, reason, details, at) VALUES ($1, $2, $3, $4, $5, COALESCE($6, now()))",
    [
      entry.actor,
      entry.action,
      entry.subject,
      entry.reason,
      JSON.stringify(entry.details ?? {}),
      entry.at ?? null,
    ],
  );
}
