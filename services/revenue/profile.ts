// The partner's revenue profile in one environment: its split in basis points (from its partner row), the
// introductory period and its end, the share a prepare would snapshot now, its payout wallets with their
// verification state and open challenges, and where each chain family's revenue is routed.
import type { Pool } from "pg";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import type { ChainFamily } from "../../core/status";
import { type Challenge, openChallenges, type PartnerProofOwner } from "../ownership";
import { type Partner, type PayoutRouting, type ShareStatus, shareStatusOf } from "../partners";
import { findPartner } from "../partners/partnerStore";
import { type PayoutWallet, walletsOf } from "./payoutWalletStore";

const FAMILIES: readonly ChainFamily[] = ["evm", "solana"];

export interface FamilyRoute {
  family: ChainFamily;
  /** `wallet`: planned to the verified wallet; `held`: stays on the ledger (routing held, or no verified wallet). */
  destination: "wallet" | "held";
  walletAddress: string | null;
}

/** The split, introductory period and current share are the partner's terms as in effect now. */
export interface RevenueProfile extends ShareStatus {
  partnerId: string;
  environment: Environment;
  organization: string | null;
  payoutWallets: PayoutWallet[];
  openChallenges: Challenge[];
  routing: { mode: PayoutRouting; payoutsEnabled: false; families: FamilyRoute[] };
}

function routesOf(mode: PayoutRouting, wallets: readonly PayoutWallet[]): FamilyRoute[] {
  return FAMILIES.map((family) => {
    const wallet = wallets.find(
      (candidate) => candidate.family === family && candidate.status === "verified",
    );
    const routed = mode === "verified_wallets" && wallet !== undefined;
    return { family, destination: routed ? "wallet" : "held", walletAddress: wallet?.address ?? null };
  });
}

function profileOf(
  partner: Partner,
  environment: Environment,
  wallets: PayoutWallet[],
  challenges: Challenge[],
  now: Date,
): RevenueProfile {
  return {
    partnerId: partner.partnerId,
    environment,
    organization: partner.organization,
    ...shareStatusOf(partner, environment, now),
    payoutWallets: wallets,
    openChallenges: challenges,
    routing: {
      mode: partner.payoutRouting,
      payoutsEnabled: false,
      families: routesOf(partner.payoutRouting, wallets),
    },
  };
}

export async function revenueProfile(
  pool: Pool,
  owner: PartnerProofOwner,
  now: Date,
): Promise<RevenueProfile> {
  const [partner, wallets, challenges] = await Promise.all([
    findPartner(pool, owner.partnerId),
    walletsOf(pool, owner),
    openChallenges(pool, owner, "payout_wallet", now),
  ]);
  if (partner === undefined) throw new ApiError("unauthorized");
  return profileOf(partner, owner.environment, wallets, challenges, now);
}
