// The partner revenue context's public face (scopes partner:revenue and partner:payout): the profile, the accrued
// ledger with totals, attributed reservations and their sync against the chain, the daily payout plans (read-only;
// the worker builds them), the soft ledger consistency check, and payout wallets proven by signed challenges.
// Every call is scoped to the caller's partner and its key's environment. docs/partners.md.
import type { Pool } from "pg";
import type { RegistryCatalogue } from "../../chains/registryClient";
import { type SignedAnswer, type WalletChallengeRequest, walletProofs } from "../ownership";
import type { ReservationOwner } from "../reservations";
import {
  type AttributedQuery,
  type AttributedReservation,
  attributedPage,
  type SyncResult,
  syncOpenReservations,
} from "./attributedReservations";
import { type PayoutPlan, type PlanQuery, payoutPlanPage } from "./payoutPlans";
import type { PayoutWallet } from "./payoutWalletStore";
import { challengeWallet, rotateWallet, verifyWallet, type WalletCaller } from "./payoutWallets";
import { type RevenueProfile, revenueProfile } from "./profile";
import {
  accruedTotals,
  type RevenueEntry,
  type RevenueQuery,
  type RevenueTotal,
  revenuePage,
} from "./revenueLedger";
import { type ReconcileReport, reconcileRevenue } from "./revenueReconcile";

export type { Challenge } from "../ownership";
export type { AttributedReservation, LedgerSummary, SyncResult } from "./attributedReservations";
export { buildPayoutPlans, lastCompleteDay, type PayoutPlan, type PlanLine } from "./payoutPlans";
export type { PayoutWallet } from "./payoutWalletStore";
export type { WalletCaller } from "./payoutWallets";
export type { FamilyRoute, RevenueProfile } from "./profile";
export type { RevenueEntry, RevenueTotal } from "./revenueLedger";
export { DISCREPANCY_KINDS, type Discrepancy, type ReconcileReport } from "./revenueReconcile";

interface Page<T> {
  rows: T[];
  nextCursor: string | null;
}

export interface RevenueService {
  profile(owner: ReservationOwner): Promise<RevenueProfile>;
  /** A page of the ledger, and the accrued totals per chain and asset. */
  revenue(
    owner: ReservationOwner,
    query: RevenueQuery,
  ): Promise<Page<RevenueEntry> & { totals: RevenueTotal[] }>;
  reservations(owner: ReservationOwner, query: AttributedQuery): Promise<Page<AttributedReservation>>;
  /** Reconciles the owner's open prepares against the chain now, then answers the first page. */
  syncReservations(
    owner: ReservationOwner,
    query: AttributedQuery,
  ): Promise<Page<AttributedReservation> & { sync: SyncResult }>;
  payoutPlans(owner: ReservationOwner, query: PlanQuery): Promise<Page<PayoutPlan>>;
  reconcile(owner: ReservationOwner): Promise<ReconcileReport>;
  challengeWallet(caller: WalletCaller, request: WalletChallengeRequest): ReturnType<typeof challengeWallet>;
  verifyWallet(caller: WalletCaller, answer: SignedAnswer): Promise<PayoutWallet>;
  rotateWallet(caller: WalletCaller, request: WalletChallengeRequest): ReturnType<typeof rotateWallet>;
}

export function revenueService(
  pool: Pool,
  registries: RegistryCatalogue | undefined,
  now: () => number,
): RevenueService {
  const clock = () => new Date(now());
  const proofs = walletProofs(registries?.production);
  return {
    profile: (owner) => revenueProfile(pool, owner, clock()),
    async revenue(owner, query) {
      const [page, totals] = await Promise.all([revenuePage(pool, owner, query), accruedTotals(pool, owner)]);
      return { ...page, totals };
    },
    reservations: (owner, query) => attributedPage(pool, owner, query),
    async syncReservations(owner, query) {
      const sync = await syncOpenReservations(pool, registries, owner, clock);
      return { ...(await attributedPage(pool, owner, query)), sync };
    },
    payoutPlans: (owner, query) => payoutPlanPage(pool, owner, query),
    reconcile: (owner) => reconcileRevenue(pool, owner),
    challengeWallet: (caller, request) => challengeWallet(pool, proofs, caller, request, clock()),
    verifyWallet: (caller, answer) => verifyWallet(pool, proofs, caller, answer, clock()),
    rotateWallet: (caller, request) => rotateWallet(pool, proofs, caller, request, clock()),
  };
}
