// The identity's history as the status lookup shows it: every record as dated entries, oldest first.
import type { IdentityRecords } from "./records";

export type TimelineEntryType =
  | "reserved"
  | "reservation_expired"
  | "locked"
  | "lock_expired"
  | "launched"
  | "guardian_blocked"
  | "guardian_cleared"
  // A refused bonding or milestone report (audited by the service, not an identity record).
  | "lock_refused"
  // A dispute's transitions (audited; docs/disputes.md).
  | "dispute_open"
  | "dispute_under_review"
  | "dispute_upheld"
  | "dispute_rejected"
  | "dispute_withdrawn";

export interface TimelineEntry {
  at: Date;
  type: TimelineEntryType;
  chain: string | null;
  details: Record<string, unknown>;
}

/** Dated entries for every record; lapses appear once their instant has passed. */
export function identityTimeline(records: IdentityRecords, now: Date): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const passed = (at: Date) => at.getTime() <= now.getTime();
  for (const hold of records.holds) {
    const details = { kind: hold.kind, launcher: hold.launcher, expiresAt: hold.expiresAt.toISOString() };
    entries.push({ at: hold.startsAt, type: "reserved", chain: hold.chain, details });
    if (passed(hold.expiresAt))
      entries.push({
        at: hold.expiresAt,
        type: "reservation_expired",
        chain: hold.chain,
        details: { kind: hold.kind },
      });
  }
  for (const lock of records.locks) {
    entries.push({
      at: lock.appliedAt,
      type: "locked",
      chain: lock.chain,
      details: {
        kind: lock.kind,
        wasReserved: lock.wasReserved,
        authorizedLauncher: lock.authorizedLauncher,
        expiresAt: lock.expiresAt.toISOString(),
      },
    });
    if (passed(lock.expiresAt))
      entries.push({
        at: lock.expiresAt,
        type: "lock_expired",
        chain: lock.chain,
        details: { kind: lock.kind },
      });
  }
  for (const launch of records.launches) {
    entries.push({
      at: launch.at,
      type: "launched",
      chain: launch.chain,
      details: { launcher: launch.launcher, tokenOrMint: launch.tokenOrMint, launchpad: launch.launchpad },
    });
  }
  for (const action of records.guardian) {
    entries.push({
      at: action.at,
      type: action.kind === "block" ? "guardian_blocked" : "guardian_cleared",
      chain: action.chain,
      details:
        action.kind === "block"
          ? {
              graduated: action.graduated,
              expiresAt: action.expiresAt?.toISOString() ?? null,
              reason: action.reason,
            }
          : { reason: action.reason },
    });
  }
  return entries
    .filter((entry) => passed(entry.at))
    .sort((left, right) => left.at.getTime() - right.at.getTime());
}
