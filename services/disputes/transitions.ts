// Every move of a dispute is an audit_log row on its identity's subject (services/identity/identityAudit.ts),
// written in the move's transaction: the audit trail and the identity's status timeline are the same rows.
import type { PoolClient } from "pg";
import { type Actor, appendAudit } from "../../storage/audit";
import { DISPUTE_ACTION_PREFIX, identitySubject } from "../identity";
import type { Dispute } from "./disputeStore";

export async function auditTransition(
  client: PoolClient,
  dispute: Dispute,
  by: Actor,
  at: Date,
): Promise<void> {
  await appendAudit(client, {
    ...by,
    action: `${DISPUTE_ACTION_PREFIX}${dispute.status}`,
    subject: identitySubject(dispute.environment, dispute.identityKey),
    at,
    details: {
      disputeId: dispute.disputeId,
      chain: dispute.chain,
      disputeReason: dispute.reason,
      outcome: dispute.outcome,
    },
  });
}

/** The claimant as an audit actor: the wallet that signed. */
export function claimantActor(dispute: Dispute): string {
  return `wallet:${dispute.claimant.chain}:${dispute.claimant.address}`;
}
