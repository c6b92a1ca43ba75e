// What the reconciler does with one reservation, decided from evidence alone (no I/O): the mirror's row for the
// pair, how far the mirror is known to be complete, and, when asked for, what the chain says about the
// reservation's transaction. reconcile.ts gathers the evidence and applies the action in one transaction.
import type { RegistrySettlement, TransactionOutcome } from "../../chains/registryClient";
import { sameOnChain } from "../../core/address/equality";
import { EXPIRING_NOTICE_SECONDS, SUBMISSION_GRACE_SECONDS } from "../../core/reservation";
import type { ChainFreshness } from "../../core/status";
import type { Reservation } from "./record";

/** The mirror's current row for a pair (chain_reservations). */
export interface ChainHold {
  launcher: string;
  reservedAt: Date;
  expiresAt: Date;
  /** The whole window: reserved duration plus every renewal. */
  durationSeconds: number;
  /** Running total: the reservation fee plus every renewal fee. */
  feePaid: bigint;
  partnerRef: string | null;
  /** The reserve or renew transaction that produced the current state. */
  txHash: string;
}

/** What the chain's RPC said about the reservation's transaction. */
export type ChainAnswer =
  | { state: "answered"; outcome: TransactionOutcome; settlement: RegistrySettlement | null }
  | { state: "unavailable"; detail: string };

export interface Evidence {
  hold: ChainHold | undefined;
  /**
   * The instant up to which the mirror is known to hold every settlement of the chain; null while it is behind its
   * freshness bound or was never indexed. Nothing lapses or fails on a deadline the mirror has not reached.
   */
  cutoff: Date | null;
  /** Undefined until the decision asks for it (`ask_chain`). */
  chain?: ChainAnswer;
}

export type ReconcileAction =
  | { kind: "wait"; why: string }
  /** The decision needs the RPC's word on the transaction: fetch it outside any database transaction, decide again. */
  | { kind: "ask_chain" }
  | { kind: "confirm"; startsAt: Date; expiresAt: Date; feePaid: bigint }
  | { kind: "fail"; reason: string }
  | { kind: "lapse"; reason: string }
  /** A confirmed window: follow the chain's expiry and/or send the expiring notice. */
  | { kind: "track"; expiresAt: Date; notify: boolean }
  | { kind: "expire"; expiresAt: Date }
  /**
   * A confirmed reservation whose settlement the chain no longer holds: back to awaiting it, its submission (or its
   * lapse) moved to give it the grace period again.
   */
  | { kind: "reopen"; to: "submitted"; submittedAt: Date; reason: string }
  | { kind: "reopen"; to: "pending_payment"; lapsesAt: Date; reason: string };

/** The mirror's completeness instant under the freshness rule (core/status): its data time while fresh. */
export function mirrorCutoff(freshness: ChainFreshness): Date | null {
  return freshness.state === "fresh" ? freshness.dataAsOf : null;
}

function covers(cutoff: Date | null, deadline: Date): boolean {
  return cutoff !== null && cutoff.getTime() >= deadline.getTime();
}

const secondsAfter = (instant: Date, seconds: number) => new Date(instant.getTime() + seconds * 1000);

function heldByLauncher(reservation: Reservation, hold: ChainHold): boolean {
  return sameOnChain(reservation.family, hold.launcher, reservation.launcher);
}

/**
 * The hold is this reservation's settlement: a reserve carries its partnerRef (renewals keep the reserve's), and
 * any state the reservation's own transaction produced carries its hash.
 */
function settledBy(reservation: Reservation, hold: ChainHold): boolean {
  const byRef = reservation.kind === "reserve" && hold.partnerRef?.toLowerCase() === reservation.partnerRef;
  const byHash =
    reservation.transactionHash !== null &&
    sameOnChain(reservation.family, hold.txHash, reservation.transactionHash);
  return heldByLauncher(reservation, hold) && (byRef || byHash);
}

/** The settlement is this reservation's kind of transaction on its pair by its launcher. */
function settlementFits(
  reservation: Reservation,
  settlement: RegistrySettlement | null,
): settlement is RegistrySettlement {
  return (
    settlement !== null &&
    settlement.kind === reservation.kind &&
    settlement.nameHash.toLowerCase() === reservation.nameHash &&
    settlement.tickerHash.toLowerCase() === reservation.tickerHash &&
    sameOnChain(reservation.family, settlement.launcher, reservation.launcher)
  );
}

/** A renewal's window starts where the one it extended ended (the registries add the duration to the expiry). */
function renewalStart(reservation: Reservation, settlement: RegistrySettlement): Date {
  return secondsAfter(settlement.expiresAt, -reservation.durationSeconds);
}

/** The chain's settlement of the reservation's transaction (null: none that fits), or what to do until it is known. */
function fittingSettlement(
  reservation: Reservation,
  evidence: Evidence,
): { settlement: RegistrySettlement | null } | { action: ReconcileAction } {
  if (evidence.chain === undefined) return { action: { kind: "ask_chain" } };
  if (evidence.chain.state === "unavailable") return { action: { kind: "wait", why: evidence.chain.detail } };
  const { settlement } = evidence.chain;
  return { settlement: settlementFits(reservation, settlement) ? settlement : null };
}

/**
 * Confirms from the mirror's hold. The fee is the one this reservation's transaction paid: the hold's total while
 * it has not been renewed since (its duration is still the reservation's), else the settlement's own fee.
 */
function confirmFromHold(reservation: Reservation, hold: ChainHold, evidence: Evidence): ReconcileAction {
  const unrenewed = reservation.kind === "reserve" && hold.durationSeconds === reservation.durationSeconds;
  if (unrenewed) {
    return { kind: "confirm", startsAt: hold.reservedAt, expiresAt: hold.expiresAt, feePaid: hold.feePaid };
  }
  if (reservation.kind === "reserve" && reservation.transactionHash === null) {
    // Settled by partnerRef and renewed before the reconciler saw it, with no hash to read the fee from: the
    // quoted fee stands in (documented in docs/reservations.md).
    return {
      kind: "confirm",
      startsAt: hold.reservedAt,
      expiresAt: hold.expiresAt,
      feePaid: reservation.quoteAmount,
    };
  }
  const read = fittingSettlement(reservation, evidence);
  if ("action" in read) return read.action;
  const { settlement } = read;
  if (settlement === null) {
    if (reservation.kind === "reserve") {
      // The hold carries this reservation's partnerRef but the posted hash is some other transaction.
      return {
        kind: "confirm",
        startsAt: hold.reservedAt,
        expiresAt: hold.expiresAt,
        feePaid: reservation.quoteAmount,
      };
    }
    return { kind: "wait", why: "the RPC node does not return the renewal's event yet" };
  }
  return {
    kind: "confirm",
    startsAt: reservation.kind === "renew" ? renewalStart(reservation, settlement) : hold.reservedAt,
    expiresAt: hold.expiresAt,
    feePaid: settlement.feePaid,
  };
}

function decideSubmitted(reservation: Reservation, evidence: Evidence, now: Date): ReconcileAction {
  const hash = reservation.transactionHash as string;
  const submittedAt = reservation.submittedAt as Date;
  if (evidence.chain === undefined) return { kind: "ask_chain" };
  if (evidence.chain.state === "unavailable") return { kind: "wait", why: evidence.chain.detail };
  const { outcome, settlement } = evidence.chain;
  const behind = { kind: "wait", why: "the chain's mirror is behind its freshness bound" } as const;
  switch (outcome.state) {
    case "pending":
      return { kind: "wait", why: "the transaction is pending on-chain" };
    case "not_found": {
      const deadline = secondsAfter(submittedAt, SUBMISSION_GRACE_SECONDS);
      if (now < deadline) return { kind: "wait", why: "no node knows the transaction yet" };
      if (!covers(evidence.cutoff, deadline)) return behind;
      return {
        kind: "fail",
        reason: `Transaction ${hash} did not settle: no node knew it ${SUBMISSION_GRACE_SECONDS} s after its submission. Prepare the reservation again.`,
      };
    }
    case "failed":
      if (!covers(evidence.cutoff, submittedAt)) return behind;
      return { kind: "fail", reason: `Transaction ${hash} failed on-chain: ${outcome.error}` };
    case "succeeded": {
      if (!settlementFits(reservation, settlement)) {
        if (!covers(evidence.cutoff, submittedAt)) return behind;
        return {
          kind: "fail",
          reason: `Transaction ${hash} succeeded but made no ${reservation.kind} of ${reservation.identityKey} for ${reservation.launcher}; send the transaction the prepare returned.`,
        };
      }
      const hold = evidence.hold;
      // A later renewal replaced the hold's transaction hash; the hold still shows this one's expiry or later.
      if (
        reservation.kind === "renew" &&
        hold !== undefined &&
        heldByLauncher(reservation, hold) &&
        hold.expiresAt >= settlement.expiresAt
      ) {
        return {
          kind: "confirm",
          startsAt: renewalStart(reservation, settlement),
          expiresAt: hold.expiresAt,
          feePaid: settlement.feePaid,
        };
      }
      return { kind: "wait", why: "settled on-chain; the mirror has not indexed it yet" };
    }
  }
}

/** pending_payment or submitted. */
function decideOpen(reservation: Reservation, evidence: Evidence, now: Date): ReconcileAction {
  const lapse = {
    kind: "lapse",
    reason: "No transaction settled this prepare before it lapsed; prepare the reservation again.",
  } as const;
  if (reservation.simulated) {
    // The sandbox has no chain: a simulated prepare confirms only through sandbox-confirm.
    return now >= reservation.lapsesAt ? lapse : { kind: "wait", why: "awaiting sandbox-confirm" };
  }
  const hold = evidence.hold;
  if (hold !== undefined && settledBy(reservation, hold)) return confirmFromHold(reservation, hold, evidence);
  if (reservation.status === "submitted") return decideSubmitted(reservation, evidence, now);
  if (now < reservation.lapsesAt) return { kind: "wait", why: "awaiting the wallet's transaction" };
  if (!covers(evidence.cutoff, reservation.lapsesAt)) {
    return { kind: "wait", why: "the chain's mirror has not reached the lapse time" };
  }
  return lapse;
}

/** The confirmed window's end: the chain's, while the same launcher holds the pair in the same hold. */
function trackedExpiry(reservation: Reservation, hold: ChainHold | undefined): Date {
  const current = reservation.expiresAt as Date;
  if (reservation.simulated || hold === undefined || !heldByLauncher(reservation, hold)) return current;
  // A hold that began after this window ended is a new reservation of the pair, not a renewal of this one.
  const sameHold = hold.reservedAt < current;
  return sameHold && hold.expiresAt > current ? hold.expiresAt : current;
}

/** Whether the expiring notice for the window ending at `expiresAt` is due and not yet sent. */
function noticeDue(reservation: Reservation, expiresAt: Date, now: Date): boolean {
  const noticeFrom = secondsAfter(expiresAt, -EXPIRING_NOTICE_SECONDS);
  const notified = reservation.expiringNotifiedAt;
  return now >= noticeFrom && now < expiresAt && (notified === null || notified < noticeFrom);
}

/**
 * The mirror's hold still carries what confirmed `reservation`: a reserve's own hold (the same launcher, reserved at
 * the window's start; renewals keep it), a renewal's extension (the same launcher's earlier hold, ending at or past
 * the renewal's own end). Only a reorg takes either away before the window ends.
 */
function holdsSettlement(reservation: Reservation, hold: ChainHold | undefined): boolean {
  if (hold === undefined || !heldByLauncher(reservation, hold)) return false;
  const startsAt = reservation.startsAt as Date;
  if (reservation.kind === "reserve") return hold.reservedAt.getTime() === startsAt.getTime();
  return hold.reservedAt < startsAt && hold.expiresAt >= secondsAfter(startsAt, reservation.durationSeconds);
}

/**
 * Back to awaiting the settlement a reorg took out: the transaction may be mined again (the same hash, or the
 * wallet sends it again), so it gets the submission's grace from now before it fails or lapses.
 */
function reopened(reservation: Reservation, now: Date): ReconcileAction {
  const reason =
    "The chain no longer holds the transaction that confirmed this reservation (a reorg took its block out); " +
    "waiting for it to settle again.";
  return reservation.transactionHash === null
    ? { kind: "reopen", to: "pending_payment", lapsesAt: secondsAfter(now, SUBMISSION_GRACE_SECONDS), reason }
    : { kind: "reopen", to: "submitted", submittedAt: now, reason };
}

/**
 * A fresh mirror no longer shows the settlement of an open window. Fresh, it has indexed again everything a revert
 * took out of it (core/status), so what it lacks the chain lacks. Past its end a window no longer needs its hold.
 */
function settlementLost(reservation: Reservation, evidence: Evidence, now: Date): boolean {
  const open = now < (reservation.expiresAt as Date);
  return (
    !reservation.simulated && open && evidence.cutoff !== null && !holdsSettlement(reservation, evidence.hold)
  );
}

function decideConfirmed(reservation: Reservation, evidence: Evidence, now: Date): ReconcileAction {
  if (settlementLost(reservation, evidence, now)) return reopened(reservation, now);
  const expiresAt = trackedExpiry(reservation, evidence.hold);
  const moved = expiresAt.getTime() !== (reservation.expiresAt as Date).getTime();
  if (now >= expiresAt) {
    // A renewal settles before the expiry; the mirror must have seen the chain up to then to rule one out.
    const cutoff = reservation.simulated ? now : evidence.cutoff;
    if (covers(cutoff, expiresAt)) return { kind: "expire", expiresAt };
    return moved
      ? { kind: "track", expiresAt, notify: false }
      : { kind: "wait", why: "the chain's mirror has not reached the window's end" };
  }
  const notify = noticeDue(reservation, expiresAt, now);
  return moved || notify ? { kind: "track", expiresAt, notify } : { kind: "wait", why: "window open" };
}

export function decide(reservation: Reservation, evidence: Evidence, now: Date): ReconcileAction {
  switch (reservation.status) {
    case "pending_payment":
    case "submitted":
      return decideOpen(reservation, evidence, now);
    case "confirmed":
      return decideConfirmed(reservation, evidence, now);
    default:
      return { kind: "wait", why: `${reservation.status} is final` };
  }
}
