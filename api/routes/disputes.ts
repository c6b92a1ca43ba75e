// Disputes (keyless): a creator proves a wallet with a signed challenge and files a dispute about an identity;
// anyone lists them (status and outcome only: never the statement, evidence, contact or wallet); the claimant
// may withdraw theirs with a fresh proof. Operators decide with the operator CLI (disputes:*). docs/disputes.md.
import { z } from "zod";
import { ApiError } from "../../core/errors/catalogue";
import { DISPUTE_PAGE_MAX, DISPUTE_REASONS, DISPUTE_STATUSES, type Dispute } from "../../services/disputes";
import type { Platform } from "../platform/platform";
import {
  challengeSchema,
  issueChallenge,
  PROOF_ERRORS,
  signedAnswer,
  walletRequest,
} from "./walletProofSchemas";

const TAG = "Disputes";
const PAGE_SIZE_DEFAULT = 20;
const DISPUTE_ID = /^dsp_[0-9a-f]{32}$/;

const fileBody = z.strictObject({
  name: z.string().min(1).max(64).describe("The disputed identity's name, as launched (it is folded)."),
  ticker: z.string().min(1).max(10).describe("Its ticker (folded)."),
  chain: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("The chain the dispute is about; omit it for the identity on every chain."),
  reason: z
    .enum(DISPUTE_REASONS)
    .describe(
      "copycat: this identity copies my token; mistaken_block: my identity was blocked by mistake; other.",
    ),
  statement: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .describe("What happened, in your words (shown to operators only)."),
  evidence: z
    .array(z.url({ protocol: /^https$/ }).max(500))
    .max(5)
    .optional()
    .describe("Up to 5 https links (explorer pages, announcements); shown to operators only."),
  contact: z
    .string()
    .trim()
    .min(1)
    .max(254)
    .optional()
    .describe("How operators can reach you (email, handle). Never shown by the API."),
  proof: signedAnswer.describe(
    "The challenge of POST /v1/disputes/challenge, signed by the claimant's wallet.",
  ),
});

const listQuery = z.object({
  identityKey: z.string().max(80).optional().describe("Only disputes about this folded NAME::TICKER."),
  status: z.enum(DISPUTE_STATUSES).optional(),
  chain: z.string().max(64).optional(),
  cursor: z.string().max(128).optional().describe("The nextCursor of the previous page."),
  limit: z.coerce.number().int().min(1).max(DISPUTE_PAGE_MAX).default(PAGE_SIZE_DEFAULT),
});

const disputeSchema = z.object({
  disputeId: z.string(),
  identityKey: z.string(),
  chain: z.string().nullable().describe("Null: the identity on every chain."),
  reason: z.enum(DISPUTE_REASONS),
  status: z.enum(DISPUTE_STATUSES),
  outcome: z
    .enum(["cleared", "blocked", "none"])
    .nullable()
    .describe("When upheld: cleared (a guardian block was lifted), blocked (one was placed), none."),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const filedSchema = z.object({
  dispute: disputeSchema,
  claimant: z.object({ chain: z.string(), address: z.string() }).describe("The wallet the proof came from."),
});

/** The public view: what the dispute is about and where it stands, nothing about the claimant. */
function disputeJson(dispute: Dispute): z.infer<typeof disputeSchema> {
  return {
    disputeId: dispute.disputeId,
    identityKey: dispute.identityKey,
    chain: dispute.chain,
    reason: dispute.reason,
    status: dispute.status,
    outcome: dispute.outcome,
    createdAt: dispute.createdAt.toISOString(),
    updatedAt: dispute.updatedAt.toISOString(),
  };
}

/** A malformed id is as unknown as a missing one; it never reaches the database. */
function disputeIdOf(raw: unknown): string {
  const id = String(raw);
  if (!DISPUTE_ID.test(id)) throw new ApiError("dispute_not_found");
  return id;
}

export function registerDisputeRoutes({ routes, services }: Platform): void {
  const disputes = services.disputes;

  routes.route(
    {
      method: "post",
      path: "/v1/disputes/challenge",
      summary:
        "Start a dispute: a single-use sign-in challenge for the claimant's wallet (EVM: EIP-4361; Solana: Sign-In-With-Solana), valid 10 minutes.",
      tag: TAG,
      access: "public-write",
      body: walletRequest,
      responses: { 201: { description: "The challenge; sign its message.", schema: challengeSchema } },
      errors: ["wallet_family_mismatch", "service_unavailable"],
    },
    (input) => issueChallenge(input, (wallet) => disputes.challenge(input.environment, wallet)),
  );

  routes.route(
    {
      method: "post",
      path: "/v1/disputes",
      summary:
        "File a dispute about an identity, proven by the claimant wallet's signed challenge. One undecided dispute per wallet and identity.",
      tag: TAG,
      access: "public-write",
      body: fileBody,
      responses: { 201: { description: "The dispute, open.", schema: filedSchema } },
      errors: [...PROOF_ERRORS, "dispute_already_open", "service_unavailable"],
    },
    async ({ body, environment }) => {
      const dispute = await disputes.file(environment, body);
      return {
        status: 201,
        body: {
          dispute: disputeJson(dispute),
          claimant: { chain: dispute.claimant.chain, address: dispute.claimant.address },
        },
      };
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/disputes",
      summary:
        "List disputes newest first, by identity, status or chain: status and outcome only, never the claimant's statement, evidence, contact or wallet.",
      tag: TAG,
      access: "keyless",
      query: listQuery,
      responses: {
        200: {
          description: "A page of disputes.",
          schema: z.object({ rows: z.array(disputeSchema), nextCursor: z.string().nullable() }),
        },
      },
    },
    async ({ query, environment }) => {
      const page = await disputes.list(environment, query);
      return { status: 200, body: { rows: page.rows.map(disputeJson), nextCursor: page.nextCursor } };
    },
  );

  routes.route(
    {
      method: "get",
      path: "/v1/disputes/:id",
      summary: "One dispute: status and outcome (the public view).",
      tag: TAG,
      access: "keyless",
      responses: { 200: { description: "The dispute.", schema: disputeSchema } },
      errors: ["dispute_not_found"],
    },
    async ({ environment, params }) => {
      return { status: 200, body: disputeJson(await disputes.show(environment, disputeIdOf(params.id))) };
    },
  );

  routes.route(
    {
      method: "post",
      path: "/v1/disputes/:id/withdraw",
      summary: "Withdraw an undecided dispute, proven by a new challenge signed by the wallet that filed it.",
      tag: TAG,
      access: "public-write",
      body: signedAnswer,
      responses: { 200: { description: "The dispute, withdrawn.", schema: disputeSchema } },
      errors: [
        ...PROOF_ERRORS,
        "dispute_not_found",
        "dispute_claimant_mismatch",
        "dispute_decided",
        "service_unavailable",
      ],
    },
    async ({ body, environment, params }) => {
      const dispute = await disputes.withdraw(environment, disputeIdOf(params.id), body);
      return { status: 200, body: disputeJson(dispute) };
    },
  );
}
