// Reservation status values and the transitions the spec allows ("States and transitions", Reservation status).
export const RESERVATION_STATUSES = [
  "pending_payment",
  "submitted",
  "confirmed",
  "failed",
  "expired",
] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

const NEXT: Readonly<Record<ReservationStatus, readonly ReservationStatus[]>> = {
  // A prepare that is settled on-chain before anyone posts its hash still confirms (found by its partnerRef).
  pending_payment: ["submitted", "confirmed", "expired"],
  submitted: ["confirmed", "failed", "expired"],
  // A reorg can take the confirming transaction out of the chain: the reservation awaits its settlement again.
  confirmed: ["expired", "submitted", "pending_payment"],
  failed: [],
  expired: [],
};

export function canTransition(from: ReservationStatus, to: ReservationStatus): boolean {
  return NEXT[from].includes(to);
}

/** States a reservation never leaves. */
export function isFinal(status: ReservationStatus): boolean {
  return NEXT[status].length === 0;
}
