// Partner revenue (scope partner:revenue) and payout wallets (scope partner:payout). Each answer is the calling
// partner's, in its key's environment only; handlers call the revenue service (services/revenue) once.
import { z } from "zod";
import type { Platform } from "../platform/platform";
import {
  attributedJson,
  PARTNER_ERRORS,
  PAYOUTS_GATED,
  planJson,
  plansQuery,
  plansSchema,
  profileJson,
  profileSchema,
  reconcileSchema,
  reservationsQuery,
  reservationsSchema,
  revenueJson,
  revenueQuery,
  revenueSchema,
  syncSchema,
  walletJson,
  walletSchema,
} from "./revenueSchemas";
import {
  challengeJson,
  challengeSchema,
  issueChallenge,
  PROOF_ERRORS,
  signedAnswer,
  walletChallengeOf,
  walletRequest,
} from "./walletProofSchemas";

const TAG = "Partner revenue";
const REVENUE = { scope: "partner:revenue" } as const;
const PAYOUT = { scope: "partner:payout" } as const;

export function registerRevenueRoutes({ routes, services }: Platform): void {
  const revenue = services.revenue;

  routes.route(
    {
      method: "get",
      path: "/v1/partner/profile",
      summary:
        "Your split (bps), introductory period, payout wallets with their verification state, and routing.",
      tag: TAG,
      access: REVENUE,
      responses: { 200: { description: "The profile in this key's environment.", schema: profileSchema } },
      errors: PARTNER_ERRORS,
    },
    async ({ partner }) => {
      return { status: 200, body: profileJson(await revenue.profile(partner)) };
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/partner/revenue",
      summary:
        "Your ledger (accrued entries by default, newest first, cursor paging) with accrued totals per chain and asset; payouts are gated off.",
      tag: TAG,
      access: REVENUE,
      query: revenueQuery,
      responses: {
        200: { description: "One page, the totals and the payout state.", schema: revenueSchema },
      },
      errors: PARTNER_ERRORS,
    },
    async ({ query, partner }) => {
      return { status: 200, body: revenueJson(await revenue.revenue(partner, query)) };
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/partner/revenue/reconcile",
      summary:
        "Soft consistency check: each confirmed attributed reservation has one accrued entry at the fee the chain charged; lists discrepancies.",
      tag: TAG,
      access: REVENUE,
      responses: {
        200: { description: "Counts and discrepancies (changes nothing).", schema: reconcileSchema },
      },
      errors: PARTNER_ERRORS,
    },
    async ({ partner }) => {
      return { status: 200, body: await revenue.reconcile(partner) };
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/partner/reservations",
      summary: "Reservations attributed to you, newest first, with their ledger entry (cursor paging).",
      tag: TAG,
      access: REVENUE,
      query: reservationsQuery,
      responses: { 200: { description: "One page of reservations.", schema: reservationsSchema } },
      errors: PARTNER_ERRORS,
    },
    async ({ query, partner }) => {
      const page = await revenue.reservations(partner, query);
      return { status: 200, body: { rows: page.rows.map(attributedJson), nextCursor: page.nextCursor } };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/partner/reservations/sync",
      summary:
        "Reconcile your open prepares (pending payment or submitted) against the chain now, then list your reservations.",
      tag: TAG,
      access: REVENUE,
      query: reservationsQuery,
      responses: { 200: { description: "What the sync changed and the first page.", schema: syncSchema } },
      errors: [...PARTNER_ERRORS, "service_unavailable"],
    },
    async ({ query, partner }) => {
      const page = await revenue.syncReservations(partner, query);
      return {
        status: 200,
        body: { rows: page.rows.map(attributedJson), nextCursor: page.nextCursor, sync: page.sync },
      };
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/partner/payout-batches",
      summary:
        "Daily payout plans built from your accrued ledger (one per UTC day; planned, queued, paid), newest first. Read-only.",
      tag: TAG,
      access: REVENUE,
      query: plansQuery,
      responses: { 200: { description: "One page of plans.", schema: plansSchema } },
      errors: PARTNER_ERRORS,
    },
    async ({ query, partner }) => {
      const page = await revenue.payoutPlans(partner, query);
      return {
        status: 200,
        body: {
          rows: page.rows.map(planJson),
          nextCursor: page.nextCursor,
          payouts: { enabled: false, message: PAYOUTS_GATED },
        },
      };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/partner/payout-wallets/verify/challenge",
      summary:
        "Start an ownership challenge for a payout wallet: a sign-in message (EVM: EIP-4361; Solana: Sign-In-With-Solana) with a single-use nonce.",
      tag: TAG,
      access: PAYOUT,
      body: walletRequest,
      responses: { 201: { description: "The challenge; sign its message.", schema: challengeSchema } },
      errors: [
        ...PARTNER_ERRORS,
        "wallet_family_mismatch",
        "payout_wallet_already_verified",
        "service_unavailable",
      ],
    },
    (input) => issueChallenge(input, (wallet) => revenue.challengeWallet(input.partner, wallet)),
  );

  routes.route(
    {
      method: "post",
      path: "/v1/partner/payout-wallets/verify",
      summary:
        "Complete a challenge: checks signature, nonce, expiry and domain, and marks the wallet verified.",
      tag: TAG,
      access: PAYOUT,
      body: signedAnswer,
      responses: { 200: { description: "The verified wallet.", schema: z.object({ wallet: walletSchema }) } },
      errors: [...PARTNER_ERRORS, ...PROOF_ERRORS, "payout_wallet_already_verified", "service_unavailable"],
    },
    async ({ body, partner }) => {
      const wallet = await revenue.verifyWallet(partner, body);
      return { status: 200, body: { wallet: walletJson(wallet) } };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/partner/payout-wallets/rotate",
      summary:
        "Archive the verified wallet of the chain's family and challenge a new address (verify it to route payouts again).",
      tag: TAG,
      access: PAYOUT,
      body: walletRequest,
      responses: {
        201: {
          description: "The archived wallet and the new challenge.",
          schema: z.object({ archived: walletSchema, challenge: challengeSchema }),
        },
      },
      errors: [
        ...PARTNER_ERRORS,
        "wallet_family_mismatch",
        "payout_wallet_not_verified",
        "service_unavailable",
      ],
    },
    async (input) => {
      const { archived, challenge } = await revenue.rotateWallet(input.partner, walletChallengeOf(input));
      return { status: 201, body: { archived: walletJson(archived), challenge: challengeJson(challenge) } };
    },
  );
}
