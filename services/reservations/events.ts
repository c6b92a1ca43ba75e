// The domain events of the reservation lifecycle, one shape each, for the API (sandbox-confirm) and the worker.
import type { DomainEvent } from "../../storage/outbox";
import type { LedgerEntry } from "./ledger";
import { type Reservation, reservationView } from "./record";

function event(
  type: DomainEvent["type"],
  reservation: Reservation,
  payload: Record<string, unknown>,
): DomainEvent {
  return { type, environment: reservation.environment, partnerId: reservation.partnerId, payload };
}

/** `reservation.created` for a confirmed reservation; `identity.extended` for a confirmed renewal. */
export function confirmedEvent(reservation: Reservation): DomainEvent {
  return event(reservation.kind === "renew" ? "identity.extended" : "reservation.created", reservation, {
    reservation: reservationView(reservation),
  });
}

export function expiringEvent(reservation: Reservation): DomainEvent {
  return event("reservation.expiring", reservation, { reservation: reservationView(reservation) });
}

export function expiredEvent(reservation: Reservation): DomainEvent {
  return event("reservation.expired", reservation, { reservation: reservationView(reservation) });
}

/** `revenue.accrued`: the partner's share of a confirmed reservation's fee. */
export function revenueAccruedEvent(reservation: Reservation, entry: LedgerEntry): DomainEvent {
  return event("revenue.accrued", reservation, {
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
