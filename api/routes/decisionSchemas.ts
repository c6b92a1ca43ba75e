// Request and response schemas of the decision routes (validation + OpenAPI from one declaration).
import { z } from "zod";
import { CHECK_DECISIONS, IDENTITY_STATUSES } from "../../core/status";
import { chainName, durationSecondsBody, rawName, rawTicker, text } from "../platform/openapi/fields";

const chain = chainName;
const wallet = text(128).describe(
  "Wallet address: 0x hex on EVM chains (any case), base58 on Solana (exact).",
);

export const checkQuery = z.object({
  name: rawName,
  ticker: rawTicker,
  chain: chain
    .optional()
    .describe("Omit to evaluate every chain; the most restrictive answer wins and names its chain."),
  launcher: wallet.optional(),
  tx: text(128)
    .optional()
    .describe("Reservation transaction hash (accepted for explorer links; not needed to decide)."),
});

export const checkBody = z.object({
  name: rawName,
  ticker: rawTicker,
  chain: chain.optional(),
  launcher: wallet.optional(),
  reservationTx: text(128).optional(),
});

export const checkResultSchema = z.object({
  normalizedName: z.string(),
  normalizedTicker: z.string(),
  identityKey: z.string(),
  status: z.enum(IDENTITY_STATUSES),
  decision: z.enum(CHECK_DECISIONS),
  chain: z.string(),
  authorizedLauncher: z.string().nullable(),
  protectedUntil: z.string().nullable(),
  reason: z.string(),
  launcherAuthorized: z.boolean().nullable(),
  adapter: z.enum(["index", "chain", "indexer", "mock", "unavailable"]),
  dataAsOf: z.string().nullable(),
  message: z.string(),
  available: z.boolean(),
});

export const statusQuery = z.object({ key: text(80).describe("Identity key NAME::TICKER in folded form.") });

export const statusSchema = z.object({
  identityKey: z.string(),
  normalizedName: z.string(),
  normalizedTicker: z.string(),
  environment: z.enum(["sandbox", "production"]),
  current: checkResultSchema,
  chains: z.array(checkResultSchema),
  timeline: z.array(
    z.object({
      at: z.string(),
      type: z.string(),
      chain: z.string().nullable(),
      details: z.record(z.string(), z.unknown()),
    }),
  ),
});

export const validateBody = z.object({
  chain,
  name: rawName,
  ticker: rawTicker,
  launcher: wallet,
  launchpad: text(128)
    .optional()
    .describe("Launchpad identifier; signed as launchpadId (defaults to the partner id)."),
  logoHash: text(256).optional(),
  intendedContract: text(128).optional(),
  nonce: text(255)
    .optional()
    .describe("Echoed and signed; also an idempotency key when no Idempotency-Key header is sent."),
});

export const signedDecisionSchema = z.object({
  version: z.string(),
  requestId: z.string(),
  identityKey: z.string(),
  normalizedName: z.string(),
  normalizedTicker: z.string(),
  chain: z.string(),
  launchpadId: z.string(),
  launcher: z.string(),
  decision: z.enum(["allow", "allow_authorized_only", "block", "recheck_required"]),
  reason: z.string(),
  issuedAt: z.string(),
  expiresAt: z.string(),
  nonce: z.string().optional(),
  environment: z.enum(["sandbox", "production"]),
  signature: z.string(),
  signatureAlg: z.literal("ed25519"),
  keyId: z.string(),
});

export const launchReportBody = z.object({
  chain,
  launchpad: text(128),
  name: rawName,
  ticker: rawTicker,
  launcher: wallet,
  tokenOrMint: text(128).describe("Deployed token contract (EVM) or mint (Solana)."),
});

export const launchReportSchema = z.object({
  recorded: z.literal(true),
  eventId: z.string(),
  identityKey: z.string(),
  chain: z.string(),
  launchedAt: z.string(),
});

/** Bonded and milestone events share one body: the milestone adds nothing the lock depends on. */
export const lockEventBody = z.object({
  chain,
  launchpad: text(128),
  name: rawName,
  ticker: rawTicker,
  wasReserved: z
    .boolean()
    .describe("Whether the identity was reserved before launch: decides the lock length."),
});

export const lockResultSchema = z.object({
  recorded: z.literal(true),
  identityKey: z.string(),
  chain: z.string(),
  kind: z.enum(["bonded", "milestone"]),
  wasReserved: z.boolean(),
  lockSeconds: z.number(),
  authorizedLauncher: z.string().nullable(),
  previousExpiry: z.string().nullable(),
  newExpiry: z.string(),
  extended: z.boolean(),
});

export const sandboxHoldBody = z.object({
  chain,
  name: rawName,
  ticker: rawTicker,
  launcher: wallet,
  durationSeconds: durationSecondsBody,
});

export const sandboxHoldSchema = z.object({
  reservationId: z.string(),
  status: z.literal("confirmed"),
  simulated: z.literal(true),
  identityKey: z.string(),
  normalizedName: z.string(),
  normalizedTicker: z.string(),
  chain: z.string(),
  launcher: z.string(),
  durationSeconds: z.number(),
  startsAt: z.string(),
  expiresAt: z.string(),
});
