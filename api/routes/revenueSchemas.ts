import { z } from "zod";
import { reservationView } from "../../services/reservations";
import {
  type AttributedReservation,
  DISCREPANCY_KINDS,
  type PayoutPlan,
  type PayoutWallet,
  type RevenueEntry,
  type RevenueProfile,
  type RevenueTotal,
} from "../../services/revenue";
import { reservationSchema } from "./reservationSchemas";
import { shareStatusJson, shareStatusSchema } from "./shareStatusSchema";
import { challengeJson, challengeSchema } from "./walletProofSchemas";

const PAGE_SIZE_MAX = 50;
const PAGE_SIZE_DEFAULT = 20;
const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export const PARTNER_ERRORS = ["unauthorized", "key_revoked", "scope_missing", "rate_limited"] as const;

export const PAYOUTS_GATED =
  "Payouts are gated off: revenue accrues on the ledger and daily payout plans are built from it, but nothing is paid out yet.";

const page = {
  cursor: z.string().max(128).optional().describe("The nextCursor of the previous page."),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
};

export const revenueQuery = z.object({
  status: z
    .enum(["accrued", "draft", "void"])
    .default("accrued")
    .describe(
      "accrued (default): confirmed on-chain; draft: prepared, not confirmed; void: failed or lapsed.",
    ),
  chain: z.string().max(64).optional().describe("Only this chain's entries."),
  ...page,
});

export const reservationsQuery = z.object({
  status: z.enum(["pending_payment", "submitted", "confirmed", "failed", "expired"]).optional(),
  ...page,
});

export const plansQuery = z.object({ status: z.enum(["planned", "queued", "paid"]).optional(), ...page });

const amountsOfUnit = {
  chain: z.string(),
  unit: z.enum(["wei", "lamports"]).describe("The chain's smallest unit: the asset of the amounts."),
};

export const walletSchema = z.object({
  walletId: z.string(),
  chain: z.string().describe("The chain the ownership proof was checked on."),
  family: z.enum(["evm", "solana"]),
  address: z.string(),
  proof: z.enum(["eoa", "erc1271", "ed25519"]),
  status: z.enum(["verified", "archived"]),
  verifiedAt: z.string(),
  archivedAt: z.string().nullable(),
});

export function walletJson(wallet: PayoutWallet) {
  return {
    walletId: wallet.walletId,
    chain: wallet.chain,
    family: wallet.family,
    address: wallet.address,
    proof: wallet.proof,
    status: wallet.status,
    verifiedAt: wallet.verifiedAt.toISOString(),
    archivedAt: iso(wallet.archivedAt),
  };
}

export const profileSchema = z.object({
  partnerId: z.string(),
  environment: z.enum(["sandbox", "production"]),
  organization: z.string().nullable(),
  ...shareStatusSchema.shape,
  payoutWallets: z.array(walletSchema),
  openChallenges: z.array(challengeSchema.omit({ message: true, nonce: true })),
  routing: z.object({
    mode: z.enum(["held", "verified_wallets"]),
    payoutsEnabled: z.literal(false),
    message: z.string(),
    families: z.array(
      z.object({
        family: z.enum(["evm", "solana"]),
        destination: z.enum(["wallet", "held"]),
        walletAddress: z.string().nullable(),
      }),
    ),
  }),
});

export function profileJson(profile: RevenueProfile) {
  return {
    ...profile,
    ...shareStatusJson(profile),
    payoutWallets: profile.payoutWallets.map(walletJson),
    openChallenges: profile.openChallenges.map((challenge) => {
      const { message: _message, nonce: _nonce, ...rest } = challengeJson(challenge);
      return rest;
    }),
    routing: { ...profile.routing, message: PAYOUTS_GATED },
  };
}

const entrySchema = z.object({
  reservationId: z.string(),
  status: z.enum(["draft", "accrued", "void"]),
  ...amountsOfUnit,
  launchpad: z.string().nullable(),
  feeAmount: z.string().describe("Accrued: the fee the chain charged; draft: the quote."),
  partnerAmount: z.string(),
  serviceAmount: z.string(),
  usdMicros: z.string(),
  partnerUsdMicros: z.string(),
  partnerBps: z.number(),
  serviceBps: z.number(),
  introductory: z.boolean(),
  payoutPlanId: z.string().nullable(),
  createdAt: z.string(),
  accruedAt: z.string().nullable(),
  voidedAt: z.string().nullable(),
});

export function entryJson(entry: RevenueEntry) {
  return {
    ...entry,
    createdAt: entry.createdAt.toISOString(),
    accruedAt: iso(entry.accruedAt),
    voidedAt: iso(entry.voidedAt),
  };
}

const totalSchema = z.object({
  ...amountsOfUnit,
  entries: z.number(),
  feeAmount: z.string(),
  partnerAmount: z.string(),
  serviceAmount: z.string(),
  partnerUsdMicros: z.string(),
  plannedPartnerAmount: z.string(),
  unplannedPartnerAmount: z.string(),
});

export const revenueSchema = z.object({
  rows: z.array(entrySchema),
  nextCursor: z.string().nullable(),
  totals: z.array(totalSchema).describe("Accrued entries only, per chain and asset, whatever the page."),
  payouts: z.object({ enabled: z.literal(false), message: z.string() }),
});

export function revenueJson(page: {
  rows: RevenueEntry[];
  nextCursor: string | null;
  totals: RevenueTotal[];
}) {
  return {
    rows: page.rows.map(entryJson),
    nextCursor: page.nextCursor,
    totals: page.totals,
    payouts: { enabled: false as const, message: PAYOUTS_GATED },
  };
}

const attributedSchema = reservationSchema.extend({
  ledger: z
    .object({
      status: z.enum(["draft", "accrued", "void"]),
      feeAmount: z.string(),
      partnerAmount: z.string(),
      partnerBps: z.number(),
      introductory: z.boolean(),
    })
    .nullable()
    .describe(
      "The reservation's ledger entry; null when it has none (see GET /v1/partner/revenue/reconcile).",
    ),
});

export function attributedJson({ reservation, ledger }: AttributedReservation) {
  return { ...reservationView(reservation), ledger };
}

export const reservationsSchema = z.object({
  rows: z.array(attributedSchema),
  nextCursor: z.string().nullable(),
});

export const syncSchema = reservationsSchema.extend({
  sync: z.object({
    checked: z.number().describe("Open prepares reconciled against the chain (the 50 newest at most)."),
    changed: z.record(z.string(), z.number()).describe("How many moved, by their new status."),
  }),
});

const planSchema = z.object({
  planId: z.string(),
  planDate: z.string().describe("The UTC day whose end the plan covers (YYYY-MM-DD)."),
  status: z.enum(["planned", "queued", "paid"]),
  createdAt: z.string(),
  queuedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  lines: z.array(
    z.object({
      ...amountsOfUnit,
      entries: z.number(),
      partnerAmount: z.string(),
      partnerUsdMicros: z.string(),
      walletAddress: z.string().nullable().describe("Null: held on the ledger."),
    }),
  ),
});

export function planJson(plan: PayoutPlan) {
  return {
    ...plan,
    createdAt: plan.createdAt.toISOString(),
    queuedAt: iso(plan.queuedAt),
    paidAt: iso(plan.paidAt),
  };
}

export const plansSchema = z.object({
  rows: z.array(planSchema),
  nextCursor: z.string().nullable(),
  payouts: z.object({ enabled: z.literal(false), message: z.string() }),
});

export const reconcileSchema = z.object({
  confirmedReservations: z.number(),
  accruedEntries: z.number(),
  consistent: z.boolean(),
  truncated: z.boolean(),
  discrepancies: z.array(
    z.object({
      kind: z.enum(DISCREPANCY_KINDS),
      reservationId: z.string(),
      chain: z.string(),
      reservationStatus: z.string(),
      feePaid: z.string().nullable(),
      ledgerStatus: z.string().nullable(),
      ledgerFeeAmount: z.string().nullable(),
      ledgerPartnerAmount: z.string().nullable(),
      ledgerPartnerBps: z.number().nullable(),
      snapshotPartnerBps: z.number(),
    }),
  ),
});
