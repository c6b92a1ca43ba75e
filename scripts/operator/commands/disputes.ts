// Disputes: list and show them (with the claimant's statement, evidence and contact, which the public API never
// shows), take one under review, and uphold or reject it. Upholding a mistaken-block dispute clears the guardian
// block; upholding a copycat dispute with --block places one. Every move is audited with --actor and --reason
// and appears in the identity's status timeline.
import { isEnvironment } from "../../../core/environment";
import {
  DISPUTE_STATUSES,
  type Dispute,
  type DisputeStatus,
  decideDispute,
  listDisputes,
  operatorDispute,
  reviewDispute,
} from "../../../services/disputes";
import { defineCommand, type OperatorCommand, UsageError } from "../command";
import { ACTOR_FLAGS, actorOf, optionalFlag, requiredFlag } from "../flags";

const LIST_LIMIT = 100;

function summaryLine(dispute: Dispute): string {
  return [
    dispute.disputeId,
    dispute.environment,
    dispute.status + (dispute.outcome ? `:${dispute.outcome}` : ""),
    dispute.reason,
    dispute.identityKey,
    dispute.chain ?? "every-chain",
    dispute.createdAt.toISOString(),
  ].join("  ");
}

const list = defineCommand({
  name: "disputes:list",
  summary: "List disputes newest first (--status, --environment, --key filter them).",
  usage:
    "disputes:list [--environment sandbox|production] [--status open|under_review|upheld|rejected|withdrawn] [--key NAME::TICKER]",
  flags: {
    environment: { value: "sandbox|production", help: "only this environment's disputes" },
    status: { value: DISPUTE_STATUSES.join("|"), help: "only disputes in this state" },
    key: { value: "NAME::TICKER", help: "only disputes about this identity" },
  },
  async run(flags, { pool, out }) {
    const environment = optionalFlag(flags, "environment");
    if (environment !== undefined && !isEnvironment(environment))
      throw new UsageError("--environment must be sandbox or production.");
    const status = optionalFlag(flags, "status");
    if (status !== undefined && !DISPUTE_STATUSES.includes(status as DisputeStatus))
      throw new UsageError(`--status must be one of ${DISPUTE_STATUSES.join(", ")}.`);
    const rows = await listDisputes(
      pool,
      environment ?? null,
      { status: status as DisputeStatus | undefined, identityKey: optionalFlag(flags, "key") },
      null,
      LIST_LIMIT,
    );
    if (rows.length === 0) out("No disputes.");
    for (const dispute of rows.slice(0, LIST_LIMIT)) out(summaryLine(dispute));
    return rows.slice(0, LIST_LIMIT);
  },
});

const show = defineCommand({
  name: "disputes:show",
  summary: "Show one dispute in full: statement, evidence, the claimant's wallet and contact.",
  usage: "disputes:show --id dsp_…",
  flags: { id: { value: "dsp_…", help: "the dispute id" } },
  async run(flags, { pool, out }) {
    const dispute = await operatorDispute(pool, requiredFlag(flags, "id", "the dispute id"));
    out(summaryLine(dispute));
    out(`claimant   ${dispute.claimant.chain} ${dispute.claimant.address} (${dispute.claimant.proof})`);
    out(`contact    ${dispute.contact ?? "-"}`);
    out(`statement  ${dispute.statement}`);
    for (const link of dispute.evidence) out(`evidence   ${link}`);
    return dispute;
  },
});

const review = defineCommand({
  name: "disputes:review",
  summary: "Take an open dispute under review.",
  usage: "disputes:review --id dsp_… --actor <who> --reason <why>",
  flags: { id: { value: "dsp_…", help: "the dispute id" }, ...ACTOR_FLAGS },
  async run(flags, { pool, out }) {
    const dispute = await reviewDispute(pool, requiredFlag(flags, "id", "the dispute id"), actorOf(flags));
    out(`${dispute.disputeId} is under review.`);
    return dispute;
  },
});

const decide = defineCommand({
  name: "disputes:decide",
  summary:
    "Uphold or reject a dispute (upholding a mistaken block clears it; a copycat dispute with --block blocks the identity).",
  usage:
    "disputes:decide --id dsp_… --outcome upheld|rejected [--block [--block-chain <chain>]] --actor <who> --reason <why>",
  flags: {
    id: { value: "dsp_…", help: "the dispute id" },
    outcome: { value: "upheld|rejected", help: "the verdict" },
    block: { help: "upholding a copycat dispute: block the identity" },
    "block-chain": { value: "chain", help: "with --block: only on this chain" },
    ...ACTOR_FLAGS,
  },
  async run(flags, { pool, out }) {
    const verdict = requiredFlag(flags, "outcome", "upheld or rejected");
    if (verdict !== "upheld" && verdict !== "rejected")
      throw new UsageError("--outcome must be upheld or rejected.");
    const blockChain = optionalFlag(flags, "block-chain");
    if (blockChain !== undefined && flags.get("block") !== true)
      throw new UsageError("--block-chain goes with --block.");
    const dispute = await decideDispute(
      pool,
      {
        disputeId: requiredFlag(flags, "id", "the dispute id"),
        verdict,
        block: flags.get("block") === true ? { chain: blockChain } : undefined,
      },
      actorOf(flags),
    );
    out(`${dispute.disputeId} is ${dispute.status}${dispute.outcome ? ` (${dispute.outcome})` : ""}.`);
    return dispute;
  },
});

export const commands: OperatorCommand[] = [list, show, review, decide];
