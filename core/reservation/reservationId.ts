// Reservation ids and the partner reference that carries them on-chain. The registries emit `partnerRef`
// (32 bytes) as given; putting the reservation id there lets the reconciler match a chain reservation to its
// prepare without trusting a hash the client posts, and lets a reservation confirm even if nobody posts one.
import { randomBytes } from "node:crypto";

const ID_PREFIX = "res_";
const ID_PATTERN = /^res_([0-9a-f]{32})$/;

export function newReservationId(): string {
  return `${ID_PREFIX}${randomBytes(16).toString("hex")}`;
}

export function isReservationId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** bytes32 hex: the id's 16 bytes, then 16 zero bytes. */
export function partnerRefOf(reservationId: string): `0x${string}` {
  const match = ID_PATTERN.exec(reservationId);
  if (!match) throw new TypeError(`not a reservation id: ${reservationId}`);
  return `0x${match[1]}${"0".repeat(32)}`;
}

/** The reservation id a partnerRef carries, or null for a reference the service did not issue. */
export function reservationIdOfPartnerRef(partnerRef: string): string | null {
  const match = /^0x([0-9a-f]{32})0{32}$/.exec(partnerRef.toLowerCase());
  return match ? `${ID_PREFIX}${match[1]}` : null;
}
