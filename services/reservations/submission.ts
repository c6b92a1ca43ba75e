// Recording the transaction a wallet sent for a prepared reservation (POST /v1/reservations/status, embed settle).
import type { Pool } from "pg";
import type { RegistryClient } from "../../chains/registryClient";
import { ApiError } from "../../core/errors/catalogue";
import { isFinal } from "../../core/reservation";
import type { Reservation } from "./record";
import { transition } from "./store";

const UNIQUE_VIOLATION = "23505";

/**
 * pending_payment -> submitted with the hash. A submitted reservation takes a new hash too: a Solana creator whose
 * blockhash lapsed signs again and sends a new signature. The same hash again changes nothing.
 */
export async function recordSubmission(
  pool: Pool,
  registry: RegistryClient,
  reservation: Reservation,
  transactionHash: string,
  now: Date,
): Promise<Reservation> {
  if (!registry.isTransactionHash(transactionHash)) {
    throw new ApiError(
      "invalid_request",
      registry.family === "evm"
        ? "`transactionHash` must be the 0x-prefixed 32-byte hash of the transaction the wallet sent."
        : "`transactionHash` must be the base58 signature of the transaction the wallet sent.",
      { field: "transactionHash", chain: reservation.chain },
    );
  }
  if (reservation.transactionHash === transactionHash || reservation.status === "confirmed")
    return reservation;
  if (isFinal(reservation.status)) {
    throw new ApiError("reservation_finished", undefined, {
      reservationId: reservation.reservationId,
      status: reservation.status,
    });
  }
  try {
    const moved = await transition(pool, reservation.reservationId, reservation.status, "submitted", {
      transaction_hash: transactionHash,
      submitted_at: now,
    });
    // Another request moved it meanwhile; answer with what it is now.
    return moved ?? reservation;
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      throw new ApiError("transaction_already_used", undefined, { transactionHash });
    }
    throw error;
  }
}
