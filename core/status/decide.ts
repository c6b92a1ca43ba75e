// The one function that decides an identity's status on a chain from its records, a launcher and an
// instant. The HTTP layer only gathers records and formats the answer.

import { sameAddress } from "../address/equality";
import type { ChainFreshness } from "./freshness";
import { isLive, liveHold, longestLiveLock } from "./locks";
import type { GuardianRecord, IdentityRecords } from "./records";
import type { CheckDecision, IdentityStatus, StatusReason } from "./values";

export interface StatusQuery {
  chain: string;
  /** The wallet that wants to launch; omitted for a bare check. */
  launcher?: string;
  now: Date;
  freshness: ChainFreshness;
}

export interface ChainStatus {
  chain: string;
  status: IdentityStatus;
  decision: CheckDecision;
  authorizedLauncher: string | null;
  protectedUntil: Date | null;
  reason: StatusReason;
  /** Whether the supplied launcher may launch; null when no launcher was supplied. */
  launcherAuthorized: boolean | null;
  dataAsOf: Date | null;
}

type Outcome = Omit<ChainStatus, "chain" | "dataAsOf" | "launcherAuthorized">;

function appliesTo(record: GuardianRecord, chain: string): boolean {
  return record.chain === null || record.chain === chain;
}

/** The guardian block in force on `chain` at `now`: the newest block not followed by a clear, if live. */
export function guardianBlockInForce(
  guardian: readonly GuardianRecord[],
  chain: string,
  now: Date,
): GuardianRecord | undefined {
  const latest = guardian
    .filter((record) => appliesTo(record, chain) && record.at.getTime() <= now.getTime())
    .sort((left, right) => right.at.getTime() - left.at.getTime())[0];
  if (latest?.kind !== "block") return undefined;
  if (latest.graduated || latest.expiresAt === null || isLive(latest.expiresAt, now)) return latest;
  return undefined;
}

function guardianBlockOutcome(block: GuardianRecord): Outcome {
  return {
    status: "blocked",
    decision: "block",
    authorizedLauncher: null,
    protectedUntil: block.graduated ? null : block.expiresAt,
    reason: block.graduated ? "graduated_block" : "guardian_block",
  };
}

function staleOutcome(freshness: ChainFreshness): Outcome | undefined {
  const base = { authorizedLauncher: null, protectedUntil: null };
  switch (freshness.state) {
    case "fresh":
      return undefined;
    case "behind":
      return { ...base, status: "delayed", decision: "recheck_required", reason: "index_behind" };
    case "not_started":
      return { ...base, status: "unknown", decision: "recheck_required", reason: "index_not_started" };
    case "unavailable":
      return { ...base, status: "unknown", decision: "unavailable", reason: "data_unavailable" };
  }
}

/** A protection (hold or lock) with an authorized wallet, judged against the supplied launcher. */
function protectionOutcome(
  idle: IdentityStatus,
  reason: StatusReason,
  authorizedLauncher: string | null,
  protectedUntil: Date,
  launcher: string | undefined,
): Outcome {
  const common = { authorizedLauncher, protectedUntil };
  if (launcher === undefined) {
    return authorizedLauncher === null
      ? { ...common, status: idle, decision: "block", reason }
      : { ...common, status: idle, decision: "allow_authorized_only", reason };
  }
  if (authorizedLauncher !== null && sameAddress(authorizedLauncher, launcher)) {
    return { ...common, status: "authorized", decision: "allow", reason: "authorized_launcher" };
  }
  return { ...common, status: "blocked", decision: "block", reason };
}

/** What the identity reads once nothing is live: the newest of launch, lapse and clear, else available. */
function pastOutcome(records: IdentityRecords, chain: string, now: Date): Outcome {
  const past: { at: number; status: IdentityStatus; reason: StatusReason }[] = [];
  for (const launch of records.launches) {
    if (launch.chain === chain && launch.at <= now)
      past.push({ at: launch.at.getTime(), status: "launched", reason: "launched_without_lock" });
  }
  for (const lapsed of [...records.holds, ...records.locks]) {
    if (lapsed.chain === chain && !isLive(lapsed.expiresAt, now))
      past.push({ at: lapsed.expiresAt.getTime(), status: "expired", reason: "protection_lapsed" });
  }
  for (const record of records.guardian) {
    if (appliesTo(record, chain) && record.kind === "clear" && record.at <= now)
      past.push({ at: record.at.getTime(), status: "cleared", reason: "guardian_cleared" });
  }
  // Ties go to the later entry of the list above: a clear at the instant of a lapse reads cleared.
  const newest = past.reduce<(typeof past)[number] | undefined>(
    (best, entry) => (best === undefined || entry.at >= best.at ? entry : best),
    undefined,
  );
  return {
    status: newest?.status ?? "available",
    decision: "allow",
    authorizedLauncher: null,
    protectedUntil: null,
    reason: newest?.reason ?? "no_conflict",
  };
}

function outcomeOf(records: IdentityRecords, query: StatusQuery): Outcome {
  const { chain, now, launcher } = query;
  // Guardian blocks live in the service's own tables, so they hold even when the chain mirror lags.
  const block = guardianBlockInForce(records.guardian, chain, now);
  if (block !== undefined) return guardianBlockOutcome(block);
  const stale = staleOutcome(query.freshness);
  if (stale !== undefined) return stale;

  const lock = longestLiveLock(records.locks, chain, now);
  const hold = liveHold(records.holds, chain, now);
  if (lock !== undefined) {
    const until = hold !== undefined && hold.expiresAt > lock.expiresAt ? hold.expiresAt : lock.expiresAt;
    const reason = lock.kind === "bonded" ? "bonding_lock" : "milestone_lock";
    return protectionOutcome("protected", reason, lock.authorizedLauncher, until, launcher);
  }
  if (hold !== undefined) {
    return protectionOutcome("reserved", "active_reservation", hold.launcher, hold.expiresAt, launcher);
  }
  return pastOutcome(records, chain, now);
}

/** A supplied launcher may launch on allow, may not on block, and is undecided while data is missing. */
function launcherVerdict(decision: CheckDecision): boolean | null {
  if (decision === "allow") return true;
  if (decision === "block") return false;
  return null;
}

/** Status, decision, authorized launcher, protection end and reason of an identity on one chain. */
export function decideChainStatus(records: IdentityRecords, query: StatusQuery): ChainStatus {
  const outcome = outcomeOf(records, query);
  const launcherAuthorized = query.launcher === undefined ? null : launcherVerdict(outcome.decision);
  return {
    chain: query.chain,
    status: outcome.status,
    decision: outcome.decision,
    authorizedLauncher: outcome.authorizedLauncher,
    protectedUntil: outcome.protectedUntil,
    reason: outcome.reason,
    launcherAuthorized,
    dataAsOf: query.freshness.dataAsOf,
  };
}
