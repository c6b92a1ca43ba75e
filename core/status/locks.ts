// Copycat lock lengths and the longest-lock rule (spec: "Identity status and locks", "Limits").
import type { HoldRecord, IdentityRecords, LockRecord } from "./records";

const HOUR = 3600;
const DAY = 24 * HOUR;

export const LOCK_SECONDS: Readonly<Record<LockRecord["kind"], { reserved: number; unreserved: number }>> = {
  bonded: { reserved: 60 * DAY, unreserved: 48 * HOUR },
  milestone: { reserved: 90 * DAY, unreserved: 7 * DAY },
};

/** Length of the lock a bonding or milestone report applies (reserved: see lockBasis). */
export function lockDurationSeconds(kind: LockRecord["kind"], wasReserved: boolean): number {
  const lengths = LOCK_SECONDS[kind];
  return wasReserved ? lengths.reserved : lengths.unreserved;
}

/** True while `expiresAt` lies after `now`: a hold or lock lapses at its exact expiry instant. */
export function isLive(expiresAt: Date, now: Date): boolean {
  return now.getTime() < expiresAt.getTime();
}

/** The latest expiry among the chain's live locks, or null when none is live. */
export function liveLockExpiry(records: IdentityRecords, chain: string, now: Date): Date | null {
  return longestLiveLock(records.locks, chain, now)?.expiresAt ?? null;
}

/** The live lock on `chain` that lasts longest (ties: the newest), or undefined. */
export function longestLiveLock(
  locks: readonly LockRecord[],
  chain: string,
  now: Date,
): LockRecord | undefined {
  let best: LockRecord | undefined;
  for (const lock of locks) {
    if (lock.chain !== chain || !isLive(lock.expiresAt, now)) continue;
    if (
      best === undefined ||
      lock.expiresAt.getTime() > best.expiresAt.getTime() ||
      (lock.expiresAt.getTime() === best.expiresAt.getTime() && lock.appliedAt > best.appliedAt)
    )
      best = lock;
  }
  return best;
}

export interface LockExtension {
  previousExpiry: Date | null;
  newExpiry: Date;
}

/** Longest-lock: a new lock never shortens the protection; the expiry is the later of the two. */
export function extendLock(
  previousExpiry: Date | null,
  appliedAt: Date,
  durationSeconds: number,
): LockExtension {
  const candidate = new Date(appliedAt.getTime() + durationSeconds * 1000);
  const newExpiry =
    previousExpiry !== null && previousExpiry.getTime() > candidate.getTime() ? previousExpiry : candidate;
  return { previousExpiry, newExpiry };
}

/**
 * How far a hold's start may lie ahead of the instant asked about and still count: a chain's block time runs a
 * little ahead of the service's clock (Hardhat stamps each block at least a second after its parent), and a
 * reservation just mined must never read as free meanwhile. Fail closed: the hold counts.
 */
export const HOLD_START_SKEW_MS = 60_000;

/**
 * How long past its expiry a hold still counts: the registry lets its holder renew until the chain's clock reaches
 * the expiry, and a chain's clock may trail the service's (an EVM block stamp, Solana's stake-weighted clock). No
 * copycat is allowed while the chain may still accept the holder's renewal; the holder keeps its answer too.
 */
export const HOLD_EXPIRY_SKEW_MS = 60_000;

/** The hold live on `chain` at `at` (the newest when several overlap), or undefined. */
export function liveHold(holds: readonly HoldRecord[], chain: string, at: Date): HoldRecord | undefined {
  return holds
    .filter(
      (hold) =>
        hold.chain === chain &&
        hold.startsAt.getTime() <= at.getTime() + HOLD_START_SKEW_MS &&
        at.getTime() < hold.expiresAt.getTime() + HOLD_EXPIRY_SKEW_MS,
    )
    .sort((left, right) => right.startsAt.getTime() - left.startsAt.getTime())[0];
}
