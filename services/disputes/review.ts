// What an operator does with a dispute (operator CLI): take it under review, then uphold or reject it with an
// actor and a reason. Upholding acts on the identity in the same transaction: a mistaken-block dispute clears
// the guardian block (identity.cleared), a copycat dispute may place one on the copycat identity.
import type { Pool } from "pg";
import { ServiceError } from "../../core/errors/serviceError";
import type { Actor } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";
import { clearGuardianBlock, placeGuardianBlock } from "../identity";
import { type Dispute, disputeById, moveDispute } from "./disputeStore";
import type { DisputeOutcome } from "./states";
import { auditTransition } from "./transitions";

export class DisputeError extends ServiceError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
  }
}

export interface Decision {
  disputeId: string;
  verdict: "upheld" | "rejected";
  /** Upholding a copycat dispute: block the identity on this chain (the dispute's chain when omitted). */
  block?: { chain?: string | undefined } | undefined;
}

/** The dispute with this id in either environment, contact data included (the operator's view). */
export async function operatorDispute(pool: Pool, disputeId: string): Promise<Dispute> {
  const found = await disputeById(pool, null, disputeId);
  if (found === undefined)
    throw new DisputeError(`No dispute has the id ${disputeId}; list them with disputes:list.`);
  return found;
}

function notMovable(dispute: Dispute, to: string): DisputeError {
  return new DisputeError(`Dispute ${dispute.disputeId} is ${dispute.status}; it cannot move to ${to}.`);
}

export async function reviewDispute(
  pool: Pool,
  disputeId: string,
  by: Actor,
  now = new Date(),
): Promise<Dispute> {
  const found = await operatorDispute(pool, disputeId);
  return withTransaction(pool, async (client) => {
    const moved = await moveDispute(client, disputeId, "under_review", null, now);
    if (moved === undefined) throw notMovable(found, "under_review");
    await auditTransition(client, moved, by, now);
    return moved;
  });
}

function outcomeOf(dispute: Dispute, decision: Decision): DisputeOutcome | null {
  if (decision.verdict === "rejected") {
    if (decision.block !== undefined)
      throw new DisputeError("--block applies only when upholding a dispute.");
    return null;
  }
  if (decision.block !== undefined) {
    if (dispute.reason !== "copycat")
      throw new DisputeError(
        `--block applies to copycat disputes; ${dispute.disputeId} is ${dispute.reason}.`,
      );
    return "blocked";
  }
  return dispute.reason === "mistaken_block" ? "cleared" : "none";
}

export async function decideDispute(
  pool: Pool,
  decision: Decision,
  by: Actor,
  now = new Date(),
): Promise<Dispute> {
  const found = await operatorDispute(pool, decision.disputeId);
  const outcome = outcomeOf(found, decision);
  return withTransaction(pool, async (client) => {
    const moved = await moveDispute(client, found.disputeId, decision.verdict, outcome, now);
    if (moved === undefined) throw notMovable(found, decision.verdict);
    const scope = {
      environment: moved.environment,
      identityKey: moved.identityKey,
      disputeId: moved.disputeId,
    };
    if (outcome === "cleared") {
      await clearGuardianBlock(
        client,
        { ...scope, ...(moved.chain === null ? {} : { chain: moved.chain }) },
        by,
        now,
      );
    } else if (outcome === "blocked") {
      const chain = decision.block?.chain ?? moved.chain ?? undefined;
      await placeGuardianBlock(client, { ...scope, ...(chain === undefined ? {} : { chain }) }, by, now);
    }
    await auditTransition(client, moved, by, now);
    return moved;
  });
}
