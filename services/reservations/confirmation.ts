// A reservation's confirmation, on-chain (the reconciler) or simulated (sandbox-confirm): the guarded status change,
// the ledger accrual and the domain events in the caller's transaction, so one never commits without the others.
// An on-chain confirmation announces the mirror's hold to every partner through the same call as the worker's pass
// over the mirror (identity/holdAnnouncement.ts), so a hold is announced once whichever path sees it first.
import type { PoolClient } from "pg";
import { appendDomainEvents } from "../../storage/domainEvents";
import { announceHold } from "../identity/holdAnnouncement";
import { createdEvents, revenueAccruedEvents, sandboxProtectionEvents } from "./events";
import { accrueLedgerEntry } from "./ledger";
import type { Reservation } from "./record";
import { transition } from "./store";

/** The confirmed window and what the reservation's transaction paid for it. */
export interface ConfirmedWindow {
  startsAt: Date;
  expiresAt: Date;
  feePaid: bigint;
}

/**
 * Confirms `reservation`, read under a row lock in this transaction. Undefined when the row already left the status
 * it was read in.
 */
export async function confirmReservation(
  client: PoolClient,
  reservation: Reservation,
  window: ConfirmedWindow,
  now: Date,
): Promise<Reservation | undefined> {
  const confirmed = await transition(client, reservation.reservationId, reservation.status, "confirmed", {
    status_reason: null,
    confirmed_at: now,
    starts_at: window.startsAt,
    expires_at: window.expiresAt,
    fee_paid: window.feePaid.toString(),
  });
  if (confirmed === undefined) return undefined;
  const entry = await accrueLedgerEntry(client, confirmed, window.feePaid, now);
  await appendDomainEvents(client, createdEvents(confirmed));
  await announceProtection(client, confirmed, now);
  await appendDomainEvents(client, entry === undefined ? [] : revenueAccruedEvents(confirmed, entry));
  return confirmed;
}

/** The protection a confirmation gives: the sandbox partner's own hold, or the chain's hold announced to all. */
async function announceProtection(client: PoolClient, confirmed: Reservation, now: Date): Promise<void> {
  if (confirmed.simulated) {
    await appendDomainEvents(client, sandboxProtectionEvents(confirmed));
    return;
  }
  await announceHold(client, confirmed, now);
}
