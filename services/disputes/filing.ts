// What a claimant does, keyless: ask for a wallet challenge, file a dispute with the signed answer, list
// disputes, and withdraw their own with a fresh proof from the same wallet. The signature is checked outside any
// transaction (it may read the chain); the challenge is consumed in the filing's transaction.
import { randomBytes } from "node:crypto";
import type { Pool } from "pg";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import { withTransaction } from "../../storage/transaction";
import { normalizedOrReject } from "../identity";
import type { Challenge, SignedAnswer, WalletChallengeRequest, WalletProofs } from "../ownership";
import { decodeCursor, pageOf } from "../pageCursor";
import {
  type Dispute,
  type DisputeFilter,
  disputeById,
  insertDispute,
  listDisputes,
  moveDispute,
  undecidedDisputeOf,
} from "./disputeStore";
import type { DisputeReason } from "./states";
import { auditTransition, claimantActor } from "./transitions";

const DISPUTES_PATH = "/v1/disputes";
const STATEMENT =
  "Sign to prove that you control this wallet for a dispute about a token identity. Signing costs nothing and moves no funds.";
/** Longest page of the public list. */
export const DISPUTE_PAGE_MAX = 50;

export interface FilingRequest {
  name: string;
  ticker: string;
  chain?: string | undefined;
  reason: DisputeReason;
  statement: string;
  evidence?: string[] | undefined;
  contact?: string | undefined;
  proof: SignedAnswer;
}

export interface ListQuery extends DisputeFilter {
  cursor?: string | undefined;
  limit?: number | undefined;
}

export interface FilingDeps {
  pool: Pool;
  proofs: WalletProofs;
  now: () => number;
}

const owner = (environment: Environment) => ({ partnerId: null, environment });
const newId = () => `dsp_${randomBytes(16).toString("hex")}`;

export async function challengeClaimant(
  deps: FilingDeps,
  environment: Environment,
  request: WalletChallengeRequest,
): Promise<Challenge> {
  const now = new Date(deps.now());
  return withTransaction(deps.pool, (client) =>
    deps.proofs.issue(
      client,
      owner(environment),
      { ...request, purpose: "dispute", statement: STATEMENT, answerPath: DISPUTES_PATH },
      now,
    ),
  );
}

export async function fileDispute(
  deps: FilingDeps,
  environment: Environment,
  request: FilingRequest,
): Promise<Dispute> {
  const identity = normalizedOrReject(request.name, request.ticker);
  const chain = request.chain === undefined ? null : deps.proofs.chainOf(request.chain).chain;
  const now = new Date(deps.now());
  const checked = await deps.proofs.check(deps.pool, owner(environment), "dispute", request.proof, now);
  const { challenge } = checked;
  const dispute: Dispute = {
    disputeId: newId(),
    environment,
    identityKey: identity.identityKey,
    chain,
    reason: request.reason,
    statement: request.statement,
    evidence: request.evidence ?? [],
    contact: request.contact ?? null,
    claimant: {
      chain: challenge.chain,
      family: challenge.family,
      address: challenge.address,
      proof: checked.proof,
    },
    challengeId: challenge.challengeId,
    status: "open",
    outcome: null,
    createdAt: now,
    updatedAt: now,
  };
  return withTransaction(deps.pool, async (client) => {
    await deps.proofs.consume(client, checked, now);
    if (!(await insertDispute(client, dispute))) {
      const open = await undecidedDisputeOf(
        client,
        environment,
        dispute.identityKey,
        challenge.family,
        challenge.address,
      );
      throw new ApiError("dispute_already_open", undefined, {
        disputeId: open?.disputeId ?? null,
        status: open?.status ?? null,
      });
    }
    await auditTransition(client, dispute, { actor: claimantActor(dispute), reason: dispute.reason }, now);
    return dispute;
  });
}

export async function withdrawDispute(
  deps: FilingDeps,
  environment: Environment,
  disputeId: string,
  proof: SignedAnswer,
): Promise<Dispute> {
  const now = new Date(deps.now());
  const found = await disputeById(deps.pool, environment, disputeId);
  if (found === undefined) throw new ApiError("dispute_not_found");
  const checked = await deps.proofs.check(deps.pool, owner(environment), "dispute", proof, now);
  const { challenge } = checked;
  if (challenge.family !== found.claimant.family || challenge.address !== found.claimant.address) {
    throw new ApiError("dispute_claimant_mismatch");
  }
  return withTransaction(deps.pool, async (client) => {
    await deps.proofs.consume(client, checked, now);
    const moved = await moveDispute(client, disputeId, "withdrawn", null, now);
    if (moved === undefined) throw new ApiError("dispute_decided", undefined, { status: found.status });
    await auditTransition(client, moved, { actor: claimantActor(moved), reason: "withdrawn" }, now);
    return moved;
  });
}

export async function disputePage(
  pool: Pool,
  environment: Environment,
  query: ListQuery,
): Promise<{ rows: Dispute[]; nextCursor: string | null }> {
  const limit = Math.min(query.limit ?? 20, DISPUTE_PAGE_MAX);
  const rows = await listDisputes(pool, environment, query, decodeCursor(query.cursor), limit);
  return pageOf(rows, limit, (row) => ({ at: row.createdAt, id: row.disputeId }));
}

export async function publicDispute(
  pool: Pool,
  environment: Environment,
  disputeId: string,
): Promise<Dispute> {
  const found = await disputeById(pool, environment, disputeId);
  if (found === undefined) throw new ApiError("dispute_not_found");
  return found;
}
