// Public Solana helpers for wallets that build the reservation transactions themselves (a launchpad's page, a
// script): the price in lamports and SOL, every account and argument of the commit, reserve (or renew)
// instructions, a recent blockhash, and a signature's status. They read the host environment's registry through the
// registry catalogue (on the sandbox host the sandbox's own deployment) and hold nothing; docs/chains.md documents them.
import { PublicKey } from "@solana/web3.js";
import { formatUnits } from "viem";
import { z } from "zod";
import { publicKeyOrNull } from "../../chains/solana/addresses";
import { isSignature } from "../../chains/solana/outcome";
import { priceUsdOf } from "../../chains/solana/price";
import { REGISTRY_COMPUTE_UNIT_LIMIT } from "../../chains/solana/transaction";
import { ApiError } from "../../core/errors/catalogue";
import {
  MAX_ACTIVE_PER_WALLET,
  MAX_COMMITMENT_AGE_SECONDS,
  RESERVATION_DURATIONS,
} from "../../core/reservation";
import { normalizedOrReject } from "../../services/identity";
import { durationSecondsQuery, rawName, rawTicker } from "../platform/openapi/fields";
import type { Platform } from "../platform/platform";

const TAG = "Solana helpers";
const LAMPORTS_DECIMALS = 9;
const USD_MICROS_DECIMALS = 6;

const chain = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .describe(
    "Solana chain name as listed by GET /v1/chains; may be omitted when the service serves one Solana chain.",
  );
const base58Key = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, "must be a base58 Solana public key")
  .describe("The creator's wallet (base58): it signs, pays the fee and holds the reservation.");

const quoteQuery = z.object({ durationSeconds: durationSecondsQuery, chain });
const contextQuery = z.object({
  name: rawName,
  ticker: rawTicker,
  launcher: base58Key,
  chain,
});
const chainQuery = z.object({ chain });
const statusQuery = z.object({
  signature: z
    .string()
    .min(64)
    .max(100)
    .refine(isSignature, "must be a base58 transaction signature (64 bytes)")
    .describe("The transaction signature the wallet's send returned."),
  chain,
});

const lamports = z
  .string()
  .regex(/^[0-9]+$/)
  .describe("Integer lamports.");
const usd = z.string().describe('USD, at least two decimals, e.g. "5.00".');
const instant = z.string().describe("ISO 8601 date-time.");

const quoteSchema = z.object({
  chain: z.string(),
  durationSeconds: z.number().int(),
  usd,
  lamports,
  sol: z.string().describe('The same amount in SOL, e.g. "0.033333334".'),
  priceUsd: z.number().describe("USD per SOL the amount is computed from (the registry's price account)."),
  priceUpdatedAt: instant,
  expiresAt: instant.describe("After this the price is too old for the program; quote again."),
});

const contextSchema = z.object({
  chain: z.string(),
  programId: z.string(),
  chainTime: instant.describe("The chain's clock (Clock sysvar) this answer was computed against."),
  identity: z.object({
    normalizedName: z.string(),
    normalizedTicker: z.string(),
    identityKey: z.string(),
    nameHash: z.string(),
    tickerHash: z.string(),
  }),
  instruction: z
    .enum(["reserve", "renew"])
    .describe(
      "renew when the launcher holds the pair and its window is open; reserve otherwise, which takes two transactions: commit, then reserve once the commitment has rested `commitment.minCommitmentSlots`.",
    ),
  args: z.object({
    commit: z.object({
      commitment: z
        .string()
        .describe(
          "keccak256(nameHash || tickerHash || launcher || durationSeconds as u64 little-endian || partnerRef || secret), 32 bytes.",
        ),
    }),
    reserve: z.object({
      name: z.string(),
      ticker: z.string(),
      durationSeconds: z.array(z.number().int()),
      partnerRef: z.string().describe("32 bytes; all zeros when no partner is attributed."),
      secret: z
        .string()
        .describe("32 random bytes the wallet draws for the commitment and discloses only in reserve."),
    }),
    renew: z.object({ durationSeconds: z.array(z.number().int()) }),
  }),
  accounts: z
    .object({
      launcher: z.string(),
      config: z.string(),
      priceUpdate: z.string(),
      reservation: z.string(),
      wallet: z.string(),
      treasury: z.string(),
      systemProgram: z.string(),
    })
    .describe(
      "Every account of renew, and of reserve but its last (`commitment`, derived from the commitment: see `commitment.seeds`).",
    ),
  commitment: z.object({
    seeds: z
      .array(z.string())
      .describe('The commitment account\'s PDA seeds: "commitment", the launcher, the 32-byte commitment.'),
    minCommitmentSlots: z.number().int(),
    maxCommitmentAgeSeconds: z.number().int(),
  }),
  computeUnitLimit: z.number().int(),
  tiers: z.array(z.object({ durationSeconds: z.number().int(), usd, lamports: lamports.nullable() })),
  price: z.object({
    usable: z.boolean(),
    priceUsd: z.number().nullable(),
    publishedAt: instant.nullable(),
    expiresAt: instant.nullable(),
    problem: z
      .enum(["PriceAccountMismatch", "InvalidPrice", "PriceConfidenceTooWide", "StalePrice"])
      .nullable(),
    message: z.string().nullable(),
  }),
  reservation: z
    .object({
      holder: z.string(),
      expiresAt: instant,
      active: z.boolean(),
      renewalOpensAt: instant,
      partnerRef: z.string(),
    })
    .nullable(),
  renewal: z.object({ applies: z.boolean(), opensAt: instant.nullable() }),
  wallet: z.object({ activeReservations: z.number().int(), maxActivePerWallet: z.number().int() }),
});

const blockhashSchema = z.object({
  chain: z.string(),
  blockhash: z.string(),
  lastValidBlockHeight: z.number().int(),
  commitment: z.literal("confirmed"),
});

const statusSchema = z.object({
  chain: z.string(),
  signature: z.string(),
  state: z.enum(["succeeded", "failed", "pending", "not_found"]),
  slot: z.number().int().nullable(),
  error: z.string().nullable().describe("Why it failed, with the program's error name when it raised one."),
});

/** USD with 6 decimals as text with at least two decimals. */
function usdText(usdMicros: bigint): string {
  const [whole, fraction = ""] = formatUnits(usdMicros, USD_MICROS_DECIMALS).split(".");
  return `${whole}.${fraction.padEnd(2, "0")}`;
}

/** A wallet signs with an Ed25519 key; an address off the curve (a PDA) can never sign a reservation. */
function walletKey(launcher: string): PublicKey {
  const key = publicKeyOrNull(launcher);
  if (key === null) {
    throw new ApiError("invalid_request", "launcher must be a base58 Solana public key (32 bytes).", {
      field: "launcher",
    });
  }
  if (!PublicKey.isOnCurve(key.toBytes())) {
    throw new ApiError(
      "invalid_request",
      "launcher is a program-derived address, which cannot sign; pass the creator's wallet address.",
      { field: "launcher" },
    );
  }
  return key;
}

export function registerSolanaHelperRoutes({ routes, services }: Platform): void {
  const { reservations } = services;
  routes.route(
    {
      method: "get",
      path: "/v1/solana/quote",
      summary:
        "The reservation price of a tier in lamports and SOL, from the program's own config and price account.",
      tag: TAG,
      access: "keyless",
      query: quoteQuery,
      responses: { 200: { description: "The quote.", schema: quoteSchema } },
      errors: ["price_unavailable", "service_unavailable", "sandbox_deployment_missing"],
    },
    async ({ query, environment }) => {
      const quote = await reservations.solanaQuote(environment, query.chain, query.durationSeconds);
      return {
        status: 200,
        body: {
          chain: quote.chain,
          durationSeconds: quote.durationSeconds,
          usd: usdText(quote.usdMicros),
          lamports: quote.amount.toString(),
          sol: formatUnits(quote.amount, LAMPORTS_DECIMALS),
          priceUsd: quote.priceUsd,
          priceUpdatedAt: quote.priceUpdatedAt.toISOString(),
          expiresAt: quote.expiresAt.toISOString(),
        },
      };
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/solana/reserve-context",
      summary:
        "Everything a wallet needs to build commit and reserve (or renew) itself: program id, every account (PDAs), the folded arguments, the commitment rules, tier prices, whether renewal applies.",
      tag: TAG,
      access: "keyless",
      query: contextQuery,
      responses: { 200: { description: "The reserve context.", schema: contextSchema } },
      errors: ["service_unavailable", "sandbox_deployment_missing"],
    },
    async ({ query, environment }) => {
      const identity = normalizedOrReject(query.name, query.ticker);
      const launcher = walletKey(query.launcher);
      const { chain, context } = await reservations.solanaReserveContext(
        environment,
        query.chain,
        identity,
        launcher,
      );
      const { price, reservation } = context;
      const addresses = Object.fromEntries(
        Object.entries(context.accounts).map(([name, key]) => [name, key.toBase58()]),
      );
      return {
        status: 200,
        body: {
          chain,
          programId: context.programId.toBase58(),
          chainTime: context.chainTime.toISOString(),
          identity: {
            normalizedName: identity.normalizedName,
            normalizedTicker: identity.normalizedTicker,
            identityKey: identity.identityKey,
            nameHash: identity.nameHash,
            tickerHash: identity.tickerHash,
          },
          instruction: context.instruction,
          args: {
            commit: { commitment: "keccak256 of the reserve arguments and secret (see the schema)" },
            reserve: {
              name: identity.normalizedName,
              ticker: identity.normalizedTicker,
              durationSeconds: [...RESERVATION_DURATIONS],
              partnerRef: `0x${"00".repeat(32)}`,
              secret: "32 random bytes of the wallet's own",
            },
            renew: { durationSeconds: [...RESERVATION_DURATIONS] },
          },
          accounts: addresses,
          commitment: {
            seeds: ["commitment", launcher.toBase58(), "<commitment>"],
            minCommitmentSlots: context.minCommitmentSlots,
            maxCommitmentAgeSeconds: MAX_COMMITMENT_AGE_SECONDS,
          },
          computeUnitLimit: REGISTRY_COMPUTE_UNIT_LIMIT,
          tiers: context.tiers.map((tier) => ({
            durationSeconds: tier.durationSeconds,
            usd: usdText(tier.usdMicros),
            lamports: tier.lamports?.toString() ?? null,
          })),
          price: price.ok
            ? {
                usable: true,
                priceUsd: priceUsdOf(price.price, price.exponent),
                publishedAt: new Date(Number(price.publishTime) * 1000).toISOString(),
                expiresAt: new Date(Number(price.expiresAt) * 1000).toISOString(),
                problem: null,
                message: null,
              }
            : {
                usable: false,
                priceUsd: null,
                publishedAt: null,
                expiresAt: null,
                problem: price.error,
                message: price.detail,
              },
          reservation: reservation && {
            holder: reservation.launcher.toBase58(),
            expiresAt: new Date(Number(reservation.expiresAt) * 1000).toISOString(),
            active: reservation.active,
            renewalOpensAt: reservation.renewalOpensAt.toISOString(),
            partnerRef: reservation.partnerRef,
          },
          renewal: {
            applies: context.instruction === "renew",
            opensAt:
              reservation?.active && reservation.launcher.equals(launcher)
                ? reservation.renewalOpensAt.toISOString()
                : null,
          },
          wallet: {
            activeReservations: context.activeReservations,
            maxActivePerWallet: MAX_ACTIVE_PER_WALLET,
          },
        },
      };
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/solana/blockhash",
      summary:
        "A recent blockhash (confirmed) and the last block height at which a transaction using it can land.",
      tag: TAG,
      access: "keyless",
      query: chainQuery,
      responses: { 200: { description: "The blockhash.", schema: blockhashSchema } },
      errors: ["service_unavailable", "sandbox_deployment_missing"],
    },
    async ({ query, environment }) => {
      const { chain, blockhash } = await reservations.solanaBlockhash(environment, query.chain);
      return { status: 200, body: { chain, ...blockhash, commitment: "confirmed" } };
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/solana/tx-status",
      summary:
        "A transaction's status: succeeded or failed once confirmed, pending while only processed, not_found when no node knows it.",
      tag: TAG,
      access: "keyless",
      query: statusQuery,
      responses: { 200: { description: "The transaction's status.", schema: statusSchema } },
      errors: ["service_unavailable", "sandbox_deployment_missing"],
    },
    async ({ query, environment }) => {
      const { chain, outcome } = await reservations.solanaTransaction(
        environment,
        query.chain,
        query.signature,
      );
      return {
        status: 200,
        body: {
          chain,
          signature: query.signature,
          state: outcome.state,
          slot: outcome.state === "succeeded" || outcome.state === "failed" ? outcome.blockNumber : null,
          error: outcome.state === "failed" ? outcome.error : null,
        },
      };
    },
  );
}
