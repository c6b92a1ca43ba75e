// Reservation ids and the partner reference that carries them on-chain. The registries emit `partnerRef`
// (32 bytes) as given; putting the reservation id there lets the reconciler match a chain reservation to its
// prepare without trusting a hash the client posts, and lets a reservation confirm even if nobody posts one.
import { randomBytes } from "node:crypto";

const ID_PREFIX = "res_";
/** `res_` and 32 lowercase hex digits (16 random bytes). */
export const RESERVATION_ID_PATTERN = /^res_([0-9a-f]{32})$/;

export function newReservationId(): string {
  return `${ID_PREFIX}${randomBytes(16).toString("hex")}`;
}

/** bytes32 hex: the id's 16 bytes, then 16 zero bytes. */
export function partnerRefOf(reservationId: string): `0x${string}` {
  const match = RESERVATION_ID_PATTERN.exec(reservationId);
  if (!match) throw new TypeError(`not a reservation id: ${reservationId}`);
  return `0x${match[1]}${"0".repeat(32)}`;
}
