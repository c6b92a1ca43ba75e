// The domain events of the reservation lifecycle, one shape each, for the API (sandbox-confirm) and the worker.
// Each goes to the reservation's partner only. A reservation attributed to no partner emits none: an event without
// a partner reaches every endpoint of the environment, and a reservation's wallet and window are nobody else's.
import type { DomainEvent } from "../../storage/outbox";
import type { LedgerEntry } from "./ledger";
import { type Reservation, reservationView } from "./record";

function events(
  type: DomainEvent["type"],
  reservation: Reservation,
  payload: Record<string, unknown>,
): DomainEvent[] {
  const { partnerId, environment } = reservation;
  return partnerId === null ? [] : [{ type, environment, partnerId, payload }];
}

/** `identity.protected` / `identity.extended` data of a reservation (docs/webhooks.md). */
function protectionData(reservation: Reservation) {
  return {
    source: "reservation",
    identityKey: reservation.identityKey,
    chain: reservation.chain,
    protectedUntil: reservation.expiresAt?.toISOString() ?? null,
    reservation: reservationView(reservation),
  };
}

/**
 * A confirmed reservation: `reservation.created` and `identity.protected` (the pair became protected for its
 * launcher); a confirmed renewal: `identity.extended`.
 */
export function confirmedEvents(reservation: Reservation): DomainEvent[] {
  if (reservation.kind === "renew")
    return events("identity.extended", reservation, protectionData(reservation));
  return [
    ...events("reservation.created", reservation, { reservation: reservationView(reservation) }),
    ...events("identity.protected", reservation, protectionData(reservation)),
  ];
}

export function expiringEvents(reservation: Reservation): DomainEvent[] {
  return events("reservation.expiring", reservation, { reservation: reservationView(reservation) });
}

export function expiredEvents(reservation: Reservation): DomainEvent[] {
  return events("reservation.expired", reservation, { reservation: reservationView(reservation) });
}

/** `revenue.accrued`: the partner's share of a confirmed reservation's fee. */
export function revenueAccruedEvents(reservation: Reservation, entry: LedgerEntry): DomainEvent[] {
  return events("revenue.accrued", reservation, {
    reservationId: reservation.reservationId,
    chain: reservation.chain,
    unit: entry.unit,
    feeAmount: entry.feeAmount.toString(),
    partnerAmount: entry.partnerAmount.toString(),
    usdMicros: entry.usdMicros.toString(),
    partnerUsdMicros: entry.partnerUsdMicros.toString(),
    partnerBps: entry.partnerBps,
    introductory: entry.introductory,
  });
}
