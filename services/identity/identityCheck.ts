// GET/POST /v1/identity/check (read-only snapshot, dataset by host) and GET /v1/identity/status (record and
// timeline).
import type { Pool } from "pg";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import { type NormalizedIdentity, normalizeIdentity, parseIdentityKey } from "../../core/fold";
import { lookalikeKey } from "../../core/lookalike";
import { type ChainStatus, identityTimeline, type StatusReason, type TimelineEntry } from "../../core/status";
import { type ChainReader, readStaleChains } from "./chainReads";
import { type Adapter, decisionRecords, type EvaluationContext, evaluate } from "./evaluation";
import { auditedTimelineEntries } from "./identityAudit";
import { normalizedOrReject } from "./identityInput";
import { type Lookalike, lookalikeMessage, lookalikeOf } from "./lookalikes";
import type { DecisionSnapshot, SnapshotRequest } from "./recordLoader";

/** Reads one identity's snapshot (batched with concurrent reads, under the data path's bound). */
export type SnapshotLoad = (request: SnapshotRequest) => Promise<DecisionSnapshot>;

export interface CheckRequest {
  name: string;
  ticker: string;
  chain?: string | undefined;
  launcher?: string | undefined;
}

export interface CheckResult {
  normalizedName: string;
  normalizedTicker: string;
  identityKey: string;
  status: ChainStatus["status"];
  decision: ChainStatus["decision"];
  chain: string;
  authorizedLauncher: string | null;
  protectedUntil: string | null;
  reason: string;
  launcherAuthorized: boolean | null;
  adapter: Adapter;
  dataAsOf: string | null;
  message: string;
  available: boolean;
  /** Another identity, protected or reserved, that the asked name looks like (the message then warns). */
  lookalikeOf?: Lookalike;
}

const MESSAGES: Readonly<Record<StatusReason, string>> = {
  no_conflict: "No reservation, lock or block applies: the pair is free.",
  active_reservation: "An active reservation holds this pair; only its authorized wallet may launch.",
  bonding_lock: "A bonding lock protects this pair; only its authorized wallet may launch.",
  milestone_lock: "A milestone lock protects this pair; only its authorized wallet may launch.",
  authorized_launcher: "The supplied wallet is the authorized launcher of this pair.",
  guardian_block: "A guardian blocked this pair; nobody may launch it until the block is cleared.",
  graduated_block: "This identity graduated and is permanently blocked.",
  guardian_cleared: "A guardian cleared an earlier block; the pair is free.",
  protection_lapsed: "An earlier hold or lock has lapsed; the pair is free again.",
  launched_without_lock: "A token launched on this pair without a lock; nothing prevents another launch.",
  index_behind: "The chain data is catching up; recheck shortly and do not launch meanwhile.",
  index_not_started: "This chain has not been indexed yet; recheck before acting.",
  data_unavailable: "The chain data could not be read; do not launch, recheck later.",
};

const FREE_STATUSES = new Set<ChainStatus["status"]>(["available", "expired", "cleared", "launched"]);

/** The response of the identity check for one evaluation, with the look-alike found beside it, if any. */
export function checkResultOf(
  identity: { normalizedName: string; normalizedTicker: string; identityKey: string },
  result: ChainStatus,
  adapter: Adapter,
  lookalike: Lookalike | null = null,
): CheckResult {
  const answer: CheckResult = {
    normalizedName: identity.normalizedName,
    normalizedTicker: identity.normalizedTicker,
    identityKey: identity.identityKey,
    status: result.status,
    decision: result.decision,
    chain: result.chain,
    authorizedLauncher: result.authorizedLauncher,
    protectedUntil: result.protectedUntil?.toISOString() ?? null,
    reason: result.reason,
    launcherAuthorized: result.launcherAuthorized,
    adapter,
    dataAsOf: result.dataAsOf?.toISOString() ?? null,
    message:
      lookalike === null
        ? MESSAGES[result.reason]
        : `${MESSAGES[result.reason]} ${lookalikeMessage(lookalike)}`,
    available: result.decision === "allow" && FREE_STATUSES.has(result.status),
  };
  if (lookalike !== null) answer.lookalikeOf = lookalike;
  return answer;
}

/** A result for a data path that could not be read at all: fail closed, never allow. */
function unavailableResult(
  identity: CheckResult | Parameters<typeof checkResultOf>[0],
  chain: string | undefined,
): CheckResult {
  return checkResultOf(
    identity,
    {
      chain: chain ?? "all",
      status: "unknown",
      decision: "unavailable",
      authorizedLauncher: null,
      protectedUntil: null,
      reason: "data_unavailable",
      launcherAuthorized: null,
      dataAsOf: null,
    },
    "unavailable",
  );
}

/**
 * The check on the host's dataset. In the sandbox `partnerId` (the sandbox key sent, if any) adds that
 * partner's own records to the seeded scenarios; keyless, the scenarios only.
 */
export async function checkIdentity(
  load: SnapshotLoad,
  readChains: ChainReader,
  context: EvaluationContext,
  request: CheckRequest,
  partnerId: string | null,
): Promise<CheckResult> {
  const lookalike = lookalikeKey(request.name, request.ticker);
  let identity: NormalizedIdentity;
  try {
    identity = normalizedOrReject(request.name, request.ticker);
  } catch (error) {
    throw await withLookalike(error, load, context, request, partnerId, lookalike);
  }
  return checkNormalized(load, readChains, context, identity, request, partnerId, lookalike);
}

/**
 * The check of an identity already folded (and held to its bounds), with its look-alike advisory;
 * `lookalike` is the request's look-alike key (core/lookalike).
 */
export async function checkNormalized(
  load: SnapshotLoad,
  readChains: ChainReader,
  context: EvaluationContext,
  identity: NormalizedIdentity,
  request: CheckRequest,
  partnerId: string | null,
  lookalike: string,
): Promise<CheckResult> {
  const chain = request.chain ?? null;
  let snapshot: DecisionSnapshot;
  try {
    snapshot = await load({
      environment: context.environment,
      identity,
      chain,
      partnerId,
      lookalikeKey: lookalike,
    });
  } catch {
    // Unreachable, failing or slower than the data path's bound: fail closed with an answer, never hang.
    return unavailableResult(identity, request.chain);
  }
  const reads = await readStaleChains(readChains, snapshot, context, identity, chain, request.launcher);
  const { result, adapter } = evaluate(snapshot, context, chain, request.launcher, reads);
  return checkResultOf(identity, result, adapter, lookalikeOf(snapshot, context, chain));
}

/**
 * A pair that folds out of bounds (Greek `ΡΕΡΕ` folds to nothing) is refused, and the refusal names the
 * protected identity it looks like, when there is one: copycats use exactly such spellings.
 */
export async function withLookalike(
  error: unknown,
  load: SnapshotLoad,
  context: EvaluationContext,
  request: CheckRequest,
  partnerId: string | null,
  lookalike: string,
): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== "invalid_request") return error;
  const chain = request.chain ?? null;
  let found: Lookalike | null;
  try {
    const snapshot = await load({
      environment: context.environment,
      identity: normalizeIdentity(request.name, request.ticker),
      chain,
      partnerId,
      lookalikeKey: lookalike,
    });
    found = lookalikeOf(snapshot, context, chain);
  } catch {
    return error; // the refusal stands without its advisory
  }
  if (found === null) return error;
  return new ApiError(error.code, `${error.message} ${lookalikeMessage(found)}`, {
    ...(error.details as Record<string, unknown>),
    lookalikeOf: found,
  });
}

export interface IdentityStatusView {
  identityKey: string;
  normalizedName: string;
  normalizedTicker: string;
  environment: Environment;
  current: CheckResult;
  /** The answer on each chain, so a multi-chain identity shows all of them. */
  chains: CheckResult[];
  timeline: (Omit<TimelineEntry, "at"> & { at: string })[];
}

/** What a valid `key` is: the folded form, whose only digits are the three that have no look-alike letter. */
const IDENTITY_KEY_RULE =
  "`key` must be a folded identity key NAME::TICKER, as the identity check returns it in `identityKey` (e.g. MOONBADGER::BADGER): upper-case letters A-Z and the digits 2, 6 and 9 only; other digits and lower-case letters fold to upper-case letters, so fold a raw name and ticker with GET /v1/identity/check first.";

/**
 * The identity record and timeline; 404 identity_not_found when no record exists in the dataset. Public and
 * keyless: in the sandbox it shows the seeded scenarios only, never a partner's own records.
 */
export async function identityStatus(
  pool: Pool,
  load: SnapshotLoad,
  context: EvaluationContext,
  key: string,
): Promise<IdentityStatusView> {
  const parsed = parseIdentityKey(key);
  if (parsed === null) {
    throw new ApiError("invalid_request", `${IDENTITY_KEY_RULE} See details.issues.`, {
      in: "query",
      issues: [{ path: "key", message: IDENTITY_KEY_RULE }],
    });
  }
  const identity = normalizeIdentity(parsed.normalizedName, parsed.normalizedTicker);
  if (!identity.valid) throw new ApiError("identity_not_found");
  const [snapshot, audited] = await Promise.all([
    load({ environment: context.environment, identity, chain: null, partnerId: null }),
    auditedTimelineEntries(pool, context.environment, identity.identityKey),
  ]);
  const records = decisionRecords(snapshot, context);
  const recordCount =
    records.holds.length + records.locks.length + records.launches.length + records.guardian.length;
  if (recordCount === 0 && audited.length === 0) throw new ApiError("identity_not_found");
  const current = evaluate(snapshot, context, null, undefined);
  const chainNames = [
    ...new Set([...records.holds, ...records.locks, ...records.launches].map((record) => record.chain)),
  ];
  const chains = chainNames.flatMap((chain) => {
    try {
      const evaluation = evaluate(snapshot, context, chain, undefined);
      return [checkResultOf(identity, evaluation.result, evaluation.adapter)];
    } catch {
      return []; // a chain that is no longer configured
    }
  });
  return {
    identityKey: identity.identityKey,
    normalizedName: identity.normalizedName,
    normalizedTicker: identity.normalizedTicker,
    environment: context.environment,
    current: checkResultOf(identity, current.result, current.adapter),
    chains,
    timeline: [...identityTimeline(records, context.now), ...audited]
      .sort((left, right) => left.at.getTime() - right.at.getTime())
      .map((entry) => ({ ...entry, at: entry.at.toISOString() })),
  };
}
