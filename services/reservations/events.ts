// The domain events of the reservation lifecycle, one shape each, for the API (sandbox-confirm) and the worker.
// Each goes to the reservation's partner only. A reservation attributed to no partner emits none: an event without
// a partner reaches every endpoint of the environment, and a reservation's wallet and window are nobody else's.
// The protection a production reservation gives is not one of these: it is the chain's hold, announced to every
// partner once (identity/holdAnnouncement.ts).
import type { DomainEvent } from "../../storage/domainEvents";
import { holdProtectionData } from "../identity/holdAnnouncement";
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

/** A confirmed reserve: `reservation.created` (a renewal is no new reservation). */
export function createdEvents(reservation: Reservation): DomainEvent[] {
  if (reservation.kind === "renew") return [];
  return events("reservation.created", reservation, { reservation: reservationView(reservation) });
}

/**
 * A sandbox confirmation's protection: `identity.protected` (a reserve) or `identity.extended` (a renewal), to its
 * partner only, since a sandbox hold is that partner's own (docs/decisions.md). Same data as a production hold's.
 */
export function sandboxProtectionEvents(reservation: Reservation): DomainEvent[] {
  const type = reservation.kind === "renew" ? "identity.extended" : "identity.protected";
  const hold = {
    chain: reservation.chain,
    normalizedName: reservation.normalizedName,
    normalizedTicker: reservation.normalizedTicker,
    launcher: reservation.launcher,
    reservedAt: reservation.startsAt ?? reservation.preparedAt,
    expiresAt: reservation.expiresAt ?? reservation.lapsesAt,
    durationSeconds: reservation.durationSeconds,
    txHash: reservation.transactionHash,
    blockNumber: null,
  };
  return events(type, reservation, holdProtectionData(hold));
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
