// The partner's revenue profile in one environment: its split in basis points (from its partner row), the
// introductory period and its end, the share a prepare would snapshot now, its payout wallets with their
// verification state and open challenges, and where each chain family's revenue is routed.
import type { Pool } from "pg";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import { INTRODUCTORY_PERIOD_DAYS, revenueShareSnapshot } from "../../core/reservation";
import type { ChainFamily } from "../../core/status";
import { type Challenge, openChallenges, type PartnerProofOwner } from "../ownership";
import type { Partner, PayoutRouting } from "../partners";
import { findPartner, shareTermsOf } from "../partners/partnerStore";
import { type PayoutWallet, walletsOf } from "./payoutWalletStore";

const FAMILIES: readonly ChainFamily[] = ["evm", "solana"];

export interface FamilyRoute {
  family: ChainFamily;
  /** `wallet`: planned to the verified wallet; `held`: stays on the ledger (routing held, or no verified wallet). */
  destination: "wallet" | "held";
  walletAddress: string | null;
}

export interface RevenueProfile {
  partnerId: string;
  environment: Environment;
  organization: string | null;
  split: { partnerBps: number; serviceBps: number };
  introductoryPeriod: { days: number; startedAt: Date | null; endsAt: Date | null; active: boolean };
  currentShare: { partnerBps: number; serviceBps: number };
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
  const integration = partner.integration[environment];
  const share = revenueShareSnapshot(partner.partnerId, shareTermsOf(partner, environment), now);
  return {
    partnerId: partner.partnerId,
    environment,
    organization: partner.organization,
    split: { partnerBps: partner.partnerBps, serviceBps: partner.serviceBps },
    introductoryPeriod: {
      days: INTRODUCTORY_PERIOD_DAYS,
      startedAt: integration?.startedAt ?? null,
      endsAt: integration?.introductoryEndsAt ?? null,
      active: share.introductory,
    },
    currentShare: { partnerBps: share.partnerBps, serviceBps: share.serviceBps },
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
