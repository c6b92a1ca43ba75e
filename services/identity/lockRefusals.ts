// Refused lock reports: written to the audit log in the report's transaction (committed although the report is
// answered 409), and read back into the identity's status timeline (identityAudit.ts) so operators and partners
// see them.
import type { PoolClient } from "pg";
import type { ApiError } from "../../core/errors/catalogue";
import type { NormalizedIdentity } from "../../core/fold";
import type { LockRecord } from "../../core/status";
import { appendAudit } from "../../storage/audit";
import { identitySubject, LOCK_REFUSED_ACTION } from "./identityAudit";
import type { Caller } from "./validation";

export type RefusedLock = { refused: ApiError };

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
    action: LOCK_REFUSED_ACTION,
    subject: identitySubject(caller.environment, identity.identityKey),
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
