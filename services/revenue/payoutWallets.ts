// Payout wallets proven by a signed challenge (services/ownership): challenge, verify, rotate. Each change and
// its audit entry commit together; a signature is checked outside any transaction (it may ask the chain).
import { randomBytes } from "node:crypto";
import type { Pool, PoolClient } from "pg";
import { ApiError } from "../../core/errors/catalogue";
import { appendAudit } from "../../storage/audit";
import { withTransaction } from "../../storage/transaction";
import type {
  Challenge,
  PartnerProofOwner,
  SignedAnswer,
  WalletChallengeRequest,
  WalletProofs,
} from "../ownership";
import { archiveWallet, insertVerifiedWallet, type PayoutWallet, verifiedWallet } from "./payoutWalletStore";

/** Who asks: the partner, and the key it calls with (the audit names it). */
export interface WalletCaller extends PartnerProofOwner {
  keyId: string;
}

const VERIFY_PATH = "/api/v1/partner/payout-wallets/verify";

function statementOf(caller: WalletCaller, chain: string): string {
  return `Prove that this wallet receives the partner revenue of ${caller.partnerId} (${caller.environment}) on ${chain}. Signing costs nothing and moves no funds.`;
}

async function audit(
  client: PoolClient,
  caller: WalletCaller,
  action: string,
  details: Record<string, unknown>,
) {
  await appendAudit(client, {
    actor: `key:${caller.keyId}`,
    action,
    subject: `partner:${caller.partnerId}:${caller.environment}`,
    reason: "partner request",
    details,
  });
}

function issue(
  proofs: WalletProofs,
  client: PoolClient,
  caller: WalletCaller,
  request: WalletChallengeRequest,
  now: Date,
) {
  return proofs.issue(
    client,
    { partnerId: caller.partnerId, environment: caller.environment },
    {
      ...request,
      purpose: "payout_wallet",
      statement: statementOf(caller, request.chain),
      answerPath: VERIFY_PATH,
    },
    now,
  );
}

const challengeDetails = (challenge: Challenge) => ({
  challengeId: challenge.challengeId,
  chain: challenge.chain,
  address: challenge.address,
  expiresAt: challenge.expiresAt.toISOString(),
});

/** A challenge for a first wallet of the chain's family; 409 when one is verified already (rotate instead). */
export async function challengeWallet(
  pool: Pool,
  proofs: WalletProofs,
  caller: WalletCaller,
  request: WalletChallengeRequest,
  now: Date,
): Promise<Challenge> {
  const { family } = proofs.chainOf(request.chain);
  return withTransaction(pool, async (client) => {
    const current = await verifiedWallet(client, caller, family);
    if (current !== undefined) {
      throw new ApiError("payout_wallet_already_verified", undefined, { family, address: current.address });
    }
    const challenge = await issue(proofs, client, caller, request, now);
    await audit(client, caller, "payout_wallet.challenged", challengeDetails(challenge));
    return challenge;
  });
}

/** Checks the signed challenge, uses it up and records the wallet as verified. */
export async function verifyWallet(
  pool: Pool,
  proofs: WalletProofs,
  caller: WalletCaller,
  answer: SignedAnswer,
  now: Date,
): Promise<PayoutWallet> {
  const checked = await proofs.check(pool, caller, "payout_wallet", answer, now);
  const { challenge } = checked;
  return withTransaction(pool, async (client) => {
    await proofs.consume(client, checked, now);
    const wallet = await insertVerifiedWallet(
      client,
      caller,
      {
        walletId: `pw_${randomBytes(16).toString("hex")}`,
        chain: challenge.chain,
        family: challenge.family,
        address: challenge.address,
        proof: checked.proof,
        verifiedAt: now,
      },
      challenge.challengeId,
    );
    if (wallet === undefined) {
      throw new ApiError("payout_wallet_already_verified", undefined, { family: challenge.family });
    }
    await audit(client, caller, "payout_wallet.verified", {
      walletId: wallet.walletId,
      chain: wallet.chain,
      address: wallet.address,
      proof: wallet.proof,
      challengeId: challenge.challengeId,
    });
    return wallet;
  });
}

/** Archives the family's verified wallet and challenges the new address, in one transaction. */
export async function rotateWallet(
  pool: Pool,
  proofs: WalletProofs,
  caller: WalletCaller,
  request: WalletChallengeRequest,
  now: Date,
): Promise<{ archived: PayoutWallet; challenge: Challenge }> {
  const { family } = proofs.chainOf(request.chain);
  return withTransaction(pool, async (client) => {
    const archived = await archiveWallet(client, caller, family, now);
    if (archived === undefined) throw new ApiError("payout_wallet_not_verified", undefined, { family });
    const challenge = await issue(proofs, client, caller, request, now);
    await audit(client, caller, "payout_wallet.rotated", {
      archivedWalletId: archived.walletId,
      archivedAddress: archived.address,
      ...challengeDetails(challenge),
    });
    return { archived, challenge };
  });
}
