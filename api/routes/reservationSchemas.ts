// Request and response schemas of the reservation routes (validation + OpenAPI from one declaration).
import { z } from "zod";
import { RESERVATION_ID_PATTERN, RESERVATION_STATUSES } from "../../core/reservation";
import {
  chainName,
  durationSecondsBody,
  durationSecondsQuery,
  rawName,
  rawTicker,
  text,
} from "../platform/openapi/fields";

const chain = chainName;
const reservationId = z
  .string()
  .regex(RESERVATION_ID_PATTERN, "must be a reservationId returned by prepare (res_ and 32 hex digits)");
const transactionHash = text(128).describe(
  "The transaction the wallet sent: 0x hash on EVM chains, base58 signature on Solana.",
);

export const quoteQuery = z.object({
  chain,
  durationSeconds: durationSecondsQuery,
});

const amountSchema = z
  .string()
  .regex(/^[0-9]+$/)
  .describe("Integer amount in the chain's smallest unit.");

export const quoteSchema = z.object({
  chain: z.string(),
  tier: z.object({
    durationSeconds: z.number().int(),
    usd: z.string().describe('Flat USD price, e.g. "5.00".'),
  }),
  quote: z.object({
    amount: amountSchema,
    unit: z.enum(["wei", "lamports"]),
    decimals: z.number().int().describe("Decimals of the native currency (18 for ETH, 9 for SOL)."),
    priceUsd: z.number().describe("Native-currency price the amount is computed from."),
    priceUpdatedAt: z.string(),
    expiresAt: z.string().describe("After this the feed's answer is too old for the registry; quote again."),
    simulated: z.boolean(),
  }),
  policy: z.object({
    maxActivePerWallet: z.number().int(),
    renewalWindowSeconds: z.number().int(),
    prepareTtlSeconds: z.number().int(),
  }),
});

const launcher = text(128).describe("The creator's wallet: it signs, pays and holds the reservation.");

export const prepareBody = z.object({
  chain,
  name: rawName,
  ticker: rawTicker,
  launcher,
  durationSeconds: durationSecondsBody,
  nonce: text(255).optional().describe("Idempotency key when no Idempotency-Key header is sent."),
});

export const embedPrepareBody = prepareBody.omit({ nonce: true }).extend({
  launchpad: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, "must be the launchpad identifier the operator allowlisted")
    .describe("Allowlisted launchpad identifier; fees are attributed to its partner."),
});

const evmTransaction = z.object({
  family: z.literal("evm"),
  chainId: z.number().int(),
  from: z.string(),
  to: z.string(),
  data: z.string(),
  value: amountSchema.describe("Wei to send: the quote plus 2% headroom; the registry refunds the excess."),
});
const solanaTransaction = z.object({
  family: z.literal("solana"),
  tx: z.string().describe("Base64 of the unsigned transaction; the launcher is fee payer and only signer."),
  feePayer: z.string(),
  recentBlockhash: z.string(),
  lastValidBlockHeight: z.number().int(),
});

const revenueShareSchema = z.object({
  partnerId: z.string().nullable(),
  partnerBps: z.number().int(),
  serviceBps: z.number().int(),
  standardPartnerBps: z.number().int(),
  standardServiceBps: z.number().int(),
  introductory: z.boolean(),
  introductoryEndsAt: z.string().nullable(),
  takenAt: z.string(),
});

export const reservationSchema = z.object({
  reservationId: z.string(),
  status: z.enum(RESERVATION_STATUSES),
  statusReason: z.string().nullable(),
  simulated: z.boolean(),
  kind: z.enum(["reserve", "renew"]),
  chain: z.string(),
  identityKey: z.string(),
  normalizedName: z.string(),
  normalizedTicker: z.string(),
  launcher: z.string(),
  durationSeconds: z.number().int(),
  partnerRef: z.string(),
  transactionHash: z
    .string()
    .nullable()
    .describe("The paying transaction: a new reservation's reveal, or the renewal."),
  commit: z
    .object({
      commitment: z.string().describe("bytes32 hex the commit transaction records."),
      transactionHash: z.string().nullable().describe("The commit transaction, once reported."),
      submittedAt: z.string().nullable(),
    })
    .nullable()
    .describe("A new reservation's first step (null for a renewal, which needs no commitment)."),
  preparedAt: z.string(),
  lapsesAt: z.string(),
  submittedAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  startsAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  feePaid: amountSchema.nullable(),
  feeUnit: z.enum(["wei", "lamports"]),
  launchpad: z.string().nullable(),
  settledAt: z.string().nullable().describe("Embed: when the launchpad settled the confirmed reservation."),
  revenueShare: revenueShareSchema,
});

const preparedTransaction = z.discriminatedUnion("family", [evmTransaction, solanaTransaction]);

const commitmentAge = z
  .union([
    z.object({ seconds: z.number().int().describe("EVM: seconds after the commit's block.") }),
    z.object({ slots: z.number().int().describe("Solana: slots after the commit's slot.") }),
  ])
  .describe("How long the commitment rests on-chain before the registry accepts the reveal.");

export const prepareSchema = reservationSchema.extend({
  transaction: preparedTransaction
    .nullable()
    .describe(
      "The first transaction to sign and send: a new reservation's commitment (it names no pair), or the renewal. Null only for a sandbox prepare on a chain without a sandbox registry: the sandbox never returns a transaction a production registry accepts.",
    ),
  reveal: z
    .object({
      transaction: preparedTransaction.describe(
        "The paying reservation, to send once the commitment has rested `minCommitmentAge`; it carries the secret the commitment hid.",
      ),
      commitment: z.string(),
      minCommitmentAge: commitmentAge,
      maxCommitmentAgeSeconds: z
        .number()
        .int()
        .describe("A commitment older than this no longer reveals: prepare again."),
    })
    .nullable()
    .describe("A new reservation's second step; null for a renewal (one transaction)."),
  message: z.string().optional().describe("Why `transaction` is null, when it is."),
  quote: quoteSchema.shape.quote,
});

export const submittedSchema = reservationSchema.extend({
  step: z
    .enum(["commit", "reveal", "renew"])
    .describe(
      "Which of the reservation's transactions the reported hash was taken for: a commit keeps it pending_payment.",
    ),
  commitOnChain: z
    .object({
      committedAt: z.string(),
      revealableAt: z.string().describe("EVM: the first block time the reveal is accepted."),
      revealableSlot: z
        .number()
        .int()
        .nullable()
        .describe("Solana: the first slot the reveal is accepted in."),
    })
    .nullable()
    .optional()
    .describe(
      "After a commit report: the commitment as the registry holds it; null while it has not landed.",
    ),
});

export const statusQuery = z.object({ reservationId });
export const statusBody = z.object({ reservationId, transactionHash });
export const sandboxConfirmBody = z.object({ reservationId });
export const embedSettleBody = z.object({ reservationId, transactionHash });
