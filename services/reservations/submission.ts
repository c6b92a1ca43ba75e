// Recording the transaction a wallet sent for a prepared reservation (POST /v1/reservations/status, embed settle):
// a new reservation's commitment keeps it pending_payment; its reveal, or a renewal, submits it.
import type { Pool } from "pg";
import type { RegistryClient } from "../../chains/registryClient";
import { ApiError } from "../../core/errors/catalogue";
import { isFinal } from "../../core/reservation";
import { fromChain } from "./chainAccess";
import type { Reservation } from "./record";
import { recordCommitSubmission, recordConfirmedSettlement, reservationById, transition } from "./store";

/** Which of the reservation's transactions a reported hash was taken for. */
export type SubmittedStep = "commit" | "reveal" | "renew";

export interface Submission {
  reservation: Reservation;
  step: SubmittedStep;
}

const UNIQUE_VIOLATION = "23505";

/**
 * The step a hash reported for a new reservation is: what its own calldata or instruction says when a node knows
 * it; otherwise the order of reports decides (a wallet sends the commitment first, then the reveal).
 */
async function stepOfReport(
  registry: RegistryClient,
  reservation: Reservation,
  transactionHash: string,
): Promise<SubmittedStep> {
  if (reservation.reveal === null) return "renew";
  if (transactionHash === reservation.commitTransactionHash) return "commit";
  if (reservation.status !== "pending_payment") return "reveal";
  const step = await fromChain(registry.stepOf(transactionHash));
  if (step === "commit") return "commit";
  if (step !== null) return "reveal";
  return reservation.commitTransactionHash === null ? "commit" : "reveal";
}

/**
 * A new reservation's commitment is recorded beside it (it stays pending_payment: nothing is paid yet); its reveal,
 * or a renewal, moves it pending_payment -> submitted with the hash. A submitted reservation takes a new hash too: a
 * Solana creator whose blockhash lapsed signs again and sends a new signature. The same hash again changes nothing.
 * A confirmed reservation keeps its state; it records a first hash only when the mirror holds it as its settlement.
 */
export async function recordSubmission(
  pool: Pool,
  registry: RegistryClient,
  reservation: Reservation,
  transactionHash: string,
  now: Date,
): Promise<Submission> {
  return recordOnce(pool, registry, reservation, transactionHash, now, true);
}

async function recordOnce(
  pool: Pool,
  registry: RegistryClient,
  reservation: Reservation,
  transactionHash: string,
  now: Date,
  againIfMoved: boolean,
): Promise<Submission> {
  if (!registry.isTransactionHash(transactionHash)) {
    throw new ApiError(
      "invalid_request",
      registry.family === "evm"
        ? "`transactionHash` must be the 0x-prefixed 32-byte hash of the transaction the wallet sent."
        : "`transactionHash` must be the base58 signature of the transaction the wallet sent.",
      { field: "transactionHash", chain: reservation.chain },
    );
  }
  const paying: SubmittedStep = reservation.reveal === null ? "renew" : "reveal";
  if (reservation.transactionHash === transactionHash) return { reservation, step: paying };
  if (reservation.status === "confirmed") {
    const recorded =
      reservation.transactionHash === null
        ? await unlessUsed(transactionHash, () =>
            recordConfirmedSettlement(pool, reservation.reservationId, transactionHash, now),
          )
        : undefined;
    return { reservation: recorded ?? reservation, step: paying };
  }
  if (isFinal(reservation.status)) {
    throw new ApiError("reservation_finished", undefined, {
      reservationId: reservation.reservationId,
      status: reservation.status,
    });
  }
  const step = await stepOfReport(registry, reservation, transactionHash);
  if (step === "commit") {
    if (reservation.commitTransactionHash !== null) return { reservation, step };
    const recorded = await recordCommitSubmission(pool, reservation.reservationId, transactionHash, now);
    return { reservation: recorded ?? reservation, step };
  }
  const moved = await unlessUsed(transactionHash, () =>
    transition(pool, reservation.reservationId, reservation.status, "submitted", {
      transaction_hash: transactionHash,
      submitted_at: now,
    }),
  );
  if (moved !== undefined) return { reservation: moved, step };
  // Another writer moved it meanwhile: the reconciler may have confirmed it from the mirror while the wallet's
  // report was on its way. The report then applies to what the reservation is now (once: a row that moves again
  // is answered as it stands).
  const fresh = await reservationById(pool, reservation.reservationId);
  if (fresh === undefined || fresh.status === reservation.status || !againIfMoved) {
    return { reservation: fresh ?? reservation, step };
  }
  return recordOnce(pool, registry, fresh, transactionHash, now, false);
}

/** Runs a write of `transactionHash` as a reservation's settlement; another reservation holding it is the caller's error. */
async function unlessUsed<T>(transactionHash: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      throw new ApiError("transaction_already_used", undefined, { transactionHash });
    }
    throw error;
  }
}
