// Request and response schemas of the decision routes (validation + OpenAPI from one declaration).
import { z } from "zod";
import { CHECK_DECISIONS, IDENTITY_STATUSES } from "../../core/status";
import { RESERVATION_TX_OUTCOMES } from "../../services/mirror";
import { chainName, durationSecondsBody, rawName, rawTicker, text } from "../platform/openapi/fields";

const chain = chainName;
const wallet = text(128).describe(
  "Wallet address: 0x hex on EVM chains (any case), base58 on Solana (exact).",
);

/** The spec's `tx` / `reservationTx`: a reservation transaction to index at once (services/mirror/reservationTransaction). */
function reservationTransaction(field: "tx" | "reservationTx") {
  return text(128)
    .optional()
    .describe(
      `Optional reservation transaction hash (EVM: 0x + 64 hex; Solana: base58 signature); needs \`chain\`. When it is a final reservation or renewal of this identity on that chain, the hold is mirrored at once and this answer reflects it; anything else changes nothing. The answer's \`reservationTx\` says which. A check carrying ${field} is also counted in the keyless-write window of the client address (10 per minute).`,
    );
}

export const checkQuery = z.object({
  name: rawName,
  ticker: rawTicker,
  chain: chain
    .optional()
    .describe("Omit to evaluate every chain; the most restrictive answer wins and names its chain."),
  launcher: wallet.optional(),
  tx: reservationTransaction("tx"),
});

export const checkBody = z.object({
  name: rawName,
  ticker: rawTicker,
  chain: chain.optional(),
  launcher: wallet.optional(),
  reservationTx: reservationTransaction("reservationTx"),
});

const lookalikeSchema = z.object({
  identityKey: z.string().describe("The identity the asked name looks like."),
  status: z.enum(["reserved", "protected"]).describe("reserved: a live hold; protected: a live lock."),
  chain: z.string(),
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
  lookalikeOf: lookalikeSchema
    .optional()
    .describe(
      "Present when the name looks like another identity that is reserved or protected (on the chain asked, else any chain); `message` then ends with a warning. Advisory: the status and decision are unchanged (docs/lookalikes.md).",
    ),
  reservationTx: z
    .object({
      hash: z.string().describe("The transaction as sent."),
      chain: z.string(),
      outcome: z
        .enum(RESERVATION_TX_OUTCOMES)
        .describe(
          "indexed: a final reservation or renewal of this identity, now in the mirror (this answer reads it). Everything else changed nothing: pending, not_final (mined, not final yet), not_found, failed, not_a_reservation (no registry reservation event, e.g. the commit step), other_identity, superseded (the registry's record moved on since), renewal_base_missing (EVM: pass the reservation's own transaction), chain_unavailable (the chain could not be asked in time; the answer is the mirror's alone), mirror_unavailable, sandbox_not_indexed (the sandbox host never looks a transaction up).",
        ),
      indexed: z.boolean().describe("Whether the mirror holds the state this transaction produced."),
      message: z.string().describe("What the outcome means and what to do."),
      explorer: z
        .object({
          transaction: z.string().describe("The transaction's page on the chain's explorer."),
          reservation: z
            .string()
            .describe(
              "Where the reservation lives: Solana the pair's reservation account, EVM the registry contract.",
            ),
        })
        .nullable()
        .describe(
          "Null on chains without explorer templates in the deployment manifest (local chains) and on the sandbox host.",
        ),
    })
    .optional()
    .describe(
      "Present only when the request carried `tx` (GET) or `reservationTx` (POST): what became of it.",
    ),
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
    .describe(
      "Launchpad id, signed as launchpadId (defaults to the partner id). Must be bound to your partner account (403 otherwise); in the sandbox an unbound id is claimed by its first user.",
    ),
  logoHash: text(256).optional(),
  intendedContract: text(128).optional(),
  nonce: text(255)
    .optional()
    .describe("Echoed and signed; also an idempotency key when no Idempotency-Key header is sent."),
  onchain: z
    .object({
      launchpad: text(64).describe(
        "EVM: the factory inheriting IdentityGuard (0x address). Solana: the launch program id (base58). Must be bound to the decision's launchpad id (403 otherwise; in the sandbox an unbound one is claimed).",
      ),
      token: text(64).describe(
        "EVM: the token's address as the factory predicts it (CREATE2). Solana: the mint's public key.",
      ),
    })
    .strict()
    .optional()
    .describe(
      "Ask for the decision signed for an on-chain guard too (docs/onchain-guard.md): answered as `onchain` beside the Ed25519 decision, which is unchanged.",
    ),
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

export const validationAnswerSchema = signedDecisionSchema.extend({
  advisories: z
    .array(
      lookalikeSchema.extend({
        kind: z.literal("lookalike"),
        message: z.string(),
      }),
    )
    .describe(
      "UNSIGNED advisories beside the signed decision (not among the signed fields): `lookalike` when the name looks like another identity that is reserved or protected. A launchpad may warn or require review; the signed decision is unchanged. Empty when none.",
    ),
  onchain: z
    .discriminatedUnion("kind", [
      z.object({
        kind: z.literal("evm"),
        chainId: z.number().int(),
        registry: z.string(),
        factory: z.string(),
        nameHash: z.string(),
        tickerHash: z.string(),
        launcher: z.string(),
        token: z.string(),
        decision: z.enum(["allow", "block"]),
        expiresAt: z.number().int().describe("Unix seconds: the launch must be mined before it."),
        nonce: z.string().describe("32 bytes, 0x hex."),
        keyId: z.string(),
        signer: z.string().describe("The key's EVM address (GET /v1/keys evmAddress)."),
        signature: z.string().describe("EIP-712 LaunchDecision signature: 65 bytes r, s, v as 0x hex."),
      }),
      z.object({
        kind: z.literal("solana"),
        cluster: z.string().describe("The cluster's genesis hash (base58)."),
        registryProgram: z.string(),
        launchpadProgram: z.string(),
        nameHash: z.string(),
        tickerHash: z.string(),
        launcher: z.string(),
        mint: z.string(),
        decision: z.enum(["allow", "block"]),
        expiresAt: z.number().int().describe("Unix seconds: the launch must land before it."),
        nonce: z.string().describe("16 bytes, 0x hex."),
        message: z.string().describe("The 265-byte decision message, base64."),
        keyId: z.string(),
        signer: z.string().describe("The key's Ed25519 public key (base58)."),
        signature: z.string().describe("Ed25519 signature of `message`, base64."),
      }),
    ])
    .optional()
    .describe(
      "Present when the request sent `onchain`: the same decision signed for the chain's guard (`allow` only for an allow; anything else is signed as `block`).",
    ),
});

/** A report's launchpad id: the reporter's own (see validateBody's `launchpad`). */
const reportLaunchpad = text(128).describe(
  "Your launchpad id (or your partner id): bound to your partner account by an operator; in the sandbox an unbound id is claimed by its first user.",
);

export const launchReportBody = z.object({
  chain,
  launchpad: reportLaunchpad,
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
  launchpad: reportLaunchpad,
  name: rawName,
  ticker: rawTicker,
  wasReserved: z
    .boolean()
    .optional()
    .describe(
      "Optional confirmation only: whether the launch's launcher held an on-chain reservation of the identity (bonded: when it launched; milestone: then or now) is read from the records; a different value is 409 reservation_state_mismatch.",
    ),
  tokenOrMint: text(128)
    .optional()
    .describe(
      "Which of your reported launches this is; defaults to your newest launch report of the identity on the chain.",
    ),
});

export const lockResultSchema = z.object({
  recorded: z.literal(true),
  identityKey: z.string(),
  chain: z.string(),
  kind: z.enum(["bonded", "milestone"]),
  wasReserved: z.boolean(),
  tokenOrMint: z.string(),
  lockSeconds: z.number(),
  authorizedLauncher: z.string(),
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
