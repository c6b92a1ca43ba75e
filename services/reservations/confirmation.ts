// A reservation's confirmation, on-chain (the reconciler) or simulated (sandbox-confirm): the guarded status change,
// the ledger accrual and the domain events in the caller's transaction, so one never commits without the others.
import type { PoolClient } from "pg";
import { appendDomainEvents } from "../../storage/outbox";
import { confirmedEvents, revenueAccruedEvents } from "./events";
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
  await appendDomainEvents(client, [
    ...confirmedEvents(confirmed),
    ...(entry === undefined ? [] : revenueAccruedEvents(confirmed, entry)),
  ]);
  return confirmed;
}
