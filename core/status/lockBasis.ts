// What a bonding or milestone lock rests on: a recorded launch of the identity on the chain and the chain's
// holds, never the reporter's word. The lock's launcher is the launch's launcher; whether the identity was
// reserved is read from the holds (the body's `wasReserved` may only confirm it); a lock never covers a
// reservation of another wallet. A prepare is no hold: it never makes a lock long, and another wallet's only
// defers one while its payment may still land. docs/decisions.md ("Decided here: what a lock rests on").
import { sameAddress } from "../address/equality";
import { isLive, liveHold, lockDurationSeconds, longestLiveLock } from "./locks";
import type { HoldRecord, IdentityRecords, LaunchRecord, LockRecord } from "./records";

/** The launch a lock report refers to: the reporting partner's launch of the identity on the chain. */
export type ReportedLaunch = Pick<LaunchRecord, "chain" | "launcher" | "tokenOrMint" | "at">;

/** A prepared reservation of the identity on the chain not confirmed on-chain yet: a wallet told to pay. */
export interface PendingPrepare {
  launcher: string;
  /** When the prepare lapses unpaid (PREPARE_TTL_SECONDS after it was made). */
  lapsesAt: Date;
}

export interface LockBasisQuery {
  kind: LockRecord["kind"];
  launch: ReportedLaunch;
  /** The reporter's `wasReserved`, when sent: it may only confirm what the records say. */
  claimedReserved: boolean | undefined;
  /** The live prepares of the identity on the launch's chain. */
  pendingPrepares: readonly PendingPrepare[];
  now: Date;
}

export interface LockBasis {
  authorizedLauncher: string;
  /** Bonded: held by the launcher when it launched. Milestone: then, or now. */
  reserved: boolean;
  lockSeconds: number;
}

/** Why a lock report is refused although its launch was recorded. */
export type LockRefusal =
  | { reason: "reserved_by_another_wallet"; holder: string; holdExpiresAt: Date }
  | { reason: "launched_over_reservation"; holder: string; holdExpiresAt: Date }
  | { reason: "reservation_payment_pending"; holder: string; holdExpiresAt: Date }
  | { reason: "locked_for_another_launcher"; authorizedLauncher: string | null; lockExpiresAt: Date }
  | { reason: "reservation_state_mismatch"; claimedReserved: boolean; reserved: boolean };

/** The hold of `launcher` live on `chain` at `at`, or undefined. */
function heldBy(holds: readonly HoldRecord[], chain: string, launcher: string, at: Date) {
  return liveHold(
    holds.filter((entry) => sameAddress(entry.launcher, launcher)),
    chain,
    at,
  );
}

/** The hold of a wallet other than `launcher` live on `chain` at `at`, or undefined. */
function heldByAnother(holds: readonly HoldRecord[], chain: string, launcher: string, at: Date) {
  return liveHold(
    holds.filter((entry) => !sameAddress(entry.launcher, launcher)),
    chain,
    at,
  );
}

/**
 * The live prepare of a wallet other than the launch's launcher that lapses last, or undefined: a creator may
 * be paying, and a lock applied now would lock them out once their reservation confirms. It defers the lock until
 * the reservation confirms (then it refuses the lock as a hold) or the prepare lapses unpaid, so one prepare
 * defers a lock for at most its own lifetime.
 */
function paymentPendingOfAnother(
  prepares: readonly PendingPrepare[],
  launcher: string,
  now: Date,
): PendingPrepare | undefined {
  return prepares
    .filter((prepare) => !sameAddress(prepare.launcher, launcher) && isLive(prepare.lapsesAt, now))
    .sort((left, right) => right.lapsesAt.getTime() - left.lapsesAt.getTime())[0];
}

/**
 * Whether the identity counts as reserved for the lock: for a bonding lock, held by the launch's launcher at
 * the launch (spec: `wasReserved`); for a milestone lock, held by that launcher at the launch or now (spec:
 * "identity reserved": a milestone usually comes after a 24 h window has ended, and the creator who reserved
 * for the launch keeps the longer lock). Only holds count: a reservation confirmed on-chain (or a sandbox hold),
 * never a prepare, which the spec says protects nothing.
 */
export function reservedForLock(
  records: IdentityRecords,
  kind: LockRecord["kind"],
  launch: ReportedLaunch,
  now: Date,
): boolean {
  const atLaunch = heldBy(records.holds, launch.chain, launch.launcher, launch.at) !== undefined;
  if (kind === "bonded") return atLaunch;
  return atLaunch || heldBy(records.holds, launch.chain, launch.launcher, now) !== undefined;
}

/** The lock a report may apply on its launch, or why not. Pure: the records are read before. */
export function lockBasis(records: IdentityRecords, query: LockBasisQuery): LockBasis | LockRefusal {
  const { kind, launch, now } = query;
  const otherNow = heldByAnother(records.holds, launch.chain, launch.launcher, now);
  if (otherNow !== undefined) {
    return {
      reason: "reserved_by_another_wallet",
      holder: otherNow.launcher,
      holdExpiresAt: otherNow.expiresAt,
    };
  }
  const otherAtLaunch = heldByAnother(records.holds, launch.chain, launch.launcher, launch.at);
  if (otherAtLaunch !== undefined) {
    return {
      reason: "launched_over_reservation",
      holder: otherAtLaunch.launcher,
      holdExpiresAt: otherAtLaunch.expiresAt,
    };
  }
  const paying = paymentPendingOfAnother(query.pendingPrepares, launch.launcher, now);
  if (paying !== undefined) {
    return { reason: "reservation_payment_pending", holder: paying.launcher, holdExpiresAt: paying.lapsesAt };
  }
  const existing = longestLiveLock(records.locks, launch.chain, now);
  if (
    existing !== undefined &&
    (existing.authorizedLauncher === null || !sameAddress(existing.authorizedLauncher, launch.launcher))
  ) {
    return {
      reason: "locked_for_another_launcher",
      authorizedLauncher: existing.authorizedLauncher,
      lockExpiresAt: existing.expiresAt,
    };
  }
  const reserved = reservedForLock(records, kind, launch, now);
  if (query.claimedReserved !== undefined && query.claimedReserved !== reserved) {
    return { reason: "reservation_state_mismatch", claimedReserved: query.claimedReserved, reserved };
  }
  return { authorizedLauncher: launch.launcher, reserved, lockSeconds: lockDurationSeconds(kind, reserved) };
}

export function isLockRefusal(outcome: LockBasis | LockRefusal): outcome is LockRefusal {
  return "reason" in outcome;
}
