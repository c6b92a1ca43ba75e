// The `data` of each webhook event type: one zod schema per type, published in the OpenAPI document (its
// `webhooks` section and components.schemas WebhookEvent_<type>) and checked against real emitted payloads by
// test/api/routes/webhookEvents.test.ts. docs/webhooks.md says when each fires and who receives it.
import { type ZodType, z } from "zod";
import { CHECK_DECISIONS, STATUS_REASONS } from "../../core/status";
import { type DomainEventType, TEST_EVENT_TYPE } from "../../services/webhooks";
import { reservationSchema } from "./reservationSchemas";

const iso = z.string().describe("ISO 8601 instant");
const amount = z.string().regex(/^\d+$/).describe("Integer amount as a decimal string");

/** A signed validation decision's facts (launch.authorized, launch.blocked, identity.blocked_attempt). */
const decisionData = z.object({
  requestId: z
    .string()
    .describe("The signed decision's requestId (verify it with POST /v1/decisions/verify)."),
  identityKey: z.string(),
  chain: z.string(),
  launcher: z.string(),
  launchpadId: z.string(),
  decision: z.enum(CHECK_DECISIONS),
  reason: z.enum(STATUS_REASONS),
  issuedAt: iso,
});

/** A bond or milestone lock the reporting partner applied (token.bonded, milestone.verified, and lock protection). */
const lockData = z.object({
  source: z.literal("lock"),
  identityKey: z.string(),
  chain: z.string(),
  kind: z.enum(["bonded", "milestone"]),
  wasReserved: z.boolean(),
  tokenOrMint: z.string(),
  lockSeconds: z.number().int(),
  authorizedLauncher: z.string(),
  previousExpiry: iso.nullable(),
  newExpiry: iso,
  protectedUntil: iso.describe("Equal to newExpiry: the lock's end (a lock never shortens)."),
  extended: z.boolean(),
  launchpad: z.string(),
});

/**
 * An on-chain hold that protects (identity.protected) or extends the protection of (identity.extended) a pair,
 * whoever made it: only what GET /v1/reservations?wallet shows of it, never a partner's reservation or share.
 */
const reservationProtectionData = z.object({
  source: z.literal("reservation"),
  identityKey: z.string(),
  chain: z.string(),
  protectedUntil: iso.nullable(),
  hold: z.object({
    launcher: z.string().describe("The wallet holding the pair."),
    reservedAt: iso.describe("When the hold began (a renewal keeps it)."),
    expiresAt: iso,
    durationSeconds: z.number().int().describe("The hold's duration so far (reserve plus renewals)."),
    transactionHash: z
      .string()
      .nullable()
      .describe("The transaction that set this state (the reserve or the renewal); null in the sandbox."),
    blockNumber: z.number().int().nullable().describe("Its block or slot; null in the sandbox."),
  }),
});

const guardianScope = {
  identityKey: z.string(),
  chain: z.string().nullable().describe("The chain the guardian action is limited to; null for every chain."),
  disputeId: z
    .string()
    .nullable()
    .describe("The upheld dispute that led to the action (GET /v1/disputes); null for an operator's own."),
};

/** A guardian block (not graduated): the identity is blocked for every launcher (identity.protected). */
const guardianProtectionData = z.object({
  source: z.literal("guardian"),
  ...guardianScope,
  protectedUntil: iso.nullable().describe("When the block ends by itself; null: until a guardian clears it."),
  reason: z.string().describe("The operator's stated reason."),
});

const protectionData = z.discriminatedUnion("source", [lockData, reservationProtectionData]);
const reservationData = z.object({ reservation: reservationSchema });

export interface EventDoc {
  summary: string;
  data: ZodType;
}

export const WEBHOOK_EVENTS: Readonly<Record<DomainEventType, EventDoc>> = {
  "reservation.created": {
    summary: "A reservation was confirmed (on-chain settlement verified, or sandbox-confirm).",
    data: reservationData,
  },
  "reservation.expiring": {
    summary:
      "A confirmed reservation's window ends within 12 hours, the renewal window (sent once per window).",
    data: reservationData,
  },
  "reservation.expired": {
    summary: "A confirmed reservation's window ended.",
    data: reservationData,
  },
  "identity.protected": {
    summary:
      "An identity became protected: a new on-chain hold (whoever made it), a lock applied where none was, or a guardian block. Sent to every production partner.",
    data: z.discriminatedUnion("source", [lockData, reservationProtectionData, guardianProtectionData]),
  },
  "identity.extended": {
    summary:
      "A protection window was extended: an on-chain renewal (whoever sent it), or a lock outlasting the previous one. Sent to every production partner.",
    data: protectionData,
  },
  "identity.blocked_attempt": {
    summary: "Your launch validation was blocked because the identity is protected for someone else.",
    data: decisionData,
  },
  "launch.authorized": {
    summary: "Your launch validation allowed the identity's authorized launcher.",
    data: decisionData,
  },
  "launch.blocked": { summary: "Your launch validation returned block.", data: decisionData },
  "launch.reported": {
    summary: "You reported a successful launch (POST /v1/launches/report).",
    data: z.object({
      identityKey: z.string(),
      normalizedName: z.string(),
      normalizedTicker: z.string(),
      chain: z.string(),
      launchpad: z.string(),
      launcher: z.string(),
      tokenOrMint: z.string(),
      reportedAt: iso,
    }),
  },
  "token.bonded": { summary: "Your bond report applied a market-cap lock.", data: lockData },
  "token.graduated": {
    summary: "An operator placed a permanent graduated block on an identity (the token graduated).",
    data: z.object({ identityKey: z.string(), chain: guardianScope.chain, at: iso }),
  },
  "milestone.verified": { summary: "Your milestone report applied the extended lock.", data: lockData },
  "identity.cleared": {
    summary: "A guardian cleared a block in force on an identity.",
    data: z.object({ ...guardianScope, clearedAt: iso, reason: z.string() }),
  },
  "chain.degraded": {
    summary: "A chain's data path turned degraded (its decisions fail closed), or recovered.",
    data: z.object({
      chain: z.string(),
      family: z.enum(["evm", "solana"]),
      state: z.enum(["degraded", "recovered"]),
      reason: z
        .enum(["mirror_behind", "not_indexed", "indexer_stalled"])
        .nullable()
        .describe("Why it degraded; null on recovery."),
      since: iso.describe("When the announced state began."),
      degradedSince: iso.nullable().describe("On recovery: when the degradation began; else null."),
      headNumber: z.number().int().nullable(),
      indexedNumber: z.number().int().nullable(),
      lag: z.number().int().nullable(),
      indexedAt: iso.nullable(),
      freshnessBoundSeconds: z.number().int(),
    }),
  },
  "revenue.accrued": {
    summary: "Your share of a confirmed reservation's fee accrued to your ledger.",
    data: z.object({
      reservationId: z.string(),
      chain: z.string(),
      unit: z.enum(["wei", "lamports"]),
      feeAmount: amount,
      partnerAmount: amount,
      usdMicros: amount,
      partnerUsdMicros: amount,
      partnerBps: z.number().int(),
      introductory: z.boolean(),
    }),
  },
};

/** Every type a delivery may carry: the domain events and the test event of POST /v1/webhooks/test. */
export const DELIVERED_EVENTS: Readonly<Record<string, EventDoc>> = {
  ...WEBHOOK_EVENTS,
  [TEST_EVENT_TYPE]: {
    summary: "A test event queued with POST /v1/webhooks/test; it changes nothing.",
    data: z.object({ endpointId: z.string(), message: z.string() }),
  },
};
